"""Install size and import time of a reward-only worker: light install vs full.

Sizes: the files (from each installed distribution's RECORD) of the dependency closure
of three installs, read from this environment, which has them all:

- before: every install pulled torch, sentence-transformers, matplotlib and Flower;
- default: ``pip install .`` now (the model pools and the demo need torch; no
  matplotlib, no Flower);
- light: ``requirements/worker-light.txt`` (reward, fusion, control workers).

scoregate's own files (the shipped weights included) are added to each. Then a real
light venv is built (``tests/integration/light_venv.py``) and its site-packages measured
with ``du``. Import time: median and minimum over ``--runs`` fresh interpreters of
importing the reward, fusion and control worker modules, in the light venv and in this
environment (runs interleaved).

    PYTHONPATH=. python benchmarks/light_worker.py [--venv /tmp/light] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.integration.light_venv import build_light_venv, site_packages

ROOT = Path(__file__).resolve().parents[1]
IMPORT = (
    "import time, json, sys; t = time.perf_counter()\n"
    "import scoregate.workers.app, scoregate.workers.reward, scoregate.workers.fusion\n"
    "import scoregate.workers.control\n"
    "print(json.dumps({'s': time.perf_counter() - t, 'modules': len(sys.modules),"
    " 'torch': 'torch' in sys.modules}))\n"
)


def _dist_bytes(dist: metadata.Distribution) -> int:
    total = 0
    for f in dist.files or []:
        path = Path(str(f.locate()))
        if path.is_file():
            total += path.stat().st_size
    return total


def closure(requirements: list[str]) -> dict[str, int]:
    """Installed distribution name -> bytes, for ``requirements`` and what they require."""
    sizes: dict[str, int] = {}
    done: set[tuple[str, frozenset[str]]] = set()
    stack = [Requirement(r) for r in requirements]
    while stack:
        req = stack.pop()
        name = canonicalize_name(req.name)
        if name == "scoregate" or (name, frozenset(req.extras)) in done:
            continue
        done.add((name, frozenset(req.extras)))
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            print(f"  (not installed here, not counted: {req.name})", file=sys.stderr)
            continue
        sizes.setdefault(name, _dist_bytes(dist))
        for text in dist.requires or []:
            sub = Requirement(text)
            envs = [{"extra": e} for e in ["", *req.extras]]
            if sub.marker is None or any(sub.marker.evaluate(env) for env in envs):
                stack.append(sub)
    return sizes


def _tree_bytes(folder: Path) -> int:
    return sum(
        p.stat().st_size for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )


def _du(folder: Path) -> int:
    out = subprocess.run(["du", "-sb", str(folder)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])


def import_times(python: Path | str, runs: int, cwd: Path, pythonpath: str | None) -> list[dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREGATE_", "PYTHON"))}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = []
    for _ in range(runs):
        res = subprocess.run(
            [str(python), "-c", IMPORT], cwd=cwd, env=env, capture_output=True, text=True
        )
        if res.returncode != 0:
            raise RuntimeError(res.stderr[-2000:])
        out.append(json.loads(res.stdout))
    return out


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venv", type=Path, help="reuse (or build here) the light venv")
    ap.add_argument("--runs", type=int, default=7, help="fresh interpreters per import figure")
    args = ap.parse_args()

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(project["dependencies"])
    opt = project["optional-dependencies"]
    light = [
        ln.strip()
        for ln in (ROOT / "requirements" / "worker-light.txt").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    own = _tree_bytes(ROOT / "scoregate") + _tree_bytes(ROOT / "training" / "scoregate_training")
    installs = {
        "before (torch, matplotlib, Flower in every install)": deps + opt["charts"] + opt["flower"],
        "default (pip install .)": deps,
        "light (requirements/worker-light.txt + --no-deps .)": light,
    }
    print("install size, dependency closure from RECORD files + scoregate's own files:")
    for label, reqs in installs.items():
        sizes = closure(reqs)
        top = sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
        print(
            f"  {label}: {_mb(sum(sizes.values()) + own)} in {len(sizes) + 1} distributions"
            f" (largest: {', '.join(f'{n} {_mb(b)}' for n, b in top)})"
        )
    print(f"  of which scoregate itself (weights included): {_mb(own)}")

    work = Path(tempfile.mkdtemp(prefix="scoregate-light-"))
    try:
        _measure_venv(args.venv or work / "venv", work, args.runs)
    finally:
        shutil.rmtree(work)  # a venv built here goes with it; --venv PATH stays


def _measure_venv(venv: Path, work: Path, n_runs: int) -> None:
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"building the light venv in {venv} ...", file=sys.stderr)
        build_light_venv(venv)
    print(f"measured light venv: site-packages {_mb(_du(site_packages(python)))} (du -sb, pip too)")

    print(f"import of the reward, fusion and control worker modules, {n_runs} runs each")
    print("(interleaved, so both see the same load on the machine):")
    setups = {"light venv": (python, None), "full env": (sys.executable, str(ROOT))}
    runs: dict[str, list[dict]] = {label: [] for label in setups}
    for _ in range(n_runs):
        for label, (py, path) in setups.items():
            runs[label] += import_times(py, 1, work, path)
    for label, got in runs.items():
        secs = [r["s"] for r in got]
        print(
            f"  {label}: median {statistics.median(secs):.2f} s (min {min(secs):.2f} s),"
            f" {got[0]['modules']} modules, torch imported: {got[0]['torch']}"
        )


if __name__ == "__main__":
    main()
