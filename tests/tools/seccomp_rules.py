#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
"""seccomp_rules.py BASE OUT: OUT is BASE with perf_event_open() also
allowed to CAP_PERFMON and nothing else changed, as a container runtime
reads the two profiles (both must parse as JSON, python's own reader).

For four containers -- no added capability, CAP_PERFMON, CAP_SYS_ADMIN,
both -- on top of podman's default set, the rules that apply are worked
out as containers-common and docker select them (a rule applies when the
bounding set holds every capability of includes.caps and none of
excludes.caps, its arches name amd64 or none, its minKernel is at most
the running kernel's), and for every call named in either profile the
answers are compared: each call but perf_event_open() must meet the same
rules (action, errno, arguments) in both, and so must perf_event_open()
without CAP_PERFMON; with it, every rule that applies to it must allow it
and one must do so without conditions (or none applies and the default
action allows). Prints one line per container: what perf_event_open()
gets from OUT. Exit 0 when all holds, 1 with each difference.
"""
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


def kernel_at_least(want):
    have = [int(x) for x in os.uname().release.split("-")[0].split(".")[:2]]
    need = [int(x) for x in want.split(".")[:2]]
    return have >= need


def applies(rule, bounding):
    inc = rule.get("includes") or {}
    exc = rule.get("excludes") or {}
    if "amd64" in (exc.get("arches") or []):
        return False
    if any(c in bounding for c in exc.get("caps") or []):
        return False
    if exc.get("minKernel") and kernel_at_least(exc["minKernel"]):
        return False
    if (inc.get("arches") or []) and "amd64" not in inc["arches"]:
        return False
    if any(c not in bounding for c in inc.get("caps") or []):
        return False
    if inc.get("minKernel") and not kernel_at_least(inc["minKernel"]):
        return False
    return True


def answers(profile, bounding):
    """call name -> sorted answers of the rules that apply to it"""
    out = {}
    for rule in profile.get("syscalls") or []:
        if not applies(rule, bounding):
            continue
        names = [rule["name"]] if rule.get("name") else rule.get("names") or []
        what = (rule.get("action"), rule.get("errnoRet"), rule.get("errno"),
                json.dumps(rule.get("args") or [], sort_keys=True))
        for n in names:
            out.setdefault(n, []).append(what)
    return {n: sorted(set(a)) for n, a in out.items()}


def main():
    base = json.load(open(sys.argv[1], encoding="utf-8"))
    new = json.load(open(sys.argv[2], encoding="utf-8"))
    bad = []
    for key in ("defaultAction", "defaultErrnoRet", "defaultErrno",
                "architectures", "archMap"):
        if base.get(key) != new.get(key):
            bad.append("%s differs" % key)
    for label, caps in CONTAINERS:
        bounding = set(DEFAULT_CAPS + caps)
        b, n = answers(base, bounding), answers(new, bounding)
        for name in sorted(set(b) | set(n)):
            if name == PERF and "CAP_PERFMON" in bounding:
                continue
            if b.get(name, []) != n.get(name, []):
                bad.append("%s: %s: %s in BASE, %s in OUT" %
                           (label, name, b.get(name, []), n.get(name, [])))
        got = n.get(PERF, [])
        if "CAP_PERFMON" in bounding:
            if any(a[0] != "SCMP_ACT_ALLOW" for a in got):
                bad.append("%s: perf_event_open meets %s" % (label, got))
            elif not got and new.get("defaultAction") != "SCMP_ACT_ALLOW":
                bad.append("%s: no rule allows perf_event_open" % label)
            elif got and all(a[3] != "[]" for a in got):
                bad.append("%s: perf_event_open allowed only on conditions" % label)
        if not got:
            print("%s: perf_event_open: the default, %s" %
                  (label, new.get("defaultAction")))
        else:
            print("%s: perf_event_open: %s" % (label, ", ".join(
                "%s%s" % (a[0], "(%s)" % a[1] if a[1] is not None else "")
                for a in got)))
    for line in bad:
        print("DIFFERENCE: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
