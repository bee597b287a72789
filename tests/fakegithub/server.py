"""The HTTP side of the fake: the loopback server, its lifecycle, failure injection, and request plumbing."""

from __future__ import annotations

import hashlib
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote

from tests.fakegithub.model import (
    PH,
    RATE_LIMIT,
    SECONDARY_MESSAGE,
    Call,
    _error,
    _Failure,
    _HTTPError,
    _Req,
    _Resp,
)
from tests.fakegithub.state import _Ctx, _State

_Self = TypeVar("_Self", bound="_HTTP")


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        self.server.fake._serve(self)

    do_POST = do_PATCH = do_PUT = do_DELETE = do_GET

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        return


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake: _HTTP) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that gave up waiting is no error
            super().handle_error(request, client_address)


class _HTTP(_State):
    """Serving: requests are read, matched against injected failures and then the routes, answered like GitHub."""

    received: int = 0
    _server: _Server | None = None
    _routes: list[tuple[str, re.Pattern[str], Callable[[_Ctx], _Resp]]]  # FakeGitHub's, from the route table

    # ------------------------------------------------------------------------------------------ lifecycle

    def start(self: _Self) -> _Self:
        self._stopping.clear()
        self._server = _Server(self)
        self._base = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fakegithub", daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes requests sleeping in `delay`
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self: _Self) -> _Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeGitHub is not started")
        return self._base

    # ------------------------------------------------------------------------------------------ failures
    def fail_next(
        self,
        n: int = 1,
        status: int = 500,
        method: str | None = None,
        path_regex: str | None = None,
        headers: dict[str, str] | None = None,
        body: Any = None,
    ) -> None:
        """The next n requests matching method and path_regex (re.search) get this answer instead."""
        body = _error(HTTPStatus(status).phrase) if body is None else body
        with self._lock:
            self._failures.append(_Failure(n, status, method, path_regex, dict(headers or {}), body))

    def secondary_rate_limit_next(
        self, n: int = 1, retry_after: int = 1, method: str | None = None, path_regex: str | None = None
    ) -> None:
        self.fail_next(n, 403, method, path_regex, {"Retry-After": str(retry_after)}, _error(SECONDARY_MESSAGE))

    def rate_limited_next(
        self, n: int = 1, reset_in: int = 1, method: str | None = None, path_regex: str | None = None
    ) -> None:
        """Primary rate limit; X-RateLimit-Reset is fixed now, at reset_in seconds from now."""
        headers = {
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Used": str(RATE_LIMIT),
            "X-RateLimit-Reset": str(int(time.time()) + reset_in),
        }
        body = _error(f"API rate limit exceeded for installation ID {self.installation_id}.")
        self.fail_next(n, 403, method, path_regex, headers, body)

    def too_many_requests_next(
        self, n: int = 1, retry_after: int = 1, method: str | None = None, path_regex: str | None = None
    ) -> None:
        self.fail_next(n, 429, method, path_regex, {"Retry-After": str(retry_after)}, _error("Too Many Requests"))

    def hang_next(
        self,
        n: int = 1,
        seconds: float = 5.0,
        method: str | None = None,
        path_regex: str | None = None,
        commit_late: bool = False,
    ) -> None:
        """The next n matching requests are carried out but answered only after `seconds`, like a GitHub POST
        that commits and then times out at the edge: a client that gives up first cannot tell whether its write
        happened. commit_late: the request hangs first and is carried out after `seconds` (answered at once then).
        """
        with self._lock:
            self._failures.append(_Failure(n, 0, method, path_regex, {}, None, seconds, commit_late))

    # ------------------------------------------------------------------------------------------ HTTP plumbing
    def _serve(self, h: _Handler) -> None:
        req = self._read(h)
        with self._lock:
            self.received += 1  # counted on arrival, before any delay: "a request is in flight"
            hang = self._injected(req, hanging=True)
        if self.delay > 0:
            self._stopping.wait(self.delay)
        if hang is not None and hang.commit_late:
            self._stopping.wait(hang.hang)
        with self._lock:
            status, payload, extra = self._dispatch(req)
            text = "" if payload is None or status in (204, 304) else json.dumps(payload).replace(PH, self._base)
            status, body, headers = self._finish(req, status, text.encode(), extra)
            self.calls.append(Call(req.method, req.path, req.query, req.body, dict(req.headers), status))
        if hang is not None and not hang.commit_late:
            self._stopping.wait(hang.hang)  # carried out; the answer comes after the client has given up
        h.send_response(status)
        for key, value in headers.items():
            h.send_header(key, value)
        h.end_headers()
        h.wfile.write(body)

    @staticmethod
    def _read(h: _Handler) -> _Req:
        path, _, query = h.path.partition("?")
        args = (h.command, path.rstrip("/") or "/", dict(parse_qsl(query, keep_blank_values=True)))
        raw = h.rfile.read(int(h.headers.get("Content-Length") or 0))
        try:
            return _Req(*args, json.loads(raw) if raw else None, h.headers)
        except ValueError:
            return _Req(*args, raw.decode("utf-8", "replace"), h.headers, bad_json=True)

    def _injected(self, req: _Req, hanging: bool) -> _Failure | None:
        """The first injected failure of this kind (a hang, or an error answer) the request meets; one use of it."""
        failure = next((f for f in self._failures if (f.hang > 0) == hanging and f.matches(req.method, req.path)), None)
        if failure is not None:
            failure.remaining -= 1
        return failure

    def _dispatch(self, req: _Req) -> _Resp:
        failure = self._injected(req, hanging=False)
        if failure is not None:
            return failure.status, failure.body, dict(failure.headers)
        if req.bad_json:
            return 400, _error("Problems parsing JSON"), {}
        for method, regex, handler in self._routes:
            match = regex.fullmatch(req.path)
            if match and method == req.method:
                try:
                    return handler(_Ctx(self, req, {k: unquote(v) for k, v in match.groupdict().items()}))
                except _HTTPError as err:
                    return err.status, _error(err.message, **err.extra), {}
                except Exception as exc:  # a bug in the fake: answer it rather than drop the connection
                    return 500, _error(f"fakegithub internal error: {exc!r}"), {}
        return 404, _error("Not Found"), {}

    def _finish(self, req: _Req, status: int, body: bytes, extra: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "X-GitHub-Api-Version-Selected": "2022-11-28",
            "X-GitHub-Request-Id": f"FAKE:{len(self.calls) + 1}",
        }
        if req.method == "GET" and status == 200:
            headers["ETag"] = f'W/"{hashlib.sha256(body).hexdigest()}"'
            wanted = {t.strip().removeprefix("W/") for t in req.headers.get("If-None-Match", "").split(",")}
            if headers["ETag"][2:] in wanted:
                status, body = 304, b""
        if status != 304 and req.path != "/rate_limit":  # like GitHub, 304s and /rate_limit are free
            self.rate_remaining = max(0, self.rate_remaining - 1)
        headers.update(self._rate_headers())
        overridden = {k.lower() for k in extra}
        headers = {k: v for k, v in headers.items() if k.lower() not in overridden} | extra
        return status, body, headers | {"Content-Length": str(len(body))}

    def _rate_headers(self) -> dict[str, str]:
        if time.time() >= self.rate_reset:
            self.rate_remaining, self.rate_reset = RATE_LIMIT, int(time.time()) + 3600
        return {
            "X-RateLimit-Limit": str(RATE_LIMIT),
            "X-RateLimit-Remaining": str(self.rate_remaining),
            "X-RateLimit-Reset": str(self.rate_reset),
            "X-RateLimit-Used": str(RATE_LIMIT - self.rate_remaining),
            "X-RateLimit-Resource": "core",
        }
