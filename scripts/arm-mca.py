#!/usr/bin/env python3
"""Model estimates of the AArch64 Keccak kernels: llvm-mca cycles of one
round (the kernels' inner loop, on two states) for Apple M1, Neoverse-V1 and
Cortex-A72, times the Keccak-f[1600] count of an operation.

No ARM machine is involved: the figures are llvm-mca's pipeline models of the
code rustc generated, not measurements. Needs the chroot and the release
library that `.ci/aarch64.sh` builds, and `llvm` in the chroot
(`chroot target/sid-chroot apt-get install llvm`); run as root:

    python3 scripts/arm-mca.py [PERMUTATIONS]

PERMUTATIONS defaults to 105904, the keccak-f count of one SLH-DSA-SHAKE-128f
signature (`sphincs bench --calls -a SLH-DSA-SHAKE-128f`).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROOT = os.path.join(ROOT, "target", "sid-chroot")
RLIBS = "target/chroot/aarch64-unknown-linux-gnu/release/deps/libsphincs-*.rlib"
KERNELS = {"f1600_x4_sha3": ["apple-m1", "neoverse-v1"],
           "f1600_x4_neon": ["apple-m1", "neoverse-v1", "cortex-a72"]}
ROUNDS_PER_PERMUTATION_PER_STATE = 24 / 2  # one round handles two states


def in_chroot(cmd, cwd):
    """Runs `cmd` in the chroot, in `cwd` (a directory under the chroot's /tmp)."""
    rel = os.path.relpath(cwd, CHROOT)
    return subprocess.run(["chroot", CHROOT, "sh", "-c", f"cd /{rel} && {cmd}"],
                          check=True, capture_output=True, text=True).stdout


def inner_loop(dis):
    """The body of the innermost backward branch of a disassembly, without it."""
    ins = []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if m:
            ins.append((int(m.group(1), 16), re.sub(r"\s+<.*>", "", m.group(2).split("//")[0]).strip()))
    best = None
    for addr, text in ins:
        m = re.match(r"b\.\w+\s+0x([0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr:
            span = (int(m.group(1), 16), addr)
            if best is None or span[1] - span[0] < best[1] - best[0]:
                best = span
    return [t for a, t in ins if best[0] <= a < best[1]]


def main():
    perms = int(sys.argv[1]) if len(sys.argv) > 1 else 105904
    rlib = sorted(glob.glob(os.path.join(ROOT, RLIBS)), key=os.path.getmtime)[-1]
    with tempfile.TemporaryDirectory(dir=os.path.join(CHROOT, "tmp")) as tmp:
        subprocess.run(["ar", "x", rlib], cwd=tmp, check=True)
        for kernel, cpus in KERNELS.items():
            for obj in glob.glob(os.path.join(tmp, "*.o")):
                syms = in_chroot(f"llvm-nm --defined-only {os.path.basename(obj)}", tmp)
                sym = [s.split()[-1] for s in syms.splitlines() if s.endswith(kernel)]
                if sym:
                    break
            else:
                sys.exit(f"{kernel} not found in {rlib}")
            dis = in_chroot(f"llvm-objdump -d --no-show-raw-insn --disassemble-symbols={sym[0]} "
                            f"{os.path.basename(obj)}", tmp)
            body = inner_loop(dis)
            with open(os.path.join(tmp, "round.s"), "w") as f:
                f.write("\n".join(body) + "\n")
            for cpu in cpus:
                out = in_chroot(f"llvm-mca -mtriple=aarch64 -mcpu={cpu} -iterations=100 round.s", tmp)
                cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 100
                per_perm = cycles * ROUNDS_PER_PERMUTATION_PER_STATE
                print(f"{kernel:14} {cpu:12} {len(body):4} insns/round  {cycles:6.1f} cycles/round"
                      f"  {per_perm:6.0f} cycles/permutation  {per_perm * perms / 1e6:6.1f} M cycles"
                      f" for {perms} permutations")


if __name__ == "__main__":
    main()
