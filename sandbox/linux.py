"""Thin ctypes wrappers for the Linux calls the standard library lacks on 3.11.

`os.unshare` only arrived in Python 3.12 and `mount`/`prctl` are not exposed at all; the
sandbox needs them to build its namespaces, so they are called through libc directly.
libc is reached through the interpreter's own symbol table (`dlopen(NULL)`), not
`ctypes.util.find_library`: that module imports subprocess, threading, tempfile and the
compression modules, and the forkserver would carry them (and threading's at-fork hook,
run in every job child) for its whole life.
"""

from __future__ import annotations

import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MS_STRICTATIME = 1 << 24

MNT_DETACH = 2

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38

_libc = None


def _lib() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)  # libc's symbols, already loaded
        _libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                ctypes.c_ulong, ctypes.c_char_p]
        _libc.unshare.argtypes = [ctypes.c_int]
        _libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
        _libc.syscall.argtypes = [ctypes.c_long, ctypes.c_char_p, ctypes.c_char_p]
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong,
                                ctypes.c_ulong, ctypes.c_ulong]
    return _libc


def _check(rc: int, what: str) -> None:
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def unshare(flags: int) -> None:
    _check(_lib().unshare(flags), "unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int,
          data: str | None = None) -> None:
    enc = lambda s: None if s is None else os.fsencode(s)  # noqa: E731
    _check(_lib().mount(enc(source), enc(target), enc(fstype), flags, enc(data)),
           f"mount {target}")


def umount2(target: str, flags: int) -> None:
    _check(_lib().umount2(os.fsencode(target), flags), f"umount {target}")


# pivot_root has no libc wrapper; its syscall number per architecture
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}


def pivot_root(new_root: str, put_old: str) -> None:
    number = _SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is None:
        raise OSError(f"pivot_root: unknown syscall number on {os.uname().machine}")
    _check(_lib().syscall(number, os.fsencode(new_root), os.fsencode(put_old)), "pivot_root")


def prctl(option: int, arg: int) -> None:
    _check(_lib().prctl(option, arg, 0, 0, 0), "prctl")


def preload() -> None:
    """Load libc before user code runs, so a job never triggers the lookup itself."""
    _lib()
