// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcp-trigger COMM MODE ADDR [ARG...]: name this process COMM and print
 * its pid; then make TCP connections on ADDR (a loopback address, or one
 * of a network namespace the test made) and print what they were:
 *
 *	connect ADDR		connect to a listener on ADDR (port 0: the
 *				kernel's pick), then to a port of ADDR that
 *				nothing listens on: "established SPORT DPORT",
 *				"connect_us US" (the first connect(2)'s own
 *				time), "refused DPORT ERRNO"
 *	session ADDR SEND RECV MS [PORT]	a forked server accepts (on
 *				PORT, or the kernel's pick); the client sends
 *				SEND bytes, receives RECV, sleeps MS ms and
 *				closes, then the server: "session CLIENT_PID
 *				SERVER_PID CPORT SPORT ELAPSED_MS" (connect
 *				to close, as the client saw it)
 *	serve ADDR PORT		accept one connection on ADDR:PORT and
 *				close it: "serve PORT" once listening
 *	stall ADDR		connect to a listener of its own on ADDR:
 *				"stall CPORT PORT"; at a line on stdin send
 *				1000 bytes and wait 2 s for them to be
 *				acknowledged (a drop rule the test adds
 *				meanwhile makes the kernel retransmit)
 *	dial ADDR PORT SYNCNT	one connect to ADDR:PORT, with TCP_SYNCNT
 *				SYN retries: "dial SPORT ERRNO" (0 on success)
 *	sink ADDR PORT		accept one connection on ADDR:PORT, read it
 *				to its end and close it: "sink PORT" once
 *				listening, "sunk BYTES" at the end
 *	send ADDR PORT BYTES	connect to ADDR:PORT, send BYTES and close:
 *				"send SPORT BYTES"
 *	listen ADDR PORT BACKLOG	listen with BACKLOG on a socket
 *				bound to ADDR:PORT (PORT 0: left unbound, the
 *				kernel picks one), then on a pipe: "listen FD
 *				PORT", "notsock FD ERRNO"
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

static struct sockaddr_storage addr;
static socklen_t addr_len;

static void die(const char *what)
{
	fprintf(stderr, "tcp-trigger: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_addr(const char *text)
{
	struct sockaddr_in *in = (void *)&addr;
	struct sockaddr_in6 *in6 = (void *)&addr;

	if (inet_pton(AF_INET, text, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		addr_len = sizeof(*in);
	} else if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		addr_len = sizeof(*in6);
	} else {
		fprintf(stderr, "tcp-trigger: bad address '%s'\n", text);
		exit(2);
	}
}

static int port_of(const struct sockaddr_storage *ss)
{
	return ntohs(ss->ss_family == AF_INET ?
			     ((struct sockaddr_in *)ss)->sin_port :
			     ((struct sockaddr_in6 *)ss)->sin6_port);
}

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static int local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		die("getsockname");
	return port_of(&ss);
}

/* A socket bound to ADDR and PORT; listening when BACKLOG > 0. */
static int bound_socket(int port, int backlog)
{
	struct sockaddr_storage ss = addr;
	int fd = socket(addr.ss_family, SOCK_STREAM, 0), one = 1;

	set_port(&ss, port);
	/* A port the test chose may have a connection in TIME_WAIT. */
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, addr_len))
		die("bind");
	if (backlog && listen(fd, backlog))
		die("listen");
	return fd;
}

