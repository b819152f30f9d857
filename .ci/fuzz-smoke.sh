#!/usr/bin/env bash
# Fuzz smoke test: every cargo-fuzz target in fuzz/ for 15 s (FUZZ_SECONDS),
# starting from the committed seed corpus. New corpus entries go to a scratch
# directory; a crash fails the run and leaves its input in fuzz/artifacts/.
# Installs the nightly toolchain and cargo-fuzz if they are missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../fuzz"
echo "== fuzz smoke test"
seconds=${FUZZ_SECONDS:-15}

rustup run nightly rustc --version >/dev/null 2>&1 ||
    rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

cargo fmt --check
# Every target built in one cargo run (the core is compiled once for all of
# them, on both cores), at a lower priority: CI runs this beside other steps.
nice -n 10 cargo +nightly fuzz build
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in $(cargo +nightly fuzz list); do
    echo "-- $target: ${seconds}s"
    if ! compgen -G "corpus/$target/seed-*" >/dev/null; then
        echo "fuzz target $target has no committed seeds (fuzz/corpus/$target/seed-*)" >&2
        exit 1
    fi
    mkdir -p "$scratch/$target"
    log="$scratch/$target.log"
    if ! cargo +nightly fuzz run "$target" "$scratch/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "fuzz target $target failed (input saved under fuzz/artifacts/$target/)" >&2
        exit 1
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
done
