"""Scratch folders under WORKBENCH_HOME/tmp (a queued upload's copy, a parse's input and output), and the sweep that
removes those a dead process left.

A folder is removed when its block ends, however the job ends (done, failed, raised); a worker killed mid-job
(SIGKILL, the OOM killer, a power cut) cannot remove its own, so each folder is named after the process that made
it (`upload-<pid>@<host>-xxxxxxxx`), and every worker sweeps the folders of processes of its host that no longer
run (at start and at each heartbeat). Folders it cannot check (another host sharing the folder, or made before
folders were named so) are removed once older than FOREIGN_AFTER.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

from core.config import Settings

log = logging.getLogger(__name__)

HOST = socket.gethostname()
# A folder whose maker cannot be checked from here is taken for left behind after this many seconds (a day: longer
# than any job, parse and embedding together, runs).
FOREIGN_AFTER = 24 * 3600.0
_OWNED = re.compile(r"^(?:upload|parse)-(\d+)@(.*)-[a-z0-9_]{8}$")
_LEGACY = re.compile(r"^(?:upload|parse)-[a-z0-9_]{8}$")


def root(settings: Settings) -> Path:
    """WORKBENCH_HOME/tmp, made if missing."""
    folder = settings.home / "tmp"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.contextmanager
def scratch(settings: Settings, kind: str) -> Iterator[Path]:
    """A private folder `kind-<pid>@<host>-xxxxxxxx` under WORKBENCH_HOME/tmp, removed when the block ends."""
    with tempfile.TemporaryDirectory(prefix=f"{kind}-{os.getpid()}@{HOST}-", dir=root(settings)) as folder:
        yield Path(folder)


def _maker_runs(pid: int, changed: float) -> bool:
    """Whether process `pid` runs and is the one that last changed the folder (not a later one given its pid)."""
    try:
        return psutil.Process(pid).create_time() <= changed + 1.0
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False


def left_behind(entry: Path, now: float) -> bool:
    """Whether a folder of WORKBENCH_HOME/tmp was left by a process that no longer runs."""
    changed = entry.stat().st_mtime
    owned = _OWNED.match(entry.name)
    if owned and owned.group(2) == HOST:
        return not _maker_runs(int(owned.group(1)), changed)
    if owned or _LEGACY.match(entry.name):
        return now - changed > FOREIGN_AFTER
    return False  # not one of ours: left alone


def sweep(settings: Settings, now: float | None = None) -> list[str]:
    """Remove the scratch folders dead processes left under WORKBENCH_HOME/tmp; return their names."""
    now = time.time() if now is None else now
    removed = []
    for entry in sorted(root(settings).iterdir()):
        try:
            if entry.is_dir() and left_behind(entry, now):
                shutil.rmtree(entry)
                removed.append(entry.name)
        except OSError as exc:  # removed meanwhile by another worker, or not ours to remove
            log.debug("scratch %s: %s", entry, exc)
    if removed:
        log.info("removed %d scratch folder(s) left by stopped processes: %s", len(removed), ", ".join(removed))
    return removed
