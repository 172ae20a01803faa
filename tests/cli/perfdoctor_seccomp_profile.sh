#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# perfdoctor --seccomp-profile[=BASE] prints BASE, a container runtime's
# seccomp profile, with perf_event_open() also allowed to a container
# holding CAP_PERFMON, and nothing else changed:
#  - for a profile shaped as Debian 12's containers-common one (an allow
#    under CAP_SYS_ADMIN and an EPERM under excludes CAP_SYS_ADMIN, each
#    for perf_event_open and other calls), a diff of BASE and the output
#    is exactly the intended change, byte for byte;
#  - the output parses (python's json) and means what it should for a
#    container with no added capability, CAP_PERFMON, CAP_SYS_ADMIN and
#    both, and for every combination of the capabilities the profiles
#    name, as containers-common and as docker select rules
#    (tools/seccomp_rules.py, which is shown to catch the two wrong
#    fixes: an allow rule alone, CAP_PERFMON in the EPERM rule's
#    excludes), for each shape of BASE: docker's before 2022, a default
#    that allows, a refusing rule with arguments, architectures and
#    minKernel, perf_event_open in no rule, no rules at all, one line,
#    two-space indentation, an escaped name, an allow rule excluding
#    minKernel "" (which docker reads as 0.0: the rule applies nowhere);
#    and the host's installed profile when there is one;
#  - a BASE that allows it already (docker's since 2022, or to every
#    container) is printed unchanged, saying so on stderr;
#  - the default BASE is /usr/share/containers/seccomp.json, and its
#    absence is an error that says to give BASE (a private mount
#    namespace puts a file there, or none);
#  - a BASE that is not a profile perfdoctor reads as the runtime does
#    gets exit 2, nothing on stdout, and a line naming the file, where
#    and why: invalid JSON and UTF-8, a NUL byte, a BOM, \u0000, a key
#    read twice (in another case too), a value of another type, name and
#    names, deep nesting, more than 1 MiB, a FIFO (no hang, and never
#    opened: not when swapped in between a look at BASE and its open), a
#    directory, a file of /proc (a link to one too), an unreadable file;
#    a file name with control characters is escaped, and so is an
#    action the line on stderr echoes;
#  - 1 MiB of one-line rules, each changed, within 2 CPU seconds; 1 MiB
#    of values within 70 MB;
#  - misuse: an operand, --user, --pid; a full stdout.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
PD=$BUILD/progs/perfdoctor
[ -x "$PD" ] || { fail "perfdoctor is not built"; finish; }
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to parse JSON"
RULES="python3 $TESTS_DIR/tools/seccomp_rules.py"

# prof BASE: perfdoctor --seccomp-profile=BASE into $T/out, $T/err, $rc.
prof() {
	run run_ours "$PD" "--seccomp-profile=$1"
}
# semantics LABEL BASE: the last output means what it should, and
# perf_event_open gets what WANT says, one line per container.
semantics() {
	if $RULES "$2" "$T/out" >"$T/sem" 2>&1 &&
		printf '%s\n' "$3" | cmp -s - "$T/sem"; then
		pass
	else
		fail "$1: the output's rules:"
		sed 's/^/    | /' "$T/sem"
	fi
}
ALLOWED="no caps: perf_event_open: SCMP_ACT_ERRNO(1)
PERFMON: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN+PERFMON: perf_event_open: SCMP_ACT_ALLOW"

refused() {
	if [ "$rc" = 2 ] && [ ! -s "$T/out" ] && printf '%s\n' "$2" | cmp -s - "$T/err"; then
		pass
	else
		fail "$1: exit $rc (want 2), stdout $(wc -c <"$T/out") bytes (want 0), stderr (- wanted, + got):"
		printf '%s\n' "$2" | diff -u - "$T/err" | sed '1,2d; s/^/    /' | cat -v
	fi
}

