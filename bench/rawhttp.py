"""A small HTTP/1.1 client on asyncio's streams for the benchmarks' load: a connection of
its own per phone (no cookie jar shared between phones, no pool), keep-alive, and little
CPU per request (no httpx models), so that a load generator on the other core leaves the
server's core alone. Enough for the app's answers: Content-Length bodies, chunked bodies,
and a server-sent event stream read event by event."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass


@dataclass(slots=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Conn:
    """One keep-alive connection to `host:port`, from `source` (a loopback address)."""

    def __init__(self, host: str, port: int, source: str | None = None) -> None:
        self.host, self.port, self.source = host, port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie: str | None = None

    async def open(self) -> None:
        local = (self.source, 0) if self.source else None
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, local_addr=local, limit=2**22)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
            self.writer = self.reader = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> Answer:
        """One request; a keep-alive connection the server closed meanwhile (uvicorn
        closes an idle one after 5 s) is opened anew, as a browser does."""
        if self.reader is not None and self.reader.at_eof():
            await self.close()
        try:
            return await self._request(method, path, body, headers)
        except (asyncio.IncompleteReadError, ConnectionResetError) as e:
            if isinstance(e, asyncio.IncompleteReadError) and e.partial:
                raise
            await self.close()
            return await self._request(method, path, body, headers)

    async def _request(self, method: str, path: str, body: bytes,
                       headers: dict[str, str] | None) -> Answer:
        if self.writer is None:
            await self.open()
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        for k, v in (headers or {}).items():
            lines.append(f"{k}: {v}")
        if body or method in ("POST", "PUT"):
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        status, head = await self._head()
        if head.get("transfer-encoding") == "chunked":
            data = await self._chunked()
        else:
            data = await self.reader.readexactly(int(head.get("content-length", "0")))
        if head.get("connection") == "close":
            await self.close()
        return Answer(status, head, data)

    async def _head(self) -> tuple[int, dict[str, str]]:
        assert self.reader is not None
        raw = await self.reader.readuntil(b"\r\n\r\n")
        first, *rest = raw.decode("latin-1").split("\r\n")
        head: dict[str, str] = {}
        for line in rest:
            if ":" in line:
                k, v = line.split(":", 1)
                k = k.strip().lower()
                if k == "set-cookie":
                    self.cookie = v.strip().split(";", 1)[0]
                head[k] = v.strip()
        return int(first.split()[1]), head

    async def _chunked(self) -> bytes:
        assert self.reader is not None
        out = bytearray()
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return bytes(out)
            out += await self.reader.readexactly(size)
            await self.reader.readexactly(2)

    async def stream(self, path: str) -> int:
        """Open a server-sent event stream; its status (read events with `event`)."""
        if self.writer is None:
            await self.open()
        assert self.writer is not None
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 "Accept: text/event-stream"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        status, _head = await self._head()
        self._buffer = b""
        return status

    async def event(self) -> bytes:
        """The next event of an open stream (its raw lines; pings are skipped)."""
        assert self.reader is not None
        while True:
            while b"\r\n\r\n" not in self._buffer and b"\n\n" not in self._buffer:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                self._buffer += await self.reader.readexactly(size)
                await self.reader.readexactly(2)
            sep = b"\r\n\r\n" if b"\r\n\r\n" in self._buffer else b"\n\n"
            one, self._buffer = self._buffer.split(sep, 1)
            if one.startswith(b":"):
                continue  # a keep-alive comment
            return one

    _buffer: bytes = b""
