#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
"""seccomp_rules.py BASE OUT: OUT is BASE with perf_event_open() also
allowed to CAP_PERFMON and nothing else changed, as a container runtime
reads the two profiles (both must parse as JSON, python's own reader).

Keys are matched as Go's encoding/json matches them, which every runtime
reads profiles with: in any case, with U+017F and U+212A (Kelvin sign)
standing for 's' and 'k'; of two keys for one field the last counts.

The rules that apply to a container are worked out as each runtime
selects them, for two runtimes whose rules differ:
 - containers-common (podman, CRI-O; Debian 12's 0.50): a rule applies
   when the bounding set holds every capability of includes.caps and
   none of excludes.caps, and its arches name amd64 (includes) or do not
   (excludes); it knows no minKernel, which it ignores; a rule's "errno"
   (a name or a number), when set, is its errno instead of "errnoRet";
 - docker (moby): the same, and minKernel, whatever string it holds,
   "" too, which it reads as kernel 0.0: an includes.minKernel the
   running kernel has not reached, or an excludes.minKernel it has,
   leaves the rule out; it knows no "errno".
For each runtime, for containers holding podman's default set plus every
combination of the capabilities the two profiles name (with CAP_PERFMON
and CAP_SYS_ADMIN among them; the four of "no caps", CAP_PERFMON,
CAP_SYS_ADMIN and both when they name too many for that), the answers
of every call named in either profile are compared: each call but
perf_event_open() must meet the same rules (action, errno, arguments) in
both, and so must perf_event_open() without CAP_PERFMON; with it, every
rule that applies to it must allow it and one must do so without
conditions (or none applies and the default action allows). Prints one
line per container of the four (containers-common's rules): what
perf_event_open() gets from OUT. Exit 0 when all holds, 1 with each
difference.
"""
import itertools
import json
import os
import sys

PERF = "perf_event_open"
DEFAULT_CAPS = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID",
                "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_SETFCAP", "CAP_SETGID",
                "CAP_SETPCAP", "CAP_SETUID", "CAP_SYS_CHROOT"]
CONTAINERS = [("no caps", []), ("PERFMON", ["CAP_PERFMON"]),
              ("SYS_ADMIN", ["CAP_SYS_ADMIN"]),
              ("SYS_ADMIN+PERFMON", ["CAP_SYS_ADMIN", "CAP_PERFMON"])]
# Every combination of up to this many named capabilities is tried.
MAX_COMBINED = 8
ERRNO_NAMES = {"EPERM": 1, "ENOENT": 2, "EACCES": 13, "EINVAL": 22,
               "ENOSYS": 38}


def key_is(key, field):
    """Does Go's encoding/json read key as the field named field?"""
    if len(key) != len(field):
        return False
    for k, f in zip(key, field):
        f = f.lower()
        if k.lower() == f and k.isascii():
            continue
        if (f, k) in (("s", "\u017f"), ("k", "\u212a")):
            continue
        return False
    return True


def get(obj, field):
    """obj's value for field, as Go reads it (the last key for it)."""
    if not isinstance(obj, dict):
        return None
    found = None
    for key, value in obj.items():
        if key_is(key, field):
            found = value
    return found


def kernel_at_least(want):
    have = [int(x) for x in os.uname().release.split("-")[0].split(".")[:2]]
    if want == "":
        return True  # docker's 0.0
    need = [int(x) for x in want.split(".")]
    if len(need) != 2:
        raise ValueError("minKernel %r is not <kernel>.<major>" % want)
    return have >= need


def applies(rule, bounding, runtime):
    inc = get(rule, "includes") or {}
    exc = get(rule, "excludes") or {}
    if "amd64" in (get(exc, "arches") or []):
        return False
    if any(c in bounding for c in get(exc, "caps") or []):
        return False
    if runtime == "docker" and isinstance(get(exc, "minKernel"), str) and \
            kernel_at_least(get(exc, "minKernel")):
        return False
    if (get(inc, "arches") or []) and "amd64" not in get(inc, "arches"):
        return False
    if any(c not in bounding for c in get(inc, "caps") or []):
        return False
    if runtime == "docker" and isinstance(get(inc, "minKernel"), str) and \
            not kernel_at_least(get(inc, "minKernel")):
        return False
    return True


