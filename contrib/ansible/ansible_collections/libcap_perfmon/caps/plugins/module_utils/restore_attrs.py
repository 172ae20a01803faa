# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Every attribute of a listed file that capmanifest restore may change,
# read from the file, and what restore will make of them. The module's
# "changed", its check mode and its --diff all compare these, so a change
# restore makes is never reported as none: owner, group, mode (set-user-ID
# and set-group-ID bits included), the access ACL entry by entry (restore
# --fix-owner writes the ACL a version 4 manifest records, removes one the
# manifest does not record, and its chmod changes the mask of one a
# version 2 or 3 manifest only knows is there), and the capabilities with
# their root id. Restore writes nothing else of a listed file (no content, no other
# extended attribute: progs/capmanifest's entry_fix_meta and restore_one).
# An extra file (one the manifest does not list, when restore walks the
# tree) only loses its capabilities.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import stat

from ansible_collections.libcap_perfmon.caps.plugins.module_utils import posix_acl


class Attrs(object):
    """One listed file: owner, group, mode bits (07777), the raw access
    ACL (None: none) and the capabilities (a CapState)."""

    def __init__(self, uid, gid, mode, acl, caps):
        self.uid, self.gid, self.mode, self.acl, self.caps = uid, gid, mode, acl, caps

    def shown(self):
        return 'owner=%d group=%d mode=%04o acl=%s %s' % (
            self.uid, self.gid, self.mode, posix_acl.text(self.acl), self.caps.shown())


def matches(now, entry):
    """Whether capmanifest takes the file's owner, group, mode and ACL for
    those the manifest's entry records (its meta_matches()): the ACL's
    entries exactly, or, where the manifest (version 2 or 3) recorded only
    that there was one, any ACL without named entries."""
    if (now.uid, now.gid, now.mode) != (entry.owner, entry.group, entry.mode):
        return False
    if entry.acl and entry.acl_text is None:
        return posix_acl.extended(now.acl) and not posix_acl.named(now.acl)
    return posix_acl.manifest_text(now.acl) == entry.acl_text


def read(path, caps):
    """The Attrs of the regular file at path, whose capabilities getcap
    read as caps; None when it is gone or no longer a regular file."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return Attrs(st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), posix_acl.read(path), caps)


def after_restore(now, entry, caps):
    """What a successful restore leaves of the listed file now holding
    now, for the manifest's entry whose capabilities are caps (a CapState
    with the entry's root id). capmanifest fixes a file whose owner,
    group, mode or ACL differ from the manifest (--fix-owner, matches()):
    it writes the ACL the manifest records (version 4) or removes one it
    does not record, sets owner and group, then the mode, which rewrites
    the permissions of a kept ACL's owner, mask and other entries; then it
    writes the capabilities. A file it need not fix keeps its ACL as it
    is."""
    acl = now.acl if now is not None else None
    if now is not None and not matches(now, entry):
        if entry.acl_text is not None:
            acl = posix_acl.encode(entry.acl_text)
        elif posix_acl.extended(acl) and not entry.acl:
            acl = None
        if acl is not None:
            acl = posix_acl.chmod(acl, entry.mode)
    return Attrs(entry.owner, entry.group, entry.mode, acl, caps)
