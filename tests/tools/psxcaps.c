/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * psxcaps: does a libcap state change reach every thread? Linked with
 * libpsx as libcap documents (bin/psxcaps; bin/psxcaps-static with libpsx.a
 * and -Wl,-wrap,pthread_create), it must; linked without (psxcaps-nopsx),
 * only the calling thread changes, which is the bug libpsx exists for.
 *
 *   psxcaps proc|mode|setuid|iab
 *       starts four threads (blocked in read(2), in nanosleep(2), idle,
 *       spinning), makes the change from the main thread, then prints every
 *       thread's credentials from /proc/self/task/TID/status. Exit 0 when
 *       every thread shows the expected new state, 1 otherwise.
 *   psxcaps exploit FILE
 *       the classic exploit: a thread started before the main thread
 *       drops every capability then tries to open FILE (which only
 *       CAP_DAC_OVERRIDE can open) and a raw socket (CAP_NET_RAW). Exit 0
 *       when both are refused ("exploit failed"), 1 when either works.
 *
 * Runs as root with the full capability sets.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NWORKERS 4

static int stop;  /* atomic */
static int ready; /* atomic: workers that have started */
static int pipefd[2];

/* The fields compared between threads, as /proc prints them. */
static const char *const fields[] = {
	"Uid:",	   "Gid:",    "CapInh:", "CapPrm:",
	"CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:",
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

struct creds {
	char value[NFIELDS][64];
};

static int read_creds(pid_t tid, struct creds *c)
{
	char path[64], line[256];
	FILE *f;
	size_t i;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		for (i = 0; i < NFIELDS; i++)
			if (strncmp(line, fields[i], strlen(fields[i])) == 0) {
				char *v = line + strlen(fields[i]);

				v += strspn(v, " \t");
				v[strcspn(v, "\n")] = '\0';
				snprintf(c->value[i], sizeof(c->value[i]), "%s",
					 v);
			}
	fclose(f);
	return 0;
}

static const char *field(const struct creds *c, const char *name)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i], name) == 0)
			return c->value[i];
	return "";
}

static void *worker(void *arg)
{
	long kind = (long)arg;
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	char byte;

	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	switch (kind) {
	case 0: /* blocked in read(2) until the end */
		if (read(pipefd[0], &byte, 1) < 0)
			perror("worker read");
		break;
	case 1:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			nanosleep(&ts, NULL);
		break;
	case 2:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			usleep(1000);
		break;
	default:
		while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST))
			;
		break;
	}
	return NULL;
}

/* Prints every thread's fields; returns how many differ from want. */
static int compare_threads(const struct creds *want)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;
	int bad = 0, n = 0;

	if (dir == NULL) {
		perror("/proc/self/task");
		return 1;
	}
	while ((d = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(d->d_name);
		struct creds c;
		size_t i;
		int differs = 0;

		if (tid <= 0 || read_creds(tid, &c) < 0)
			continue;
		n++;
		for (i = 0; i < NFIELDS; i++)
			if (strcmp(c.value[i], want->value[i]) != 0)
				differs = 1;
		printf("%s thread %d:", tid == getpid() ? "main  " : "worker",
		       (int)tid);
		for (i = 0; i < NFIELDS; i++)
			printf(" %s %s", fields[i], c.value[i]);
		printf("%s\n", differs ? "   <-- differs" : "");
		bad += differs;
	}
	closedir(dir);
	printf("%d threads, %d differ from the expected state\n", n, bad);
	return bad;
}

static unsigned long long mask_of(cap_t caps, cap_flag_t flag)
{
	unsigned long long m = 0;
	cap_flag_value_t v;
	int cap;

	for (cap = 0; cap < 64; cap++)
		if (cap_get_flag(caps, cap, flag, &v) == 0 && v == CAP_SET)
			m |= 1ULL << cap;
	return m;
}

/* Sets one field of want, as text. */
static void expect(struct creds *want, const char *name, const char *text)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i], name) == 0)
			snprintf(want->value[i], sizeof(want->value[i]), "%s",
				 text);
}

/* Sets a capability vector field of want, as /proc prints it. */
static void expect_caps(struct creds *want, const char *name,
			unsigned long long v)
{
	char text[20];

	snprintf(text, sizeof(text), "%016llx", v);
	expect(want, name, text);
}

