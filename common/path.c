/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/* The joining rule and the PATH search the programs share (see path.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path.h"

int path_needs_slash(const char *dir, size_t dirlen)
{
	return dir != NULL && dirlen > 0 && dir[dirlen - 1] != '/';
}

char *path_join(const char *dir, size_t dirlen, const char *name)
{
	size_t slash = (size_t)path_needs_slash(dir, dirlen);
	size_t nl = strlen(name);
	char *p;

	if (dir == NULL)
		dirlen = 0;
	p = malloc(dirlen + slash + nl + 1);
	if (p == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(p, dir != NULL ? dir : "", dirlen);
	if (slash)
		p[dirlen] = '/';
	memcpy(p + dirlen + slash, name, nl + 1);
	return p;
}

int path_is_join(const char *path, const char *dir, size_t dirlen,
		 const char *name)
{
	size_t slash = (size_t)path_needs_slash(dir, dirlen);
	size_t nl = strlen(name);

	if (dir == NULL)
		dirlen = 0;
	return strlen(path) == dirlen + slash + nl &&
	       memcmp(path, dir != NULL ? dir : "", dirlen) == 0 &&
	       (!slash || path[dirlen] == '/') &&
	       memcmp(path + dirlen + slash, name, nl) == 0;
}

char *path_search(const char *search, const char *name, int mode)
{
	while (search != NULL && *search != '\0') {
		size_t len = strcspn(search, ":");

		if (len > 0) {
			/* Always a '/', as execvp(3) joins: "dir//name". */
			char *found = malloc(len + 1 + strlen(name) + 1);

			if (found == NULL) {
				errno = ENOMEM;
				return NULL;
			}
			memcpy(found, search, len);
			found[len] = '/';
			strcpy(found + len + 1, name);
			if (access(found, mode) == 0)
				return found;
			free(found);
		}
		search += len;
		if (*search == ':')
			search++;
	}
	errno = ENOENT;
	return NULL;
}
