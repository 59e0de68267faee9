"""What the request analysis reads, as the readings' tests ask it: the items a request
rules out, and the ones an answer breaks (hand lists only: no embedding model)."""

from __future__ import annotations

from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted


def items(query: str) -> list[str]:
    """The things ``query`` rules out, in order."""
    return [e.item for e in analyze(query).exclusions]


def violated(query: str, answer: str) -> list[str]:
    """The ruled-out things of ``query`` that ``answer`` uses."""
    a = analyze(query)
    return [
        item
        for item, _ in check_members(
            a.excluded,
            answer,
            asked=a.asked,
            request=query,
            situations=a.situations,
            for_now=a.for_now,
            lacks=a.lacks,
        ).violated
    ]


def told_back(query: str, answer: str, want: str | None) -> None:
    """Assert the answer tells back a fact of ``query`` the other way, naming ``want``; or
    nothing, with ``None``."""
    said = [a for a, _ in contradicted(query, answer)]
    if want is None:
        assert said == []
    else:
        assert said and want in said[0]
