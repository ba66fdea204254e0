"""Whether the demo room was loaded from these demo files into this database already: `make run` asks it on every
start (`python -m core.demo_stamp` exits 0 when so), before paying for `workbench demo` (the database's start and
the ingest modules' imports, 3-9 s). Standard library only, so the answer costs a Python start and nothing more.

The stamp (`WORKBENCH_HOME/demo-loaded`, written by `workbench demo` after a load with no failure) digests the
demo files' names, sizes and modification times, the database (DATABASE_URL, else the home of the embedded one)
and the demo room's name, read from the environment as core.config reads them.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

DEMO_FILES = Path(__file__).resolve().parent.parent / "data" / "demo"
STAMP_NAME = "demo-loaded"


def _env(name: str, default: str) -> str:
    value = os.environ.get(name, "")
    return value if value.strip() else default  # core.config: unset and empty variables keep their defaults


def stamp_path() -> Path:
    return Path(_env("WORKBENCH_HOME", ".workbench")) / STAMP_NAME


def fingerprint() -> str:
    """The demo files (names, sizes, modification times), the database and the room's name, digested."""
    files = sorted(p for p in DEMO_FILES.iterdir() if p.is_file()) if DEMO_FILES.is_dir() else []
    parts = [f"{p.name}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in files]
    target = _env("DATABASE_URL", "") or str(Path(_env("WORKBENCH_HOME", ".workbench")).resolve())
    parts += [f"db:{target}", f"room:{_env('WORKBENCH_DEMO_ROOM', 'Demo')}"]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def loaded() -> bool:
    """True when the stamp matches the demo files and database now."""
    try:
        return stamp_path().read_text().strip() == fingerprint()
    except OSError:
        return False


def write() -> None:
    """Record a load (a read-only home is left alone: the next start checks the database again)."""
    path = stamp_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fingerprint() + "\n")
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(0 if loaded() else 1)
