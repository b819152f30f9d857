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
import dask_sign  # noqa: E402


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
    sigs = dask_sign.sign_files(client, key.private_bytes_pem(), paths, chunk_size=6, context=b"dask")
    assert len(sigs) == len(paths)
    # Each signature is this key's signature of its own file.
    for p, s in zip(paths, sigs):
        pub.verify(s, pathlib.Path(p).read_bytes(), b"dask")
    # The tasks ran on both worker processes.
    assert len(client.scheduler_info()["workers"]) == 2
    oks = dask_sign.verify_files(client, pub.public_bytes_pem(), paths, sigs, chunk_size=6, context=b"dask")
    assert oks == [True] * len(paths)
    # A changed file and a swapped signature are reported, the rest stay valid.
    pathlib.Path(paths[3]).write_bytes(b"changed")
    sigs[10], sigs[11] = sigs[11], sigs[10]
    oks = dask_sign.verify_files(client, pub.public_bytes_pem(), paths, sigs, chunk_size=6, context=b"dask")
    assert [i for i, ok in enumerate(oks) if not ok] == [3, 10, 11]


def test_command_line(client, tmp_path, capsys):
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")
    (tmp_path / "k.pem").write_bytes(key.private_bytes_pem())
    (tmp_path / "p.pem").write_bytes(key.public_key().public_bytes_pem())
    files = []
    for i in range(3):
        f = tmp_path / f"doc{i}.txt"
        f.write_bytes(b"document %d" % i)
        files.append(str(f))
    assert dask_sign.main(["sign", "--key", str(tmp_path / "k.pem"), *files]) == 0
    assert all(pathlib.Path(f + ".sig").is_file() for f in files)
    # Verify through a scheduler address, as on a real cluster.
    address = client.scheduler.address
    verify = ["verify", "--scheduler", address, "--pub", str(tmp_path / "p.pem"), *files]
    assert dask_sign.main(verify) == 0
    pathlib.Path(files[1]).write_bytes(b"forged")
    assert dask_sign.main(verify) == 1
    assert "INVALID" in capsys.readouterr().out
