"""A real sandbox shared by the sandbox tests, and a way to see what it leaves behind."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from sandbox import Job, Limits, Sandbox
from sandbox.local import DEFAULT_HOST_JOB_ID

import uuid

TEST_LIMITS = Limits(timeout_s=3.0, memory_mb=256, output_bytes=64 * 1024)
# Set before any sandbox starts: user code must never see it (the environment is scrubbed).
SECRET = f"s3cr3t-{uuid.uuid4().hex}"
os.environ["EXECSYNTH_TEST_SECRET"] = SECRET


def _descendants(root: int) -> set[int]:
    """Pids of the processes below `root` (this test run's own tree, never other work's)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def job_processes() -> list[int]:
    """Pids of this test run's processes running as the sandbox's job uid (there must be none
    between runs). Only our own tree counts: other sandboxes on the machine share the uid."""
    found = []
    for pid in sorted(_descendants(os.getpid())):
        try:
            with open(f"/proc/{pid}/status") as handle:
                for line in handle:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == DEFAULT_HOST_JOB_ID:
                            found.append(pid)
                        break
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as handle:
            return "State:\tZ" not in handle.read()
    except OSError:
        return False


@pytest.fixture(scope="session")
def sb() -> Iterator[Sandbox]:
    box = Sandbox(isolation="namespaces", workers=2, limits=TEST_LIMITS).start()
    yield box
    pids = box.forkserver_pids()
    box.close()
    assert not [pid for pid in pids if alive(pid)], "forkservers survived close()"


def job(code: str, entry: str = "f", args: str = "", **kw) -> Job:
    return Job(id=kw.pop("id", entry), code=code, entry_point=entry, args=args, **kw)
