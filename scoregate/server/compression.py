"""gzip for the HTTP API's responses (``SCOREGATE_HTTP_GZIP_MIN_BYTES``).

Starlette's ``GZipMiddleware``, placed inside the app's HTTP middlewares (next to the
routes), not around them: those middlewares hand a body on in pieces marked ``more_body``,
and a compressor outside them would take every response for a stream (gzip however small,
no ``Content-Length``). Inside, it sees each response whole: one under the minimum goes as
it is, one over it goes compressed with its ``Content-Length`` (and ``Vary:
Accept-Encoding``). It reads nothing the client sends, so a long poll still hears the
client hang up.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Paths never compressed: a review page carries its form token beside an answer whose text
#: a job's submitter chose, and compressed sizes of such a page can be read to recover the
#: token (the BREACH attack on TLS); they gain little (a page is mostly its chart's PNG).
UNCOMPRESSED = ("/review",)
#: zlib's own default: most of level 9's saving (a job view or a job list: within a few per
#: cent of its size) for a fraction of its time.
GZIP_LEVEL = 6


class Compression:
    """gzip responses of ``minimum_size`` bytes or more for clients that accept it.

    A compressed response's ``ETag`` is made weak (``W/``): a strong one names the exact
    bytes, and these are not the file's (the static files' 304 answers match either form).
    """

    def __init__(self, app: ASGIApp, minimum_size: int) -> None:
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size, compresslevel=GZIP_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope.get("path", "")).startswith(UNCOMPRESSED):
            await self.gzip.app(scope, receive, send)
            return

        async def send_weak_etag(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                etag = headers.get("etag")
                if etag and not etag.startswith("W/") and "content-encoding" in headers:
                    headers["etag"] = "W/" + etag
            await send(message)

        await self.gzip(scope, receive, send_weak_etag)
