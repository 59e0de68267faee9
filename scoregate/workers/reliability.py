"""What keeps the pools serving under faults: retries, a delivery counter, refusals.

- Transient faults (Redis or Postgres unreachable) are retried with exponential
  backoff and full jitter; publishing retries briefly, then leaves the rest to the
  sweeper (Postgres is the record, see ``pipelines.sweeper``).
- A delivery counter per task message (Redis, keyed by the Celery task id) counts
  executions that started and never finished: the worker process died under them.
  A message that has killed ``Settings.max_deliveries`` workers is refused on its
  next delivery and its job marked failed with the reason, instead of looping forever.
- A message that can never succeed (wrong arguments, a malformed job id) is logged
  and dropped: acked, never retried, and the worker keeps serving.
- A database whose schema lacks a table or column (older than the code) is no transient
  fault: one ERROR line (repeated at most every ``SCHEMA_LOG_EVERY_S``) names the fix,
  ``scoregate db upgrade``, and the sweeper re-publishes the work once it is done.
"""

from __future__ import annotations

import logging
import ssl
import time
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import redis
from celery import signals
from kombu.exceptions import OperationalError as BrokerError
from redis.backoff import NoBackoff
from redis.retry import Retry
from sqlalchemy.exc import InterfaceError as DatabaseInterfaceError
from sqlalchemy.exc import OperationalError as DatabaseError
from sqlalchemy.exc import ProgrammingError as DatabaseSchemaError

from scoregate.config.settings import Settings, get_settings
from scoregate.logs import one_line, refuse_start

log = logging.getLogger(__name__)

#: Faults that pass: a retry later may succeed. Anything else is a bug or bad input.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    DatabaseError,
    DatabaseInterfaceError,
    BrokerError,
    redis.ConnectionError,
    redis.TimeoutError,
    ConnectionError,
    TimeoutError,
)
#: Faults of a schema older than the code (a table or column missing): no retry fixes them.
#: SQLite's "no such table" arrives as this too (``storage.db``).
SCHEMA_ERRORS: tuple[type[BaseException], ...] = (DatabaseSchemaError,)
#: A schema fault is logged as one ERROR line this often at most (DEBUG in between).
SCHEMA_LOG_EVERY_S = 300.0
#: Retries of a task after a transient fault (backoff 1, 2, 4 ... 60 s with jitter: ~5 min).
MAX_RETRIES = 10
RETRY_BACKOFF_MAX_S = 60
#: How long a delivery count lives in Redis (a message is never in flight for a day).
DELIVERY_KEY_TTL_S = 86_400
DELIVERY_PREFIX = "scoregate:deliveries:"
#: Visibility timeout of a process that serves no known pool (a client, `celery inspect`);
#: workers size theirs to their pools (``workers.startup.VISIBILITY_S``).
DEFAULT_VISIBILITY_S = 120
#: After a Redis error the counter is skipped this long, not retried for every message.
QUIET_AFTER_ERROR_S = 5.0


def reliability_config(settings: Settings) -> dict[str, Any]:
    """Celery settings for faults: never give up on the broker, retry publishing briefly."""
    return {
        # A worker whose broker is down keeps trying to reconnect instead of exiting
        # (an exit under a supervisor would be a crash loop).
        "broker_connection_retry": True,
        "broker_connection_retry_on_startup": True,
        "broker_connection_max_retries": None,
        "broker_connection_timeout": 5,
        # A publish waits out a short broker blip (about 10 s); after that the step's
        # rows are committed and the sweeper re-publishes what did not get out.
        "task_publish_retry": True,
        "task_publish_retry_policy": {
            "max_retries": 8,
            "interval_start": 0.2,
            "interval_step": 0.5,
            "interval_max": 2.0,
        },
        # Killing a task on connection loss would count as a death against its message.
        "worker_cancel_long_running_tasks_on_connection_loss": False,
        "redis_socket_connect_timeout": 5,
        "redis_retry_on_timeout": True,
        **tls_options(settings),
    }


def tls_options(settings: Settings) -> dict[str, Any]:
    """Verify the server's certificate on ``rediss://`` unless the URL says otherwise.

    kombu would connect to a ``rediss://`` broker without verifying its certificate,
    and Celery refuses a ``rediss://`` result backend without ``ssl_cert_reqs``. A URL
    that names ``ssl_cert_reqs`` (and ``ssl_ca_certs`` ...) keeps its own choice.
    """
    out: dict[str, Any] = {}
    required = {"ssl_cert_reqs": ssl.CERT_REQUIRED}
    if _tls_without_policy(settings.secret("broker_url")):
        out["broker_use_ssl"] = required
    if _tls_without_policy(settings.secret("result_backend")):
        out["redis_backend_use_ssl"] = required
    return out


def _tls_without_policy(url: str | None) -> bool:
    return url is not None and url.startswith("rediss://") and "ssl_cert_reqs=" not in url


def transport_options(settings: Settings) -> dict[str, Any]:
    """Redis transport options: visibility timeout, connect timeout, health checks.

    No ``retry_on_timeout``: a publish that fails is retried by Celery's publish retry
    policy (whole messages, see :func:`reliability_config`), and with it set kombu would
    refuse to pipeline a burst of publishes (``Producer.batch``), since redis-py could
    then replay a pipeline it cannot tell was applied.
    """
    return {
        "visibility_timeout": settings.visibility_timeout_s or DEFAULT_VISIBILITY_S,
        "socket_connect_timeout": 5,
        "health_check_interval": 25,
    }


@signals.worker_init.connect
def _check_config(**_: Any) -> None:
    """Refuse to start a worker whose configuration would fail every task it takes."""
    try:
        check_config()
    except (ValueError, FileNotFoundError) as exc:
        reason = f"invalid configuration: {exc}"
        refuse_start(reason)  # one line (one JSON record in json mode), not a CRITICAL line too
        raise StartRefused(reason) from None


