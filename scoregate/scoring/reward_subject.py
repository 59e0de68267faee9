"""What the reward track's checks share: the content under check, with its derived views
computed once, and the track's time budget (seed 001, track 3: see
:mod:`scoregate.scoring.reward`)."""

from __future__ import annotations

import time
from functools import cached_property
from typing import NamedTuple

from scoregate.config.tracks import RewardConfig
from scoregate.scoring.text import CodeBlock, fenced_blocks, unfence


class Limit(NamedTuple):
    """How long a timed check may run, and whether the track's budget (not the timeout) set it."""

    seconds: float
    by_budget: bool

    def spent(self, what: str, cfg: RewardConfig, on: str = "") -> str:
        """Why ``what`` (``"regex"``, ``"search for function f"``) ``on`` something stopped."""
        if self.by_budget:
            return f"{what}{on} stopped after {self.seconds:.2g}s: {budget_ran_out(cfg)}"
        return f"{what} timed out after {self.seconds:g}s{on}"


def budget_ran_out(cfg: RewardConfig) -> str:
    """Why a check stopped or was not run: the track's ``reward.time_budget_s`` is spent."""
    return f"the reward track's time budget ({cfg.time_budget_s} s) ran out"


class Subject:
    """The content with the derived views the checks share, each computed at most once.

    ``deadline`` (``time.monotonic()``) is when the reward track's time budget runs out.
    """

    def __init__(self, content: str, deadline: float = float("inf")) -> None:
        self.content = content
        self.deadline = deadline

    def left(self) -> float:
        """Seconds left of the track's budget (0 or less once spent)."""
        return self.deadline - time.monotonic()

    def limit(self, cfg: RewardConfig) -> Limit:
        """``reward.regex_timeout_s``, capped by what is left of the track's budget."""
        left = max(self.left(), 0.001)
        if left < cfg.regex_timeout_s:
            return Limit(left, by_budget=True)
        return Limit(cfg.regex_timeout_s, by_budget=False)

    @cached_property
    def folded(self) -> str:
        return self.content.casefold()

    @cached_property
    def code(self) -> str:
        return unfence(self.content)

    @cached_property
    def fences(self) -> list[CodeBlock]:
        return fenced_blocks(self.content)

    @property
    def blocks(self) -> list[str]:
        return [b.body for b in self.fences]


#: A check's outcome: passed, and the reason either way.
Outcome = tuple[bool, str]


def quote(text: str, limit: int = 60) -> str:
    """A short quoted excerpt of user text for a reason."""
    return repr(text[:limit]) + ("…" if len(text) > limit else "")
