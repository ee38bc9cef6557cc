"""The forkserver's view of the filesystem, built once inside its fresh mount namespace.

Everything is remounted read-only and nosuid; a fresh /proc shows only the sandbox's own
processes; private directories (/root, /home, the project itself) are covered by empty
tmpfs mounts, except for the interpreter's own files, which are bound back in at the same
paths so that imports keep working for the unprivileged job uid; /tmp is a private,
size-capped tmpfs owned by the job uid and used as the working directory.
"""

from __future__ import annotations

import os
import re

from . import linux

_MASKED = ("/root", "/home")
_ATIME = {"noatime": linux.MS_NOATIME, "nodiratime": linux.MS_NODIRATIME,
          "relatime": linux.MS_RELATIME, "strictatime": linux.MS_STRICTATIME}
_LOCKABLE = {"nosuid": linux.MS_NOSUID, "nodev": linux.MS_NODEV, "noexec": linux.MS_NOEXEC}


def _unescape(field: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mount_points() -> list[tuple[str, str]]:
    """(mount point, per-mount options) for every mount this namespace sees."""
    points = []
    with open("/proc/self/mountinfo") as handle:
        for line in handle:
            fields = line.split()
            points.append((_unescape(fields[4]), fields[5]))
    return points


def _under(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


def _traversable(path: str) -> bool:
    try:
        return os.stat(path).st_mode & 0o005 == 0o005
    except OSError:
        return False


def _mask(directory: str, keep: list[str]) -> None:
    """Cover `directory` with an empty tmpfs, binding back the children `keep` needs."""
    children = sorted({os.path.join(directory, os.path.relpath(path, directory).split("/")[0])
                       for path in keep if _under(path, directory) and path != directory})
    handles = {child: os.open(child, os.O_PATH) for child in children if os.path.exists(child)}
    try:
        linux.mount("tmpfs", directory, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV,
                    "size=64k,mode=0755")
        for child, fd in handles.items():
            if os.path.isdir(f"/proc/self/fd/{fd}"):
                os.mkdir(child)
            else:
                open(child, "w").close()
            linux.mount(f"/proc/self/fd/{fd}", child, None, linux.MS_BIND | linux.MS_REC)
    finally:
        for fd in handles.values():
            os.close(fd)


def _ancestors(path: str) -> list[str]:
    parts = path.strip("/").split("/")
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


def _remount_readonly() -> None:
    for point, options in mount_points():
        flags = linux.MS_REMOUNT | linux.MS_BIND | linux.MS_RDONLY | linux.MS_NOSUID
        for option in options.split(","):
            flags |= _ATIME.get(option, 0) | _LOCKABLE.get(option, 0)
        try:
            linux.mount(None, point, None, flags)
        except OSError:
            if not point.startswith(("/proc", "/sys")) and os.path.exists(point):
                raise


def build_filesystem(keep: list[str], hide: list[str], workdir: str, tmpfs_mb: int,
                     uid: int, gid: int) -> dict:
    """Set up the view described above; returns facts for the ready message."""
    linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
    facts = {"fresh_proc": True}
    try:
        linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
    except OSError:
        facts["fresh_proc"] = False
    keep = [os.path.realpath(p) for p in keep if os.path.exists(p)]
    targets = {os.path.realpath(p) for p in (*_MASKED, *hide) if os.path.isdir(p)}
    targets |= {a for path in keep for a in _ancestors(path) if not _traversable(a)}
    for directory in sorted(targets, key=lambda d: d.count("/")):
        if os.path.isdir(directory) and directory not in ("/", workdir, *keep):
            _mask(directory, keep)
    _remount_readonly()
    linux.mount("tmpfs", workdir, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV,
                f"size={tmpfs_mb}m,mode=0700,uid={uid},gid={gid}")
    return facts
