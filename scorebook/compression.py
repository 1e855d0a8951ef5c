"""Compressed responses, for phones on slow networks: brotli where the browser accepts
it, else gzip, else the response as it is (``Accept-Encoding`` decides, ``Vary`` says so).

- Pages, JSON, CSV, CSS, JavaScript and SVG are compressed (:data:`MIMETYPES`); images
  that are compressed already (PNG, the favicon) and anything smaller than
  ``COMPRESS_MIN_SIZE`` (the live poll's ``{"version": ...}``) never are.
- Pages and JSON are compressed per response by Flask-Compress (brotli at quality 4:
  a 45 KB scoreboard costs about a millisecond). A strong ``ETag`` of a compressed
  answer gets the encoding appended (``"abc"`` → ``"abc:br"``), so a cache never takes
  one encoding's bytes for another's, and ``If-None-Match`` still answers 304.
- Static files (and the bundled stylesheet, :mod:`scorebook.assets`) are compressed
  once per file version at the highest levels and kept in memory: they do not change
  while the app runs, and a few dozen small files fit in a few hundred kilobytes.
- Streamed responses pass through as they are (an export streamed row by row must
  send its first bytes at once, not when a compressor has filled a block), and so do
  partial responses (``206``: the bytes of a range of the uncompressed file).
"""

from __future__ import annotations

import gzip
from collections import OrderedDict
from threading import Lock

import brotli
from flask import Flask, Response, request
from flask_compress import Compress

from scorebook.assets import STATIC_ENDPOINTS

#: What is worth compressing. Not PNG, ICO or other images that are compressed already.
MIMETYPES = (
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/problem+json",
    "text/csv",
    "text/plain",
    "image/svg+xml",
)

#: Best first; a browser that accepts both gets brotli.
ENCODINGS = ("br", "gzip")


compress = Compress()


def negotiate(accept_encoding: str, offered: tuple[str, ...] = ENCODINGS) -> str | None:
    """The encoding to answer in: the one of ``offered`` the client rates highest
    (``q``, ``*`` for those it does not name), the server's order breaking ties;
    ``None`` for the response as it is (nothing offered is accepted, or the client
    rated ``identity`` above every one that is)."""
    quality: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = max(0.0, min(1.0, float(value)))
                except ValueError:
                    q = 0.0
        quality[name] = q
    wildcard = quality.get("*")
    # The response as it is competes only where the client rated it: otherwise any
    # encoding it accepts (q > 0) is taken to be preferred.
    identity = quality.get("identity", 0.0)
    best, best_q = None, 0.0
    for name in offered:
        q = quality.get(name, wildcard if wildcard is not None else 0.0)
        if q > best_q:
            best, best_q = name, q
    if best is None or best_q < identity:
        return None
    return best


class StaticCache:
    """Compressed copies of static files, by (path, version, encoding): at most
    ``max_bytes`` of them, the least recently used dropped first."""

    def __init__(self, max_bytes: int = 4 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()
        self._size = 0
        self._lock = Lock()

    def get(self, key: tuple[str, str, str]) -> bytes | None:
        with self._lock:
            body = self._entries.get(key)
            if body is not None:
                self._entries.move_to_end(key)
            return body

    def put(self, key: tuple[str, str, str], body: bytes) -> None:
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = body
            self._size += len(body)
            while self._size > self.max_bytes and self._entries:
                _, dropped = self._entries.popitem(last=False)
                self._size -= len(dropped)


def compress_static(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(data, quality=11))
    return gzip.compress(data, compresslevel=9, mtime=0)


def compress_page(data: bytes, encoding: str) -> bytes:
    """A page's bytes compressed as Flask-Compress does it here (brotli 4, gzip 6), for a
    view that keeps its compressed answer (the live board, scorebook.web.games.views)."""
    if encoding == "br":
        return bytes(brotli.compress(data, quality=4))
    return gzip.compress(data, compresslevel=6, mtime=0)


def _add_vary(response: Response) -> None:
    if "accept-encoding" not in (response.headers.get("Vary") or "").lower():
        response.vary.add("Accept-Encoding")


def _compressible(response: Response, min_size: int) -> bool:
    return (response.status_code == 200
            and response.mimetype in MIMETYPES
            and "Content-Encoding" not in response.headers
            and "Content-Range" not in response.headers
            and (response.content_length is None or response.content_length >= min_size))


def _static_response(app: Flask, response: Response, cache: StaticCache) -> Response:
    """A static file's answer, compressed from (or into) the cache."""
    _add_vary(response)
    if not _compressible(response, app.config["COMPRESS_MIN_SIZE"]):
        return response
    encoding = negotiate(request.headers.get("Accept-Encoding", ""))
    if encoding is None:
        return response
    etag, weak = response.get_etag()
    key = (request.path, etag or "", encoding)
    body = cache.get(key) if etag else None
    original = response.response
    response.direct_passthrough = False
    if body is None:
        body = compress_static(response.get_data(), encoding)
        if etag:
            cache.put(key, body)
    # (when the copy was kept, the file is not even read)
    response.set_data(body)
    if hasattr(original, "close"):
        original.close()
    response.headers["Content-Encoding"] = encoding
    if etag and not weak:
        response.set_etag(f"{etag}:{encoding}")
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", list(MIMETYPES))
    app.config.setdefault("COMPRESS_ALGORITHM", list(ENCODINGS))
    app.config.setdefault("COMPRESS_BR_LEVEL", 4)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config.setdefault("COMPRESS_STREAMS", False)
    # The hook below runs Flask-Compress itself, after its own checks.
    app.config["COMPRESS_REGISTER"] = False
    compress.init_app(app)
    cache = StaticCache()

    def compress_response(response: Response) -> Response:
        if request.endpoint in STATIC_ENDPOINTS:
            return _static_response(app, response, cache)
        if response.status_code == 206 or "Content-Range" in response.headers:
            _add_vary(response)
            return response
        encoding = negotiate(request.headers.get("Accept-Encoding", ""))
        if encoding is None:
            _add_vary(response)
            return response
        # Flask-Compress reads Accept-Encoding itself; it agrees with negotiate() on
        # these two encodings (the tests hold it to that).
        return compress.after_request(response)

    app.after_request(compress_response)
