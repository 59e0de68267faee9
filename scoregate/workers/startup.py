"""What a worker checks and sets up as it starts, from the pools it serves.

- No broker configured: it refuses to start (exit 2) instead of running on ``memory://``.
- A semantic or precision pool on a light install (no torch), or whose model is not on
  disk: it refuses to start (exit 2) with one line; its processes load the models as they
  start (``workers.models``).
- A pool worker with a broker but no ``SCOREGATE_DATABASE_URL``, or on a database with
  no scoregate tables or at an older migration: it refuses to start (exit 2), one line.
- No Redis: one line at start says which features are off.
- Redis broker: the visibility timeout of the pools it serves (:data:`VISIBILITY_S`),
  and per pool its own unacked-message keys, so one pool's timeout never restores
  another pool's messages.
- Queues declared the old way (every pool queue bound to exchange ``control`` with key
  ``control``) lose that binding: a message for ``control`` arrives in one queue only.
- ``celery inspect scoregate_config`` answers each worker's scoring config file and digest.
- A worker that consumes ``control`` sends the sweeper every ``SCOREGATE_SWEEP_INTERVAL_S``
  (unless ``SCOREGATE_SWEEPER=0``): no ``--beat`` needed. Celery's ``received`` and
  ``succeeded`` lines of a sweep that found nothing to do are logged at DEBUG.
"""

from __future__ import annotations

import difflib
import logging
import os
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from celery import bootsteps, signals
from celery.worker.control import inspect_command

from scoregate import extras
from scoregate.config.settings import Settings, get_settings
from scoregate.pipelines.context import POOLS, SWEEP
from scoregate.workers.reliability import config_identity, transport_options

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
#: Exit status of a worker that refuses to start for want of configuration.
EXIT_CONFIG = 2
DATABASE_VAR = "SCOREGATE_DATABASE_URL"
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


def database_line(settings: Settings) -> str | None:
    """The start-up line naming a database the worker cannot reach; None when it answers.

    The worker still starts (the database may only be restarting): each task retries the
    fault for about 5 minutes, and the sweeper sends it again later. But a wrong URL shows
    here, at start, not as jobs failing minutes later."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from scoregate.storage.db import redact_url, resolve_url

    url = resolve_url()
    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        return None  # a file: connecting would create it
    args = {"connect_timeout": 5} if backend == "postgresql" else {}
    engine = create_engine(url, connect_args=args)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # any failure: say which and go on
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return (
            f"database unreachable at {redact_url(url)}: {first}; this worker's tasks will"
            " retry and then be re-sent by the sweeper: check SCOREGATE_DATABASE_URL"
        )
    finally:
        engine.dispose()
    return None


def missing_database_line(
    settings: Settings, environ: Mapping[str, str] | None = None
) -> str | None:
    """The refusal of a worker with a broker but no ``SCOREGATE_DATABASE_URL``; else None.

    Without it the worker would record into a SQLite file of its own, which no client and
    no other worker reads: every message it took would be lost to its job.
    """
    if settings.broker_url is None or "database_url" in settings.model_fields_set:
        return None
    line = (
        f"scoregate: {DATABASE_VAR} is not set: a worker needs the database its clients and"
        f" the other workers share (e.g. {DATABASE_VAR}=postgresql://user@host:5432/scoregate)"
    )
    names = [k for k in (os.environ if environ is None else environ) if k.upper() != DATABASE_VAR]
    near = difflib.get_close_matches(DATABASE_VAR, [k.upper() for k in names], n=1, cutoff=0.8)
    if near:
        given = next(k for k in names if k.upper() == near[0])
        line += f"; did you mean {DATABASE_VAR}? {given} is set"
    return line


def schema_lines(settings: Settings) -> tuple[str | None, str | None]:
    """(refusal, warning) for the database's migrations against this code's; the database
    answers already (:func:`database_line`).

    Older than the code, or no tables: refused, since every step would fail on it. Newer
    (a rollback to this code after ``db upgrade`` ran): a warning, since migrations only add
    to the schema and older code keeps reading it.
    """
    from scoregate.storage.db import dispose_engines, schema_problem, schema_state

    try:
        state = schema_state()
    finally:
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
        print(NO_BROKER, file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)


def refuse_model_pools_without_models(pools: list[str]) -> None:
    """A semantic or precision worker without torch would fail on every batch: exit 2."""
    line = extras.model_pools_line(pools)
    if line is not None:
        print(line, file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)


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
        print(line, file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)
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
    log.info("scoring config: %s (digest %s)", identity["path"], identity["digest"])
    off = redis_off_line(settings)
    if off:
        log.warning(off)
    if "control" in pools:
        quiet_sweeps()
    if sweeper_on(settings, pools):
        log.info(
            "sweeper: every %g s, re-publishing iterations stuck over %g s"
            " (SCOREGATE_SWEEPER=0 turns it off)",
            settings.sweep_interval_s,
            settings.stuck_after_s,
        )


@signals.celeryd_after_setup.connect
def _check_database(instance: Any = None, **_: Any) -> None:
    """Refuse a pool worker without the shared database or on an older schema (exit 2);
    name a database it cannot reach (it starts: the database may only be restarting).

    Connected after :func:`_configure`, so a model pool without its models is refused first.
    """
    if instance is None:
        return
    settings = get_settings()
    pools = served_pools(instance.app.amqp.queues.consume_from or instance.app.amqp.queues)
    missing = missing_database_line(settings) if pools else None
    if missing:
        print(missing, file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)
    unreachable = database_line(settings)
    if unreachable:
        log.error(unreachable)
        return
    from sqlalchemy.engine import make_url

    from scoregate.storage.db import resolve_url

    if not pools or make_url(resolve_url()).get_backend_name() == "sqlite":
        return
    # reading the revision is not a migration: Alembic's INFO lines would only be noise
    logging.getLogger("alembic").setLevel(logging.WARNING)
    refusal, warning = schema_lines(settings)
    if refusal:
        print(refusal, file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)
    if warning:
        log.warning(warning)


@inspect_command()
def scoregate_config(state: Any, **_: Any) -> dict[str, str]:
    """``celery -A scoregate.workers inspect scoregate_config``: each worker's scoring config
    file and digest; fusion and control workers must all show one digest."""
    return config_identity()


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
    """Publish one sweep to ``control``; it expires unrun after one interval."""
    try:
        app.send_task(SWEEP, queue="control", expires=max(1.0, interval), retry=False)
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
