/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Holds a capaudit trial in its set-up, for tests/root/capaudit_lifetime.sh:
 *
 *   capaudit_fanhold FILE N RELEASE
 *
 * watches reads of FILE with a fanotify permission mark (root). A trial's
 * launched child copies the command's file from a mount namespace of its
 * own, before the trial's command exists; every other read (capaudit's,
 * the first run's exec) comes from this program's mount namespace. The
 * reads of the first N-1 trials are allowed; the first read of the N-th
 * trial is held: "held PID" goes to standard output, and the read is
 * allowed only once the file RELEASE exists, which is when this program
 * ends. "ready" says the mark is set (a descriptor opened before it would
 * never be asked about). Exits 0, or 1 after saying why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRIALS_MAX 64

static ino_t mnt_ns_of(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%ld/ns/mnt", (long)pid);
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

static void answer(int fan, int fd, unsigned response)
{
	struct fanotify_response r = { .fd = fd, .response = response };

	/* Its reader may be gone (killed): then there is nobody to answer. */
	if (write(fan, &r, sizeof(r)) < 0 && errno != ENOENT)
		perror("capaudit_fanhold: answer");
	close(fd);
}

/* Whether the read by pid is a trial's, new (its number into *nth) or not. */
static int trial_read(pid_t pid, ino_t own_ns, pid_t *seen, int *nseen,
		      int *nth)
{
	ino_t ns = mnt_ns_of(pid);
	int i;

	if (ns == 0 || ns == own_ns)
		return 0;
	for (i = 0; i < *nseen; i++)
		if (seen[i] == pid)
			return 0;
	if (*nseen < TRIALS_MAX)
		seen[(*nseen)++] = pid;
	*nth = *nseen;
	return 1;
}

int main(int argc, char **argv)
{
	char buf[4096] __attribute__((aligned(8)));
	pid_t seen[TRIALS_MAX];
	int fan, n, nseen = 0, held = -1, nth;
	ino_t own_ns = mnt_ns_of(getpid());

	if (argc != 4 || (n = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: capaudit_fanhold FILE N RELEASE\n");
		return 1;
	}
	fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY);
	if (fan < 0 || fanotify_mark(fan, FAN_MARK_ADD, FAN_ACCESS_PERM,
				     AT_FDCWD, argv[1]) < 0) {
		perror("capaudit_fanhold: fanotify");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	while (held < 0 || access(argv[3], F_OK) != 0) {
		struct pollfd p = { .fd = fan, .events = POLLIN };
		struct fanotify_event_metadata *m;
		ssize_t len;

		if (poll(&p, 1, 20) <= 0)
			continue;
		len = read(fan, buf, sizeof(buf));
		if (len < 0) {
			perror("capaudit_fanhold: read");
			return 1;
		}
		m = (struct fanotify_event_metadata *)buf;
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
			if (m->fd < 0)
				continue;
			if (held < 0 &&
			    trial_read(m->pid, own_ns, seen, &nseen, &nth) &&
			    nth == n) {
				held = m->fd;
				printf("held %ld\n", (long)m->pid);
				continue;
			}
			answer(fan, m->fd, FAN_ALLOW);
		}
	}
	answer(fan, held, FAN_ALLOW);
	return 0;
}
