"""Settings: read from the environment, and every one of them documented in the README."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from core.config import Settings

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


@pytest.mark.parametrize("alias", [f.alias for f in Settings.model_fields.values()])
def test_every_setting_is_documented_in_the_readme(alias: str) -> None:
    assert f"`{alias}`" in README


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
