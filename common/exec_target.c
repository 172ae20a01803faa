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

/* The program headers' place in the file, from either class's header. */
struct elf_layout {
	uint64_t phoff;
	size_t phentsize, phnum;
	int wide; /* ELFCLASS64 */
};

static int elf_layout(int rfd, struct elf_layout *l)
{
	union {
		unsigned char ident[EI_NIDENT];
		Elf32_Ehdr h32;
		Elf64_Ehdr h64;
	} h;
	static const unsigned char own_order =
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		ELFDATA2MSB;
#else
		ELFDATA2LSB;
#endif
	ssize_t n = pread(rfd, &h, sizeof(h), 0);

	if (n < 0)
		return -1;
	if (n < EI_NIDENT || memcmp(h.ident, ELFMAG, SELFMAG) != 0)
		return 0;
	/* binfmt_elf runs only the machine's own byte order. */
	if (h.ident[EI_DATA] != own_order) {
		errno = EINVAL;
		return -1;
	}
	l->wide = h.ident[EI_CLASS] == ELFCLASS64;
	if (l->wide && n >= (ssize_t)sizeof(h.h64)) {
		l->phoff = h.h64.e_phoff;
		l->phentsize = h.h64.e_phentsize;
		l->phnum = h.h64.e_phnum;
	} else if (h.ident[EI_CLASS] == ELFCLASS32 &&
		   n >= (ssize_t)sizeof(h.h32)) {
		l->phoff = h.h32.e_phoff;
		l->phentsize = h.h32.e_phentsize;
		l->phnum = h.h32.e_phnum;
	} else {
		errno = EINVAL;
		return -1;
	}
	if (l->phentsize !=
		    (l->wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
	    l->phnum > 4096) {
		errno = EINVAL;
		return -1;
	}
	return 1;
}

int exec_target_elf_interp(int fd, char *buf, size_t len)
{
	struct elf_layout l;
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;
	uint64_t off, size;
	size_t i;
	ssize_t n;
	int rfd, rc, saved;

	rfd = reopen_regular_rdonly(fd);
	if (rfd < 0)
		return -1;
	rc = elf_layout(rfd, &l);
	for (i = 0; rc == 1 && i < l.phnum; i++) {
		n = pread(rfd, &ph, l.phentsize,
			  (off_t)(l.phoff + i * l.phentsize));
		if (n != (ssize_t)l.phentsize) {
			if (n >= 0)
				errno = EINVAL;
			rc = -1;
			break;
		}
		if ((l.wide ? ph.p64.p_type : ph.p32.p_type) != PT_INTERP)
			continue;
		off = l.wide ? ph.p64.p_offset : ph.p32.p_offset;
		size = l.wide ? ph.p64.p_filesz : ph.p32.p_filesz;
		/* A name and its NUL, as binfmt_elf reads it. */
		if (size < 2 || size > len) {
			errno = size < 2 ? EINVAL : ENAMETOOLONG;
			rc = -1;
			break;
		}
		n = pread(rfd, buf, (size_t)size, (off_t)off);
		if (n != (ssize_t)size || buf[size - 1] != '\0' ||
		    strlen(buf) != size - 1) {
			if (n >= 0)
				errno = EINVAL;
			rc = -1;
			break;
		}
		saved = errno;
		close(rfd);
		errno = saved;
		return 1;
	}
	saved = errno;
	close(rfd);
	errno = saved;
	return rc == 1 ? 0 : rc;
}
