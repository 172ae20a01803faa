/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Could anyone but root have changed this file, or what its path leads
 * to? The one judge pam_cap (capability.conf), capcheck, perfdoctor and
 * capmanifest (a manifest, the files it makes capable, the ways to them)
 * ask.
 *
 * Whoever owns a file may chmod it writable; whoever its mode or an ACL
 * entry lets write it may rewrite it; whoever may change a directory on
 * its way may put another file in its place (a name of theirs, a
 * root-owned file whose content they chose, a link to one), and whoever
 * owns a symbolic link on the way may point it anywhere. Owners, modes
 * and ACLs are judged as the kernel judges write access (fs/namei.c,
 * acl_permission_check(); fs/posix_acl.c, posix_acl_permission()), and
 * only where the kernel keeps them: on FUSE its daemon says who owns what
 * (fsowner.h), through an idmapped mount its mapping does (mounts.h), and
 * on a disk image another user may write, that user does (fsbacking.h).
 * Whatever cannot be read or judged is an answer of its own: -1 with
 * errno, which every caller takes as "not trusted".
 *
 * No group is trusted, not even root's: gid 0 is held by processes that
 * are not root (a user listed in group root, a daemon run as uid:0, a
 * container's arbitrary uid with gid 0, a set-user-ID program's caller),
 * and nothing enumerates them all. Nor the ids of the process asking (a
 * set-user-ID su keeps its caller's group), but where a policy names one.
 *
 * What the callers' questions really differ in is a policy (struct
 * path_trust_policy), each field with its reason; everything else is one
 * rule for all.
 */
#ifndef COMMON_PATH_TRUST_H
#define COMMON_PATH_TRUST_H

#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fsbacking.h"

struct acl_entry;

/*
 * How a directory counts that others may write, but that has the sticky
 * bit: there nobody but the owner of a name, and the directory's owner,
 * may rename or remove it (fs/namei.c, check_sticky()). They may still
 * add any name that is free, and a name they add may be a file or a
 * symbolic link of root's: rename(2) asks nothing of what it moves (but
 * of a directory, whose ".." it rewrites), so a root-owned file in a
 * directory of theirs (a tool's output root wrote there, a file root
 * unpacked there) is theirs to move in, its lines their choice. A sticky
 * directory whose owner is not trusted is never root's alone, whatever
 * the policy. A directory no mount lets anyone write is root's alone,
 * sticky or not, where the policy says so (sealed_mounts).
 */
enum path_trust_sticky {
	/*
	 * Never root's alone. capmanifest's tree and the way to it: a file
	 * restore takes new content from may be any name there, made while
	 * the name was free (before a package put the file there, or while
	 * an upgrade replaced it).
	 */
	PATH_TRUST_STICKY_NEVER,
	/*
	 * Root's alone on the way, where the next name is a directory (of
	 * root's, which nobody else could have moved in, as it is judged
	 * next); never where the next name is the file, a symbolic link,
	 * or anything else that is no directory, nor as the directory
	 * judged itself (PATH_TRUST_FREE_NAME). capmanifest's manifest,
	 * whose name add makes anew in its directory (a sticky /tmp holding
	 * root's directory of manifests is fine; manifests in /tmp are
	 * not), and pam_cap's capability.conf: its configured name, free
	 * until the file is made (or again once a Nix store's garbage
	 * collection removed it), may be taken by a file of root's that
	 * its mover chose the lines of.
	 */
	PATH_TRUST_STICKY_ABOVE,
};

/*
 * The words of the reasons: each program's messages are an interface its
 * tests and pages quote, so the judge speaks each one's. No rule differs.
 */
enum path_trust_words {
	/* pam_cap's log, capcheck, perfdoctor: "its group 4200 may write it" */
	PATH_TRUST_WORDS_CONF,
	/* capmanifest: "group 4200 may write it (mode 0664)" */
	PATH_TRUST_WORDS_MANIFEST,
};

struct path_trust_policy {
	/*
	 * A uid trusted beside root, or (uid_t)-1 for none. capmanifest:
	 * the user running it (who cannot grant a capability or root's
	 * set-user-ID beyond what they hold, and add keeps their own
	 * manifests), or, for a file restore keeps as the manifest records
	 * it, its recorded owner. pam_cap trusts root alone, whoever runs
	 * it: none.
	 */
	uid_t also;
	/*
	 * Whether the overflow uid counts as root in a user namespace
	 * other than the first, when the namespace does not map it: files
	 * of owners it does not map (the host's root among them) show that
	 * uid there. pam_cap, capcheck and perfdoctor: yes, since what
	 * pam_cap grants in the namespace stays in it, and a container's
	 * capability.conf bound from the host is the host's root's. An
	 * overflow uid the namespace maps is a user of its own (a
	 * container's nobody), never trusted. capmanifest: no, a
	 * manifest and the files it makes capable must be root's where
	 * they are judged (what it sets on them the host's root sees too).
	 */
	int overflow_uid;
	/* How a sticky directory others may write counts (see above). */
	enum path_trust_sticky sticky;
	/*
	 * Whether a directory whose mode lets others write counts as
	 * root's alone when no mount lets anyone write it (writeseal.h):
	 * a Kubernetes ConfigMap, a read-only bind of a volume whose root
	 * is 0777. pam_cap: yes, a ConfigMap is how capability.conf
	 * reaches a pod. capmanifest: no; it writes where it judges (add
	 * renames a new manifest into the directory, restore sets
	 * attributes in the tree, which a read-only mount refuses anyway),
	 * and its pages promise directories nobody else may write by owner,
	 * mode and ACL.
	 */
	int sealed_mounts;
	enum path_trust_words words;
};

