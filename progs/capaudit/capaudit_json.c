/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit --json: every object it writes, one a line: a "check" for
 * each capability and process, the run's "summary", and with --suggest
 * the "suggest" object. Built with common/json.c; the same facts as text
 * are capaudit_report.c's and capaudit_advice.c's.
 */
#include <stdio.h>
#include <sys/wait.h>

#include "json.h"
#include "mask.h"
#include "names.h"
#include "risk.h"
#include "capaudit.h"
#include "capaudit_container.h"
#include "capaudit_identity.h"
#include "capaudit_json.h"
#include "capaudit_source.h"
#include "capaudit_suggest.h"
#include "capaudit_tally.h"
#include "capaudit_warn.h"

static const char *source_name(const struct source *src)
{
	switch (src->kind) {
	case SOURCE_KPROBE_EVENTS:
		return "kprobe_events";
	case SOURCE_KPROBE_PMU:
		return "kprobe_pmu";
	case SOURCE_RAW_TRACEPOINT:
		return "raw_tracepoint";
	default:
		return "tracepoint";
	}
}

void report_json(const struct tally *t, const struct source *src,
		 const struct run_result *rr, FILE *out)
{
	char name[64];
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		const struct exec_image *im =
			r->image >= 0 ? &t->images[r->image] : NULL;

		names_cap(r->cap, name, sizeof(name));
		json_object_open(out, "check");
		fputs("\"capability\":", out);
		json_string(out, name);
		fprintf(out,
			",\"value\":%d,\"risk\":\"%s\",\"pid\":%ld,\"ppid\":%ld,\"command\":",
			r->cap, risk_tier_name(risk_tier_of(r->cap)),
			(long)r->pid, (long)r->ppid);
		json_string(out, r->comm);
		fprintf(out, ",");
		if (im != NULL && im->file != NULL)
			json_path(out, "file", im->file);
		else
			fprintf(out, "\"file\":null");
		fprintf(out,
			",\"class\":\"%s\",\"counted\":%s,\"checks\":%llu,\"granted\":%llu,\"refused\":%llu}\n",
			class_name(r->cls),
			r->cls == CLASS_OWN ? "true" : "false",
			(unsigned long long)(r->granted + r->refused),
			(unsigned long long)r->granted,
			(unsigned long long)r->refused);
	}
	json_object_open(out, "summary");
	fprintf(out, "\"source\":\"%s\",\"counting\":\"%s\",", source_name(src),
		src->counting.usable ? "kernel" : "samples");
	if (rr->attached)
		fprintf(out,
			"\"attached\":true,\"exit_status\":null,\"signal\":null,");
	else if (WIFSIGNALED(rr->status))
		fprintf(out,
			"\"attached\":false,\"exit_status\":null,\"signal\":%d,",
			WTERMSIG(rr->status));
	else
		fprintf(out,
			"\"attached\":false,\"exit_status\":%d,\"signal\":null,",
			WEXITSTATUS(rr->status));
	fprintf(out,
		"\"seconds\":%.3f,\"processes\":%zu,\"still_running\":%zu,\"lost\":%llu,\"unfollowed\":%llu,\"threads_left_out\":%zu,\"launcher_checks\":%llu,\"unknown\":%llu,\"not_own\":{\"user_namespace\":%llu,\"credential\":%llu,\"unknown\":%llu}}\n",
		rr->seconds, tally_followed(t),
		rr->attached ? 0 : tally_running(t),
		(unsigned long long)t->lost, (unsigned long long)t->unfollowed,
		rr->left_out, (unsigned long long)t->launcher,
		(unsigned long long)(t->out_of_range + t->unpaired),
		(unsigned long long)t->class_checks[CLASS_USERNS],
		(unsigned long long)t->class_checks[CLASS_CRED],
		(unsigned long long)t->class_checks[CLASS_UNKNOWN]);
}

static void json_caps(uint64_t mask, FILE *out)
{
	char name[64];
	int c, first = 1;

	fputc('[', out);
	for (MASK_EACH(c, mask)) {
		names_cap(c, name, sizeof(name));
		fprintf(out, "%s{\"name\":", first ? "" : ",");
		json_string(out, name);
		fprintf(out, ",\"risk\":\"%s\"}",
			risk_tier_name(risk_tier_of(c)));
		first = 0;
	}
	fputc(']', out);
}

static void json_strings(const char *const *s, size_t n, FILE *out)
{
	size_t i;

	fputc('[', out);
	for (i = 0; s != NULL && i < n && s[i] != NULL; i++) {
		if (i > 0)
			fputc(',', out);
		json_string(out, s[i]);
	}
	fputc(']', out);
}

