/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Commands that try to get more out of capaudit --suggest's trials than
 * the trials mean to give, for tests/root/capaudit_trials.sh. Each binds
 * port 80 on loopback (cap_net_bind_service), so the trials grant it.
 *
 *   capaudit_hostile --daemon FILE  binds; starts a daemon (setsid, a
 *                    second fork) that after 2 s appends "daemon CAPEFF"
 *                    (its effective set, as /proc/self/status says) to
 *                    FILE; exits 0 when the bind worked, else 1
 *   capaudit_hostile --serve        binds, then serves for ever; exits 1
 *                    when the bind is refused (a server started without
 *                    timeout(1): the first run ends, a trial would not)
 *   capaudit_hostile --hold MARK    binds, starts a daemon (setsid, a
 *                    second fork), and both wait for ever holding what
 *                    the trial granted; MARK, unused, names them on their
 *                    command lines; exits 1 when the bind is refused
 *   capaudit_hostile --plain MARK GO  binds; starts a child that drops
 *                    every capability and is dumpable again (as any
 *                    program without file capabilities run by the user
 *                    is, for another process of the user to trace), and
 *                    waits for ever (MARK, unused, names it); exits 0 once the
 *                    file GO exists (at most 10 s); 1 when the bind is
 *                    refused
 *   capaudit_hostile --send HOW PID ends PID, a process of the caller's
 *                    user, as HOW: "kill" (kill(2), SIGKILL); "sigqueue"
 *                    (SIGKILL by rt_sigqueueinfo(2) with si_code
 *                    SI_ASYNCIO, which a process may send another);
 *                    "sigqueue-timer" (the same with SI_TIMER, a POSIX
 *                    timer's, as the kernel's timers send it); "sigio"
 *                    (a pipe whose owner is PID, F_SETOWN, signals
 *                    SIGKILL, F_SETSIG, when written to: the kernel
 *                    sends it with si_code POLL_IN); "sigio-default" (the
 *                    same without F_SETSIG: SIGIO, which ends a process
 *                    that does not handle it, sent with SEND_SIG_PRIV);
 *                    "sigio-udp" (SIGKILL, F_SETSIG, for a UDP socket
 *                    whose owner is PID, when a datagram sent to it on
 *                    loopback arrives: in the network's interrupt);
 *                    "lose-info" (SIGTERM by rt_sigqueueinfo(2) once the
 *                    user's pending signals are at RLIMIT_SIGPENDING:
 *                    delivered without its siginfo); 0, or 1 and why
 *   capaudit_hostile --seize PID    traces PID (PTRACE_SEIZE), says
 *                    "seized", and waits for ever, never waiting for
 *                    PID: run outside a trial, as its user
 *   capaudit_hostile --proc-self    exits 4 unless /proc/PID/stat, PID as
 *                    getpid() says, names this program (a shell's
 *                    /proc/$$); then binds
 *   capaudit_hostile --signal SIG   binds, then dies of SIG; exits 1 when
 *                    the bind is refused
 *   capaudit_hostile --tiocsti TEXT pushes TEXT into its terminal's input
 *                    (TIOCSTI on descriptor 0, then on /dev/tty), as if
 *                    typed: what the shell that started capaudit reads
 *                    next; prints "tiocsti: ok" or why not, exits 0 or 1
 *   capaudit_hostile --dlopen LIB FILE  loads LIB and calls its
 *                    escalate(FILE) (tools/capaudit_lib/escalate.c): the
 *                    library's code, run with what this program holds;
 *                    0, or 1 when it fails
 *   capaudit_hostile --bound-dlopen LIB FILE  binds; only once bound
 *                    (in a trial that grants it) does --dlopen; 1 when
 *                    the bind is refused
 *   capaudit_hostile --bound-dlopen-unsecure LIB FILE  binds; then,
 *                    outside the secure mode (AT_SECURE) a file
 *                    capability gives, as a library that reads its
 *                    user's configuration only there does, loads LIB and
 *                    calls its record_caps(FILE) (the capabilities its
 *                    code ran with, a line added to FILE, or why LIB
 *                    could not be loaded: "dlopen: ..."); 0 once bound,
 *                    whatever LIB did; 1 when the bind is refused
 *   capaudit_hostile SCRIPT         an interpreter ("#!" names it): runs
 *                    SCRIPT's last line, "bind" (binds; 0 or 1) or
 *                    "escalate FILE" (setuid(0), then creates FILE, which
 *                    is root's then; 0, or 1 when setuid is refused)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int bind80(void)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(80);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
	if (rc < 0 && errno == EADDRINUSE)
		rc = 0; /* the privilege check came first and passed */
	close(fd);
	return rc;
}

static void cap_eff(char *buf, size_t size)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	snprintf(buf, size, "?");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "CapEff: %63s", buf) == 1)
			break;
	if (f != NULL)
		fclose(f);
}

