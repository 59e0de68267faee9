"""Review UI finding 1: a lone key never records a verdict; Enter confirms; one submit only.

The page's script runs under Node against a small fake DOM (skipped where Node is missing).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scoregate/server/static/review.js"

HARNESS = r"""
const fs = require("fs");
const listeners = {};
const classes = () => {
  const s = new Set();
  return {add: c => s.add(c), remove: c => s.delete(c), has: c => s.has(c)};
};
const form = {
  submits: [], handlers: [],
  addEventListener(type, fn) { this.handlers.push(fn); },
  querySelectorAll() { return [buttons.approve, buttons.reject]; },
};
const button = v => ({
  value: v, tagName: "BUTTON", disabled: false, classList: classes(),
  click() {
    if (this.disabled) return;
    let prevented = false;
    const event = {submitter: this, preventDefault() { prevented = true; }};
    form.handlers.forEach(h => h(event));
    if (!prevented) form.submits.push(this.value);
  },
});
const buttons = {approve: button("approve"), reject: button("reject")};
const hint = {textContent: ""};
const body = {tagName: "BODY"};
global.window = {getSelection: () => ""};
global.setTimeout = fn => fn();
global.document = {
  getElementById: id =>
    id === "verdict-form" ? form : id === "shortcut-hint" ? hint : buttons[id] || null,
  addEventListener(type, fn) { listeners[type] = fn; },
};
eval(fs.readFileSync(process.argv[2], "utf8"));
for (const [key, tag] of JSON.parse(process.argv[3])) {
  const target = tag === "BODY" ? body : {tagName: tag};
  listeners.keydown({key, target, ctrlKey: false, metaKey: false, altKey: false, repeat: false,
                     preventDefault() {}});
}
console.log(JSON.stringify({submits: form.submits, hint: hint.textContent,
                            armed: buttons.reject.classList.has("armed")}));
"""


def press(tmp_path: Path, keys: list[tuple[str, str]]) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS, encoding="utf-8")
    run = subprocess.run(
        [node, str(harness), str(SCRIPT), json.dumps(keys)],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    result: dict[str, object] = json.loads(run.stdout)
    return result


def typed(text: str, where: str = "BODY") -> list[tuple[str, str]]:
    return [(c, where) for c in text]


def test_typing_a_note_outside_the_note_box_records_nothing(tmp_path):
    assert press(tmp_path, typed("really bad answer"))["submits"] == []


def test_a_key_picks_the_button_and_only_enter_confirms_it(tmp_path):
    picked = press(tmp_path, typed("r"))
    assert picked["submits"] == [] and picked["armed"] is True
    assert "Enter" in str(picked["hint"])
    assert press(tmp_path, [*typed("r"), ("Enter", "BODY")])["submits"] == ["reject"]
    assert press(tmp_path, [*typed("rx"), ("Enter", "BODY")])["submits"] == []  # cancelled


def test_nothing_fires_while_the_focus_is_in_a_field(tmp_path):
    keys = [("r", "TEXTAREA"), ("Enter", "TEXTAREA"), ("a", "INPUT"), ("Enter", "BODY")]
    assert press(tmp_path, keys)["submits"] == []


def test_after_the_first_submit_the_shortcuts_do_nothing_more(tmp_path):
    keys = [*typed("r"), ("Enter", "BODY"), *typed("a"), ("Enter", "BODY")]
    assert press(tmp_path, keys)["submits"] == ["reject"]
