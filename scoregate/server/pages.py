"""The review queue: server-rendered pages (Jinja2) where a human resolves escalated jobs.

Plain HTML forms and a few lines of local JavaScript for the keyboard shortcuts; nothing
is fetched from elsewhere. With API keys configured a reviewer signs in once with a key
holding the ``review`` scope (kept in an HttpOnly, SameSite=Strict cookie).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import secrets
import tempfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from scoregate.pipelines.loop import feedback
from scoregate.pipelines.review import QuotaUnavailable, research_quota
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.figures import score_text
from scoregate.server import problems
from scoregate.server.diff import word_diff
from scoregate.server.security import COOKIE, Caller, identify, recorded_name
from scoregate.server.service import ApiService, ConflictError, NotFoundError

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
#: Characters that reorder the text around them (embeddings, overrides, isolates): an
#: answer holding one would show a reviewer text other than what it contains.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def shown_text(text: object) -> Markup:
    """``text`` escaped, each directional control character shown as its code point
    (``[U+202E]``) instead of reordering the page."""
    out = str(escape(str(text)))
    for ch in BIDI_CONTROLS & set(out):
        out = out.replace(ch, f'<span class="bidi">[U+{ord(ch):04X}]</span>')
    return Markup(out)


def utc_time(value: object) -> Markup:
    """A stored time (ISO 8601, or a datetime) as ``<time datetime="...Z">`` showing it to
    the second in UTC, labelled so: ``2026-12-01 22:11:59 UTC``. A time without a zone is
    the store's, UTC."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    stamp = f"{when:%Y-%m-%dT%H:%M:%S}Z"
    return Markup(f'<time datetime="{stamp}">{when:%Y-%m-%d %H:%M:%S} UTC</time>')


templates.env.filters["shown"] = shown_text
templates.env.filters["utc"] = utc_time
templates.env.filters["score"] = score_text  # cut, not rounded: as the rationales read
VERDICTS = ("approve", "reject", "research")
QUEUE_PAGE = 100  # jobs on one page of the queue
MAX_NOTE = 10_000  # characters of a verdict's note
_SECRET = secrets.token_bytes(32)  # signs the pages' form tokens for this process's life