# --- Debian 12's shape ------------------------------------------------------
cat >"$T/podman.json" <<'EOF'
{
	"defaultAction": "SCMP_ACT_ERRNO",
	"defaultErrnoRet": 38,
	"defaultErrno": "ENOSYS",
	"archMap": [
		{
			"architecture": "SCMP_ARCH_X86_64",
			"subArchitectures": [
				"SCMP_ARCH_X86",
				"SCMP_ARCH_X32"
			]
		}
	],
	"syscalls": [
		{
			"names": [
				"read",
				"write"
			],
			"action": "SCMP_ACT_ALLOW",
			"args": [],
			"comment": "",
			"includes": {},
			"excludes": {}
		},
		{
			"names": [
				"bpf",
				"perf_event_open",
				"sethostname"
			],
			"action": "SCMP_ACT_ALLOW",
			"args": [],
			"comment": "",
			"includes": {
				"caps": [
					"CAP_SYS_ADMIN"
				]
			},
			"excludes": {}
		},
		{
			"names": [
				"bpf",
				"perf_event_open",
				"sethostname"
			],
			"action": "SCMP_ACT_ERRNO",
			"args": [],
			"comment": "",
			"includes": {},
			"excludes": {
				"caps": [
					"CAP_SYS_ADMIN"
				]
			},
			"errnoRet": 1,
			"errno": "EPERM"
		},
		{
			"names": [
				"chroot"
			],
			"action": "SCMP_ACT_ALLOW",
			"args": [],
			"comment": "",
			"includes": {
				"caps": [
					"CAP_SYS_CHROOT"
				]
			},
			"excludes": {}
		}
	]
}
EOF
prof "$T/podman.json"
expect_rc 0 "the podman shape"
diff -u "$T/podman.json" "$T/out" | sed 1,2d >"$T/diff"
printf '%s' '@@ -42,7 +42,6 @@
 		{
 			"names": [
 				"bpf",
-				"perf_event_open",
 				"sethostname"
 			],
 			"action": "SCMP_ACT_ERRNO",
@@ -59,6 +58,34 @@
 		},
 		{
 			"names": [
+				"perf_event_open"
+			],
+			"action": "SCMP_ACT_ERRNO",
+			"args": [],
+			"comment": "",
+			"includes": {},
+			"excludes": {
+				"caps": [
+					"CAP_SYS_ADMIN",
+					"CAP_PERFMON"
+				]
+			},
+			"errnoRet": 1,
+			"errno": "EPERM"
+		},
+		{
+			"names": [
+				"perf_event_open"
+			],
+			"action": "SCMP_ACT_ALLOW",
+			"includes": {
+				"caps": [
+					"CAP_PERFMON"
+				]
+			}
+		},
+		{
+			"names": [
 				"chroot"
 			],
 			"action": "SCMP_ACT_ALLOW",
' >"$T/want.diff"
same "$T/want.diff" "$T/diff" "the podman shape: the diff of BASE and the output"
expect_err "perfdoctor: $T/podman.json: perf_event_open leaves syscalls[2] (SCMP_ACT_ERRNO) for a copy of it that excludes CAP_PERFMON too, right after it; a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it
" "the podman shape"
semantics "the podman shape" "$T/podman.json" "$ALLOWED"

# The checker itself fails the two wrong fixes: an allow rule beside the
# EPERM rule (two answers for PERFMON), and CAP_PERFMON in its excludes
# (the other calls would fall to the default action, ENOSYS).
python3 - "$T/podman.json" "$T/wrong1.json" "$T/wrong2.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
a = json.loads(json.dumps(p))
a["syscalls"].append({"names": ["perf_event_open"], "action": "SCMP_ACT_ALLOW",
                      "includes": {"caps": ["CAP_PERFMON"]}})
json.dump(a, open(sys.argv[2], "w"))
p["syscalls"][2]["excludes"]["caps"].append("CAP_PERFMON")
p["syscalls"].append({"names": ["perf_event_open"], "action": "SCMP_ACT_ALLOW",
                      "includes": {"caps": ["CAP_PERFMON"]}})
json.dump(p, open(sys.argv[3], "w"))
PY
for w in wrong1 wrong2; do
	cp "$T/$w.json" "$T/out"
	if $RULES "$T/podman.json" "$T/out" >"$T/sem" 2>&1; then
		fail "the checker passes the wrong fix $w"
	else
		grep -q '^DIFFERENCE: containers-common: CAP_PERFMON: ' "$T/sem" && pass ||
			{ fail "the checker on $w:"; sed 's/^/    | /' "$T/sem"; }
	fi
done

# The output again: nothing more to change.
cp "$T/out" "$T/again.json"
prof "$T/again.json"
cp "$T/again.json" "$T/again.want"
expect_rc 0 "the output as BASE"
same "$T/again.want" "$T/out" "the output as BASE: printed unchanged"
expect_err "perfdoctor: $T/again.json: syscalls[4] allows perf_event_open() to a container with CAP_PERFMON: printed unchanged
" "the output as BASE"

# --- the host's profile, when it has one --------------------------------------
if [ -f /usr/share/containers/seccomp.json ]; then
	run run_ours "$PD" --seccomp-profile
	expect_rc 0 "the host's /usr/share/containers/seccomp.json"
	# Lines taken out: perf_event_open's alone.
	diff /usr/share/containers/seccomp.json "$T/out" | grep '^<' |
		grep -v '"perf_event_open",\{0,1\}$' >"$T/removed"
	[ ! -s "$T/removed" ] && pass ||
		{ fail "the host's profile: lines removed besides perf_event_open:"; sed 's/^/    | /' "$T/removed"; }
	$RULES /usr/share/containers/seccomp.json "$T/out" >"$T/sem" 2>&1 && pass ||
		{ fail "the host's profile: the output's rules:"; sed 's/^/    | /' "$T/sem"; }
else
	not_checked "the host has no /usr/share/containers/seccomp.json"
fi

# --- the default BASE, in a private mount namespace ---------------------------
# A tmpfs on /usr/share holds our file under the default name, or none.
if unshare -rm true 2>/dev/null; then
	in_ns() {	# FILE-OR-"" CMD...
		src=$1; shift
		run unshare -rm sh -c 'mount -t tmpfs none /usr/share &&
			mkdir /usr/share/containers &&
			{ [ -z "$0" ] || cp "$0" /usr/share/containers/seccomp.json; } &&
			exec "$@"' "$src" ${VALGRIND_CMD:-} "$PD" --seccomp-profile
	}
	in_ns "$T/podman.json"
	cp "$T/out" "$T/default.out"
	prof "$T/podman.json"
	expect_rc 0 "the default BASE"
	same "$T/out" "$T/default.out" "the default BASE is /usr/share/containers/seccomp.json"
	in_ns ""
	refused "no default BASE" "perfdoctor: /usr/share/containers/seccomp.json: no such file: the default profile of podman and CRI-O (containers-common) is not installed here; give your runtime's profile as --seccomp-profile=BASE (docker installs none: give its profiles/seccomp/default.json)"
else
	not_checked "the default BASE: no user and mount namespace here (unshare -rm)"
fi

# --- other shapes -------------------------------------------------------------
# case LABEL WANT-SEMANTICS WANT-STDERR-AFTER-PATH: BASE is $T/b.json.
shape() {
	prof "$T/b.json"
	if [ "$rc" != 0 ]; then
		fail "$1: exit $rc"; sed 's/^/    | /' "$T/err"; return
	fi
	pass
	lib_same_text "perfdoctor: $T/b.json: $3
" "$T/err" "$1: stderr"
	semantics "$1" "$T/b.json" "$2"
}

# Docker's profile before 2022: allowed under CAP_SYS_ADMIN, refused by
# the default action (EPERM); a rule to allow it under CAP_PERFMON is
# all it takes.
cat >"$T/b.json" <<'EOF'
{
	"defaultAction": "SCMP_ACT_ERRNO",
	"defaultErrnoRet": 1,
	"syscalls": [
		{
			"names": [
				"read"
			],
			"action": "SCMP_ACT_ALLOW"
		},
		{
			"names": [
				"bpf",
				"perf_event_open"
			],
			"action": "SCMP_ACT_ALLOW",
			"includes": {
				"caps": [
					"CAP_SYS_ADMIN"
				]
			}
		},
		{
			"names": [
				"chroot"
			],
			"action": "SCMP_ACT_ALLOW",
			"includes": {
				"caps": [
					"CAP_SYS_CHROOT"
				]
			}
		}
	]
}
EOF
shape "docker's shape before 2022" "no caps: perf_event_open: the default, SCMP_ACT_ERRNO
PERFMON: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN+PERFMON: perf_event_open: SCMP_ACT_ALLOW" \
	"a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it"
diff "$T/b.json" "$T/out" | grep -c '^[<>]' >"$T/n"
[ "$(cat "$T/n")" = 11 ] && pass || fail "docker's shape: $(cat "$T/n") lines differ, want 11 (the new rule)"
cp "$T/out" "$T/docker2022.json"

# Docker's since 2022 (the output above has its rule): unchanged.
prof "$T/docker2022.json"
expect_rc 0 "docker's shape since 2022"
same "$T/docker2022.json" "$T/out" "docker's shape since 2022: printed unchanged"
expect_err "perfdoctor: $T/docker2022.json: syscalls[2] allows perf_event_open() to a container with CAP_PERFMON: printed unchanged
" "docker's shape since 2022"

# Allowed to every container: unchanged.
printf '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["read","perf_event_open"],"action":"SCMP_ACT_ALLOW"}]}' >"$T/all.json"
prof "$T/all.json"
expect_rc 0 "allowed to every container"
same "$T/all.json" "$T/out" "allowed to every container: printed unchanged"
expect_err "perfdoctor: $T/all.json: syscalls[0] allows perf_event_open() to every container: printed unchanged
" "allowed to every container"

# A default that allows, and a rule that refuses perf_event_open alone,
# with arguments, architectures and minKernel: it excludes CAP_PERFMON
# too, its conditions kept; no rule added (the default allows).
cat >"$T/b.json" <<'EOF'
{
  "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [
    {
      "names": [
        "perf_event_open"
      ],
      "action": "SCMP_ACT_ERRNO",
      "errnoRet": 13,
      "args": [
        {
          "index": 2,
          "value": 0,
          "op": "SCMP_CMP_NE"
        }
      ],
      "includes": {
        "arches": [
          "amd64"
        ],
        "minKernel": "4.8"
      }
    }
  ]
}
EOF
shape "a default that allows, a refusal with conditions" "no caps: perf_event_open: SCMP_ACT_ERRNO(13)
PERFMON: perf_event_open: the default, SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: SCMP_ACT_ERRNO(13)
SYS_ADMIN+PERFMON: perf_event_open: the default, SCMP_ACT_ALLOW" \
	"syscalls[0] (SCMP_ACT_ERRNO) excludes CAP_PERFMON too; the defaultAction, SCMP_ACT_ALLOW, lets perf_event_open() through where no rule refuses it"
