"""Reports people look at (seed 003 alerting): a time window of scores and decisions.

``window_report`` reads the record; ``rethreshold`` re-applies thresholds to
stored scores without re-scoring. Both return plain dataclasses that render as
a rich table, Markdown or JSON.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy.orm import Session

from scoregate.config.scoring_yaml import ScoringConfig
from scoregate.config.scoring_yaml import parse_window as parse_window  # its first home
from scoregate.scoring.fusion import action_of_band, band_for, passes_minimum
from scoregate.storage import stats
from scoregate.storage.tables import utcnow

BANDS = ("GREEN", "AMBER", "RED")
ACTIONS = ("accept", "review", "iterate", "reject")


@dataclass
class WindowReport:
    """Scores, iterations, exits and decisions of one time window."""

    window: str
    since: datetime
    until: datetime
    scores: int
    mean_score: float | None
    by_band: dict[str, int]
    red_share: float
    red_share_max: float
    alert: bool
    jobs_finished: int
    jobs_in_progress: int
    iterations_mean: float | None
    iterations_p95: int | None
    iterations_histogram: dict[int, int]
    exits: dict[str, int]
    decisions: dict[str, int]
    score_values: list[float] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: timestamps as ISO 8601, without the raw score list."""
        out = asdict(self)
        out.pop("score_values")
        out["since"], out["until"] = self.since.isoformat(), self.until.isoformat()
        out["iterations_histogram"] = {str(k): v for k, v in self.iterations_histogram.items()}
        return out

    @property
    def alert_message(self) -> str:
        share = f"RED share {self.red_share:.0%} of {self.scores} score(s)"
        limit = f"limit {self.red_share_max:.0%}"
        if self.alert:
            return f"ALERT: {share} in the last {self.window} exceeds the {limit}"
        return f"ok: {share} in the last {self.window} (alert above {self.red_share_max:.0%})"


def nearest_rank(values: list[int], pct: float) -> int:
    """The ``pct`` percentile by nearest rank (a value that occurred)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


def window_report(
    session: Session, cfg: ScoringConfig, *, window: str, now: datetime | None = None
) -> WindowReport:
    """Read the record for the window ending ``now`` (default: the current time)."""
    until = now or utcnow()
    since = until - parse_window(window)
    rows = stats.fused_scores(session, since=since, until=until)
    by_band = Counter(r.band for r in rows)
    red_share = by_band["RED"] / len(rows) if rows else 0.0
    iterations, running = stats.iterations_per_job(session, since=since, until=until)
    scores = [r.score for r in rows]
    return WindowReport(
        window=window,
        since=since,
        until=until,
        scores=len(rows),
        mean_score=round(sum(scores) / len(scores), 4) if scores else None,
        by_band={b: by_band[b] for b in BANDS},
        red_share=round(red_share, 4),
        red_share_max=cfg.alerts.red_share_max,
        alert=red_share > cfg.alerts.red_share_max,
        jobs_finished=len(iterations),
        jobs_in_progress=running,
        iterations_mean=round(sum(iterations) / len(iterations), 2) if iterations else None,
        iterations_p95=nearest_rank(iterations, 95) if iterations else None,
        iterations_histogram=dict(sorted(Counter(iterations).items())),
        exits=stats.exit_reasons(session, since=since, until=until),
        decisions=stats.decision_counts(session, since=since, until=until),
        score_values=scores,
    )


def _fmt(value: float | None, spec: str = ".2f") -> str:
    return "—" if value is None else format(value, spec)


def _summary_rows(r: WindowReport) -> list[tuple[str, str]]:
    bands = ", ".join(f"{b} {r.by_band[b]}" for b in BANDS)
    iter_p95 = r.iterations_p95
    hist = ", ".join(f"{k}: {v}" for k, v in r.iterations_histogram.items()) or "—"
    return [
        ("window", f"{r.window} ({r.since:%Y-%m-%d %H:%M} – {r.until:%Y-%m-%d %H:%M} UTC)"),
        ("scores", f"{r.scores} (mean {_fmt(r.mean_score)})"),
        ("by band", bands),
        ("RED share", f"{r.red_share:.1%} (alert above {r.red_share_max:.0%})"),
        ("jobs", f"{r.jobs_finished} finished, {r.jobs_in_progress} in progress"),
        ("iterations per job", f"mean {_fmt(r.iterations_mean)}, p95 {_fmt(iter_p95, 'd')}"),
        ("iterations histogram", hist),
        ("loop exits", ", ".join(f"{k} {v}" for k, v in sorted(r.exits.items())) or "none"),
        ("decisions", ", ".join(f"{k} {v}" for k, v in sorted(r.decisions.items())) or "none"),
    ]


def print_report(console: Console, report: WindowReport) -> None:
    """The report as a rich table, with the alert line under it."""
    table = Table(title="scoregate report", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value")
    for name, value in _summary_rows(report):
        table.add_row(name, value)
    console.print(table)
    style = "bold red" if report.alert else "green"
    console.print(f"[{style}]{report.alert_message}[/]")


def report_markdown(report: WindowReport) -> str:
    """The report as a Markdown section (for a ticket, a chat message, a runbook)."""
    lines = ["## scoregate report", "", f"**{report.alert_message}**", ""]
    lines += ["| | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in _summary_rows(report)]
    return "\n".join(lines) + "\n"


# --- re-thresholding ----------------------------------------------------------------------------


@dataclass
class Rethreshold:
    """How stored scores' actions and bands would change under new thresholds."""

    scores: int
    actions: dict[str, dict[str, int]]
    action_changes: int
    band_changes: dict[str, int]
    #: Scores below the (new) minimum threshold, ``actions.reject``.
    below_minimum: int = 0
    minimum_threshold: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def rethreshold(rows: list[stats.FusedScore], new: ScoringConfig) -> Rethreshold:
    """Re-apply ``new``'s action thresholds and bands (with hysteresis) to stored scores."""
    matrix: dict[str, Counter[str]] = {}
    bands: Counter[str] = Counter()
    for row in rows:
        band = band_for(row.score, new, row.previous_score)
        action = action_of_band(band, row.score, new.actions)
        matrix.setdefault(row.action, Counter())[action] += 1
        if band != row.band:
            bands[f"{row.band}->{band}"] += 1
    changes = sum(n for old, c in matrix.items() for a, n in c.items() if a != old)
    return Rethreshold(
        scores=len(rows),
        actions={old: dict(c) for old, c in sorted(matrix.items())},
        action_changes=changes,
        band_changes=dict(sorted(bands.items())),
        below_minimum=sum(not passes_minimum(row.score, new) for row in rows),
        minimum_threshold=new.actions.reject,
    )


def print_rethreshold(console: Console, result: Rethreshold, window: str) -> None:
    """Stored action (rows) against the action under the new thresholds (columns)."""
    table = Table(title=f"actions of {result.scores} stored score(s), last {window}")
    table.add_column("stored \\ new", style="bold")
    for action in ACTIONS:
        table.add_column(action, justify="right")
    for old, counts in result.actions.items():
        cells = [_cell(counts.get(a, 0), a == old) for a in ACTIONS]
        table.add_row(old, *cells)
    console.print(table)
    console.print(f"{result.action_changes} of {result.scores} action(s) would change")
    for change, n in result.band_changes.items():
        console.print(f"  band {change}: {n}")
    console.print(
        f"{result.below_minimum} of {result.scores} score(s) below the minimum"
        f" (reject threshold {result.minimum_threshold:.2f})"
    )


def _cell(count: int, same: bool) -> str:
    if count == 0:
        return "·"
    return str(count) if same else f"[bold yellow]{count}[/]"
