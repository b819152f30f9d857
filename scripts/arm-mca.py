#!/usr/bin/env python3
"""Model estimates of the AArch64 Keccak kernels: llvm-mca cycles of one
round (the kernels' inner loop: two states for the 2-way NEON kernels, three
for the hybrid scalar+NEON ones) for Apple M1, Neoverse-V1 and Cortex-A72,
per state and permutation, times the Keccak-f[1600] count of an operation.
It ends with the kernel each backend should use by this model (the one with
fewer cycles per permutation per state on the cores the backend targets);
`KeccakKernel` selection in crates/sphincs/src/hash/backend/select.rs follows it.

No ARM machine is involved: the figures are llvm-mca's pipeline models of the
code rustc generated, not measurements. Needs the chroot and the release
library that `.ci/aarch64.sh` builds, and `llvm` in the chroot
(`chroot "$(bash .ci/aarch64.sh where)" apt-get install llvm`); run as root:

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
# The chroot lives in the CI cache (.ci/sid-chroot.sh); the script says where.
CHROOT = subprocess.run(["bash", os.path.join(ROOT, ".ci", "aarch64.sh"), "where"],
                        check=True, capture_output=True, text=True).stdout.strip()
RLIBS = "target/chroot/aarch64-unknown-linux-gnu/release/deps/libsphincs-*.rlib"
# Kernel symbol: (states one iteration of its round loop advances, CPU models).
# The SHA-3 kernels are not modelled on Cortex-A72, which lacks the extension.
KERNELS = {"f1600_x4_sha3": (2, ["apple-m1", "neoverse-v1"]),
           "f1600_x3_hybrid_sha3": (3, ["apple-m1", "neoverse-v1"]),
           "f1600_x4_neon": (2, ["apple-m1", "neoverse-v1", "cortex-a72"]),
           "f1600_x3_hybrid_neon": (3, ["apple-m1", "neoverse-v1", "cortex-a72"])}
# Backend: (its candidate kernels, the cores it most targets).
BACKENDS = {"sha3": (["f1600_x4_sha3", "f1600_x3_hybrid_sha3"], ["apple-m1", "neoverse-v1"]),
            "neon": (["f1600_x4_neon", "f1600_x3_hybrid_neon"], ["cortex-a72"])}
ROUNDS = 24


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
        per_state = {}
        for kernel, (states, cpus) in KERNELS.items():
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
                per_perm = cycles * ROUNDS / states
                per_state[kernel, cpu] = per_perm
                print(f"{kernel:20} {cpu:12} {states} states {len(body):4} insns/round"
                      f"  {cycles:6.1f} cycles/round  {per_perm:6.0f} cycles/permutation/state"
                      f"  {per_perm * perms / 1e6:6.1f} M cycles for {perms} permutations")
        for backend, (kernels, cpus) in BACKENDS.items():
            for cpu in cpus:
                best = min(kernels, key=lambda k: per_state[k, cpu])
                print(f"backend {backend:5} on {cpu:12}: {best} ("
                      + ", ".join(f"{k} {per_state[k, cpu]:.0f}" for k in kernels) + ")")


if __name__ == "__main__":
    main()
