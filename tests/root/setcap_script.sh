#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# setcap on a "#!" script: libcap writes the capabilities and exits 0 in
# silence, though the kernel runs the interpreter and ignores them. Ours
# does the same (same status, same stdout, the same bytes on the file, as
# Debian's setcap writes them) and then warns on stderr, naming the script
# and its "#!" line (escaped). Not for an ELF binary, an empty set, -q, or
# -v; the warning never turns a success into a failure.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
S=$BUILD/progs/setcap
[ -x "$S" ] || { fail "progs/setcap is not built"; finish; }
cd "$T" || exit 1
printf '#!/bin/sh\necho hi\n' >script.sh
printf '#!/bin/sh -e\033[2J\nexit 0\n' >odd.sh
cp /bin/true elf
chmod 755 script.sh odd.sh elf
WARN="setcap: warning: script.sh is a script (#!/bin/sh): the kernel runs its interpreter and ignores the script's file capabilities; give them to the ELF binary it runs"

# ours ARGS...: our setcap, out/err/rc in $T.
ours() { run_ours "$S" "$@" >out 2>err </dev/null; rc=$?; }

ours cap_perfmon=ep script.sh
[ $rc -eq 0 ] && pass || fail "setcap cap_perfmon=ep script.sh: exit $rc"
[ -s out ] && fail "setcap cap_perfmon=ep script.sh: stdout [$(cat out)]" || pass
expect_err "$WARN$nl" "our warning, alone on stderr"
ours_x=$(xattr_hex script.sh)
[ -n "$ours_x" ] && pass || fail "the capabilities were not written"
if has_reference 2.66; then
	ref=$REF/setcap
	setcap_rm() { "$ref" -r script.sh 2>/dev/null; }
	setcap_rm
	"$ref" cap_perfmon=ep script.sh >out 2>err </dev/null; ref_rc=$?
	[ $ref_rc -eq 0 ] && [ ! -s out ] && [ ! -s err ] && pass ||
		fail "libcap's setcap: exit $ref_rc [$(cat out err)]"
	[ "$(xattr_hex script.sh)" = "$ours_x" ] && pass ||
		fail "libcap wrote $(xattr_hex script.sh), we wrote $ours_x"
else
	not_checked "libcap's result not compared: $reference_why"
fi

# The "#!" line comes from the file: escaped.
ours cap_net_raw+p odd.sh
[ $rc -eq 0 ] && pass || fail "odd.sh: exit $rc"
expect_err "setcap: warning: odd.sh is a script (#!/bin/sh -e\\033[2J): the kernel runs its interpreter and ignores the script's file capabilities; give them to the ELF binary it runs$nl" "escaped #! line"

# No warning where the capabilities do something, or nothing is granted.
ours cap_perfmon=ep elf
[ $rc -eq 0 ] && [ ! -s err ] && pass || fail "elf: exit $rc [$(cat err)]"
ours = script.sh
[ $rc -eq 0 ] && [ ! -s err ] && pass || fail "= script.sh: exit $rc [$(cat err)]"
ours -q cap_perfmon=ep script.sh
[ $rc -eq 0 ] && [ ! -s err ] && pass || fail "-q: exit $rc [$(cat err)]"
ours -v cap_perfmon=ep script.sh
[ $rc -eq 0 ] && [ "$(cat out)" = "script.sh: OK" ] && [ ! -s err ] && pass ||
	fail "-v: exit $rc [$(cat out err)]"
# Several pairs: each script named, the run goes on, exit 0.
ours cap_kill=p script.sh cap_kill=p elf cap_kill=p odd.sh
[ $rc -eq 0 ] && [ "$(grep -c '^setcap: warning: .* is a script' err)" -eq 2 ] && pass ||
	fail "three pairs: exit $rc [$(cat err)]"
[ -n "$(xattr_hex odd.sh)" ] && pass || fail "the last pair was not written"
finish "a script's capabilities: written as libcap does, then a warning"
