"""The README's Python example runs as written."""

from __future__ import annotations

import os
import re

from conftest import REPO


def test_readme_example(tmp_path, monkeypatch):
    text = (REPO / "README.md").read_text()
    section = text[text.index("## Python\n"):]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.iso").write_bytes(os.urandom(1 << 20))
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 -- the README's own example, run as a user would
    assert scope["ok"] == [True, True, True]
