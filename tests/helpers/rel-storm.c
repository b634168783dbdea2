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
 *	read	open this program's file (/proc/self/exe), pread(2) one
 *		byte and close it: two file calls
 *	sync	sync_file_range(2) of no range on this program's file,
 *		held open by each thread: a sync call that writes nothing
 *	life	create a file in /tmp and unlink it: one short-lived file
 *	listen	listen(2) on an unbound TCP socket (the kernel binds it to
 *		a port of its choice) and close it; not in mix
 *	mount	a mount(2) that fails (ENOENT: no target), changing nothing
 *	cap	setgroups(2) of no groups, by this thread alone: one
 *		capability check (CAP_SETGID) each; not in mix
 *	connect	a TCP connect to a port of 127.0.0.1 that this process holds
 *		bound but not listening: refused at once
 *	accept	a TCP connect to a listener on 127.0.0.1 that this process
 *		holds, an accept(2) and both closed
 *	retrans	TCP retransmits, in a network namespace of its own (taken at
 *		start; loopback up, MTU 1500, one segment per packet): a
 *		connection whose receiving socket's filter drops every
 *		8th data packet carries data until the namespace has
 *		sent N more retransmits (TcpRetransSegs less
 *		TCPRetransFail) and everything is acknowledged (no
 *		retransmit pending), then "done N TOTAL", TOTAL the
 *		retransmits sent since start; not in mix
 *	switch	a pipe ping-pong with a partner thread of this thread's
 *		own, all on one CPU: each pass wakes at least one of the
 *		two (or, woken at once, one was preempted): one run-queue
 *		wait; not in mix
 *	reclaim	a memory cgroup reclaim, run by this process: it
 *		takes a memory cgroup of its own (cgroup v1's memory
 *		hierarchy, else cgroup v2's), charges 1 MiB of locked
 *		memory to it, and each pass asks for a limit of one page
 *		(v1's memory.limit_in_bytes: refused once one reclaim
 *		found nothing to take; v2's memory.high, put back to max
 *		after); not in mix
 *	mix	one of each (exec only when PROG is given), but those not in mix
 *
 * Run as "COMM exit" (argv[1] == "exit") it exits at once: the exec target.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/filter.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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

static void do_read(void)
{
	char c;
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0)
		return;
	if (pread(fd, &c, 1, 0) < 0)
		perror("rel-storm: read");
	close(fd);
}

static void do_sync(void)
{
	static __thread int fd = -1;

	if (fd < 0)
		fd = open("/proc/self/exe", O_RDONLY);
	if (sync_file_range(fd, 0, 0, 0))
		perror("rel-storm: sync_file_range");
}

static void do_life(void)
{
	static __thread unsigned long n;
	char file[64];
	int fd;

	snprintf(file, sizeof(file), "/tmp/rel-storm-%d-%d-%lu", getpid(),
		 gettid(), n++);
	fd = open(file, O_CREAT | O_WRONLY | O_EXCL, 0600);
	if (fd < 0)
		return;
	close(fd);
	unlink(file);
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

static void do_listen(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return;
	listen(fd, 1);
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

/* The retrans mode's connection: data goes from retrans_fd to retrans_rx. */
static int retrans_fd = -1, retrans_rx = -1;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Loopback of this namespace: up, MTU 1500, one segment per packet. */
static void setup_loopback(void)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		struct rtattr rta;
		__u32 segs;
	} req = {
		.nh = { .nlmsg_len = sizeof(req),
			.nlmsg_type = RTM_NEWLINK,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK },
		.ifi = { .ifi_family = AF_UNSPEC },
		.rta = { .rta_len = RTA_LENGTH(sizeof(__u32)),
			 .rta_type = IFLA_GSO_MAX_SEGS },
		.segs = 1,
	};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), nl;

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr))
		die("rel-storm: loopback flags");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		die("rel-storm: loopback up");
	ifr.ifr_mtu = 1500;
	if (ioctl(fd, SIOCSIFMTU, &ifr))
		die("rel-storm: loopback MTU");
	close(fd);

	/*
	 * A GSO packet of several segments would be retransmitted as one
	 * event but counted per segment in TcpRetransSegs.
	 */
	req.ifi.ifi_index = if_nametoindex("lo");
	nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (nl < 0 || send(nl, &req, sizeof(req), 0) < 0 ||
	    recv(nl, &ack, sizeof(ack), 0) < (ssize_t)sizeof(ack))
		die("rel-storm: loopback gso_max_segs");
	if (ack.nh.nlmsg_type == NLMSG_ERROR && ack.err.error) {
		errno = -ack.err.error;
		die("rel-storm: loopback gso_max_segs");
	}
	close(nl);
}

/*
 * The value named NAME on the line pair of PREFIX ("Tcp:") in FILE, one of
 * the namespace's /proc/net/snmp and /proc/net/netstat.
 */