async def no_store(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Every review page is answered ``no-store``: Back after a verdict must load the job's
    state now, not a cached page with a live form."""
    response = await call_next(request)
    if is_page(request.url.path):
        response.headers["Cache-Control"] = "no-store"
    return response


def is_page(path: str) -> bool:
    """Whether ``path`` is one of the review pages (answered in HTML, errors included)."""
    return path == "/review" or path.startswith("/review/")


def page_problem(
    request: Request, status: int, detail: str, headers: dict[str, str] | None
) -> Response | None:
    """An error on a review page (an address or form that does not validate, a wrong
    method, a fault) as the error page, with its status and headers (``Allow``,
    ``Retry-After``) and a way back; None for the API's paths, answered as problem+json."""
    if not is_page(request.url.path):
        return None
    view = {"message": detail, "caller": _caller(request)}
    return templates.TemplateResponse(
        request, "error.html", view, status_code=status, headers=headers
    )


problems.PAGE_ANSWERS.append(page_problem)


def _caller(request: Request) -> Caller | None:
    caller = identify(request.app.state.api_keys, request.cookies.get(COOKIE))
    return caller if caller is not None and "review" in caller.scopes else None


def form_secret(request: Request) -> bytes:
    """The key that signs form tokens, the same across restarts where it can be.

    ``SCOREGATE_REVIEW_SECRET`` when set; else one derived from the configured API keys'
    digests (stable while the keys are); with no keys, this process's random secret.
    """
    service: ApiService = request.app.state.service
    configured = service.ctx.settings.review_secret
    if configured is not None:
        return hashlib.sha256(configured.get_secret_value().encode()).digest()
    keys = request.app.state.api_keys
    if keys:
        material = b"scoregate review form\n" + b"".join(sorted(k.digest for k in keys))
        return hashlib.sha256(material).digest()
    return _SECRET


def form_token(caller: Caller, job_id: str, secret: bytes) -> str:
    """A token tying a verdict form to its reviewer and job (no cross-site posts)."""
    mac = hmac.new(secret, f"{caller.name}\n{job_id}".encode(), hashlib.sha256)
    return mac.hexdigest()


def _login_redirect(request: Request) -> RedirectResponse:
    """To the sign-in page, which comes back to this page afterwards; a browser holding a
    key that no longer works is told so."""
    query = {"next": request.url.path}
    if request.cookies.get(COOKIE):
        query["expired"] = "1"
    return RedirectResponse(f"/review/login?{urlencode(query)}", status_code=303)


def _local_page(path: str | None) -> str:
    """``path`` when it is one of this server's review pages, else the queue (a sign-in
    never sends a browser elsewhere)."""
    if path and re.fullmatch(r"/review(/[0-9A-Za-z_.:-]+)?", path) and path != "/review/login":
        return path
    return "/review"


@router.get("/review", response_class=HTMLResponse)
async def queue(
    request: Request,
    start: Annotated[int, Query(ge=0)] = 0,
    kind: Annotated[Literal["review", "escalation"] | None, Query()] = None,
) -> Response:
    caller = _caller(request)
    if caller is None:
        return _login_redirect(request)
    service: ApiService = request.app.state.service
    jobs = await run_in_threadpool(service.queue, QUEUE_PAGE, start, kind)
    total = await run_in_threadpool(service.queue_count, kind)
    view = {
        "jobs": jobs,
        "total": total,
        "kind": kind,
        "start": start,
        "next_start": start + QUEUE_PAGE if start + len(jobs) < total else None,
        "previous_start": max(start - QUEUE_PAGE, 0) if start else None,
        "caller": caller,
        "mode": service.mode,
    }
    return templates.TemplateResponse(request, "queue.html", view)


_EXPIRED = (
    "The key this browser signed in with is no longer configured, or lacks the review"
    " scope: sign in with a current key."
)
_MAKE_ONE = "a key made by: scoregate api-key NAME --scope review"


def key_refusal(request: Request, key: str | None, *, signed_in: bool) -> str | None:
    """Why ``key`` opens no review page: not configured on this server, or configured
    without the ``review`` scope (named, with the scopes it has); None when it does open
    them. ``signed_in``: the key is the one this browser's cookie holds."""
    if key is None:
        return _EXPIRED if signed_in else None
    caller = identify(request.app.state.api_keys, key)
    if caller is not None and "review" in caller.scopes:
        return None
    if caller is None:
        if signed_in:
            return (
                "The key this browser signed in with is no longer configured on this server:"
                " sign in with a current key."
            )
        return f"That key is not configured on this server: check it, or sign in with {_MAKE_ONE}."
    which = "The key this browser signed in with" if signed_in else "That key"
    may = "+".join(sorted(caller.scopes)) or "nothing"
    return (
        f"{which}, {caller.name!r}, is configured but lacks the review scope (it may {may}):"
        " add review to the scopes of its entry in SCOREGATE_API_KEYS, or sign in with"
        f" {_MAKE_ONE}."
    )


@router.get("/review/login", response_class=HTMLResponse)
async def login_form(request: Request, next: str | None = None, expired: bool = False) -> Response:
    error = key_refusal(request, request.cookies.get(COOKIE), signed_in=True) if expired else None
    view = {"error": error, "next": _local_page(next)}
    return templates.TemplateResponse(request, "login.html", view)


@router.post("/review/login")
async def login(
    request: Request,
    key: Annotated[str, Form(max_length=512)],
    next: Annotated[str, Form(max_length=512)] = "/review",
) -> Response:
    refusal = key_refusal(request, key, signed_in=False)
    if refusal is not None:
        return templates.TemplateResponse(
            request, "login.html", {"error": refusal, "next": next}, status_code=401
        )
    response = RedirectResponse(_local_page(next), status_code=303)
    secure = request.url.scheme == "https"  # behind TLS the key never travels in clear
    response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path="/", secure=secure)
    return response


