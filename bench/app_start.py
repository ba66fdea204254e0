"""From `make run` to the first page in a browser: `python -m bench.app_start`.

Each run does what `make run` does in a fresh WORKBENCH_HOME (`workbench demo --no-embed --quiet`, then
`workbench serve`, local mode), waits until the server answers its health check ("server up"), then opens
the app in headless Chromium (Debian's, through Playwright) and waits for the Chat page's title. Printed: the
seconds from server up to the page shown, per run and their median, for the first start of a home (the app
embeds the demo room in the background meanwhile) and for a restart of the same home (all embedded). The
load average is printed too: the machines are shared. Target (issue 11): <= 5 s.

`--make`: the warm start of `make run` itself (issue 26: 5 s): a first `make run` in a fresh home loads the demo
room and embeds it, then each timed run is `make run` again in that home, from the command to the Chat page shown
in Chromium (the demo load, the server's start and the worker's start included). The checkout's Makefile is run
with this interpreter's environment (`VENV=`, its install stamp taken as done, `WORKBENCH="python -m core"`).

`--cold`: `make run` on a fresh clone of the checkout's HEAD (committed code only), as on a new machine: no virtual
environment and no download cache (`PIP_NO_CACHE_DIR`, `UV_NO_CACHE`: every wheel is fetched from the registry),
a fresh home, from the command to the Chat page shown in Chromium. Printed per run: the time of each `==>` step of
the Makefile (environment, installer, packages, model, demo load, server start) and the page after it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def free_port() -> int:
    """A TCP port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_and_open(browser, home: Path) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """`workbench serve` in `home`: (seconds to server up, seconds from server up to the Chat page shown)."""
    env = {**os.environ, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    env.pop("WORKBENCH_AUTH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine: compiled modules are cached
    env.pop("DATABASE_URL", None)
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "core", "serve", "--server.port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                time.sleep(0.05)
            if proc.poll() is not None:
                raise SystemExit(f"workbench serve exited with {proc.returncode}")
        up = time.perf_counter()
        tab = browser.new_page()
        tab.goto(url)
        tab.get_by_role("heading", name="Chat").wait_for(timeout=120_000)
        shown = time.perf_counter()
        tab.close()
        return up - started, shown - up
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _wait_up(url: str, proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
        if proc.poll() is not None:
            raise SystemExit(f"workbench serve exited with {proc.returncode}")


@contextmanager
def serving(home: Path, *, demo: bool = True) -> Iterator[str]:
    """`workbench demo --no-embed` (when `demo`) and `workbench serve` with one worker in `home`; yields the URL."""
    env = {**os.environ, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    env.pop("WORKBENCH_AUTH", None)
    env.pop("DATABASE_URL", None)
    if demo:
        subprocess.run([sys.executable, "-m", "core", "demo", "--no-embed", "--quiet"], env=env, check=True)
    port = free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    proc = subprocess.Popen(
        [sys.executable, "-m", "core", "serve", "--server.port", str(port)], cwd=ROOT, env=env, **quiet
    )  # type: ignore[call-overload]
    worker = subprocess.Popen([sys.executable, "-m", "core", "worker"], cwd=ROOT, env=env, **quiet)  # type: ignore[call-overload]
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, proc)
        yield url
    finally:
        for child in (proc, worker):
            child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a worker finishing its job on a loaded machine: the home goes anyway
                child.kill()
                child.wait()


def _make_to_chat(browser, argv: list[str], cwd: Path, env: dict[str, str], port: int,
                  steps: list[tuple[str, float]] | None = None) -> tuple[float, float]:  # type: ignore[no-untyped-def]  # fmt: skip
    """Run `make` (`argv`, serving on `port`) in its own session until the Chat page shows in `browser`, then stop
    it and what it started: (seconds to the server's health check, seconds to the Chat page). `steps` gets each
    `==>` line the Makefile prints with its time."""
    import signal
    import threading

    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)  # fmt: skip

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:  # read to the end, so make never blocks on a full pipe
            if steps is not None and line.startswith("==> "):
                steps.append((line[4:].strip(), time.perf_counter() - started))

    threading.Thread(target=read, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, proc)
        up = time.perf_counter() - started
        tab = browser.new_page()
        tab.goto(url)
        tab.get_by_role("heading", name="Chat").wait_for(timeout=300_000)
        shown = time.perf_counter() - started
        tab.close()
        return up, shown
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # make, the server and the worker it started (its own session)
        try:
            proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        time.sleep(1)


def make_run(browser, home: Path) -> float:  # type: ignore[no-untyped-def]
    """`make run` in `home`: seconds from the command to the Chat page shown (the server's start printed)."""
    venv = Path(sys.prefix)
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    for name in ("WORKBENCH_AUTH", "DATABASE_URL", "MAKEFLAGS", "MAKELEVEL"):
        env.pop(name, None)
    port = free_port()
    argv = ["make", "--no-print-directory", "-o", str(venv / ".installed"), "run", f"VENV={venv}",
            f"WORKBENCH={sys.executable} -m core", f"PORT={port}"]  # fmt: skip
    up, shown = _make_to_chat(browser, argv, ROOT, env, port)
    print(f"  server up {up:.2f} s after `make run`, Chat page {shown - up:.2f} s later", flush=True)
    return shown


def cold_run(browser) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    """`make run` on a fresh clone with nothing installed or cached: (step, seconds from the command) for each
    `==>` line the Makefile printed, then ("server up", s) and ("Chat page shown", s)."""
    where = Path(tempfile.mkdtemp(prefix="bench-cold-"))
    clone, home = where / "clone", where / "home"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {**os.environ, "WORKBENCH_HOME": str(home), "PIP_NO_CACHE_DIR": "1", "UV_NO_CACHE": "1"}
    for name in ("WORKBENCH_AUTH", "DATABASE_URL", "MAKEFLAGS", "MAKELEVEL", "VIRTUAL_ENV", "HF_HUB_OFFLINE"):
        env.pop(name, None)
    steps: list[tuple[str, float]] = []
    try:
        port = free_port()
        up, shown = _make_to_chat(browser, ["make", "--no-print-directory", "run", f"PORT={port}"], clone, env, port,
                                  steps)  # fmt: skip
        return [*steps, ("server up", up), ("Chat page shown", shown)]
    finally:
        shutil.rmtree(where, ignore_errors=True)


def main_cold(runs: int) -> None:
    from playwright.sync_api import sync_playwright

    totals = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for n in range(runs):
            load = os.getloadavg()[0]
            steps = cold_run(browser)
            totals.append(steps[-1][1])
            print(f"cold run {n + 1} (load {load:.2f}): make run -> Chat page shown {steps[-1][1]:.1f} s", flush=True)
            previous = 0.0
            for name, at in steps:
                print(f"  {at:6.1f} s (+{at - previous:5.1f})  {name}", flush=True)
                previous = at
        browser.close()
    print(f"median cold make run -> Chat page shown: {statistics.median(totals):.1f} s over {runs}")


def main_make(runs: int) -> None:
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="bench-make-run-"))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            first = make_run(browser, home)
            env = {**os.environ, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
            env.pop("DATABASE_URL", None)
            subprocess.run([sys.executable, "-m", "core", "embed", "--room", "Demo"], env=env, check=True)
            print(f"first make run in a fresh home (demo loaded): {first:.2f} s", flush=True)
            warm = []
            for n in range(runs):
                load = os.getloadavg()[0]
                warm.append(make_run(browser, home))
                print(f"warm run {n + 1}: make run -> Chat page shown {warm[-1]:.2f} s (load {load:.2f})", flush=True)
            browser.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"median warm make run -> Chat page shown: {statistics.median(warm):.2f} s over {runs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh homes to start (default 5)")
    parser.add_argument("--make", action="store_true", help="time a warm `make run` to the Chat page instead")
    parser.add_argument("--cold", action="store_true", help="time `make run` on a fresh clone, nothing installed")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if args.make or args.cold:
        load = os.getloadavg()
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores", flush=True)
        (main_cold if args.cold else main_make)(args.runs)
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        return

    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores", flush=True)
    first: list[float] = []
    again: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for n in range(args.runs):
            home = Path(tempfile.mkdtemp(prefix="bench-app-start-"))
            try:
                env = {**os.environ, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
                env.pop("DATABASE_URL", None)
                subprocess.run([sys.executable, "-m", "core", "demo", "--no-embed", "--quiet"], env=env, check=True)
                up, shown = start_and_open(browser, home)
                first.append(shown)
                # The first start embedded the demo room in the background: give it time to finish, then restart.
                subprocess.run([sys.executable, "-m", "core", "embed", "--room", "Demo"], env=env, check=True)
                up2, shown2 = start_and_open(browser, home)
                again.append(shown2)
                print(
                    f"run {n + 1}: first start: server up in {up:.2f} s, page {shown:.2f} s later; "
                    f"restart: up in {up2:.2f} s, page {shown2:.2f} s later",
                    flush=True,
                )
            finally:
                shutil.rmtree(home, ignore_errors=True)
        browser.close()
    print(
        f"median, server up -> Chat page shown: first start {statistics.median(first):.2f} s, restart {statistics.median(again):.2f} s"
    )
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
