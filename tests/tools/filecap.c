/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * filecap: prints cap_get_file() of each argument as "PATH TEXT" (with
 * " [rootid=N]" for a namespaced capability) or "PATH NULL <errno>". The
 * same source is built against the system libcap as ref-filecap, so root
 * tests can compare what both libraries read from the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		cap_t caps;
		char *text;
		uid_t owner;

		errno = 0;
		caps = cap_get_file(argv[i]);
		if (caps == NULL) {
			printf("%s NULL %s\n", argv[i], strerror(errno));
			continue;
		}
		text = cap_to_text(caps, NULL);
		owner = cap_get_nsowner(caps);
		if (owner != 0)
			printf("%s %s [rootid=%u]\n", argv[i], text,
			       (unsigned)owner);
		else
			printf("%s %s\n", argv[i], text);
		cap_free(text);
		cap_free(caps);
	}
	return 0;
}
