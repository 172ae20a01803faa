/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* common/shquote.c: operands of the command lines we print, read back by real shells. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "escape.h"
#include "shquote.h"

static void expect(const char *in, const char *want)
{
	char *got = shquote_dup(in), *streamed = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&streamed, &size);

	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(shquote_fputs(in, mem), 0);
	fclose(mem);
	ck_assert_str_eq(streamed, want);
	free(streamed);
	free(got);
}

START_TEST(plain_words_stay_bare)
{
	expect("/usr/bin/perf", "/usr/bin/perf");
	expect("cap_net_raw,cap_perfmon=ep", "cap_net_raw,cap_perfmon=ep");
	expect("--perf-group=perf_users", "--perf-group=perf_users");
	expect("alice@example.org:1%+", "alice@example.org:1%+");
	ck_assert_int_eq(shquote_is_bare("a-b_c.d"), 1);
	ck_assert_int_eq(shquote_is_bare(""), 0);
}
END_TEST

START_TEST(everything_else_is_single_quoted)
{
	expect("", "''");
	expect("my prog", "'my prog'");
	expect("ch;touch${IFS}INJECTED;#", "'ch;touch${IFS}INJECTED;#'");
	expect("$(id)`id`", "'$(id)`id`'");
	expect("it's", "'it'\\''s'");
	expect("'", "''\\'''");
	expect("~root", "'~root'");
	expect("#x", "'#x'");
	expect("!!", "'!!'");
	expect("^a^b", "'^a^b'");
	expect("a*b?[c]{d,e}", "'a*b?[c]{d,e}'");
	expect("back\\slash", "'back\\slash'");
	expect("caf\xc3\xa9", "'caf\xc3\xa9'");
	expect("a\"b", "'a\"b'");
}
END_TEST

/* A word that cannot be shown safely and pasted back exactly is refused. */
START_TEST(unshowable_words_are_refused)
{
	static const char *const bad[] = {
		"a\nb",		  "a\rb",    "\033[2J",	   "tab\there",
		"del\x7f",	  "bad\xff", "c1\xc2\x9b", "bidi\xe2\x80\xae",
		"ls\xe2\x80\xa8",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *out = NULL;
		size_t size = 0;
		FILE *mem = open_memstream(&out, &size);

		errno = 0;
		ck_assert_ptr_null(shquote_dup(bad[i]));
		ck_assert_int_eq(errno, EILSEQ);
		ck_assert_ptr_nonnull(mem);
		errno = 0;
		ck_assert_int_eq(shquote_fputs(bad[i], mem), -1);
		ck_assert_int_eq(errno, EILSEQ);
		fclose(mem);
		ck_assert_uint_eq(size, 0); /* nothing written */
		free(out);
	}
}
END_TEST

/*
 * What a real shell reads back from "printf %s WORD" is the original, and
 * nothing else runs: every hostile word, under every shell installed.
 */
static void shell_prints(const char *shell, const char *quoted,
			 const char *want)
{
	char *line = NULL, got[512];
	int pipefd[2], status;
	ssize_t n, total = 0;
	pid_t pid;

	ck_assert_ptr_nonnull(quoted);
	ck_assert_int_ge(asprintf(&line, "printf %%s %s", quoted), 0);
	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		/* An empty PATH: a command substitution that escaped the
		 * quotes would fail loudly rather than run anything. */
		static char path[] = "PATH=/nonexistent";
		char *env[] = { path, NULL };

		/* $0 is the marker: the shell is not ours, so valgrind
		 * need not trace it; the quoting above ran in our process. */
		execle(shell, shell, "-c", line, UNTRACED_FOREIGN, (char *)NULL,
		       env);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], got + total,
			 sizeof(got) - 1 - (size_t)total)) > 0)
		total += n;
	close(pipefd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s -c '%s' failed", shell, line);
	got[total] = '\0';
	ck_assert_str_eq(got, want);
	free(line);
}

static void shell_reads_back(const char *shell, const char *word)
{
	char *quoted = shquote_dup(word);

	shell_prints(shell, quoted, word);
	free(quoted);
}

/*
 * A name quoted for a line of words, as say() prints that line (escaped:
 * each backslash as \134): the shell reads back the name, its own
 * backslashes as \134, and nothing runs.
 */