static long net_stat(const char *file, const char *prefix, const char *name)
{
	char names[4096], values[4096], *n, *v, *ns, *vs;
	FILE *f = fopen(file, "r");
	long value = -1;

	if (!f)
		die(file);
	while (fgets(names, sizeof(names), f) &&
	       fgets(values, sizeof(values), f)) {
		if (strncmp(names, prefix, strlen(prefix)))
			continue;
		n = strtok_r(names, " \n", &ns);
		v = strtok_r(values, " \n", &vs);
		while (n && v && strcmp(n, name)) {
			n = strtok_r(NULL, " \n", &ns);
			v = strtok_r(NULL, " \n", &vs);
		}
		if (n && v)
			value = atol(v);
		break;
	}
	fclose(f);
	if (value < 0) {
		fprintf(stderr, "rel-storm: no %s%s in %s\n", prefix, name,
			file);
		exit(1);
	}
	return value;
}

/*
 * The retransmits the namespace sent: TcpRetransSegs counts each one tried,
 * TCPRetransFail those of them the device did not take (no memory, a
 * queue full under load): those sent nothing, and tcp_retransmit_skb traces
 * them with their error on newer kernels (6.18 here), not at all on older.
 */
static long retransmits_sent(void)
{
	return net_stat("/proc/net/snmp", "Tcp:", "RetransSegs") -
	       net_stat("/proc/net/netstat", "TcpExt:", "TCPRetransFail");
}

/*
 * A connection on loopback (in the network namespace taken at start) whose
 * receiving socket drops every 8th packet that carries data (by IPv4 ID,
 * new for every packet sent, retransmits too; the handshake, ACKs and
 * FINs pass), so every retransmit the storm asks for comes quickly.
 */
