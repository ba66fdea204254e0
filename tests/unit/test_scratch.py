"""Issue 41, item 4: scratch folders under WORKBENCH_HOME/tmp are removed when their block ends however it ends, and
a worker sweeps those a killed process left (its pid no longer runs, or now names a later process)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.config import Settings
from core.ingest import scratch


def _settings(tmp_path: Path) -> Settings:
    return Settings.from_env({"WORKBENCH_HOME": str(tmp_path / "home")})


def _left(root: Path, name: str, *, age: float = 0.0) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "upload").write_bytes(b"x" * 1024)
    if age:
        then = time.time() - age
        os.utime(folder, (then, then))
    return folder


def test_a_block_that_raises_leaves_no_folder(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    with pytest.raises(RuntimeError), scratch.scratch(settings, "parse") as folder:
        (folder / "input").write_bytes(b"data")
        assert folder.name.startswith(f"parse-{os.getpid()}@{scratch.HOST}-")
        raise RuntimeError("the parse failed")
    assert list(scratch.root(settings).iterdir()) == []


def test_the_sweep_removes_what_dead_processes_left_and_nothing_else(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    root = scratch.root(settings)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    host = scratch.HOST
    gone = [
        _left(root, f"upload-{dead_pid}@{host}-abcdefgh"),  # its worker was killed
        # This pid runs, but its process started after the folder last changed: a later process given a dead one's pid.
        _left(root, f"parse-{os.getpid()}@{host}-abcdefgh", age=3600),
        _left(root, f"upload-{os.getpid()}@elsewhere-abcdefgh", age=scratch.FOREIGN_AFTER + 60),  # another host's, old
        _left(root, "upload-k2j4h5g6", age=scratch.FOREIGN_AFTER + 60),  # named before folders had owners, old
    ]
    kept = [
        _left(root, f"upload-{os.getpid()}@{host}-abcdefgh"),  # this process runs: its job is running
        _left(root, f"parse-{os.getpid()}@elsewhere-abcdefgh"),  # another host's, recent: cannot be checked yet
        _left(root, "upload-k2j4h5g7"),  # old naming, recent
        _left(root, "notes-of-someone"),  # not a scratch folder
    ]
    removed = scratch.sweep(settings)
    assert sorted(removed) == sorted(folder.name for folder in gone)
    assert sorted(p.name for p in root.iterdir()) == sorted(folder.name for folder in kept)
