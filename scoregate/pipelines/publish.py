"""What every pipeline step shares once it has decided: publishing its messages.

``control``, ``review``, ``sweeper``, ``agent_errors`` and ``steps`` all end a step the
same way (rows committed, then the messages they imply published); they import this
module, never each other's private helpers, so the pipelines package has no import
circle.
"""

from __future__ import annotations

import logging

from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import Message, PublishError

log = logging.getLogger(__name__)

#: The subject the seed-002 research quota counts under: one shared hourly quota.
RESEARCH_SUBJECT = "global"


def publish(ctx: PipelineContext, messages: list[Message]) -> None:
    """Send ``messages`` after their rows are committed.

    A broker failure is logged, not raised: the rows are committed, so the sweeper
    re-publishes what did not get out.
    """
    try:
        ctx.dispatcher.send_many(messages)
    except PublishError as exc:
        log.error("%s; %d message(s) left to the sweeper", exc, len(messages))
