/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * The seccomp profile that lets perf_event_open() through to CAP_PERFMON
 * (perfdoctor_profile.h), as the runtimes read a profile: containers-
 * common (podman, CRI-O) and docker apply a rule of "syscalls" only when
 * the container's bounding set holds every capability of its
 * includes.caps and none of its excludes.caps, and two rules that apply
 * with different actions for one call are a conflict. podman's default
 * allows perf_event_open() (with 7 other calls) under CAP_SYS_ADMIN and
 * refuses the same 8 with EPERM under excludes CAP_SYS_ADMIN: a rule that
 * allows it under CAP_PERFMON alone would meet that refusal, and
 * CAP_PERFMON added to the refusal's excludes would let the 7 others fall
 * to the default action (ENOSYS instead of EPERM). So:
 *  - each rule that answers perf_event_open() other than by allowing it,
 *    and applies with CAP_PERFMON, applies without it only: CAP_PERFMON
 *    joins its excludes.caps when it names perf_event_open() alone;
 *    otherwise perf_event_open() leaves its names for a copy of it right
 *    after it that names perf_event_open() alone and excludes CAP_PERFMON
 *    too, the others keeping their answer;
 *  - then, unless a rule allows it to every container holding CAP_PERFMON
 *    already or the default action allows it, one new rule allows
 *    perf_event_open() under includes.caps CAP_PERFMON.
 * Without CAP_PERFMON every call meets the rules it met; with it, only
 * perf_event_open()'s answer changes, to allowed.
 *
 * Keys are matched as Go's encoding/json matches them ("Names" is
 * names); a key the runtime would read twice (it keeps the last), a
 * value of the wrong type (it refuses the profile), a rule naming calls
 * both ways ("name" and "names") or null are refused here, so that
 * perfdoctor never reads a profile otherwise than the runtime does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdoctor_jscan.h"
#include "perfdoctor_profile.h"
#include "perfdoctor_splice.h"

#define PERF	"perf_event_open"
#define PERFMON "CAP_PERFMON"
#define ALLOW	"SCMP_ACT_ALLOW"

/* The fields of the runtimes' Go structs: the keys that count. */
static const char *const top_fields[] = {
	"defaultAction",
	"defaultErrnoRet",
	"defaultErrno",
	"architectures",
	"archMap",
	"syscalls",
	"flags",
	"listenerPath",
	"listenerMetadata",
	NULL,
};
static const char *const rule_fields[] = {
	"name",	    "names",	"action",   "args",  "comment",
	"includes", "excludes", "errnoRet", "errno", NULL,
};
static const char *const filter_fields[] = { "caps", "arches", "minKernel",
					     NULL };

/* One rule of syscalls, its members found (-1: absent). */
struct rule {
	int node, index;
	int name, names, action, args, includes, excludes;
	int perf;   /* how many of its names are perf_event_open */
	int others; /* how many are not */
};

struct ctx {
	struct jdoc d;
	struct profile_change *c;
	struct splice s;
	size_t what_len;
};

static int bad(struct ctx *x, int node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct ctx *x, int node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->c->err, sizeof(x->c->err), fmt, ap);
	va_end(ap);
	x->c->err_has_at = node >= 0;
	x->c->err_at =
		node >= 0 ? (x->d.n[node].key != NULL ? x->d.n[node].key_start
						      : x->d.n[node].start)
			  : 0;
	errno = EINVAL;
	return -1;
}

