"""Who is calling: the API key of a request, checked for the scope a route needs.

Clients send ``Authorization: Bearer KEY`` or ``X-API-Key: KEY``; the review pages, which a
browser opens, also read the key from the ``scoregate_key`` cookie their sign-in form sets.
With no key configured every caller is the local user (``serve`` then binds loopback only).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, NoReturn

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from scoregate.server.auth import SCOPES, ApiKey, find_key
from scoregate.server.problems import Problem

COOKIE = "scoregate_key"
_bearer = HTTPBearer(auto_error=False, description="An API key from SCOREGATE_API_KEYS.")
_header = APIKeyHeader(name="X-API-Key", auto_error=False)


@dataclass(frozen=True)
class Caller:
    """The holder of the key that made a request (``local`` when no keys are configured)."""

    name: str
    scopes: frozenset[str]


LOCAL = Caller(name="local", scopes=frozenset(SCOPES))


def recorded_name(request: Request, caller: Caller, given: str | None) -> str:
    """The name an action is recorded under (reviewer, submitter).

    With no keys configured the caller is the local user, who may name anyone. With keys,
    the key that sent the request is always recorded: a different name given (a shared
    team key, a reviewer typing their own name) is kept beside it, ``"bob (key
    alice)"``, so no key can act under another's name alone.
    """
    given = (given or "").strip()
    if not request.app.state.api_keys:
        return given or caller.name
    if not given or given == caller.name:
        return caller.name
    return f"{given} (key {caller.name})"


def presented_key(
    request: Request, bearer: HTTPAuthorizationCredentials | None, header: str | None
) -> str | None:
    if bearer is not None:
        return bearer.credentials
    if header:
        return header
    return request.cookies.get(COOKIE)


async def caller_of(request: Request) -> Caller | None:
    """The caller ``request`` presents a key for, read as :func:`require` reads it (Bearer,
    X-API-Key, then the review cookie), for code outside a route's dependencies."""
    presented = presented_key(request, await _bearer(request), await _header(request))
    return identify(request.app.state.api_keys, presented)


def identify(keys: list[ApiKey], presented: str | None) -> Caller | None:
    """The caller a key belongs to; None when keys are configured and this one is not."""
    if not keys:
        return LOCAL
    if not presented:
        return None
    key = find_key(keys, presented)
    return Caller(name=key.name, scopes=key.scopes) if key is not None else None


def _unauthorized(detail: str) -> NoReturn:
    raise Problem(401, detail, headers={"WWW-Authenticate": "Bearer"})


def _missing(request: Request) -> str:
    """Why no key was read: none sent, or an Authorization header that is not ``Bearer
    KEY`` (``Basic ...``, a key with no scheme), which was read as none."""
    sent = request.headers.get("authorization", "").strip()
    if not sent:
        return "is missing"
    scheme = sent.split(None, 1)[0]
    if scheme.lower() == "bearer":
        return "is missing: the Authorization header says Bearer but holds no key"
    if " " not in sent:
        return "is missing: the Authorization header holds no scheme (it must be 'Bearer KEY')"
    # named only when it is a known scheme: an unknown first word may be part of a key
    named = next((known for known in _SCHEMES if known.lower() == scheme.lower()), None)
    which = f"the {named} scheme" if named else "a scheme other than Bearer"
    return f"is missing: the Authorization header uses {which}, which scoregate does not read"


#: Authorization schemes a client may send by mistake (named in the 401: they hold no key).
_SCHEMES = ("Basic", "Digest", "Token", "Negotiate", "NTLM", "ApiKey", "Key")


def require(scope: str) -> Callable[..., Caller]:
    """A dependency that admits a caller holding ``scope`` and returns it."""

    def check(
        request: Request,
        bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        header: Annotated[str | None, Depends(_header)],
    ) -> Caller:
        keys: list[ApiKey] = request.app.state.api_keys
        if keys and bearer is not None and header and bearer.credentials != header:
            # which key acts (and is recorded as submitter or reviewer) cannot be told
            _unauthorized(
                "two different API keys were sent, in 'Authorization: Bearer' and in"
                " 'X-API-Key': send one of them (or the same key in both)"
            )
        presented = presented_key(request, bearer, header)
        caller = identify(keys, presented)
        if caller is None:
            what = "is not a configured key" if presented else _missing(request)
            _unauthorized(
                f"the API key {what}: send it as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'"
                " (keys are set in SCOREGATE_API_KEYS; make one with `scoregate api-key`)"
            )
        if scope not in caller.scopes:
            raise Problem(
                403,
                f"key {caller.name!r} may {'+'.join(sorted(caller.scopes))} but this needs the"
                f" {scope!r} scope: use a key made by"
                f" `scoregate api-key NAME --scope {scope}`",
            )
        return caller

    check.scope = scope  # type: ignore[attr-defined]  # read by the OpenAPI descriptions
    return check
