// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * udp-loop N: send N UDP datagrams to itself over 127.0.0.1 and receive
 * each, so that the loopback device raises NET_RX softirqs; exit 0 once
 * all N came back.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	char buf[64] = "bpfkit";
	long i, n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: udp-loop N\n");
		return 2;
	}
	n = atol(argv[1]);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(fd, (struct sockaddr *)&addr, &len)) {
		perror("udp-loop");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&addr,
			   sizeof(addr)) < 0 ||
		    recv(fd, buf, sizeof(buf), 0) < 0) {
			perror("udp-loop");
			return 1;
		}
	}
	close(fd);
	return 0;
}
