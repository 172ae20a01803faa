/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capsh --json: --print and --decode as schema-1 JSON objects (not in
 * libcap).
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "groups.h"
#include "json.h"
#include "mask.h"
#include "capsh.h"

static void json_name_field(const char *key, const char *name)
{
	printf(",\"%s\":", key);
	if (name != NULL)
		json_string(stdout, name);
	else
		fputs("null", stdout);
}

/*
 * {"schema":1,"text":..,"effective":{..},"permitted":{..},"inheritable":{..},
 *  "bounding":{..},"ambient":{..},"iab":..,"securebits":n,"no_new_privs":n,
 *  "uid":n,"euid":n,"gid":n,"groups":[n,..],"user":..,"mode":".."}
 */
int capsh_print_json(void)
{
	cap_t caps = cap_get_proc();
	cap_iab_t iab = cap_iab_get_proc();
	char *text = caps != NULL ? cap_to_text(caps, NULL) : NULL;
	char *iab_text = iab != NULL ? cap_iab_to_text(iab) : NULL;
	struct passwd *pw;
	gid_t *groups = NULL;
	int n, i, status = 1;

	if (text == NULL || iab_text == NULL) {
		capsh_perror("failed to get process capabilities");
		goto out;
	}
	json_object_open(stdout, NULL);
	fputs("\"text\":", stdout);
	json_string(stdout, text);
	putchar(',');
	json_capset(stdout, caps);
	putchar(',');
	json_vector(stdout, "bounding", mask_of_vector(cap_get_bound, NULL));
	putchar(',');
	json_vector(stdout, "ambient", mask_of_vector(cap_get_ambient, NULL));
	printf(",\"iab\":");
	json_string(stdout, iab_text);
	printf(",\"securebits\":%u,\"no_new_privs\":%d", cap_get_secbits(),
	       cap_prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0, 0));
	printf(",\"uid\":%u,\"euid\":%u,\"gid\":%u,\"groups\":[",
	       (unsigned)getuid(), (unsigned)geteuid(), (unsigned)getgid());
	/* However many there are (a fixed array once printed [] past 256). */
	n = groups_of_process(&groups);
	for (i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", (unsigned)groups[i]);
	putchar(']');
	pw = getpwuid(getuid());
	json_name_field("user", pw != NULL ? pw->pw_name : NULL);
	json_name_field("mode", cap_mode_name(cap_get_mode()));
	printf("}\n");
	status = 0;
out:
	free(groups);
	cap_free(text);
	cap_free(iab_text);
	cap_free(caps);
	cap_free(iab);
	return status;
}

/* {"schema":1,"input":"..","decoded":{"hex":"0x..","names":[..]}} */
int capsh_decode_json(const char *hex)
{
	unsigned long long bits;

	if (capsh_parse_hex(hex, &bits) != 0)
		return 1;
	json_object_open(stdout, NULL);
	/* Parsed as hex digits, so it is ASCII: no "input_hex" twin. */
	fputs("\"input\":", stdout);
	json_string(stdout, hex);
	putchar(',');
	json_vector(stdout, "decoded", bits);
	printf("}\n");
	return 0;
}
