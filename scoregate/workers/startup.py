"""What a worker checks and sets up as it starts, from the pools it serves.

- No broker configured: it refuses to start (exit 2) instead of running on ``memory://``.
- A semantic or precision pool on a light install (no torch), or whose model is not on
  disk: it refuses to start (exit 2) with one line; its processes load the models as they
  start (``workers.models``).
- A pool worker with a broker but no ``SCOREGATE_DATABASE_URL``, or on a database with
  no scoregate tables or at an older migration (Postgres, or a SQLite file named in the
  URL): it refuses to start (exit 2), one line.
- A database that does not answer at start: one ERROR line, and the worker starts; once
  the database answers, a thread checks its schema and stops a pool worker (exit 2, one
  ERROR line) on a schema it cannot use (:func:`watch_schema`).
- A node name another live worker on the broker answers to: one WARNING naming ``--name``
  (:func:`check_node_name`, at ready, at most :data:`NAME_CHECK_TIMEOUT_S`).
- No Redis: one line at start says which features are off.
- Redis broker: the visibility timeout of the pools it serves (:data:`VISIBILITY_S`),
  and per pool its own unacked-message keys, so one pool's timeout never restores
  another pool's messages.
- Queues declared the old way (every pool queue bound to exchange ``control`` with key
  ``control``) lose that binding: a message for ``control`` arrives in one queue only.
- ``celery inspect scoregate_config`` answers each worker's scoring config file and digest,
  and its scoregate version.
- A worker that consumes ``control`` sends the sweeper every ``SCOREGATE_SWEEP_INTERVAL_S``
  (unless ``SCOREGATE_SWEEPER=0``): no ``--beat`` needed. Celery's ``received`` and
  ``succeeded`` lines of a sweep that found nothing to do are logged at DEBUG.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from celery import bootsteps, signals
from celery.worker.control import inspect_command

from scoregate import extras
from scoregate._version import __version__
from scoregate.config.settings import (
    DATABASE_VAR,
    Settings,
    broker_hint,
    get_settings,
    missing_database,
)
from scoregate.logs import OUTAGE_HINT, URL_FAULTS, one_line, refuse_start
from scoregate.pipelines.context import POOLS, SWEEP
from scoregate.workers.reliability import (
    EXIT_CONFIG,
    StartRefused,
    config_identity,
    transport_options,
)

log = logging.getLogger(__name__)

#: Seconds a Redis-broker message may stay unacked under a worker before Redis hands it
#: to another: above the longest a message waits in a worker (a batch's scoring, a
#: retry's countdown of at most 60 s), below the 60 s a lost message may cost.
VISIBILITY_S: dict[str, int] = {
    "semantic": 120,
    "precision": 120,
    "reward": 120,
    "fusion": 120,
    "control": 90,
}
#: Added to SCOREGATE_AGENT_TIMEOUT_S for a worker that runs agent or hook tasks.
AGENT_MARGIN_S = 60
NO_BROKER = (
    "scoregate: SCOREGATE_BROKER_URL is not set: a worker needs a broker"
    " (e.g. SCOREGATE_BROKER_URL=redis://localhost:6379/0 or amqp://user:pass@host:5672//);"
    " without one, use the embedded default (`scoregate score`, `scoregate demo`)"
)


def served_pools(queues: Iterable[str]) -> list[str]:
    """The scoregate pools among the queues a worker consumes, in pipeline order."""
    names = set(queues)
    return [pool for pool in POOLS if pool in names]


def pool_transport_options(
    settings: Settings, pools: list[str], *, other_queues: bool = False
) -> dict[str, Any]:
    """Broker transport options for a worker serving ``pools``.

    The timeout is ``SCOREGATE_VISIBILITY_TIMEOUT_S`` when set, else the largest of
    :data:`VISIBILITY_S` over the pools and, for a worker that also consumes other queues
    (agent and hook tasks run on scoregate's app), ``SCOREGATE_AGENT_TIMEOUT_S`` + 60 s:
    an agent runs for minutes, and Redis would hand a message still running to another
    worker after 120 s, which runs it again. A worker of exactly one pool, or of other
    queues only, keeps its unacked messages under keys of its own (``unacked:<pool>``,
    ``unacked:tasks``), so no worker with a shorter timeout restores them.
    """
    options = transport_options(settings)
    if settings.visibility_timeout_s is None and (pools or other_queues):
        sizes = [VISIBILITY_S[p] for p in pools]
        if other_queues:
            sizes.append(int(settings.agent_timeout_s) + AGENT_MARGIN_S)
        options["visibility_timeout"] = max(sizes)
    if other_queues:
        own = None if pools else "tasks"
    else:
        own = pools[0] if len(pools) == 1 else None
    if own is not None:
        options["unacked_key"] = f"unacked:{own}"
        options["unacked_index_key"] = f"unacked_index:{own}"
        options["unacked_mutex_key"] = f"unacked_mutex:{own}"
    return options


def outage_fix(reason: str) -> str:
    """How to mend a connection the database did not take: check the URL when ``reason``
    says the URL is wrong (:data:`URL_FAULTS`), else wait or check the server."""
    low = reason.lower()
    return f"check {DATABASE_VAR}" if any(m in low for m in URL_FAULTS) else OUTAGE_HINT


def database_line(settings: Settings) -> str | None:
    """The start-up line naming a database the worker cannot reach; None when it answers.

    The worker still starts (the database may only be restarting): each task retries the
    fault for about 5 minutes, and the sweeper sends it again later; a pool worker checks
    the schema once the database answers (:func:`watch_schema`). But a wrong URL shows
    here, at start, not as jobs failing minutes later."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from scoregate.storage.db import redact_url, resolve_url

    url = resolve_url()
    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        return None  # a file: connecting would create it (:func:`sqlite_file_line`)
    args = {"connect_timeout": 5} if backend == "postgresql" else {}
    engine = create_engine(url, connect_args=args)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # any failure: say which and go on
        first = one_line(exc, limit=300)
        return (
            f"database unreachable at {redact_url(url)}: {first}; this worker's tasks will"
            f" retry and then be re-sent by the sweeper: {outage_fix(str(exc))}"
        )
    finally:
        engine.dispose()
    return None


def sqlite_file_line(url: str) -> str | None:
    """The refusal of a SQLite URL whose file does not exist; None for any other URL.

    Connecting would make an empty file there, which the schema check then refuses: the
    refusal comes first, and no file is left behind."""
    from sqlalchemy.engine import make_url

    from scoregate.storage.db import UPGRADE_HINT, redact_url

    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    if database.startswith("file:") or Path(database).expanduser().exists():
        return None
    return (
        f"scoregate: the database at {redact_url(url)} has no scoregate tables (the file"
        f" does not exist); {UPGRADE_HINT}, or check {DATABASE_VAR}"
    )


def missing_database_line(
    settings: Settings, environ: Mapping[str, str] | None = None
) -> str | None:
    """The refusal of a worker with a broker but no ``SCOREGATE_DATABASE_URL``; else None.

    Without it the worker would record into a SQLite file of its own, which no client and
    no other worker reads: every message it took would be lost to its job
    (:func:`scoregate.config.settings.missing_database`, which names a misspelt variable).
    """
    line = missing_database(settings, environ=environ)
    return None if line is None else f"scoregate: {line}"


def schema_lines(settings: Settings, *, private: bool = False) -> tuple[str | None, str | None]:
    """(refusal, warning) for the database's migrations against this code's; the database
    answers already (:func:`database_line`).

    Older than the code, or no tables: refused, since every step would fail on it. Newer
    (a rollback to this code after ``db upgrade`` ran): a warning, since migrations only add
    to the schema and older code keeps reading it.
    """
    from scoregate.storage.db import dispose_engines, schema_problem, schema_state

    try:  # private: a running worker's check leaves the engines its tasks share alone
        state = schema_state(private=private)
    finally:
        if not private:
            dispose_engines()  # no connection of the main process is left for the children
    problem = schema_problem(state)
    if problem is not None:
        return f"scoregate: {problem}", None
    if state.state == "newer":
        return None, (
            f"the database at {state.shown_url} is at migration {state.current}, which this"
            f" scoregate (at {state.head}) does not know: a newer scoregate migrated it;"
            " this worker runs on it (migrations only add), but should run that version too"
        )
    return None, None


def redis_off_line(settings: Settings) -> str | None:
    """The one start-up line naming what is off without Redis; None with Redis."""
    if settings.cache_redis_url() is not None:
        return None
    return (
        "no Redis (SCOREGATE_REDIS_URL unset and the broker is not Redis): off:"
        " poison-message protection (the delivery counter), the research quota shared"
        " across workers (each process counts its own), the embedding and score caches;"
        " set SCOREGATE_REDIS_URL=redis://HOST:6379/0 to turn them on"
    )


def sweeper_on(settings: Settings, pools: list[str]) -> bool:
    return settings.sweeper and "control" in pools


@signals.celeryd_init.connect
def _refuse_memory_broker(conf: Any = None, **_: Any) -> None:
    """A worker without a broker would report `ready` on ``memory://`` and serve nothing."""
    url = str(getattr(conf, "broker_url", "") or "") if conf is not None else ""
    if get_settings().broker_url is None and url.startswith("memory://"):
        refuse(NO_BROKER + broker_hint())


def refuse_model_pools_without_models(pools: list[str]) -> None:
    """A semantic or precision worker without torch would fail on every batch: exit 2."""
    line = extras.model_pools_line(pools)
    if line is not None:
        refuse(line)


def refuse_model_pools_without_their_model(conf: Any, pools: list[str]) -> None:
    """A model pool whose model is not on disk would fail every track: exit 2. Its
    processes load the models as they start, given the time to (``models.PROCESS_START_S``).
    """
    from scoregate.workers.command import MODEL_POOLS

    model_pools = [p for p in pools if p in MODEL_POOLS]
    if not model_pools:
        return
    from scoregate.config.settings import get_scoring_config
    from scoregate.workers.models import PROCESS_START_S, missing_model_line

    try:
        config = get_scoring_config()
    except (ValueError, OSError):  # refused with its own line (reliability.check_config)
        return
    line = missing_model_line(model_pools, config)
    if line is not None:
        refuse(line)
    conf.worker_proc_alive_timeout = max(
        float(getattr(conf, "worker_proc_alive_timeout", 0) or 0), PROCESS_START_S
    )


@signals.celeryd_after_setup.connect
def _configure(instance: Any = None, conf: Any = None, **_: Any) -> None:
    """Queues are known now, the broker connection not made yet."""
    if instance is None or conf is None:
        return
    settings = get_settings()
    queues = list(instance.app.amqp.queues.consume_from or instance.app.amqp.queues)
    pools = served_pools(queues)
    others = sorted(set(queues) - set(pools))
    refuse_model_pools_without_models(pools)
    refuse_model_pools_without_their_model(conf, pools)
    if str(conf.broker_url or "").startswith(("redis://", "rediss://", "unix://")):
        conf.broker_transport_options = pool_transport_options(
            settings, pools, other_queues=bool(others)
        )
        log.info(
            "visibility timeout %s s for %s",
            conf.broker_transport_options["visibility_timeout"],
            ", ".join(pools + others) or "no queue",
        )
    identity = config_identity()
    log.info(
        "scoregate %s, scoring config: %s (digest %s)",
        __version__,
        identity["path"],
        identity["digest"],
    )
    off = redis_off_line(settings)
    if off:
        log.warning(off)
    if "control" in pools:
        quiet_sweeps()
    if sweeper_on(settings, pools):
        log.info(
            "sweeper: every %g s, re-publishing iterations stuck over %g s"
            " (SCOREGATE_SWEEPER=false turns it off)",
            settings.sweep_interval_s,
            settings.stuck_after_s,
        )


@signals.celeryd_after_setup.connect
def _check_database(instance: Any = None, **_: Any) -> None:
    """Refuse a pool worker without the shared database or on an older schema (exit 2);
    name a database it cannot reach (it starts: the database may only be restarting, and
    a pool worker checks the schema once it answers: :func:`_watch_schema`).

    Connected after :func:`_configure`, so a model pool without its models is refused first.
    """
    if instance is None:
        return
    settings = get_settings()
    pools = served_pools(instance.app.amqp.queues.consume_from or instance.app.amqp.queues)
    missing = missing_database_line(settings) if pools else None
    if missing:
        refuse(missing)
    from sqlalchemy.engine import make_url

    from scoregate.storage.db import resolve_url

    url = resolve_url()
    if make_url(url).get_backend_name() == "sqlite":
        # the embedded default is migrated by whoever makes it; a file the user named is not
        if not pools or settings.uses_default_database():
            return
        absent = sqlite_file_line(url)
        if absent:
            refuse(absent)
    else:
        unreachable = database_line(settings)
        if unreachable:
            log.error(unreachable)
            if pools:
                SCHEMA_UNCHECKED.set()
                note_database_fault(unreachable)
            return
        if not pools:
            return
    refusal, warning = quiet_schema_lines(settings)
    if refusal:
        refuse(refusal)
    if warning:
        log.warning(warning)


def refuse(line: str) -> None:
    """Write the refusal on stderr and stop the start (exit 2): ``error: LINE``, or with
    ``SCOREGATE_LOG_FORMAT=json`` one JSON record (``scoregate.logs.refusal_line``)."""
    refuse_start(line)
    raise StartRefused(line.removeprefix("scoregate: "))


def quiet_schema_lines(
    settings: Settings, *, private: bool = False
) -> tuple[str | None, str | None]:
    """:func:`schema_lines`, without Alembic's INFO lines: reading the revision is not a
    migration, and they would only be noise in the worker's log."""
    logging.getLogger("alembic").setLevel(logging.WARNING)
    return schema_lines(settings, private=private)


#: Seconds between tries of a database that did not answer at start, until it answers.
RECHECK_EVERY_S = 5.0
#: Set at start when the database did not answer, so its schema is still to be checked.
SCHEMA_UNCHECKED = threading.Event()
#: Set when the worker shuts down: the schema watch gives up.
WORKER_STOPPING = threading.Event()

#: The start-up line of a pool worker's database that did not answer (:func:`database_fault`).
_database_fault = ""
#: Set while the schema watch waits for a database that did not answer at start.
WAITING_FOR_DATABASE = threading.Event()


def note_database_fault(line: str) -> None:
    """Keep ``line`` as why the database did not answer at start (:func:`database_fault`)."""
    global _database_fault
    _database_fault = line


def database_fault() -> str:
    """Why this pool worker's database has not answered since it started (the start-up
    line), until it does; "" when it answered. ``scoregate_config`` answers it, so
    ``scoregate workers`` flags a worker that takes messages it cannot record."""
    waiting = SCHEMA_UNCHECKED.is_set() or WAITING_FOR_DATABASE.is_set()
    return _database_fault if waiting else ""


def schema_verdict(settings: Settings) -> tuple[str | None, str | None] | None:
    """(refusal, warning) of the database's schema (:func:`schema_lines`); None while the
    database does not answer."""
    if database_line(settings) is not None:
        return None
    try:
        return quiet_schema_lines(settings, private=True)  # tasks may be running meanwhile
    except Exception as exc:  # gone again between the two, or mid-restart: try later
        log.debug("schema check postponed: %s: %s", type(exc).__name__, exc)
        return None


def watch_schema(
    settings: Settings,
    stop_worker: Callable[[int], None],
    *,
    every: float = RECHECK_EVERY_S,
    stopping: threading.Event = WORKER_STOPPING,
    verdict: Callable[[Settings], tuple[str | None, str | None] | None] = schema_verdict,
) -> bool:
    """Check the schema once the database first answers, as the start-up check would have.

    Tries every ``every`` seconds until the database answers or ``stopping`` is set. A
    schema the worker cannot use (no tables, an older migration) is one ERROR line naming
    ``scoregate db upgrade``, and ``stop_worker(2)``: the worker stops consuming and exits
    2, as when it refuses to start, so its supervisor sees it. A newer one is a WARNING.
    Returns whether it stopped the worker.
    """
    while not stopping.is_set():
        found = verdict(settings)
        if found is None:
            stopping.wait(every)
            continue
        WAITING_FOR_DATABASE.clear()  # it answers now
        refusal, warning = found
        if refusal:
            shown = refusal.removeprefix("scoregate: ")
            log.error("%s: this worker stops (exit %d)", shown, EXIT_CONFIG)
            stop_worker(EXIT_CONFIG)
            return True
        if warning:
            log.warning(warning)
        else:
            log.info("the database answers now; its schema is this scoregate's")
        return False
    return False


def stop_consuming(code: int) -> None:
    """Have the worker stop as on ``SIGTERM`` (a warm shutdown), but exit ``code``: its event
    loop reads Celery's ``should_stop`` on every turn."""
    from celery.worker import state

    state.should_stop = code


def start_schema_watch(settings: Settings) -> threading.Thread:
    """Run :func:`watch_schema` in a daemon thread of this (the main) process."""
    WAITING_FOR_DATABASE.set()
    thread = threading.Thread(
        target=watch_schema,
        args=(settings, stop_consuming),
        name="scoregate-schema-watch",
        daemon=True,
    )
    thread.start()
    return thread


@signals.worker_ready.connect
def _watch_schema(**_: Any) -> None:
    """The database did not answer at start: check its schema once it does (never blocking
    the worker; the pool has forked, so no child inherits the thread)."""
    if SCHEMA_UNCHECKED.is_set():
        SCHEMA_UNCHECKED.clear()
        start_schema_watch(get_settings())


@signals.worker_shutdown.connect
def _stop_watching(**_: Any) -> None:
    WORKER_STOPPING.set()


#: Seconds a ready worker waits for the answers that show its node name is taken.
NAME_CHECK_TIMEOUT_S = 2.0
#: The most answers the node name check waits for: Celery stops at one answer per
#: destination unless told otherwise, and the answer it kept could be this worker's own.
NAME_CHECK_ANSWERS = 32
#: This worker process's own mark, in its answer to ``scoregate_node``: an answer under
#: its node name without it comes from another worker.
INSTANCE = uuid.uuid4().hex


def name_clash_line(hostname: str, replies: Iterable[Mapping[str, Any]]) -> str | None:
    """The WARNING for a node name that other live workers answer to; None when only this
    worker does. An answer without this worker's :data:`INSTANCE` is another worker's (an
    older scoregate answers with an error: another worker too)."""
    answers = [a for reply in replies for name, a in reply.items() if name == hostname]
    others = sum(1 for a in answers if not (isinstance(a, dict) and a.get("instance") == INSTANCE))
    if not others:
        return None
    workers = (
        "another live worker answers" if others == 1 else f"{others} other live workers answer"
    )
    return (
        f"node name {hostname} is taken: {workers} to it on this broker, so"
        " `scoregate workers` and `celery inspect` see them as one; give each worker its own"
        " name with `scoregate worker --name NAME` (or `celery worker -n NAME@%h`)"
    )


def check_node_name(app: Any, hostname: str, timeout: float = NAME_CHECK_TIMEOUT_S) -> str | None:
    """Ask the workers named ``hostname`` who they are; log :func:`name_clash_line` as a
    WARNING and return it. A broker that does not answer is no clash (DEBUG line)."""
    try:
        replies = app.control.broadcast(
            "scoregate_node",
            destination=[hostname],
            reply=True,
            timeout=timeout,
            limit=NAME_CHECK_ANSWERS,
        )
    except Exception as exc:  # the broker went away: the name is not known to clash
        log.debug("node name check skipped: %s: %s", type(exc).__name__, exc)
        return None
    line = name_clash_line(hostname, replies or [])
    if line:
        log.warning(line)
    return line


@signals.worker_ready.connect
def _check_node_name(sender: Any = None, **_: Any) -> None:
    """At ready, in a daemon thread: the broadcast's answers take up to 2 s to gather."""
    hostname = getattr(sender, "hostname", None)
    if sender is None or not hostname:
        return
    threading.Thread(
        target=check_node_name,
        args=(sender.app, hostname),
        name="scoregate-node-name",
        daemon=True,
    ).start()


@inspect_command()
def scoregate_node(state: Any, **_: Any) -> dict[str, str]:
    """Which worker process answers to this node name (:data:`INSTANCE`): the check of a
    node name two workers share (:func:`check_node_name`)."""
    return {"instance": INSTANCE}


@inspect_command()
def scoregate_config(state: Any, **_: Any) -> dict[str, str]:
    """``celery -A scoregate.workers inspect scoregate_config``: each worker's scoring config
    file and digest, and its scoregate version; fusion and control workers must all show
    one digest. A pool worker whose database has not answered since it started adds
    ``database``: why (:func:`database_fault`)."""
    answer = {**config_identity(), "version": __version__}
    fault = database_fault()
    if fault:
        answer["database"] = fault
    return answer


#: Celery's loggers of a task's ``received`` and ``succeeded`` lines.
TASK_LINE_LOGGERS = ("celery.worker.strategy", "celery.app.trace")


class QuietSweeps(logging.Filter):
    """The sweep's ``received`` line, and its ``succeeded`` line when it re-published
    nothing, at DEBUG: two INFO lines every 10 s per control worker were 81% of its log.
    A sweep that did re-publish keeps its INFO line (after the sweeper's WARNING)."""

    def filter(self, record: logging.LogRecord) -> bool:
        from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS

        data = getattr(record, "data", None)
        if record.levelno != logging.INFO or not isinstance(data, dict):
            return True
        if data.get("name") != SWEEP or record.msg not in (LOG_RECEIVED, LOG_SUCCESS):
            return True  # a retry or a failure of the sweep stays in sight
        if record.msg == LOG_SUCCESS and str(data.get("return_value")) not in ("0", "None"):
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_sweeps() -> None:
    """Put :class:`QuietSweeps` on Celery's task line loggers (once)."""
    for name in TASK_LINE_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietSweeps) for f in logger.filters):
            logger.addFilter(QuietSweeps())


