"""Seed 001, track 3: hard constraints, each a pass/fail gate; the score is passed / total."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

import pytest

from scoregate.config.tracks import RewardConfig
from scoregate.schemas.constraints import CONSTRAINT_ADAPTER, CONSTRAINT_KINDS, Constraint
from scoregate.schemas.result import TrackScore
from scoregate.scoring.reward import ConstraintResult, evaluate_constraint, evaluate_reward

CFG = RewardConfig()


def con(**kwargs: Any) -> Constraint:
    return CONSTRAINT_ADAPTER.validate_python(kwargs)


def check(content: str, cfg: RewardConfig = CFG, **kwargs: Any) -> ConstraintResult:
    return evaluate_constraint(content, con(**kwargs), cfg)


def reward(content: str, constraints: list[Constraint]) -> TrackScore:
    track = evaluate_reward(content, constraints, CFG)
    assert track is not None
    return track


# --- the track ----------------------------------------------------------------------------


def test_no_constraints_means_no_reward_track():
    assert evaluate_reward("anything", [], CFG) is None


def test_score_is_the_ratio_of_passed_constraints():
    constraints = [
        con(kind="max_lines", value=400),
        con(kind="contains", value="def"),
        con(kind="file_extension", value=".py"),
        con(kind="regex", value=r"^import \w+", flags="m"),
    ]
    track = reward("# app.py\ndef main(): pass\n", constraints)
    assert track.name == "reward"
    assert track.score == pytest.approx(3 / 4)
    assert track.details["passed"] == 3 and track.details["total"] == 4
    assert [r["passed"] for r in track.details["results"]] == [True, True, True, False]


def test_reasons_list_each_failure_and_hard_failures_are_kept_apart():
    constraints = [
        con(kind="max_lines", value=400, hard=True),
        con(kind="min_words", value=5000),
        con(kind="contains", value="hello"),
    ]
    track = reward("hello\n" * 412, constraints)
    assert track.reasons == [
        "max_lines: 412 lines > 400 allowed",
        "min_words: 412 words < 5000 required",
    ]
    assert track.details["hard_failures"] == ["max_lines: 412 lines > 400 allowed"]


def test_all_passing_says_so():
    track = reward("ok", [con(kind="contains", value="ok")])
    assert track.score == 1.0
    assert track.reasons == ["all 1 constraint passed"]
    assert track.details["hard_failures"] == []


def test_a_label_names_the_constraint_in_its_reason():
    result = check("x\n" * 3, kind="max_lines", value=2, label="Keep it short")
    assert result.label == "Keep it short"
    assert result.reason == "Keep it short (max_lines): 3 lines > 2 allowed"


def test_every_constraint_kind_is_evaluated():
    samples: dict[str, dict[str, Any]] = {
        "max_lines": {"value": 1},
        "min_lines": {"value": 1},
        "max_chars": {"value": 1},
        "min_words": {"value": 1},
        "max_words": {"value": 1},
        "starts_with": {"value": "a"},
        "ends_with": {"value": "a"},
        "file_extension": {"value": "py"},
        "contains": {"value": "a"},
        "not_contains": {"value": "a"},
        "regex": {"value": "a"},
        "not_regex": {"value": "a"},
        "contains_function": {"value": "f"},
        "valid_json": {},
        "json_schema": {"value": {"type": "object"}},
        "valid_python": {},
        "instruction": {"check": "case", "value": "lowercase"},
    }
    assert set(samples) == set(CONSTRAINT_KINDS)
    for kind, extra in samples.items():
        result = check("a = 1\n", kind=kind, **extra)
        assert result.kind == kind
        assert result.reason.startswith(kind + ":")


# --- sizes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "kind", "value", "passed", "reason"),
    [
        ("a\n" * 400, "max_lines", 400, True, "400 lines <= 400 allowed"),
        ("a\n" * 412, "max_lines", 400, False, "412 lines > 400 allowed"),
        ("a\nb", "min_lines", 3, False, "2 lines < 3 required"),
        ("", "min_lines", 1, False, "0 lines < 1 required"),
        ("abcdef", "max_chars", 5, False, "6 characters > 5 allowed"),
        ("one two\tthree\nfour", "min_words", 4, True, "4 words >= 4 required"),
        ("one two three", "max_words", 2, False, "3 words > 2 allowed"),
    ],
)
def test_size_limits(content, kind, value, passed, reason):
    result = check(content, kind=kind, value=value)
    assert result.passed is passed
    assert result.reason == f"{kind}: {reason}"


def test_a_trailing_newline_does_not_count_as_a_line():
    assert check("a\nb\n", kind="max_lines", value=2).passed
    assert not check("a\nb\nc", kind="max_lines", value=2).passed


# --- text ---------------------------------------------------------------------------------


def test_starts_and_ends_with_ignore_surrounding_whitespace():
    assert check("\n  Answer: yes\n", kind="starts_with", value="Answer:").passed
    assert check("the end.  \n", kind="ends_with", value="end.").passed
    failed = check("Result: no", kind="starts_with", value="Answer:")
    assert not failed.passed
    assert "starts with 'Result:', not 'Answer:'" in failed.reason


def test_starts_and_ends_with_respect_case_sensitivity():
    assert not check("answer: yes", kind="starts_with", value="Answer").passed
    assert check("answer: yes", kind="starts_with", value="ANSWER", case_sensitive=False).passed
    assert check("Done", kind="ends_with", value="DONE", case_sensitive=False).passed


def test_contains_is_case_insensitive_unless_asked():
    assert check("Uses PostgreSQL", kind="contains", value="postgresql").passed
    assert not check(
        "Uses PostgreSQL", kind="contains", value="postgresql", case_sensitive=True
    ).passed


def test_not_contains_fails_when_the_text_is_present():
    result = check("rm -rf / is fine", kind="not_contains", value="RM -RF")
    assert not result.passed
    assert "'RM -RF' found" in result.reason
    assert check("safe", kind="not_contains", value="rm -rf").passed


# --- regex --------------------------------------------------------------------------------


def test_regex_matches_with_flags():
    assert check("Title\nVERSION 2", kind="regex", value=r"^version \d$", flags="im").passed
    assert not check("Title\nVERSION 2", kind="regex", value=r"^version \d$").passed


def test_not_regex_reports_where_the_forbidden_pattern_matched():
    result = check("line one\nTODO: fix\n", kind="not_regex", value=r"TODO")
    assert not result.passed
    assert "matches at line 2" in result.reason


def test_invalid_pattern_is_a_failed_constraint_with_reason():
    result = check("abc", kind="regex", value="(unclosed")
    assert not result.passed
    assert "invalid pattern '(unclosed'" in result.reason


def test_catastrophic_regex_times_out_instead_of_hanging():
    content = "a" * 5000 + "!"
    start = time.perf_counter()
    result = check(content, kind="regex", value="(a+)+$")
    assert time.perf_counter() - start < 3.0
    assert not result.passed
    assert "regex timed out after 0.2s" in result.reason


def test_catastrophic_not_regex_also_fails_rather_than_passing():
    result = check("a" * 5000 + "!", kind="not_regex", value="(a+)+$")
    assert not result.passed
    assert "timed out" in result.reason


def test_regex_timeout_comes_from_config():
    result = check(
        "a" * 5000 + "!", RewardConfig(regex_timeout_s=0.05), kind="regex", value="(a+)+$"
    )
    assert "timed out after 0.05s" in result.reason


# --- file extension -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "src/app.py",
        "# src/app.py\nimport os\n",
        "File: main.PY\n...",
        "\n\nHere is `tool.py`:\n\nprint(1)",
        'Answer:\n```python title="app.py"\nprint(1)\n```\n',
        "Answer:\n```\n# scripts/run.py\nprint(1)\n```\n",
    ],
)
def test_file_extension_found_where_a_file_is_named(content):
    assert check(content, kind="file_extension", value=".py").passed


@pytest.mark.parametrize(
    "content",
    [
        "```python\nprint(1)\n```",  # a language tag is not a file name
        "Here is the code.\nIt is like setup.py in spirit.\n",  # not on the first line
        "app.pyc",
        "notes.txt",
    ],
)
def test_file_extension_not_found(content):
    result = check(content, kind="file_extension", value="py")
    assert not result.passed
    assert "no file name ending in .py" in result.reason


# --- functions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "def parse(x):\n    return x\n",
        "async def parse(x):\n    return x\n",
        "class P:\n    def parse(self):\n        pass\n",
        "def outer():\n    def parse():\n        pass\n",
    ],
)
def test_python_function_found_by_ast(code):
    result = check(code, kind="contains_function", value="parse")
    assert result.passed
    assert "Python AST" in result.reason


def test_python_function_mentioned_only_in_a_string_or_call_is_not_a_definition():
    code = "text = 'def parse(x): pass'\nparse(1)\n"
    assert not check(code, kind="contains_function", value="parse").passed


def test_python_function_in_a_markdown_answer_is_found_in_its_code_block():
    answer = "Here you go:\n\n```python\ndef parse(x):\n    return x\n```\n\nEnjoy."
    result = check(answer, kind="contains_function", value="parse")
    assert result.passed and "Python AST" in result.reason


def test_broken_python_falls_back_to_a_pattern_and_says_so():
    result = check("def parse(x:\n    return x\n", kind="contains_function", value="parse")
    assert result.passed
    assert "python pattern" in result.reason


def test_python_name_must_match_exactly():
    assert not check("def parser(x): pass\n", kind="contains_function", value="parse").passed


@pytest.mark.parametrize(
    ("language", "code"),
    [
        ("javascript", "function add(a, b) {\n  return a + b;\n}"),
        ("javascript", "export async function add(a, b) { return a + b }"),
        ("javascript", "const add = (a, b) => a + b;"),
        ("javascript", "let add = async x => x;"),
        ("javascript", "class M {\n  static add(a, b) {\n    return a + b;\n  }\n}"),
        ("javascript", "module.exports = { add: function (a, b) { return a + b } }"),
        ("typescript", "const add = (a: number, b: number): number => a + b;"),
        ("typescript", "function add<T>(a: T): T { return a }"),
        ("go", "func add(a int, b int) int {\n\treturn a + b\n}"),
        ("go", "func (c *Calc) add(a int) int {"),
        ("rust", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}"),
        ("java", "public static int add(int a, int b) {\n    return a + b;\n}"),
        ("java", "  private List<String> add(Map<String, Integer> m)\n  {"),
        ("c", "static int *add(int a, int b) {\n    return 0;\n}"),
        ("cpp", "std::vector<int> Calc::add(int a) const {"),
        ("ruby", "def add(a, b)\n  a + b\nend"),
        ("ruby", "def self.add\nend"),
        ("any", "fn add(a: i32) -> i32 { a }"),
    ],
)
def test_function_definitions_in_other_languages(language, code):
    result = check(code, kind="contains_function", value="add", language=language)
    assert result.passed, result.reason
    assert "pattern" in result.reason


@pytest.mark.parametrize(
    ("language", "code"),
    [
        ("javascript", "const total = add(1, 2);"),
        ("javascript", "// add(a, b) adds\nx = adder(1)"),
        ("go", "x := add(1, 2)"),
        ("rust", "let x = add(1, 2);"),
        ("java", "int x = add(1, 2);\nreturn add(x, 3);"),
        ("c", "add(1, 2);"),
        ("ruby", "puts add(1, 2)"),
    ],
)
def test_calls_are_not_definitions(language, code):
    result = check(code, kind="contains_function", value="add", language=language)
    assert not result.passed
    assert f"no definition of function add found ({language})" in result.reason


# --- structured formats -------------------------------------------------------------------


def test_valid_json_accepts_json_and_a_single_fenced_json_block():
    assert check('{"a": [1, 2]}', kind="valid_json").passed
    assert check('```json\n{"a": 1}\n```\n', kind="valid_json").passed


def test_invalid_json_says_where():
    result = check('{"a": 1,\n "b": }', kind="valid_json")
    assert not result.passed
    assert "invalid JSON at line 2 column" in result.reason


def test_nan_is_not_valid_json():
    result = check('{"a": NaN}', kind="valid_json")
    assert not result.passed
    assert "NaN is not allowed" in result.reason


def test_deeply_nested_json_fails_with_reason():
    result = check("[" * 100_000 + "]" * 100_000, kind="valid_json")
    assert not result.passed
    assert "nested too deeply" in result.reason


SCHEMA = {
    "type": "object",
    "required": ["name", "age"],
    "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
}


def test_json_schema_passes_a_matching_document():
    assert check('{"name": "Ada", "age": 36}', kind="json_schema", value=SCHEMA).passed


def test_json_schema_violation_names_the_path():
    result = check('{"name": "Ada", "age": -1}', kind="json_schema", value=SCHEMA)
    assert not result.passed
    assert "$.age: -1 is less than the minimum of 0" in result.reason


def test_json_schema_uses_draft_2020_12():
    schema = {"prefixItems": [{"type": "integer"}], "items": False}
    assert check("[1]", kind="json_schema", value=schema).passed
    assert not check("[1, 2]", kind="json_schema", value=schema).passed


def test_invalid_schema_is_a_failed_constraint_not_an_exception():
    result = check("{}", kind="json_schema", value={"type": "objekt"})
    assert not result.passed
    assert "the schema itself is invalid" in result.reason


def test_json_schema_on_invalid_json_fails_with_the_json_error():
    result = check("{oops}", kind="json_schema", value=SCHEMA)
    assert not result.passed
    assert "invalid JSON" in result.reason


def test_catastrophic_pattern_inside_a_schema_times_out():
    schema = {"properties": {"a": {"pattern": "(a+)+$"}}}
    content = '{"a": "' + "a" * 5000 + '!"}'
    start = time.perf_counter()
    result = check(content, kind="json_schema", value=schema)
    assert time.perf_counter() - start < 3.0
    assert not result.passed
    assert "timed out after 0.2s" in result.reason


def test_schema_patterns_still_validate():
    schema = {
        "type": "object",
        "properties": {"id": {"pattern": "^[a-z]+$"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": False,
    }
    assert check('{"id": "abc", "x-note": "ok"}', kind="json_schema", value=schema).passed
    assert not check('{"id": "ABC"}', kind="json_schema", value=schema).passed
    assert not check('{"x-note": 1}', kind="json_schema", value=schema).passed
    extra = check('{"id": "abc", "other": 1}', kind="json_schema", value=schema)
    assert not extra.passed and "other" in extra.reason


def test_remote_ref_is_never_fetched(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the reward track must not fetch schemas over the network")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    result = check("{}", kind="json_schema", value={"$ref": "https://example.com/s.json"})
    assert not result.passed
    assert "cannot be resolved" in result.reason


def test_valid_python():
    assert check("import os\nprint(os.sep)\n", kind="valid_python").passed
    assert check("```python\nx = 1\n```", kind="valid_python").passed
    result = check("x = 1\ndef f(:\n", kind="valid_python")
    assert not result.passed
    assert "SyntaxError at line 2" in result.reason


def test_python_longer_than_the_ast_limit_is_not_parsed():
    cfg = RewardConfig(ast_max_chars=100)
    code = "x = 1\n" * 50
    result = check(code, cfg, kind="valid_python")
    assert not result.passed
    assert "too large to parse as Python (300 > 100 chars)" in result.reason
    # contains_function still answers, by pattern.
    found = check(code + "def f():\n    pass\n", cfg, kind="contains_function", value="f")
    assert found.passed and "python pattern" in found.reason


# --- huge content -------------------------------------------------------------------------


def _timed(content: str, **kwargs) -> tuple[ConstraintResult, float]:
    start = time.perf_counter()
    result = check(content, **kwargs)
    return result, time.perf_counter() - start


@pytest.mark.parametrize(
    "constraint",
    [
        {"kind": "max_lines", "value": 10},
        {"kind": "max_words", "value": 10},
        {"kind": "contains", "value": "needle"},
        {"kind": "ends_with", "value": "WORD", "case_sensitive": False},
        {"kind": "regex", "value": r"wor+d\s+x"},
        {"kind": "file_extension", "value": "py"},
        {"kind": "contains_function", "value": "word", "language": "any"},
        {"kind": "valid_json"},
        {"kind": "valid_python"},
    ],
)
def test_ten_megabytes_are_checked_in_bounded_time(constraint):
    content = ("word " * 20 + "\n") * 100_000
    result, elapsed = _timed(content, **constraint)
    assert elapsed < 5.0, f"{constraint['kind']} took {elapsed:.1f}s"
    assert result.reason


@pytest.mark.parametrize(
    "content",
    [
        "```a\n" * 200_000,  # many unclosed fences
        "`" * 1_000_000 + " ```" * 100_000,  # backtick runs that are not fences
        "add " * 500_000,  # the function name everywhere
        "int add add add add add add add add add(" * 50_000,
    ],
)
def test_adversarial_content_cannot_stall_function_or_file_checks(content):
    for constraint in (
        {"kind": "contains_function", "value": "add", "language": "java"},
        {"kind": "contains_function", "value": "add", "language": "javascript"},
        {"kind": "file_extension", "value": "py"},
    ):
        _, elapsed = _timed(content, **constraint)
        assert elapsed < 5.0, f"{constraint} took {elapsed:.1f}s"


def test_schema_pairing_whose_patterns_cannot_be_time_limited_is_refused():
    schema = {"patternProperties": {"(a+)+$": {}}, "unevaluatedProperties": False}
    result = check('{"a": 1}', kind="json_schema", value=schema)
    assert not result.passed
    assert "unevaluatedProperties together with patternProperties" in result.reason
