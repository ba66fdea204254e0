"""A local HTTP server that speaks the OpenAI wire protocol, for testing the openai provider.

It serves POST /v1/embeddings with deterministic vectors (hashed bag of words, so texts sharing
words are close) and POST /v1/chat/completions with scripted replies, and records every request
it gets. Set `fail_next` to answer the next N requests with HTTP 500.

Chat replies are scripted per request: push onto `server.chat` (a queue, first in first out) any of
`Reply(text)` (a completion; streamed as SSE chunks when the request asks for `stream`),
`Status(code)` (an HTTP error), `Delay(seconds, then)` (wait, then answer `then`),
`BreakOff(text, after)` (stream `after` chunks of `text`, then drop the connection mid-body), or a
callable taking the request body and returning one of those. With the queue empty, `chat_default`
answers (a callable or a reply); with neither, the server answers HTTP 500 "no scripted reply".
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


def hashed_embedding(text: str, dimensions: int) -> list[float]:
    """A unit vector with one bucket per hashed lower-cased word."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        bucket = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big") % dimensions
        vector[bucket] += 1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


def pieces(text: str) -> list[str]:
    """The text cut as a model streams it: words with their following spaces, long words halved."""
    out: list[str] = []
    for word in re.findall(r"\S+\s*|\s+", text):
        if len(word) > 8:
            out.extend([word[: len(word) // 2], word[len(word) // 2 :]])
        else:
            out.append(word)
    return out


@dataclass
class Reply:
    """A completion whose message content is `text` (streamed in pieces when the request streams)."""

    text: str
    finish_reason: str = "stop"


@dataclass
class Status:
    """An HTTP error answer."""

    code: int
    message: str = "test server failure"


@dataclass
class Delay:
    """Wait `seconds` (e.g. longer than the client's timeout), then answer `then`."""

    seconds: float
    then: Reply | Status


@dataclass
class BreakOff:
    """Stream the first `after` pieces of `text`, then drop the connection in the middle of the body."""

    text: str
    after: int = 3


Scripted = Reply | Status | Delay | BreakOff
Script = Scripted | Callable[[dict[str, Any]], Scripted]


def send_json(handler: BaseHTTPRequestHandler, status: int, body: dict[str, Any]) -> None:
    """Answer a request with `body` as JSON and a Content-Length (keep-alive friendly)."""
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
        "choices": [{"index": 0, "finish_reason": reply.finish_reason, "logprobs": None,
                     "message": {"role": "assistant", "content": reply.text, "refusal": None}}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }  # fmt: skip


def _chunk(body: dict[str, Any], delta: dict[str, Any], finish_reason: str | None) -> bytes:
    data = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}],
    }
    return f"data: {json.dumps(data)}\n\n".encode()


class LocalServer:
    """A test HTTP server on 127.0.0.1 run in a thread while used as a context manager."""

    _server: ThreadingHTTPServer
    _thread: threading.Thread

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class OpenAIServer(LocalServer):
    """Start with `with OpenAIServer() as server:`; `server.base_url` ends in /v1."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0
        self.chat: deque[Script] = deque()
        self.chat_default: Script | None = None
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # chunked streams, so a stream can break off mid-body

            def log_message(self, *args: Any) -> None:
                return None

            def setup(self) -> None:
                super().setup()
                # Headers and body go out in separate writes: without this, Nagle's algorithm and
                # delayed ACKs add ~40 ms to every keep-alive request.
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def handle(self) -> None:
                try:
                    super().handle()
                except ConnectionResetError:
                    pass  # the client closed a kept-alive connection (its pool or its timeout): not an error

            def _send(self, status: int, body: dict[str, Any]) -> None:
                send_json(self, status, body)

            def _write_chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _stream(self, body: dict[str, Any], text: str, finish_reason: str, break_after: int | None) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self._write_chunk(_chunk(body, {"role": "assistant", "content": ""}, None))
                for i, piece in enumerate(pieces(text)):
                    if break_after is not None and i == break_after:
                        # Half a chunk, then the socket goes: the client sees an incomplete chunked body.
                        self.wfile.write(b'40\r\ndata: {"trunc')
                        self.wfile.flush()
                        self.close_connection = True
                        self.connection.shutdown(socket.SHUT_RDWR)
                        return
                    self._write_chunk(_chunk(body, {"content": piece}, None))
                    time.sleep(0.002)
                self._write_chunk(_chunk(body, {}, finish_reason))
                self._write_chunk(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            def _chat(self, body: dict[str, Any]) -> None:
                script = outer.chat.popleft() if outer.chat else outer.chat_default
                if script is None:
                    self._send(500, {"error": {"message": "no scripted reply", "type": "server_error"}})
                    return
                reply = script(body) if callable(script) else script
                if isinstance(reply, Delay):
                    time.sleep(reply.seconds)
                    reply = reply.then
                if isinstance(reply, Status):
                    self._send(reply.code, {"error": {"message": reply.message, "type": "server_error"}})
                elif isinstance(reply, BreakOff):
                    self._stream(body, reply.text, "stop", reply.after)
                elif body.get("stream"):
                    self._stream(body, reply.text, reply.finish_reason, None)
                else:
                    self._send(200, _completion(body, reply))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append(
                    {"path": self.path, "body": body, "authorization": self.headers.get("Authorization")}
                )
                try:
                    if outer.fail_next > 0:
                        outer.fail_next -= 1
                        self._send(500, {"error": {"message": "test server failure", "type": "server_error"}})
                    elif self.path.rstrip("/").endswith("/embeddings"):
                        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                        dims = int(body.get("dimensions") or 1536)
                        self._send(
                            200,
                            {
                                "object": "list",
                                "model": body.get("model"),
                                "data": [
                                    {"object": "embedding", "index": i, "embedding": hashed_embedding(t, dims)}
                                    for i, t in enumerate(inputs)
                                ],
                                "usage": {"prompt_tokens": 0, "total_tokens": 0},
                            },
                        )
                    elif self.path.rstrip("/").endswith("/chat/completions"):
                        self._chat(body)
                    else:
                        self._send(
                            404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}}
                        )
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up (its timeout): nothing to answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def chat_requests(self) -> list[dict[str, Any]]:
        """The chat completion requests received so far, oldest first."""
        return [r for r in self.requests if r["path"].rstrip("/").endswith("/chat/completions")]


def pointed_at(settings: Any, server: OpenAIServer, **update: Any) -> Any:
    """`settings` with model calls sent to this test server (test key, no retries, 5 s timeout) plus `update`."""
    return settings.model_copy(
        update={
            "openai_api_key": "test-key",
            "openai_base_url": server.base_url,
            "openai_max_retries": 0,
            "openai_timeout": 5.0,
            **update,
        }
    )
