"""Sign and verify many files on a Dask cluster with the sphincs package.

Needs ``pip install "dask[distributed]"`` beside ``pip install ./crates/python``.

Signing and verification are CPU-bound and independent per file, so a batch
of files splits into chunks, one Dask task per chunk. Each task streams its
files from disk (``sign_file`` / ``verify_file``: bounded memory whatever
their size) with the GIL released, each signature over every core of the
worker. Keys travel to the workers pickled (a pickled private key is as
sensitive as its PEM: keep the cluster's links private). The files, and their
``FILE.sig`` signatures, are read by the workers, so on a real cluster they
must be on storage every worker can reach (a shared file system).

Usage::

    # A local cluster of 2 worker processes:
    python dask_sign.py sign --key release.key FILE...        # writes FILE.sig (--force replaces one)
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
import os
import pathlib
import sys
from collections.abc import Iterable, Sequence

import sphincs

#: What ``verify_files`` reports for each file.
VALID, INVALID, MISSING_SIGNATURE = "valid", "invalid signature", "missing signature"


def sign_chunk(key, paths: Sequence[str], context: bytes | None = None) -> list[bytes]:
    """One task: the signatures of a chunk of files, each file streamed."""
    return [key.sign_file(p, context, threads=0) for p in paths]


def verify_chunk(pub, paths: Sequence[str], context: bytes | None = None) -> list[str]:
    """One task: each file of a chunk against its FILE.sig, streamed. A
    missing signature or an unreadable file is a result, not an exception."""
    results = []
    for p in paths:
        try:
            sig = pathlib.Path(p + ".sig").read_bytes()
        except FileNotFoundError:
            results.append(MISSING_SIGNATURE)
            continue
        except OSError as e:
            results.append(f"error: {p}.sig: {e.strerror}")
            continue
        try:
            pub.verify_file(sig, p, context)
            results.append(VALID)
        except sphincs.InvalidSignature:
            results.append(INVALID)
        except OSError as e:
            results.append(f"error: {e.filename}: {e.strerror}")
    return results


def _chunks(seq: Sequence, size: int) -> Iterable[Sequence]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


def sign_files(client, key, paths: Sequence[str], chunk_size: int = 8, context: bytes | None = None) -> list[bytes]:
    """The signatures of `paths`, in order, computed by the cluster's workers."""
    key_future = client.scatter(key, broadcast=True)
    futures = [client.submit(sign_chunk, key_future, list(c), context, pure=False) for c in _chunks(paths, chunk_size)]
    return [sig for chunk in client.gather(futures) for sig in chunk]


def verify_files(client, pub, paths: Sequence[str], chunk_size: int = 8, context: bytes | None = None) -> list[str]:
    """Each file checked against its FILE.sig by the cluster's workers: one
    of VALID, INVALID, MISSING_SIGNATURE or an "error: ..." line per file."""
    futures = [client.submit(verify_chunk, pub, list(c), context, pure=False) for c in _chunks(paths, chunk_size)]
    return [r for chunk in client.gather(futures) for r in chunk]


def write_signatures(paths: Sequence[str], sigs: Sequence[bytes], force: bool) -> None:
    """Writes FILE.sig for each file: a new file (an existing one is replaced
    only with `force`), complete or absent (written aside, then renamed)."""
    for p, s in zip(paths, sigs):
        target = p + ".sig"
        temp = f"{target}.{os.getpid()}.tmp"
        with open(temp, "xb") as f:
            f.write(s)
        try:
            if force:
                os.replace(temp, target)
            else:
                os.link(temp, target)  # fails if the target appeared meanwhile
        finally:
            if os.path.exists(temp):
                os.remove(temp)


def main(argv: Sequence[str] | None = None) -> int:
    from dask.distributed import Client, LocalCluster

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["sign", "verify"])
    ap.add_argument("--key", type=pathlib.Path, help="private key (PEM), for sign")
    ap.add_argument("--pub", type=pathlib.Path, help="public key (PEM), for verify")
    ap.add_argument("--force", action="store_true", help="sign: replace existing FILE.sig files")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster of 2 worker processes)")
    ap.add_argument("--chunk-size", type=int, default=8)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    paths = [str(pathlib.Path(f).resolve()) for f in args.files]
    if args.command == "sign":
        if not args.key:
            ap.error("sign needs --key")
        existing = [p + ".sig" for p in paths if os.path.lexists(p + ".sig")]
        if existing and not args.force:
            print(f"{existing[0]} already exists; use --force to replace it", file=sys.stderr)
            return 2
        key = sphincs.load_pem_private_key(args.key.read_bytes())
    elif not args.pub:
        ap.error("verify needs --pub")

    cluster = None if args.scheduler else LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    with Client(args.scheduler or cluster) as client:
        if args.scheduler:
            # Remote workers need this module to run its task functions.
            client.upload_file(__file__)
        if args.command == "sign":
            sigs = sign_files(client, key, paths, args.chunk_size)
            write_signatures(paths, sigs, args.force)
            print(f"signed {len(paths)} files")
            status = 0
        else:
            pub = sphincs.load_pem_public_key(args.pub.read_bytes())
            results = verify_files(client, pub, paths, args.chunk_size)
            for p, r in zip(paths, results):
                print(f"{p}: {r}")
            status = 0 if all(r == VALID for r in results) else 1
    if cluster is not None:
        cluster.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
