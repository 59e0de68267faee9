"""The calibration map in force: the newest stored one, cached per process for a while.

``scoregate calibrate`` stores a new version; every fusion process picks it up
within :data:`MAP_TTL_S` seconds, without a restart, and hands it to the fusion's
one calibration step (:func:`scoregate.scoring.calibration.calibrate`).
"""

from __future__ import annotations

import threading
import time

from sqlalchemy.orm import Session

from scoregate.scoring.calibration import METHODS, Calibrator
from scoregate.storage import repository as repo

#: Seconds a process keeps the map it read before asking the database again.
MAP_TTL_S = 60.0

_cache: dict[str, tuple[float, Calibrator | None]] = {}
_lock = threading.Lock()


def live_calibrator(session: Session) -> Calibrator | None:
    """The newest calibration map of the session's database, or None when none is stored."""
    key = session.get_bind().engine.url.render_as_string(hide_password=True)
    now = time.monotonic()
    with _lock:
        hit = _cache.get(key)
    if hit is not None and hit[0] > now:
        return hit[1]
    row = repo.latest_calibration_map(session)
    calibrator = None
    if row is not None and row.kind in METHODS:
        calibrator = Calibrator(kind=row.kind, params=dict(row.params))
    with _lock:
        _cache[key] = (now + MAP_TTL_S, calibrator)
    return calibrator


def forget() -> None:
    """Drop the cached maps: the next fusion in this process reads the newest one."""
    with _lock:
        _cache.clear()
