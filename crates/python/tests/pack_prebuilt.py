"""Packs the extension `scripts/test-all` already built (target/release/lib_native.so,
from `cargo build --workspace` with PYO3_BUILD_EXTENSION_MODULE=1) and the package's
Python sources into a wheel laid out as maturin lays out this package's wheel
(`sphincs/_native.abi3.so`, the `.py`/`.pyi` files and `py.typed`, a dist-info with
METADATA, WHEEL and RECORD), so that the suite installs and imports the package as a
user does without compiling the core a second time with the binding's own features.

Usage: pack_prebuilt.py LIBRARY OUT_DIR  (prints the wheel's path)
"""

import base64
import hashlib
import pathlib
import re
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[3]
SOURCES = ROOT / "crates" / "python" / "python" / "sphincs"


def version() -> str:
    cargo = (ROOT / "Cargo.toml").read_text()
    found = re.search(r'^version = "([^"]+)"', cargo, re.MULTILINE)
    if not found:
        raise SystemExit("pack_prebuilt: no workspace version in Cargo.toml")
    return found.group(1)


def requires_python() -> str:
    pyproject = (ROOT / "crates" / "python" / "pyproject.toml").read_text()
    found = re.search(r'^requires-python = "([^"]+)"', pyproject, re.MULTILINE)
    if not found:
        raise SystemExit("pack_prebuilt: no requires-python in pyproject.toml")
    return found.group(1)


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main() -> None:
    library, out_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    if not library.is_file():
        raise SystemExit(f"pack_prebuilt: {library} is missing (scripts/test-all builds it)")
    ver = version()
    tag = "cp39-abi3-linux_x86_64"
    dist = f"sphincs-{ver}.dist-info"
    files: dict[str, bytes] = {}
    for src in sorted(SOURCES.iterdir()):
        if src.suffix in (".py", ".pyi") or src.name == "py.typed":
            files[f"sphincs/{src.name}"] = src.read_bytes()
    files["sphincs/_native.abi3.so"] = library.read_bytes()
    files[f"{dist}/METADATA"] = (
        "Metadata-Version: 2.1\n"
        "Name: sphincs\n"
        f"Version: {ver}\n"
        f"Requires-Python: {requires_python()}\n"
    ).encode()
    files[f"{dist}/WHEEL"] = (
        "Wheel-Version: 1.0\n"
        "Generator: sphincs pack_prebuilt.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {tag}\n"
    ).encode()
    record = [record_line(n, d) for n, d in files.items()] + [f"{dist}/RECORD,,"]
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("sphincs-*.whl"):
        old.unlink()
    wheel = out_dir / f"sphincs-{ver}-{tag}.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    print(wheel)


if __name__ == "__main__":
    main()
