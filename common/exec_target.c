/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* How the kernel would execute a file, and whether it honours its file capabilities. */
#define _GNU_SOURCE /* O_PATH */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "exec_target.h"
#include "reopen.h"

/* The ELF types binfmt_elf loads; a .o or a core file it refuses. */
static enum exec_target_kind elf_kind(const unsigned char *head, ssize_t n)
{
	uint16_t type;

	if (n < EI_NIDENT + 2)
		return EXEC_TARGET_ELF_OTHER;
	/* e_type sits right after e_ident in both classes, in file byte order. */
	if (head[EI_DATA] == ELFDATA2MSB)
		type = (uint16_t)(head[EI_NIDENT] << 8 | head[EI_NIDENT + 1]);
	else
		type = (uint16_t)(head[EI_NIDENT] | head[EI_NIDENT + 1] << 8);
	return type == ET_EXEC || type == ET_DYN ? EXEC_TARGET_ELF
						 : EXEC_TARGET_ELF_OTHER;
}

/* Copies the "#!" line (without the newline) for messages. */
static void copy_interp(struct exec_target *t, const unsigned char *head,
			ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n && i < (ssize_t)sizeof(t->interp) - 1; i++) {
		if (head[i] == '\n' || head[i] == '\0')
			break;
		t->interp[i] = (char)head[i];
	}
	t->interp[i] = '\0';
}

int exec_target_inspect(int fd, struct exec_target *t)
{
	unsigned char head[sizeof(t->interp)];
	struct statvfs vfs;
	struct stat st;
	ssize_t n;
	int rfd;

	memset(t, 0, sizeof(*t));
	if (fstat(fd, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	/* fstatfs accepts O_PATH descriptors (Linux 3.12+). */
	if (fstatvfs(fd, &vfs) < 0)
		return -1;
	t->nosuid = (vfs.f_flag & ST_NOSUID) != 0;
	t->noexec = (vfs.f_flag & ST_NOEXEC) != 0;
	rfd = reopen_regular_rdonly(fd);
	if (rfd < 0)
		return -1;
	n = pread(rfd, head, sizeof(head), 0);
	close(rfd);
	if (n < 0)
		return -1;
	if (n >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0) {
		t->kind = elf_kind(head, n);
	} else if (n >= 2 && head[0] == '#' && head[1] == '!') {
		t->kind = EXEC_TARGET_SCRIPT;
		copy_interp(t, head, n);
	} else {
		t->kind = EXEC_TARGET_OTHER;
	}
	return 0;
}

const char *exec_target_problem(const struct exec_target *t, char *buf,
				unsigned len)
{
	switch (t->kind) {
	case EXEC_TARGET_SCRIPT:
		snprintf(
			buf, len,
			"is a script (%s): the kernel runs its interpreter and ignores the script's file capabilities; give them to the ELF binary it runs",
			t->interp);
		return buf;
	case EXEC_TARGET_ELF_OTHER:
		return "is an ELF file the kernel does not execute (an object or core file), so its file capabilities do nothing";
	case EXEC_TARGET_OTHER:
		return "is not an ELF executable: the kernel runs it through an interpreter registered with binfmt_misc, or refuses it; only an ELF binary runs with its own file capabilities";
	case EXEC_TARGET_ELF:
		break;
	}
	if (t->noexec)
		return "is on a filesystem mounted noexec: nobody can execute it";
	if (t->nosuid)
		return "is on a filesystem mounted nosuid, where the kernel ignores file capabilities";
	return NULL;
}
