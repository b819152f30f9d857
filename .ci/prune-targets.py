#!/usr/bin/env python3
"""Drops what a CI run made stale in cargo's kept build directories
(.ci/targets.sh): usage  prune-targets.py SINCE DIR...

Cargo names each compiled unit `<name>-<16 hex digits>` in a profile's
`deps/`, `.fingerprint/` and `build/`. Where the hash depends on the
clone's path (the fuzz and ct-check workspaces reach the core through a
path outside themselves), every run adds another copy of the workspace's
crates. So: for each name of which this run (files written at or after
SINCE, seconds since the epoch) made a unit, the units of that name it did
not make are removed. Units this run did not touch at all (dependencies
reused as they were) stay. Removing too much only costs a rebuild.
"""

import os
import re
import shutil
import sys
from collections import defaultdict

UNIT = re.compile(r"^(?P<name>.+)-(?P<hash>[0-9a-f]{16})(?:\..*)?$")


def newest(path):
    """The latest mtime of `path` or, for a directory, of anything in it."""
    latest = os.lstat(path).st_mtime
    if os.path.isdir(path) and not os.path.islink(path):
        for root, _dirs, files in os.walk(path):
            for f in files:
                try:
                    latest = max(latest, os.lstat(os.path.join(root, f)).st_mtime)
                except OSError:
                    pass
    return latest


def prune(folder, since):
    units = defaultdict(lambda: defaultdict(list))  # name -> hash -> entries
    for entry in os.listdir(folder):
        m = UNIT.match(entry)
        if m:
            units[m["name"]][m["hash"]].append(os.path.join(folder, entry))
    freed = 0
    for hashes in units.values():
        if len(hashes) < 2:
            continue
        made = {h: max(newest(p) for p in ps) >= since for h, ps in hashes.items()}
        if not any(made.values()):
            continue
        for h, paths in hashes.items():
            if made[h]:
                continue
            for p in paths:
                if os.path.isdir(p) and not os.path.islink(p):
                    freed += sum(
                        os.lstat(os.path.join(r, f)).st_size
                        for r, _d, fs in os.walk(p)
                        for f in fs
                    )
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    freed += os.lstat(p).st_size
                    os.remove(p)
    return freed


def main():
    since = float(sys.argv[1])
    freed = 0
    for top in sys.argv[2:]:
        for root, dirs, _files in os.walk(top):
            for d in list(dirs):
                if d in ("deps", ".fingerprint", "build"):
                    freed += prune(os.path.join(root, d), since)
                    dirs.remove(d)
    print(f"cargo build directories: {freed >> 20} MiB of stale units removed")


if __name__ == "__main__":
    main()
