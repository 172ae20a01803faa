/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * pamcase: drives one PAM conversation against a module and prints, on one
 * line, what each step returned and the process's resulting IAB, e.g.
 *   auth=SUCCESS setcred=SUCCESS end=SUCCESS iab=^38 keepcaps=0
 * Meant to run under cwrap's pam_wrapper and nss_wrapper.
 *
 *   pamcase [-m MODULE] [-s SERVICE] [-u USER] [-A] [-x PROG] [-P MASK]
 *           [-I MASK] [-M MASK] [-a ARG]... OP...
 *
 * With -m, the module is dlopen()ed and its hooks are called directly with
 * the -a arguments, so the printed codes are the module's own. Without -m,
 * pam_authenticate()/pam_setcred() run SERVICE's stack. OPs: auth,
 * setcred[=FLAGS] (FLAGS: establish, delete, reinit, refresh or a number),
 * end[=silent] (pam_end(PAM_SUCCESS[|PAM_DATA_SILENT]); done implicitly
 * last otherwise). -u sets the PAM user (none: the conversation fails, or
 * with -A answers PAM_CONV_AGAIN). The op "become" switches to USER as a
 * login does (groups, gid, uid). -x: at the end, become USER if no op did,
 * and exec PROG -c. -I and -M first set the
 * inheritable set and raise ambient bits (hex masks), to see what a grant
 * replaces; -P first limits the permitted and effective sets to a mask, to
 * see what a grant the kernel refuses does.
 *
 * It does not use libcap: the IAB comes from /proc/self/status, so the
 * module under test brings whichever libcap.so.2 it was linked with.
 *
 *   pamcase -S DIR
 *
 * serves cases, for suites that run pamcase under valgrind: starting
 * valgrind costs far more than a case. It reads a request from the FIFO
 * DIR.req (OUT, ERR and the arguments above, each ended by a 0x1f byte),
 * runs the case in a forked child with stdout to OUT and stderr to ERR,
 * and writes the child's exit status and a newline to the FIFO DIR.rep.
 * An empty request ends it. Each child leaves with _exit(): pam_wrapper's
 * exit handler would remove the directory every later case reads its
 * service files from (the server's own exit removes it). A case's -s
 * SERVICE file, which the suite may have written since the server
 * started, is copied there first.
 *
 * With PAMCASE_WARM=MODULE (and PAMCASE_WARM_USER, PAMCASE_WARM_ARG: a
 * user, one module argument), the server first runs MODULE's
 * authentication once itself, its result ignored, then unloads MODULE
 * again. Under valgrind a child translates all the code it runs that its
 * parent never ran: libpam's, pam_wrapper's, nss_wrapper's and libc's
 * parts of a case, once run in the server, are translated once for every
 * child (a served case took 0.14 s of CPU, 0.075 s so). Authentication
 * changes nothing in the process, and each case still loads the module
 * afresh, in a child of its own.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

typedef int (*hook_fn)(pam_handle_t *, int, int, const char **);

static int conv_again;
static int printed;
static int served; /* a child of -S: leave with _exit() */

/* Ends the case: a served child must not run pam_wrapper's exit handler. */
static void leave(int rc)
{
	if (served) {
		fflush(NULL);
		_exit(rc);
	}
	exit(rc);
}

/* Prints " key=value", without the space for the first item of the line. */
static void emit(const char *key, const char *value)
{
	printf("%s%s=%s", printed++ ? " " : "", key, value);
}

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n;
	(void)msg;
	(void)resp;
	(void)data;
	return conv_again ? PAM_CONV_AGAIN : PAM_CONV_ERR;
}

static const char *code_name(int rc)
{
	static char buf[32];

	switch (rc) {
	case PAM_SUCCESS:
		return "SUCCESS";
	case PAM_IGNORE:
		return "IGNORE";
	case PAM_AUTH_ERR:
		return "AUTH_ERR";
	case PAM_INCOMPLETE:
		return "INCOMPLETE";
	case PAM_PERM_DENIED:
		return "PERM_DENIED";
	case PAM_CRED_ERR:
		return "CRED_ERR";
	case PAM_USER_UNKNOWN:
		return "USER_UNKNOWN";
	case PAM_SYSTEM_ERR:
		return "SYSTEM_ERR";
	case PAM_BUF_ERR:
		return "BUF_ERR";
	case PAM_CONV_ERR:
		return "CONV_ERR";
	case PAM_AUTHINFO_UNAVAIL:
		return "AUTHINFO_UNAVAIL";
	}
	snprintf(buf, sizeof(buf), "%d", rc);
	return buf;
}

