"""How a score is written for a person: two decimals, cut rather than rounded."""

from __future__ import annotations

import math


def score_text(value: float) -> str:
    """``value`` with two decimals, cut rather than rounded: 0.9779 reads 0.97, so that a
    figure shown beside a cut (0.98) is at or above it exactly when the score is."""
    return f"{math.floor(value * 100 + 1e-9) / 100:.2f}"
