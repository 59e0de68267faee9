"""GREEN / AMBER / RED on any scale, with hysteresis on a previous score (seed 003)."""

from __future__ import annotations

from scoregate.schemas.result import Band


def band_of(score: float, green: float, amber: float) -> Band:
    """GREEN at or above ``green``, AMBER at or above ``amber``, else RED."""
    if score >= green:
        return "GREEN"
    if score >= amber:
        return "AMBER"
    return "RED"


def held_band(
    score: float, previous: float | None, green: float, amber: float, tolerance: float
) -> tuple[Band, bool]:
    """The band, kept at the previous score's band while ``|score - previous| <= tolerance``.

    Returns the band and whether it was held (differs from the score's own band).
    """
    band = band_of(score, green, amber)
    if previous is None:
        return band, False
    prev = band_of(previous, green, amber)
    if band != prev and abs(score - previous) <= tolerance:
        return prev, True
    return band, False
