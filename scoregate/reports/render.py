"""Rich rendering of scores and jobs for the CLI and the demo."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from scoregate.config.tracks import TRACKS
from scoregate.reports.terminal import plain, safe
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.figures import score_text

BAND_STYLE = {"GREEN": "bold green", "AMBER": "bold yellow", "RED": "bold red"}
SHORT = {
    "semantic": "sem",
    "precision": "prec",
    "reward": "reward",
    "heuristics": "heur",
    "evidence": "evid",
    "metrics": "metr",
}


def _fmt(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) else "—"


def _score(value: Any) -> str:
    """A score as every other place writes it (:func:`score_text`, cut, not rounded, so
    that it reads as the decision's rationale does), or a dash."""
    return score_text(value) if isinstance(value, int | float) else "—"


def print_result(console: Console, result: ScoreResult) -> None:
    """A table: track, score, weight, top reasons; then the fused line."""
    table = Table(title="scoregate breakdown", show_lines=False)
    for col in ("track", "score", "weight", "top reasons"):
        table.add_column(col)
    for name, track in result.tracks.items():
        shown = plain(_score(track.score)) if track.ok else plain(track.status, "red")
        reasons = "; ".join(track.reasons[:2]) or (track.error or "")
        table.add_row(plain(name), shown, _fmt(result.weights.get(name)), plain(reasons))
    console.print(table)
    style = BAND_STYLE[result.band]
    console.print(
        f"score [bold]{score_text(result.score)}[/] ({result.score_100}/100)  band [{style}]"
        f"{result.band}[/]  action [bold]{result.action}[/]  calibrated {result.calibrated:.2f}"
        f"  profile {result.profile}"
    )
    for reason in result.reasons[:6]:
        console.print(f"  - {safe(reason)}")
    for weak in result.weakest_factors:
        console.print(
            f"  weakest: {safe(weak.factor)} {score_text(weak.score)}: {safe(weak.suggestion)}"
        )


def iteration_table(job: dict[str, Any]) -> Table:
    table = Table(title=f"job {safe(job['id'])}: score breakdown per iteration")
    for col in ("n", *(SHORT[t] for t in TRACKS), "fused", "band", "action"):
        table.add_column(col, justify="right" if col != "action" else "left", no_wrap=True)
    for it in job.get("iterations", []):
        tracks = (it.get("result") or {}).get("tracks", {})
        cells = [_score((tracks.get(t) or {}).get("score")) for t in TRACKS]
        band = it.get("band") or "—"
        table.add_row(
            str(it["n"]),
            *cells,
            _score(it.get("score")),
            plain(band, BAND_STYLE.get(band, "")),  # no band yet: no markup to mismatch
            plain(it.get("action") or "—"),
        )
    return table


def iteration_summary(it: dict[str, Any]) -> dict[str, Any]:
    """One iteration of a job as ``report JOB --json`` prints it: scores, band, action."""
    tracks = (it.get("result") or {}).get("tracks", {})
    return {
        "n": it["n"],
        "score": it.get("score"),
        "calibrated": it.get("calibrated"),
        "band": it.get("band"),
        "action": it.get("action"),
        "tracks": {name: t.get("score") for name, t in tracks.items()},
    }


def series_markdown(job: dict[str, Any], series: list[dict[str, Any]]) -> str:
    """A job's iterations (:func:`iteration_summary` of each) as a Markdown table."""
    names = sorted({name for row in series for name in row["tracks"]})
    lines = [f"## job {job['id']} ({job['status']})", ""]
    lines.append("| n | score | band | action | " + " | ".join(names) + " |")
    lines.append("|---" * (4 + len(names)) + "|")
    for row in series:
        cells = [_score(row["tracks"].get(name)) for name in names]
        head = [str(row["n"]), _score(row["score"]), row["band"] or "—", row["action"] or "—"]
        lines.append("| " + " | ".join(head + cells) + " |")
    return "\n".join(lines) + "\n"


def decisions_table(job: dict[str, Any]) -> Table:
    table = Table(title="audit trail")
    for col in ("time (UTC)", "n", "tier", "band", "score", "action", "actor"):
        table.add_column(col, no_wrap=True)
    table.add_column("rationale", ratio=1)
    for d in job.get("decisions", []):
        table.add_row(
            str(d.get("created_at", ""))[11:19],
            str(d.get("n")),
            plain(d.get("tier") or "—"),
            plain(d.get("band") or "—"),
            _score(d.get("confidence")),
            plain(d.get("action")),
            plain(d.get("actor")),
            plain(d.get("rationale")),
        )
    return table


def dispatches_table(job: dict[str, Any]) -> Table:
    """The hook and agent tasks sent for the job: what, to which queue, when, Celery id."""
    table = Table(title="dispatches (hooks and agent tasks sent)")
    for col in ("sent (UTC)", "n", "kind", "role", "task", "queue", "celery task id"):
        table.add_column(col, no_wrap=True)
    for d in job.get("dispatches", []):
        cells = (d.get(k) for k in ("n", "kind", "role", "task", "queue", "celery_task_id"))
        table.add_row(str(d.get("sent_at", ""))[11:19], *(Text(str(c)) for c in cells))
    return table


def print_job(console: Console, job: dict[str, Any]) -> None:
    console.print(
        f"[bold]job {safe(job['id'])}[/]  status [bold]{safe(job['status'])}[/]"
        f"  iterations {job.get('current_iteration')}"
    )
    if job.get("failure_reason"):
        console.print(f"  reason: {safe(job['failure_reason'])}")
    console.print(iteration_table(job))
    console.print(decisions_table(job))
    if job.get("dispatches"):
        console.print(dispatches_table(job))
    for esc in job.get("escalations", []):
        console.print(f"  {safe(esc['kind'])} ({safe(esc['status'])}): {safe(esc['reason'])}")


def latest_score(job: dict[str, Any]) -> float | None:
    """The final score, or for a job waiting for a human its latest iteration's score (as
    ``submit --wait --json`` shows it, docs/json-output.md)."""
    final = job.get("final_result") or {}
    if final:
        return final.get("score")
    scored = [it["score"] for it in job.get("iterations", []) if it.get("score") is not None]
    return scored[-1] if scored else None
