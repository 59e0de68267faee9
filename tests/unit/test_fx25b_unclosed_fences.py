"""A code fence never closed runs to the end of the answer: what follows it is code, where
``**`` is no bold and ``# comment`` no heading; lines that open with ``` but say more
("```python", "``` x") do not close a block. Found in one pass over the lines."""

from __future__ import annotations

from scoregate.scoring.counting import (
    bold_spans,
    code_fences,
    count_units,
    heading_lines,
    without_code_fences,
)


def test_bold_after_an_unclosed_fence_is_code() -> None:
    answer = "Use **kwargs** like this:\n```python\ndef f(**kw):  # **not bold**\n    pass\n"
    assert bold_spans(answer) == ["**kwargs**"]


def test_a_heading_after_an_unclosed_fence_is_a_comment() -> None:
    answer = "## Setup\n```bash\n# install the deps\npip install requests\n"
    assert heading_lines(answer) == ["## Setup"]


def test_a_closed_fence_still_ends_and_what_follows_counts() -> None:
    answer = "```python\nx = 2**10  # **no**\n```\n**Done.** See below.\n## Notes\n"
    assert bold_spans(answer) == ["**Done.**"]
    assert heading_lines(answer) == ["## Notes"]


def test_a_fence_line_with_more_on_it_does_not_close_a_block() -> None:
    answer = "```\n``` x\n```python\n**inside**\n# inside\n```\nThe **after** part.\n# After\n"
    assert bold_spans(answer) == ["**after**"]
    assert heading_lines(answer) == ["# After"]


def test_a_block_closes_only_at_its_own_marker() -> None:
    assert bold_spans("~~~\n```\n**inside**\n~~~\n**after**") == ["**after**"]
    assert bold_spans("```\n~~~\n**inside**\n```\n**after**") == ["**after**"]


def test_a_closing_fence_with_a_carriage_return_closes() -> None:
    assert bold_spans("```\r\n**inside**\r\n```\r\n**after**\r\n") == ["**after**"]


def test_inline_code_is_still_no_bold() -> None:
    assert bold_spans("Run `a**b**c` then **go**") == ["**go**"]


def test_code_lines_of_an_unclosed_fence_are_its_lines() -> None:
    answer = "Here's the script:\n```python\nimport os\n\nprint(os.getcwd())\n"
    assert count_units(answer, "code_lines", None) == 2


def test_fence_spans_and_removal() -> None:
    text = "a\n```sh\nls\n```\nb\n~~~\nc"
    assert code_fences(text) == [(2, 8, 11, 14), (17, 21, 22, 22)]
    assert without_code_fences(text) == "a\n\nb\n"
    assert without_code_fences(text, ("```",)) == "a\n\nb\n~~~\nc"


def test_many_unclosed_fence_lines_make_one_block() -> None:
    answer = "Intro **x**\n" + "```python\nprint(1)\n" * 5000
    assert len(code_fences(answer)) == 1
    assert bold_spans(answer) == ["**x**"]
    assert heading_lines("# Top\n" + answer) == ["# Top"]
