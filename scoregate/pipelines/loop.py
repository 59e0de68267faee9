"""The loop controller's decision as a pure function: policy + history + result -> decision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoregate.schemas.loop import DecisionKind, LoopPolicy
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.figures import score_text

#: Job status each decision leaves the job in.
STATUS_AFTER: dict[DecisionKind, str] = {
    "complete": "completed",
    "accept": "accepted",
    "iterate": "awaiting_agent",
    "exit": "escalated",
    "review": "awaiting_review",
    "research": "researching",
}

#: The ``reason`` an ``on_loop_exit`` hook is called with, one per way a job leaves the
#: loop without being accepted: the loop ran out of iterations; the agent task raised, or
#: its answer was refused, on every try; the job was cancelled; a human rejected it.
LOOP_EXIT_REASON = "max_iterations_reached"
AGENT_FAILED = "agent_failed"
CANCELLED = "cancelled"
REJECTED_BY_REVIEWER = "rejected_by_reviewer"
EXIT_REASONS: tuple[str, ...] = (LOOP_EXIT_REASON, AGENT_FAILED, CANCELLED, REJECTED_BY_REVIEWER)


@dataclass(frozen=True)
class LoopDecision:
    """What happens next and why; ``status`` is the job's new status. (Its audit line is
    a row of the ``decisions`` table, :class:`scoregate.storage.tables.Decision`.)"""

    kind: DecisionKind
    rationale: str
    status: str
    exit_reason: str | None = None
    escalate: bool = False


def decide(
    policy: LoopPolicy,
    n: int,
    result: ScoreResult,
    *,
    has_agent: bool,
    has_research: bool,
) -> LoopDecision:
    """Decide after iteration ``n`` (1-based) given the fused ``result``.

    Never approves silently: below threshold at the last iteration the loop exits with
    ``max_iterations_reached`` and, with HIL on, escalates to a human. With HIL on, a
    result scored on too little to judge (``dashboard["unverified"]``) goes to a human at
    once: the agent's next answer could not be judged either.
    """
    if policy.enabled and result.action == "accept":
        return _make(
            "accept", f"score {score_text(result.score)} >= accept cut {_cut(policy, result):.2f}"
        )
    if policy.enabled and policy.hil and result.dashboard.get("unverified"):
        # Scored on too little to judge (an answer in a language the models do not read,
        # model tracks that failed): a rewrite would be judged no better, so a person reads it.
        return _make(
            "review",
            f"score {score_text(result.score)} not verified (too little of it could be scored;"
            " see the reasons): re-running the agent cannot change that, waiting for a human",
        )
    if policy.gating and result.gate is not None:
        gated = _gate(policy, n, result, has_research)
        if gated is not None:
            return gated
    if not policy.enabled:
        return _make("complete", f"loop disabled: scored once, recommended action {result.action}")
    return _below_threshold(policy, n, result, has_agent)


def _gate(
    policy: LoopPolicy, n: int, result: ScoreResult, has_research: bool
) -> LoopDecision | None:
    assert result.gate is not None
    tier = result.gate.tier
    if tier == "high":
        if policy.enabled:
            return None  # a confident agent below threshold still iterates
        return _make("accept", "high confidence: auto-proceed")
    if tier == "medium":
        choices = "yes / no / research" if has_research else "yes / no"
        return _make("review", f"medium confidence: waiting for a human ({choices})")
    if has_research and n < policy.max_iterations:
        return _make("research", "low confidence: research triggered, retry with findings")
    why = "no research task configured" if not has_research else "no iterations left"
    return _make("review", f"low confidence and {why}: waiting for a human")


def _cut(policy: LoopPolicy, result: ScoreResult) -> float:
    """The accept cut the result was judged by (the job's threshold, else the config's)."""
    if policy.threshold is not None:
        return policy.threshold
    return float(result.cuts.get("accept", result.score))


def _below_threshold(
    policy: LoopPolicy, n: int, result: ScoreResult, has_agent: bool
) -> LoopDecision:
    cut = _cut(policy, result)
    below = f"score {score_text(result.score)} < accept cut {cut:.2f} ({result.action})"
    if n < policy.max_iterations and has_agent:
        return _make(
            "iterate",
            f"{below}: re-running the agent (iteration {n + 1} of {policy.max_iterations})",
        )
    why = f"{n} of {policy.max_iterations} iterations used" if has_agent else "no agent to re-run"
    return LoopDecision(
        kind="exit",
        rationale=f"{below}; {why}: not approved",
        status="escalated" if policy.hil else "rejected",
        exit_reason=LOOP_EXIT_REASON,
        escalate=policy.hil,
    )


def research_denied(decision: LoopDecision, quota_message: str) -> LoopDecision:
    """A research decision whose quota ran out falls back to a human review (seed 002)."""
    return _make("review", f"{decision.rationale}; {quota_message}; waiting for a human")


def _make(kind: DecisionKind, rationale: str) -> LoopDecision:
    return LoopDecision(kind=kind, rationale=rationale, status=STATUS_AFTER[kind])


def open_agent_request(job: dict[str, Any]) -> dict[str, Any] | None:
    """What the agent is asked for, from a job as :func:`~scoregate.storage.jobs.job_to_dict`
    gives it, while the job waits on its agent (else None): what an agent task is sent, the
    iteration to answer, the job's query, the last iteration's content (``previous_content``:
    None unless the dict was made with ``include_content``) and the ``feedback`` on it."""
    if job.get("status") != "awaiting_agent":
        return None
    n = int(job["current_iteration"])
    last = next((it for it in job.get("iterations", []) if it.get("n") == n), None)
    if last is None or last.get("result") is None:
        return None
    return {
        "iteration": n + 1,
        "query": job["request"]["query"],
        "previous_content": last.get("content"),
        "feedback": feedback(ScoreResult.model_validate(last["result"]), n),
    }


def feedback(result: ScoreResult, n: int) -> dict[str, Any]:
    """What the agent reads to revise its output for iteration ``n + 1``."""
    reward = result.tracks.get("reward")
    failed = []
    if reward is not None:
        failed = [r for r in reward.details.get("results", []) if not r.get("passed", True)]
    return {
        "iteration": n,
        "score": result.score,
        "band": result.band,
        "action": result.action,
        "reasons": result.reasons,
        "failed_constraints": failed,
        "weakest_factors": [w.model_dump() for w in result.weakest_factors],
    }