printf '%s' '{
  "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [
    {
      "names": [
        "perf_event_open"
      ],
      "action": "SCMP_ACT_ERRNO",
      "errnoRet": 13,
      "args": [
        {
          "index": 2,
          "value": 0,
          "op": "SCMP_CMP_NE"
        }
      ],
      "includes": {
        "arches": [
          "amd64"
        ],
        "minKernel": "4.8"
      },
      "excludes": {
        "caps": [
          "CAP_PERFMON"
        ]
      }
    }
  ]
}
' >"$T/want"
same "$T/want" "$T/out" "a refusal with conditions: excludes added in its layout"

# A default that allows and no rule naming it: unchanged.
printf '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mount"], "action": "SCMP_ACT_ERRNO"}]}\n' >"$T/b.json"
prof "$T/b.json"
expect_rc 0 "a default that allows"
same "$T/b.json" "$T/out" "a default that allows: printed unchanged"

# No rule names it, on one line: a new rule at the end, on that line.
printf '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["read"],"action":"SCMP_ACT_ALLOW"}]}' >"$T/b.json"
shape "perf_event_open in no rule, one line" "no caps: perf_event_open: the default, SCMP_ACT_ERRNO
PERFMON: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: the default, SCMP_ACT_ERRNO
SYS_ADMIN+PERFMON: perf_event_open: SCMP_ACT_ALLOW" \
	"a new rule allows perf_event_open() under CAP_PERFMON, at the end of syscalls"
