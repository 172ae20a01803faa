#!/usr/bin/python
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A fleet audit as facts: every capable file (getcap -r --json) and every
# process worth a look (getpcaps --all --json), as the programs' own JSON
# objects, with their risk tiers; it changes nothing.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: caps_audit
short_description: Capable files and processes of a host, as facts
description:
  - Runs libcap-perfmon's C(getcap -r --json) over I(paths) and
    C(getpcaps --all --json), and returns their objects unchanged under
    C(ansible_facts.capabilities_audit), with counts per risk tier.
  - Changes nothing; check mode runs it all the same.
  - An audit that could not see everything (a file or directory getcap
    could not read, a process getpcaps could not examine) fails with the
    programs' messages, unless I(fail_on_incomplete=false); then
    C(complete) is false and C(problems) lists the messages.
options:
  paths:
    description: Absolute paths getcap -r walks (not expanded).
    type: list
    elements: str
    default: ['/']
  one_file_system:
    description: getcap -x, stay on the file system of each path.
    type: bool
    default: true
  exclude:
    description: getcap --exclude, paths not walked.
    type: list
    elements: str
    default: []
  files:
    description: Audit files.
    type: bool
    default: true
  processes:
    description: Audit processes.
    type: bool
    default: true
  fail_on_incomplete:
    description: Fail when the audit could not see everything.
    type: bool
    default: true
  tools_dir:
    description: Directory holding getcap and getpcaps; default PATH. The
      programs, their directories and the links on the way must be root's
      and writable by root alone.
    type: str
'''

EXAMPLES = r'''
- name: every capable file below /usr and /opt, and every process
  libcap_perfmon.caps.caps_audit:
    paths: [/usr, /opt]
    exclude: [/usr/src]

- name: what can be seen, where some of it cannot
  libcap_perfmon.caps.caps_audit:
    paths: [/srv]
    processes: false
    fail_on_incomplete: false
'''

RETURN = r'''
ansible_facts:
  description: capabilities_audit with files (getcap objects), processes
    (getpcaps process objects), process_summary (its summary object),
    files_by_risk and processes_by_risk (counts per tier), complete,
    problems.
  returned: success
  type: dict
tools:
  description: The programs run (getcap, getpcaps), by path.
  returned: always
  type: dict
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.libcap_perfmon.caps.plugins.module_utils.captools import (
    ToolError, escape, find_tool, json_lines, run)


def audit_files(getcap, params):
    argv = [getcap, '-r', '--json']
    if params['one_file_system']:
        argv.append('-x')
    argv += ['--exclude=%s' % e for e in params['exclude']]
    argv.append('--')
    argv += params['paths']
    rc, out, err = run(argv)
    if rc not in (0, 1):
        raise ToolError('getcap -r --json: exit status %d: %s' % (rc, err))
    files = json_lines(out, 'getcap')
    problems = err.splitlines()
    unknown = [f for f in files if f.get('error') is not None]
    if rc == 1 and not unknown and not problems:
        raise ToolError('getcap -r --json: exit status 1 with nothing reported')
    problems += ['%s: %s' % (escape(f.get('path', '?')), f['error']) for f in unknown]
    capable = [f for f in files if f.get('text') is not None or f.get('error') is not None]
    return capable, problems


def audit_processes(getpcaps):
    rc, out, err = run([getpcaps, '--all', '--json'])
    if rc not in (0, 1):
        raise ToolError('getpcaps --all --json: exit status %d: %s' % (rc, err))
    objects = json_lines(out, 'getpcaps')
    summaries = [o for o in objects if o.get('type') == 'summary']
    procs = [o for o in objects if o.get('type') == 'process']
    if len(summaries) != 1 or objects[-1] is not summaries[0] \
            or len(procs) + 1 != len(objects):
        raise ToolError('getpcaps --all --json: expected process objects and one '
                        'summary last')
    problems = err.splitlines()
    if rc == 1 and not problems:
        raise ToolError('getpcaps --all --json: exit status 1 with nothing reported')
    return procs, summaries[0], problems


def tiers(objects, risk_of):
    counts = {}
    for o in objects:
        tier = risk_of(o) or 'none'
        counts[tier] = counts.get(tier, 0) + 1
    return counts


def main():
    module = AnsibleModule(
        argument_spec=dict(
            paths=dict(type='list', elements='str', default=['/']),
            one_file_system=dict(type='bool', default=True),
            exclude=dict(type='list', elements='str', default=[]),
            files=dict(type='bool', default=True),
            processes=dict(type='bool', default=True),
            fail_on_incomplete=dict(type='bool', default=True),
            tools_dir=dict(type='str'),
        ),
        supports_check_mode=True,
    )
    p = module.params
    for path in p['paths']:
        if not os.path.isabs(path):
            module.fail_json(msg='paths: %s: must be absolute' % escape(path))
    facts = dict(files=[], processes=[], process_summary=None, problems=[])
    tools = {}
    try:
        if p['files']:
            tools['getcap'] = find_tool(module, 'getcap')
            facts['files'], problems = audit_files(tools['getcap'], p)
            facts['problems'] += problems
        if p['processes']:
            tools['getpcaps'] = find_tool(module, 'getpcaps')
            procs, summary, problems = audit_processes(tools['getpcaps'])
            facts.update(processes=procs, process_summary=summary)
            facts['problems'] += problems
    except ToolError as e:
        module.fail_json(msg=str(e), tools=tools)
    facts['files_by_risk'] = tiers(facts['files'], lambda f: (f.get('risk') or {}).get('tier'))
    facts['processes_by_risk'] = tiers(facts['processes'], lambda o: o.get('risk'))
    facts['complete'] = not facts['problems']
    if facts['problems'] and p['fail_on_incomplete']:
        module.fail_json(msg='the audit is incomplete: ' + '; '.join(facts['problems']),
                         capabilities_audit=facts, tools=tools)
    module.exit_json(changed=False, ansible_facts=dict(capabilities_audit=facts),
                     tools=tools)


if __name__ == '__main__':
    main()
