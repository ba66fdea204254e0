"""Parsing in a child process with an address-space limit and a timeout, so a hostile file fails alone.

A PDF page that inflates to 60 MB of text, or a workbook of a million copies of one long string, can make a
parser take gigabytes before any cap in the parser itself sees it (MuPDF lays a page out in C before Python
can count its characters). So every file is parsed in a child process whose address space is capped with
``setrlimit(RLIMIT_AS)`` (WORKBENCH_PARSE_MEMORY_MB) and which is killed after WORKBENCH_PARSE_TIMEOUT
seconds: past either, the file fails with ParserLimit saying what to do, and the process that asked (the
web app, a worker holding the embedding model) never grows. The children are forked from a forkserver that
has imported the parsers once (a fork takes milliseconds, a fresh interpreter over a second) and never
loads the embedding model, so the limit measures the parser alone.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import pickle
import re
import resource
import shutil
import sys
import threading
import time
import traceback
import types
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from core.config import Settings
from core.errors import IngestError, ParserLimit
from core.ingest.parse import Parsed, parse_file
from core.ingest.scratch import scratch

log = logging.getLogger(__name__)

_CONTEXT = multiprocessing.get_context("forkserver")
# The forkserver imports the parsers once; every child starts from that state.
_CONTEXT.set_forkserver_preload(["core.ingest.parse"])
_MB = 1024 * 1024
_START_LOCK = threading.Lock()
_last = threading.local()
# How MuPDF reports an allocation refused under the limit ("code=2: realloc (1060082208 bytes) failed").
_INPUT, _OUTPUT = "input", "output.pickle"
_ALLOC_FAILED = re.compile(r"\b(?:m|re|c)?alloc\b.*\bfailed|out of memory", re.IGNORECASE)


def last_peak_rss() -> int:
    """Peak resident memory (bytes) of the latest child this thread ran, failed or not (0 before any)."""
    return int(getattr(_last, "peak", 0))


@dataclass(frozen=True)
class Isolated:
    """A file parsed in the child, and the child's peak resident memory (bytes)."""

    parsed: Parsed
    peak_rss: int


@contextlib.contextmanager
def _main_hidden() -> Iterator[None]:
    """Start children without the main script: multiprocessing re-runs it in the forkserver and in each child
    (as __mp_main__), and the main script may be a Streamlit page (which Streamlit installs as __main__),
    a test or a benchmark, none of which is meant to run there."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")  # no __file__, no __spec__: nothing to re-run
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def _out_of_memory(exc: BaseException) -> bool:
    """Did parsing fail for want of memory (Python's MemoryError, or MuPDF's malloc failing under the limit)?"""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, MemoryError) or _ALLOC_FAILED.search(str(seen)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _child(conn: Connection, folder: str, filename: str, settings: Settings, limit: int) -> None:
    """Read the file the parent wrote to `folder`, parse it, write the result there, then say so on `conn`."""
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    message: tuple[str, Any]
    try:
        data = (Path(folder) / _INPUT).read_bytes()
        message = ("ok", parse_file(data, filename, settings))
        del data
    except MemoryError:
        message = ("memory", None)
    except IngestError as exc:
        message = ("memory", None) if _out_of_memory(exc) else ("error", exc)
    except Exception:
        message = ("bug", traceback.format_exc())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    kind = message[0]
    try:
        # Written to a file, not the pipe: the parent reads it back object by object (pickle.load), never
        # holding the whole pickle and its objects at once.
        with (Path(folder) / _OUTPUT).open("wb") as out:
            pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:  # pickling a huge result needs memory too
        kind = "memory"
    peak = max(peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    conn.send((kind, peak))
    conn.close()


def _run_child(folder: str, filename: str, settings: Settings, limit: int) -> tuple[str, int]:
    """Run the child on `folder` until it reports (kind, peak) or the timeout, counted from its start, passes.

    A child killed by a signal reports ("died", exit code)."""
    receive, send = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(
        target=_child, args=(send, folder, filename, settings, limit), name=f"parse {filename}", daemon=True
    )
    deadline = time.monotonic() + settings.parse_timeout
    with _START_LOCK, _main_hidden():
        child.start()
    send.close()
    try:
        if not receive.poll(max(0.0, deadline - time.monotonic())):
            child.kill()
            raise ParserLimit(
                f"{filename} took over {settings.parse_timeout:g} s to read and was stopped (it may be built to "
                "stall a parser). Split it into smaller files, or raise WORKBENCH_PARSE_TIMEOUT if it is genuine."
            )
        try:
            kind, peak = receive.recv()
        except EOFError:
            child.join(10)
            return "died", int(child.exitcode or 0)
    finally:
        receive.close()
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
    return str(kind), int(peak)


def start_forkserver() -> None:
    """Start the forkserver now (it imports the parsers, ~1-3 s) rather than in the first file's parse."""
    from multiprocessing import forkserver

    with _START_LOCK, _main_hidden():
        forkserver.ensure_running()


def parse_isolated(data: bytes | Path, filename: str, settings: Settings) -> Isolated:
    """Parse a file (its bytes, or a file holding them) in a memory- and time-limited child; its IngestError (or
    ParserLimit) is raised here.

    The bytes go to the child through a private temporary file (written from `data` without a copy, or linked to
    the file `data` names: handing them as an argument pickled a second copy in this process), and the result
    comes back the same way. The timeout covers the whole parse: reading, parsing, building the tables and
    writing the result."""
    limit = settings.parse_memory_mb * _MB
    with scratch(settings, "parse") as folder:
        if isinstance(data, Path):
            try:
                os.link(data, Path(folder) / _INPUT)
            except OSError:  # another file system
                shutil.copyfile(data, Path(folder) / _INPUT)
        else:
            with (Path(folder) / _INPUT).open("wb") as f:
                f.write(data)
        kind, peak = _run_child(str(folder), filename, settings, limit)
        value: Any = None
        if kind == "ok" or kind == "error" or kind == "bug":
            with (Path(folder) / _OUTPUT).open("rb") as f:
                kind, value = pickle.load(f)
        elif kind == "died":
            kind, value = "died", peak
            peak = 0
    _last.peak = peak
    log.info("parsed %s in a child: peak %.0f MB (%s)", filename, peak / _MB, kind)
    if kind == "ok":
        return Isolated(value, peak)
    if kind == "error":
        raise value
    if kind == "died":
        # Killed by a signal (the kernel's OOM killer, a crash in C): the file is what made it die, and
        # retrying it would only do it again.
        raise ParserLimit(
            f"The parser stopped while reading {filename} (exit code {value}): the file is damaged or built to "
            f"exhaust memory (the limit is {settings.parse_memory_mb:,} MB). Open and save it again, or split it."
        )
    if kind == "memory":
        raise ParserLimit(
            f"{filename} needs more than {settings.parse_memory_mb:,} MB of memory to read, so it was stopped "
            "(it may be built to exhaust memory). Split it into smaller files, or raise "
            "WORKBENCH_PARSE_MEMORY_MB if it is genuine."
        )
    raise RuntimeError(f"parsing {filename} failed in its child process:\n{value}")
