/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Counts per process, file and credential: every check the kernel
 * reported, granted or refused, attributed to the process that made it
 * (forks make the family tree) and to the file it was running (each
 * execve starts a new one), and whatever was lost on the way. At the end
 * each check is classified (tally_finish()): only a check made with the
 * process's own credential against capaudit's user namespace is one a
 * file capability could answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "capaudit_decode.h"
#include "capaudit_table.h"
#include "capaudit_tally.h"

/* Keys are compared as bytes: every one is zeroed before it is filled. */
struct check_key {
	int32_t tid, image;
	uint64_t cred, ns; /* 0, 0: the source did not say */
	int32_t cap, pad;
};

struct check_val {
	pid_t pid;
	uint64_t granted, refused;
};

struct span_key {
	int32_t tid, image;
	uint64_t cred;
};

struct span_val {
	uint64_t first, last; /* the times of its first and last check */
	uint64_t home_ns; /* where a check with it was granted: its namespace */
	int foreign;	  /* tally_finish(): used only inside another's span */
	/*
	 * Counted in the kernel, which said whether the credential was the
	 * thread's own (judged 1, lent 0) or not (lent 1): then no span
	 * decides, as addresses are reused (bpf/capaudit.bpf.c).
	 */
	int judged, lent;
};

_Static_assert(
	sizeof(struct check_key) <= sizeof(((struct table_cache *)0)->key) &&
		sizeof(struct span_key) <=
			sizeof(((struct table_cache *)0)->key) &&
		sizeof(struct check_key) % 8 == 0 &&
		sizeof(struct span_key) % 8 == 0,
	"keys for the last-key cache: whole words, and no larger than it");

struct map_key {
	uint32_t maj, min;
	uint64_t ino;
};

struct pending_val {
	int used, cap, have;
	uint64_t cred, ns;
};

static struct proc *proc_at(struct tally *t, pid_t pid)
{
	size_t *at;

	if (t->last_pid_at && t->last_pid == pid)
		return &t->procs[t->last_pid_at - 1];
	at = table_get(&t->pid_index, &pid, 0);
	if (at == NULL)
		return NULL;
	t->last_pid = pid;
	t->last_pid_at = *at;
	return &t->procs[*at - 1];
}