static int parse_flags(const char *s)
{
	if (s == NULL || strcmp(s, "establish") == 0)
		return PAM_ESTABLISH_CRED;
	if (strcmp(s, "delete") == 0)
		return PAM_DELETE_CRED;
	if (strcmp(s, "reinit") == 0)
		return PAM_REINITIALIZE_CRED;
	if (strcmp(s, "refresh") == 0)
		return PAM_REFRESH_CRED;
	return (int)strtol(s, NULL, 0);
}

static unsigned long long status_mask(const char *key)
{
	char line[256];
	unsigned long long v = 0;
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, klen) == 0 && line[klen] == ':')
			v = strtoull(line + klen + 1, NULL, 16);
	fclose(f);
	return v;
}

/*
 * The process IAB in libcap's text order, with numbers for names. Only
 * bounding bits dropped since start_bnd count: the container or the caller
 * may already have dropped some.
 */
static void print_iab(unsigned long long start_bnd)
{
	unsigned long long i = status_mask("CapInh"), a = status_mask("CapAmb");
	unsigned long long b = status_mask("CapBnd") | ~start_bnd;
	int last = 40, n, first = 1;
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");

	if (f != NULL) {
		if (fscanf(f, "%d", &last) != 1)
			last = 40;
		fclose(f);
	}
	emit("iab", "");
	for (n = 0; n <= last && n < 64; n++) {
		unsigned long long bit = 1ULL << n;
		int nb = !(b & bit), in = !!(i & bit), am = !!(a & bit);

		if (!nb && !in && !am)
			continue;
		printf("%s%s%s%d", first ? "" : ",", nb ? "!" : "",
		       am	    ? "^"
		       : (nb && in) ? "%"
				    : "",
		       n);
		first = 0;
	}
}

/*
 * Presets P and E (limited to perm), then I, then A with raw syscalls:
 * this tool links no libcap.
 */
static void preset(unsigned long long perm, unsigned long long inh,
		   unsigned long long amb)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct d[2];
	int n;

	if (perm != ~0ULL || inh != 0) {
		if (syscall(SYS_capget, &hdr, d) < 0)
			leave(3);
		for (n = 0; n < 2; n++) {
			d[n].permitted &= (unsigned)(perm >> (32 * n));
			d[n].effective &= (unsigned)(perm >> (32 * n));
			if (inh != 0)
				d[n].inheritable = (unsigned)(inh >> (32 * n));
		}
		if (syscall(SYS_capset, &hdr, d) < 0) {
			perror("pamcase: capset");
			leave(3);
		}
	}
	for (n = 0; n < 64; n++)
		if ((amb >> n & 1) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, n, 0, 0) < 0) {
			perror("pamcase: ambient");
			leave(3);
		}
}

/*
 * Leaves a parent that waits and exits with the child's status, while the
 * child goes on. The parent stays root, so that pam_wrapper's exit handler
 * can remove its root-owned directory in /tmp: the child cannot, once it is
 * the user or has exec()ed.
 */
static void fork_waiting_parent(void)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("pamcase: fork");
		leave(3);
	}
	if (pid == 0)
		return;
	if (waitpid(pid, &st, 0) < 0)
		leave(3);
	leave(WIFEXITED(st) ? WEXITSTATUS(st) : 3);
}

/* Becomes user as a login does: groups and gid while still root, uid last. */
static void become(const char *user)
{
	struct passwd *pw = user == NULL ? NULL : getpwnam(user);
	gid_t groups[256];
	int ng = 256;

	if (pw == NULL || getgrouplist(user, pw->pw_gid, groups, &ng) < 0) {
		fprintf(stderr, "pamcase: cannot resolve the user\n");
		leave(3);
	}
	fork_waiting_parent();
	if (setgroups((size_t)ng, groups) < 0 || setgid(pw->pw_gid) < 0 ||
	    setuid(pw->pw_uid) < 0) {
		perror("pamcase: switching to the user");
		leave(3);
	}
}

