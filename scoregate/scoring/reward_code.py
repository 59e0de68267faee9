"""The reward track's code checks: ``valid_python`` and ``contains_function``.

Python is read by AST (up to ``reward.ast_max_chars``); other languages, and Python
that does not parse, by definition patterns (:data:`FUNCTION_PATTERNS`) searched only
near the function's name and stopped at the track's deadline.
"""

from __future__ import annotations

import ast
import time
import warnings
from collections.abc import Iterator
from functools import lru_cache

import regex

from scoregate.config.tracks import RewardConfig
from scoregate.schemas import constraints as c
from scoregate.scoring.reward_subject import Limit, Outcome, Subject


def parse_python(code: str, cfg: RewardConfig) -> tuple[ast.Module | None, str | None]:
    """``(tree, None)`` or ``(None, why it could not be parsed)``."""
    if len(code) > cfg.ast_max_chars:
        return None, f"too large to parse as Python ({len(code)} > {cfg.ast_max_chars} chars)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc. are not our business
            return ast.parse(code), None
    except SyntaxError as exc:
        return None, f"SyntaxError at line {exc.lineno}: {exc.msg}"
    except ValueError as exc:
        return None, f"not valid Python: {exc}"
    except (RecursionError, MemoryError):
        return None, "Python is nested too deeply to parse"


def check_valid_python(s: Subject, _k: c.ValidPython, cfg: RewardConfig) -> Outcome:
    _, error = parse_python(s.code, cfg)
    return (True, "valid Python") if error is None else (False, error)


# --- functions ----------------------------------------------------------------------------

_PY = [r"^[ \t]*(?:async[ \t]+)?def[ \t]+{n}[ \t]*[\[(]"]
_JS = [
    r"\bfunction\b[ \t]*\*?[ \t]*{n}[ \t]*(?:<[^>\n]{{0,200}}>)?[ \t]*\(",
    r"\b(?:const|let|var)[ \t]+{n}[ \t]*(?::[^=\n]{{0,200}})?=[ \t]*(?:async\b[ \t]*)?"
    r"(?:function\b|\([^)]{{0,1000}}\)[ \t]*(?::[^=\n]{{0,200}})?=>"
    r"|[A-Za-z_$][\w$]{{0,100}}[ \t]*=>)",
    r"(?<![\w$.]){n}[ \t]*[:=][ \t]*(?:async\b[ \t]*)?"
    r"(?:function\b|\([^)]{{0,1000}}\)[ \t]*(?::[^=\n]{{0,200}})?=>)",
    r"^[ \t]*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)"
    r"[ \t]+){{0,6}}\*?[ \t]*{n}[ \t]*(?:<[^>\n]{{0,200}}>)?\([^)]{{0,1000}}\)[ \t]*"
    r"(?::[^{{;\n]{{0,200}})?\{{",
]
_GO = [r"\bfunc[ \t]*(?:\([^)\n]{{0,200}}\)[ \t]*)?{n}[ \t]*[\[(]"]
_RUST = [r"\bfn[ \t]+{n}[ \t]*[<(]"]
_RUBY = [r"^[ \t]*def[ \t]+(?:self\.)?{n}(?=[ \t(;]|$)"]
# Return type and modifiers, then the name, the parameters and a body: a declaration, not
# a call. Token and separator classes are disjoint, so matching never backtracks badly.
_C_FAMILY = [
    r"^[ \t]*(?:[\w<>\[\],.?:~@]+[ \t*&]+){{1,8}}(?:\w+::){{0,4}}{n}[ \t]*\([^)]{{0,1000}}\)[ \t]*"
    r"(?:const\b[ \t]*)?(?:noexcept\b[ \t]*)?(?:(?:->|throws\b)[^{{;\n]{{0,200}})?\s{{0,20}}\{{"
]
#: Definition patterns by language; ``{n}`` is the escaped function name.
FUNCTION_PATTERNS: dict[str, list[str]] = {
    "python": _PY,
    "javascript": _JS,
    "typescript": _JS,
    "go": _GO,
    "rust": _RUST,
    "ruby": _RUBY,
    "java": _C_FAMILY,
    "c": _C_FAMILY,
    "cpp": _C_FAMILY,
    "any": _PY + _JS + _GO + _RUST + _RUBY + _C_FAMILY,
}


@lru_cache(maxsize=256)
def _name_pattern(name: str) -> regex.Pattern[str]:
    return regex.compile(r"(?<![\w$])" + regex.escape(name) + r"(?![\w$])")


@lru_cache(maxsize=256)
def _definition_pattern(language: str, name: str) -> regex.Pattern[str]:
    n = _name_pattern(name).pattern
    alternatives = (p.format(n=n) for p in FUNCTION_PATTERNS[language])
    return regex.compile("|".join(f"(?:{a})" for a in alternatives), regex.MULTILINE)


# A definition spans at most this much text before and after the name (modifiers and
# return type; parameters, return type and the opening brace).
_BEFORE, _AFTER = 400, 1500


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("function search timed out")
    return left


def _near_name(text: str, name: str, deadline: float) -> str:
    """Only the text around each mention of ``name``: the patterns then scan little."""
    spans: list[list[int]] = []
    for i, m in enumerate(_name_pattern(name).finditer(text)):
        if i % 1024 == 1023:
            _remaining(deadline)
        line = text.rfind("\n", max(0, m.start() - _BEFORE), m.start()) + 1
        start, end = max(line, m.start() - _BEFORE), min(len(text), m.end() + _AFTER)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return "\n".join(text[a:b] for a, b in spans)


def _pattern_defines(text: str, language: str, name: str, deadline: float) -> bool:
    near = _near_name(text, name, deadline)
    pattern = _definition_pattern(language, name)
    return bool(near) and pattern.search(near, timeout=_remaining(deadline)) is not None


def _defines(tree: ast.Module, name: str) -> bool:
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        for node in ast.walk(tree)
    )


def _python_sources(s: Subject, cfg: RewardConfig) -> Iterator[tuple[str, ast.Module | None]]:
    """The whole output if it parses, else each fenced block (or the output), parsed or not."""
    tree, _ = parse_python(s.content, cfg)
    if tree is not None:
        yield s.content, tree
        return
    for body in s.blocks or [s.content]:
        yield body, parse_python(body, cfg)[0]


def _find_definition(
    s: Subject, k: c.ContainsFunction, cfg: RewardConfig, limit: Limit
) -> str | None:
    """How the definition was found ("Python AST", "go pattern"), or ``None``."""
    deadline = time.monotonic() + limit.seconds
    if k.language in ("python", "any"):
        for text, tree in _python_sources(s, cfg):
            if tree is not None and _defines(tree, k.value):
                return "Python AST"
            if tree is None and _pattern_defines(text, "python", k.value, deadline):
                return "python pattern"
        if k.language == "python":
            return None
    if _pattern_defines(s.content, k.language, k.value, deadline):
        return f"{k.language} pattern"
    return None


def check_contains_function(s: Subject, k: c.ContainsFunction, cfg: RewardConfig) -> Outcome:
    limit = s.limit(cfg)
    try:
        how = _find_definition(s, k, cfg, limit)
    except TimeoutError:
        return False, limit.spent(f"search for function {k.value}", cfg)
    if how is None:
        return False, f"no definition of function {k.value} found ({k.language})"
    return True, f"function {k.value} defined ({how})"