static int daemon_run(const char *file)
{
	int ok = bind80() == 0;
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		if (fork() == 0) {
			char eff[64];
			FILE *out;

			sleep(2);
			cap_eff(eff, sizeof(eff));
			out = fopen(file, "a");
			if (out != NULL) {
				fprintf(out, "daemon %s\n", eff);
				fclose(out);
			}
		}
		_exit(0);
	}
	return ok ? 0 : 1;
}

static int proc_self(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	char path[64], stat[256], want[32];
	FILE *f;

	/* The kernel's name for it: the file's name, 15 bytes at most. */
	snprintf(want, sizeof(want), "(%.15s)",
		 base != NULL ? base + 1 : argv0);

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)getpid());
	f = fopen(path, "r");
	if (f == NULL || fgets(stat, sizeof(stat), f) == NULL) {
		if (f != NULL)
			fclose(f);
		return 4;
	}
	fclose(f);
	if (strstr(stat, want) == NULL)
		return 4;
	return bind80() == 0 ? 0 : 1;
}

/* What a script says, done with whatever the interpreter holds. */
static int interpret(const char *script)
{
	char line[4096] = "", last[4096] = "";
	FILE *f = fopen(script, "r");
	int fd;

	if (f == NULL)
		return 2;
	while (fgets(line, sizeof(line), f) != NULL)
		if (line[0] != '\n')
			memcpy(last, line, sizeof(last));
	fclose(f);
	last[strcspn(last, "\n")] = '\0';
	if (strcmp(last, "bind") == 0)
		return bind80() == 0 ? 0 : 1;
	if (strncmp(last, "escalate ", 9) == 0) {
		if (setuid(0) < 0)
			return 1;
		fd = open(last + 9, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	return 2;
}

static int push_input(int fd, const char *text)
{
	for (; *text != '\0'; text++)
		if (ioctl(fd, TIOCSTI, text) < 0)
			return -1;
	return 0;
}

static int tiocsti(const char *text)
{
	int fd, rc = push_input(0, text);

	if (rc < 0) {
		fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			rc = push_input(fd, text);
			close(fd);
		}
	}
	printf("tiocsti: %s\n", rc == 0 ? "ok" : strerror(errno));
	return rc == 0 ? 0 : 1;
}

static int load_fn(const char *lib, const char *name, const char *file)
{
	void *h = dlopen(lib, RTLD_NOW);
	int (*fn)(const char *);

	if (h == NULL)
		return 2;
	*(void **)&fn = dlsym(h, name);
	return fn != NULL && fn(file) == 0 ? 0 : 1;
}

/* Why dlopen(3) failed, a line added to file. */
static void note_refused(const char *file)
{
	const char *why = dlerror();
	FILE *f = fopen(file, "ae");

	if (f == NULL)
		return;
	fprintf(f, "dlopen: %s\n", why != NULL ? why : "failed");
	fclose(f);
}

static int load(const char *lib, const char *file)
{
	return load_fn(lib, "escalate", file);
}

/* The daemon and its starter, both for ever, with whatever they hold. */
static int hold(void)
{
	pid_t pid;

	if (bind80() < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		setsid();
		if (fork() != 0)
			_exit(0);
	}
	for (;;)
		pause();
}

static int plain(const char *go)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3,
						 0 };
	struct __user_cap_data_struct none[2];
	int i;

	if (bind80() < 0)
		return 1;
	if (fork() == 0) {
		memset(none, 0, sizeof(none));
		if (syscall(SYS_capset, &head, none) < 0 ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	for (i = 0; i < 1000 && access(go, F_OK) < 0; i++)
		usleep(10000);
	return 0;
}

/* rt_sigqueueinfo(2) of sig with si_code code: 0, or -1 with errno. */
static int queue_signal(pid_t pid, int sig, int code)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.si_pid = getpid();
	si.si_uid = getuid();
	return (int)syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
}

/*
 * The kernel sends the signal of a file's owner (F_SETOWN) when it
 * becomes readable, in the context of the process that wrote to it.
 */