/* Where the judge found what is not root's alone. */
enum path_trust_where {
	PATH_TRUST_IT,	  /* the file or directory judged */
	PATH_TRUST_DIR,	  /* a directory on its way: path */
	PATH_TRUST_LINK,  /* a symbolic link on its way: path */
	PATH_TRUST_MOVED, /* the way now leads to another file */
};

/* What the judge found there; why says it in the policy's words. */
enum path_trust_how {
	PATH_TRUST_WRITER, /* someone besides the owner may write it */
	PATH_TRUST_OWNER,  /* "uid N owns it" */
	PATH_TRUST_FUSE,   /* FS_OWNER_FUSE_WHY: its daemon says who owns it */
	/*
	 * The owners shown are not the file system's own: "reached through
	 * an idmapped mount ...", "on loop device loop0, whose backing file
	 * ...", or (with -1) the errno of the checks.
	 */
	PATH_TRUST_SHOWN,
	/* Who may write it is unknown: its ACL cannot be read (-1 only). */
	PATH_TRUST_UNKNOWN,
	/*
	 * DIR: a sticky directory that others may write (why says who) and
	 * the policy keeps on the way holds the file, or is judged itself
	 * (holder), or holds a symbolic link on the way (not holder): they
	 * may have put it there under a free name (ABOVE, above).
	 */
	PATH_TRUST_FREE_NAME,
};

/*
 * One judgement: the policy, what it learnt on the way, and the verdict
 * of the last call (where, how, path and why; note too for a directory
 * a read-only mount did not seal). Fill with path_trust_init().
 */
struct path_trust {
	struct path_trust_policy policy;
	unsigned long overflow;		/* the overflow uid */
	int overflow_trusted;		/* and whether it counts as root */
	struct fs_backing_seen backing; /* file systems judged already */
	enum path_trust_where where;
	enum path_trust_how how;
	int holder;	     /* DIR: the one holding the file, or judged */
	char path[PATH_MAX]; /* DIR, LINK, MOVED: its name */
	char why[448];
	char note[448]; /* DIR: "its mount is read-only, but ..." or "" */
};

/* A judgement under policy p; reads what the overflow uid is, if asked. */
void path_trust_init(struct path_trust *t, const struct path_trust_policy *p);

/* Whether uid is trusted: root, or one the policy names. */
int path_trust_uid(const struct path_trust *t, unsigned long uid);

/*
 * Who may write an inode with the owner, group and mode of st and the
 * access ACL e (n entries; n 0: none), as the kernel decides: with an ACL
 * and a group bit in the mode (the mask then), its entries; else the mode
 * bits. 1 when someone besides the owner, or an owner not trusted, may
 * (how and why say who, where is PATH_TRUST_IT), 0 when nobody else.
 * Reads nothing: the rule alone.
 */
int path_trust_meta(struct path_trust *t, const struct stat *st,
		    const struct acl_entry *e, int n);

/*
 * The inode open as fd (O_PATH will do), st fstat()ed on it, judged where
 * it is: on FUSE, reached through an idmapped mount or on a disk image
 * others may write (each PATH_TRUST_FUSE or _SHOWN), then by
 * path_trust_meta() with the ACL it has. path, when not NULL, is its name
 * (a last link followed), to read its ACL by where /proc is missing. 0,
 * 1 (where PATH_TRUST_IT), or -1 with errno: ENOMEM, or the checks',
 * how and why then saying what could not be judged when they can.
 */
int path_trust_inode(struct path_trust *t, int fd, const char *path,
		     const struct stat *st);

/*
 * The same for the inode as a change about to be made will leave it: the
 * owner, group and mode of as, and the ACL e (n entries; n 0: none), in
 * place of those it has.
 */
int path_trust_inode_as(struct path_trust *t, int fd, const struct stat *as,
			const struct acl_entry *e, int n);

/*
 * A directory on a way: open on fd (O_PATH will do), st fstat()ed on it,
 * named name: its canonical path from the caller's root (as
 * path_trust_way() has it), which a read-only mount's seal needs and by
 * which its ACL is read where /proc is missing; or, not starting with
 * "/", the caller's own name for it, only said (then no seal, and no ACL
 * but through /proc). holder when the file judged is in it (or it is the
 * one judged). Judged as path_trust_inode() judges it, then by the
 * policy's sealed_mounts and sticky rules, in that order (a sealed
 * directory is root's alone, whatever it holds). 0, with *sticky set
 * when the sticky bit alone made it root's (the caller must then refuse
 * any name in it that is no directory); 1 (where PATH_TRUST_DIR, path
 * name); or -1 with errno.
 */
int path_trust_dir(struct path_trust *t, int fd, const char *name,
		   const struct stat *st, int holder, int *sticky);

/*
 * The way to path, followed from "/" (a relative path from the working
 * directory) one name at a time as the kernel follows it: every directory
 * entered is judged (path_trust_dir()), those holding a symbolic link
 * included, every link met must belong to a trusted user, no name but a
 * directory may lie in a directory only its sticky bit made root's
 * (PATH_TRUST_FREE_NAME), and the name the way ends at must be the file
 * or directory of st (not, PATH_TRUST_MOVED: a
 * directory on the way changed). A directory no untrusted user may change
 * cannot have changed between the caller's open and this walk, and one
 * that may is refused either way. 0, 1 (where DIR, LINK or MOVED),
 * or -1 with errno (EISDIR: a file's path ends at a directory; ENOTDIR,
 * ELOOP, ENAMETOOLONG as the kernel's; how and why may say more).
 */
int path_trust_way(struct path_trust *t, const char *path,
		   const struct stat *st);

#endif
