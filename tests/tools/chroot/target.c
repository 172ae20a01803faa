/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * target: what psxlaunch runs inside a chroot, linked statically since the
 * chroot holds no libraries. Exit 0 when it runs in that chroot (/marker
 * exists) with cap_sys_module dropped from its bounding set, as its
 * launcher's IAB asked; 2 when /marker is missing, 3 when the bit is there.
 */
#include <linux/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
	if (access("/marker", F_OK) != 0)
		return 2;
	if (prctl(PR_CAPBSET_READ, CAP_SYS_MODULE, 0, 0, 0) != 0)
		return 3;
	return 0;
}
