"""Fault injection for the reliability tests, loaded into worker processes with ``--include``.

Environment switches (unset: no effect):

- ``SCOREGATE_TEST_FAKE_MODELS=1``: the model pools score with ``tests.fakes.FakeModels``
  (no torch, no model load), each batch taking ``SCOREGATE_TEST_BATCH_DELAY_S`` seconds.
- ``SCOREGATE_TEST_POISON=MARKER``: a model batch holding content with ``MARKER`` kills
  its worker process with SIGKILL, as a segfaulting or OOM-killed model would.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from scoregate.pipelines import steps
from scoregate.workers import runtime
from tests.fakes import FakeModels

#: The agent's pretend tasks stay available to workers that load this module.
from tests.integration import agent_app  # noqa: F401

_POISON = os.environ.get("SCOREGATE_TEST_POISON")
_DELAY = float(os.environ.get("SCOREGATE_TEST_BATCH_DELAY_S", "0") or 0)


class SlowFakeModels(FakeModels):
    """Deterministic scores after a fixed delay per batch (a model's forward pass)."""

    def score_pairs(self, track: str, pairs: list[tuple[str, str]]) -> Any:
        time.sleep(_DELAY)
        return super().score_pairs(track, pairs)


if os.environ.get("SCOREGATE_TEST_FAKE_MODELS") == "1":
    runtime._models = lambda: SlowFakeModels(default=0.9)  # type: ignore[assignment,return-value]

if _POISON:
    _marker: str = _POISON
    _model_tracks = vars(steps)["model_tracks"]

    def _poisoned(pairs: list[tuple[str, str]], track: str, models: Any) -> Any:
        if any(_marker in content for _, content in pairs):
            os.kill(os.getpid(), signal.SIGKILL)
        return _model_tracks(pairs, track, models)

    vars(steps)["model_tracks"] = _poisoned
