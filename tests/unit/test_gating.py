"""Seed 002: tiers, invalid confidence, and the research quota (fakeredis)."""

from __future__ import annotations

import fakeredis
import pytest

from scoregate.config.scoring_yaml import GatingConfig
from scoregate.scoring.gating import resolve_tier
from scoregate.storage.quota import MemoryQuota, RedisQuota

CFG = GatingConfig()


@pytest.mark.parametrize(
    ("value", "tier", "action"),
    [
        ("high", "high", "auto_proceed"),
        ("Medium", "medium", "user_choice"),
        (" low ", "low", "research_triggered"),
    ],
)
def test_self_reported_tier(value, tier, action):
    gate = resolve_tier(value, "GREEN", CFG)
    assert (gate.tier, gate.action, gate.source, gate.warning) == (
        tier,
        action,
        "self_reported",
        None,
    )


@pytest.mark.parametrize(
    ("value", "band", "tier"),
    [("high", "RED", "low"), ("high", "AMBER", "medium"), ("medium", "RED", "low")],
)
def test_a_self_report_above_the_scores_tier_is_kept_to_it(value, band, tier):
    """An agent's "high" on a RED answer (one that breaks an exclusion, say) does not
    approve it: the tier is the score's, and the warning says why."""
    gate = resolve_tier(value, band, CFG)
    assert (gate.tier, gate.source) == (tier, "band")
    assert f"self-reported confidence '{value}' is above what the score supports" in (
        gate.warning or ""
    )


def test_a_self_report_below_the_scores_tier_is_taken():
    gate = resolve_tier("low", "GREEN", CFG)
    assert (gate.tier, gate.action, gate.source, gate.warning) == (
        "low",
        "research_triggered",
        "self_reported",
        None,
    )


def test_invalid_confidence_becomes_medium_with_a_warning():
    gate = resolve_tier("unknown", "GREEN", CFG)
    assert gate.tier == "medium" and gate.action == "user_choice"
    assert "invalid self-reported confidence 'unknown'" in (gate.warning or "")


@pytest.mark.parametrize(("band", "tier"), [("GREEN", "high"), ("AMBER", "medium"), ("RED", "low")])
def test_tier_from_band(band, tier):
    assert resolve_tier(None, band, CFG).tier == tier


@pytest.mark.parametrize(
    "make", [lambda c: RedisQuota(fakeredis.FakeRedis(), clock=c), lambda c: MemoryQuota(clock=c)]
)
def test_quota_five_per_hour_then_refused_then_resets(make):
    now = [1_000_000.0]
    quota = make(lambda: now[0])
    decisions = [quota.acquire("global", 5) for _ in range(6)]
    assert [d.allowed for d in decisions] == [True] * 5 + [False]
    assert decisions[2].message.startswith("Triggering research (2/5 quota remaining")
    assert "quota exceeded" in decisions[5].message.lower()
    assert quota.peek("global", 5).remaining == 0
    now[0] += 3600
    assert quota.acquire("global", 5).allowed


@pytest.mark.parametrize(
    "make", [lambda c: RedisQuota(fakeredis.FakeRedis(), clock=c), lambda c: MemoryQuota(clock=c)]
)
def test_a_token_holds_one_slot_however_often_it_acquires(make):
    now = [1_000_000.0]
    quota = make(lambda: now[0])
    first = quota.acquire("global", 2, token="job-1:1:decide")
    again = quota.acquire("global", 2, token="job-1:1:decide")  # a rolled-back retry
    assert first.allowed and again.allowed and quota.peek("global", 2).used == 1
    assert quota.acquire("global", 2, token="job-2:1:decide").allowed
    assert not quota.acquire("global", 2, token="job-3:1:decide").allowed
    assert quota.acquire("global", 2, token="job-1:1:decide").allowed  # still its own slot
    now[0] += 3600  # a new window: the token counts again
    assert quota.acquire("global", 2, token="job-1:1:decide").used == 1
