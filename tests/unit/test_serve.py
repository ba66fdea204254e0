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
