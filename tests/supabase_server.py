"""A local HTTP server answering Supabase Auth's (GoTrue) password sign-in, for testing WORKBENCH_AUTH=supabase.

POST /auth/v1/token?grant_type=password with {"email", "password"}: the session of a known user, or
HTTP 400 "Invalid login credentials" as GoTrue answers. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.openai_server import LocalServer, send_json


class SupabaseAuthServer(LocalServer):
    """Start with `with SupabaseAuthServer({"ann@example.com": "password"}) as server:`; `server.url`."""

    def __init__(self, accounts: dict[str, str]) -> None:
        self.accounts = accounts
        self.ids = {email: str(uuid.uuid4()) for email in accounts}
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def _send(self, status: int, body: dict[str, Any]) -> None:
                send_json(self, status, body)

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                outer.requests.append({"path": self.path, "body": body, "apikey": self.headers.get("apikey")})
                email, password = body.get("email", ""), body.get("password", "")
                if not self.path.startswith("/auth/v1/token") or outer.accounts.get(email) != password:
                    self._send(
                        400, {"code": 400, "error_code": "invalid_credentials", "msg": "Invalid login credentials"}
                    )
                    return
                now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                user = {
                    "id": outer.ids[email],
                    "aud": "authenticated",
                    "role": "authenticated",
                    "email": email,
                    "app_metadata": {"provider": "email"},
                    "user_metadata": {"full_name": email.split("@")[0].title()},
                    "created_at": now,
                    "updated_at": now,
                }
                self._send(
                    200,
                    {
                        "access_token": "a.b.c",
                        "token_type": "bearer",
                        "expires_in": 3600,
                        "expires_at": int(time.time()) + 3600,
                        "refresh_token": "r",
                        "user": user,
                    },
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
