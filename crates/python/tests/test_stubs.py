"""The type stubs describe the package as built: every public name, every
enum member, every public method of the key classes; and py.typed ships."""

from __future__ import annotations

import ast
import pathlib

import sphincs

PKG = pathlib.Path(sphincs.__file__).parent


def _stub():
    return ast.parse((PKG / "__init__.pyi").read_text())


def test_py_typed_installed():
    assert (PKG / "py.typed").is_file()


def test_public_names_and_members():
    tree = _stub()
    top = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    top |= {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign)) for t in ([n.target] if isinstance(n, ast.AnnAssign) else n.targets) if isinstance(t, ast.Name)}
    # Names the stub re-exports (`from m import X as X`) from a typed module.
    top |= {a.asname for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names if a.asname == a.name}
    assert set(sphincs.__all__) <= top
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for enum_name in ("Algorithm", "SpxAlgorithm"):
        members = {
            t.id: n.value.value
            for n in classes[enum_name].body
            if isinstance(n, ast.Assign)
            for t in n.targets
        }
        assert members == {m.name: m.value for m in getattr(sphincs, enum_name)}
    for cls in (
        "SLHDSAPrivateKey",
        "SLHDSAPublicKey",
        "SpxPrivateKey",
        "SpxPublicKey",
        "Sphincs256PrivateKey",
        "Sphincs256PublicKey",
    ):
        body = classes[cls].body
        stubbed = {n.name for n in body if isinstance(n, ast.FunctionDef)}
        stubbed |= {n.target.id for n in body if isinstance(n, ast.AnnAssign)}  # class attributes
        public = {m for m in dir(getattr(sphincs, cls)) if not m.startswith("_")}
        assert public == stubbed - {"__eq__", "__hash__"}, cls
