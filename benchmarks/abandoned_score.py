"""How long ``scoregate serve`` keeps scoring a ``POST /v1/score`` whose client hangs up.

Starts an embedded server (the real models, SQLite in a temporary folder), sends a body of
about ``--chars`` characters of English, closes the connection ``--after`` seconds later
and samples the server process's CPU time every 50 ms: its work is over once the CPU time
has stopped growing for ``--idle`` seconds. Prints, for each of ``--runs`` runs, how long
the server kept working after the hang-up; then how long a call that waits takes in full.

    python benchmarks/abandoned_score.py [--chars 30000] [--after 0.5] [--runs 3]
        [--threads 1] [--source DIR]

``--source`` serves another checkout (say, an older commit exported with ``git archive``)
to compare before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
QUERY = "Write a detailed guide to cooking pasta at home, without nuts."
WORDS = (
    "boil salted water then add the pasta and stir so it does not stick while the sauce"
    " of tomatoes garlic and olive oil simmers gently in a wide pan until it thickens"
).split()
TICK_S = 1 / os.sysconf("SC_CLK_TCK")
SAMPLE_S = 0.05


def english(chars: int, seed: int = 7) -> str:
    """Sentences of plain words, about ``chars`` characters in all."""
    rng = random.Random(seed)
    sentences: list[str] = []
    size = 0
    while size < chars:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
        sentences.append(sentence.capitalize() + ".")
        size += len(sentences[-1]) + 1
    return " ".join(sentences)[:chars]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(source: Path, threads: int) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="abandoned-score-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    env.update(
        PYTHONPATH=str(source),
        HF_HUB_OFFLINE="1",
        SCOREGATE_DATABASE_URL=f"sqlite:///{tmp}/bench.db",
        SCOREGATE_TORCH_THREADS=str(threads),
    )
    log = tmp / "server.log"
    cli = [sys.executable, "-m", "scoregate.cli"]
    subprocess.run([*cli, "db", "upgrade"], env=env, cwd=source, check=True, capture_output=True)
    cmd = [*cli, "serve", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=source, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield proc, port, log
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def cpu_s(pid: int) -> float:
    """The process's CPU time so far (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_S


def busy_until(pid: int, since: float, idle_s: float) -> float:
    """Seconds from ``since`` (monotonic) to the last sample where the process used CPU,
    once it has used none (at most one tick a sample) for ``idle_s`` seconds."""
    last_busy = since
    used = cpu_s(pid)
    while time.monotonic() - last_busy < idle_s:
        time.sleep(SAMPLE_S)
        now = cpu_s(pid)
        if now - used > TICK_S * 1.5:
            last_busy = time.monotonic()
        used = now
    return last_busy - since


def hang_up_after(port: int, body: bytes, after_s: float) -> None:
    request = (
        f"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(request + body)
        time.sleep(after_s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=30_000)
    parser.add_argument("--after", type=float, default=0.5, help="hang up after (s)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="SCOREGATE_TORCH_THREADS")
    parser.add_argument("--idle", type=float, default=1.0, help="idle this long: done (s)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to serve")
    args = parser.parse_args()
    body = json.dumps({"query": QUERY, "content": english(args.chars)}).encode()
    with server(args.source.resolve(), args.threads) as (proc, port, log):
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=300) as client:
            client.post("/v1/score", content=body, headers={"content-type": "application/json"})
            after: list[float] = []
            for _ in range(args.runs):
                busy_until(proc.pid, time.monotonic(), args.idle)  # start from idle
                hang_up_after(port, body, args.after)
                hung_up = time.monotonic()
                after.append(busy_until(proc.pid, hung_up, args.idle))
            full: list[float] = []
            for _ in range(args.runs):
                start = time.perf_counter()
                r = client.post(
                    "/v1/score", content=body, headers={"content-type": "application/json"}
                )
                full.append(time.perf_counter() - start)
                r.raise_for_status()
    said = [line for line in log.read_text().splitlines() if "abandoned" in line]
    print(
        f"POST /v1/score, {args.chars:,} characters ({len(body):,} bytes), client hangs up"
        f" after {args.after} s, SCOREGATE_TORCH_THREADS={args.threads}, from {args.source}:"
    )
    print(
        "  server kept working after the hang-up: "
        + ", ".join(f"{s:.2f} s" for s in after)
        + f" (median {statistics.median(after):.2f} s)"
    )
    print(
        "  a call that waits: "
        + ", ".join(f"{s:.2f} s" for s in full)
        + f" (median {statistics.median(full):.2f} s)"
        + f"  load average {os.getloadavg()[0]:.1f}"
    )
    for line in said:
        print(f"  log: {line.strip()}")


if __name__ == "__main__":
    main()
