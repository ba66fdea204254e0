"""`workbench serve`: local mode serves this computer only; the team modes leave the address to Streamlit."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from core.cli import APP, cli, server_argv
from core.config import Settings
from core.errors import WorkbenchError


def test_local_mode_listens_on_loopback_only() -> None:
    argv = server_argv(Settings.from_env({}), ("--server.port", "8600"))
    assert argv[1] == "-c" and argv[3:5] == ["run", str(APP)] and APP.is_file()
    assert argv[5:] == ["--server.address", "127.0.0.1", "--server.port", "8600"]


def test_team_modes_keep_streamlit_s_address() -> None:
    argv = server_argv(Settings.from_env({"WORKBENCH_AUTH": "accounts"}), ("--server.address", "0.0.0.0"))
    assert argv[-2:] == ["--server.address", "0.0.0.0"] and argv.count("--server.address") == 1


@pytest.mark.parametrize("option", [("--server.address", "0.0.0.0"), ("--server.address=192.168.1.5",)])
def test_local_mode_refuses_to_open_the_app_to_the_network(option: tuple[str, ...]) -> None:
    with pytest.raises(WorkbenchError, match="WORKBENCH_AUTH=accounts"):
        server_argv(Settings.from_env({}), option)


def test_the_command_says_so_and_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.config import get_settings

    monkeypatch.delenv("WORKBENCH_AUTH", raising=False)
    monkeypatch.delenv("SUPABASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(cli, ["serve", "--server.address", "0.0.0.0"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 1
    assert "serves this computer only" in result.output


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "192.168.1.5", "", None, "example.com"])
def test_the_app_itself_refuses_to_serve_local_mode_beyond_loopback(address: str | None) -> None:
    """`streamlit run app.py --server.address 0.0.0.0` (or no address: Streamlit's every interface) in local
    mode: app.py shows this and stops (tests/app/test_app_serve.py runs it)."""
    from core.workbench import Workbench

    refusal = Workbench.exposure_refusal(Settings.from_env({}), address)
    assert refusal is not None and "WORKBENCH_AUTH=accounts" in refusal and "workbench serve" in refusal


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_the_app_serves_local_mode_on_loopback(address: str) -> None:
    from core.workbench import Workbench

    assert Workbench.exposure_refusal(Settings.from_env({}), address) is None


@pytest.mark.parametrize("address", ["0.0.0.0", None])
def test_the_team_modes_serve_where_streamlit_is_told(address: str | None) -> None:
    from core.workbench import Workbench

    assert Workbench.exposure_refusal(Settings.from_env({"WORKBENCH_AUTH": "accounts"}), address) is None
