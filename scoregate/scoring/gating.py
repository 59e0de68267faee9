"""Seed-002 confidence gating: the tier and the gating action (pure).

The research quota that the gate consults lives in ``scoregate.storage.quota``
(Redis in production, memory for the embedded default and unit tests).
"""

from __future__ import annotations

from scoregate.config.scoring_yaml import GatingConfig
from scoregate.schemas.result import Band, Gate, GateAction, Tier

VALID_TIERS: tuple[Tier, ...] = ("high", "medium", "low")

_ACTIONS: dict[Tier, GateAction] = {
    "high": "auto_proceed",
    "medium": "user_choice",
    "low": "research_triggered",
}


def resolve_tier(self_reported: str | None, band: Band, cfg: GatingConfig) -> Gate:
    """Pick the tier: the agent's self-reported confidence if given, else the band's tier.

    An invalid self-reported value falls back to ``medium`` with a warning (seed 002).
    """
    if self_reported is None:
        tier = cfg.band_tiers[band]
        return Gate(tier=tier, action=_ACTIONS[tier], source="band")
    value = self_reported.strip().lower()
    for tier in VALID_TIERS:
        if value == tier:
            return Gate(tier=tier, action=_ACTIONS[tier], source="self_reported")
    shown = self_reported if len(self_reported) <= 40 else self_reported[:40] + "..."
    warning = (
        f"invalid self-reported confidence {shown!r}: expected high, medium or low;"
        " treated as medium"
    )
    return Gate(tier="medium", action="user_choice", source="self_reported", warning=warning)
