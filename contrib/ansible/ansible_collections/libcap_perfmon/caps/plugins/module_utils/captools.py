# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# What the modules of this collection share: running libcap-perfmon's
# programs (argv lists, never a shell), reading their --json output (schema
# checked, never their text output), and file capability sets compared as
# sets of names per flag, never as text.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import stat
import subprocess

# The --json schema these modules were written against. The programs bump
# it only when a field changes meaning or disappears, so any other number
# means the fields below may not say what we think: refuse.
SCHEMA = 1
FLAGS = ('effective', 'inheritable', 'permitted')


class ToolError(Exception):
    """A program failed or said something we do not understand."""


def find_tool(module, name):
    """The program to run: in tools_dir when the task names one, else the
    first on PATH (Ansible adds the sbin directories after PATH). Either
    way only root may be able to replace it (see untrusted_by)."""
    tools_dir = module.params.get('tools_dir')
    if tools_dir:
        path = os.path.join(tools_dir, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            module.fail_json(msg='%s: not an executable file (tools_dir)' % escape(path))
        where = 'tools_dir'
    else:
        path = module.get_bin_path(name, required=False)
        if not path:
            module.fail_json(msg='%s: not found on PATH; install libcap-perfmon '
                                 'or give tools_dir' % name)
        where = 'the first on PATH'
    why = untrusted_by(path)
    if why:
        module.fail_json(msg='%s (%s): refused: %s, so someone other than root '
                             'could choose what this module runs as root; give '
                             'tools_dir a directory only root may write'
                         % (escape(path), where, why))
    return path


MAX_LINKS = 40


def unsafe(path, st, what):
    """Why st (of path) lets someone other than root (and the user the
    module runs as, when it is not root) change it, or None.
    Group and other write bits also cover an ACL: with one, the group
    bits are its mask, the most any named user or group may have. A
    sticky directory of root's is safe for the directories root owns in
    it (untrusted_by refuses anything else there)."""
    if st.st_uid not in (0, os.geteuid()):
        return '%s %s belongs to uid %d' % (what, escape(path), st.st_uid)
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not (
            stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX):
        return '%s %s is writable by %s' % (
            what, escape(path), 'its group' if st.st_mode & stat.S_IWGRP
            and not st.st_mode & stat.S_IWOTH else 'others')
    return None


def untrusted_by(path, file_too=True):
    """Why someone other than root could replace the file at path, or
    None: every directory walked to reach it, the symbolic links on the
    way (read only from directories already found safe, so none can be
    swapped afterwards) and, with file_too, the file itself must be
    root's and writable by root alone. ".." is taken as the kernel takes
    it, from where the links led (never lexically, as abspath would)."""
    raw = os.fsencode(path)
    if not raw.startswith(b'/'):
        raw = os.getcwdb() + b'/' + raw
    todo = [c for c in raw.split(b'/') if c]
    cur = b'/'
    st = os.stat(cur)
    why = unsafe(cur, st, 'directory')
    shared = open_sticky(st)
    links = 0
    while todo and not why:
        name = todo.pop(0)
        if not todo and not file_too and name not in (b'.', b'..'):
            break
        if name == b'.':
            continue
        if name == b'..':
            # back in a directory found safe already; but what may be
            # swapped in it depends on it, not on the one we left
            cur = os.path.dirname(cur)
            shared = open_sticky(os.stat(cur))
            continue
        nxt = os.path.join(cur, name)
        try:
            st = os.lstat(nxt)
        except OSError as e:
            return '%s: %s' % (escape(nxt), e.strerror)
        if stat.S_ISLNK(st.st_mode) and shared and st.st_uid not in (0, os.geteuid()):
            # its owner may replace it in a sticky directory all may write
            return 'symbolic link %s belongs to uid %d in %s, a directory ' \
                   'all may write' % (escape(nxt), st.st_uid, escape(cur))
        if shared and not stat.S_ISDIR(st.st_mode):
            # Anyone who may write there may move root's file or link out
            # of a directory of their own into a free name: moving a file
            # asks nothing of the file. A directory cannot be moved so
            # (its ".." would change, which needs write access to it).
            return '%s %s is in %s, a sticky directory all may write, where ' \
                   'anyone may put a file or link under a free name' % (
                       'symbolic link' if stat.S_ISLNK(st.st_mode) else 'the file',
                       escape(nxt), escape(cur))
        if stat.S_ISLNK(st.st_mode):
            links += 1
            if links > MAX_LINKS:
                return '%s: too many symbolic links' % escape(path)
            target = os.readlink(nxt)
            if target.startswith(b'/'):
                cur = b'/'
                shared = open_sticky(os.stat(cur))
            todo[:0] = [c for c in target.split(b'/') if c]
            continue
        last = not todo
        if not last and not stat.S_ISDIR(st.st_mode):
            return '%s: not a directory' % escape(nxt)
        why = unsafe(nxt, st, 'the file' if last else 'directory')
        cur, shared = nxt, open_sticky(st)
    return why


def open_sticky(st):
    """A sticky directory others may write (/tmp): safe on the way to the
    directories root owns in it, and only those (see untrusted_by)."""
    return bool(st.st_mode & stat.S_ISVTX and st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def run(argv, stdin=None):
    """Runs argv as it is: a list, no shell, so every element reaches the
    program as one argument whatever it holds (spaces, quotes, $(...),
    newlines). No ~ or $VAR expansion either (run_command's default would
    rewrite a file named $HOME). Returns (rc, stdout bytes, stderr text)."""
    proc = subprocess.run([os.fsencode(a) for a in argv], cwd='/',
                          input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=False)
    return proc.returncode, proc.stdout, proc.stderr.decode('utf-8', 'replace').strip()


def json_lines(out, tool):
    """One JSON object per line, each with the schema we know."""
    objects = []
    for raw in out.splitlines():
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw.decode('utf-8'))
        except ValueError as e:
            raise ToolError('%s --json printed a line that is not JSON (%s): '
                            'is %s libcap-perfmon\'s?' % (tool, e, tool))
        if not isinstance(obj, dict) or obj.get('schema') != SCHEMA:
            found = obj.get('schema') if isinstance(obj, dict) else obj
            raise ToolError('%s --json gave schema %r; this module knows schema %d '
                            'only: update the collection' % (tool, found, SCHEMA))
        objects.append(obj)
    return objects


def json_path(obj):
    """The path of a getcap object as bytes: path_hex holds it byte for
    byte where it is not UTF-8 (path then has U+FFFD in its place)."""
    if obj.get('path_hex') is not None:
        return bytes.fromhex(obj['path_hex'])
    return obj['path'].encode('utf-8')


def names_of(obj, flag, tool):
    vec = obj.get(flag)
    if not isinstance(vec, dict) or not isinstance(vec.get('names'), list) \
            or not all(isinstance(n, str) for n in vec['names']):
        raise ToolError('%s --json: "%s" is not {"hex":...,"names":[...]}' % (tool, flag))
    return frozenset(vec['names'])


class CapState(object):
    """What a file carries: None sets for no security.capability attribute
    at all, else one frozenset of names per flag, and the namespace root id."""

    def __init__(self, sets=None, rootid=0, text=None, risk=None):
        self.sets = sets
        self.rootid = rootid
        self.text = text
        self.risk = risk

    @property
    def present(self):
        return self.sets is not None

    def same(self, other):
        if self.sets is None or other.sets is None:
            return self.sets is None and other.sets is None
        return self.sets == other.sets and self.rootid == other.rootid

    def shown(self):
        """Capability text for a person (diff, results); getcap's own."""
        if self.sets is None:
            return '(no capabilities)'
        return self.text + (' [rootid=%d]' % self.rootid if self.rootid else '')


def state_of(obj, tool='getcap'):
    if obj.get('text') is None:
        return CapState()
    rootid = obj.get('rootid', 0)
    if not isinstance(rootid, int) or not isinstance(obj['text'], str):
        raise ToolError('%s --json: unexpected "text" or "rootid"' % tool)
    sets = dict((f, names_of(obj, f, tool)) for f in FLAGS)
    return CapState(sets, rootid, obj['text'], obj.get('risk'))


def why_not_regular(path):
    try:
        st = os.lstat(path)
    except OSError as e:
        return e.strerror
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = '?'
        return ('is a symbolic link (to %s): not followed; name the file '
                'itself' % escape(target))
    return 'not a regular file: only regular files carry capabilities'


def escape(text):
    """A name as getcap prints names: control characters, backslash and
    DEL as \\ooo, so a newline in a file name cannot forge a line."""
    if isinstance(text, str):
        text = os.fsencode(text)
    out = []
    for b in bytearray(text):
        if b < 0x20 or b == 0x7f or b == 0x5c:
            out.append('\\%03o' % b)
        else:
            out.append(chr(b))
    return ''.join(out).encode('latin-1').decode('utf-8', 'replace')


def read_files(getcap, paths, missing_ok=False):
    """getcap -v --json for the files, in one run: a dict path -> CapState.
    A file getcap cannot read, that is missing, or that is not a regular
    file (a symbolic link included: getcap and setcap never follow one)
    is an error with getcap's own message; with missing_ok, a file that is
    not there (or not a regular file) maps to None instead."""
    if not paths:
        return {}
    argv = [getcap, '-v', '--json', '--'] + list(paths)
    rc, out, err = run(argv)
    objects = json_lines(out, 'getcap')
    if rc != 0 and not objects:
        raise ToolError('getcap failed (exit status %d): %s' % (rc, err))
    by_path = {}
    for obj in objects:
        by_path[json_path(obj)] = obj
    states = {}
    for path in paths:
        obj = by_path.get(os.fsencode(path))
        if obj is None and missing_ok and not os.path.lexists(path):
            states[path] = None
            continue
        if obj is None:
            # getcap says why on standard error: "/x (No such file or directory)"
            raise ToolError('getcap: %s' % err if err else
                            '%s: getcap said nothing about it' % escape(path))
        if obj.get('error') is not None:
            raise ToolError('%s: getcap: %s' % (escape(path), obj['error']))
        if obj.get('regular') is False:
            if missing_ok:
                states[path] = None
                continue
            raise ToolError('%s: %s' % (escape(path), why_not_regular(path)))
        states[path] = state_of(obj)
    return states


class Normaliser(object):
    """Capability text to sets, by the programs themselves: setcap writes
    the text to a scratch file of ours and getcap --json reads it back, so
    every spelling setcap accepts (all, numbers, =, +, -, case) means here
    exactly what it will mean on the real file, and what setcap refuses is
    refused with setcap's message. The scratch file is in a directory of
    the module's own (mode 0700)."""

    def __init__(self, module, setcap, getcap):
        self.setcap = setcap
        self.getcap = getcap
        self.dir = os.path.join(module.tmpdir, 'capscratch')
        os.mkdir(self.dir, 0o700)
        self.file = os.path.join(self.dir, 'f')
        fd = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)

    def sets(self, text):
        if text.lstrip().startswith('-'):
            # setcap would read "-" as "from standard input", and take
            # other words starting with - for options
            raise ToolError('capability text %r: cannot start with "-"' % text)
        rc, out, err = run([self.setcap, '-q', text, self.file])
        if rc != 0:
            raise ToolError('capability text %r: setcap: %s' % (text, without_usage(err)))
        state = read_files(self.getcap, [self.file])[self.file]
        return state

    def text_of(self, sets):
        """Canonical text for sets (getcap's spelling)."""
        return self.sets(spell(sets)).text


