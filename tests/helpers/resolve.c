// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * resolve NAME...: print this process's pid, then look up every NAME with
 * getaddrinfo(), gethostbyname() and gethostbyname2(AF_INET), in that
 * order, printing "FUNC NAME found" or "FUNC NAME not found" for each.
 * gethostlatency.bats traces those calls.
 */
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

static void report(const char *func, const char *name, int found)
{
	printf("%s %s %s\n", func, name, found ? "found" : "not found");
}

int main(int argc, char **argv)
{
	struct addrinfo hints, *res;
	int i, found;

	if (argc < 2) {
		fprintf(stderr, "usage: resolve NAME...\n");
		return 2;
	}
	printf("%d\n", getpid());
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	for (i = 1; i < argc; i++) {
		found = !getaddrinfo(argv[i], NULL, &hints, &res);
		if (found)
			freeaddrinfo(res);
		report("getaddrinfo", argv[i], found);
		report("gethostbyname", argv[i],
		       gethostbyname(argv[i]) != NULL);
		report("gethostbyname2", argv[i],
		       gethostbyname2(argv[i], AF_INET) != NULL);
	}
	return 0;
}
