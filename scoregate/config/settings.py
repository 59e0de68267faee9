"""Process settings, from the environment (``SCOREGATE_*``).

Read by the command line, the workers, the pipelines and storage; never by
``scoring/`` (which takes its parameters from the scoring YAML, given by the caller).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config, validation_summary

#: The scoregate pools' queues (``pipelines.context.POOLS``): never a hook's or agent's.
_POOL_QUEUES = frozenset({"semantic", "precision", "reward", "fusion", "control"})


def _default_database_url() -> str:
    home = Path.home() / ".local" / "share" / "scoregate"
    return f"sqlite:///{home / 'scoregate.db'}"


#: ``SCOREGATE_LOG_FORMAT``'s choices.
LOG_FORMATS = ("text", "json")

#: Broker schemes named in the error for an unknown one.
_COMMON_BROKERS = frozenset({"amqp", "amqps", "pyamqp", "redis", "rediss", "sqs", "memory"})


class Settings(BaseSettings):
    """Process settings, from ``SCOREGATE_*`` environment variables."""

    model_config = SettingsConfigDict(
        env_prefix="SCOREGATE_", env_nested_delimiter="__", extra="ignore"
    )

    #: Celery broker. Unset means the embedded default: an in-process worker.
    broker_url: SecretStr | None = None
    #: Short-lived Celery results; Postgres is the system of record.
    result_backend: SecretStr | None = None
    #: Redis for caches and the research quota; defaults to the broker when it is Redis.
    redis_url: SecretStr | None = None
    database_url: SecretStr = Field(default_factory=lambda: SecretStr(_default_database_url()))
    scoring_config: Path | None = None
    workflow_config: Path | None = None
    #: Celery task names the loop may enqueue as agents, hooks, callbacks or research.
    allowed_tasks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    result_expires_s: int = Field(default=3600, ge=60)
    #: Redis broker: seconds a message stays unacked under a worker before another gets
    #: it. Unset: sized per pool (``workers.startup.VISIBILITY_S``: 120 s, control 90 s).
    visibility_timeout_s: int | None = Field(default=None, ge=60)
    task_time_limit_s: int = Field(default=600, ge=1)
    max_deliveries: int = Field(default=5, ge=1)
    #: The sweeper re-publishes iterations stuck longer than this.
    stuck_after_s: float = Field(default=30.0, gt=0)
    #: The sweeper re-sends the agent task of a job that waited on it longer than this.
    agent_timeout_s: float = Field(default=1800.0, gt=0)
    sweep_interval_s: float = Field(default=10.0, gt=0)
    #: Every worker that consumes ``control`` sends the sweeper every ``sweep_interval_s``.
    sweeper: bool = True
    batch_size: int = Field(default=32, ge=1)
    batch_interval_s: float = Field(default=0.05, ge=0)
    device: Literal["auto", "cpu", "cuda"] = "auto"
    #: Intra-op threads per model process. Set it so processes x threads <= cores: torch's
    #: OpenMP threads slow down many times over when model processes oversubscribe a CPU.
    torch_threads: int | None = Field(default=None, ge=1, le=256)
    #: How the models run on a CPU: ``torch`` (fp32) or ``int8`` (linear layers quantized
    #: after loading; faster, accuracy cost measured in docs/performance.md).
    cpu_backend: Literal["torch", "int8"] = "torch"
    #: Task events (sent, received, started, succeeded...) for Flower and `celery events`.
    #: Off saves their publishing on every hop; Flower then shows workers, not tasks.
    task_events: bool = True
    embedding_cache_ttl_s: int = Field(default=86_400, ge=0)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    #: The address a worker's ``/metrics`` listens on (no authentication): loopback unless
    #: set, e.g. ``0.0.0.0`` for Prometheus in another container or host.
    metrics_host: str = Field(default="127.0.0.1", min_length=1)
    #: HTTP API keys, comma-separated ``NAME:SCOPES:KEY`` (scopes joined by ``+``; KEY may be
    #: ``sha256:<hex>``); parsed by ``scoregate.server.auth``. Unset: ``serve`` binds loopback.
    api_keys: SecretStr | None = None
    #: Signs the review pages' form tokens; unset: derived from the API keys.
    review_secret: SecretStr | None = None
    #: ``scoregate serve`` gzips a response of this many bytes or more for a client that
    #: sends ``Accept-Encoding: gzip``; 0 sends every response uncompressed.
    http_gzip_min_bytes: int = Field(default=1000, ge=0)
    #: The queue of hook tasks (on_pass, on_loop_exit) given without one.
    hooks_queue: str = Field(default="hooks", pattern=r"^[A-Za-z0-9_.:-]{1,100}$")
    #: The queue of agent (and research) tasks given without one.
    agent_queue: str = Field(default="agents", pattern=r"^[A-Za-z0-9_.:-]{1,100}$")
    #: Times a failed agent task is sent again before its job fails (or escalates).
    agent_error_retries: int = Field(default=1, ge=0, le=20)
    #: ``text``: Celery's and uvicorn's lines; ``json``: one JSON object per record and line
    #: (``scoregate.logs``), for a log shipper.
    log_format: Literal["text", "json"] = "text"

    @field_validator("hooks_queue", "agent_queue")
    @classmethod
    def _not_a_pool(cls, v: str, info: ValidationInfo) -> str:
        # A pool worker discards task names it does not know: a hook sent there is lost.
        if v in _POOL_QUEUES:
            name = f"SCOREGATE_{str(info.field_name).upper()}"
            raise ValueError(
                f"{name}={v!r} names a scoregate pool queue; give a queue your own workers"
                " consume, e.g. 'hooks' or 'agents'"
            )
        return v

    @field_validator("log_format", mode="before")
    @classmethod
    def _log_format(cls, v: Any) -> Any:
        if not isinstance(v, str):
            return v
        choice = v.strip().lower()
        if choice not in LOG_FORMATS:
            raise ValueError(
                f"SCOREGATE_LOG_FORMAT={v!r} is not a log format: use text (the default)"
                " or json (one JSON object per line)"
            )
        return choice

    @field_validator("broker_url")
    @classmethod
    def _known_transport(cls, v: SecretStr | None) -> SecretStr | None:
        # checked here, before a job is recorded: an unknown scheme would fail only when the
        # first message is published, leaving the job behind unsent
        if v is None:
            return v
        scheme = v.get_secret_value().split("://", 1)[0].split("+", 1)[0].lower()
        from kombu.transport import TRANSPORT_ALIASES

        if scheme not in TRANSPORT_ALIASES:
            known = ", ".join(sorted(s for s in TRANSPORT_ALIASES if s in _COMMON_BROKERS))
            raise ValueError(
                f"SCOREGATE_BROKER_URL: no broker transport {scheme!r}; use one of {known}"
                " (e.g. redis://localhost:6379/0), or unset it for the embedded default"
            )
        return v

    @field_validator("allowed_tasks", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        if isinstance(v, str):
            return [s.strip() for s in v.split(",") if s.strip()]
        return v

    def cache_redis_url(self) -> str | None:
        """Redis for caches, the quota and the delivery counter: ``redis_url``, else the broker
        when it is Redis; ``None`` when there is no Redis."""
        url = self.secret("redis_url") or self.secret("broker_url")
        if url and url.startswith(("redis://", "rediss://", "unix://")):
            return url
        return None

    def uses_default_database(self) -> bool:
        """Whether the database is the embedded default, the SQLite file scoregate makes."""
        return self.secret("database_url") == _default_database_url()

    def secret(self, name: str) -> str | None:
        value = getattr(self, name)
        return value.get_secret_value() if value is not None else None


#: The variable naming the database every worker and client of one broker share.
DATABASE_VAR = "SCOREGATE_DATABASE_URL"
_DATABASE_EXAMPLE = f"{DATABASE_VAR}=postgresql+psycopg://user@host:5432/scoregate"


def missing_database(
    settings: Settings, who: str | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """Why a process with a broker but no ``SCOREGATE_DATABASE_URL`` must not go on; None
    when the variable is set or there is no broker.

    Without it the process would use the embedded default, a SQLite file of its own
    machine: a worker would record what it scored where no client reads it; a client
    (``who``, e.g. ``scoregate serve``) would record jobs no worker sees, and they would
    wait for ever. A variable of a close name (a misspelling) is named.
    """
    if settings.broker_url is None or "database_url" in settings.model_fields_set:
        return None
    if who is None:
        line = (
            f"{DATABASE_VAR} is not set: a worker needs the database its clients and the"
            f" other workers share (e.g. {_DATABASE_EXAMPLE})"
        )
    else:
        line = (
            f"{DATABASE_VAR} is not set, but SCOREGATE_BROKER_URL is: {who} needs the"
            f" database the workers share (e.g. {_DATABASE_EXAMPLE}): without it, it would"
            " work on a SQLite file of this machine that no worker uses (unset"
            " SCOREGATE_BROKER_URL for the embedded default)"
        )
    given = near_variable(DATABASE_VAR, environ)
    if given:
        line += f"; did you mean {DATABASE_VAR}? {given} is set"
    return line


#: The variable naming the broker; unset: the embedded default (an in-process worker).
BROKER_VAR = "SCOREGATE_BROKER_URL"
#: How close a set variable's name must be to :data:`BROKER_VAR` for a client to be refused
#: for it: a typo (a letter dropped, swapped or changed: 0.95 to 0.97), not a neighbour (a
#: test harness's ``..._TEST_BROKER_URL``: 0.89).
BROKER_TYPO_CUTOFF = 0.9


def near_variable(
    var: str, environ: Mapping[str, str] | None = None, cutoff: float = 0.8
) -> str | None:
    """A set variable whose name is close to ``var`` (a misspelling of it), or None.

    The settings' own variables never count (``SCOREGATE_REDIS_URL`` is close to
    ``SCOREGATE_BROKER_URL`` and set on purpose), nor ``var`` in another case (the
    settings read it)."""
    known = {f"SCOREGATE_{name.upper()}" for name in Settings.model_fields}
    names = [k for k in (os.environ if environ is None else environ) if k.upper() not in known]
    near = difflib.get_close_matches(var, [k.upper() for k in names], n=1, cutoff=cutoff)
    return next(k for k in names if k.upper() == near[0]) if near else None


def broker_hint(environ: Mapping[str, str] | None = None) -> str:
    """``; did you mean SCOREGATE_BROKER_URL? NAME is set`` for a misspelt broker variable,
    or "": the end of a line saying the broker is not set."""
    given = near_variable(BROKER_VAR, environ)
    return f"; did you mean {BROKER_VAR}? {given} is set" if given else ""


def misspelt_broker(
    settings: Settings, who: str, environ: Mapping[str, str] | None = None
) -> str | None:
    """Why a client (``who``) without ``SCOREGATE_BROKER_URL`` but with a variable of a name
    a typo away must not go on; None otherwise.

    Without a broker a client runs the embedded default: it scores in its own process with
    its own config and models and records into its database, which may be the fleet's; a
    misspelt broker variable makes that silent. A client without either variable stays
    embedded, as designed."""
    if settings.broker_url is not None:
        return None
    given = near_variable(BROKER_VAR, environ, cutoff=BROKER_TYPO_CUTOFF)
    if not given:
        return None
    return (
        f"{BROKER_VAR} is not set, but {given} is: did you mean {BROKER_VAR}? Without it"
        f" {who} would score in this process (the embedded default), not on the workers;"
        f" rename it to {BROKER_VAR}, or unset it to run embedded"
    )


class SettingsError(ValueError):
    """``SCOREGATE_*`` environment variables the settings refuse, one line per variable."""


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        summary = validation_summary(
            exc, lambda loc: "SCOREGATE_" + "__".join(map(str, loc)).upper()
        )
        raise SettingsError(summary) from None


@lru_cache(maxsize=4)
def get_scoring_config(path: str | None = None) -> ScoringConfig:
    """The scoring YAML at ``path``, else at ``SCOREGATE_SCORING_CONFIG``, over the defaults."""
    if path is None:
        configured = get_settings().scoring_config
        path = str(configured) if configured else None
    return load_scoring_config(path)