@router.post("/review/logout")
async def logout(request: Request) -> Response:
    """Forget the key this browser signed in with (a shared desk's next user starts signed
    out)."""
    response = templates.TemplateResponse(
        request, "login.html", {"notice": "Signed out. This browser no longer holds the key."}
    )
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.get("/review/{job_id}", response_class=HTMLResponse)
async def job_page(request: Request, job_id: str, done: str | None = None) -> Response:
    caller = _caller(request)
    if caller is None:
        return _login_redirect(request)
    service: ApiService = request.app.state.service
    try:
        job = await run_in_threadpool(service.job, job_id, include_content=True)
    except (NotFoundError, ConflictError) as exc:  # no such job, or an ambiguous id start
        return templates.TemplateResponse(
            request, "error.html", {"message": str(exc)}, status_code=404
        )
    chart = await run_in_threadpool(score_chart, job, service)
    can_research = bool((job.get("hooks") or {}).get("research"))
    view = {
        "job": job,
        # off the event loop: the diffs of long answers take a while, and every other
        # request of the process would wait for them
        "iterations": await run_in_threadpool(iteration_views, job),
        "open": next((e for e in job["escalations"] if e["status"] == "open"), None),
        "chart": chart,
        "caller": caller,
        "token": form_token(caller, job_id, form_secret(request)),
        "verdicts": VERDICTS,
        "can_research": can_research,
        # read only where research is offered; None: its Redis does not answer
        "research_quota": await _quota_or_none(service) if can_research else None,
        "done": done_decision(job, done),
    }
    return templates.TemplateResponse(request, "job.html", view)


async def _quota_or_none(service: ApiService) -> Any:
    try:
        return await run_in_threadpool(research_quota, service.ctx)
    except QuotaUnavailable:
        return None


@router.post("/review/{job_id}")
async def decide(
    request: Request,
    job_id: str,
    verdict: Annotated[str, Form()] = "",
    token: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
    reviewer: Annotated[str, Form(max_length=255)] = "",
) -> Response:
    caller = _caller(request)
    if caller is None:
        return templates.TemplateResponse(
            request,
            "login.html",
            {
                "error": key_refusal(request, request.cookies.get(COOKIE), signed_in=True),
                "next": _local_page(f"/review/{job_id}"),
                "kept_note": note,
            },
            status_code=401,
        )
    if not hmac.compare_digest(token, form_token(caller, job_id, form_secret(request))):
        return _error(
            request,
            "This form is stale: the page was open across a server restart or a key change,"
            " or came from another site. Check the job as it is now and submit again.",
            job_id=job_id,
            kept_note=note,
        )
    if verdict not in VERDICTS:
        sent = f"Unknown verdict {verdict!r}" if verdict else "The form sent no verdict"
        message = f"{sent}: press one of the buttons ({', '.join(VERDICTS)})."
        return _error(request, message, job_id=job_id, kept_note=note)
    if len(note) > MAX_NOTE:
        message = (
            f"The note is {len(note):,} characters; at most {MAX_NOTE:,}: shorten it (it is"
            " below to copy) and submit again."
        )
        return _error(request, message, job_id=job_id, kept_note=note)
    service: ApiService = request.app.state.service
    who = recorded_name(request, caller, reviewer)
    try:
        await run_in_threadpool(service.review, job_id, verdict, who, note.strip() or None)
    except ConflictError as exc:  # someone else's verdict got there first, or nothing waits
        return await _already_decided(request, service, job_id, str(exc), note)
    except QuotaUnavailable as exc:  # research, Redis down: nothing changed, try again
        message = f"{exc} (the server log says why)"
        return _error(request, message, job_id=job_id, kept_note=note, status_code=503)
    except NotFoundError as exc:
        return _error(request, str(exc), kept_note=note)
    except ValueError as exc:  # the form's to fix (a reviewer name that cannot be recorded)
        return _error(request, str(exc), job_id=job_id, kept_note=note)
    return RedirectResponse(f"/review/{job_id}?done={verdict}", status_code=303)


