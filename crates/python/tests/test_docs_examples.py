"""docs/python.md's examples run as written: every ```python block, in a
fresh directory holding the file it signs, as a reader would paste it."""

from __future__ import annotations

import os
import re

from conftest import REPO

DOC = REPO / "docs" / "python.md"


def python_blocks(text: str) -> list[str]:
    """The bodies of the page's ```python blocks, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, re.DOTALL | re.MULTILINE)


def test_finds_every_block():
    text = "x\n```python\na = 1\n```\n\n```sh\nno\n```\n```python\nb = 2\n```\n"
    assert python_blocks(text) == ["a = 1\n", "b = 2\n"]


def test_docs_python_examples_run(tmp_path, monkeypatch):
    blocks = python_blocks(DOC.read_text())
    assert blocks, f"no ```python block in {DOC}"
    monkeypatch.chdir(tmp_path)
    # The file the example signs and verifies with a pre-hash.
    (tmp_path / "big.iso").write_bytes(os.urandom(1 << 20))
    for i, code in enumerate(blocks, 1):
        scope: dict = {}
        exec(compile(code, f"{DOC.name} block {i}", "exec"), scope)  # noqa: S102 -- the page's own example
        # What the comments promise, where a block names it.
        if "ok" in scope:
            assert scope["ok"] == [True, True, True], f"block {i}"
