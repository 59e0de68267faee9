"""Operator commands: ``scoregate report``, ``calibrate`` and ``rethreshold``.

Every heavy import happens inside a command, so ``scoregate --help`` stays fast.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from scoregate.cli.console import console, die, err
from scoregate.reports.terminal import safe

if TYPE_CHECKING:
    from datetime import datetime

    from sqlalchemy.orm import Session

    from scoregate.config.scoring_yaml import ScoringConfig

Since = Annotated[
    str | None, typer.Option(help="Time window: 30m, 1h, 24h, 7d...", show_default=False)
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
Markdown = Annotated[bool, typer.Option("--markdown", help="Print Markdown.")]
ConfigFile = Annotated[Path | None, typer.Option("--config", help="A scoring YAML overlay.")]


@contextmanager
def _session() -> Iterator[Session]:
    from scoregate.pipelines.api import client_context

    ctx, _ = client_context()
    with ctx.session() as s:
        yield s


def _config(path: Path | None) -> ScoringConfig:
    from scoregate.config.scoring_yaml import load_scoring_config
    from scoregate.config.settings import get_scoring_config

    try:
        return load_scoring_config(path) if path is not None else get_scoring_config()
    except (ValueError, FileNotFoundError) as exc:
        raise die(str(exc)) from None


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str))


# --- report -------------------------------------------------------------------------------------


def report(
    job_id: Annotated[
        str | None, typer.Argument(help="A job: report its iterations instead of a window.")
    ] = None,
    since: Since = None,
    markdown: Markdown = False,
    as_json: AsJson = False,
    plot: Annotated[
        Path | None, typer.Option(help="Write a PNG: the job's iterations, or the histogram.")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 1 when the RED-share alert fires.")
    ] = False,
    config: ConfigFile = None,
) -> None:
    """Share of RED scores (alert), iterations per job, loop exits and decisions."""
    cfg = _config(config)
    if job_id is not None:
        _job_report(job_id, cfg, markdown=markdown, as_json=as_json, plot=plot)
        return
    from scoregate.reports import window

    try:
        with _session() as s:
            rep = window.window_report(s, cfg, window=since or cfg.alerts.window)
    except ValueError as exc:
        raise die(str(exc)) from None
    if as_json:
        _print_json(rep.to_dict())
    elif markdown:
        print(window.report_markdown(rep), end="")
    else:
        window.print_report(console, rep)
    if plot is not None:
        _plot_histogram(rep, plot, cfg)
    if check and rep.alert:
        raise typer.Exit(1)


def _plot_histogram(rep: Any, plot: Path, cfg: ScoringConfig) -> None:
    from scoregate.reports.charts import plot_histogram

    title = f"{rep.scores} fused score(s), last {rep.window}; RED share {rep.red_share:.0%}"
    plot_histogram(rep.score_values, plot, cfg, title=title)
    err.print(f"wrote {safe(plot)}")


def _job_report(
    job_id: str, cfg: ScoringConfig, *, markdown: bool, as_json: bool, plot: Path | None
) -> None:
    from scoregate.pipelines import api

    try:
        job = api.get_job(job_id)
    except LookupError as exc:
        raise die(str(exc), 1) from None
    from scoregate.reports.render import iteration_summary, iteration_table, series_markdown

    series = [iteration_summary(it) for it in job.get("iterations", [])]
    if as_json:
        _print_json({"id": job["id"], "status": job["status"], "iterations": series})
    elif markdown:
        print(series_markdown(job, series), end="")
    else:
        console.print(iteration_table(job))
    if plot is not None:
        from scoregate.reports.charts import plot_job

        try:
            plot_job(job, plot, cfg)
        except ValueError as exc:
            raise die(str(exc), 1) from None
        err.print(f"wrote {safe(plot)}")


# --- calibrate ----------------------------------------------------------------------------------


def calibrate(
    method: Annotated[str, typer.Option(help="isotonic or platt.")] = "isotonic",
    min_verdicts: Annotated[int, typer.Option(min=2, help="Refuse with fewer verdicts.")] = 50,
    since: Since = None,
    as_json: AsJson = False,
) -> None:
    """Fit the fused score to reviewers' verdicts; store the map that `calibrated` uses."""
    from scoregate.pipelines.live_map import MAP_TTL_S, forget
    from scoregate.scoring import calibration
    from scoregate.storage import repository as repo
    from scoregate.storage import stats

    if method not in calibration.METHODS:
        raise die(f"--method must be one of {', '.join(calibration.METHODS)}, got {method!r}")
    with _session() as s:
        scores, outcomes = stats.calibration_pairs(s, since=_since(since))
        if len(scores) < min_verdicts:
            raise die(_too_few(len(scores), min_verdicts), 1)
        try:
            fit = calibration.fit(scores, outcomes, method)
        except ValueError as exc:
            raise die(str(exc), 1) from None
        row = repo.save_calibration_map(
            s,
            kind=method,
            params=fit.calibrator.params,
            n_samples=fit.n,
            ece_before=fit.ece_before,
            ece_after=fit.ece_after,
        )
        version = row.version
    forget()
    summary = {
        "version": version,
        "method": method,
        "verdicts": fit.n,
        "accepted": fit.accepted,
        "ece_before": round(fit.ece_before, 4),
        "ece_after": round(fit.ece_after, 4),
    }
    if as_json:
        _print_json(summary)
        return
    console.print(f"fitted {method} on {fit.n} verdict(s) ({fit.accepted} accepted)")
    console.print(
        f"expected calibration error {fit.ece_before:.3f} -> [bold]{fit.ece_after:.3f}[/]"
        f" ({calibration.ECE_BINS} bins; after = held out, {calibration.FOLDS}-fold)"
    )
    console.print(
        f"stored calibration map [bold]v{version}[/]: new fused results' `calibrated` uses it"
        f" (running workers within {MAP_TTL_S:.0f} s)"
    )


