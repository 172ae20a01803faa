#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Fuzz smoke: builds every libFuzzer harness in tests/fuzz (clang, ASan,
# UBSan), replays the seed corpora and saved regressions, then fuzzes each
# harness for FUZZ_SMOKE_SECONDS (default 5), all of them at once (FUZZ_JOBS
# at a time: by default one per harness). Any crash, leak or broken
# property fails the suite. Skips only when clang's fuzzer runtime is
# missing, and in the sanitizer and valgrind passes, which the harnesses'
# own ASan/UBSan build already covers.
set -u
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -n "${SANITIZE:-}" ] || [ "${VALGRIND:-0}" = 1 ]; then
	echo "skipped: the harnesses carry their own sanitizers; run in the plain pass"
	exit 77
fi
cc=${FUZZ_CC:-clang}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return (int)(size & 0) + (data == NULL ? 0 : 0);
}
PROBE
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "skipped: $cc is not installed (apt-get install clang)"; exit 77
fi
if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/probe" "$tmp/probe.c" \
	>"$tmp/err" 2>&1; then
	cat "$tmp/err"
	echo "skipped: $cc has no libFuzzer runtime (apt-get install libclang-rt-dev)"
	exit 77
fi
jobs=${FUZZ_JOBS:-$(ls "$top"/tests/fuzz/fuzz_*.c | wc -l)}
make -s -j"$jobs" -O -C "$top/tests/fuzz" smoke FUZZ_CC="$cc" \
	FUZZ_SMOKE_SECONDS="${FUZZ_SMOKE_SECONDS:-5}" || exit 1
