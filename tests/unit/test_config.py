"""Settings: read from the environment, and every one of them documented in docs/configuration.md."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from core.config import Settings

CONFIGURATION_DOC = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()


@pytest.mark.parametrize("alias", [f.alias for f in Settings.model_fields.values()])
def test_every_setting_is_documented_in_the_configuration_doc(alias: str) -> None:
    # Documented = a row of its own in one of the doc's tables (variable | default | meaning), not a passing mention.
    assert f"\n| `{alias}` |" in CONFIGURATION_DOC


def test_defaults_are_offline_and_embedded() -> None:
    settings = Settings.from_env({})
    assert settings.database_url is None and settings.llm_provider == "offline"
    assert settings.embeddings == "local" and settings.home == Path(".workbench")


def test_a_key_switches_the_llm_to_openai_unless_told_otherwise() -> None:
    assert Settings.from_env({"OPENAI_API_KEY": "k"}).llm_provider == "openai"
    assert Settings.from_env({"OPENAI_API_KEY": "k", "WORKBENCH_LLM": "offline"}).llm_provider == "offline"


def test_empty_variables_keep_defaults_and_bad_values_are_refused() -> None:
    assert Settings.from_env({"DATABASE_URL": "  "}).database_url is None
    assert Settings.from_env({"WORKBENCH_MAX_FILE_MB": "1.5"}).max_file_bytes == int(1.5 * 1024 * 1024)
    with pytest.raises(ValidationError):
        Settings.from_env({"WORKBENCH_EMBEDDINGS": "cohere"})


def test_local_mode_has_no_question_limit_and_the_team_modes_keep_it() -> None:
    assert Settings.from_env({}).rate_limit == 0  # one person on their own computer
    assert Settings.from_env({"WORKBENCH_AUTH": "accounts"}).rate_limit == 60
    supabase = {"SUPABASE_URL": "https://x.supabase.co", "SUPABASE_ANON_KEY": "k"}
    assert Settings.from_env(supabase).rate_limit == 60
    assert Settings.from_env({"WORKBENCH_RATE_LIMIT": "5"}).rate_limit == 5  # an explicit limit holds in any mode
    assert Settings.from_env({"WORKBENCH_AUTH": "accounts", "WORKBENCH_RATE_LIMIT": "0"}).rate_limit == 0


def test_local_mode_serves_this_computer_only() -> None:
    assert Settings.from_env({}).server_address == "127.0.0.1"
    assert Settings.from_env({"WORKBENCH_AUTH": "accounts"}).server_address is None  # Streamlit's default: all
