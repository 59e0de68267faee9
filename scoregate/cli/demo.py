"""``scoregate demo``: two jobs through the whole pipeline, in process, no servers.

A built-in agent answers a query, reads the feedback it is sent and revises. The first
job climbs to acceptance; the second never satisfies a hard constraint, exhausts its
iterations and is escalated to a human.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from scoregate.reports.terminal import rule, safe
from scoregate.scoring.figures import score_text

if TYPE_CHECKING:
    from scoregate.config.settings import Settings
    from scoregate.pipelines.context import PipelineContext
    from scoregate.pipelines.dispatch import InlineDispatcher, Message

Hook = Callable[..., Any]

AGENT = "scoregate.demo.agent"
ON_PASS = "scoregate.demo.on_pass"
ON_EXIT = "scoregate.demo.on_loop_exit"

RECIPE_QUERY = "Give me a simple pasta recipe for a weeknight dinner, without nuts."
RECIPE_DRAFTS = [
    "Pesto pasta: blend basil, pine nuts, parmesan and olive oil, then toss it with spaghetti.",
    "Tomato spaghetti with garlic, basil and parmesan.",
    "Tomato spaghetti: boil the spaghetti, fry garlic in olive oil, add chopped tomatoes, "
    "simmer 15 minutes, toss with the pasta and top with basil and parmesan.",
]
SUMMARY_QUERY = (
    "Summarise our quarterly sales review for the team in three bullet points, "
    "and do not mention any prices."
)
SUMMARY_DRAFTS = [
    "- Sales grew 12% over the quarter.\n- The premium plan now costs $49 a month.\n"
    "- Churn fell in Europe.",
    "- Revenue rose 12% this quarter.\n- We raised the basic plan price to $19.\n"
    "- Two new regions launched.",
    "- The quarter closed 12% up.\n- Prices went from $19 to $24 on the basic plan.\n"
    "- Support response times halved.",
]


class DemoAgent:
    """Answers from a list of drafts; each call reads the feedback and returns the next."""

    def __init__(self, console: Console, drafts: dict[str, list[str]]) -> None:
        self.console = console
        self.drafts = drafts

    def first(self, query: str) -> str:
        return self.drafts[query][0]

    def __call__(
        self,
        job_id: str,
        iteration: int,
        query: str,
        previous_content: str,
        feedback: dict[str, Any],
    ) -> str:
        failed = [c.get("reason", c.get("kind")) for c in feedback.get("failed_constraints", [])]
        weakest = [w["factor"] for w in feedback.get("weakest_factors", [])]
        self.console.print(
            f"  [cyan]agent[/] job {job_id[:8]} read feedback of iteration {iteration - 1}: "
            f"score {score_text(feedback['score'])} {feedback['band']}; "
            f"failed: {', '.join(failed) or 'none'}; weakest: {', '.join(weakest) or 'none'}"
        )
        drafts = self.drafts[query]
        return drafts[min(iteration - 1, len(drafts) - 1)]


#: The demo jobs' loop. Seed 000's example threshold: a job's own threshold moves its
#: accept cut (the shipped cut, 0.98, is fitted for unattended acceptance).
DEMO_LOOP: dict[str, Any] = {"enabled": True, "threshold": 0.80, "max_iterations": 3, "hil": True}


def demo_jobs() -> list[dict[str, Any]]:
    """The two demo requests (without content: the agent writes it)."""
    recipe = {
        "query": RECIPE_QUERY,
        "constraints": [
            {
                "kind": "not_regex",
                "value": r"\bnuts?\b",
                "flags": "i",
                "hard": True,
                "label": "no nuts",
            },
            {"kind": "min_words", "value": 20, "hard": True},
            {"kind": "max_words", "value": 200},
        ],
        "metadata": {"task_type": "creative"},
    }
    summary = {
        "query": SUMMARY_QUERY,
        "constraints": [
            {"kind": "not_regex", "value": r"[$€£]\s?\d", "hard": True, "label": "no prices"},
            {"kind": "max_lines", "value": 3},
        ],
        "metadata": {"task_type": "analysis"},
    }
    return [recipe, summary]


def demo_context(
    console: Console,
    *,
    database_url: str | None,
    models: Any,
    on_pass: Hook,
    on_exit: Hook,
    prefix: str = "scoregate-demo-",
) -> tuple[Settings, PipelineContext, InlineDispatcher, DemoAgent]:
    """The embedded pipeline the demo runs on: a throwaway SQLite database (unless
    ``database_url``), no broker, the demo agent and the two hooks as local tasks."""
    from pydantic import SecretStr

    from scoregate.config.settings import get_settings
    from scoregate.pipelines.embedded import embedded_context

    settings = get_settings().model_copy()
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    settings.database_url = SecretStr(database_url or f"sqlite:///{tmp / 'demo.db'}")
    settings.broker_url = None
    agent = DemoAgent(console, {RECIPE_QUERY: RECIPE_DRAFTS, SUMMARY_QUERY: SUMMARY_DRAFTS})
    local: dict[str, Hook] = {AGENT: agent, ON_PASS: on_pass, ON_EXIT: on_exit}
    ctx, inline = embedded_context(settings, models=models, local_tasks=local)
    return settings, ctx, inline, agent


def demo_body(agent: DemoAgent, request: dict[str, Any]) -> dict[str, Any]:
    """A demo job as a submit body: the agent's first draft, the hooks and the loop."""
    request["content"] = agent.first(request["query"])
    return {
        "request": request,
        "agent": AGENT,
        "on_pass": ON_PASS,
        "on_loop_exit": ON_EXIT,
        "loop": dict(DEMO_LOOP),
    }


