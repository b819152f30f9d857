#!/usr/bin/env python3
"""Model estimates of the x86 AVX2 Keccak kernels: llvm-mca cycles of one
round (the kernels' round loop: four states for the 4-way AVX2 kernel, five
and six for the hybrids that add one or two states in general registers) for
AMD Zen 3 and Zen 4 and Intel Alder Lake and Sapphire Rapids, per state and
permutation, times the Keccak-f[1600] count of an operation. It ends with the
kernel the AVX2 backend should use by this model on each core (fewer cycles
per permutation per state); `KeccakKernel` selection in
crates/sphincs/src/hash/backend/select.rs takes it together with a
measurement (`hybrid_speed` in keccak_x5_hybrid.rs).

The figures are llvm-mca's pipeline models of the code rustc generated, not
measurements. The kernels are read from the profiling (release with symbols) test binary of the core
crate (the library alone drops kernels no backend selects), so build it first:

    cargo test --profile profiling -p sphincs --lib --no-run
    python3 scripts/x86-mca.py [PERMUTATIONS]

llvm-mca is taken from the Debian sid chroot of `.ci/aarch64.sh` when it has
one (LLVM 21 knows all four cores; `chroot "$(bash .ci/aarch64.sh where)"
apt-get install llvm`, run as root), else from the host, whose older LLVM may
lack some of the cores (those rows are skipped).

PERMUTATIONS defaults to 105904, the keccak-f count of one SLH-DSA-SHAKE-128f
signature (`sphincs bench --calls -a SLH-DSA-SHAKE-128f`).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARIES = "target/profiling/deps/sphincs-*"
# Kernel (the end of its mangled path before the hash): states one iteration
# of its round loop advances.
KERNELS = {"keccak_x48f1600_x4": 4,
           "keccak_x5_hybrid20f1600_x5_hybrid_avx2": 5,
           "keccak_x5_hybrid20f1600_x6_hybrid_avx2": 6}
# The cores without AVX-512 the AVX2 backend targets come first; the last two
# have AVX-512 (where the AVX-512 backend runs) and are here for comparison
# with the machine the measurement ran on.
CPUS = ["znver3", "alderlake", "znver4", "sapphirerapids"]
ROUNDS = 24


def chroot_dir():
    """The sid chroot if it exists and has llvm-mca, else None."""
    try:
        where = subprocess.run(["bash", os.path.join(ROOT, ".ci", "aarch64.sh"), "where"],
                               check=True, capture_output=True, text=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    return where if os.path.exists(os.path.join(where, "usr/bin/llvm-mca")) else None


def mca(chroot, tmp, cpu):
    """llvm-mca's report on tmp/round.s for `cpu`, or None if it lacks the model."""
    if chroot:
        rel = os.path.relpath(tmp, chroot)
        cmd = ["chroot", chroot, "sh", "-c",
               f"cd /{rel} && llvm-mca -mtriple=x86_64 -mcpu={cpu} -iterations=100 round.s"]
    else:
        cmd = ["llvm-mca", "-mtriple=x86_64", f"-mcpu={cpu}", "-iterations=100",
               os.path.join(tmp, "round.s")]
    run = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if run.returncode != 0 or "not a recognized processor" in run.stderr:
        return None
    return run.stdout


def round_loop(dis):
    """The body of the widest backward branch of a disassembly, without the
    branch: the round loop, which holds every other loop of the kernel."""
    ins = []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if m:
            text = re.sub(r"\s+<.*>", "", m.group(2).split("#")[0]).strip()
            ins.append((int(m.group(1), 16), text))
    best = None
    for addr, text in ins:
        m = re.match(r"j\w+\s+0x([0-9a-f]+)$", text)
        if m and int(m.group(1), 16) < addr:
            span = (int(m.group(1), 16), addr)
            if best is None or span[1] - span[0] > best[1] - best[0]:
                best = span
    return [t for a, t in ins if best[0] <= a < best[1]]


def main():
    perms = int(sys.argv[1]) if len(sys.argv) > 1 else 105904
    bins = [b for b in glob.glob(os.path.join(ROOT, BINARIES))
            if os.access(b, os.X_OK) and not b.endswith(".d")]
    if not bins:
        sys.exit("no test binary: cargo test --profile profiling -p sphincs --lib --no-run")
    binary = max(bins, key=os.path.getmtime)
    syms = subprocess.run(["llvm-nm", "--defined-only", binary], check=True,
                          capture_output=True, text=True).stdout.split("\n")
    chroot = chroot_dir()
    parent = os.path.join(chroot, "tmp") if chroot else None
    print(f"binary {os.path.relpath(binary, ROOT)}; llvm-mca from "
          + (f"the chroot {chroot}" if chroot else shutil.which("llvm-mca")))
    per_state = {}
    with tempfile.TemporaryDirectory(dir=parent) as tmp:
        for kernel, states in KERNELS.items():
            found = [s.split()[-1] for s in syms if re.search(kernel + r"17h[0-9a-f]{16}E$", s)]
            if not found:
                sys.exit(f"{kernel} not found in {binary}")
            dis = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn",
                                  f"--disassemble-symbols={found[0]}", binary],
                                 check=True, capture_output=True, text=True).stdout
            body = round_loop(dis)
            with open(os.path.join(tmp, "round.s"), "w") as f:
                f.write("\n".join(body) + "\n")
            spills = sum(1 for t in body if "(%rsp)" in t)
            name = kernel.split("f1600_")[-1]
            for cpu in CPUS:
                out = mca(chroot, tmp, cpu)
                if out is None:
                    print(f"{name:16} {cpu:15} (no model in this llvm-mca)")
                    continue
                cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 100
                per_perm = cycles * ROUNDS / states
                per_state[name, cpu] = per_perm
                print(f"{name:16} {cpu:15} {states} states {len(body):4} insns/round"
                      f" ({spills:3} on the stack) {cycles:6.1f} cycles/round"
                      f"  {per_perm:5.0f} cycles/permutation/state"
                      f"  {per_perm * perms / 1e6:6.1f} M cycles for {perms} permutations")
    names = [k.split("f1600_")[-1] for k in KERNELS]
    for cpu in CPUS:
        have = [n for n in names if (n, cpu) in per_state]
        if have:
            best = min(have, key=lambda n: per_state[n, cpu])
            print(f"AVX2 backend on {cpu:15}: {best} ("
                  + ", ".join(f"{n} {per_state[n, cpu]:.0f}" for n in have) + ")")


if __name__ == "__main__":
    main()
