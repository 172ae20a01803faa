/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Which container runtime, if any, runs a session, for the report only:
 * nothing here decides a verdict (the namespaces, sets and filters do),
 * so a process that lies about it (its environment, its cgroup's name)
 * misleads a line, never an answer. What is told: another pid or user
 * namespace than the initial one, the cgroup a runtime names after its
 * container (libpod-<id>.scope, docker-<id>.scope, crio-<id>.scope,
 * cri-containerd-<id>.scope, kubepods, lxc.payload.<name>), the
 * container= variable podman, systemd-nspawn and LXC set, and from the
 * host the runtime's monitor among the process's parents (conmon,
 * containerd-shim).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdoctor.h"
#include "reopen.h"

/* The initial pid namespace's inode number (PROC_PID_INIT_INO). */
#define INIT_PIDNS_INO 0xEFFFFFFCU

/* Up to len - 1 bytes read from fd, which it closes; -1 when fd is. */
static ssize_t read_closing(int fd, char *buf, size_t len)
{
	size_t have = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (have < len - 1 && (n = read(fd, buf + have, len - 1 - have)) > 0)
		have += (size_t)n;
	close(fd);
	buf[have] = '\0';
	return (ssize_t)have;
}

/* Up to len - 1 bytes of the /proc file path under dfd; -1 when unreadable. */
static ssize_t slurp(int dfd, const char *path, char *buf, size_t len)
{
	return read_closing(openat(dfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY),
			    buf, len);
}

/*
 * The same for a file in the container's root, which its image or its
 * root user may have made anything: only a regular file is read, opened
 * O_PATH first and then through /proc (reopen.h), so that a FIFO there
 * (which an open for reading waits on for a writer, for ever) or a
 * device (a terminal read waits for input) is never opened.
 */
static ssize_t slurp_regular(const char *path, char *buf, size_t len)
{
	int pfd = open(path, O_PATH | O_CLOEXEC), fd;

	if (pfd < 0)
		return -1;
	fd = reopen_regular_rdonly(pfd);
	close(pfd);
	return read_closing(fd, buf, len);
}

/* Appends "; what" to the evidence, once. */
static void note(struct session_facts *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct session_facts *s, const char *fmt, ...)
{
	size_t used = strlen(s->container);
	char part[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(part, sizeof(part), fmt, ap);
	va_end(ap);
	if (strstr(s->container, part) != NULL)
		return;
	snprintf(s->container + used, sizeof(s->container) - used, "%s%s",
		 used ? "; " : "", part);
}

/* The container id in name after prefix and before suffix, shortened. */
static int id_between(const char *name, const char *prefix, const char *suffix,
		      char *id, size_t len)
{
	size_t p = strlen(prefix), n = strlen(name), sl = strlen(suffix), i;

	if (strncmp(name, prefix, p) != 0 || n < p + sl + 12 ||
	    strcmp(name + n - sl, suffix) != 0)
		return 0;
	for (i = p; i < n - sl; i++)
		if (!isxdigit((unsigned char)name[i]))
			return 0;
	snprintf(id, len, "%.12s", name + p);
	return 1;
}

/* One component of a cgroup path. */
static void cgroup_part(struct session_facts *s, const char *part,
			const char *next)
{
	char id[16];

	if (strncmp(part, "libpod-conmon-", 14) == 0)
		return; /* podman's monitor, not the container */
	if (id_between(part, "libpod-", ".scope", id, sizeof(id)))
		note(s, "podman container %s (its cgroup)", id);
	else if (id_between(part, "docker-", ".scope", id, sizeof(id)) ||
		 (strcmp(part, "docker") == 0 && next != NULL &&
		  id_between(next, "", "", id, sizeof(id))))
		note(s, "docker container %s (its cgroup)", id);
	else if (id_between(part, "crio-", ".scope", id, sizeof(id)))
		note(s, "CRI-O container %s (its cgroup)", id);
	else if (id_between(part, "cri-containerd-", ".scope", id, sizeof(id)))
		note(s, "containerd container %s (its cgroup)", id);
	else if (strncmp(part, "kubepods", 8) == 0)
		note(s, "a Kubernetes pod (its cgroup)");
	else if (strncmp(part, "lxc.payload.", 12) == 0 && part[12] != '\0')
		note(s, "LXC container %s (its cgroup)", part + 12);
}

static void from_cgroup(struct session_facts *s, int dfd)
{
	char buf[4096], *line, *save = NULL;

	if (slurp(dfd, "cgroup", buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		/* hierarchy:controllers:path */
		char *path = strchr(line, ':');
		char *part, *next, *psave = NULL;

		path = path != NULL ? strchr(path + 1, ':') : NULL;
		if (path == NULL)
			continue;
		part = strtok_r(path + 1, "/", &psave);
		while (part != NULL) {
			next = strtok_r(NULL, "/", &psave);
			cgroup_part(s, part, next);
			part = next;
		}
	}
}

/* The environment it started with: container=, and Kubernetes' own. */
static void from_environ(struct session_facts *s, int dfd)
{
	char buf[65536];
	ssize_t n = slurp(dfd, "environ", buf, sizeof(buf));
	ssize_t i = 0;

	while (n > 0 && i < n) {
		const char *var = buf + i;

		if (strncmp(var, "container=", 10) == 0 && var[10] != '\0')
			note(s, "container=%s in its environment", var + 10);
		else if (strncmp(var, "KUBERNETES_SERVICE_HOST=", 24) == 0)
			note(s, "a Kubernetes pod (its environment)");
		i += (ssize_t)strlen(var) + 1;
	}
}

/* The runtime's monitor among its parents (seen from the host only). */
static void from_parents(struct session_facts *s, int dfd)
{
	char buf[1024], path[64], comm[64];
	int hops, fd = dup(dfd);

	for (hops = 0; fd >= 0 && hops < 32; hops++) {
		char *open_paren, *close_paren;
		int ppid;

		if (slurp(fd, "stat", buf, sizeof(buf)) <= 0)
			break;
		close(fd);
		fd = -1;
		/* pid (comm) state ppid ...; comm may hold anything, ')' too. */
		open_paren = strchr(buf, '(');
		close_paren = strrchr(buf, ')');
		if (open_paren == NULL || close_paren == NULL ||
		    close_paren < open_paren ||
		    sscanf(close_paren + 1, " %*c %d", &ppid) != 1 || ppid <= 1)
			break;
		snprintf(path, sizeof(path), "/proc/%d", ppid);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || slurp(fd, "comm", comm, sizeof(comm)) <= 0)
			break;
		comm[strcspn(comm, "\n")] = '\0';
		if (strcmp(comm, "conmon") == 0)
			note(s, "run by podman's conmon (process %d)", ppid);
		else if (strncmp(comm, "containerd-shim", 15) == 0)
			note(s, "run by containerd's shim (process %d)", ppid);
	}
	if (fd >= 0)
		close(fd);
}

/* Inside: the files podman and docker leave in a container's root. */
static void from_root(struct session_facts *s)
{
	char buf[4096], *line, *save = NULL;

	if (slurp_regular("/run/.containerenv", buf, sizeof(buf)) >= 0) {
		note(s, "podman (/run/.containerenv)");
		for (line = strtok_r(buf, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save))
			if (strncmp(line, "name=", 5) == 0 && line[5] != '\0')
				note(s, "container %s (/run/.containerenv)",
				     line + 5);
	}
	if (access("/.dockerenv", F_OK) == 0)
		note(s, "docker (/.dockerenv)");
}

/*
 * Only a namespace, a runtime's cgroup or its monitor says "container";
 * files and variables anyone can leave behind (a VM built from a docker
 * image keeps /.dockerenv) only add detail to that.
 */
void gather_container(struct session_facts *s, int dfd)
{
	struct stat ns;

	s->container[0] = '\0';
	if (fstatat(dfd, "ns/pid", &ns, 0) == 0 && ns.st_ino != INIT_PIDNS_INO)
		note(s, "a pid namespace of its own");
	if (s->init_userns == ANSWER_NO)
		note(s, "a user namespace of its own");
	from_cgroup(s, dfd);
	if (s->pid > 0 && s->pid != getpid())
		from_parents(s, dfd);
	s->in_container = s->container[0] != '\0';
	if (!s->in_container) {
		s->container[0] = '\0';
		return;
	}
	from_environ(s, dfd);
	if (s->pid <= 0 || s->pid == getpid())
		from_root(s);
}
