"""The first page's imports, made in the background once Streamlit's server is up (`workbench serve`).

Streamlit runs app.py only when a browser connects, so what the first page imports (the workbench, the question
path, pandas, PyMuPDF: about 2 s) was paid either before the server listened or by the first visitor. Imported
in a thread once the server is up, it overlaps with the browser loading the page's scripts (another process, on
the other core). Not sooner: while Streamlit starts, its own imports meet half-imported modules of another
thread (plotly read a half-initialised pandas). The thread then starts the embedded database (`_warm`). app.py
waits for the thread before its own imports, so the page never meets them half-done either.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time

MODULES = ("core.workbench", "core.qa.service")
SERVER_WAIT_S = 120.0  # a server that is not up by then: the page imports what it needs itself
_thread: threading.Thread | None = None


def _server_up() -> bool:
    """Streamlit's runtime has started (read from sys.modules: importing Streamlit here would race its start)."""
    module = sys.modules.get("streamlit.runtime.runtime")
    # Present but still being imported by the main thread: its names come as it runs.
    runtime, states = getattr(module, "Runtime", None), getattr(module, "RuntimeState", None)
    if runtime is None or states is None or not runtime.exists():
        return False
    return bool(runtime.instance().state != states.INITIAL)


def _import_all() -> None:
    deadline = time.monotonic() + SERVER_WAIT_S
    while not _server_up():
        if time.monotonic() > deadline:
            return
        time.sleep(0.02)
    try:
        for name in MODULES:
            importlib.import_module(name)
        _warm()
    except Exception:  # the page does it again and shows the real error there
        return


def _warm() -> None:
    """What the first page run would do first, done now: start the embedded Postgres (core.db caches it), and
    spare Streamlit's once-per-process check for a bare `python` run (it walks the stack, reading the source of
    every frame's module: 0.3-0.6 s of the first page)."""
    from core.config import get_settings
    from core.db import embedded_url

    delta_generator = sys.modules.get("streamlit.delta_generator")
    if delta_generator is not None and hasattr(delta_generator, "_use_warning_has_been_displayed"):
        delta_generator._use_warning_has_been_displayed = True  # type: ignore[attr-defined]  # `streamlit run` it is
    settings = get_settings()
    if not settings.database_url:
        embedded_url(settings.home)


def start() -> None:
    """Import MODULES in a daemon thread once the server is up (once)."""
    global _thread
    if _thread is None:
        _thread = threading.Thread(target=_import_all, name="workbench-preload", daemon=True)
        _thread.start()


def wait() -> None:
    """Return once the background imports are done (at once when none were started)."""
    if _thread is not None:
        _thread.join()