class Upkeep(bootsteps.StartStopStep):  # type: ignore[misc]
    """Consumer step: drops stale bindings, then sends the sweeper on a timer.

    A consumer step starts again after every reconnection to the broker (Celery clears
    the event loop's timers then), so the timer always runs while the worker is served.
    """

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, c: Any) -> None:
        pools = served_pools(c.app.amqp.queues.consume_from or c.app.amqp.queues)
        drop_stale_bindings(c.connection, pools)
        settings = get_settings()
        if sweeper_on(settings, pools):
            interval = settings.sweep_interval_s
            # At once too: after a broker outage the stuck work is due already.
            send_sweep(c.app, interval)
            self.tref = c.timer.call_repeatedly(interval, send_sweep, (c.app, interval))

    def stop(self, c: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None

    shutdown = stop


def send_sweep(app: Any, interval: float) -> None:
    """Publish one sweep to ``control``; it expires unrun after one interval.

    Housekeeping stays off the event stream: no ``task-sent`` event here (the sweep task
    itself sends none from the worker, ``send_events=False``), so Flower's task list and
    ``celery events`` show the jobs' work only. ``inspect stats`` still counts sweeps.
    """
    try:
        ttl = max(1.0, interval)
        message = app.amqp.create_task_message(
            str(uuid.uuid4()), SWEEP, (), {}, expires=ttl, create_sent_event=False
        )
        with app.producer_or_acquire() as producer:
            app.amqp.send_task_message(
                producer, SWEEP, message, queue="control", retry=False, expiration=ttl
            )
    except Exception as exc:  # the broker is away: the next tick tries again
        log.warning("sweeper: cannot publish the sweep (%s); trying again next tick", exc)


#: How queues were bound before each pool had its own exchange.
STALE_EXCHANGE = STALE_ROUTING_KEY = "control"


def drop_stale_bindings(connection: Any, pools: list[str]) -> int:
    """Unbind the pool queues (not ``control``) from exchange ``control``, key ``control``.

    Returns how many unbinds were sent; a queue or binding that is not there is fine.
    """
    done = 0
    for pool in pools:
        if pool == STALE_EXCHANGE:
            continue
        channel = connection.channel()
        try:
            channel.queue_unbind(queue=pool, exchange=STALE_EXCHANGE, routing_key=STALE_ROUTING_KEY)
            done += 1
        except Exception as exc:  # no such queue or exchange: nothing to drop
            log.debug("no stale binding of %s: %s", pool, exc)
        finally:
            try:
                channel.close()
            except Exception:  # a channel the broker closed already
                log.debug("channel of %s closed already", pool)
    if done:
        log.info("queues bound only to their own exchange: %s", ", ".join(pools))
    return done


def install(app: Any) -> None:
    """Add the :class:`Upkeep` consumer step to ``app``."""
    app.steps["consumer"].add(Upkeep)