/* Appends a phrase to the line saying what changed. */
static void said(struct ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void said(struct ctx *x, const char *fmt, ...)
{
	size_t room = sizeof(x->c->what) - x->what_len;
	va_list ap;
	int n;

	if (room <= 2)
		return;
	if (x->what_len > 0) {
		memcpy(x->c->what + x->what_len, "; ", 3);
		x->what_len += 2;
		room -= 2;
	}
	va_start(ap, fmt);
	n = vsnprintf(x->c->what + x->what_len, room, fmt, ap);
	va_end(ap);
	x->what_len += n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
}

/*
 * No key of obj names a field twice: the runtime would take the last,
 * and a reader that took the first would judge another profile.
 */
static int check_keys(struct ctx *x, int obj, const char *const *fields,
		      const char *where)
{
	const struct jdoc *d = &x->d;
	int a, b, f;

	for (f = 0; fields[f] != NULL; f++)
		for (a = d->n[obj].first_child; a >= 0; a = d->n[a].next) {
			if (!jscan_key_is(d->n[a].key, fields[f]))
				continue;
			for (b = d->n[a].next; b >= 0; b = d->n[b].next)
				if (jscan_key_is(d->n[b].key, fields[f]))
					return bad(
						x, b,
						"%s sets \"%s\" twice (\"%s\" and \"%s\"; the runtime reads keys in any case and keeps the last)",
						where, fields[f], d->n[a].key,
						d->n[b].key);
		}
	return 0;
}

/* Member field of obj, which must be absent or of kind k (or null). */
static int member(struct ctx *x, int obj, const char *field, enum jkind k,
		  const char *where, int *out)
{
	int m = jscan_member(&x->d, obj, field);

	*out = -1;
	if (m < 0 || x->d.n[m].kind == JSCAN_NULL)
		return 0;
	if (x->d.n[m].kind != k)
		return bad(x, m, "%s: \"%s\" is %s, not %s", where, field,
			   jscan_kind_name(x->d.n[m].kind), jscan_kind_name(k));
	*out = m;
	return 0;
}

/* Every element of array arr (or -1) is a string. */
static int strings_only(struct ctx *x, int arr, const char *where,
			const char *field)
{
	int e, i = 0;

	for (e = arr < 0 ? -1 : x->d.n[arr].first_child; e >= 0;
	     e = x->d.n[e].next, i++)
		if (x->d.n[e].kind != JSCAN_STRING)
			return bad(x, e, "%s: \"%s\"[%d] is %s, not a string",
				   where, field, i,
				   jscan_kind_name(x->d.n[e].kind));
	return 0;
}

static int is_perf(const struct jdoc *d, int el, void *arg)
{
	(void)arg;
	return d->n[el].kind == JSCAN_STRING && strcmp(d->n[el].str, PERF) == 0;
}

static int not_perf(const struct jdoc *d, int el, void *arg)
{
	return !is_perf(d, el, arg);
}

/* Array arr (or -1) holds the string s. */
static int holds(const struct jdoc *d, int arr, const char *s)
{
	int e;

	for (e = arr < 0 ? -1 : d->n[arr].first_child; e >= 0; e = d->n[e].next)
		if (strcmp(d->n[e].str, s) == 0)
			return 1;
	return 0;
}

static int nchildren(const struct jdoc *d, int node)
{
	return node < 0 ? 0 : d->n[node].nchildren;
}

static int last_child(const struct jdoc *d, int node)
{
	int c, last = -1;

	for (c = d->n[node].first_child; c >= 0; c = d->n[c].next)
		last = c;
	return last;
}

/* includes or excludes: an object of caps, arches, minKernel. */
static int read_filter(struct ctx *x, int f, const char *where, int *caps,
		       int *arches, int *min_kernel)
{
	char at[64];

	*caps = *arches = *min_kernel = -1;
	if (f < 0)
		return 0;
	snprintf(at, sizeof(at), "%s.%s", where, x->d.n[f].key);
	if (check_keys(x, f, filter_fields, at) < 0 ||
	    member(x, f, "caps", JSCAN_ARRAY, at, caps) < 0 ||
	    member(x, f, "arches", JSCAN_ARRAY, at, arches) < 0 ||
	    member(x, f, "minKernel", JSCAN_STRING, at, min_kernel) < 0 ||
	    strings_only(x, *caps, at, "caps") < 0 ||
	    strings_only(x, *arches, at, "arches") < 0)
		return -1;
	return 0;
}

static int read_rule(struct ctx *x, int node, int index, struct rule *r)
{
	const struct jdoc *d = &x->d;
	char where[32];
	int e, caps, arches, mk;

	memset(r, 0, sizeof(*r));
	r->node = node;
	r->index = index;
	snprintf(where, sizeof(where), "syscalls[%d]", index);
	if (d->n[node].kind != JSCAN_OBJECT)
		return bad(x, node, "%s is %s, not an object (a rule)", where,
			   jscan_kind_name(d->n[node].kind));
	if (check_keys(x, node, rule_fields, where) < 0 ||
	    member(x, node, "name", JSCAN_STRING, where, &r->name) < 0 ||
	    member(x, node, "names", JSCAN_ARRAY, where, &r->names) < 0 ||
	    member(x, node, "action", JSCAN_STRING, where, &r->action) < 0 ||
	    member(x, node, "args", JSCAN_ARRAY, where, &r->args) < 0 ||
	    member(x, node, "includes", JSCAN_OBJECT, where, &r->includes) <
		    0 ||
	    member(x, node, "excludes", JSCAN_OBJECT, where, &r->excludes) <
		    0 ||
	    strings_only(x, r->names, where, "names") < 0 ||
	    read_filter(x, r->includes, where, &caps, &arches, &mk) < 0 ||
	    read_filter(x, r->excludes, where, &caps, &arches, &mk) < 0)
		return -1;
	if (r->name >= 0 && d->n[r->name].str_len == 0)
		r->name = -1; /* "" names nothing, as for the runtime */
	if (r->name >= 0 && nchildren(d, r->names) > 0)
		return bad(
			x, r->name,
			"%s has both \"name\" and \"names\", which the runtime refuses",
			where);
	if (r->name >= 0) {
		if (strcmp(d->n[r->name].str, PERF) == 0)
			r->perf = 1;
		else
			r->others = 1;
	}
	for (e = r->names < 0 ? -1 : d->n[r->names].first_child; e >= 0;
	     e = d->n[e].next) {
		if (is_perf(d, e, NULL))
			r->perf++;
		else
			r->others++;
	}
	return 0;
}

static const char *action_of(const struct jdoc *d, const struct rule *r)
{
	return r->action >= 0 ? d->n[r->action].str : "";
}

/* Filter f (or -1) sets no condition at all, or only caps within "only". */
static int filter_free(const struct jdoc *d, int f, const char *only)
{
	int caps = jscan_member(d, f, "caps");
	int arches = jscan_member(d, f, "arches");
	int mk = jscan_member(d, f, "minKernel");
	int e;

	if (f < 0)
		return 1;
	if (arches >= 0 && d->n[arches].nchildren > 0)
		return 0;
	/*
	 * Any minKernel is a condition, "" too: docker reads "" as kernel
	 * 0.0, which every kernel reaches, so that under excludes it makes
	 * the rule apply nowhere (containers-common ignores minKernel).
	 */
	if (mk >= 0 && d->n[mk].kind == JSCAN_STRING)
		return 0;
	for (e = caps < 0 ? -1 : d->n[caps].first_child; e >= 0;
	     e = d->n[e].next)
		if (only == NULL || strcmp(d->n[e].str, only) != 0)
			return 0;
	return 1;
}

/*
 * An allowing rule that lets perf_event_open() through to every
 * container with CAP_PERFMON, whatever else: no argument conditions, no
 * architecture or kernel, no capability but CAP_PERFMON required, none
 * excluded.
 */
static int allows_to_perfmon(const struct jdoc *d, const struct rule *r)
{
	return strcmp(action_of(d, r), ALLOW) == 0 &&
	       nchildren(d, r->args) == 0 &&
	       filter_free(d, r->includes, PERFMON) &&
	       filter_free(d, r->excludes, NULL);
}

static int excludes_perfmon(const struct jdoc *d, const struct rule *r)
{
	return holds(d, jscan_member(d, r->excludes, "caps"), PERFMON);
}

/*
 * Edits that make rule r exclude CAP_PERFMON too, into s (which may be
 * another list than x's: a copy's).
 */
static void add_exclusion(struct ctx *x, struct splice *s, const struct rule *r)
{
	static const char *const perfmon[] = { PERFMON };
	const struct jdoc *d = &x->d;
	struct sbuf b = { NULL, 0, 0, 0 };
	struct jstyle st;
	int caps = jscan_member(d, r->excludes, "caps"), last;
	char ind[256];

	jstyle_of(d, r->node, &st);
	if (r->excludes < 0) {
		/* "excludes": {"caps": [...]} after the rule's last member */
		int ex = jscan_member(d, r->node, "excludes");

		if (ex >= 0) { /* null */
			splice_style_indent(d, &st, d->n[ex].key_start, ind,
					    sizeof(ind));
			gen_member_strings(&b, &st, ind, "caps", perfmon, 1);
			if (!b.oom)
				splice_replace(s, d, ex, b.s);
		} else {
			last = last_child(d, r->node);
			splice_style_indent(d, &st, d->n[last].key_start, ind,
					    sizeof(ind));
			gen_string(&b, "excludes");
			sbuf_str(&b, st.colon);
			gen_member_strings(&b, &st, ind, "caps", perfmon, 1);
			if (!b.oom)
				splice_after(s, d, last, b.s);
		}
	} else if (d->n[r->excludes].nchildren == 0) {
		splice_style_indent(d, &st, d->n[r->excludes].key_start, ind,
				    sizeof(ind));
		gen_member_strings(&b, &st, ind, "caps", perfmon, 1);
		if (!b.oom)
			splice_replace(s, d, r->excludes, b.s);
	} else if (caps < 0 || d->n[caps].nchildren == 0) {
		int at =
			caps >= 0 ? caps : jscan_member(d, r->excludes, "caps");

		if (at >= 0) { /* null, or [] */
			splice_style_indent(d, &st, d->n[at].key_start, ind,
					    sizeof(ind));
			gen_strings(&b, &st, ind, perfmon, 1);
			if (!b.oom)
				splice_replace(s, d, at, b.s);
		} else {
			last = last_child(d, r->excludes);
			splice_style_indent(d, &st, d->n[last].key_start, ind,
					    sizeof(ind));
			gen_string(&b, "caps");
			sbuf_str(&b, st.colon);
			gen_strings(&b, &st, ind, perfmon, 1);
			if (!b.oom)
				splice_after(s, d, last, b.s);
		}
	} else {
		gen_string(&b, PERFMON);
		if (!b.oom)
			splice_after(s, d, last_child(d, caps), b.s);
	}
	if (b.oom)
		s->oom = 1;
	free(b.s);
}

static int is_first_perf(const struct jdoc *d, int el, void *arg)
{
	(void)d;
	return el == *(const int *)arg;
}

/*
 * A rule that refuses perf_event_open() with other calls: perf_event_open()
 * leaves its names, into a copy of it right after it that names it alone
 * and excludes CAP_PERFMON too.
 */
static void split(struct ctx *x, const struct rule *r)
{
	const struct jdoc *d = &x->d;
	const struct jnode *n = &d->n[r->node];
	struct splice copy;
	char *text;
	size_t len;
	int e, first = -1;

	for (e = d->n[r->names].first_child; e >= 0 && first < 0;
	     e = d->n[e].next)
		if (is_perf(d, e, NULL))
			first = e;
	splice_keep(&x->s, d, r->names, not_perf, NULL);
	splice_init(&copy);
	splice_keep(&copy, d, r->names, is_first_perf, &first);
	/* Its name as plain text, however the base escaped it. */
	splice_replace(&copy, d, first, "\"" PERF "\"");
	add_exclusion(x, &copy, r);
	text = splice_apply(&copy, d->text, n->start, n->end, &len);
	splice_free(&copy);
	if (text == NULL) {
		x->s.oom = 1;
		return;
	}
	splice_after(&x->s, d, r->node, text);
	free(text);
}

/* The new rule: perf_event_open() allowed under includes.caps CAP_PERFMON. */
static void gen_allow_rule(struct sbuf *b, const struct jstyle *st,
			   const char *ind)
{
	static const char *const perf[] = { PERF };
	static const char *const perfmon[] = { PERFMON };
	char inner[256];

	snprintf(inner, sizeof(inner), "%s%s", ind, st->lines ? st->unit : "");
	sbuf_str(b, "{");
	if (st->lines) {
		sbuf_str(b, "\n");
		sbuf_str(b, inner);
	}
	gen_string(b, "names");
	sbuf_str(b, st->colon);
	gen_strings(b, st, inner, perf, 1);
	sbuf_str(b, ",");
	sbuf_str(b, st->lines ? "\n" : st->unit);
	sbuf_str(b, st->lines ? inner : "");
	gen_string(b, "action");
	sbuf_str(b, st->colon);
	gen_string(b, ALLOW);
	sbuf_str(b, ",");
	sbuf_str(b, st->lines ? "\n" : st->unit);
	sbuf_str(b, st->lines ? inner : "");
	gen_string(b, "includes");
	sbuf_str(b, st->colon);
	gen_member_strings(b, st, inner, "caps", perfmon, 1);
	if (st->lines) {
		sbuf_str(b, "\n");
		sbuf_str(b, ind);
	}
	sbuf_str(b, "}");
}

/*
 * The new rule after rule node after (or, without rules, as the whole
 * syscalls list, added when absent).
 */
static void add_allow_rule(struct ctx *x, int after, int syscalls)
{
	const struct jdoc *d = &x->d;
	struct sbuf b = { NULL, 0, 0, 0 };
	struct jstyle st;
	char ind[256], inner[300];

	if (after >= 0) {
		jstyle_of(d, after, &st);
		splice_style_indent(d, &st, d->n[after].start, ind,
				    sizeof(ind));
		gen_allow_rule(&b, &st, ind);
		if (!b.oom)
			splice_after(&x->s, d, after, b.s);
	} else {
		int at = syscalls >= 0 ? syscalls : last_child(d, 0);

		jstyle_of(d, 0, &st);
		splice_style_indent(d, &st, d->n[at].key_start, ind,
				    sizeof(ind));
		snprintf(inner, sizeof(inner), "%s%s", ind,
			 st.lines ? st.unit : "");
		if (syscalls < 0) {
			gen_string(&b, "syscalls");
			sbuf_str(&b, st.colon);
		}
		sbuf_str(&b, "[");
		if (st.lines) {
			sbuf_str(&b, "\n");
			sbuf_str(&b, inner);
		}
		gen_allow_rule(&b, &st, inner);
		if (st.lines) {
			sbuf_str(&b, "\n");
			sbuf_str(&b, ind);
		}
		sbuf_str(&b, "]");
		if (!b.oom && syscalls >= 0)
			splice_replace(&x->s, d, syscalls, b.s);
		else if (!b.oom)
			splice_after(&x->s, d, at, b.s);
	}
	if (b.oom)
		x->s.oom = 1;
	free(b.s);
}

/* The edits for the profile read into x->d; 0, or -1 after bad(). */
static int plan(struct ctx *x, int *edits)
{
	const struct jdoc *d = &x->d;
	const char *dflt = "";
	int da, sc, e, i = 0, allowed = -1, allowed_all = 0, last_perf = -1,
		       last = -1;
	struct rule r;

	*edits = 0;
	if (d->n[0].kind != JSCAN_OBJECT)
		return bad(
			x, 0,
			"not a seccomp profile: the top level is %s, not an object",
			jscan_kind_name(d->n[0].kind));
	if (check_keys(x, 0, top_fields, "the top level") < 0 ||
	    member(x, 0, "defaultAction", JSCAN_STRING, "the top level", &da) <
		    0 ||
	    member(x, 0, "syscalls", JSCAN_ARRAY, "the top level", &sc) < 0)
		return -1;
	if (da >= 0)
		dflt = d->n[da].str;
	for (e = sc < 0 ? -1 : d->n[sc].first_child; e >= 0;
	     e = d->n[e].next, i++) {
		if (read_rule(x, e, i, &r) < 0)
			return -1;
		last = e;
		if (r.perf == 0)
			continue;
		last_perf = e;
		if (allows_to_perfmon(d, &r)) {
			if (allowed < 0) {
				allowed = i;
				allowed_all = filter_free(d, r.includes, NULL);
			}
			continue;
		}
		if (strcmp(action_of(d, &r), ALLOW) == 0 ||
		    excludes_perfmon(d, &r))
			continue;
		if (r.others == 0) {
			add_exclusion(x, &x->s, &r);
			said(x, "syscalls[%d] (%s) excludes CAP_PERFMON too", i,
			     action_of(d, &r));
		} else {
			split(x, &r);
			said(x,
			     "perf_event_open leaves syscalls[%d] (%s) for a copy of it that excludes CAP_PERFMON too, right after it",
			     i, action_of(d, &r));
		}
		(*edits)++;
	}
	if (dflt[0] == '\0' && i == 0) {
		said(x,
		     "no defaultAction and no rules: the runtime runs a container without a seccomp filter, and perf_event_open() is allowed to every container");
		return 0;
	}
	if (allowed >= 0 || strcmp(dflt, ALLOW) == 0) {
		if (allowed >= 0)
			said(x,
			     allowed_all
				     ? "syscalls[%d] allows perf_event_open() to every container"
				     : "syscalls[%d] allows perf_event_open() to a container with CAP_PERFMON",
			     allowed);
		else
			said(x,
			     "the defaultAction, " ALLOW
			     ", lets perf_event_open() through where no rule refuses it");
		return 0;
	}
	/* syscalls may be null: replaced then. */
	add_allow_rule(x, last_perf >= 0 ? last_perf : last,
		       jscan_member(d, 0, "syscalls"));
	said(x, "a new rule allows perf_event_open() under CAP_PERFMON%s",
	     last_perf >= 0 ? ", after the last rule that names it"
	     : last >= 0    ? ", at the end of syscalls"
			    : "");
	(*edits)++;
	return 0;
}

/*
 * The profile made must read as JSON and need no further change: else
 * a splice went wrong, and no profile is better than a wrong one.
 */
static int recheck(struct profile_change *c)
{
	struct profile_change again;
	struct ctx y;
	int edits = -1, rc;

	memset(&y, 0, sizeof(y));
	memset(&again, 0, sizeof(again));
	y.c = &again;
	splice_init(&y.s);
	rc = jscan(&y.d, c->text, c->len);
	if (rc < 0)
		snprintf(again.err, sizeof(again.err), "%s", y.d.err);
	else
		rc = plan(&y, &edits);
	jscan_free(&y.d);
	splice_free(&y.s);
	if (rc == 0 && edits == 0)
		return 0;
	if (rc < 0 && errno == ENOMEM) {
		snprintf(c->err, sizeof(c->err), "%s", strerror(ENOMEM));
	} else {
		snprintf(
			c->err, sizeof(c->err),
			"perfdoctor's own change does not check out (%.200s): a bug, please report it with this profile",
			rc < 0 ? again.err : "it would change again");
		errno = EINVAL;
	}
	c->err_has_at = 0;
	profile_change_free(c);
	return -1;
}

void profile_change_free(struct profile_change *c)
{
	free(c->text);
	c->text = NULL;
}

int profile_allow_perfmon(const char *text, size_t len,
			  struct profile_change *c)
{
	struct ctx x;
	int edits, rc = -1;

	memset(c, 0, sizeof(*c));
	memset(&x, 0, sizeof(x));
	x.c = c;
	splice_init(&x.s);
	if (jscan(&x.d, text, len) < 0) {
		snprintf(c->err, sizeof(c->err), "%s", x.d.err);
		c->err_at = x.d.err_at;
		c->err_has_at = errno != ENOMEM;
		if (errno != ENOMEM)
			errno = EINVAL;
		goto out;
	}
	if (plan(&x, &edits) < 0)
		goto out;
	c->changed = edits > 0;
	c->text = splice_apply(&x.s, text, 0, len, &c->len);
	if (c->text == NULL) {
		snprintf(c->err, sizeof(c->err), "%s", strerror(errno));
		goto out;
	}
	/* BASE's nodes go before the output's are made: not both at once. */
	jscan_free(&x.d);
	splice_free(&x.s);
	rc = c->changed ? recheck(c) : 0;
out:
	jscan_free(&x.d);
	splice_free(&x.s);
	return rc;
}
