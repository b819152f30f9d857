"""Sign and verify many files on a Dask cluster with the sphincs package.

Signing and verification are CPU-bound and independent per message, so a
batch of files splits into chunks, one Dask task per chunk. Each task runs
``sign_many`` / ``verify_many`` on its chunk, which uses every core of the
worker with the GIL released. Keys travel to the workers as bytes (PEM), and
the files are read by the workers, so on a real cluster they must be on
storage every worker can reach (a shared file system, or pass file contents
instead of paths).

Usage::

    # A local cluster of 2 worker processes:
    python dask_sign.py sign --key release.key FILE...        # writes FILE.sig
    python dask_sign.py verify --pub release.pub FILE...      # reads FILE.sig
    # A real cluster: start `dask scheduler` and `dask worker tcp://HOST:8786`
    # on the machines (each with `pip install ./crates/python`), then (this file
    # is sent to the workers with Client.upload_file):
    python dask_sign.py sign --scheduler tcp://HOST:8786 --key release.key FILE...

Make keys with ``sphincs keygen -a SLH-DSA-SHAKE-128f -o release.key --pub release.pub``
or ``sphincs.SLHDSAPrivateKey.generate(...)`` and ``private_bytes_pem()``.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from typing import Iterable, Sequence

import sphincs


def sign_chunk(key_pem: bytes, paths: Sequence[str], context: bytes | None = None) -> list[bytes]:
    """One task: the signatures of a chunk of files, signed in one batch."""
    key = sphincs.load_pem_private_key(key_pem)
    return key.sign_many([pathlib.Path(p).read_bytes() for p in paths], context)


def verify_chunk(
    pub_pem: bytes, paths: Sequence[str], signatures: Sequence[bytes], context: bytes | None = None
) -> list[bool]:
    """One task: whether each file of a chunk matches its signature."""
    pub = sphincs.load_pem_public_key(pub_pem)
    items = [(pub, sig, pathlib.Path(p).read_bytes(), context) for p, sig in zip(paths, signatures)]
    return sphincs.verify_many(items)


def _chunks(seq: Sequence, size: int) -> Iterable[Sequence]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


def sign_files(client, key_pem: bytes, paths: Sequence[str], chunk_size: int = 8, context: bytes | None = None) -> list[bytes]:
    """The signatures of `paths`, in order, computed by the cluster's workers."""
    key_future = client.scatter(key_pem, broadcast=True)
    futures = [client.submit(sign_chunk, key_future, list(c), context, pure=False) for c in _chunks(paths, chunk_size)]
    return [sig for chunk in client.gather(futures) for sig in chunk]


def verify_files(
    client, pub_pem: bytes, paths: Sequence[str], signatures: Sequence[bytes], chunk_size: int = 8, context: bytes | None = None
) -> list[bool]:
    """Whether each file matches its signature, checked by the cluster's workers."""
    futures = [
        client.submit(verify_chunk, pub_pem, list(p), list(s), context, pure=False)
        for p, s in zip(_chunks(paths, chunk_size), _chunks(signatures, chunk_size))
    ]
    return [ok for chunk in client.gather(futures) for ok in chunk]


def main(argv: Sequence[str] | None = None) -> int:
    from dask.distributed import Client, LocalCluster

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["sign", "verify"])
    ap.add_argument("--key", type=pathlib.Path, help="private key (PEM), for sign")
    ap.add_argument("--pub", type=pathlib.Path, help="public key (PEM), for verify")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster of 2 worker processes)")
    ap.add_argument("--chunk-size", type=int, default=8)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    paths = [str(pathlib.Path(f).resolve()) for f in args.files]

    cluster = None if args.scheduler else LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    with Client(args.scheduler or cluster) as client:
        if args.scheduler:
            # Remote workers need this module to run its task functions.
            client.upload_file(__file__)
        if args.command == "sign":
            if not args.key:
                ap.error("sign needs --key")
            sigs = sign_files(client, args.key.read_bytes(), paths, args.chunk_size)
            for p, s in zip(paths, sigs):
                pathlib.Path(p + ".sig").write_bytes(s)
            print(f"signed {len(paths)} files")
            status = 0
        else:
            if not args.pub:
                ap.error("verify needs --pub")
            sigs = [pathlib.Path(p + ".sig").read_bytes() for p in paths]
            oks = verify_files(client, args.pub.read_bytes(), paths, sigs, args.chunk_size)
            for p, ok in zip(paths, oks):
                print(f"{p}: {'OK' if ok else 'INVALID'}")
            status = 0 if all(oks) else 1
    if cluster is not None:
        cluster.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
