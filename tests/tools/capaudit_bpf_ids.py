# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Reads "KIND ID" lines (KIND prog_id, map_id or link_id, as a process's
# /proc/PID/fdinfo shows its eBPF descriptors) and waits up to 5 s for
# every one of those objects to be gone from the kernel; prints the ones
# still there, or "none". bpf(2) through ctypes: no bpftool needed.
import ctypes, os, sys, time

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_BPF = 321  # x86_64
GET_FD_BY_ID = {"prog_id": 13, "map_id": 14, "link_id": 30}


def alive(kind, ident):
    attr = (ctypes.c_uint32 * 32)()
    attr[0] = ident
    fd = libc.syscall(SYS_BPF, GET_FD_BY_ID[kind], ctypes.byref(attr),
                      ctypes.sizeof(attr))
    if fd >= 0:
        os.close(fd)
        return True
    err = ctypes.get_errno()
    if err != 2:  # ENOENT: no such object
        sys.exit("bpf(%s %d): %s" % (kind, ident, os.strerror(err)))
    return False


if os.uname().machine != "x86_64":
    sys.exit("bpf(2)'s number is only known here for x86_64")
ids = [line.split() for line in sys.stdin if line.strip()]
end = time.time() + 5
while True:
    left = [(k, i) for k, i in ids if alive(k, int(i))]
    if not left or time.time() > end:
        break
    time.sleep(0.01)
print(" ".join("%s %s" % x for x in left) if left else "none")
