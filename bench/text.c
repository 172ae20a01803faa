/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Text benchmark: one timed round of capability-text round trips and name
 * look-ups over a fixed corpus of what getcap, setcap and capsh meet. The
 * same source is built against this library (bin/text) and against the
 * system's libcap (bin/ref-text); text.sh alternates rounds of the two.
 * Uses only the public API.
 *
 * Usage: text [seconds]   prints "<metric> <ops-per-second>" per metric:
 *   text       cap_from_text + cap_to_text + 2 cap_free, per corpus text
 *   from_name  cap_from_name, per name
 *   to_name    cap_to_name + cap_free, per capability private/caps.def names
 *   corpus     all of the above over the whole corpus, per pass
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/capability.h>
#include <time.h>

/* Texts as file capabilities and process states print them in practice. */
static const char *const texts[] = {
	"cap_net_raw=ep",
	"cap_perfmon,cap_syslog=ep",
	"=ep cap_sys_admin-ep",
	"cap_net_bind_service=ep",
	"cap_perfmon=ep",
	"cap_sys_admin,cap_perfmon+ep",
	"cap_bpf,cap_perfmon=ep",
	"cap_net_admin,cap_net_raw=eip",
	"cap_dac_read_search,cap_sys_ptrace=ep",
	"cap_ipc_lock,cap_sys_nice,cap_sys_resource=ep",
	"cap_setgid,cap_setuid=ep",
	"cap_chown,cap_dac_override,cap_fowner,cap_fsetid=ep",
	"cap_sys_chroot+ep",
	"cap_net_raw+p",
	"=",
	"=ep",
	"all=eip",
	"=eip cap_setpcap-eip",
	"cap_audit_write,cap_setfcap=i cap_kill+p",
	"cap_checkpoint_restore=eip",
	"CAP_NET_RAW+ep",
	"cap_wake_alarm,cap_block_suspend=ep",
};

/* Names and numbers as command lines and configuration spell them. */
static const char *const names[] = {
	"cap_chown",
	"cap_dac_override",
	"cap_setuid",
	"cap_setgid",
	"cap_net_bind_service",
	"cap_net_admin",
	"cap_net_raw",
	"cap_ipc_lock",
	"cap_sys_ptrace",
	"cap_sys_admin",
	"cap_sys_nice",
	"cap_sys_resource",
	"cap_setfcap",
	"cap_syslog",
	"cap_perfmon",
	"cap_bpf",
	"cap_checkpoint_restore",
	"CAP_PERFMON",
	"cap_audit_read",
	"38",
	"cap_kill",
	"cap_mknod",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Every capability private/caps.def names, whichever library this is
 * built against: one more in the table is one more look-up here.
 */
#define CAP_FACT(number, ...) +1
static const cap_value_t named = 0
#include "caps.def"
	;
#undef CAP_FACT

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs fn over the corpus until seconds have passed; returns ops/s. */
static double measure(unsigned long (*fn)(void), double seconds)
{
	double start = now(), elapsed;
	unsigned long ops = 0;

	do {
		ops += fn();
		elapsed = now() - start;
	} while (elapsed < seconds);
	return (double)ops / elapsed;
}

static unsigned long sink; /* keeps results observable */

static unsigned long text_round_trips(void)
{
	size_t i;

	for (i = 0; i < COUNT(texts); i++) {
		cap_t caps = cap_from_text(texts[i]);
		ssize_t len = 0;
		char *out;

		if (caps == NULL) {
			fprintf(stderr, "text: cannot parse %s\n", texts[i]);
			exit(1);
		}
		out = cap_to_text(caps, &len);
		if (out == NULL)
			exit(1);
		sink += (unsigned long)len;
		cap_free(out);
		cap_free(caps);
	}
	return COUNT(texts);
}

static unsigned long from_name_look_ups(void)
{
	size_t i;

	for (i = 0; i < COUNT(names); i++) {
		cap_value_t cap;

		if (cap_from_name(names[i], &cap) != 0) {
			fprintf(stderr, "text: unknown name %s\n", names[i]);
			exit(1);
		}
		sink += (unsigned long)cap;
	}
	return COUNT(names);
}

static unsigned long to_name_look_ups(void)
{
	cap_value_t cap;

	for (cap = 0; cap < named; cap++) {
		char *name = cap_to_name(cap);

		if (name == NULL)
			exit(1);
		sink += (unsigned long)name[4];
		cap_free(name);
	}
	return (unsigned long)named;
}

/*
 * The whole corpus once: every text round trip and every look-up both
 * ways, as one unit of work. This is the figure the 2x target is about:
 * what a program handling capability text gets done per second.
 */
static unsigned long corpus_passes(void)
{
	text_round_trips();
	from_name_look_ups();
	to_name_look_ups();
	return 1;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.25;

	if (seconds <= 0)
		seconds = 0.25;
	/* Warm up: first-use probes (cap_max_bits) and page faults. */
	text_round_trips();
	from_name_look_ups();
	to_name_look_ups();
	printf("text %.0f\n", measure(text_round_trips, seconds));
	printf("from_name %.0f\n", measure(from_name_look_ups, seconds));
	printf("to_name %.0f\n", measure(to_name_look_ups, seconds));
	printf("corpus %.0f\n", measure(corpus_passes, seconds));
	return sink == 0;
}