#: Exit status of a worker that refuses to start for want of configuration.
EXIT_CONFIG = 2


class StartRefused(SystemExit):
    """A worker's refusal to start: exit status 2 (:data:`EXIT_CONFIG`), the reason
    written already (``scoregate.logs.refuse_start``); ``str()`` is the reason, for
    whoever catches it."""

    def __init__(self, reason: str) -> None:
        super().__init__(EXIT_CONFIG)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def check_config() -> None:
    """Load the scoring config and the workflow file now; errors say what is wrong.

    The config is read once per process (the pool's children inherit it): a changed file
    applies after a restart, or SIGHUP (the worker re-executes itself).
    """
    from scoregate.config.settings import get_scoring_config
    from scoregate.pipelines.workflow import load_workflow

    settings = get_settings()
    get_scoring_config()
    if settings.workflow_config:
        load_workflow(settings.workflow_config)


def config_identity() -> dict[str, str]:
    """The scoring config this process runs: its file (or ``packaged default``) and the
    digest of its effective content (``scoring_yaml.config_digest``)."""
    from scoregate.config.scoring_yaml import config_digest
    from scoregate.config.settings import get_scoring_config

    path = get_settings().scoring_config
    return {
        "path": str(path) if path else "packaged default",
        "digest": config_digest(get_scoring_config()),
    }


_schema_logged_at: float | None = None


def log_schema_fault(name: str, exc: BaseException) -> None:
    """One line for a schema fault, without a traceback, at ERROR once per
    :data:`SCHEMA_LOG_EVERY_S` (the sweeper meets it every few seconds)."""
    global _schema_logged_at
    now = time.monotonic()
    level = logging.ERROR
    if _schema_logged_at is not None and now - _schema_logged_at < SCHEMA_LOG_EVERY_S:
        level = logging.DEBUG
    else:
        _schema_logged_at = now
    cause = getattr(exc, "orig", None) or exc
    first = one_line(cause, limit=300)
    log.log(
        level,
        "%s: the database schema is older than this scoregate (%s: %s); run `scoregate db"
        " upgrade`: the sweeper re-publishes the work once it is done",
        name,
        type(cause).__name__,
        first,
    )


# --- the delivery counter -----------------------------------------------------------------------


class DeliveryGuard:
    """Counts, per task id, executions that began and did not end (the worker died).

    Every method degrades to "no count" when Redis is unreachable: the counter is a
    safety net, and a Redis blip must not stop scoring.
    """

    def __init__(self, client: Any | None, limit: int, ttl_s: int = DELIVERY_KEY_TTL_S) -> None:
        self.client: Any = client
        self.limit = limit
        self.ttl_s = ttl_s
        self._quiet_until = 0.0

    def _usable(self) -> bool:
        return self.client is not None and time.monotonic() >= self._quiet_until

    def _unavailable(self, exc: Exception) -> None:
        # Do not wait on a Redis that is down for every message: look again later.
        self._quiet_until = time.monotonic() + QUIET_AFTER_ERROR_S
        log.warning("delivery counter unavailable (%s): not counting", exc)

    def deaths(self, task_ids: Sequence[str]) -> list[int]:
        """How many earlier executions of each message never finished."""
        if not self._usable() or not task_ids:
            return [0] * len(task_ids)
        try:
            values = self.client.mget([DELIVERY_PREFIX + t for t in task_ids])
        except redis.RedisError as exc:
            self._unavailable(exc)
            return [0] * len(task_ids)
        return [int(v) if v is not None else 0 for v in values]

    def start(self, task_id: str) -> int:
        """Count an execution of one message as started; return the deaths before it."""
        if not self._usable():
            return 0
        key = DELIVERY_PREFIX + task_id
        try:
            count, _ = (
                self.client.pipeline(transaction=False).incr(key).expire(key, self.ttl_s).execute()
            )
        except redis.RedisError as exc:
            self._unavailable(exc)
            return 0
        return int(count) - 1

    def begin(self, task_ids: Iterable[str]) -> None:
        """Count an execution of each message as started."""
        self._run(task_ids, lambda pipe, key: (pipe.incr(key), pipe.expire(key, self.ttl_s)))

    def end(self, task_ids: Iterable[str]) -> None:
        """The process survived the execution: forget the count."""
        self._run(task_ids, lambda pipe, key: pipe.delete(key))

    def _run(self, task_ids: Iterable[str], op: Any) -> None:
        ids = [t for t in task_ids if t]
        if not self._usable() or not ids:
            return
        try:
            pipe = self.client.pipeline(transaction=False)
            for task_id in ids:
                op(pipe, DELIVERY_PREFIX + task_id)
            pipe.execute()
        except redis.RedisError as exc:
            self._unavailable(exc)

    def poison_reason(self, task_name: str, deaths: int) -> str:
        """The failure reason written on a job whose message killed its workers."""
        return (
            f"{task_name} message was delivered {deaths} times and the worker died each time"
            f" (limit SCOREGATE_MAX_DELIVERIES={self.limit}): refused"
        )


@lru_cache(maxsize=1)
def delivery_guard() -> DeliveryGuard:
    """This process's guard, on the Redis of the caches (none without Redis)."""
    settings = get_settings()
    url = settings.cache_redis_url()
    client = None
    if url is not None:
        # Short timeouts and no retries: a slow counter must not slow the pipeline.
        client = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=2, retry=Retry(NoBackoff(), 0)
        )
    return DeliveryGuard(client, settings.max_deliveries)


@signals.worker_process_init.connect
def _after_fork(**_: Any) -> None:
    delivery_guard.cache_clear()