/* Runs PROG -c with a clean environment (no preloaded wrappers). */
static void run_prog(const char *prog)
{
	static char opt_c[] = "-c", path[] = "PATH=/usr/bin:/bin";
	char *args[] = { strdup(prog), opt_c, NULL };
	char *env[] = { path, NULL };

	fflush(stdout);
	execve(prog, args, env);
	perror(prog);
	leave(3);
}

static int run_case(int argc, char **argv)
{
	const char *module = NULL, *service = "pamcase", *user = NULL;
	const char *prog = NULL;
	const char *margs[64];
	struct pam_conv pc = { conv, NULL };
	hook_fn auth_fn = NULL, cred_fn = NULL;
	pam_handle_t *pamh = NULL;
	void *dl = NULL;
	int c, nargs = 0, ended = 0, became = 0, rc;
	unsigned long long perm = ~0ULL, inh = 0, amb = 0;
	unsigned long long start_bnd = status_mask("CapBnd");

	while ((c = getopt(argc, argv, "m:s:u:Ax:P:I:M:a:")) != -1) {
		switch (c) {
		case 'm':
			module = optarg;
			break;
		case 's':
			service = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case 'A':
			conv_again = 1;
			break;
		case 'x':
			prog = optarg;
			break;
		case 'P':
			perm = strtoull(optarg, NULL, 16);
			break;
		case 'I':
			inh = strtoull(optarg, NULL, 16);
			break;
		case 'M':
			amb = strtoull(optarg, NULL, 16);
			break;
		case 'a':
			if (nargs < 63)
				margs[nargs++] = optarg;
			break;
		default:
			fprintf(stderr, "pamcase: bad usage\n");
			return 2;
		}
	}
	margs[nargs] = NULL;
	preset(perm, inh, amb);
	if (module != NULL) {
		dl = dlopen(module, RTLD_NOW | RTLD_LOCAL);
		if (dl == NULL) {
			fprintf(stderr, "pamcase: %s\n", dlerror());
			return 2;
		}
		auth_fn = (hook_fn)dlsym(dl, "pam_sm_authenticate");
		cred_fn = (hook_fn)dlsym(dl, "pam_sm_setcred");
		if (auth_fn == NULL || cred_fn == NULL) {
			fprintf(stderr, "pamcase: %s lacks the hooks\n",
				module);
			return 2;
		}
	}
	rc = pam_start(service, user, &pc, &pamh);
	if (rc != PAM_SUCCESS) {
		fprintf(stderr, "pamcase: pam_start: %s\n", code_name(rc));
		return 2;
	}
	for (; optind < argc; optind++) {
		const char *op = argv[optind], *eq = strchr(op, '=');

		if (strcmp(op, "auth") == 0) {
			rc = auth_fn ? auth_fn(pamh, 0, nargs, margs)
				     : pam_authenticate(pamh, 0);
			emit("auth", code_name(rc));
		} else if (strncmp(op, "setcred", 7) == 0) {
			int fl = parse_flags(eq ? eq + 1 : NULL);

			rc = cred_fn ? cred_fn(pamh, fl, nargs, margs)
				     : pam_setcred(pamh, fl);
			emit("setcred", code_name(rc));
		} else if (strcmp(op, "become") == 0) {
			become(user);
			became = 1;
		} else if (strncmp(op, "end", 3) == 0 && !ended) {
			int st = PAM_SUCCESS;

			if (eq != NULL && strcmp(eq + 1, "silent") == 0)
				st |= PAM_DATA_SILENT;
			emit("end", code_name(pam_end(pamh, st)));
			ended = 1;
		} else {
			fprintf(stderr, "pamcase: bad op %s\n", op);
			return 2;
		}
	}
	if (!ended)
		pam_end(pamh, PAM_SUCCESS);
	print_iab(start_bnd);
	printf(" keepcaps=%d\n", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
	fflush(stdout);
	if (prog != NULL) {
		if (!became)
			become(user);
		run_prog(prog);
	}
	/* The module is unloaded only now: pam_end ran its cleanup. */
	if (dl != NULL)
		dlclose(dl);
	return 0;
}

/* Reads one request, up to EOF, from DIR.req: its length, or -1. */
static ssize_t read_request(const char *dir, char *buf, size_t size)
{
	char path[4096];
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s.req", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/*
 * A served case's -s SERVICE, written by the suite after the server
 * started: pam_wrapper copied PAM_WRAPPER_SERVICE_DIR once, at the
 * server's start, into the directory its libpam reads
 * (PAM_WRAPPER_RUNTIME_DIR). The child copies the service's file there
 * as pam_wrapper would have, before pam_start() reads it. 0, or -1.
 */
static int copy_service(int argc, char **argv)
{
	const char *from = getenv("PAM_WRAPPER_SERVICE_DIR");
	const char *to = getenv("PAM_WRAPPER_RUNTIME_DIR");
	const char *name = NULL;
	char path[4096], buf[8192];
	int in, out, i, rc = 0;
	ssize_t n;

	/* the options run_case() takes, those with a value skipped */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			name = argv[i + 1];
		if (argv[i][1] != '\0' &&
		    strchr("msuxPIMa", argv[i][1]) != NULL &&
		    argv[i][2] == '\0')
			i++;
	}
	if (name == NULL)
		return 0;
	if (from == NULL || to == NULL || strchr(name, '/') != NULL) {
		errno = EINVAL; /* not under pam_wrapper, or not a name */
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", from, name);
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", to, name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
	if (n < 0 || close(out) < 0)
		rc = -1;
	close(in);
	return rc;
}

/* Runs the request's case in a child; returns its exit status. */
static int serve_one(char *req)
{
	static char name[] = "pamcase";
	char *field[80], *p = req, *end;
	int n = 0, st, fd;
	pid_t pid;

	while (n < 79 && (end = strchr(p, '\037')) != NULL) {
		*end = '\0';
		field[n++] = p;
		p = end + 1;
	}
	if (n < 2)
		return 2;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 3;
	if (pid == 0) {
		served = 1;
		fd = open(field[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(3);
		close(fd);
		fd = open(field[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(3);
		close(fd);
		field[1] = name;
		field[n] = NULL;
		if (copy_service(n - 1, field + 1) < 0) {
			perror("pamcase: copying the service file");
			leave(3);
		}
		leave(run_case(n - 1, field + 1));
	}
	if (waitpid(pid, &st, 0) < 0)
		return 3;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The server's own case before the others (see the top of this file). */
static void warm_up(void)
{
	const char *module = getenv("PAMCASE_WARM");
	const char *arg[2] = { getenv("PAMCASE_WARM_ARG"), NULL };
	static struct pam_conv quiet;
	pam_handle_t *pamh;
	hook_fn auth_fn;
	void *dl;

	if (module == NULL ||
	    (dl = dlopen(module, RTLD_NOW | RTLD_LOCAL)) == NULL)
		return;
	auth_fn = (hook_fn)dlsym(dl, "pam_sm_authenticate");
	if (auth_fn != NULL && pam_start("pamcase", getenv("PAMCASE_WARM_USER"),
					 &quiet, &pamh) == PAM_SUCCESS) {
		auth_fn(pamh, 0, arg[0] != NULL, arg);
		pam_end(pamh, PAM_SUCCESS);
	}
	dlclose(dl);
}

static int serve(const char *dir)
{
	static char req[65536];
	char path[4096];
	ssize_t len;
	FILE *rep;
	int rc;

	warm_up();

	snprintf(path, sizeof(path), "%s.rep", dir);
	while ((len = read_request(dir, req, sizeof(req))) > 0) {
		rc = serve_one(req);
		rep = fopen(path, "w");
		if (rep == NULL)
			return 3;
		fprintf(rep, "%d\n", rc);
		fclose(rep);
	}
	return len < 0 ? 3 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "-S") == 0)
		return serve(argv[2]);
	return run_case(argc, argv);
}