/* A way's flags and securityContext; [] and null when it has none. */
static void container_lines_json(const struct container_advice *ca,
				 const struct container_proof *p, FILE *out)
{
	const char *words[CONTAINER_WORDS], *add[64];
	struct container_context k;
	struct container_flags f;
	int usable = !(p->ran && !p->proven) &&
		     container_flags_of(p, ca->uid, ca->gid, &f) == 0 &&
		     container_context_of(p, ca->uid, ca->gid, &k) == 0;
	size_t i;

	for (i = 0; usable && i < f.n; i++)
		words[i] = f.word[i];
	fputs(",\"flags\":", out);
	json_strings(words, usable ? f.n : 0, out);
	fputs(",\"kubernetes\":", out);
	if (!usable || !container_has_context(p->way)) {
		fputs("null", out);
		return;
	}
	for (i = 0; i < k.nadd; i++)
		add[i] = k.add[i];
	fprintf(out,
		"{\"run_as_user\":%lu,\"run_as_group\":%lu,\"run_as_non_root\":%s,\"allow_privilege_escalation\":%s,\"drop\":[\"ALL\"],\"add\":",
		(unsigned long)k.run_as_user, (unsigned long)k.run_as_group,
		k.run_as_non_root ? "true" : "false",
		k.allow_privilege_escalation ? "true" : "false");
	json_strings(add, k.nadd, out);
	fputc('}', out);
}

/* ,"containers":[...], one object a way; nothing with --no-container. */
static void containers_json(const struct container_advice *ca, FILE *out)
{
	size_t i;

	if (!ca->asked)
		return;
	fputs(",\"containers\":[", out);
	for (i = 0; ca->shown && i < ca->nways; i++) {
		const struct container_proof *p = &ca->ways[i];

		fputs(i ? ",{\"runtimes\":" : "{\"runtimes\":", out);
		json_strings(container_runtimes(p->way), 3, out);
		fprintf(out,
			",\"user\":%lu,\"group\":%lu,\"proven\":%s,\"unproven\":",
			(unsigned long)ca->uid, (unsigned long)ca->gid,
			p->proven ? "true" : "false");
		if (p->proven)
			fputs("null", out);
		else
			json_string(out, p->unproven);
		fputs(",\"run\":", out);
		if (p->run)
			fprintf(out, "%d", p->run);
		else
			fputs("null", out);
		fputs(",\"sets\":{", out);
		json_vector(out, "bounding", p->sets.bounding);
		fputc(',', out);
		json_vector(out, "inheritable", p->sets.inheritable);
		fputc(',', out);
		json_vector(out, "ambient", p->sets.ambient);
		fprintf(out, ",\"no_new_privs\":%s,\"file_capabilities\":%s}",
			p->sets.no_new_privs ? "true" : "false",
			p->sets.file_caps ? "true" : "false");
		container_lines_json(ca, p, out);
		fputc('}', out);
	}
	fputc(']', out);
}

void suggest_json(const struct suggestion *sg, const struct tally *t,
		  const char *command, FILE *out)
{
	uint64_t grant = suggest_every_file(sg, 0);
	char list[1024], why[128];
	size_t i;
	int first = 1;

	(void)t;
	json_object_open(out, "suggest");
	fprintf(out, "\"failed\":%s,\"proven\":%s,\"unproven\":",
		sg->failed ? "true" : "false", sg->proven ? "true" : "false");
	if (sg->proven)
		fputs("null", out);
	else
		json_string(out, sg->unproven);
	fprintf(out, ",\"runs\":%d,\"capabilities\":", sg->runs);
	json_caps(grant, out);
	fputs(",\"held_apart\":", out);
	json_caps(suggest_every_file(sg, 1), out);
	fprintf(out, ",\"files\":[");
	for (i = 0; i < sg->nfiles; i++) {
		const struct need_file *f = &sg->files[i];

		if ((f->grant | f->apart) == 0)
			continue;
		fprintf(out, "%s{", first ? "" : ",");
		first = 0;
		if (f->path != NULL)
			json_path(out, "path", f->path);
		else
			fputs("\"path\":null", out);
		fputs(",\"command\":", out);
		json_string(out, f->comm);
		fprintf(out,
			",\"proven\":%s,\"same_file\":%s,\"capabilities\":",
			sg->proven ? "true" : "false",
			f->path != NULL &&
					identity_names(f->path, f->maj, f->min,
						       f->ino, why, sizeof(why))
				? "true"
				: "false");
		json_caps(f->grant, out);
		fputs(",\"held_apart\":", out);
		json_caps(f->apart, out);
		mask_names(list, sizeof(list), f->grant, 0);
		fprintf(out, ",\"setcap\":");
		json_string(out, f->grant ? list : "");
		fprintf(out, ",\"interpreter\":%s}",
			f->path != NULL && is_interpreter(f->path) ? "true"
								   : "false");
	}
	fprintf(out, "],\"left_out\":{");
	json_vector(out, "incidental", sg->incidental);
	fprintf(out, ",");
	json_vector(out, "unused", sg->unused);
	fprintf(out, ",");
	json_vector(out, "not_own", sg->not_own & ~sg->incidental);
	fprintf(out, "},\"command\":");
	json_string(out, command != NULL ? command : "");
	mask_names(list, sizeof(list), grant, 0);
	fprintf(out, ",\"setcap\":");
	json_string(out, grant ? list : "");
	containers_json(&sg->container, out);
	fprintf(out, "}\n");
}