/* Keys of whole 8-byte words, compared inline (no call per sample). */
static int same_key(const unsigned char *a, const unsigned char *b, size_t n)
{
	uint64_t x, y;
	size_t i;

	for (i = 0; i < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	return 1;
}

/* table_get(tb, key, 1), remembering the last key found. */
static void *cached_get(struct table *tb, struct table_cache *c,
			const void *key)
{
	void *v;

	if (c->val != NULL && c->generation == tb->generation &&
	    same_key(c->key, key, tb->keysize))
		return c->val;
	v = table_get(tb, key, 1);
	if (v != NULL) {
		memcpy(c->key, key, tb->keysize);
		c->val = v;
		c->generation = tb->generation;
	}
	return v;
}

static struct proc *new_proc(struct tally *t, pid_t pid)
{
	size_t *at;
	struct proc *p;

	if (t->nprocs == t->procs_size) {
		size_t n = t->procs_size ? t->procs_size * 2 : 16;
		struct proc *q = reallocarray(t->procs, n, sizeof(*q));

		if (q == NULL)
			goto nomem;
		t->procs = q;
		t->procs_size = n;
	}
	at = table_get(&t->pid_index, &pid, 1);
	if (at == NULL)
		goto nomem;
	*at = t->nprocs + 1;
	p = &t->procs[t->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->image = -1;
	return p;
nomem:
	t->nomem = 1;
	return NULL;
}

/* A new entry in images for pid's next exec (file not yet known). */
static int new_image(struct tally *t, pid_t pid, const char *comm)
{
	struct exec_image *im;

	if (t->nimages == t->images_size) {
		size_t n = t->images_size ? t->images_size * 2 : 8;
		struct exec_image *q = reallocarray(t->images, n, sizeof(*q));

		if (q == NULL) {
			t->nomem = 1;
			return -1;
		}
		t->images = q;
		t->images_size = n;
	}
	im = &t->images[t->nimages];
	memset(im, 0, sizeof(*im));
	im->pid = pid;
	snprintf(im->comm, sizeof(im->comm), "%s", comm);
	return (int)t->nimages++;
}

void tally_init(struct tally *t, pid_t root, const char *root_comm)
{
	struct proc *p;

	memset(t, 0, sizeof(*t));
	table_init(&t->pid_index, sizeof(pid_t), sizeof(size_t));
	table_init(&t->checks, sizeof(struct check_key),
		   sizeof(struct check_val));
	table_init(&t->spans, sizeof(struct span_key), sizeof(struct span_val));
	table_init(&t->pending, sizeof(pid_t), sizeof(struct pending_val));
	table_init(&t->map_index, sizeof(struct map_key), sizeof(size_t));
	t->self = getpid();
	p = new_proc(t, root);
	if (p == NULL)
		return;
	if (root_comm == NULL) {
		p->ppid =
			t->self; /* we launched it: nothing runs until its exec */
		return;
	}
	/* Attached: it runs what it runs. */
	snprintf(p->comm, sizeof(p->comm), "%s", root_comm);
	p->image = new_image(t, root, root_comm);
}

void tally_set_file(struct tally *t, pid_t pid, const char *file, uint32_t maj,
		    uint32_t min, uint64_t ino)
{
	struct proc *p = proc_at(t, pid);
	struct exec_image *im;

	if (p == NULL || p->image < 0)
		return;
	im = &t->images[p->image];
	free(im->file);
	im->file = strdup(file);
	if (im->file == NULL)
		t->nomem = 1;
	im->maj = maj;
	im->min = min;
	im->ino = ino;
}

/* capaudit's own: the calibration (capaudit_perf.c) names its namespace. */
static void own_check(struct tally *t, const struct sample *s)
{
	if (s->cap != CAP_SETUID || !s->have_ns)
		return; /* tracer_finish()'s check, or a kprobe return */
	if (t->init_ns_state == 0) {
		t->init_ns = s->target_ns;
		t->init_ns_state = 1;
	} else if (t->init_ns != s->target_ns) {
		t->init_ns_state = -1; /* never guess between two */
	}
}

static void count(struct tally *t, const struct sample *s, int cap, int ret,
		  int have_id, uint64_t cred, uint64_t ns)
{
	struct proc *p = proc_at(t, s->pid);
	struct check_key k;
	struct check_val *v;
	struct span_key sk;
	struct span_val *sv;

	if (p == NULL && (p = new_proc(t, s->pid)) != NULL)
		p->image = new_image(t, s->pid, "?"); /* its fork was lost */
	if (p == NULL)
		return;
	if (p->image < 0) {
		/* Our launcher's own steps (setuid, setgroups, the IAB, mounts). */
		t->launcher += 1 + s->more;
		return;
	}
	if (cap < 0 || cap >= NCAPS) {
		t->out_of_range += 1 + s->more;
		return;
	}
	/*
	 * What the kernel said of the credential is part of its identity:
	 * one address is the thread's own now, lent later.
	 */
	if (have_id && s->counted && s->lent)
		cred |= 1;
	memset(&k, 0, sizeof(k));
	k.tid = s->tid;
	k.image = p->image;
	k.cred = have_id ? cred : 0;
	k.ns = have_id ? ns : 0;
	k.cap = cap;
	v = cached_get(&t->checks, &t->last_check, &k);
	if (v == NULL) {
		t->nomem = 1;
		return;
	}
	v->pid = s->pid;
	if (ret == 0)
		v->granted += 1 + s->more;
	else
		v->refused += 1 + s->more;
	if (!have_id)
		return;
	memset(&sk, 0, sizeof(sk));
	sk.tid = s->tid;
	sk.image = p->image;
	sk.cred = cred;
	sv = cached_get(&t->spans, &t->last_span, &sk);
	if (sv == NULL) {
		t->nomem = 1;
		return;
	}
	if (s->counted) {
		sv->judged = 1;
		sv->lent = s->lent;
	}
	if (sv->first == 0 || s->time < sv->first)
		sv->first = s->time ? s->time : 1;
	if ((s->more ? s->last : s->time) > sv->last)
		sv->last = s->more ? s->last : s->time;
	/* Granted: capable_ns is the namespace the credential belongs to. */
	if (ret == 0 && s->have_capable_ns && s->capable_ns != 0)
		sv->home_ns = s->capable_ns;
}

/* A kprobe pair: the entry waits for its thread's return. */
static void pair_entry(struct tally *t, const struct sample *s)
{
	struct pending_val *v = table_get(&t->pending, &s->tid, 1);

	if (v == NULL) {
		t->nomem = 1;
		return;
	}
	v->used = 1;
	v->cap = s->cap;
	v->have = s->have_cred && s->have_ns;
	v->cred = s->cred;
	v->ns = s->target_ns;
}

static void pair_return(struct tally *t, const struct sample *s)
{
	struct pending_val *v = table_get(&t->pending, &s->tid, 0);

	if (v == NULL || !v->used) {
		t->unpaired++;
		return;
	}
	v->used = 0;
	count(t, s, v->cap, s->ret, v->have, v->cred, v->ns);
}

static void on_sample(struct tally *t, const struct sample *s)
{
	if (s->pid == t->self) {
		own_check(t, s);
		return;
	}
	if (s->have_cap && s->have_ret)
		count(t, s, s->cap, s->ret, s->have_cred && s->have_ns, s->cred,
		      s->target_ns);
	else if (s->have_cap)
		pair_entry(t, s);
	else
		pair_return(t, s);
}

static void on_fork(struct tally *t, const struct record *r)
{
	struct proc *p, *parent;

	if (r->pid == r->ppid)
		return; /* a new thread of the same process */
	p = proc_at(t, r->pid);
	if (p == NULL && (p = new_proc(t, r->pid)) == NULL)
		return;
	parent = proc_at(t, r->ppid);
	p->ppid = r->ppid;
	if (parent != NULL) {
		memcpy(p->comm, parent->comm, sizeof(p->comm));
		p->image = parent->image;
		p->awaiting_map = parent->awaiting_map;
	}
}

static void on_comm(struct tally *t, const struct record *r)
{
	struct proc *p = proc_at(t, r->pid);

	if (p == NULL && (p = new_proc(t, r->pid)) == NULL)
		return;
	memcpy(p->comm, r->comm, sizeof(p->comm));
	if (!r->exec)
		return; /* a rename (prctl(PR_SET_NAME)) */
	p->image = new_image(t, r->pid, r->comm);
	p->awaiting_map = p->image >= 0;
}

/* Index in t->maps of the file of r, added if new; -1 (ENOMEM). */
static long mapped_index(struct tally *t, const struct record *r)
{
	struct map_key k;
	size_t *at;

	memset(&k, 0, sizeof(k));
	k.maj = r->maj;
	k.min = r->min;
	k.ino = r->ino;
	at = table_get(&t->map_index, &k, 1);
	if (at == NULL)
		return -1;
	if (*at == 0) {
		struct mapped_file *m;

		if (t->nmaps == t->maps_size) {
			size_t n = t->maps_size ? t->maps_size * 2 : 16;
			struct mapped_file *q =
				reallocarray(t->maps, n, sizeof(*q));

			if (q == NULL)
				return -1;
			t->maps = q;
			t->maps_size = n;
		}
		m = &t->maps[t->nmaps];
		m->path = strdup(r->file);
		if (m->path == NULL)
			return -1;
		m->maj = r->maj;
		m->min = r->min;
		m->ino = r->ino;
		*at = ++t->nmaps;
	}
	return (long)(*at - 1);
}

/* A library (or loader, or plugin) of an image, once each. */
static void add_library(struct tally *t, struct exec_image *im,
			const struct record *r)
{
	long at = mapped_index(t, r);
	size_t i;

	if (at < 0) {
		t->nomem = 1;
		return;
	}
	for (i = 0; i < im->nlibs; i++)
		if (im->libs[i] == (size_t)at)
			return;
	if (im->nlibs == im->libs_size) {
		size_t n = im->libs_size ? im->libs_size * 2 : 8;
		size_t *q = reallocarray(im->libs, n, sizeof(*q));

		if (q == NULL) {
			t->nomem = 1;
			return;
		}
		im->libs = q;
		im->libs_size = n;
	}
	im->libs[im->nlibs++] = (size_t)at;
}

/*
 * The first executable mapping after an exec: the file the kernel runs;
 * the later ones (its loader, its libraries) run with what it holds.
 */
static void on_exec_map(struct tally *t, const struct record *r)
{
	struct proc *p = proc_at(t, r->pid);
	struct exec_image *im;

	if (p == NULL || p->image < 0)
		return;
	if (!p->awaiting_map) {
		im = &t->images[p->image];
		if (im->file != NULL &&
		    (r->maj != im->maj || r->min != im->min ||
		     r->ino != im->ino))
			add_library(t, im, r);
		return;
	}
	p->awaiting_map = 0;
	im = &t->images[p->image];
	im->file = strdup(r->file);
	if (im->file == NULL)
		t->nomem = 1;
	im->maj = r->maj;
	im->min = r->min;
	im->ino = r->ino;
}

void tally_record(const struct record *r, void *arg)
{
	struct tally *t = arg;
	struct proc *p;

	switch (r->kind) {
	case REC_SAMPLE:
		on_sample(t, &r->s);
		break;
	case REC_FORK:
		on_fork(t, r);
		break;
	case REC_COMM:
		on_comm(t, r);
		break;
	case REC_EXEC_MAP:
		on_exec_map(t, r);
		break;
	case REC_EXIT:
		p = proc_at(t, r->pid);
		if (p != NULL && r->pid == r->tid)
			p->exited = 1;
		break;
	case REC_LOST:
		t->lost += r->lost;
		t->unfollowed += r->unfollowed;
		t->outside_signals += r->signals;
		break;
	case REC_OTHER:
		break;
	}
}

const char *class_name(enum check_class c)
{
	switch (c) {
	case CLASS_OWN:
		return "own";
	case CLASS_USERNS:
		return "user_namespace";
	case CLASS_CRED:
		return "credential";
	default:
		return "unknown";
	}
}

const char *class_reason(enum check_class c)
{
	switch (c) {
	case CLASS_OWN:
		return "the process's own credential, capaudit's user namespace";
	case CLASS_USERNS:
		return "in a user namespace the command made: a file capability cannot answer it";
	case CLASS_CRED:
		return "under a credential not the process's own (access(2), a file's opener, a kernel helper)";
	default:
		return "capaudit could not learn its own user namespace: the check cannot be judged";
	}
}

struct span_ref {
	struct span_key k;
	struct span_val *v;
};

static int by_span(const void *a, const void *b)
{
	const struct span_ref *x = a, *y = b;

	if (x->k.tid != y->k.tid)
		return x->k.tid < y->k.tid ? -1 : 1;
	if (x->k.image != y->k.image)
		return x->k.image < y->k.image ? -1 : 1;
	if (x->v->first != y->v->first)
		return x->v->first < y->v->first ? -1 : 1;
	return x->v->last > y->v->last ? -1 : x->v->last < y->v->last;
}

/*
 * A thread's own credential changes only forward (execve, setuid(2),
 * capset(2), unshare(2): each installs a new one), while the kernel lends
 * a thread another for the length of one call (access(2) checks with the
 * real ids, overlayfs with the mounter's). So a credential whose every
 * check falls strictly inside the span of another credential of the same
 * thread and file, used before and after it, was a loan: foreign. That
 * is a guess where the checks are samples: a freed credential's address
 * goes to a later one, which then spans the credentials in between as a
 * lender would. Counted in the kernel, each check says whether its
 * credential was the thread's own (judged), and that decides.
 */
static int mark_foreign(struct tally *t)
{
	struct span_ref *refs;
	size_t n = 0, i, it = 0, start;
	const void *key;
	void *val;

	refs = calloc(t->spans.used ? t->spans.used : 1, sizeof(*refs));
	if (refs == NULL)
		return -1;
	while (table_next(&t->spans, &it, &key, &val)) {
		memcpy(&refs[n].k, key, sizeof(refs[n].k));
		refs[n++].v = val;
	}
	qsort(refs, n, sizeof(*refs), by_span);
	for (start = 0; start < n; start = i) {
		uint64_t reach =
			0; /* the latest last use among earlier spans */

		for (i = start; i < n && refs[i].k.tid == refs[start].k.tid &&
				refs[i].k.image == refs[start].k.image;
		     i++) {
			refs[i].v->foreign =
				refs[i].v->judged
					? refs[i].v->lent
					: i > start &&
						  reach > refs[i].v->last &&
						  refs[i].v->first >
							  refs[start].v->first;
			if (!refs[i].v->judged && refs[i].v->last > reach)
				reach = refs[i].v->last;
		}
	}
	free(refs);
	return 0;
}

static enum check_class classify(struct tally *t, const struct check_key *k)
{
	struct span_key sk;
	struct span_val *sv;

	if (t->init_ns_state != 1 || (k->cred == 0 && k->ns == 0))
		return CLASS_UNKNOWN;
	if (k->ns != t->init_ns)
		return CLASS_USERNS;
	memset(&sk, 0, sizeof(sk));
	sk.tid = k->tid;
	sk.image = k->image;
	sk.cred = k->cred;
	sv = table_get(&t->spans, &sk, 0);
	if (sv == NULL)
		return CLASS_UNKNOWN;
	/* Its credential lives in a user namespace the command made. */
	if (sv->home_ns != 0 && sv->home_ns != t->init_ns)
		return CLASS_USERNS;
	if (sv->foreign && !sv->judged && k->cap >= 0 && k->cap < 64)
		t->lent_guessed |= 1ULL << k->cap;
	return sv->foreign ? CLASS_CRED : CLASS_OWN;
}

struct row_key {
	int32_t cap, cls, pid, image;
};

static int by_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->cap != y->cap)
		return x->cap < y->cap ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->image < y->image ? -1 : x->image > y->image;
}

