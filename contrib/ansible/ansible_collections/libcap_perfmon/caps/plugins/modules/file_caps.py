#!/usr/bin/python
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Declares the file capabilities of one file, or of the files a
# capmanifest(8) manifest lists, idempotently: it reads with getcap --json,
# compares sets of capability names per flag, and writes only when they
# differ (setcap for one file, capmanifest restore for a manifest).

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: file_caps
short_description: File capabilities of a file or of a capmanifest manifest
description:
  - Reads capabilities with libcap-perfmon's C(getcap --json) and compares
    them as sets of names per flag (effective, inheritable, permitted), so
    C(cap_net_raw+ep) and C(cap_net_raw=ep) are the same request and a
    second run reports no change.
  - Writes with C(setcap) (one file) or C(capmanifest restore) (a manifest).
  - Capability text is turned into sets by setcap and getcap themselves
    (on a scratch file in the module's temporary directory), so it means
    exactly what setcap makes of it.
  - Check mode changes nothing; with --diff, before and after are shown in
    getcap's capability text.
  - A path that is a symbolic link is refused, never followed (name the
    file itself). A directory on the way to it that someone other than
    root may change is refused (it could be swapped between the read and
    the write).
  - With a manifest, C(changed), check mode and --diff cover every
    attribute C(capmanifest restore) may change of the listed files
    (owner, group, mode, the access ACL entry by entry, capabilities and
    their root id), and the capabilities of the files it strips.
  - A task that fails after writing (a restore that refuses one file
    and restores the others) still reports C(changed), I(before),
    I(after) and the diff, read from the files.
options:
  path:
    description: Absolute path of the file. Not expanded (no ~, no $VAR).
    type: str
  caps:
    description:
      - Capability text (cap_text_formats(7)), for example C(cap_net_raw=ep).
      - Required with C(path) unless I(state=absent).
    type: str
  state:
    description:
      - C(present) adds the named capabilities to the flags named, keeping
        the others; C(absent) takes them away (all of the file's without
        I(caps); bare names such as C(cap_net_raw,cap_sys_time) from every
        flag); C(exact) makes the file carry these and nothing else.
      - A result with no capability at all removes the attribute.
      - With a manifest, C(exact) (the default there) is capmanifest
        restore; C(absent) takes the listed capabilities away from the
        listed files; C(present) is refused.
    type: str
    choices: [present, absent, exact]
  rootid:
    description: Namespace root id to write (C(setcap -n)); default 0 for
      present and exact (a file's namespaced capabilities do not work on
      the host, so they are not present there), the file's own for absent.
    type: int
  manifest:
    description: A capmanifest manifest (version 2, 3 or 4) on the managed host.
    type: str
  root:
    description: The directory the manifest's paths are relative to.
    type: str
    default: /
  listed_only:
    description: With a manifest, leave alone the files it does not list
      (capmanifest --listed-only). C(false) removes the capabilities of
      every other file below I(root).
    type: bool
    default: true
  fix_owner:
    description: capmanifest restore --fix-owner.
    type: bool
    default: false
  accept_new_content:
    description: capmanifest restore --accept-new-content.
    type: bool
    default: false
  tools_dir:
    description: Directory holding getcap, setcap and capmanifest; default
      the first found on PATH. The programs, their directories and the
      links on the way must be root's and writable by root alone.
    type: str
'''

EXAMPLES = r'''
- name: ping may open raw sockets
  libcap_perfmon.caps.file_caps:
    path: /usr/bin/ping
    caps: cap_net_raw=ep
    state: exact

- name: perf loses cap_sys_admin, keeps the rest
  libcap_perfmon.caps.file_caps:
    path: /usr/bin/perf
    caps: cap_sys_admin
    state: absent

- name: the files of a manifest as recorded, owner, group and mode too
  libcap_perfmon.caps.file_caps:
    manifest: /etc/capmanifest.d/local.manifest
    fix_owner: true
'''

RETURN = r'''
file:
  description: The file, with I(path).
  returned: with path
  type: str
manifest:
  description: The manifest, with I(manifest).
  returned: with manifest
  type: str
before:
  description:
    - Per path, what it held before. With I(path), getcap's capability
      text. With a manifest, per listed file (as the manifest names it)
      C(owner= group= mode= acl=) (C(acl=no), or its entries in getfacl's
      words) and the capability text; with I(listed_only=false), each
      other capable file below I(root) as C(extra) and its capabilities.
      With I(state=absent) and a manifest, the capability text only.
  returned: success, and a failure after writing (read from the files)
  type: dict
after:
  description: As I(before), after the change (what it would be, in
    check mode).
  returned: success, and a failure after writing (read from the files)
  type: dict
risk:
  description: getcap's risk of the capabilities the file holds after
    (tier, cap, reason), with I(path); null without capabilities.
  returned: with path
  type: dict
tools:
  description: The programs run (getcap, setcap, capmanifest), by path.
  returned: always
  type: dict
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.libcap_perfmon.caps.plugins.module_utils.captools import (
    FLAGS, CapState, Normaliser, ToolError, effective_rule, escape, find_tool,
    json_lines, json_path, read_files, run, spell, state_of, untrusted_by)
from ansible_collections.libcap_perfmon.caps.plugins.module_utils.capmanifest import parse
from ansible_collections.libcap_perfmon.caps.plugins.module_utils import restore_attrs


MISSING = '(missing or not a regular file)'


class FailedAfterChange(ToolError):
    """A failure once files may have been written: result says what the
    task changed all the same (changed, before, after, diff), so that a
    failed task never hides a change it made."""

    def __init__(self, msg, result):
        ToolError.__init__(self, msg)
        self.result = result


def target_of(state, current, wanted, rootid):
    """What the file should carry: a CapState (sets None: no attribute)."""
    if state == 'absent' and wanted is None:
        return CapState()
    if state == 'exact':
        sets = dict(wanted.sets)
    elif state == 'present':
        if not current.present:
            sets = dict(wanted.sets)
        else:
            sets = dict((f, current.sets[f] | wanted.sets[f]) for f in FLAGS)
    else:
        if not current.present:
            return CapState()
        sets = dict((f, current.sets[f] - wanted.sets[f]) for f in FLAGS)
        # a capability no longer permitted nor inheritable cannot stay effective
        sets['effective'] = sets['effective'] & (sets['permitted'] | sets['inheritable'])
    if not any(sets.values()):
        return CapState()
    # present and exact mean capabilities that work on this host: a file's
    # namespaced ones (a root id) do not, outside that user namespace, so
    # they are written again with root id 0. absent only takes away.
    if rootid is None:
        rootid = current.rootid if state == 'absent' and current.present else 0
    return CapState(sets, rootid)


def refuse_swappable(path):
    """getcap reads a path and setcap writes it later: a directory on the
    way that someone other than root may change could be swapped in
    between (a symbolic link to /usr/bin in its place), and setcap would
    write to a file nobody asked about. The file itself may be anyone's:
    writing to it clears its capabilities."""
    why = untrusted_by(path, file_too=False)
    if why:
        raise ToolError('%s: refused: %s, so the file could be swapped for '
                        'another between reading and writing its capabilities'
                        % (escape(path), why))


def names_only(text, state):
    """For absent, bare names (cap_net_raw,cap_sys_time) mean every flag."""
    if state == 'absent' and not any(c in text for c in '=+-') and text.strip():
        return text.strip() + '=eip'
    return text


def write(module, tools, path, target):
    if not target.present:
        argv = [tools['setcap'], '-r', path]
    else:
        argv = [tools['setcap']]
        if target.rootid:
            argv += ['-n', str(target.rootid)]
        # never "-": our own spelling, and the path is absolute
        argv += [target.text, path]
    rc, out, err = run(argv)
    if rc != 0:
        raise ToolError('%s: setcap: %s' % (escape(path), err))


def one_file(module, tools, norm):
    p = module.params
    path, state = p['path'], p['state'] or 'present'
    if not os.path.isabs(path):
        module.fail_json(msg='path %s: must be absolute' % escape(path))
    if p['caps'] is None and state != 'absent':
        module.fail_json(msg='caps is required with state=%s' % state)
    refuse_swappable(path)
    current = read_files(tools['getcap'], [path])[path]
    wanted = norm.sets(names_only(p['caps'], state)) if p['caps'] is not None else None
    target = target_of(state, current, wanted, p['rootid'])
    if target.present:
        why = effective_rule(target.sets)
        if why:
            raise ToolError('%s: %s would hold %s: %s' % (
                escape(path), state, ' '.join(
                    '%s=%s' % (f, ','.join(sorted(target.sets[f]))) for f in FLAGS), why))
        spelt = norm.sets(spell(target.sets))
        target.text, target.risk = spelt.text, spelt.risk
    changed = not current.same(target)
    after, error = target if changed else current, None
    if changed and not module.check_mode:
        write(module, tools, path, target)
        after = read_files(tools['getcap'], [path])[path]
        changed = not current.same(after)
        if not after.same(target):
            error = '%s: after setcap it holds %s, not %s' % (
                escape(path), after.shown(), target.shown())
    shown = escape(path)
    # "file", not "path": AnsibleModule would add a stat() of a "path"
    result = dict(changed=changed, file=path,
                  before={path: current.shown()}, after={path: after.shown()},
                  risk=after.risk)
    if module._diff:
        result['diff'] = dict(before_header=shown, after_header=shown,
                              before='%s\n' % current.shown(), after='%s\n' % after.shown())
    if error:
        raise FailedAfterChange(error, result)
    return result


def manifest_lines(snap):
    return ''.join('%s %s\n' % (escape(path), desc) for path, desc in snap)


def shown(snap):
    """[(name, text)] for the diff and the results."""
    out = []
    for name, path, seen in snap:
        if seen is None:
            out.append((name, MISSING))
        elif isinstance(seen, CapState):  # an extra file
            out.append((name, 'extra ' + seen.shown()))
        else:
            out.append((name, seen.shown()))
    return out


def snapshot(tools, root, entries, recurse, extras=()):
    """What the files hold now, as [(name, path, seen)]: every attribute
    restore may change of the listed files (restore_attrs.Attrs, None when
    missing or not a regular file), and with recurse the capabilities
    (a CapState) of every capable file below root it does not list (those
    capmanifest strips), and of the extra files named in extras, capable
    or not (so that after a restore they are shown without)."""
    paths = [os.fsdecode(os.path.join(os.fsencode(root), e.path[2:])) for e in entries]
    states = read_files(tools['getcap'], paths, missing_ok=True)
    snap = []
    for path, e in zip(paths, entries):
        seen = restore_attrs.read(path, states[path]) if states[path] is not None else None
        snap.append((e.path.decode('utf-8', 'replace'), path, seen))
    if recurse:
        listed = set(os.fsencode(p) for p in paths)
        found = {}
        rc, out, err = run([tools['getcap'], '-r', '--json', '--', root])
        for obj in json_lines(out, 'getcap'):
            if obj.get('error') is not None:
                raise ToolError('%s: getcap: %s' % (escape(obj['path']), obj['error']))
            path = json_path(obj)
            if path not in listed and obj.get('text') is not None:
                found[os.fsdecode(path)] = state_of(obj)
        if rc != 0:
            raise ToolError('getcap -r %s: %s' % (escape(root), err))
        gone = [p for p in extras if p not in found]
        found.update(read_files(tools['getcap'], gone, missing_ok=True))
        for path in sorted(found):
            snap.append(('./' + os.path.relpath(path, root), path, found[path]))
    return snap


def manifest_exact(module, tools, norm, entries):
    p = module.params
    opts = [] if not p['listed_only'] else ['--listed-only']
    recurse = not p['listed_only']
    before = snapshot(tools, p['root'], entries, recurse)
    rc, out, err = run([tools['capmanifest'], 'verify'] + opts + [p['manifest'], p['root']])
    if rc == 0:
        return False, shown(before), shown(before), None
    if rc != 1:
        raise ToolError('capmanifest verify: %s' % err)
    restore = [tools['capmanifest'], 'restore']
    if module.check_mode:
        restore.append('-n')
    if p['fix_owner']:
        restore.append('--fix-owner')
    if p['accept_new_content']:
        restore.append('--accept-new-content')
    rc, out, err = run(restore + opts + [p['manifest'], p['root']])
    if rc != 0 and module.check_mode:
        raise ToolError('capmanifest restore -n: %s' % err)
    # A restore that refuses one file still restores the others: what it
    # changed is read back from the files, failed or not.
    error = 'capmanifest restore: %s' % err if rc != 0 else None
    extras = before[len(entries):]
    if module.check_mode:
        # restore -n succeeded, so restore would leave every listed file
        # as the manifest says, and strip every extra one
        after = []
        for (name, path, seen), e in zip(before, entries):
            caps = norm.sets(e.text)
            caps.rootid = e.rootid
            after.append((name, path, restore_attrs.after_restore(seen, e, caps)))
        after += [(name, path, CapState()) for name, path, seen in extras]
    else:
        after = snapshot(tools, p['root'], entries, recurse,
                         [path for name, path, seen in extras])
    before, after = shown(before), shown(after)
    return before != after, before, after, error


def manifest_absent(module, tools, norm, entries):
    p = module.params
    # Whoever may write the manifest chooses what is taken away: hold it to
    # capmanifest restore's rules (status 2: untrusted or unreadable),
    # asking capmanifest itself; -n changes nothing.
    rc, out, err = run([tools['capmanifest'], 'restore', '-n', '--listed-only',
                        p['manifest'], p['root']])
    if rc not in (0, 1):
        raise ToolError('capmanifest restore -n: %s' % err)
    before, after, todo = [], [], []
    paths = [os.fsdecode(os.path.join(os.fsencode(p['root']), e.path[2:])) for e in entries]
    for path in paths:
        refuse_swappable(path)
    states = read_files(tools['getcap'], paths)
    for path, e in zip(paths, entries):
        current = states[path]
        target = target_of('absent', current, norm.sets(e.text), None)
        if target.present:
            why = effective_rule(target.sets)
            if why:
                raise ToolError('%s: %s' % (escape(path), why))
            target.text = norm.text_of(target.sets)
        name = e.path.decode('utf-8', 'replace')
        before.append((name, current.shown()))
        after.append((name, target.shown()))
        if not current.same(target):
            todo.append((path, target))
    if module.check_mode:
        return bool(todo), before, after, None
    # What was written is read back from the files, whatever happened:
    # one setcap failing leaves those before it written.
    error = None
    try:
        for path, target in todo:
            write(module, tools, path, target)
    except ToolError as e:
        error = str(e)
    now = read_files(tools['getcap'], [t[0] for t in todo], missing_ok=True)
    held = dict((path, now[path].shown() if now[path] is not None else MISSING) for path in now)
    for path, target in todo:
        if error is None and not (now[path] is not None and now[path].same(target)):
            error = '%s: after setcap it holds %s, not %s' % (
                escape(path), held[path], target.shown())
    after = [(name, held.get(path, was)) for path, (name, was) in zip(paths, before)]
    return before != after, before, after, error


def by_manifest(module, tools, norm):
    p = module.params
    state = p['state'] or 'exact'
    if not os.path.isabs(p['root']):
        module.fail_json(msg='root %s: must be absolute' % escape(p['root']))
    if p['caps'] is not None or p['rootid'] is not None:
        module.fail_json(msg='caps and rootid come from the manifest: give neither')
    if state == 'present':
        module.fail_json(msg='state=present with a manifest: a manifest records each '
                             'file\'s whole set; use exact (capmanifest restore) or absent')
    # The module reads the manifest and capmanifest reads it again: only a
    # path nobody but root may change names the same bytes both times.
    why = untrusted_by(p['manifest'])
    if why:
        raise ToolError('%s: refused: %s, so what the module reads and what '
                        'capmanifest checks could differ'
                        % (escape(p['manifest']), why))
    try:
        with open(p['manifest'], 'rb') as f:
            data = f.read()
    except (IOError, OSError) as e:
        module.fail_json(msg='%s: %s' % (escape(p['manifest']), e.strerror))
    entries = parse(data, escape(p['manifest']))
    if state == 'exact':
        changed, before, after, error = manifest_exact(module, tools, norm, entries)
    else:
        changed, before, after, error = manifest_absent(module, tools, norm, entries)
    result = dict(changed=changed, manifest=p['manifest'],
                  before=dict(before), after=dict(after))
    if module._diff:
        result['diff'] = dict(before_header=p['manifest'], after_header=p['manifest'],
                              before=manifest_lines(before), after=manifest_lines(after))
    if error:
        raise FailedAfterChange(error, result)
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type='str'),
            caps=dict(type='str'),
            state=dict(type='str', choices=['present', 'absent', 'exact']),
            rootid=dict(type='int'),
            manifest=dict(type='str'),
            root=dict(type='str', default='/'),
            listed_only=dict(type='bool', default=True),
            fix_owner=dict(type='bool', default=False),
            accept_new_content=dict(type='bool', default=False),
            tools_dir=dict(type='str'),
        ),
        mutually_exclusive=[('path', 'manifest')],
        required_one_of=[('path', 'manifest')],
        supports_check_mode=True,
    )
    names = ['getcap', 'setcap'] + (['capmanifest'] if module.params['manifest'] else [])
    tools = dict((n, find_tool(module, n)) for n in names)
    if module.params['rootid'] is not None and module.params['rootid'] < 0:
        module.fail_json(msg='rootid %d: must be 0 or more' % module.params['rootid'])
    try:
        norm = Normaliser(module, tools['setcap'], tools['getcap'])
        if module.params['path'] is not None:
            result = one_file(module, tools, norm)
        else:
            result = by_manifest(module, tools, norm)
    except FailedAfterChange as e:
        module.fail_json(msg=str(e), tools=tools, **e.result)
    except ToolError as e:
        module.fail_json(msg=str(e), tools=tools)
    result['tools'] = tools
    module.exit_json(**result)


if __name__ == '__main__':
    main()
