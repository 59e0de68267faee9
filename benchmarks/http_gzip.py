"""What gzip saves on the HTTP API's answers, measured in one run against ``scoregate serve``.

The server runs embedded (its own models, a SQLite file) with ``SCOREGATE_HTTP_GZIP_MIN_BYTES``
at its default; ``--jobs`` jobs are submitted and scored. Then each answer below is asked
for with ``Accept-Encoding: identity`` and with ``gzip``, and the bytes the server sent
(the body as it came over the socket, before any decoding) are counted: a job view (as
``GET /v1/jobs/{id}`` sends it by default, and with ``?content=true``), a page of the job
list, a score breakdown (``POST /v1/score``), ``/openapi.json``, a review page and
``/metrics``. The time of ``--calls`` loopback calls each way is given too (gzip's CPU
cost), and what levels 1, 6 (the server's) and 9 would make of the same bodies.

    python benchmarks/http_gzip.py [--jobs 20] [--calls 50] [--torch-threads 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_http import server  # the same launcher as the HTTP benchmark

QUERY = "How do I rotate the API keys of our scoring service without downtime?"
ANSWERS = [
    "Add the new key next to the old one first: SCOREGATE_API_KEYS takes a comma-separated"
    " list, so both are valid at once. Restart the server, move each client to the new key,"
    " watch the access log until no call uses the old one, then remove it and restart again."
    " Keep the review secret set on its own so open review forms survive the change.",
    "Generate a key with `scoregate api-key ci --scope submit --scope read`, which prints the"
    " key once and the entry to configure. Give the entry to the server beside the current"
    " one, deploy, and switch the CI job's secret. When the old key has been idle for a day,"
    " drop its entry. Nothing is lost in between: both keys are accepted while you move.",
    "You can't rotate them without downtime; the server reads keys only at start.",
    "Rotate keys by editing the database table of keys and flushing Redis; then every worker"
    " picks up the change on its next task. Make sure to also rotate the Postgres password.",
]
SCORE_BODY = {
    "query": QUERY,
    "content": ANSWERS[0],
    "constraints": [{"kind": "not_contains", "value": "password", "hard": True}],
}


def raw_size(
    client: httpx.Client, method: str, path: str, coding: str, **kw: Any
) -> tuple[int, bool]:
    """The body's bytes as sent (``iter_raw``: not decoded), checked against its
    Content-Length, and whether they came gzipped."""
    with client.stream(method, path, headers={"accept-encoding": coding}, **kw) as r:
        r.raise_for_status()
        body = b"".join(r.iter_raw())
        assert r.headers.get("content-length") == str(len(body)), (path, dict(r.headers))
        return len(body), r.headers.get("content-encoding") == "gzip"


def body_of(client: httpx.Client, method: str, path: str, **kw: Any) -> bytes:
    r = client.request(method, path, headers={"accept-encoding": "identity"}, **kw)
    r.raise_for_status()
    return r.content


def timed(client: httpx.Client, method: str, path: str, coding: str, n: int, **kw: Any) -> float:
    """Median milliseconds of ``n`` calls, reading the body."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        client.request(method, path, headers={"accept-encoding": coding}, **kw).read()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=20, help="jobs submitted (the list's page)")
    parser.add_argument("--calls", type=int, default=50, help="timed calls per answer and coding")
    parser.add_argument("--torch-threads", type=int, default=4)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f} at start")
    from scoregate.storage.db import upgrade

    with tempfile.TemporaryDirectory() as tmp:
        upgrade(f"sqlite:///{tmp}/gzip.db")
        env = {
            "SCOREGATE_DATABASE_URL": f"sqlite:///{tmp}/gzip.db",
            "SCOREGATE_TORCH_THREADS": str(args.torch_threads),
        }
        with server(env) as base, httpx.Client(base_url=base, timeout=120) as client:
            ids = []
            for i in range(args.jobs):
                asked = {"query": QUERY, "content": ANSWERS[i % len(ANSWERS)]}
                body = {"request": {**asked, "metadata": {"ticket": f"OPS-{1000 + i}"}}}
                r = client.post("/v1/jobs", json=body)
                r.raise_for_status()
                ids.append(r.json()["id"])
            answers: list[tuple[str, str, str, dict[str, Any]]] = [
                ("job view", "GET", f"/v1/jobs/{ids[0]}", {}),
                ("job view, content=true", "GET", f"/v1/jobs/{ids[0]}?content=true", {}),
                (f"job list ({min(args.jobs, 20)} jobs)", "GET", "/v1/jobs?limit=20", {}),
                ("score breakdown", "POST", "/v1/score", {"json": SCORE_BODY}),
                ("OpenAPI", "GET", "/openapi.json", {}),
                ("review page", "GET", f"/review/{ids[0]}", {}),
                ("job status (small)", "GET", f"/v1/jobs/{ids[0]}/status", {}),
                ("/metrics", "GET", "/metrics", {}),
            ]
            print(
                f"\nbytes sent, identity vs gzip (SCOREGATE_HTTP_GZIP_MIN_BYTES default), and"
                f" median loopback ms of {args.calls} calls:"
            )
            print(
                f"  {'answer':<26}{'identity':>10}{'gzip':>9}{'ratio':>8}"
                f"{'ms id.':>9}{'ms gzip':>9}"
            )
            bodies = {}
            for name, method, path, kw in answers:
                plain, wrongly = raw_size(client, method, path, "identity", **kw)
                packed, gzipped = raw_size(client, method, path, "gzip", **kw)
                assert not wrongly and gzipped == (plain >= 1000), (path, plain, gzipped)
                ms_plain = timed(client, method, path, "identity", args.calls, **kw)
                ms_gzip = timed(client, method, path, "gzip", args.calls, **kw)
                ratio = f"{plain / packed:.1f}x" if gzipped else "as is"
                print(
                    f"  {name:<26}{plain:>10,}{packed:>9,}{ratio:>8}{ms_plain:>9.2f}{ms_gzip:>9.2f}"
                )
                bodies[name] = body_of(client, method, path, **kw)
    print("\nthe same bodies compressed in process at levels 1 / 6 (the server's) / 9:")
    for name, data in bodies.items():
        if len(data) < 1000:
            continue
        cells = []
        for level in (1, 6, 9):
            start = time.perf_counter()
            for _ in range(20):
                size = len(zlib.compress(data, level))
            us = (time.perf_counter() - start) / 20 * 1e6
            cells.append(f"{size:>7,} B {us:>7.0f} us")
        print(f"  {name:<26}" + "  | ".join(cells))


if __name__ == "__main__":
    main()
