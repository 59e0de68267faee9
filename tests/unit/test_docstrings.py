"""The examples in the scoring modules' docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scoregate.scoring

MODULES = sorted(
    m.name for m in pkgutil.iter_modules(scoregate.scoring.__path__, "scoregate.scoring.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_the_examples_are_there():
    attempted = sum(
        doctest.testmod(importlib.import_module(n)).attempted
        for n in ("scoregate.scoring.phrasing", "scoregate.scoring.instruction_rules")
    )
    assert attempted >= 4
