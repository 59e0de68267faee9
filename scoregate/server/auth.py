"""API keys: parsed from ``SCOREGATE_API_KEYS``, stored as SHA-256 digests, compared in constant
time.

An entry is ``NAME:SCOPES:KEY``: SCOPES is one or more of :data:`SCOPES` joined by ``+``
(or ``all``); KEY is the key itself or ``sha256:<64 hex digits>`` so that the settings never
hold the key in the clear (``scoregate api-key`` prints such an entry).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

#: What a key may do: submit jobs and scores, read jobs, resolve reviews.
SCOPES: tuple[str, ...] = ("submit", "read", "review")
_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
_HEX = re.compile(r"^[0-9a-f]{64}$")
#: Prefix of generated keys, so a leaked one is easy to recognise in logs and scanners.
KEY_PREFIX = "sgk_"


@dataclass(frozen=True)
class ApiKey:
    """One configured key: who holds it, what it may do, and its digest."""

    name: str
    scopes: frozenset[str]
    digest: bytes


def digest(key: str) -> bytes:
    """The SHA-256 of a key (what the settings may store instead of the key)."""
    return hashlib.sha256(key.encode()).digest()


def parse_keys(text: str | None) -> list[ApiKey]:
    """Parse ``SCOREGATE_API_KEYS``; a ``ValueError`` names the bad entry and the fix."""
    keys = [_parse_entry(part.strip()) for part in (text or "").split(",") if part.strip()]
    names = [k.name for k in keys]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"SCOREGATE_API_KEYS names {', '.join(dupes)} more than once")
    return keys


def _parse_entry(entry: str) -> ApiKey:
    name, _, rest = entry.partition(":")
    scope_text, _, secret = rest.partition(":")
    # Never echo the key itself in an error: show the name only.
    where = f"SCOREGATE_API_KEYS entry {name[:64]!r}"
    if not _NAME.match(name) or not scope_text or not secret:
        raise ValueError(
            f"{where} must be NAME:SCOPES:KEY (NAME of letters, digits, _.@-; SCOPES like"
            " submit+read); create one with `scoregate api-key NAME --scope read`"
        )
    scopes = set(scope_text.split("+"))
    if "all" in scopes:
        scopes = set(SCOPES)
    unknown = scopes - set(SCOPES)
    if unknown:
        raise ValueError(
            f"{where}: unknown scope(s) {', '.join(sorted(unknown))}; known: {', '.join(SCOPES)}"
            " or all"
        )
    return ApiKey(name=name, scopes=frozenset(scopes), digest=_secret_digest(secret, where))


def _secret_digest(secret: str, where: str) -> bytes:
    if secret.startswith("sha256:"):
        hexdigest = secret.removeprefix("sha256:").lower()
        if not _HEX.match(hexdigest):
            raise ValueError(f"{where}: sha256: must be followed by 64 hex digits")
        return bytes.fromhex(hexdigest)
    if len(secret) < 16:
        raise ValueError(f"{where}: the key is shorter than 16 characters; generate a new one")
    return digest(secret)


def find_key(keys: list[ApiKey], presented: str) -> ApiKey | None:
    """The key matching ``presented``; every entry is compared, in constant time each."""
    wanted = digest(presented)
    found = None
    for key in keys:
        if hmac.compare_digest(key.digest, wanted):
            found = key
    return found


def new_key() -> str:
    """A fresh random key (256 bits)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def settings_entry(name: str, scopes: list[str], key: str) -> str:
    """The ``SCOREGATE_API_KEYS`` entry holding ``key`` hashed."""
    if not name.strip() or any(c in name for c in ":,+"):
        raise ValueError(
            f"key name {name!r} must be a plain word: it cannot be empty or hold"
            f" {' '.join(repr(c) for c in ':,+')}, which separate the parts of SCOREGATE_API_KEYS"
        )
    entry = f"{name}:{'+'.join(scopes)}:sha256:{digest(key).hex()}"
    _parse_entry(entry)  # the same checks as at start: a bad name or scope fails here
    return entry
