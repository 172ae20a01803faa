#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Fuzz smoke: builds every libFuzzer harness in tests/fuzz (clang, ASan,
# UBSan), replays the seed corpora and saved regressions, then fuzzes each
# harness for FUZZ_SMOKE_SECONDS (default 5), all of them at once (FUZZ_JOBS
# at a time: by default one per harness). Any crash, leak or broken
# property fails the suite. Skips only when clang's fuzzer runtime is
# missing, and in the sanitizer and valgrind passes, which the harnesses'
# own ASan/UBSan build already covers.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
if [ -n "${SANITIZE:-}" ] || [ "${VALGRIND:-0}" = 1 ]; then
	skip "the harnesses carry their own sanitizers; run in the plain pass"
fi
cc=${FUZZ_CC:-clang}
cat >"$T/probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return (int)(size & 0) + (data == NULL ? 0 : 0);
}
PROBE
if ! command -v "$cc" >/dev/null 2>&1; then
	skip "$cc is not installed (apt-get install clang)"
fi
if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$T/probe" "$T/probe.c" \
	>"$T/err" 2>&1; then
	cat "$T/err"
	skip "$cc has no libFuzzer runtime (apt-get install libclang-rt-dev)"
fi
jobs=${FUZZ_JOBS:-$(ls "$TOP"/tests/fuzz/fuzz_*.c | wc -l)}
make -s -j"$jobs" -O -C "$TOP/tests/fuzz" smoke FUZZ_CC="$cc" \
	FUZZ_SMOKE_SECONDS="${FUZZ_SMOKE_SECONDS:-$(long_or 2 120)}" && pass || fail "make -C tests/fuzz smoke"
finish