def done_decision(job: dict[str, Any], done: str | None) -> dict[str, Any] | None:
    """The verdict ``?done=`` names, when it is the job's latest verdict; else None.

    Only the verdict words are read, and only a verdict the audit trail holds is shown, so
    a crafted link cannot show a "Recorded" banner for something nobody recorded.
    """
    if done not in VERDICTS:
        return None
    latest = _latest_verdict(job)
    return latest if latest is not None and latest["action"] == done else None


def _latest_verdict(job: dict[str, Any]) -> dict[str, Any] | None:
    """The job's latest human verdict (or cancel) in its audit trail, if any."""
    verdicts = [d for d in job["decisions"] if d["action"] in (*VERDICTS, "cancel")]
    return verdicts[-1] if verdicts else None


def _error(request: Request, message: str, status_code: int = 400, **extra: Any) -> Response:
    view = {"message": message, "caller": _caller(request), **extra}
    return templates.TemplateResponse(request, "error.html", view, status_code=status_code)


async def _already_decided(
    request: Request, service: ApiService, job_id: str, message: str, note: str
) -> Response:
    """The refusal of a verdict on a job no longer waiting: who decided it, when and with
    what note (the audit trail), a link to the job, and the reviewer's own note to copy."""
    try:
        job = await run_in_threadpool(service.job, job_id)
    except (NotFoundError, ConflictError):
        return _error(request, message, kept_note=note)
    return _error(
        request,
        message,
        decided=_latest_verdict(job),
        job_id=job["id"],
        kept_note=note,
    )


def iteration_views(job: dict[str, Any]) -> list[dict[str, Any]]:
    """Each iteration with its answer, the diff against the previous one and its reasons."""
    views: list[dict[str, Any]] = []
    previous: str | None = None
    for it in job["iterations"]:
        content = it.get("content") or ""
        result = ScoreResult.model_validate(it["result"]) if it.get("result") else None
        views.append(
            {
                "n": it["n"],
                "status": it["status"],
                "score": it.get("score"),
                "band": it.get("band"),
                "action": it.get("action"),
                "content": content,
                "diff": word_diff(previous, content) if previous is not None else None,
                "reasons": result.reasons if result else [],
                "failed": feedback(result, it["n"])["failed_constraints"] if result else [],
                "weakest": result.weakest_factors if result else [],
            }
        )
        previous = content
    return views


def score_chart(job: dict[str, Any], service: ApiService) -> str | None:
    """The job's score across iterations (``charts.plot_job``) as a data: URL, or None."""
    from scoregate.reports.charts import plot_job

    if not any(it.get("score") is not None for it in job["iterations"]):
        return None
    with tempfile.TemporaryDirectory(prefix="scoregate-chart-") as tmp:
        try:
            data = plot_job(job, Path(tmp) / "job.png", service.ctx.config).read_bytes()
        except Exception:  # a chart problem must not keep a reviewer from the verdict
            log.exception("cannot draw the chart of job %s", job["id"])
            return None
    return "data:image/png;base64," + base64.b64encode(data).decode()


def render_docs(request: Request, schema: dict[str, Any]) -> HTMLResponse:
    """A plain page of the OpenAPI schema: every path, its parameters, body and answers."""
    ops = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            ops.append({"path": path, "method": method.upper(), "op": op})
    return templates.TemplateResponse(
        request, "docs.html", {"info": schema.get("info", {}), "ops": ops, "schema": schema}
    )


problems.head_where_get(router)  # after every route of the pages above