printf '%s' '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["read"],"action":"SCMP_ACT_ALLOW"},{"names":["perf_event_open"],"action":"SCMP_ACT_ALLOW","includes":{"caps":["CAP_PERFMON"]}}]}' >"$T/want"
same "$T/want" "$T/out" "one line: the new rule on it"

# No rules at all: syscalls null, [] and absent.
for sc in '"syscalls": null' '"syscalls": []' ''; do
	printf '{\n    "defaultAction": "SCMP_ACT_KILL"%s\n}\n' "${sc:+,
    $sc}" >"$T/b.json"
	shape "no rules (${sc:-no syscalls})" "no caps: perf_event_open: the default, SCMP_ACT_KILL
PERFMON: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: the default, SCMP_ACT_KILL
SYS_ADMIN+PERFMON: perf_event_open: SCMP_ACT_ALLOW" \
		"a new rule allows perf_event_open() under CAP_PERFMON"
done

# Neither a default action nor rules: no filter, unchanged.
printf '{"syscalls": []}' >"$T/b.json"
prof "$T/b.json"
expect_rc 0 "no filter"
same "$T/b.json" "$T/out" "no filter: printed unchanged"

# An escaped name is the same name; "name" (one call) too.
printf '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["bpf","perf\\u005fevent_open"],"action":"SCMP_ACT_ERRNO","errnoRet":1,"excludes":{"caps":["CAP_SYS_ADMIN"]}},{"name":"perf_event_open","action":"SCMP_ACT_KILL","excludes":{"arches":["s390x"]}}]}' >"$T/b.json"
shape "an escaped name, and name" "no caps: perf_event_open: SCMP_ACT_ERRNO(1), SCMP_ACT_KILL
PERFMON: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: SCMP_ACT_KILL
SYS_ADMIN+PERFMON: perf_event_open: SCMP_ACT_ALLOW" \
	"perf_event_open leaves syscalls[0] (SCMP_ACT_ERRNO) for a copy of it that excludes CAP_PERFMON too, right after it; syscalls[1] (SCMP_ACT_KILL) excludes CAP_PERFMON too; a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it"

