"""The OpenAI (or compatible) client, built in one place from Settings, and its errors in plain words.

Both the chat path (planner, synthesizer) and the embedding provider build their client here, so the
key, base URL, timeout and retries are read the same way and a failure reads the same way: which
server did not answer, why, and what to change.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from core.config import Settings
from core.errors import ConfigError, ModelError

if TYPE_CHECKING:
    import openai

__all__ = ["OFFLINE_FIX", "ModelError", "client", "create_chat", "failure", "provider_error", "server_name"]

# What to change when the chat model cannot be used.
OFFLINE_FIX = (
    "Check OPENAI_BASE_URL and OPENAI_API_KEY, or set WORKBENCH_LLM=offline (or unset OPENAI_API_KEY) for offline mode."
)


_CLIENTS: dict[tuple[str, str | None, float, int], openai.OpenAI] = {}
_LOCK = threading.Lock()


def server_name(settings: Settings) -> str:
    """How the server is named in messages and logs: its base URL without user-info (a key or password
    written into OPENAI_BASE_URL as user:secret@ never reaches a page, the CLI or the query log), or
    api.openai.com."""
    return without_userinfo(settings.openai_base_url or "https://api.openai.com/v1")


def without_userinfo(url: str) -> str:
    """`url` with any `user:password@` removed (and its query string, where keys also end up)."""
    parts = urlsplit(url)
    if parts.hostname is None:
        return url.rsplit("@", 1)[-1]
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


NO_KEY = (
    "WORKBENCH_LLM=openai needs OPENAI_API_KEY: set it (any value for a local server that ignores keys), "
    "or set WORKBENCH_LLM=offline."
)


def client(settings: Settings, *, no_key: str = NO_KEY) -> openai.OpenAI:
    """The process's client for these settings (one connection pool per server, key, timeout and retries)."""
    if not settings.openai_api_key:
        raise ConfigError(no_key)
    import openai  # late: the offline paths never pay for importing the SDK

    key = (settings.openai_api_key, settings.openai_base_url, settings.openai_timeout, settings.openai_max_retries)
    with _LOCK:
        found = _CLIENTS.get(key)
        if found is None:
            found = _CLIENTS[key] = openai.OpenAI(
                api_key=settings.openai_api_key,
                base_url=settings.openai_base_url,
                timeout=settings.openai_timeout,
                max_retries=settings.openai_max_retries,
            )
    return found


def create_chat(api: openai.OpenAI, **params: Any) -> Any:
    """chat.completions.create at temperature 0; a model that refuses a temperature (reasoning models) is asked without."""
    import openai

    try:
        return api.chat.completions.create(**{"temperature": 0, **params})
    except openai.BadRequestError as exc:
        if "temperature" not in str(exc):
            raise
        return api.chat.completions.create(**params)


def _reason(exc: BaseException, settings: Settings) -> str:
    """Why the call failed, in one line."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return f"no reply within {settings.openai_timeout:g} s (WORKBENCH_OPENAI_TIMEOUT)"
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return f"connection failed ({type(cause).__name__}: {cause})"
    if isinstance(exc, openai.AuthenticationError):
        return f"the key was refused (HTTP {exc.status_code})"
    if isinstance(exc, openai.APIStatusError):
        # The server's own message when it sent one ({"error": {"message": ...}}), else the SDK's.
        body = exc.body if isinstance(exc.body, dict) else {}
        message = body.get("message") if isinstance(body.get("message"), str) else exc.message
        return f"HTTP {exc.status_code}: {message}"
    return f"{type(exc).__name__}: {exc}"


def failure(exc: BaseException, settings: Settings, *, role: str = "model") -> str:
    """One line: which server failed and why."""
    message = " ".join(f"The {role} server at {server_name(settings)} did not answer: {_reason(exc, settings)}".split())
    userinfo = urlsplit(settings.openai_base_url or "").netloc.rpartition("@")[0]
    # A driver's own message may quote the URL it was given: never with the user-info in it.
    return message.replace(userinfo + "@", "") if userinfo else message


def provider_error(
    exc: BaseException, settings: Settings, *, role: str = "model", fix: str = OFFLINE_FIX
) -> ModelError:
    """A ModelError saying which server failed, why, and what to change (one line: the CLI prints it as is)."""
    return ModelError(f"{failure(exc, settings, role=role)}. {fix}")
