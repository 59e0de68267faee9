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
    """Pick the tier: the band's, or the agent's self-reported confidence where it is lower.

    The agent's own confidence can ask for more care than the score does ("low": research
    first) but never for less: a "high" on a RED answer that breaks an exclusion would
    otherwise be approved on the agent's word alone. A self-report above the band's tier is
    kept to the band's, with a warning saying so. An invalid value counts as ``medium``
    with a warning (seed 002).
    """
    banded = cfg.band_tiers[band]
    if self_reported is None:
        return Gate(tier=banded, action=_ACTIONS[banded], source="band")
    value = self_reported.strip().lower()
    warning = None
    if value in VALID_TIERS:
        stated: Tier = value
    else:
        shown = self_reported if len(self_reported) <= 40 else self_reported[:40] + "..."
        stated = "medium"
        warning = (
            f"invalid self-reported confidence {shown!r}: expected high, medium or low;"
            " treated as medium"
        )
    if VALID_TIERS.index(stated) >= VALID_TIERS.index(banded):
        return Gate(tier=stated, action=_ACTIONS[stated], source="self_reported", warning=warning)
    kept = (
        f"self-reported confidence {stated!r} is above what the score supports ({band}:"
        f" {banded!r}); the score's tier is used"
    )
    return Gate(
        tier=banded,
        action=_ACTIONS[banded],
        source="band",
        warning=kept if warning is None else f"{warning}; {kept}",
    )