# An allow rule whose excludes hold a minKernel of "" applies nowhere for
# docker, which reads "" as kernel 0.0 (every kernel reaches it), and
# everywhere for containers-common, which knows no minKernel: it is no
# unconditional allow, and the new rule is added.
printf '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["perf_event_open"],"action":"SCMP_ACT_ALLOW","includes":{"caps":["CAP_PERFMON"]},"excludes":{"minKernel":""}}]}' >"$T/b.json"
shape "an allow excluding minKernel \"\"" "no caps: perf_event_open: the default, SCMP_ACT_ERRNO
PERFMON: perf_event_open: SCMP_ACT_ALLOW
SYS_ADMIN: perf_event_open: the default, SCMP_ACT_ERRNO
SYS_ADMIN+PERFMON: perf_event_open: SCMP_ACT_ALLOW" \
	"a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it"

# An action with control characters (an OSC title, a screen clear) is
# echoed escaped, the rule changed all the same.
printf '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["perf_event_open"],"action":"X\\u001b]0;pwned\\u0007\\u001b[2J"}]}' >"$T/b.json"
prof "$T/b.json"
expect_rc 0 "an action with control characters"
expect_err "perfdoctor: $T/b.json: syscalls[0] (X\\033]0;pwned\\007\\033[2J) excludes CAP_PERFMON too; a new rule allows perf_event_open() under CAP_PERFMON, after the last rule that names it
" "an action with control characters"

# --- bases refused ------------------------------------------------------------
# bad CASE FILE-CONTENT-PRINTF MESSAGE: exit 2, nothing on stdout.
bad() {
	printf "$2" >"$T/bad.json"
	prof "$T/bad.json"
	refused "$1" "perfdoctor: $T/bad.json: $3"
}
bad "not JSON" '{"defaultAction": "SCMP_ACT_ERRNO",}' \
	"line 1, column 36: a ',' before '}'"
bad "an array's trailing comma" '{"syscalls": [1,]}' "line 1, column 17: a ',' before ']'"
bad "a number with a leading zero" '{"a": 01}' "line 1, column 8: no ',' or '}' after an object member"
bad "text after the value" '{} {}' "line 1, column 4: more text after the JSON value"
bad "empty" '  \n' "line 1, column 1: no JSON value: the text is empty"
bad "invalid UTF-8" '{"defaultAction":\n "\300\257"}' "line 2, column 3: invalid UTF-8 (byte 0xc0)"
bad "a NUL byte" '{"a":\0 1}' "line 1, column 6: a NUL byte"
bad "a BOM" '\357\273\277{}' "line 1, column 1: it starts with a byte order mark (EF BB BF), which JSON does not allow"
bad "an escaped NUL" '{"syscalls":[{"names":["perf_event_open\\u0000x"]}]}' \
	"line 1, column 40: an escaped U+0000 (NUL): the runtime's C library would end the string there"
bad "half a surrogate pair" '{"a": "\\ud800"}' \
	"line 1, column 8: an escaped first half of a surrogate pair (U+D800 to U+DBFF) alone"
