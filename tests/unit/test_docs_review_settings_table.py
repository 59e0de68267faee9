"""Docs review, finding 6: the README's settings table lists every ``SCOREGATE_*`` setting."""

from __future__ import annotations

import re
from pathlib import Path

from scoregate.config.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
_NAME = re.compile(r"`(SCOREGATE_[A-Z0-9_]+)`")


def readme_table_names() -> set[str]:
    """The variables named in the first column of the README's configuration table."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Configuration", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| `SCOREGATE_")]
    return {name for row in rows for name in _NAME.findall(row.split("|")[1])}


def source_names() -> set[str]:
    """Every ``SCOREGATE_*`` variable the settings declare or the code names (a setting read
    outside ``Settings``, such as the training data folder, is one too)."""
    names = {f"SCOREGATE_{field.upper()}" for field in Settings.model_fields}
    for package in (ROOT / "scoregate", ROOT / "training" / "scoregate_training"):
        for path in package.rglob("*.py"):
            names |= set(re.findall(r"SCOREGATE_[A-Z0-9_]*[A-Z0-9]", path.read_text("utf-8")))
    return names


def test_every_setting_is_in_the_readme_table():
    missing = source_names() - readme_table_names()
    assert not missing, f"add to README.md's configuration table: {', '.join(sorted(missing))}"


def test_the_table_names_no_setting_that_does_not_exist():
    assert readme_table_names() <= source_names()
