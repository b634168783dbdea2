// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bind-trigger COMM: name this process COMM and print its pid; then bind,
 * on loopback only: a TCP socket with SO_REUSEADDR to 127.0.0.1 port 0
 * (and listen), a TCP socket with SO_REUSEPORT to [::1] port 0, a UDP
 * socket to 127.0.0.1 port 0, and a TCP socket to the first one's port
 * (EADDRINUSE). Prints "NAME PORT RESULT" per bind: the port it got (or
 * asked for), and 0 or -errno.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>

/* Bind a new socket of FAMILY and TYPE with option OPT (0: none) to ADDR
 * and PORT; print the result; return the port it got. */
static int bind_one(const char *name, int family, int type, int opt,
		    const char *addr, int port)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in *in = (void *)&ss;
	struct sockaddr_in6 *in6 = (void *)&ss;
	socklen_t len = family == AF_INET ? sizeof(*in) : sizeof(*in6);
	int fd, one = 1, ret;

	fd = socket(family, type, 0);
	if (fd < 0 ||
	    (opt && setsockopt(fd, SOL_SOCKET, opt, &one, sizeof(one)))) {
		printf("%s %d %d\n", name, port, -errno);
		return port;
	}
	ss.ss_family = family;
	if (family == AF_INET) {
		in->sin_port = htons(port);
		inet_pton(family, addr, &in->sin_addr);
	} else {
		in6->sin6_port = htons(port);
		inet_pton(family, addr, &in6->sin6_addr);
	}
	ret = bind(fd, (struct sockaddr *)&ss, len) ? -errno : 0;
	if (!ret) {
		getsockname(fd, (struct sockaddr *)&ss, &len);
		port = ntohs(family == AF_INET ? in->sin_port : in6->sin6_port);
		if (type == SOCK_STREAM)
			listen(fd, 1);
	}
	printf("%s %d %d\n", name, port, ret);
	/* Keep the sockets open: the last bind needs the first one's port. */
	return port;
}

int main(int argc, char **argv)
{
	int port;

	if (argc != 2) {
		fprintf(stderr, "usage: bind-trigger COMM\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("bind-trigger: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	port = bind_one("tcp4", AF_INET, SOCK_STREAM, SO_REUSEADDR, "127.0.0.1",
			0);
	bind_one("tcp6", AF_INET6, SOCK_STREAM, SO_REUSEPORT, "::1", 0);
	bind_one("udp4", AF_INET, SOCK_DGRAM, 0, "127.0.0.1", 0);
	bind_one("taken", AF_INET, SOCK_STREAM, 0, "127.0.0.1", port);
	return 0;
}