/* Connect a new socket to ADDR:PORT; returns the fd, or -errno. */
static int dial(int port, int syncnt)
{
	struct sockaddr_storage ss = addr;
	int fd = socket(addr.ss_family, SOCK_STREAM, 0);

	if (fd < 0)
		die("socket");
	if (syncnt &&
	    setsockopt(fd, IPPROTO_TCP, TCP_SYNCNT, &syncnt, sizeof(syncnt)))
		die("TCP_SYNCNT");
	set_port(&ss, port);
	if (connect(fd, (struct sockaddr *)&ss, addr_len)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static void xfer(int fd, long n, bool send)
{
	static char buf[65536];
	ssize_t r;

	while (n > 0) {
		size_t len = n < (long)sizeof(buf) ? (size_t)n : sizeof(buf);

		r = send ? write(fd, buf, len) : read(fd, buf, len);
		if (r <= 0)
			die(send ? "write" : "read");
		n -= r;
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void do_connect(void)
{
	int lfd = bound_socket(0, 1), port = local_port(lfd), fd, cfd;
	double start = now_ms();

	fd = dial(port, 0);
	if (fd < 0) {
		errno = -fd;
		die("connect to the listener");
	}
	printf("established %d %d\nconnect_us %.0f\n", local_port(fd), port,
	       (now_ms() - start) * 1000);
	cfd = accept(lfd, NULL, NULL);
	close(fd);
	close(cfd);
	close(lfd);

	/* A port nothing listens on: bound, then closed. */
	lfd = bound_socket(0, 0);
	port = local_port(lfd);
	close(lfd);
	fd = dial(port, 0);
	printf("refused %d %d\n", port, fd < 0 ? -fd : 0);
	if (fd >= 0)
		close(fd);
}

static void do_serve(int port)
{
	int lfd = bound_socket(port, 1), cfd;

	printf("serve %d\n", local_port(lfd));
	fflush(stdout);
	cfd = accept(lfd, NULL, NULL);
	if (cfd < 0)
		die("accept");
	close(cfd);
	close(lfd);
}

static void do_sink(int port)
{
	int lfd = bound_socket(port, 1), cfd;
	static char buf[65536];
	long n = 0;
	ssize_t r;

	printf("sink %d\n", local_port(lfd));
	fflush(stdout);
	cfd = accept(lfd, NULL, NULL);
	if (cfd < 0)
		die("accept");
	while ((r = read(cfd, buf, sizeof(buf))) > 0)
		n += r;
	if (r < 0)
		die("read");
	printf("sunk %ld\n", n);
	close(cfd);
	close(lfd);
}

static void do_send(int port, long bytes)
{
	int fd = dial(port, 0);

	if (fd < 0) {
		errno = -fd;
		die("connect");
	}
	xfer(fd, bytes, true);
	printf("send %d %ld\n", local_port(fd), bytes);
	close(fd);
}

static void do_stall(void)
{
	int lfd = bound_socket(0, 1), port = local_port(lfd), fd, cfd;
	struct timespec wait = { 2, 0 };
	char line[16];

	fd = dial(port, 0);
	if (fd < 0) {
		errno = -fd;
		die("connect");
	}
	cfd = accept(lfd, NULL, NULL);
	printf("stall %d %d\n", local_port(fd), port);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		die("read the go line");
	xfer(fd, 1000, true);
	nanosleep(&wait, NULL);
	close(fd);
	close(cfd);
	close(lfd);
}

static void do_listen(int port, int backlog)
{
	int fd, pipefd[2];

	if (port) {
		fd = bound_socket(port, 0);
	} else {
		fd = socket(addr.ss_family, SOCK_STREAM, 0);
		if (fd < 0)
			die("socket");
	}
	if (listen(fd, backlog))
		die("listen");
	printf("listen %d %d\n", fd, local_port(fd));
	if (pipe(pipefd))
		die("pipe");
	printf("notsock %d %d\n", pipefd[0],
	       listen(pipefd[0], backlog) ? errno : 0);
	close(pipefd[0]);
	close(pipefd[1]);
	close(fd);
}

static void do_session(long send, long recv, long ms, int at)
{
	int lfd = bound_socket(at, 1), port = local_port(lfd), fd, cfd, cport;
	struct timespec nap = { ms / 1000, ms % 1000 * 1000000 };
	char c;
	double start;
	pid_t server;

	fflush(stdout);
	server = fork();
	if (server < 0)
		die("fork");
	if (!server) {
		cfd = accept(lfd, NULL, NULL);
		if (cfd < 0)
			die("accept");
		xfer(cfd, send, false);
		xfer(cfd, recv, true);
		/* Wait for the client's close, then close. */
		if (read(cfd, &c, 1) != 0)
			die("read EOF");
		close(cfd);
		_exit(0);
	}
	close(lfd);
	start = now_ms();
	fd = dial(port, 0);
	if (fd < 0) {
		errno = -fd;
		die("connect");
	}
	cport = local_port(fd);
	xfer(fd, send, true);
	xfer(fd, recv, false);
	nanosleep(&nap, NULL);
	close(fd);
	printf("session %d %d %d %d %.0f\n", getpid(), server, cport, port,
	       now_ms() - start);
	waitpid(server, NULL, 0);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc < 4) {
		fprintf(stderr,
			"usage: tcp-trigger COMM connect|session|serve|stall|dial|sink|send|listen ADDR [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1]))
		die("prctl");
	set_addr(argv[3]);
	printf("%d\n", getpid());
	if (!strcmp(argv[2], "connect")) {
		do_connect();
	} else if (!strcmp(argv[2], "session") && (argc == 7 || argc == 8)) {
		do_session(atol(argv[4]), atol(argv[5]), atol(argv[6]),
			   argc == 8 ? atoi(argv[7]) : 0);
	} else if (!strcmp(argv[2], "stall")) {
		do_stall();
	} else if (!strcmp(argv[2], "serve") && argc == 5) {
		do_serve(atoi(argv[4]));
	} else if (!strcmp(argv[2], "dial") && argc == 6) {
		fd = dial(atoi(argv[4]), atoi(argv[5]));
		printf("dial %d %d\n", fd < 0 ? 0 : local_port(fd),
		       fd < 0 ? -fd : 0);
	} else if (!strcmp(argv[2], "sink") && argc == 5) {
		do_sink(atoi(argv[4]));
	} else if (!strcmp(argv[2], "send") && argc == 6) {
		do_send(atoi(argv[4]), atol(argv[5]));
	} else if (!strcmp(argv[2], "listen") && argc == 6) {
		do_listen(atoi(argv[4]), atoi(argv[5]));
	} else {
		fprintf(stderr, "tcp-trigger: bad mode or arguments\n");
		return 2;
	}
	return 0;
}
