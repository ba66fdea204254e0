"""Wall time of `workbench` commands from a cold process: `python -m bench.cli_latency`.

Each command runs --runs times as its own process (`python -m core ...`, what `workbench` runs), against the
demo data room with its vectors (loaded once into --home when missing, embedded). Printed per command: the
median and the spread of the wall times, and whether the process imported torch (read from `-X importtime`
in one extra run). The load average is printed before and after: the machines are shared, and a busy
machine stretches every figure. Target (issue 11): `ask` and `search` <= 3 s, no torch where no document is
embedded.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "rooms --json": ["rooms", "--json"],
    "search (vectors + keywords)": ["search", "net revenue retention", "--room", "Demo", "--k", "5", "--json"],
    "ask, a table question": ["ask", "How much was raised in Canada in 2021?", "--room", "Demo", "--json"],
    "ask, a passage question": ["ask", "What was the net revenue retention?", "--room", "Demo", "--json"],
}


def run(args: list[str], env: dict[str, str], *, importtime: bool = False) -> tuple[float, str]:
    """One cold `python -m core ARGS`: its wall seconds and its stderr (exits non-zero on failure)."""
    cmd = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "core", *args]
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return seconds, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    parser.add_argument("--home", type=Path, default=Path(".workbench/bench-cli"), help="WORKBENCH_HOME to use")
    args = parser.parse_args()
    env = {**os.environ, "WORKBENCH_HOME": str(args.home), "HF_HUB_OFFLINE": "1", "WORKBENCH_RATE_LIMIT": "0"}
    # As on a user's machine, Python caches compiled modules (some sandboxes turn that off: ~1 s a command).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print("preparing the demo room (embedded) ...", flush=True)
    subprocess.run([sys.executable, "-m", "core", "demo", "--quiet"], env=env, check=True)
    load_before = os.getloadavg()
    print(
        f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} on {os.cpu_count()} cores"
    )
    print(f"{'command':<30} {'median s':>9} {'min s':>7} {'max s':>7}  torch imported")
    for name, command in COMMANDS.items():
        walls = [run(command, env)[0] for _ in range(args.runs)]
        stderr = run(command, env, importtime=True)[1]
        torch = any(line.split("|")[-1].strip() == "torch" for line in stderr.splitlines())
        print(
            f"{name:<30} {statistics.median(walls):>9.2f} {min(walls):>7.2f} {max(walls):>7.2f}  "
            f"{'yes' if torch else 'no'}",
            flush=True,
        )
    load_after = os.getloadavg()
    print(f"load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")


if __name__ == "__main__":
    main()
