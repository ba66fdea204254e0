"""Settings: the one place configuration is read from the environment."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

TEAM_RATE_LIMIT = 60  # questions per user, room and hour on a shared server, unless WORKBENCH_RATE_LIMIT says
LOOPBACK = "127.0.0.1"


class Settings(BaseModel):
    """Every setting of the workbench; each field reads the environment variable in its alias."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    home: Path = Field(
        Path(".workbench"),
        alias="WORKBENCH_HOME",
        description="Data directory: the embedded Postgres cluster and caches live here.",
    )
    database_url: str | None = Field(
        None,
        alias="DATABASE_URL",
        description="libpq URI of a Postgres 15+ with pgvector (e.g. Supabase); unset = embedded server.",
    )
    app_database_url: str | None = Field(
        None,
        alias="WORKBENCH_APP_DATABASE_URL",
        description="How the app connects as the workbench_app role (row-level security applies to it); "
        "required in the team modes, as that role's own login (`workbench setup` prints it); unset in local "
        "mode = DATABASE_URL's login taking that role.",
    )
    login_database_url: str | None = Field(
        None,
        alias="WORKBENCH_LOGIN_DATABASE_URL",
        description="How sign-in connects as the workbench_login role (reads password hashes, issues the "
        "signed tokens that name each transaction's user); required in the team modes, as that role's own "
        "login (`workbench setup` prints it); unset in local mode = DATABASE_URL's login taking that role.",
    )
    auth: Literal["none", "accounts", "supabase"] | None = Field(
        None,
        alias="WORKBENCH_AUTH",
        description="Sign-in: none (one local user owning every room), accounts (e-mail + password in the "
        "database), supabase (Supabase Auth); default supabase when SUPABASE_URL and SUPABASE_ANON_KEY are set.",
    )
    supabase_url: str | None = Field(None, alias="SUPABASE_URL", description="Supabase project URL (auth=supabase).")
    supabase_anon_key: str | None = Field(
        None, alias="SUPABASE_ANON_KEY", description="Supabase anon (public) key (auth=supabase)."
    )
    openai_api_key: str | None = Field(
        None, alias="OPENAI_API_KEY", description="Key for OpenAI or an OpenAI-compatible server."
    )
    openai_base_url: str | None = Field(
        None,
        alias="OPENAI_BASE_URL",
        description="Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp, Azure).",
    )
    llm: Literal["openai", "offline"] | None = Field(
        None,
        alias="WORKBENCH_LLM",
        description="Planner/synthesizer provider; default openai when OPENAI_API_KEY is set, else offline.",
    )
    chat_model: str = Field(
        "gpt-4o-mini", alias="WORKBENCH_CHAT_MODEL", description="Chat model name for the openai provider."
    )
    embeddings: Literal["local", "openai"] = Field(
        "local",
        alias="WORKBENCH_EMBEDDINGS",
        description="Embedding provider: local all-MiniLM-L6-v2 (offline) or openai.",
    )
    local_embedder: Literal["numpy", "torch"] = Field(
        "numpy",
        alias="WORKBENCH_LOCAL_EMBEDDER",
        description="What runs the local model on documents: numpy, or sentence-transformers (the torch extra).",
    )
    embedding_model: str = Field(
        "text-embedding-3-small",
        alias="WORKBENCH_EMBEDDING_MODEL",
        description="Embedding model name for the openai provider (asked for 384 dimensions).",
    )
    openai_timeout: float = Field(
        60.0, alias="WORKBENCH_OPENAI_TIMEOUT", description="Seconds before a model call is abandoned."
    )
    openai_max_retries: int = Field(
        2, alias="WORKBENCH_OPENAI_MAX_RETRIES", description="Retries of a failed model call."
    )
    rerank: Literal["on", "off"] = Field(
        "on",
        alias="WORKBENCH_RERANK",
        description="Rerank the search's first pages (docs/answering.md): on (by WORKBENCH_RERANK_MODEL when set, "
        "else by the heuristic) or off (the fused ranking as is).",
    )
    rerank_model: str | None = Field(
        None,
        alias="WORKBENCH_RERANK_MODEL",
        description="Chat model on the OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY) that scores the "
        "search's first pages; unset = the heuristic scores them.",
    )
    rerank_timeout: float = Field(
        10.0,
        gt=0,
        alias="WORKBENCH_RERANK_TIMEOUT",
        description="Seconds the chat model may take to score the search's pages; then the heuristic order stands.",
    )
    max_file_mb: float = Field(
        200.0, alias="WORKBENCH_MAX_FILE_MB", description="Uploads larger than this many MB are refused."
    )
    max_pdf_pages: int = Field(
        5000, alias="WORKBENCH_MAX_PDF_PAGES", description="PDFs with more pages than this are refused."
    )
    max_page_chars: int = Field(
        200_000,
        alias="WORKBENCH_MAX_PAGE_CHARS",
        description="A PDF page whose text is longer than this many characters is refused (a dense page holds ~10k).",
    )
    max_file_chars: int = Field(
        30_000_000,
        alias="WORKBENCH_MAX_FILE_CHARS",
        description="A file whose extracted text (pages or cells) is longer than this many characters is refused.",
    )
    max_cells: int = Field(
        3_000_000, alias="WORKBENCH_MAX_CELLS", description="A CSV or XLSX file with more non-empty cells is refused."
    )
    parse_memory_mb: int = Field(
        1536,
        alias="WORKBENCH_PARSE_MEMORY_MB",
        description="Address space (MB) the child process that parses a file may take; over it the file fails.",
    )
    parse_timeout: float = Field(
        300.0, alias="WORKBENCH_PARSE_TIMEOUT", description="Seconds a file may take to parse before it fails."
    )
    chunk_chars: int = Field(1200, alias="WORKBENCH_CHUNK_CHARS", description="Target characters per PDF chunk.")
    chunk_overlap: int = Field(
        200, alias="WORKBENCH_CHUNK_OVERLAP", description="Characters shared by neighbouring PDF chunks."
    )
    pool_max: int = Field(10, alias="WORKBENCH_POOL_MAX", description="Largest number of pooled database connections.")
    redact_pii: bool = Field(
        True,
        alias="WORKBENCH_REDACT_PII",
        description="Redact emails, phones, cards, IBANs and national IDs from the query log and from text sent to a model.",
    )
    rate_limit_per_hour: int | None = Field(
        None,
        ge=0,
        alias="WORKBENCH_RATE_LIMIT",
        description="Whether this process counts questions against the database's limit (any number above 0: "
        "yes; 0: no); unset = off in local mode (auth none), on in the team modes. The limit itself (60 a user "
        "an hour by default) is the database owner's: `workbench limits --questions N`.",
    )
    search_rate_limit_per_hour: int = Field(
        600,
        ge=0,
        alias="WORKBENCH_SEARCH_RATE_LIMIT",
        description="Whether searches are counted against the database's limit (600 a user an hour by default, "
        "`workbench limits --searches N`) when embeddings come from a remote server (WORKBENCH_EMBEDDINGS=openai: "
        "each search is a paid call); 0 turns counting off.",
    )
    demo_room: str = Field(
        "Demo", alias="WORKBENCH_DEMO_ROOM", description="Name of the demo data room loaded on first start."
    )
    load_demo: bool = Field(
        True, alias="WORKBENCH_LOAD_DEMO", description="Load the bundled demo data room on first start."
    )

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Read settings from the environment (unset and empty variables keep their defaults)."""
        env = os.environ if environ is None else environ
        values = {
            field.alias: env[field.alias]
            for field in cls.model_fields.values()
            if field.alias and env.get(field.alias, "").strip()
        }
        return cls.model_validate(values)

    @property
    def llm_provider(self) -> Literal["openai", "offline"]:
        """The provider in force: the explicit choice, else openai when a key is set."""
        if self.llm:
            return self.llm
        return "openai" if self.openai_api_key else "offline"

    @property
    def auth_mode(self) -> Literal["none", "accounts", "supabase"]:
        """The sign-in mode in force: the explicit choice, else supabase when its URL and key are set."""
        if self.auth:
            return self.auth
        return "supabase" if self.supabase_url and self.supabase_anon_key else "none"

    @property
    def rate_limit(self) -> int:
        """Whether questions are counted (0: not): the explicit value, else 60 in the team modes (the size of the limit
        is the database owner's rule, `workbench limits`).

        Local mode is one person on their own computer, whom a limit only gets in the way of; a limit guards a
        shared server's cost and capacity against one user.
        """
        if self.rate_limit_per_hour is not None:
            return self.rate_limit_per_hour
        return 0 if self.auth_mode == "none" else TEAM_RATE_LIMIT

    @property
    def server_address(self) -> str | None:
        """The address the app listens on: loopback only in local mode (no sign-in); None = Streamlit's choice."""
        return LOOPBACK if self.auth_mode == "none" else None

    @property
    def max_file_bytes(self) -> int:
        """The upload size limit in bytes."""
        return int(self.max_file_mb * 1024 * 1024)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once."""
    return Settings.from_env()
