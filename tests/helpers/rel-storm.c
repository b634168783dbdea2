// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * rel-storm MODE COMM [PROG]: name this process COMM and print its pid;
 * then for each number N read from stdin cause N events of MODE, from four
 * threads at once, and print "done N". Exits at end of input.
 *
 *	exec	vfork and execve PROG (a link named COMM to this program)
 *	open	open and close /dev/null
 *	exit	vfork a child that exits at once
 *	signal	send ourselves an ignored SIGUSR1
 *	syscall	call getppid(2)
 *	resolve	getaddrinfo(3) of 127.0.0.1, numeric: no resolver file or
 *		name server is asked (a minimal root has no /etc/hosts)
 *	readline	call this program's own readline(), a stand-in for bash's
 *		(bashreadline --shell THIS_PROGRAM traces it)
 *	import	pass USDT probes named as CPython's import probes
 *		(pyimport --python THIS_PROGRAM traces them)
 *	io	read PROG's first 4 KiB with O_DIRECT: one block I/O each
 *	stat	stat(2) /dev/null
 *	bind	bind a UDP socket to 127.0.0.1, port 0, and close it
 *	mount	a mount(2) that fails (ENOENT: no target), changing nothing
 *	connect	a TCP connect to a port of 127.0.0.1 that this process holds
 *		bound but not listening: refused at once
 *	accept	a TCP connect to a listener on 127.0.0.1 that this process
 *		holds, an accept(2) and both closed
 *	mix	one of each (exec only when PROG is given)
 *
 * Run as "COMM exit" (argv[1] == "exit") it exits at once: the exec target.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sdt.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define THREADS 4

static const char *prog;
static void (*fn)(void);
static long per_thread;

static void do_exec(void)
{
	pid_t pid = vfork();

	if (!pid) {
		execl(prog, prog, "exit", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void do_open(void)
{
	int fd = open("/dev/null", O_RDONLY);

	if (fd >= 0)
		close(fd);
}

static void do_exit(void)
{
	pid_t pid = vfork();

	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void do_signal(void)
{
	kill(getpid(), SIGUSR1);
}

static void do_syscall(void)
{
	syscall(SYS_getppid);
}

static void do_resolve(void)
{
	const struct addrinfo hints = { .ai_flags = AI_NUMERICHOST };
	struct addrinfo *res;

	if (!getaddrinfo("127.0.0.1", NULL, &hints, &res))
		freeaddrinfo(res);
}

/* What bashreadline's uretprobe reads: the line readline() returns. */
__attribute__((noinline)) char *readline(const char *prompt)
{
	static char line[] = "storm line";

	__asm__ volatile("" ::"r"(prompt) : "memory");
	return line;
}

static void do_readline(void)
{
	readline("$ ");
}

/* CPython's pair around each import: the module name, then found. */
static void do_import(void)
{
	static const char name[] = "storm_module";

	DTRACE_PROBE1(python, import__find__load__start, name);
	DTRACE_PROBE2(python, import__find__load__done, name, 1);
}

static void do_io(void)
{
	static __thread void *buf;
	int fd;

	if (!buf && posix_memalign(&buf, 4096, 4096))
		return;
	fd = open(prog, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return;
	if (pread(fd, buf, 4096, 0) < 0)
		perror("rel-storm: read");
	close(fd);
}

static void do_stat(void)
{
	struct stat st;

	stat("/dev/null", &st);
}

static void do_bind(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		return;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(fd, (struct sockaddr *)&sin, sizeof(sin));
	close(fd);
}

/* The port do_connect() is refused on: bound, never listening. */
static struct sockaddr_in refusing = { .sin_family = AF_INET };

/* The listener do_accept() connects to. */
static struct sockaddr_in listening = { .sin_family = AF_INET };
static int listen_fd = -1;

static void do_accept(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), cfd;

	if (fd < 0)
		return;
	if (!connect(fd, (struct sockaddr *)&listening, sizeof(listening))) {
		cfd = accept(listen_fd, NULL, NULL);
		if (cfd >= 0)
			close(cfd);
	}
	close(fd);
}

static void hold_refusing_port(void)
{
	socklen_t len = sizeof(refusing);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	refusing.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&refusing, len) ||
	    getsockname(fd, (struct sockaddr *)&refusing, &len))
		perror("rel-storm: bind");
}

/* Hold the TCP modes' ports: do_accept()'s listener, do_connect()'s refusal. */
static void hold_ports(void)
{
	socklen_t len = sizeof(listening);

	listening.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (listen_fd < 0 ||
	    bind(listen_fd, (struct sockaddr *)&listening, len) ||
	    listen(listen_fd, 128) ||
	    getsockname(listen_fd, (struct sockaddr *)&listening, &len))
		perror("rel-storm: listen");
	hold_refusing_port();
}

static void do_connect(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return;
	connect(fd, (struct sockaddr *)&refusing, sizeof(refusing));
	close(fd);
}

static void do_mount(void)
{
	mount("none", "", "tmpfs", 0, NULL);
}

static void do_mix(void)
{
	if (prog)
		do_exec();
	do_open();
	do_exit();
	do_signal();
	do_syscall();
	do_resolve();
	do_readline();
	do_import();
	do_stat();
	do_bind();
	do_mount();
	do_connect();
	do_accept();
}

static const struct {
	const char *name;
	void (*fn)(void);
} modes[] = {
	{ "exec", do_exec },	   { "open", do_open },
	{ "exit", do_exit },	   { "signal", do_signal },
	{ "syscall", do_syscall }, { "mix", do_mix },
	{ "resolve", do_resolve }, { "readline", do_readline },
	{ "import", do_import },   { "io", do_io },
	{ "stat", do_stat },	   { "bind", do_bind },
	{ "mount", do_mount },	   { "connect", do_connect },
	{ "accept", do_accept },
};

static void *worker(void *unused)
{
	long i;

	for (i = 0; i < per_thread; i++)
		fn();
	return NULL;
}

/* Cause COUNT events, spread over the threads to outrun any reader. */
static int storm(long count)
{
	pthread_t threads[THREADS];
	int i, n;

	per_thread = count / THREADS;
	for (n = 0; n < THREADS; n++)
		if (pthread_create(&threads[n], NULL, worker, NULL))
			break;
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	for (i = n * per_thread; i < count; i++)
		fn();
	return n ? 0 : -1;
}

int main(int argc, char **argv)
{
	size_t m;
	long count;

	/* Be the exec target: exit at once. */
	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	for (m = 0; argc >= 3 && m < sizeof(modes) / sizeof(modes[0]); m++)
		if (!strcmp(argv[1], modes[m].name))
			fn = modes[m].fn;
	prog = argc > 3 ? argv[3] : NULL;
	if (!fn || ((fn == do_exec || fn == do_io) && !prog)) {
		fprintf(stderr,
			"usage: rel-storm exec|open|exit|signal|syscall|mix|resolve|readline|import|io|stat|bind|mount|connect|accept COMM [PROG] <COUNTS\n");
		return 2;
	}

	/* Take the command name and say who we are. */
	signal(SIGUSR1, SIG_IGN);
	hold_ports();
	if (prctl(PR_SET_NAME, argv[2])) {
		perror("rel-storm: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);

	/* Cause each storm asked for. */
	while (scanf("%ld", &count) == 1 && count > 0) {
		if (storm(count)) {
			fprintf(stderr, "rel-storm: cannot start threads\n");
			return 1;
		}
		printf("done %ld\n", count);
		fflush(stdout);
	}
	return 0;
}
