"""Slow and idle clients at the web server's door: every request arrives within a deadline or its connection goes.

uvicorn times out a kept-alive connection between requests, but not one that connects and then sends nothing, or
sends its headers or its body a byte at a time: each would be held for ever, and a few thousand of them exhaust
the server. GitHub sends a delivery at once and gives up on the answer after 10 s, so nothing that takes longer to
arrive is worth waiting for. Two guards, one per phase of a request:

- the headers (GuardedProtocol, around uvicorn's own HTTP protocol): within `read_seconds` of the connection
  opening or of the previous answer, and at most `max_header_bytes` of them; else 408 (or 431) and closed;
- the body (ReadDeadline, ASGI): within `read_seconds` of the headers; else 408 and closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

log = logging.getLogger(__name__)
MAX_HEADER_BYTES = 64 * 1024  # GitHub's headers take about 2 KB
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
TOO_LARGE = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def guarded_protocol(read_seconds: float, max_header_bytes: int = MAX_HEADER_BYTES) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools, or h11 without it) with HeaderDeadline's guard."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    limits = {"read_seconds": read_seconds, "max_header_bytes": max_header_bytes}
    return type("GuardedProtocol", (HeaderDeadline, AutoHTTPProtocol), limits)


class HeaderDeadline(asyncio.Protocol):
    """Mixed into uvicorn's HTTP protocol: a request's headers arrive within `read_seconds` of the connection
    opening or of the previous answer, at most `max_header_bytes` of them, or the connection is closed.

    Generic over uvicorn's protocols: each sets `self.cycle` to a new request cycle once a request's headers are
    complete, so "still waiting for headers" is "the cycle is the one we started waiting with"."""

    read_seconds = 10.0
    max_header_bytes = MAX_HEADER_BYTES
    # uvicorn's protocol's own attributes, used here
    cycle: Any
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    _waiting_with: Any = None
    _header_bytes = 0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._await_headers()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._deadline is None or self.transport.is_closing():
            return
        if self.cycle is not self._waiting_with:  # the headers are complete: the body has its own deadline
            self._disarm()
            return
        self._header_bytes += len(data)
        if self._header_bytes > self.max_header_bytes:
            self._refuse(TOO_LARGE, f"headers over {self.max_header_bytes} bytes")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        self._disarm()
        self._waiting_with, self._header_bytes = self.cycle, 0
        self._deadline = self.loop.call_later(self.read_seconds, self._expired)

    def _expired(self) -> None:
        self._deadline = None
        if self.cycle is self._waiting_with and not self.transport.is_closing():
            answer = TIMED_OUT if self._header_bytes else b""  # a connection that said nothing just goes
            self._refuse(answer, f"no complete headers within {self.read_seconds} s")

    def _refuse(self, answer: bytes, why: str) -> None:
        self._disarm()
        log.debug("closing a connection: %s", why)
        if answer:
            self.transport.write(answer)
        self.transport.close()

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


class ReadDeadline:
    """ASGI: a request's body arrives within `seconds` of its headers, or the client gets 408 and the connection
    is closed. The application sees a disconnect, and its answer to that is dropped (nobody is listening)."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]], seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.seconds
        state = {"late": False, "read": False, "answered": False}

        async def timed_receive() -> Message:
            if state["read"]:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), deadline - asyncio.get_running_loop().time())
            except asyncio.TimeoutError:  # the builtin TimeoutError only from Python 3.11
                state["late"] = True
                return {"type": "http.disconnect"}
            state["read"] = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def guarded_send(message: Message) -> None:
            if not state["late"]:
                state["answered"] = True
                await send(message)

        try:
            await self.app(scope, timed_receive, guarded_send)
        except Exception:
            if not state["late"]:
                raise
        if state["late"] and not state["answered"]:
            log.debug("closing a connection: no complete body within %.0f s", self.seconds)
            await send({"type": "http.response.start", "status": 408,
                        "headers": [(b"content-length", b"0"), (b"connection", b"close")]})  # fmt: skip
            await send({"type": "http.response.body", "body": b""})
