"""The sandbox's own root filesystem, built once inside the forkserver's fresh mount namespace,
and each job's throw-away writable space.

The root is a small tmpfs holding only: the interpreter's library directories bound
read-only at their own paths (its `site-packages` covered by an empty read-only tmpfs), a
fresh /proc for the sandbox's pid namespace (`hidepid=invisible`: a job sees only its own process there), a /dev with null, zero and urandom, and an
empty /tmp. The forkserver pivots into it and detaches the host's tree, so nothing else of
the host (its /run, /var, /etc, the project checkout, the data dir, any Unix socket file)
exists for a job. The root itself is then made read-only.

Before each job the forkserver mounts a fresh size-capped tmpfs on /tmp (the job's working
directory; nothing on it can be mapped executable, so a shared library the program writes
there does not load); after the job's processes are gone it detaches it (`MNT_DETACH`), and the tmpfs
with every file the job wrote is freed whole. Nothing walks a directory tree. (A mount
namespace per job would do the same but costs a few ms per job: tearing a namespace down
waits for an RCU grace period.)
"""

from __future__ import annotations

import os

from . import linux

DEVICES = ("null", "zero", "urandom")
ROOT_TMPFS = "size=1m,mode=0755"
# statvfs flag bits (the same values as the MS_* flags, except relatime) that a bind
# remount inside a user namespace must keep: the kernel refuses to clear them
_KEPT_FLAGS = ((os.ST_NOSUID, linux.MS_NOSUID), (os.ST_NODEV, linux.MS_NODEV),
               (os.ST_NOEXEC, linux.MS_NOEXEC), (os.ST_NOATIME, linux.MS_NOATIME),
               (os.ST_NODIRATIME, linux.MS_NODIRATIME), (os.ST_RELATIME, linux.MS_RELATIME))


def _kept_flags(path: str) -> int:
    bits = os.statvfs(path).f_flag
    return sum(flag for st, flag in _KEPT_FLAGS if bits & st)


def _bind(fd: int, target: str, readonly: bool) -> None:
    source = f"/proc/self/fd/{fd}"
    linux.mount(source, target, None, linux.MS_BIND | linux.MS_REC)
    if readonly:
        flags = _kept_flags(target) | linux.MS_NOSUID | linux.MS_NODEV
        linux.mount(None, target, None,
                    linux.MS_REMOUNT | linux.MS_BIND | linux.MS_RDONLY | flags)


def _make_mount_point(path: str, is_dir: bool) -> None:
    if is_dir:
        os.makedirs(path, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").close()


def build_root(keep: list[str], staging: str = "/tmp") -> dict:
    """Build the root described above and pivot into it; returns facts for the ready
    message. `keep`: the interpreter's library directories. `staging`: an existing
    directory of the host tree the new root is mounted on before the pivot."""
    linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
    keep = sorted({os.path.realpath(p) for p in keep if os.path.isdir(p)})
    sources = {path: os.open(path, os.O_PATH) for path in keep}
    devices = {name: os.open(f"/dev/{name}", os.O_PATH) for name in DEVICES}
    try:
        linux.mount("tmpfs", staging, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, ROOT_TMPFS)
        for path, fd in sources.items():
            target = staging + path
            _make_mount_point(target, True)
            _bind(fd, target, readonly=True)
            site = os.path.join(target, "site-packages")
            if os.path.isdir(site):  # installed packages are not the interpreter
                linux.mount("tmpfs", site, "tmpfs",
                            linux.MS_NOSUID | linux.MS_NODEV | linux.MS_RDONLY, "size=4k")
        for name, fd in devices.items():
            target = f"{staging}/dev/{name}"
            _make_mount_point(target, False)
            _bind(fd, target, readonly=False)
    finally:
        for fd in (*sources.values(), *devices.values()):
            os.close(fd)
    os.mkdir(f"{staging}/tmp", 0o755)
    os.mkdir(f"{staging}/proc", 0o555)
    facts = {"fresh_proc": True, "own_root": True, "proc_hidepid": True}
    flags = linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC
    try:  # a job (another uid) sees only its own processes there, not the forkserver's
        linux.mount("proc", f"{staging}/proc", "proc", flags, "hidepid=invisible")
    except OSError:
        facts["proc_hidepid"] = False  # kernels before 5.8
        try:
            linux.mount("proc", f"{staging}/proc", "proc", flags)
        except OSError:
            facts["fresh_proc"] = False  # the job's /proc stays an empty directory
    os.chdir(staging)
    linux.pivot_root(".", ".")  # the old root now sits on top of the new one at "/"
    linux.umount2(".", linux.MNT_DETACH)
    os.chdir("/")
    linux.mount(None, "/", None,
                linux.MS_REMOUNT | linux.MS_RDONLY | linux.MS_NOSUID | linux.MS_NODEV, ROOT_TMPFS)
    return facts


def mount_job_space(workdir: str, tmpfs_mb: int, uid: int | None, gid: int | None) -> None:
    """In the forkserver, before a job's fork: a fresh size-capped tmpfs on `workdir`."""
    owner = "" if uid is None else f",uid={uid},gid={gid}"
    linux.mount("tmpfs", workdir, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC,
                f"size={tmpfs_mb}m,mode=0700{owner}")


def drop_job_space(workdir: str) -> None:
    """After the job's processes are gone: detach its tmpfs whole (freed with its last
    user, which is none: every process of the sandbox's pid namespace was killed)."""
    linux.umount2(workdir, linux.MNT_DETACH)