def errno_of(rule, runtime):
    named = get(rule, "errno")
    if runtime == "containers-common" and named:
        return ERRNO_NAMES.get(named, named)
    return get(rule, "errnoRet")


def answers(profile, bounding, runtime):
    """call name -> sorted answers of the rules that apply to it"""
    out = {}
    for rule in get(profile, "syscalls") or []:
        if not applies(rule, bounding, runtime):
            continue
        name = get(rule, "name")
        names = [name] if name else get(rule, "names") or []
        what = (get(rule, "action"), errno_of(rule, runtime),
                json.dumps(get(rule, "args") or [], sort_keys=True))
        for n in names:
            out.setdefault(n, []).append(what)
    return {n: sorted(set(a), key=repr) for n, a in out.items()}


def named_caps(*profiles):
    caps = set()
    for p in profiles:
        for rule in get(p, "syscalls") or []:
            for f in ("includes", "excludes"):
                caps.update(get(get(rule, f), "caps") or [])
    return sorted(caps - set(DEFAULT_CAPS) | {"CAP_PERFMON", "CAP_SYS_ADMIN"})


def containers(base, new):
    """(label, added capabilities) of every container to try."""
    caps = named_caps(base, new)
    if len(caps) > MAX_COMBINED:
        return CONTAINERS
    return [("+".join(c) or "no caps", list(c))
            for n in range(len(caps) + 1)
            for c in itertools.combinations(caps, n)]


def unfiltered(profile):
    """Neither a default action nor rules: the runtimes set no filter."""
    return not get(profile, "defaultAction") and not get(profile, "syscalls")


def compare(base, new, label, bounding, runtime, bad):
    b = answers(base, bounding, runtime)
    n = answers(new, bounding, runtime)
    for name in sorted(set(b) | set(n)):
        if name == PERF and "CAP_PERFMON" in bounding:
            continue
        if b.get(name, []) != n.get(name, []):
            bad.append("%s: %s: %s: %s in BASE, %s in OUT" %
                       (runtime, label, name, b.get(name, []),
                        n.get(name, [])))
    got = n.get(PERF, [])
    if "CAP_PERFMON" in bounding:
        if any(a[0] != "SCMP_ACT_ALLOW" for a in got):
            bad.append("%s: %s: perf_event_open meets %s" %
                       (runtime, label, got))
        elif not got and get(new, "defaultAction") != "SCMP_ACT_ALLOW" and \
                not unfiltered(new):
            bad.append("%s: %s: no rule allows perf_event_open" %
                       (runtime, label))
        elif got and all(a[2] != "[]" for a in got) and \
                get(new, "defaultAction") != "SCMP_ACT_ALLOW":
            bad.append("%s: %s: perf_event_open allowed only on conditions" %
                       (runtime, label))
    return got


def main():
    base = json.load(open(sys.argv[1], encoding="utf-8"))
    new = json.load(open(sys.argv[2], encoding="utf-8"))
    bad = []
    for key in ("defaultAction", "defaultErrnoRet", "defaultErrno",
                "architectures", "archMap", "flags", "listenerPath",
                "listenerMetadata"):
        if get(base, key) != get(new, key):
            bad.append("%s differs" % key)
    for runtime in ("containers-common", "docker"):
        for label, caps in containers(base, new):
            compare(base, new, label, set(DEFAULT_CAPS + caps), runtime, bad)
    for label, caps in CONTAINERS:
        got = compare(base, new, label, set(DEFAULT_CAPS + caps),
                      "containers-common", [])
        if not got:
            print("%s: perf_event_open: the default, %s" %
                  (label, get(new, "defaultAction")))
        else:
            print("%s: perf_event_open: %s" % (label, ", ".join(
                "%s%s" % (a[0], "(%s)" % a[1] if a[1] is not None else "")
                for a in got)))
    for line in bad:
        print("DIFFERENCE: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
