"""Seed 000 overlay and seed 002 tiers as the pure decision function."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoregate.pipelines.loop import LOOP_EXIT_REASON, decide, feedback, research_denied
from scoregate.pipelines.workflow import load_workflow
from scoregate.schemas.loop import LoopPolicy
from scoregate.schemas.result import Gate, ScoreResult, TrackScore, WeakFactor

#: The cut points the results below were fused with (the loop's threshold is the accept cut).
CUTS = {"accept": 0.80, "review": 0.65, "iterate": 0.50, "reject": 0.30}


def result(score: float, tier: str = "high", band: str = "GREEN") -> ScoreResult:
    actions = {"high": "auto_proceed", "medium": "user_choice", "low": "research_triggered"}
    action = next((a for a in ("accept", "review", "iterate") if score >= CUTS[a]), "reject")
    return ScoreResult(
        score=score,
        score_100=round(score * 100),
        band=band,
        action=action,
        cuts=CUTS,
        calibrated=score,
        tracks={
            "reward": TrackScore(
                name="reward",
                score=0.5,
                details={
                    "results": [
                        {"kind": "max_lines", "passed": False, "reason": "too long"},
                        {"kind": "contains", "passed": True, "reason": "ok"},
                    ]
                },
            )
        },
        reasons=["r1"],
        weakest_factors=[WeakFactor(factor="reward", score=0.5, suggestion="fix")],
        gate=Gate(tier=tier, action=actions[tier], source="band"),
    )


LOOP = LoopPolicy(enabled=True, threshold=0.80, max_iterations=3)


def test_auto_transition_when_threshold_met():
    d = decide(LOOP, 1, result(0.85), has_agent=True, has_research=False)
    assert d.kind == "accept" and d.status == "accepted"


def test_loop_continues_below_threshold():
    d = decide(LOOP, 1, result(0.65), has_agent=True, has_research=False)
    assert d.kind == "iterate" and "iteration 2 of 3" in d.rationale


def test_loop_exits_at_max_iterations_without_approving():
    d = decide(LOOP, 3, result(0.79), has_agent=True, has_research=False)
    assert d.kind == "exit" and d.exit_reason == LOOP_EXIT_REASON
    assert d.escalate and d.status == "escalated"


def test_exit_without_hil_is_rejected_not_approved():
    policy = LoopPolicy(enabled=True, threshold=0.8, max_iterations=2, hil=False)
    d = decide(policy, 2, result(0.5), has_agent=True, has_research=False)
    assert d.kind == "exit" and not d.escalate and d.status == "rejected"


def unverified(score: float = 0.79) -> ScoreResult:
    """A result scored on too little to judge (an answer the models do not read)."""
    r = result(score, band="AMBER")
    return r.model_copy(update={"action": "review", "dashboard": {"unverified": True}})


@pytest.mark.parametrize("n", [1, 3])
def test_an_unverified_answer_goes_to_a_person_at_once_not_back_to_its_agent(n):
    d = decide(LOOP, n, unverified(), has_agent=True, has_research=True)
    assert d.kind == "review" and d.status == "awaiting_review"
    assert "not verified" in d.rationale and "waiting for a human" in d.rationale
    # with gating on too: no research, no confident agent's rewrite, a person
    gated = LoopPolicy(enabled=True, threshold=0.80, max_iterations=3, gating=True)
    assert decide(gated, n, unverified(), has_agent=True, has_research=True).kind == "review"


def test_an_unverified_answer_without_hil_loops_as_any_other():
    policy = LoopPolicy(enabled=True, threshold=0.8, max_iterations=2, hil=False)
    assert decide(policy, 1, unverified(), has_agent=True, has_research=False).kind == "iterate"
    d = decide(policy, 2, unverified(), has_agent=True, has_research=False)
    assert d.kind == "exit" and d.status == "rejected"
    # a verified answer in the review zone still goes back to its agent
    assert decide(LOOP, 1, result(0.79), has_agent=True, has_research=False).kind == "iterate"


def test_loop_disabled_by_default_completes_once():
    d = decide(LoopPolicy(), 1, result(0.1), has_agent=True, has_research=False)
    assert d.kind == "complete" and d.status == "completed"


@pytest.mark.parametrize(
    ("tier", "research", "kind"),
    [
        ("high", False, "accept"),
        ("medium", True, "review"),
        ("low", True, "research"),
        ("low", False, "review"),
    ],
)
def test_gating_tiers(tier, research, kind):
    d = decide(
        LoopPolicy(gating=True), 1, result(0.7, tier), has_agent=False, has_research=research
    )
    assert d.kind == kind


def test_research_denied_falls_back_to_review():
    d = decide(LoopPolicy(gating=True), 1, result(0.3, "low"), has_agent=False, has_research=True)
    fallback = research_denied(d, "Research quota exceeded (5/hour limit)")
    assert fallback.kind == "review" and "quota exceeded" in fallback.rationale


def test_feedback_names_failed_constraints_and_weakest_factors():
    fb = feedback(result(0.6), 1)
    assert [c["kind"] for c in fb["failed_constraints"]] == ["max_lines"]
    assert fb["weakest_factors"][0]["suggestion"] == "fix"
    assert fb["score"] == 0.6 and fb["iteration"] == 1


SEED_WORKFLOW = """
tasks:
  design-l1:
    agent: architect
    overlays:
      confidence_loop:
        enabled: true
        threshold: 0.80
        max_iterations: 3
        eval_metrics:
          - name: requirement_coverage
            weight: 2.0
          - name: design_completeness
            weight: 1.5
          - name: clarity_score
            weight: 1.0
"""


def test_seed_workflow_yaml_gives_the_task_policy(tmp_path: Path):
    path = tmp_path / "workflow.yaml"
    path.write_text(SEED_WORKFLOW)
    policy = load_workflow(path).policy_for("design-l1")
    assert policy.enabled and policy.threshold == 0.80 and policy.max_iterations == 3
    assert policy.eval_metric_weights == {
        "requirement_coverage": 2.0,
        "design_completeness": 1.5,
        "clarity_score": 1.0,
    }


def test_workflow_errors_are_clear(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text("tasks: {x: {overlays: {confidence_loop: {threshold: 2}}}}")
    with pytest.raises(ValueError, match="threshold"):
        load_workflow(path)
    path.write_text("tasks: [")
    with pytest.raises(ValueError, match="not valid YAML"):
        load_workflow(path)
    with pytest.raises(ValueError, match="no task 'nope'"):
        load_workflow(_ok(tmp_path)).policy_for("nope")


def _ok(tmp_path: Path) -> Path:
    p = tmp_path / "ok.yaml"
    p.write_text(SEED_WORKFLOW)
    return p
