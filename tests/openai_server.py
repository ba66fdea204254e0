"""A local HTTP server that speaks the OpenAI wire protocol, for testing the openai provider.

It serves POST /v1/embeddings with deterministic vectors (hashed bag of words, so texts sharing
words are close) and records every request it gets. Set `fail_next` to answer the next N
requests with HTTP 500.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def hashed_embedding(text: str, dimensions: int) -> list[float]:
    """A unit vector with one bucket per hashed lower-cased word."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        bucket = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big") % dimensions
        vector[bucket] += 1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


class OpenAIServer:
    """Start with `with OpenAIServer() as server:`; `server.base_url` ends in /v1."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append({"path": self.path, "body": body,
                                       "authorization": self.headers.get("Authorization")})
                if outer.fail_next > 0:
                    outer.fail_next -= 1
                    self._send(500, {"error": {"message": "test server failure", "type": "server_error"}})
                    return
                if self.path.rstrip("/").endswith("/embeddings"):
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    dims = int(body.get("dimensions") or 1536)
                    self._send(200, {
                        "object": "list",
                        "model": body.get("model"),
                        "data": [{"object": "embedding", "index": i, "embedding": hashed_embedding(t, dims)}
                                 for i, t in enumerate(inputs)],
                        "usage": {"prompt_tokens": 0, "total_tokens": 0},
                    })
                    return
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
