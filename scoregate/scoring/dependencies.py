"""Code that pulls in what the request rules out: "stdlib only", "no third-party
packages", "can't pip install anything" (pure).

A request that allows only a language's standard library is answered with code whose
imports are checkable: Python's by the interpreter's own list of standard modules, Go's by
the import path (a third-party path starts with a host, "github.com/..."), JavaScript's by
the specifier (a bare name that is no Node built-in), Rust's by the crate a ``use`` names;
and an install command ("pip install requests", "npm i axios", "go get ...", "cargo add")
is a dependency whatever the language.

>>> third_party("```python\\nimport json\\nimport requests\\n```")
['requests']
>>> third_party("```go\\nimport (\\n    \\"net/http\\"\\n    \\"time\\"\\n)\\n```")
[]
"""

from __future__ import annotations

import re
import sys

from scoregate.scoring.text import fenced_blocks

#: Python's standard modules, as this interpreter knows them (3.10+), and the few names
#: that are the language's own but not modules there.
_PY_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}
_PY_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<from>[A-Za-z_][\w.]*)[ \t]+import\b"
    r"|import[ \t]+(?P<names>[A-Za-z_][\w.]*(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*"
    r"(?:[ \t]+as[ \t]+\w+)?)*))",
    re.MULTILINE,
)
_GO_IMPORT = re.compile(r'^[ \t]*(?:import[ \t]+)?(?:[\w.]+[ \t]+)?"(?P<path>[\w.\-/]+)"', re.M)
_GO_BLOCK = re.compile(r"\bimport\s*\((?P<body>[^)]*)\)|\bimport\s+(?:[\w.]+\s+)?\"[^\"]+\"")
_JS_IMPORT = re.compile(
    r"""\brequire\(\s*['"](?P<a>[^'"]+)['"]\s*\)"""
    r"""|\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?['"](?P<b>[^'"]+)['"]"""
    r"""|\bimport\(\s*['"](?P<c>[^'"]+)['"]\s*\)"""
)
#: Node's built-in modules (what ``node:`` may prefix).
_NODE_BUILTINS = frozenset(
    "assert async_hooks buffer child_process cluster console constants crypto dgram"
    " diagnostics_channel dns domain events fs fs/promises http http2 https inspector module"
    " net os path path/posix path/win32 perf_hooks process punycode querystring readline"
    " readline/promises repl stream stream/promises string_decoder sys timers"
    " timers/promises tls trace_events tty url util util/types v8 vm wasi worker_threads"
    " zlib test".split()
)
_RUST_USE = re.compile(r"^[ \t]*(?:pub\s+)?use\s+(?:::)?(?P<crate>\w+)::", re.MULTILINE)
_RUST_OWN = frozenset({"std", "core", "alloc", "crate", "self", "super"})
#: An install command, in code or prose: "pip install requests", "npm i -D axios".
_INSTALL = re.compile(
    r"\b(?:pip3?|uv\s+pip|poetry|pipenv|conda)\s+(?:install|add)\s+(?:-[\w-]+\s+)*(?P<py>[A-Za-z][\w.\-\[\]]*)"
    r"|\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add)\s+(?:-[\w-]+\s+)*(?P<js>@?[a-z][\w.\-/@]*)"
    r"|\bgo\s+get\s+(?:-[\w-]+\s+)*(?P<go>[\w.\-/@]+)"
    r"|\bcargo\s+add\s+(?:-[\w-]+\s+)*(?P<rs>[\w\-]+)"
    r"|\bgem\s+install\s+(?P<rb>[\w\-]+)"
)
_LANGUAGES = {
    "py": "python",
    "python": "python",
    "python3": "python",
    "go": "go",
    "golang": "go",
    "js": "js",
    "javascript": "js",
    "ts": "js",
    "typescript": "js",
    "jsx": "js",
    "tsx": "js",
    "mjs": "js",
    "node": "js",
    "rust": "rust",
    "rs": "rust",
}


def _python(code: str) -> list[str]:
    out: list[str] = []
    for m in _PY_IMPORT.finditer(code):
        if m.group("from") is not None:
            names = [m.group("from")]
        else:
            names = [n.split()[0] for n in m.group("names").split(",")]
        for name in names:
            top = name.split(".")[0]
            if top and top not in _PY_STDLIB:
                out.append(top)
    return out


def _go(code: str) -> list[str]:
    out: list[str] = []
    for block in _GO_BLOCK.finditer(code):
        for m in _GO_IMPORT.finditer(block.group(0).replace("import", " ", 1)):
            path = m.group("path")
            if "." in path.split("/")[0]:  # "github.com/...", "golang.org/x/..."
                out.append(path)
    return out


def _js(code: str) -> list[str]:
    out: list[str] = []
    for m in _JS_IMPORT.finditer(code):
        spec = m.group("a") or m.group("b") or m.group("c") or ""
        if spec.startswith((".", "/", "node:", "http:", "https:", "data:")):
            continue
        if spec in _NODE_BUILTINS:
            continue
        out.append(spec)
    return out


def _rust(code: str) -> list[str]:
    return [m.group("crate") for m in _RUST_USE.finditer(code) if m.group("crate") not in _RUST_OWN]


_READERS = {"python": _python, "go": _go, "js": _js, "rust": _rust}


def _language(info: str, code: str) -> str | None:
    named = _LANGUAGES.get(info.split()[0].lower() if info.split() else "")
    if named:
        return named
    if re.search(r"^\s*package\s+\w+\s*$", code, re.M) and "func " in code:
        return "go"
    if re.search(
        r"^\s*(?:from\s+\w[\w.]*\s+import|import\s+\w[\w.]*(?:\s+as\s+\w+)?\s*$|def\s+\w+\()",
        code,
        re.M,
    ):
        return "python"
    if re.search(r"\brequire\(|\bconst\s+\w+\s*=|=>|\bimport\s+.+\s+from\s+['\"]", code):
        return "js"
    if re.search(r"\bfn\s+\w+\(|^\s*use\s+\w+::", code, re.M):
        return "rust"
    return None


def third_party(content: str) -> list[str]:
    """The packages ``content`` imports or installs that are no standard library's, in
    order, each once."""
    found: list[str] = []
    for block in fenced_blocks(content):
        language = _language(block.info, block.body)
        if language is not None:
            found += _READERS[language](block.body)
    for m in _INSTALL.finditer(content):
        found.append(next(g for g in m.groups() if g))
    return list(dict.fromkeys(found))


_PACKAGES = (
    r"(?:modules?|packages?|librar(?:y|ies)|libs?|dependenc(?:y|ies)|deps|crates?|gems?"
    r"|frameworks?)"
)
#: How a request allows only the standard library.
STDLIB_ONLY = re.compile(
    r"\b(?:std\s*lib|standard\s+library)\s+only\b"
    r"|\b(?:only|just)\s+(?:the\s+|use\s+the\s+)?(?:std\s*lib|standard\s+library)\b"
    r"|\b(?:no|without(?:\s+any)?|zero|can'?t\s+use(?:\s+any)?|cannot\s+use(?:\s+any)?)"
    rf"\s+(?:third[- ]party|external|extra|additional|outside|npm|pip)\s+{_PACKAGES}\b"
    r"|\b(?:can'?t|cannot|not\s+allowed\s+to|unable\s+to)\s+(?:pip\s+|npm\s+)?install"
    rf"\s+(?:anything|any\s+{_PACKAGES}|new\s+{_PACKAGES})\b"
    r"|\b(?:zero|no)\s+(?:runtime\s+)?dependencies\b",
    re.IGNORECASE,
)
