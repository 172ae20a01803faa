/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Privileged Check suite for process state, modes, IAB and launchers, run
 * as root by tests/root/libcap_proc_privileged.sh. It is a tool, so it is built
 * twice: against our library (privcheck) and against the system libcap
 * (ref-privcheck), which shows the expectations are libcap's own. Tests of
 * deliberate differences are compiled into ours only (PROBE_OURS).
 * Every test changes state in the forked child Check gives it.
 * Environment: PERFPROBE (a perfprobe binary nobody can run).
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/securebits.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "proc_status.h"

#define NOBODY 65534

#define BIT(c) (1ULL << (c))

/*
 * Applies text, limited to what this process may hold: containers often
 * run root with a reduced bounding set, so "all" means "all of P" here.
 */
static void set_proc_text(const char *text)
{
	cap_t caps = cap_from_text(text), current = cap_get_proc();
	cap_value_t c;
	int flag;

	ck_assert_ptr_nonnull(caps);
	for (c = 0; c < 64; c++) {
		cap_flag_value_t held = CAP_CLEAR;

		cap_get_flag(current, c, CAP_PERMITTED, &held);
		for (flag = CAP_EFFECTIVE; !held && flag <= CAP_INHERITABLE;
		     flag++)
			cap_set_flag(caps, (cap_flag_t)flag, 1, &c, CAP_CLEAR);
	}
	ck_assert_int_eq(cap_set_proc(caps), 0);
	cap_free(current);
	cap_free(caps);
}

START_TEST(drop_bound_is_seen_in_status)
{
	ck_assert_int_eq(cap_get_bound(CAP_SYS_ADMIN), 1);
	ck_assert_int_eq(cap_drop_bound(CAP_SYS_ADMIN), 0);
	ck_assert_int_eq(cap_get_bound(CAP_SYS_ADMIN), 0);
	ck_assert_uint_eq(status_vector("CapBnd:") & BIT(CAP_SYS_ADMIN), 0);
	ck_assert_uint_ne(status_vector("CapBnd:") & BIT(CAP_PERFMON), 0);
	/* Without CAP_SETPCAP in E nothing more can be dropped. */
	set_proc_text("all=p");
	errno = 0;
	ck_assert_int_eq(cap_drop_bound(CAP_PERFMON), -1);
	ck_assert_int_eq(errno, EPERM);
}
END_TEST

START_TEST(ambient_raise_and_clear)
{
	/* Not in I yet: the kernel refuses. */
	set_proc_text("=ep");
	errno = 0;
	ck_assert_int_eq(cap_set_ambient(CAP_PERFMON, CAP_SET), -1);
	ck_assert_int_eq(errno, EPERM);
	set_proc_text("=ep cap_perfmon,cap_bpf+i");
	ck_assert_int_eq(cap_set_ambient(CAP_PERFMON, CAP_SET), 0);
	ck_assert_int_eq(cap_set_ambient(CAP_BPF, CAP_SET), 0);
	ck_assert_int_eq(cap_get_ambient(CAP_PERFMON), 1);
	ck_assert_uint_eq(status_vector("CapAmb:"),
			  BIT(CAP_PERFMON) | BIT(CAP_BPF));
	ck_assert_int_eq(cap_set_ambient(CAP_BPF, CAP_CLEAR), 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), BIT(CAP_PERFMON));
	ck_assert_int_eq(cap_reset_ambient(), 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), 0);
}
END_TEST

START_TEST(mode_pure1e_init_then_pure1e)
{
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_HYBRID);
	ck_assert_int_eq(cap_set_mode(CAP_MODE_PURE1E_INIT), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_PURE1E_INIT);
	ck_assert_uint_eq(cap_get_secbits(), 0xEF);
	ck_assert_uint_eq(status_vector("CapEff:"), 0); /* always cleared */
	ck_assert_uint_eq(status_vector("CapInh:"), 0);
	set_proc_text("cap_kill+pi");
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_PURE1E);
	/* Locked: back to HYBRID is impossible, and E stays clear. */
	set_proc_text("all=p");
	ck_assert_int_eq(cap_set_mode(CAP_MODE_HYBRID), -1);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
}
END_TEST