def demo() -> None:
    """Run two jobs through the whole pipeline in process (SQLite, no servers)."""
    from scoregate.cli.console import console
    from scoregate.extras import require

    require("models", "`scoregate demo` (it runs the semantic and precision tracks)")

    run_demo(console)


def run_demo(
    console: Console,
    *,
    database_url: str | None = None,
    models: Any = None,
) -> list[dict[str, Any]]:
    """Run the two demo jobs and print every iteration's breakdown; returns the jobs."""
    from scoregate.pipelines import steps

    fired: list[str] = []
    settings, ctx, inline, agent = demo_context(
        console,
        database_url=database_url,
        models=models,
        on_pass=lambda **kw: fired.append(
            f"on_pass job {kw['job_id'][:8]} score {score_text(kw['score'])}"
        ),
        on_exit=lambda **kw: fired.append(
            f"on_loop_exit job {kw['job_id'][:8]} reason={kw['reason']}"
        ),
    )
    inline.on_step = lambda msg: _trace(console, msg)
    rule(console, "scoregate demo: embedded pipeline (SQLite, in-process worker)")
    console.print(f"database: {safe(settings.secret('database_url'))}")
    start = time.perf_counter()
    ids = []
    for req in demo_jobs():
        spec = steps.build_spec(ctx, demo_body(agent, req))
        console.print(f"\n[bold]submit[/] {safe(req['query'])}")
        ids += steps.submit_jobs(ctx, [spec])
        inline.drain()
    return _report(console, ctx, ids, fired, time.perf_counter() - start)


def _trace(console: Console, msg: Message) -> None:
    if msg.task.startswith("scoregate.control.decide"):
        console.print(f"  [dim]control: deciding iteration {msg.kwargs['n']}[/]")


def _report(
    console: Console, ctx: Any, ids: list[str], fired: list[str], elapsed: float
) -> list[dict[str, Any]]:
    from scoregate.reports.render import print_job
    from scoregate.storage import repository as repo

    jobs = []
    for job_id in ids:
        with ctx.session() as s:
            job = repo.get_job(s, job_id=job_id)
            assert job is not None
            data = repo.job_to_dict(job)
        rule(console)
        print_job(console, data)
        jobs.append(data)
    rule(console, "hooks fired")
    for line in fired:
        console.print(f"  {safe(line)}")
    console.print(
        f"\ndemo finished in {elapsed:.1f}s: "
        + ", ".join(f"{j['id'][:8]} {j['status']}" for j in jobs)
    )
    return jobs
