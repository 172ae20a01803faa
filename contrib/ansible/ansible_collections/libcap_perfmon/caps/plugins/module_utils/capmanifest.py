# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Reads a capmanifest(8) manifest: the file format (versions 2 to 4,
# which record owner, group and mode; 4 the ACL's entries too), not any
# program's output. The
# module needs its paths and what it records to show a diff and to tell
# whether anything will change; capmanifest itself does the checking and
# the writing, with its own rules about whom the manifest may come from.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import re

from ansible_collections.libcap_perfmon.caps.plugins.module_utils.captools import ToolError

VERSIONS = {'# capmanifest 2': 2, '# capmanifest 3': 3, '# capmanifest 4': 4}
# A version 4 ACL: its entries in the kernel's order, numeric ids
# (capmanifest checks the rest: order, mask, agreement with the mode).
ACL_ENTRIES = rb'(?:user|group|mask|other):(?:[1-9][0-9]*|0)?:[r-][w-][x-]'
ACL_TEXT = rb'no|' + ACL_ENTRIES + rb'(?:,' + ACL_ENTRIES + rb')*'
OCTAL = re.compile(rb'\\([0-7]{3})')
ROOTID = re.compile(r' \[rootid=([0-9]+)\]$')


class Entry(object):
    def __init__(self, path, owner, group, mode, acl, acl_text, text, rootid):
        self.path = path          # bytes, relative: ./usr/bin/perf
        self.owner = owner
        self.group = group
        self.mode = mode
        self.acl = acl            # whether it has an ACL beyond the mode
        # Its entries ("user::rwx,user:1000:r-x,..."), or None: no ACL, or
        # a version 2 or 3 manifest, which recorded only that there was one.
        self.acl_text = acl_text
        self.text = text
        self.rootid = rootid


def unescape(word, where):
    if b'\\000' in word:
        raise ToolError('%s: \\000 in a path' % where)
    if re.search(rb'\\(?![0-7]{3})', word):
        raise ToolError('%s: a backslash that is not a \\ooo escape' % where)
    return OCTAL.sub(lambda m: bytes([int(m.group(1), 8)]), word)


def field(word, key, where, pattern):
    prefix = key + b'='
    if not word.startswith(prefix) or not re.fullmatch(pattern, word[len(prefix):]):
        raise ToolError('%s: expected %s=..., found %r' % (where, key.decode(), word))
    return word[len(prefix):].decode('ascii')


def parse(data, name):
    """Entries of the manifest; a manifest we cannot read whole is refused
    whole, as capmanifest refuses it."""
    if not data.endswith(b'\n'):
        raise ToolError('%s: the last line has no newline: the manifest was '
                        'cut short' % name)
    lines = data.split(b'\n')[:-1]
    version = VERSIONS.get(lines[0].decode('utf-8', 'replace')) if lines else None
    if version is None:
        raise ToolError('%s: not a version 2, 3 or 4 capmanifest manifest (first '
                        'line %r); a version 1 manifest records no owner, group or mode'
                        % (name, lines[0] if lines else b''))
    entries = []
    for number, line in enumerate(lines[1:], 2):
        where = '%s line %d' % (name, number)
        if line.startswith(b'#') or line.startswith(b'!unread '):
            continue
        fixed = 6 if version >= 3 else 5
        words = line.split(b' ', fixed)
        if len(words) != fixed + 1 or not words[0].startswith(b'./'):
            raise ToolError('%s: not "./path owner= group= mode= acl= %scaps"'
                            % (where, 'sha256= ' if version >= 3 else ''))
        path = unescape(words[0], where)
        owner = int(field(words[1], b'owner', where, rb'[0-9]+'))
        group = int(field(words[2], b'group', where, rb'[0-9]+'))
        mode = int(field(words[3], b'mode', where, rb'[0-7]{4}'), 8)
        if version >= 4:
            acl_text = field(words[4], b'acl', where, ACL_TEXT)
            acl_text = None if acl_text == 'no' else acl_text
            acl = acl_text is not None
        else:
            acl = field(words[4], b'acl', where, rb'yes|no') == 'yes'
            acl_text = None
        if version >= 3:
            field(words[5], b'sha256', where, rb'[0-9a-f]{64}')
        text = words[-1].decode('utf-8')
        rootid = 0
        m = ROOTID.search(text)
        if m:
            rootid = int(m.group(1))
            text = text[:m.start()]
        entries.append(Entry(path, owner, group, mode, acl, acl_text, text, rootid))
    return entries