START_TEST(mode_nopriv)
{
	ck_assert_int_eq(cap_set_mode(CAP_MODE_NOPRIV), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_NOPRIV);
	ck_assert_uint_eq(status_vector("CapBnd:"), 0);
	ck_assert_uint_eq(status_vector("CapPrm:"), 0);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
	ck_assert_int_eq(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 1);
	ck_assert_str_eq(cap_mode_name(cap_get_mode()), "NOPRIV");
}
END_TEST

START_TEST(mode_hybrid_and_uncertain)
{
	ck_assert_int_eq(cap_set_mode(CAP_MODE_HYBRID), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_HYBRID);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
	/* Some securebits, but not the locked pure set: UNCERTAIN. */
	set_proc_text("all=ep");
	ck_assert_int_eq(cap_set_secbits(SECBIT_NOROOT), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_UNCERTAIN);
	/* All of PURE1E's bits plus KEEP_CAPS: not a mode either. */
	ck_assert_int_eq(cap_set_secbits(0xff), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_UNCERTAIN);
	errno = 0;
	ck_assert_int_eq(cap_set_mode((cap_mode_t)42), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
}
END_TEST

START_TEST(basic_secbits_without_ambient_lock_are_uncertain)
{
	/* 0x2f locks all but the ambient bits: libcap says UNCERTAIN. */
	set_proc_text("all=ep");
	ck_assert_int_eq(cap_set_secbits(0x2f), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_UNCERTAIN);
	ck_assert_int_eq(cap_set_secbits(0xef), 0);
	ck_assert_uint_eq(cap_get_mode(), CAP_MODE_PURE1E_INIT);
}
END_TEST

START_TEST(setuid_keeps_permitted)
{
	unsigned long long prm = status_vector("CapPrm:");

	ck_assert_int_eq(cap_setuid(NOBODY), 0);
	ck_assert_int_eq(getuid(), NOBODY);
	ck_assert_int_eq(geteuid(), NOBODY);
	ck_assert_uint_eq(status_vector("CapPrm:"), prm);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
	ck_assert_int_eq(prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0), 0);
	/* An impossible uid is the kernel's EINVAL. */
	errno = 0;
	ck_assert_int_eq(cap_setuid((uid_t)-1), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(setgroups_sets_gid_and_list)
{
	gid_t list[2] = { NOBODY, 4 }, got[8];

	ck_assert_int_eq(cap_setgroups(NOBODY, 2, list), 0);
	ck_assert_int_eq(getgid(), NOBODY);
	ck_assert_int_eq(getgroups(8, got), 2);
	/* The kernel sorts the list. */
	ck_assert_int_eq(got[0], 4);
	ck_assert_int_eq(got[1], NOBODY);
	ck_assert_uint_eq(status_vector("CapEff:"), 0);
	/* Without CAP_SETGID in P: EPERM. */
	set_proc_text("cap_setuid=p");
	errno = 0;
	ck_assert_int_eq(cap_setgroups(0, 0, NULL), -1);
	ck_assert_int_eq(errno, EPERM);
}
END_TEST

START_TEST(iab_set_proc_applies_exactly)
{
	cap_iab_t want =
		cap_iab_from_text("!cap_sys_admin,^cap_perfmon,cap_kill");
	cap_iab_t got;
	unsigned long long eff = status_vector("CapEff:");
	cap_value_t c;

	/* Bits already out of the bounding set stay out. */
	for (c = 0; c < cap_max_bits(); c++) {
		if (cap_get_bound(c) == 0)
			cap_iab_set_vector(want, CAP_IAB_BOUND, c, CAP_SET);
	}
	ck_assert_int_eq(cap_iab_set_proc(want), 0);
	got = cap_iab_get_proc();
	ck_assert_int_eq(cap_iab_compare(want, got), 0);
	ck_assert_uint_eq(status_vector("CapInh:"),
			  BIT(CAP_PERFMON) | BIT(CAP_KILL));
	ck_assert_uint_eq(status_vector("CapAmb:"), BIT(CAP_PERFMON));
	ck_assert_uint_eq(status_vector("CapBnd:") & BIT(CAP_SYS_ADMIN), 0);
	ck_assert_uint_eq(status_vector("CapEff:"), eff); /* E restored */
	cap_free(got);
	/* I is set exactly: a second tuple replaces, not adds. */
	cap_free(want);
	want = cap_iab_from_text("cap_bpf");
	ck_assert_int_eq(cap_iab_set_proc(want), 0);
	ck_assert_uint_eq(status_vector("CapInh:"), BIT(CAP_BPF));
	ck_assert_uint_eq(status_vector("CapAmb:"), 0);
	cap_free(want);
}
END_TEST

START_TEST(iab_set_proc_needs_setpcap_to_drop_bound)
{
	cap_iab_t iab = cap_iab_from_text("!cap_sys_admin");

	set_proc_text("all=ep cap_setpcap-ep");
	errno = 0;
	ck_assert_int_eq(cap_iab_set_proc(iab), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_int_eq(cap_get_bound(CAP_SYS_ADMIN), 1);
	cap_free(iab);
}
END_TEST

#ifdef PROBE_OURS
/*
 * libcap 2.76 (and we) raise CAP_SETPCAP only when needed: ambient bits
 * within P and I, or a bounding bit already gone, need none. 2.66 failed.
 */
START_TEST(iab_set_proc_without_setpcap_when_not_needed)
{
	cap_iab_t iab = cap_iab_from_text("^cap_perfmon,!cap_sys_admin");

	ck_assert_int_eq(cap_drop_bound(CAP_SYS_ADMIN), 0);
	set_proc_text("all=ep cap_setpcap-ep");
	ck_assert_int_eq(cap_iab_set_proc(iab), 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), BIT(CAP_PERFMON));
	cap_free(iab);
}
END_TEST
#endif

/*
 * A raise the kernel refuses must not leave a requested
 * restriction undone. Each case starts from I = {cap_kill, cap_net_raw},
 * A = {cap_kill} and a P without one capability, then asks for that
 * capability as ambient along with bounding drops. Both orders of the
 * names are tried: libcap 2.66 walks the bits from the top down, raising
 * and dropping as it goes, so it fails one of the two.
 */
static void preset_order_case(const char *lacking)
{
	char text[128];

	snprintf(text, sizeof(text), "all=ep cap_kill,cap_net_raw+i %s-epi",
		 lacking);
	set_proc_text(text);
	ck_assert_int_eq(cap_set_ambient(CAP_KILL, CAP_SET), 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), BIT(CAP_KILL));
}

static void check_drops_survive(const char *lacking, const char *text,
				unsigned long long dropped,
				unsigned long long inh_allowed)
{
	cap_iab_t iab = cap_iab_from_text(text);
	unsigned long long eff;

	ck_assert_ptr_nonnull(iab);
	preset_order_case(lacking);
	eff = status_vector("CapEff:");
	errno = 0;
	ck_assert_int_eq(cap_iab_set_proc(iab), -1);
	ck_assert_int_eq(errno, EPERM);
	/* Every drop happened, no ambient bit is left, I asked nothing more. */
	ck_assert_uint_eq(status_vector("CapBnd:") & dropped, 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), 0);
	ck_assert_uint_eq(status_vector("CapInh:") & ~inh_allowed, 0);
	ck_assert_uint_eq(status_vector("CapEff:"), eff); /* E restored */
	cap_free(iab);
}