static int send_sigio(pid_t pid, int sig)
{
	int p[2], rc = -1;

	if (pipe(p) < 0)
		return -1;
	if (fcntl(p[0], F_SETOWN, pid) == 0 &&
	    (sig == 0 || fcntl(p[0], F_SETSIG, sig) == 0) &&
	    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC) == 0 &&
	    write(p[1], "x", 1) == 1)
		rc = 0;
	close(p[0]);
	close(p[1]);
	return rc;
}

/* The same for a UDP socket on loopback, sent a datagram of its own. */
static int send_sigio_udp(pid_t pid, int sig)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_DGRAM, 0), rc = -1;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &len) == 0 &&
	    fcntl(s, F_SETOWN, pid) == 0 && fcntl(s, F_SETSIG, sig) == 0 &&
	    fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_ASYNC) == 0 &&
	    sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) == 1)
		rc = 0;
	if (s >= 0)
		close(s);
	return rc;
}

/*
 * Queues SIGRTMIN to itself (blocked) until the user's pending signals
 * reach RLIMIT_SIGPENDING: a signal queued to another process of the user
 * then finds no room for its siginfo and is delivered without it.
 */
static int send_losing_info(pid_t pid)
{
	sigset_t rt;

	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &rt, NULL) < 0)
		return -1;
	while (queue_signal(getpid(), SIGRTMIN, SI_QUEUE) == 0)
		;
	if (errno != EAGAIN)
		return -1;
	return queue_signal(pid, SIGTERM, SI_QUEUE);
}

static int send_as(const char *how, pid_t pid)
{
	int rc;

	if (strcmp(how, "kill") == 0)
		rc = kill(pid, SIGKILL);
	else if (strcmp(how, "sigqueue") == 0)
		rc = queue_signal(pid, SIGKILL, SI_ASYNCIO);
	else if (strcmp(how, "sigqueue-timer") == 0)
		rc = queue_signal(pid, SIGKILL, SI_TIMER);
	else if (strcmp(how, "sigio") == 0)
		rc = send_sigio(pid, SIGKILL);
	else if (strcmp(how, "sigio-udp") == 0)
		rc = send_sigio_udp(pid, SIGKILL);
	else if (strcmp(how, "sigio-default") == 0)
		rc = send_sigio(pid, 0);
	else if (strcmp(how, "lose-info") == 0)
		rc = send_losing_info(pid);
	else {
		fprintf(stderr, "--send: %s: not a way to send\n", how);
		return 1;
	}
	if (rc < 0) {
		fprintf(stderr, "--send %s %ld: %s\n", how, (long)pid,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int seize(const char *pid)
{
	if (ptrace(PTRACE_SEIZE, (pid_t)atoi(pid), NULL, NULL) < 0) {
		perror("PTRACE_SEIZE");
		return 1;
	}
	printf("seized\n");
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--daemon") == 0)
		return daemon_run(argv[2]);
	if (argc == 2 && strcmp(argv[1], "--serve") == 0) {
		if (bind80() < 0)
			return 1;
		for (;;)
			pause();
	}
	if (argc == 3 && strcmp(argv[1], "--hold") == 0)
		return hold();
	if (argc == 4 && strcmp(argv[1], "--plain") == 0)
		return plain(argv[3]); /* MARK names it on its command line */
	if (argc == 4 && strcmp(argv[1], "--send") == 0)
		return send_as(argv[2], (pid_t)atoi(argv[3]));
	if (argc == 3 && strcmp(argv[1], "--seize") == 0)
		return seize(argv[2]);
	if (argc == 2 && strcmp(argv[1], "--proc-self") == 0)
		return proc_self(argv[0]);
	if (argc == 3 && strcmp(argv[1], "--signal") == 0) {
		int sig = atoi(argv[2]);

		if (bind80() < 0)
			return 1;
		signal(sig, SIG_DFL);
		raise(sig);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "--dlopen") == 0)
		return load(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "--bound-dlopen") == 0)
		return bind80() < 0 ? 1 : load(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "--bound-dlopen-unsecure") == 0) {
		if (bind80() < 0)
			return 1;
		if (getauxval(AT_SECURE) == 0 &&
		    load_fn(argv[2], "record_caps", argv[3]) == 2)
			note_refused(argv[3]);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--tiocsti") == 0)
		return tiocsti(argv[2]);
	if (argc == 2 && argv[1][0] != '-')
		return interpret(argv[1]);
	fprintf(stderr,
		"usage: capaudit_hostile --daemon FILE | --serve | --hold MARK | --plain MARK GO | --send HOW PID | --seize PID | --proc-self | --signal SIG | --tiocsti TEXT | --[bound-]dlopen[-unsecure] LIB FILE | SCRIPT\n");
	return 2;
}
