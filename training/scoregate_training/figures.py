"""Figures shared by the sweep and the evaluation scripts of ``benchmarks/``."""

from __future__ import annotations


def auroc(pos: list[float], neg: list[float]) -> float:
    """P(a positive scores above a negative), ties counted half (Mann-Whitney); NaN
    when either side is empty."""
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]
