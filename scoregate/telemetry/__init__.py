"""Telemetry: the Prometheus metrics scoregate exports about itself.

:mod:`.prometheus` holds the pipeline's metrics (scores by band, latencies, decisions),
recorded by the pipeline steps. The HTTP API's own request metrics are in
``scoregate/server/telemetry.py``; a worker's ``/metrics`` endpoint in
``scoregate/workers/metrics.py``. ("Metrics" alone means the agents' eval metrics of
seed 000: ``schemas/metrics.py``, ``scoring/metrics.py``.)
"""