def without_usage(err):
    """setcap's message without the usage text it prints after a bad
    argument (the reason comes before it and after it, in lines of their own)."""
    kept, usage = [], False
    for line in err.splitlines():
        if line.startswith('usage:'):
            usage = True
        elif usage and (line.startswith('setcap:') or line.startswith('Error')):
            usage = False
        if not usage:
            kept.append(line)
    return '\n'.join(kept)


def spell(sets):
    """Some capability text for sets: one clause per flag combination.
    setcap then canonicalises it (Normaliser.text_of)."""
    by_flags = {}
    everything = set()
    for f in FLAGS:
        everything |= sets[f]
    for name in sorted(everything):
        flags = ''.join(f[0] for f in FLAGS if name in sets[f])
        by_flags.setdefault(flags, []).append(name)
    if not by_flags:
        return '='
    return ' '.join('%s+%s' % (','.join(names), flags)
                    for flags, names in sorted(by_flags.items()))


def effective_rule(sets):
    """A file has one effective bit: the effective set is empty, or the
    union of the permitted and inheritable sets. None when sets obey it,
    else why not."""
    held = sets['permitted'] | sets['inheritable']
    eff = sets['effective']
    if not eff or eff == held:
        return None
    return ('the effective set (%s) must be empty or all of the permitted and '
            'inheritable ones (%s): a file has one effective flag, on for all its '
            'capabilities or for none'
            % (','.join(sorted(eff)), ','.join(sorted(held)) or 'none'))