static void setup_retrans(void)
{
	struct sock_filter drop_8th[] = {
		/* IPv4 total length: no data beyond the headers, keep. */
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_NET_OFF + 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 100, 0, 3),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_NET_OFF + 4),
		BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 8),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { .len = sizeof(drop_8th) /
					  sizeof(drop_8th[0]),
				   .filter = drop_8th };
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int lfd, one = 1;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	retrans_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || retrans_fd < 0 ||
	    bind(lfd, (struct sockaddr *)&a, len) || listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&a, &len) ||
	    connect(retrans_fd, (struct sockaddr *)&a, len))
		die("rel-storm: retrans connection");
	retrans_rx = accept(lfd, NULL, NULL);
	if (retrans_rx < 0 ||
	    setsockopt(retrans_rx, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
		       sizeof(prog)) ||
	    setsockopt(retrans_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("rel-storm: retrans filter");
	close(lfd);
}

/* The receiver: reads everything the connection carries. */
static void *drain(void *unused)
{
	static char buf[1 << 16];

	while (read(retrans_rx, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* Data until COUNT more retransmits, then until all is acknowledged. */
static void retrans_storm(long count)
{
	static char buf[1 << 16];
	long until = retransmits_sent() + count;
	int unacked;

	while (retransmits_sent() < until)
		if (write(retrans_fd, buf, sizeof(buf)) < 0)
			die("rel-storm: retrans write");
	do {
		usleep(10000);
		if (ioctl(retrans_fd, SIOCOUTQ, &unacked))
			die("rel-storm: SIOCOUTQ");
	} while (unacked);
}

static void do_mount(void)
{
	mount("none", "", "tmpfs", 0, NULL);
}

static void do_cap(void)
{
	syscall(SYS_setgroups, 0, NULL);
}

/* The partner of do_switch: echo each byte back until the end. */
static void *echo(void *arg)
{
	int *fds = arg;
	char c;

	while (read(fds[0], &c, 1) == 1 && write(fds[3], &c, 1) == 1)
		;
	return NULL;
}

static void do_switch(void)
{
	/* fds[0..1]: to the partner, fds[2..3]: back from it. */
	static __thread int fds[4] = { -1, -1, -1, -1 };
	pthread_t partner;
	char c = 0;

	if (fds[0] < 0 && (pipe(fds) || pipe(fds + 2) ||
			   pthread_create(&partner, NULL, echo, fds)))
		die("rel-storm: switch partner");
	if (write(fds[1], &c, 1) != 1 || read(fds[2], &c, 1) != 1)
		die("rel-storm: switch");
}

/* reclaim: the memory cgroup (with a / at the end), its mount, the knob. */
static char memcg[256], memcg_root[256];
static int memcg_knob = -1;
static bool memcg_v2;
static void *memcg_locked;
#define MEMCG_LOCKED (1 << 20)

/* write_file PATH TEXT: write TEXT to the file PATH; -1 on error. */
static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Take a memory cgroup of our own, with 1 MiB locked in it. */
static void setup_memcg(void)
{
	char path[300], pid[32], type[32], opts[256], dir[256];
	FILE *mounts = fopen("/proc/mounts", "r");

	while (mounts && fscanf(mounts, "%*s %255s %31s %255s %*d %*d", dir,
				type, opts) == 3) {
		if (!strcmp(type, "cgroup") &&
		    (strstr(opts, ",memory") || !strncmp(opts, "memory", 6))) {
			strcpy(memcg_root, dir);
			memcg_v2 = false;
			break;
		}
		if (!strcmp(type, "cgroup2") && !memcg_root[0]) {
			snprintf(path, sizeof(path), "%s/cgroup.controllers",
				 dir);
			FILE *f = fopen(path, "r");
			char line[512] = "";

			if (f && fgets(line, sizeof(line), f) &&
			    strstr(line, "memory")) {
				strcpy(memcg_root, dir);
				memcg_v2 = true;
			}
			if (f)
				fclose(f);
		}
	}
	if (mounts)
		fclose(mounts);
	if (!memcg_root[0]) {
		fprintf(stderr, "rel-storm: no memory cgroup mounted\n");
		exit(1);
	}
	if (memcg_v2) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control",
			 memcg_root);
		write_file(path, "+memory");
	}
	snprintf(memcg, sizeof(memcg), "%s/rel-storm-%d/", memcg_root,
		 getpid());
	snprintf(pid, sizeof(pid), "%d", getpid());
	snprintf(path, sizeof(path), "%scgroup.procs", memcg);
	if (mkdir(memcg, 0755) || write_file(path, pid))
		die("rel-storm: memory cgroup");
	memcg_locked = mmap(NULL, MEMCG_LOCKED, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (memcg_locked == MAP_FAILED || mlock(memcg_locked, MEMCG_LOCKED))
		die("rel-storm: locked memory");
	snprintf(path, sizeof(path), "%s%s", memcg,
		 memcg_v2 ? "memory.high" : "memory.limit_in_bytes");
	memcg_knob = open(path, O_WRONLY);
	if (memcg_knob < 0)
		die("rel-storm: memory cgroup limit");
}

/* Leave the memory cgroup and remove it. */
static void drop_memcg(void)
{
	char path[300], pid[32];

	if (!memcg[0])
		return;
	close(memcg_knob);
	munmap(memcg_locked, MEMCG_LOCKED);
	snprintf(pid, sizeof(pid), "%d", getpid());
	snprintf(path, sizeof(path), "%s/cgroup.procs", memcg_root);
	write_file(path, pid);
	rmdir(memcg);
}

static void do_reclaim(void)
{
	/*
	 * Locked memory is no reclaim's: one page is refused, after one
	 * reclaim on v1 (several on v2), and the limit stays.
	 */
	if (pwrite(memcg_knob, "4096", 4, 0) == 4 && memcg_v2 &&
	    pwrite(memcg_knob, "max", 3, 0) != 3)
		die("rel-storm: memory.high");
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
	do_sync();
	do_life();
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
	{ "accept", do_accept },   { "retrans", NULL },
	{ "listen", do_listen },   { "read", do_read },
	{ "sync", do_sync },	   { "life", do_life },
	{ "cap", do_cap },	   { "switch", do_switch },
	{ "reclaim", do_reclaim },
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
	pthread_t drainer;
	bool retrans;
	long count, start = 0;
	size_t m;

	/* Be the exec target: exit at once. */
	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	for (m = 0; argc >= 3 && m < sizeof(modes) / sizeof(modes[0]); m++)
		if (!strcmp(argv[1], modes[m].name))
			break;
	retrans = m < sizeof(modes) / sizeof(modes[0]) && !modes[m].fn;
	fn = m < sizeof(modes) / sizeof(modes[0]) ? modes[m].fn : NULL;
	prog = argc > 3 ? argv[3] : NULL;
	if ((!fn && !retrans) || ((fn == do_exec || fn == do_io) && !prog)) {
		fprintf(stderr,
			"usage: rel-storm exec|open|exit|signal|syscall|mix|resolve|readline|import|io|stat|bind|listen|read|sync|life|mount|connect|accept|retrans|switch|reclaim COMM [PROG] <COUNTS\n");
		return 2;
	}

	/* Take the command name and say who we are. */
	signal(SIGUSR1, SIG_IGN);
	hold_ports();
	if (prctl(PR_SET_NAME, argv[2])) {
		perror("rel-storm: prctl");
		return 1;
	}
	if (retrans) {
		if (unshare(CLONE_NEWNET))
			die("rel-storm: network namespace");
		setup_loopback();
		start = retransmits_sent();
	}
	if (fn == do_reclaim)
		setup_memcg();
	if (fn == do_switch) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			die("rel-storm: one CPU");
	}
	printf("%d\n", getpid());
	fflush(stdout);

	/* Cause each storm asked for. */
	while (scanf("%ld", &count) == 1 && count > 0) {
		/*
		 * The connection is made at the first storm, with the tracer
		 * running: its connect names us the socket's owner.
		 */
		if (retrans && retrans_fd < 0) {
			setup_retrans();
			if (pthread_create(&drainer, NULL, drain, NULL))
				die("rel-storm: drain thread");
		}
		if (retrans) {
			retrans_storm(count);
			printf("done %ld %ld\n", count,
			       retransmits_sent() - start);
			fflush(stdout);
			continue;
		}
		if (storm(count)) {
			fprintf(stderr, "rel-storm: cannot start threads\n");
			return 1;
		}
		printf("done %ld\n", count);
		fflush(stdout);
	}
	drop_memcg();
	return 0;
}