bad "a control character in a string" '{"a": "\033[2J"}' \
	"line 1, column 8: a control character (0x1b) in a string: JSON wants it escaped"
bad "a key read twice" '{"syscalls": [{"names": ["read"], "Names": ["perf_event_open"], "action": "SCMP_ACT_ALLOW"}]}' \
	'line 1, column 35: syscalls[0] sets "names" twice ("names" and "Names"; the runtime reads keys in any case and keeps the last)'
bad "a key read twice, with U+017F" '{"defaultAction": "SCMP_ACT_ALLOW", "syscall\305\277": [], "syscalls": []}' \
	'line 1, column 53: the top level sets "syscalls" twice ("syscallſ" and "syscalls"; the runtime reads keys in any case and keeps the last)'
bad "includes read twice" '{"syscalls": [{"names": ["perf_event_open"], "action": "SCMP_ACT_ERRNO", "excludes": {"caps": ["CAP_SYS_ADMIN"], "CAPS": []}}]}' \
	'line 1, column 114: syscalls[0].excludes sets "caps" twice ("caps" and "CAPS"; the runtime reads keys in any case and keeps the last)'
bad "names of numbers" '{"syscalls": [{"names": ["read", 0]}]}' \
	'line 1, column 34: syscalls[0]: "names"[1] is a number, not a string'
bad "an action of another type" '{"syscalls": [{"names": ["read"], "action": 1}]}' \
	'line 1, column 35: syscalls[0]: "action" is a number, not a string'
bad "a null rule" '{"syscalls": [null]}' \
	'line 1, column 15: syscalls[0] is null, not an object (a rule)'
bad "name and names" '{"syscalls": [{"name": "bpf", "names": ["read"]}]}' \
	'line 1, column 16: syscalls[0] has both "name" and "names", which the runtime refuses'
bad "not an object" '["perf_event_open"]' \
	'line 1, column 1: not a seccomp profile: the top level is an array, not an object'
deep=$(printf '%033d' 0 | sed 's/0/[/g')
bad "nested 33 deep" "{\"a\": $deep" "line 1, column 38: nested deeper than 32 levels"

# More than 1 MiB (the size it says, and its bytes).
head -c 1048577 /dev/zero | tr '\0' ' ' >"$T/big.json"
prof "$T/big.json"
refused "more than 1 MiB" "perfdoctor: $T/big.json: 1048577 bytes or more, larger than the 1048576 bytes a profile may have here"

# Time and memory for a profile of 1 MiB. On one line, with each of its
# 20000 rules changed: linear time (looking for the start of the line
# for each rule took 4 CPU seconds). A profile of 500000 values: BASE's
# are gone before the output's are read again (both at once took twice
# the memory: 90 MB). Bounds with a wide margin, for the plain build
# alone (sanitizers and valgrind take more of both).
nrules=$(python3 - "$T/rules.json" "$T/values.json" <<'PY'
import sys
size = 1 << 20
head = '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":['
rule = '{"name":"perf_event_open","action":"SCMP_ACT_KILL"}'
n = (size - len(head) - 2) // (len(rule) + 1)
open(sys.argv[1], "w").write(head + ",".join([rule] * n) + "]}")
print(n)
head = '{"defaultAction":"SCMP_ACT_ERRNO","x":['
n = (size - len(head) - 2) // 2
open(sys.argv[2], "w").write(head + ",".join(["0"] * n) + "]}")
PY
)
if is_sanitized || [ -n "${VALGRIND_CMD:-}" ]; then
	not_checked "the time and memory bounds of a 1 MiB profile (a sanitizer or valgrind build)"
else
	(ulimit -t 2 && exec "$PD" "--seccomp-profile=$T/rules.json") >"$T/out" 2>"$T/err"
	rc=$?
	n=$(grep -o '"CAP_PERFMON"' "$T/out" | wc -l)
	[ "$rc" = 0 ] && [ "$n" = $((nrules + 1)) ] && pass ||
		fail "$nrules rules on one line, within 2 CPU seconds: exit $rc, CAP_PERFMON $n times (want one more): $(head -c 200 "$T/err")"
	(ulimit -v 70000 && exec "$PD" "--seccomp-profile=$T/values.json") >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 0 ] && pass ||
		fail "500000 values, within 70 MB: exit $rc: $(head -c 200 "$T/err")"
