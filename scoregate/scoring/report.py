"""The seed-003 Markdown report section for a fused score.

The renderer reads only a ``ScoreResult``'s fields, so it lives in the bottom layer,
``scoregate.schemas.markdown``, where ``ScoreResult.to_markdown()`` reaches it without
an arrow back up; this name is kept for callers of the scoring API.
"""

from __future__ import annotations

from scoregate.schemas.markdown import render_markdown

__all__ = ["render_markdown"]
