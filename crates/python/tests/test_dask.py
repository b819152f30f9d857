"""The Dask example (examples/dask_sign.py) on a LocalCluster of 2 worker
processes: files signed and verified in chunks, keys passed as bytes."""

from __future__ import annotations

import os
import pathlib
import sys

import pytest
import sphincs

distributed = pytest.importorskip("dask.distributed")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import dask_sign


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def test_sign_and_verify_files(client, tmp_path):
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    pub = key.public_key()
    paths = []
    for i in range(20):
        p = tmp_path / f"file{i}.bin"
        p.write_bytes(os.urandom(1000 + i))
        paths.append(str(p))
    # Keys travel pickled.
    sigs = dask_sign.sign_files(client, key, paths, chunk_size=6, context=b"dask")
    assert len(sigs) == len(paths)
    # Each signature is this key's signature of its own file.
    for p, s in zip(paths, sigs):
        pub.verify(s, pathlib.Path(p).read_bytes(), b"dask")
    # The tasks ran on both worker processes.
    assert len(client.scheduler_info()["workers"]) == 2
    dask_sign.write_signatures(paths, sigs, force=False)
    results = dask_sign.verify_files(client, pub, paths, chunk_size=6, context=b"dask")
    assert results == [dask_sign.VALID] * len(paths)
    # A changed file, swapped signatures, a missing signature and a missing
    # file are reported as results; the rest stay valid.
    pathlib.Path(paths[3]).write_bytes(b"changed")
    s10, s11 = (pathlib.Path(paths[i] + ".sig") for i in (10, 11))
    b10, b11 = s10.read_bytes(), s11.read_bytes()
    s10.write_bytes(b11)
    s11.write_bytes(b10)
    os.remove(paths[15] + ".sig")
    os.remove(paths[17])
    results = dask_sign.verify_files(client, pub, paths, chunk_size=6, context=b"dask")
    bad = {i: r for i, r in enumerate(results) if r != dask_sign.VALID}
    assert bad == {
        3: dask_sign.INVALID,
        10: dask_sign.INVALID,
        11: dask_sign.INVALID,
        15: dask_sign.MISSING_SIGNATURE,
        17: f"error: {paths[17]}: No such file or directory",
    }


def test_command_line(client, tmp_path, capsys):
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")
    (tmp_path / "k.pem").write_bytes(key.private_bytes_pem())
    (tmp_path / "p.pem").write_bytes(key.public_key().public_bytes_pem())
    files = []
    for i in range(3):
        f = tmp_path / f"doc{i}.txt"
        f.write_bytes(b"document %d" % i)
        files.append(str(f))
    sign = ["sign", "--key", str(tmp_path / "k.pem"), *files]
    assert dask_sign.main(sign) == 0
    assert all(pathlib.Path(f + ".sig").is_file() for f in files)
    # An existing signature is not replaced without --force.
    before = pathlib.Path(files[0] + ".sig").read_bytes()
    assert dask_sign.main(sign) == 2
    assert "already exists; use --force" in capsys.readouterr().err
    assert pathlib.Path(files[0] + ".sig").read_bytes() == before
    assert dask_sign.main([*sign, "--force"]) == 0
    assert pathlib.Path(files[0] + ".sig").read_bytes() != before  # hedged: a new signature
    # Verify through a scheduler address, as on a real cluster.
    address = client.scheduler.address
    verify = ["verify", "--scheduler", address, "--pub", str(tmp_path / "p.pem"), *files]
    assert dask_sign.main(verify) == 0
    pathlib.Path(files[1]).write_bytes(b"forged")
    os.remove(files[2] + ".sig")
    assert dask_sign.main(verify) == 1
    out = capsys.readouterr().out
    assert f"{files[1]}: invalid signature" in out
    assert f"{files[2]}: missing signature" in out