int tally_finish(struct tally *t)
{
	struct table rows;
	size_t it = 0;
	const void *key;
	void *val;

	if (mark_foreign(t) < 0)
		goto nomem;
	table_init(&rows, sizeof(struct row_key), sizeof(struct row));
	while (table_next(&t->checks, &it, &key, &val)) {
		const struct check_key *k = key;
		const struct check_val *v = val;
		struct row_key rk;
		struct row *r;

		memset(&rk, 0, sizeof(rk));
		rk.cap = k->cap;
		rk.cls = (int32_t)classify(t, k);
		rk.pid = v->pid;
		rk.image = k->image;
		r = table_get(&rows, &rk, 1);
		if (r == NULL) {
			table_free(&rows);
			goto nomem;
		}
		r->cap = k->cap;
		r->cls = (enum check_class)rk.cls;
		r->pid = v->pid;
		r->image = k->image;
		r->granted += v->granted;
		r->refused += v->refused;
		t->class_checks[rk.cls] += v->granted + v->refused;
	}
	free(t->rows);
	t->nrows = 0;
	t->rows = calloc(rows.used ? rows.used : 1, sizeof(*t->rows));
	if (t->rows == NULL) {
		table_free(&rows);
		goto nomem;
	}
	it = 0;
	while (table_next(&rows, &it, &key, &val)) {
		struct row *r = &t->rows[t->nrows++];
		struct proc *p;

		*r = *(const struct row *)val;
		p = proc_at(t, r->pid);
		r->ppid = p != NULL ? p->ppid : 0;
		snprintf(r->comm, sizeof(r->comm), "%s",
			 r->image >= 0 && t->images[r->image].comm[0]
				 ? t->images[r->image].comm
			 : p != NULL ? p->comm
				     : "?");
	}
	table_free(&rows);
	qsort(t->rows, t->nrows, sizeof(*t->rows), by_row);
	return 0;
nomem:
	t->nomem = 1;
	errno = ENOMEM;
	return -1;
}

size_t tally_followed(const struct tally *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nprocs; i++)
		n += t->procs[i].image >= 0;
	return n;
}

size_t tally_running(const struct tally *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nprocs; i++)
		n += t->procs[i].image >= 0 && !t->procs[i].exited;
	return n;
}

void tally_free(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->nimages; i++) {
		free(t->images[i].file);
		free(t->images[i].libs);
	}
	free(t->images);
	for (i = 0; i < t->nmaps; i++)
		free(t->maps[i].path);
	free(t->maps);
	table_free(&t->map_index);
	free(t->procs);
	free(t->rows);
	table_free(&t->pid_index);
	table_free(&t->checks);
	table_free(&t->spans);
	table_free(&t->pending);
	memset(t, 0, sizeof(*t));
}