def _too_few(have: int, need: int) -> str:
    return (
        f"only {have} verdict(s) recorded; calibration needs at least {need}."
        " Verdicts come from `scoregate review JOB --approve/--reject` and from"
        " scoregate.pipelines.api.record_outcome(job_id, accepted, actor)."
    )


def _since(window: str | None) -> datetime | None:
    return None if window is None else _window_start(window)


def _window_start(window: str) -> datetime:
    from scoregate.config.scoring_yaml import parse_window
    from scoregate.storage.tables import utcnow

    try:
        return utcnow() - parse_window(window)
    except ValueError as exc:
        raise die(str(exc)) from None


# --- rethreshold --------------------------------------------------------------------------------

Threshold = Annotated[float | None, typer.Option(min=0.0, max=1.0, show_default=False)]


def rethreshold(
    since: Annotated[str, typer.Option(help="Time window: 30m, 1h, 24h, 7d...")] = "24h",
    accept: Threshold = None,
    review: Threshold = None,
    iterate: Threshold = None,
    reject: Threshold = None,
    green: Threshold = None,
    amber: Threshold = None,
    config: ConfigFile = None,
    as_json: AsJson = False,
) -> None:
    """Re-apply thresholds to stored scores (no re-scoring): how would actions change?"""
    from scoregate.reports import window
    from scoregate.storage import stats

    actions = {"accept": accept, "review": review, "iterate": iterate, "reject": reject}
    new = _with_thresholds(_config(config), actions, {"GREEN": green, "AMBER": amber})
    start = _window_start(since)
    with _session() as s:
        rows = stats.fused_scores(s, since=start)
    result = window.rethreshold(rows, new)
    if as_json:
        _print_json({"window": since, **result.to_dict()})
    else:
        window.print_rethreshold(console, result, since)


def _with_thresholds(
    cfg: ScoringConfig, actions: dict[str, float | None], bands: dict[str, float | None]
) -> ScoringConfig:
    from pydantic import ValidationError

    from scoregate.config.scoring_yaml import ActionThresholds

    # One threshold model: GREEN is the accept cut, AMBER the review cut.
    for band, cut in (("GREEN", "accept"), ("AMBER", "review")):
        given = bands.get(band)
        if given is None:
            continue
        if actions.get(cut) is not None and actions[cut] != given:
            raise die(
                f"--{band.lower()} {given:g} conflicts with --{cut} {actions[cut]:g}: the"
                f" {band} band is the {cut} zone; give one of them"
            )
        actions[cut] = given
    try:
        new_actions = ActionThresholds(
            **{**cfg.actions.model_dump(), **{k: v for k, v in actions.items() if v is not None}}
        )
    except ValidationError as exc:  # the model checks the order (accept >= review >= ...)
        msg = exc.errors()[0]["msg"].removeprefix("Value error, ")
        raise die(re.sub(r"\bactions\.(\w+)", r"--\1", msg)) from None
    return cfg.model_copy(update={"actions": new_actions})