static int change(const char *mode, struct creds *want)
{
	cap_t caps;
	int rc;

	if (strcmp(mode, "proc") == 0) {
		caps = cap_from_text("cap_chown,cap_net_raw=ep cap_setpcap=p");
		rc = cap_set_proc(caps);
		expect_caps(want, "CapInh:", 0);
		expect_caps(want, "CapPrm:", mask_of(caps, CAP_PERMITTED));
		expect_caps(want, "CapEff:", mask_of(caps, CAP_EFFECTIVE));
		cap_free(caps);
		return rc;
	}
	if (strcmp(mode, "mode") == 0) {
		rc = cap_set_mode(CAP_MODE_NOPRIV);
		expect_caps(want, "CapInh:", 0);
		expect_caps(want, "CapPrm:", 0);
		expect_caps(want, "CapEff:", 0);
		expect_caps(want, "CapBnd:", 0);
		expect_caps(want, "CapAmb:", 0);
		expect(want, "NoNewPrivs:", "1");
		return rc;
	}
	if (strcmp(mode, "setuid") == 0) {
		rc = cap_setuid(65534);
		expect(want, "Uid:", "65534\t65534\t65534\t65534");
		expect_caps(want, "CapEff:", 0);
		return rc;
	}
	if (strcmp(mode, "iab") == 0) {
		cap_iab_t iab = cap_iab_from_text(
			"cap_chown,^cap_net_bind_service,!cap_sys_module");
		unsigned long long bnd;

		sscanf(field(want, "CapBnd:"), "%llx", &bnd);
		rc = cap_iab_set_proc(iab);
		expect_caps(want, "CapInh:",
			    (1ULL << CAP_CHOWN) |
				    (1ULL << CAP_NET_BIND_SERVICE));
		expect_caps(want, "CapAmb:", 1ULL << CAP_NET_BIND_SERVICE);
		expect_caps(want, "CapBnd:", bnd & ~(1ULL << CAP_SYS_MODULE));
		cap_free(iab);
		return rc;
	}
	fprintf(stderr, "psxcaps: unknown mode %s\n", mode);
	return -1;
}

/* ---- the exploit ------------------------------------------------------- */

static const char *secret;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int phase; /* 1: main has dropped, 2: worker has tried */
static int worker_won;

/* Tries both privileged operations; returns how many worked. */
static int try_privilege(const char *who)
{
	struct creds c;
	int fd, sock, won = 0, open_err, sock_err;

	read_creds((pid_t)syscall(SYS_gettid), &c);
	fd = open(secret, O_RDONLY);
	open_err = errno;
	sock = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	sock_err = errno;
	printf("%s: CapEff %s, open %s: %s, raw socket: %s\n", who,
	       field(&c, "CapEff:"), secret,
	       fd >= 0 ? "OPENED" : strerror(open_err),
	       sock >= 0 ? "OPENED" : strerror(sock_err));
	if (fd >= 0) {
		won++;
		close(fd);
	}
	if (sock >= 0) {
		won++;
		close(sock);
	}
	return won;
}

static void *exploit_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (phase != 1)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	/* The main thread believes the process has no privilege left. */
	worker_won = try_privilege("worker thread");
	pthread_mutex_lock(&lock);
	phase = 2;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int exploit(void)
{
	pthread_t t;
	cap_t none = cap_init();
	int main_won;

	if (pthread_create(&t, NULL, exploit_thread, NULL) != 0)
		return 2;
	printf("dropping every capability from the main thread\n");
	if (cap_set_proc(none) != 0) {
		perror("cap_set_proc");
		return 2;
	}
	cap_free(none);
	main_won = try_privilege("main thread");
	pthread_mutex_lock(&lock);
	phase = 1;
	pthread_cond_broadcast(&cond);
	while (phase != 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	if (main_won != 0) {
		printf("the main thread kept privilege: test broken\n");
		return 2;
	}
	printf("%s\n", worker_won ? "exploit succeeded" : "exploit failed");
	return worker_won ? 1 : 0;
}

int main(int argc, char **argv)
{
	pthread_t t[NWORKERS];
	struct creds want;
	long i;
	int bad;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "exploit") == 0) {
		secret = argv[2];
		return exploit();
	}
	if (argc != 2) {
		fprintf(stderr,
			"usage: psxcaps proc|mode|setuid|iab | exploit FILE\n");
		return 2;
	}
	if (pipe(pipefd) < 0)
		return 2;
	for (i = 0; i < NWORKERS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 2;
	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < NWORKERS)
		usleep(1000);
	usleep(20000); /* the reader and the sleeper are blocked now */
	read_creds(getpid(), &want); /* unchanged fields stay as they are */
	if (change(argv[1], &want) != 0) {
		perror(argv[1]);
		return 2;
	}
	bad = compare_threads(&want);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	if (write(pipefd[1], "x", 1) != 1)
		return 2;
	for (i = 0; i < NWORKERS; i++)
		pthread_join(t[i], NULL);
	return bad == 0 ? 0 : 1;
}
