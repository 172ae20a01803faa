/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* Capability names and numbers: cap_to_name, cap_from_name, cap_mode_name. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lcap.h"

/*
 * Every name is known whatever the running kernel: a file capability may
 * carry cap_perfmon before the kernel it runs on understands it, and text
 * naming it must still parse (as in libcap's gperf builds).
 */
static const char *const cap_names[LCAP_NAMED] = {
	"cap_chown", "cap_dac_override", "cap_dac_read_search", "cap_fowner",
	"cap_fsetid", "cap_kill", "cap_setgid", "cap_setuid", "cap_setpcap",
	"cap_linux_immutable", "cap_net_bind_service", "cap_net_broadcast",
	"cap_net_admin", "cap_net_raw", "cap_ipc_lock", "cap_ipc_owner",
	"cap_sys_module", "cap_sys_rawio", "cap_sys_chroot", "cap_sys_ptrace",
	"cap_sys_pacct", "cap_sys_admin", "cap_sys_boot", "cap_sys_nice",
	"cap_sys_resource", "cap_sys_time", "cap_sys_tty_config", "cap_mknod",
	"cap_lease", "cap_audit_write", "cap_audit_control", "cap_setfcap",
	"cap_mac_override", "cap_mac_admin", "cap_syslog", "cap_wake_alarm",
	"cap_block_suspend", "cap_audit_read", "cap_perfmon", "cap_bpf",
	"cap_checkpoint_restore",
};

const char *lcap_name_of(unsigned cap)
{
	return cap < LCAP_NAMED ? cap_names[cap] : NULL;
}

static int is_name_char(int c)
{
	return isalpha((unsigned char)c) || c == '_';
}

/*
 * Read one capability, a name or a number, from the start of text.
 * A name is a run of letters and underscores matched without regard to
 * case; a number is anything strtoul() accepts in base 0 below 64.
 * Returns the value and sets *end past it, or -1 when text does not start
 * with a capability. What follows is the caller's business.
 */
int lcap_scan_value(const char *text, const char **end)
{
	const char *p = text;
	size_t len;
	unsigned cap;

	if (isdigit((unsigned char)*p)) {
		unsigned long value;
		char *stop;

		errno = 0;
		value = strtoul(p, &stop, 0);
		if (errno != 0 || value >= LCAP_BITS)
			return -1;
		*end = stop;
		return (int)value;
	}
	while (is_name_char(*p))
		p++;
	len = (size_t)(p - text);
	if (len == 0)
		return -1;
	for (cap = 0; cap < LCAP_NAMED; cap++) {
		if (strlen(cap_names[cap]) == len &&
		    strncasecmp(cap_names[cap], text, len) == 0) {
			*end = p;
			return (int)cap;
		}
	}
	return -1;
}

/* Like libcap, this neither sets errno nor minds what follows the item. */
int cap_from_name(const char *name, cap_value_t *value)
{
	const char *end;
	int cap;
	int saved = errno;

	if (name == NULL)
		return -1;
	cap = lcap_scan_value(name, &end);
	errno = saved;
	if (cap < 0)
		return -1;
	if (value != NULL)
		*value = cap;
	return 0;
}

char *cap_to_name(cap_value_t cap)
{
	char number[16];

	if (cap >= 0 && cap < LCAP_NAMED)
		return lcap_strdup(cap_names[cap]);
	/* Unnamed values print unsigned, so -1 becomes 4294967295 as in libcap. */
	snprintf(number, sizeof(number), "%u", (unsigned)cap);
	return lcap_strdup(number);
}

const char *cap_mode_name(cap_mode_t mode)
{
	switch (mode) {
	case CAP_MODE_UNCERTAIN:
		return "UNCERTAIN";
	case CAP_MODE_NOPRIV:
		return "NOPRIV";
	case CAP_MODE_PURE1E_INIT:
		return "PURE1E_INIT";
	case CAP_MODE_PURE1E:
		return "PURE1E";
	case CAP_MODE_HYBRID:
		return "HYBRID";
	default:
		return "UNKNOWN";
	}
}
