"""Review UI finding 10: text a reviewer reads cannot be reordered by directional control
characters, and the coloured controls have a contrast of at least 4.5:1 (WCAG AA)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoregate.server.pages import shown_text
from tests.unit.test_server import LOOP, env  # noqa: F401  (env is a fixture)

CSS = (Path(__file__).parents[2] / "scoregate" / "server" / "static" / "review.css").read_text()


def test_directional_controls_are_shown_as_code_points_and_the_rest_escaped() -> None:
    shown = shown_text("safe \u202eevil <b>x</b>\u2066")
    assert "\u202e" not in shown and "\u2066" not in shown
    assert '<span class="bidi">[U+202E]</span>' in shown
    assert '<span class="bidi">[U+2066]</span>' in shown
    assert "&lt;b&gt;x&lt;/b&gt;" in shown


def test_the_job_page_shows_an_override_in_the_request_and_the_answer(env):  # noqa: F811
    body = {
        "request": {"query": "Say hello \u202ein reverse", "content": "hi \u202eereht"},
        "loop": LOOP,
        "agent": "agent",
    }
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    page = env["client"].get(f"/review/{r.json()['id']}").text
    assert "\u202e" not in page
    assert page.count("[U+202E]") >= 2  # the request and the first answer


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _rule(selector: str) -> str:
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert match, f"no rule for {selector}"
    return match.group(1)


def _colour(declarations: str, prop: str) -> str:
    match = re.search(rf"(?<![-\w]){prop}:\s*#([0-9a-fA-F]{{6}}|[0-9a-fA-F]{{3}})\b", declarations)
    assert match, f"no {prop} in {declarations}"
    hexes = match.group(1)
    return "#" + (hexes if len(hexes) == 6 else "".join(c * 2 for c in hexes))


@pytest.mark.parametrize(
    ("selector", "text"),
    [
        ("button.approve", None),
        ("button.reject", None),
        ("h1 .count", None),
        (".band.GREEN", "#ffffff"),
        (".band.AMBER", "#ffffff"),
        (".band.RED", "#ffffff"),
    ],
)
def test_coloured_controls_meet_aa_contrast(selector: str, text: str | None) -> None:
    rule = _rule(selector)
    fg = text or _colour(rule, "color")
    assert _contrast(fg, _colour(rule, "background")) >= 4.5


def test_a_narrow_window_stacks_the_tables_and_wraps_the_header() -> None:
    narrow = CSS[CSS.index("@media (max-width: 640px)") :]
    assert "flex-wrap: wrap" in narrow and "display: block" in narrow