fi

# A name swapped between a look and an open (libswap_on_open renames a
# FIFO over BASE at perfdoctor's first open of it): the FIFO is never
# opened for reading, which would let a writer waiting on it through.
mkfifo "$T/swapfifo"
printf '{}' >"$T/swapped.json"
(exec 3>"$T/swapfifo") &
writer=$!
i=0
until [ "$(cat /proc/$writer/wchan 2>/dev/null)" = wait_for_partner ] || [ $i -ge 50 ]; do
	sleep 0.1; i=$((i + 1))
done
if [ "$(cat /proc/$writer/wchan 2>/dev/null)" != wait_for_partner ]; then
	not_checked "BASE swapped for a FIFO: /proc/PID/wchan does not say where a writer waits"
else
	run env SWAP_AT="$T/swapped.json" SWAP_FROM="$T/swapfifo" \
		LD_PRELOAD="$BIN/libswap_on_open.so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		${VALGRIND_CMD:-} "$PD" "--seccomp-profile=$T/swapped.json"
	refused "BASE swapped for a FIFO" "perfdoctor: $T/swapped.json: a FIFO, not a regular file (a profile)"
	[ "$(cat /proc/$writer/wchan 2>/dev/null)" = wait_for_partner ] && pass ||
		fail "BASE swapped for a FIFO: perfdoctor opened it for reading (its writer went through)"
fi
for f in "$T/swapped.json" "$T/swapfifo"; do
	[ -p "$f" ] && : <>"$f"	# lets the writer go
done
wait "$writer"

# A file of the kernel's, which looks regular (a read of /proc/kmsg takes
# messages from the system log), is never read, reached by a link too.
ln -s /proc/self/status "$T/proc.json"
for f in /proc/self/environ "$T/proc.json"; do
	prof "$f"
	refused "$f" "perfdoctor: $f: a file of the kernel's (/proc, /sys and the like), not a profile: reading one may act (/proc/kmsg's read takes messages from the system log)"
done

# A FIFO is refused without waiting for a writer; a directory; a file
# its reader may not read.
mkfifo "$T/fifo"
run timeout 10 ${VALGRIND_CMD:-} "$PD" "--seccomp-profile=$T/fifo"
refused "a FIFO" "perfdoctor: $T/fifo: a FIFO, not a regular file (a profile)"
prof "$T"
refused "a directory" "perfdoctor: $T: a directory, not a regular file (a profile)"
cp "$T/podman.json" "$T/secret.json"
chmod 0600 "$T/secret.json"
if [ "$(id -u)" = 0 ]; then
	chmod 0711 "$T"
	run as_nobody ${VALGRIND_CMD:-} "$PD" "--seccomp-profile=$T/secret.json"
	chmod 0700 "$T"
else
	chmod 0000 "$T/secret.json"
	prof "$T/secret.json"
fi
refused "an unreadable file" "perfdoctor: $T/secret.json: Permission denied"

# A file name with a newline and an escape sequence: escaped.
nasty="$T/x
perfdoctor: forged$(printf '\033')[2J.json"
printf '[]' >"$nasty"
prof "$nasty"
refused "a file name with control characters" \
	"perfdoctor: $T/x\\012perfdoctor: forged\\033[2J.json: line 1, column 1: not a seccomp profile: the top level is an array, not an object"

# --- misuse -------------------------------------------------------------------
for args in "--seccomp-profile $T/podman.json" "--seccomp-profile --user=root" \
	"--pid=1 --seccomp-profile=$T/podman.json"; do
	# shellcheck disable=SC2086 # the words of a case
	run run_ours "$PD" $args
	refused "perfdoctor $args" "perfdoctor: --seccomp-profile judges no session: it takes no --user, --pid or PERF_BINARY, and its BASE as --seccomp-profile=BASE"
done
run run_ours "$PD" --seccomp-profile=
refused "--seccomp-profile=" "perfdoctor: --seccomp-profile= names no file: give BASE, or no '=' for the default, /usr/share/containers/seccomp.json"
# A full stdout: the failure is said, and the status is 2.
${VALGRIND_CMD:-} "$PD" "--seccomp-profile=$T/podman.json" >/dev/full 2>"$T/err"
rc=$?
: >"$T/out"
refused "stdout on /dev/full" "perfdoctor: cannot write the profile: No space left on device"
finish