START_TEST(iab_set_proc_drops_despite_failed_ambient_low)
{
	check_drops_survive(
		"cap_chown", "^cap_chown,!cap_sys_admin,!cap_net_raw",
		BIT(CAP_SYS_ADMIN) | BIT(CAP_NET_RAW), BIT(CAP_CHOWN));
}
END_TEST

#ifdef PROBE_OURS
START_TEST(iab_set_proc_drops_despite_failed_ambient_high)
{
	/* 2.66 tries ambient cap_sys_admin (21) before dropping 0 and 13. */
	check_drops_survive(
		"cap_sys_admin", "!cap_chown,!cap_net_raw,^cap_sys_admin",
		BIT(CAP_CHOWN) | BIT(CAP_NET_RAW), BIT(CAP_SYS_ADMIN));
}
END_TEST

/*
 * Without CAP_SETPCAP the drop fails, but lowering I and clearing A need
 * no privilege and still happen (2.66 gives up before touching either).
 */
START_TEST(iab_set_proc_lowers_i_and_clears_a_when_drop_fails)
{
	cap_iab_t iab = cap_iab_from_text("!cap_sys_admin,cap_bpf");

	preset_order_case("cap_setpcap");
	errno = 0;
	ck_assert_int_eq(cap_iab_set_proc(iab), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_uint_eq(status_vector("CapInh:"), 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), 0);
	ck_assert_int_eq(cap_get_bound(CAP_SYS_ADMIN), 1);
	cap_free(iab);
}
END_TEST
#endif

