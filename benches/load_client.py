"""A lean HTTP/1.1 client for the load runs: pre-built requests over a pool of kept-alive loopback connections.

On a 2-core box the load generator shares the CPU with what it measures; a general-purpose client (httpx) costs
~2 ms of CPU per request, this one a tenth of that, which leaves the cores to the bot.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit


class ConnectionLost(Exception):
    """The server closed or refused the connection (it was killed or restarted)."""


class Pool:
    def __init__(self, url: str, size: int) -> None:
        parts = urlsplit(url)
        self.host, self.port, self.path = parts.hostname or "127.0.0.1", parts.port or 80, parts.path or "/"
        self.size = size
        self.idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = asyncio.Queue()
        for _ in range(size):
            self.idle.put_nowait(None)  # a slot: connected on first use

    def request(self, headers: dict[str, str], body: bytes) -> bytes:
        lines = [f"POST {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def post(self, raw_request: bytes) -> int:
        """Send one pre-built request; the answer's status code."""
        slot = await self.idle.get()
        try:
            if slot is None:
                slot = await asyncio.open_connection(self.host, self.port)
            reader, writer = slot
            writer.write(raw_request)
            await writer.drain()
            status, length = await _head(reader)
            await reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, ConnectionLost) as exc:
            if slot is not None:
                slot[1].close()
            self.idle.put_nowait(None)
            raise ConnectionLost(str(exc)) from exc
        self.idle.put_nowait(slot)
        return status

    async def close(self) -> None:
        while not self.idle.empty():
            slot = self.idle.get_nowait()
            if slot is not None:
                slot[1].close()


async def _head(reader: asyncio.StreamReader) -> tuple[int, int]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 "):
        raise ConnectionLost(f"not an HTTP answer: {lines[0][:40]!r}")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    return int(lines[0].split()[1]), length
