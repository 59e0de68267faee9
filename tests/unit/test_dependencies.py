"""Code that pulls in what a "stdlib only" request rules out (``scoring.dependencies``) and
the inferred instruction ``stdlib_only``."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.dependencies import third_party
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.reward import check_instruction


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        (
            "```python\nimport json, requests\nfrom bs4 import BeautifulSoup\n```",
            ["requests", "bs4"],
        ),
        (
            "```python\nimport os.path\nfrom collections import Counter\nimport numpy as np\n```",
            ["numpy"],
        ),
        ("```\nimport pandas as pd\ndf = pd.read_csv('a.csv')\n```", ["pandas"]),
        (
            '```go\nimport (\n\t"context"\n\tretry "github.com/hashicorp/go-retryablehttp"\n)\n```',
            ["github.com/hashicorp/go-retryablehttp"],
        ),
        ('```go\nimport "golang.org/x/sync/errgroup"\n```', ["golang.org/x/sync/errgroup"]),
        ("```js\nconst axios = require('axios');\nconst fs = require('fs');\n```", ["axios"]),
        (
            "```ts\nimport { Client } from '@urql/core';\nimport path from 'node:path';\n```",
            ["@urql/core"],
        ),
        ("```rust\nuse std::io;\nuse serde::Deserialize;\n```", ["serde"]),
        ("First run `pip install httpx`, then:\n```python\nimport httpx\n```", ["httpx"]),
        ("Add it with `npm i -D zod`.", ["zod"]),
    ],
)
def test_third_party_imports_and_installs(answer: str, found: list[str]) -> None:
    assert third_party(answer) == found


@pytest.mark.parametrize(
    "answer",
    [
        "```python\nfrom __future__ import annotations\nimport urllib.request, json\n```",
        '```go\npackage main\n\nimport (\n\t"net/http"\n\t"time"\n)\n\nfunc main() {}\n```',
        "```js\nimport { readFile } from 'node:fs/promises';\nimport util from './util.js';\n```",
        "```js\nconst res = await fetch(url, { method: 'POST' });\n```",
        "```rust\nuse std::collections::HashMap;\nuse crate::config::Settings;\n```",
        "Use the standard library's `urllib.request`; there is no need to install anything.",
    ],
)
def test_standard_library_only(answer: str) -> None:
    assert third_party(answer) == []


@pytest.mark.parametrize(
    "query",
    [
        "Retry on 5xx in Go. Strict policy: no third-party modules, stdlib only.",
        "Parse this CSV in Python, standard library only please.",
        "I can't pip install anything on this server. How do I fetch a URL in Python?",
        "Need a small CLI tool with zero dependencies.",
        "Only the standard library, please: how do I read a TOML file?",
        "Is there a way without external libraries to resize images in Python?",
    ],
)
def test_the_request_allows_only_the_standard_library(query: str) -> None:
    [k] = [k for k in analyze(query).instructions if k.check == "stdlib_only"]
    assert k.inferred
    ok, why = check_instruction("```python\nimport requests\n```", k)
    assert ok is False and why == "uses requests; the request asks for the standard library only"
    assert check_instruction("```python\nimport urllib.request\n```", k)[0] is True
    assert check_instruction("Use urllib from the standard library.", k)[0] is None


@pytest.mark.parametrize(
    "query",
    [
        "Which third-party libraries are best for HTTP in Python?",
        "no third party apps please, only what is built into the phone",
        "What does the standard library offer for dates?",
        "Don't limit it to the standard library only, any package is fine.",
    ],
)
def test_no_stdlib_only(query: str) -> None:
    assert not [k for k in analyze(query).instructions if k.check == "stdlib_only"]


def test_a_caller_can_ask_for_it() -> None:
    k = Instruction(check="stdlib_only")
    assert check_instruction("```python\nimport yaml\n```", k) == (
        False,
        "uses yaml; required: the standard library only",
    )