/* Blocked and inheritable: I must take the bit before B loses it. */
START_TEST(iab_set_proc_blocked_inheritable_bit)
{
	cap_iab_t iab = cap_iab_from_text("!%cap_chown,^cap_kill");

	preset_order_case("cap_sys_boot");
	ck_assert_int_eq(cap_iab_set_proc(iab), 0);
	ck_assert_uint_eq(status_vector("CapInh:"),
			  BIT(CAP_CHOWN) | BIT(CAP_KILL));
	ck_assert_uint_eq(status_vector("CapAmb:"), BIT(CAP_KILL));
	ck_assert_uint_eq(status_vector("CapBnd:") & BIT(CAP_CHOWN), 0);
	cap_free(iab);
}
END_TEST

static pid_t wait_status(pid_t pid)
{
	int status = -1;

	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int run_perfprobe(int with_iab)
{
	static const char *argv[] = { "perfprobe", NULL };
	const char *probe = getenv("PERFPROBE");
	gid_t groups[1] = { NOBODY };
	cap_launch_t attr;
	pid_t pid;
	int rc;

	ck_assert_ptr_nonnull(probe);
	attr = cap_new_launcher(probe, argv, NULL);
	ck_assert_ptr_nonnull(attr);
	ck_assert_int_eq(cap_launcher_setuid(attr, NOBODY), 0);
	ck_assert_int_eq(cap_launcher_setgroups(attr, NOBODY, 1, groups), 0);
	if (with_iab)
		ck_assert_ptr_null(cap_launcher_set_iab(
			attr, cap_iab_from_text("^cap_perfmon")));
	pid = cap_launch(attr, NULL);
	rc = wait_status(pid);
	cap_free(attr);
	return rc;
}

START_TEST(launch_nobody_with_ambient_perfmon)
{
	ck_assert_int_eq(run_perfprobe(1), 0);
	/* The parent is untouched. */
	ck_assert_int_eq(getuid(), 0);
	ck_assert_uint_eq(status_vector("CapAmb:"), 0);
}
END_TEST

START_TEST(launch_nobody_without_iab_fails)
{
	ck_assert_int_ne(run_perfprobe(0), 0);
}
END_TEST

START_TEST(launch_mode_nopriv)
{
	static const char *argv[] = {
		"sh", "-c",
		"grep -q '^NoNewPrivs:.1' /proc/self/status && grep -q '^CapBnd:.0000000000000000' /proc/self/status",
		NULL
	};
	cap_launch_t attr = cap_new_launcher("/bin/sh", argv, NULL);

	ck_assert_int_eq(cap_launcher_set_mode(attr, CAP_MODE_NOPRIV), 0);
	ck_assert_int_eq(wait_status(cap_launch(attr, NULL)), 0);
	cap_free(attr);
}
END_TEST

START_TEST(launch_in_chroot)
{
	static const char *argv[] = { "true", NULL };
	char dir[] = "/tmp/privcheck.XXXXXX", path[256];
	cap_launch_t attr = cap_new_launcher("/bin/true", argv, NULL);
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bin", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	/* Inside the chroot /bin/true exists but cannot be executed. */
	snprintf(path, sizeof(path), "%s/bin/true", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	chmod(path, 0644);
	ck_assert_int_eq(cap_launcher_set_chroot(attr, dir), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD); /* EACCES in the child */
	/* The child has been reaped by cap_launch. */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	/* A chroot that does not exist: chroot(2)'s ENOENT. */
	ck_assert_int_eq(cap_launcher_set_chroot(attr, "/nonexistent/dir"), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD); /* ENOENT in the child */
	/* The real root works. */
	ck_assert_int_eq(cap_launcher_set_chroot(attr, "/"), 0);
	ck_assert_int_eq(wait_status(cap_launch(attr, NULL)), 0);
	cap_free(attr);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bin", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

START_TEST(launch_bad_uid_reports_errno)
{
	static const char *argv[] = { "true", NULL };
	cap_launch_t attr = cap_new_launcher("/bin/true", argv, NULL);

	ck_assert_int_eq(cap_launcher_setuid(attr, (uid_t)-1), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD); /* EINVAL in the child */
	cap_free(attr);
}
END_TEST

static int named_child(void *detail)
{
	char comm[64] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (f == NULL || fgets(comm, sizeof(comm), f) == NULL)
		return 1;
	fclose(f);
	*(int *)detail = 7; /* the child's copy: the parent's stays */
	return strcmp(comm, "cap-launcher\n") != 0;
}

static int failing_callback(void *detail)
{
	(void)detail;
	errno = EDOM;
	return -1;
}

START_TEST(func_launcher_and_callback_errors)
{
	cap_launch_t attr = cap_func_launcher(named_child);
	int detail = 0;

	ck_assert_int_eq(wait_status(cap_launch(attr, &detail)), 0);
	ck_assert_int_eq(detail, 0);
	ck_assert_int_eq(cap_launcher_callback(attr, failing_callback), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(attr, NULL), -1);
	ck_assert_int_eq(errno, ECHILD); /* EDOM in the child */
	ck_assert_int_eq(cap_free(attr), 0);
	errno = 0;
	ck_assert_int_eq(cap_launch(NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static Suite *priv_suite(void)
{
	Suite *s = suite_create("privileged");
	TCase *tc = tcase_create("root");

	tcase_add_test(tc, drop_bound_is_seen_in_status);
	tcase_add_test(tc, ambient_raise_and_clear);
	tcase_add_test(tc, mode_pure1e_init_then_pure1e);
	tcase_add_test(tc, mode_nopriv);
	tcase_add_test(tc, mode_hybrid_and_uncertain);
	tcase_add_test(tc, basic_secbits_without_ambient_lock_are_uncertain);
	tcase_add_test(tc, setuid_keeps_permitted);
	tcase_add_test(tc, setgroups_sets_gid_and_list);
	tcase_add_test(tc, iab_set_proc_applies_exactly);
	tcase_add_test(tc, iab_set_proc_needs_setpcap_to_drop_bound);
	tcase_add_test(tc, iab_set_proc_drops_despite_failed_ambient_low);
	tcase_add_test(tc, iab_set_proc_blocked_inheritable_bit);
#ifdef PROBE_OURS
	tcase_add_test(tc, iab_set_proc_without_setpcap_when_not_needed);
	tcase_add_test(tc, iab_set_proc_drops_despite_failed_ambient_high);
	tcase_add_test(tc, iab_set_proc_lowers_i_and_clears_a_when_drop_fails);
#endif
	tcase_add_test(tc, launch_nobody_with_ambient_perfmon);
	tcase_add_test(tc, launch_nobody_without_iab_fails);
	tcase_add_test(tc, launch_mode_nopriv);
	tcase_add_test(tc, launch_in_chroot);
	tcase_add_test(tc, launch_bad_uid_reports_errno);
	tcase_add_test(tc, func_launcher_and_callback_errors);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(priv_suite)
