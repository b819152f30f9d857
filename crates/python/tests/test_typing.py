"""The type stubs as a type checker reads them (mypy, pinned in
requirements-test.txt): every bytes argument takes any buffer, as the
package does at run time (array.array, mmap, memoryview, bytearray, a NumPy
array), while a str is still flagged."""

from __future__ import annotations

import pytest
from mypy import api

USES = """\
import array
import mmap

import numpy
import sphincs

key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
data = array.array("B", b"release")
sig = key.sign(data, bytearray(b"context"), randomness=memoryview(bytes(16)))
key.public_key().verify(array.array("B", sig), memoryview(b"release"), b"context")
sphincs.verify_many([(key.public_key(), sig, data)])
spx = sphincs.SpxPrivateKey.generate("sphincs-shake-128f-simple")
spx.public_key().verify(spx.sign(bytearray(b"m")), array.array("b", b"m"))


def signs_a_mapped_file(m: mmap.mmap) -> bytes:
    return key.sign(m)
"""

# NumPy's own stubs give ndarray the buffer protocol for Python 3.12 and
# later only, so a type checker sees an array as a buffer from 3.12 on.
NUMPY = """
key.sign(numpy.frombuffer(b"release", dtype=numpy.uint8))
"""

# The one line mypy must flag: text is not bytes.
WRONG = 'key.sign("text")\n'


@pytest.mark.parametrize("python_version", [None, "3.12"], ids=["this-python", "3.12"])
def test_mypy_takes_any_buffer_and_refuses_text(tmp_path, python_version):
    source = USES + (NUMPY if python_version == "3.12" else "")
    wrong_line = source.count("\n") + 1
    path = tmp_path / "uses_buffers.py"
    path.write_text(source + WRONG)
    version = ["--python-version", python_version] if python_version else []
    out, err, status = api.run(
        [str(path), "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *version]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1, (out, err)
    assert len(errors) == 1, out
    assert f"uses_buffers.py:{wrong_line}:" in errors[0] and '"str"' in errors[0], out
