/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * Linked into everything a sanitizer build makes (Make.Rules), never into
 * a plain build.
 *
 * GCC ships ASan and UBSan as two runtimes, libasan and libubsan. When a
 * program loads both, UBSan runs as ASan's plugin and never reads the
 * log_path of UBSAN_OPTIONS (nor ASAN_OPTIONS'): its reports go to
 * standard error. A suite that expects our program to fail with status 1
 * and throws its standard error away then cannot tell undefined behaviour
 * from the error it expected, since UBSan's own exit status is 1 too, and
 * tests/run.sh, which fails a suite whose log directory holds a report,
 * never sees one. This hands libubsan its log_path by the runtime's own
 * interface, so UBSan's reports land where ASan's do.
 *
 * Clang's combined runtime reads log_path itself and has no libubsan.so.1
 * to find: there, and when UBSAN_OPTIONS names no log_path, nothing is done.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The sanitizers' option separators (their flag parser's). */
static int is_separator(char c)
{
	return c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n' ||
	       c == '\r';
}

/*
 * The value of the last "log_path=" in options, copied into buf; 0 when
 * there is none or it does not fit. The runtime's parser also lets a later
 * option override an earlier one.
 */
static int last_log_path(const char *options, char *buf, size_t size)
{
	static const char key[] = "log_path=";
	const char *p = options;
	int found = 0;

	while (*p != '\0') {
		size_t len;

		while (is_separator(*p))
			p++;
		len = strcspn(p, ":, \t\n\r");
		if (len > sizeof(key) - 1 &&
		    strncmp(p, key, sizeof(key) - 1) == 0) {
			size_t vlen = len - (sizeof(key) - 1);

			if (vlen >= size)
				return 0;
			memcpy(buf, p + sizeof(key) - 1, vlen);
			buf[vlen] = '\0';
			found = 1;
		}
		p += len;
	}
	return found;
}

__attribute__((constructor)) static void ubsan_use_log_path(void)
{
	const char *options = getenv("UBSAN_OPTIONS");
	char path[4096];
	void *ubsan;
	void (*set_report_path)(const char *);

	if (options == NULL || !last_log_path(options, path, sizeof(path)))
		return;
	/* Only a libubsan already loaded: this must never load one. */
	ubsan = dlopen("libubsan.so.1", RTLD_NOLOAD | RTLD_LAZY);
	if (ubsan == NULL)
		return;
	set_report_path = (void (*)(const char *))dlsym(
		ubsan, "__sanitizer_set_report_path");
	if (set_report_path != NULL)
		set_report_path(path);
	dlclose(ubsan);
}
