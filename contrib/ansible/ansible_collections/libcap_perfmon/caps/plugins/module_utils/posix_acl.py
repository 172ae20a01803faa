# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A file's POSIX access ACL as the kernel stores it in the
# system.posix_acl_access attribute: a 4-byte version (2), then one 8-byte
# entry per tag (16-bit tag, 16-bit permissions, 32-bit id), little endian.
# Read as raw bytes so that two ACLs compare exactly; shown in getfacl's
# words; and changed as chmod(2) changes it, for check mode's prediction.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import errno
import os
import struct

from ansible_collections.libcap_perfmon.caps.plugins.module_utils.captools import (
    ToolError, escape)

XATTR = 'system.posix_acl_access'
VERSION = 2
USER_OBJ, USER, GROUP_OBJ, GROUP, MASK, OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
NAMES = {USER_OBJ: 'user', USER: 'user', GROUP_OBJ: 'group', GROUP: 'group',
         MASK: 'mask', OTHER: 'other'}
TAGS = {'user': (USER_OBJ, USER), 'group': (GROUP_OBJ, GROUP), 'mask': (MASK, None),
        'other': (OTHER, None)}
UNDEFINED_ID = 0xffffffff
# Entries the mode bits alone express: an ACL of only these is no more
# than the mode (capmanifest records acl=no for it).
BASE = (USER_OBJ, GROUP_OBJ, OTHER)


def read(path):
    """The raw access ACL of the file at path (not following a link), or
    None when it has none or its file system keeps none."""
    try:
        return os.getxattr(path, XATTR, follow_symlinks=False)
    except OSError as e:
        if e.errno in (errno.ENODATA, errno.EOPNOTSUPP):
            return None
        raise ToolError('%s: cannot read its ACL: %s' % (escape(path), e.strerror))


def entries(raw):
    """[(tag, perm, id)], or None when raw is not an ACL we can read."""
    if len(raw) < 4 or (len(raw) - 4) % 8 or struct.unpack('<I', raw[:4])[0] != VERSION:
        return None
    return [struct.unpack('<HHI', raw[off:off + 8]) for off in range(4, len(raw), 8)]


def extended(raw):
    """Whether the ACL grants beyond the mode bits, as capmanifest decides
    its acl=yes: named users or groups, or a mask; one we cannot read
    counts as extended."""
    if raw is None:
        return False
    ents = entries(raw)
    return ents is None or any(tag not in BASE for tag, perm, uid in ents)


def named(raw):
    """Whether the ACL has named user or group entries (one we cannot
    read counts as having them)."""
    ents = entries(raw) if raw is not None else []
    return ents is None or any(tag in (USER, GROUP) for tag, perm, uid in ents)


def manifest_text(raw):
    """The ACL as a version 4 manifest records it: None when there is
    none or it holds base entries alone, else its entries as text()."""
    return text(raw) if extended(raw) else None


def encode(acl_text):
    """The raw value of the ACL whose entries acl_text gives in text()'s
    words, as capmanifest restore writes it (no id but in named entries)."""
    out = []
    for entry in acl_text.split(','):
        tag, who, bits = entry.split(':')
        plain, qualified = TAGS[tag]
        perm = sum(b for c, b in zip(bits, (4, 2, 1)) if c != '-')
        if who:
            out.append(struct.pack('<HHI', qualified, perm, int(who)))
        else:
            out.append(struct.pack('<HHI', plain, perm, UNDEFINED_ID))
    return struct.pack('<I', VERSION) + b''.join(out)


def text(raw):
    """'no', or the entries in getfacl's words in the kernel's order
    (user::rwx,user:65534:r-x,group::r-x,mask::r-x,other::r-x); one we
    cannot read as its bytes in hex."""
    if raw is None:
        return 'no'
    ents = entries(raw)
    if ents is None:
        return 'unreadable:' + raw.hex()
    out = []
    for tag, perm, uid in ents:
        who = str(uid) if tag in (USER, GROUP) else ''
        bits = ''.join(c if perm & b else '-' for c, b in (('r', 4), ('w', 2), ('x', 1)))
        out.append('%s:%s:%s' % (NAMES.get(tag, 'tag%d' % tag), who, bits))
    return ','.join(out)


def chmod(raw, mode):
    """The ACL as chmod(path, mode) leaves it: the owner's entry takes the
    mode's user bits, the mask (or the owning group's entry when there is
    no mask) its group bits, and other's its other bits; named entries
    keep theirs, but the mask limits them."""
    ents = entries(raw)
    if ents is None:
        return raw
    group_tag = MASK if any(tag == MASK for tag, perm, uid in ents) else GROUP_OBJ
    bits = {USER_OBJ: mode >> 6 & 7, group_tag: mode >> 3 & 7, OTHER: mode & 7}
    return raw[:4] + b''.join(struct.pack('<HHI', tag, bits.get(tag, perm), uid)
                              for tag, perm, uid in ents)