static void words_read_back(const char *shell, const char *word)
{
	char *quoted = shquote_words_dup(word), *printed = NULL, *want = NULL;
	size_t size = 0, wsize = 0;
	FILE *mem = open_memstream(&printed, &size);
	FILE *wmem = open_memstream(&want, &wsize);
	const char *c;

	ck_assert_ptr_nonnull(quoted);
	ck_assert_ptr_nonnull(mem);
	ck_assert_ptr_nonnull(wmem);
	escape_fputs(quoted, mem);
	fclose(mem);
	for (c = word; *c != '\0'; c++)
		fputs(*c == '\\' ? "\\134" : (char[]){ *c, '\0' }, wmem);
	fclose(wmem);
	shell_prints(shell, printed, want);
	free(printed);
	free(want);
	free(quoted);
}

START_TEST(shells_read_the_word_back)
{
	static const char *const shells[] = { "/bin/sh", "/bin/dash",
					      "/bin/bash", "/usr/bin/zsh",
					      "/bin/zsh" };
	static const char *const words[] = {
		"ch;touch${IFS}INJECTED;#",
		"$(touch INJECTED)",
		"`touch INJECTED`",
		"a'b'c",
		"'''",
		"\\'",
		"x && touch INJECTED",
		"a|b>c<d",
		"!!",
		"$HOME",
		"${x:-y}",
		"~",
		"*",
		"-n",
		"%s",
		"caf\xc3\xa9 \xe2\x82\xac",
		"$'\\n'",
		"\"",
		"a\\",
		"",
	};
	size_t s, w;
	int ran = 0;

	for (s = 0; s < sizeof(shells) / sizeof(shells[0]); s++) {
		if (access(shells[s], X_OK) != 0)
			continue;
		ran++;
		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			shell_reads_back(shells[s], words[w]);
			words_read_back(shells[s], words[w]);
		}
	}
	ck_assert_int_ge(ran, 1);
}
END_TEST

/* In words: no backslash of ours, which say() would print as \134. */
START_TEST(words_quote_without_backslashes)
{
	static const char *const cases[][2] = {
		{ "perf_users", "perf_users" },
		{ "it's", "'it'\"'\"'s'" },
		{ "g'$(touch INJECTED)'",
		  "'g'\"'\"'$(touch INJECTED)'\"'\"''" },
		{ "a b", "'a b'" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = shquote_words_dup(cases[i][0]);

		ck_assert_ptr_nonnull(got);
		ck_assert_str_eq(got, cases[i][1]);
		free(got);
	}
	errno = 0;
	ck_assert_ptr_null(shquote_words_dup("a\nb"));
	ck_assert_int_eq(errno, EILSEQ);
}
END_TEST

/* A file operand: "./" keeps a leading '-' from reading as an option. */
START_TEST(paths_never_read_as_options)
{
	static const char *const cases[][2] = {
		{ "/usr/bin/perf", "/usr/bin/perf" },
		{ "bin/perf", "bin/perf" },
		{ "-rf", "./-rf" },
		{ "--perf", "./--perf" },
		{ "-x/it's", "'./-x/it'\\''s'" },
		{ "a;b", "'a;b'" },
		{ "", "''" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = shquote_path_dup(cases[i][0]);

		ck_assert_ptr_nonnull(got);
		ck_assert_str_eq(got, cases[i][1]);
		free(got);
	}
	errno = 0;
	ck_assert_ptr_null(shquote_path_dup("-\033[2J"));
	ck_assert_int_eq(errno, EILSEQ);
	errno = 0;
	ck_assert_ptr_null(shquote_path_dup("/tmp/a\nb"));
	ck_assert_int_eq(errno, EILSEQ);
}
END_TEST

static Suite *shquote_suite(void)
{
	Suite *s = suite_create("common_shquote");
	TCase *tc = tcase_create("shquote");

	tcase_add_test(tc, plain_words_stay_bare);
	tcase_add_test(tc, everything_else_is_single_quoted);
	tcase_add_test(tc, unshowable_words_are_refused);
	tcase_add_test(tc, shells_read_the_word_back);
	tcase_add_test(tc, paths_never_read_as_options);
	tcase_add_test(tc, words_quote_without_backslashes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(shquote_suite)
