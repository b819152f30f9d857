# Step bookkeeping for .ci/run (sourced, not run): every step's wall time and
# how busy the machine's cores were meanwhile (from /proc/stat: a step that
# leaves cores idle is a step whose neighbours could use them), steps that run
# beside the main line in the background, and the table of all of them printed
# when the run ends (passed or not), so the next slow step is seen at once.
#
#   step NAME CMD...   run CMD in the foreground as step NAME
#   bg NAME CMD...     start CMD in the background; its output goes to a log
#   join NAME          wait for a background step, print its log, fail if it failed
#   ci_if_changed NAME "PATH..." CMD...
#                      run CMD unless a run of NAME with the same inputs (the
#                      contents of the git-tracked files under PATH..., the
#                      toolchains) passed on this machine before; CI_FULL=1
#                      runs it anyway
#
# A background step's output is printed whole when it is joined, so the log
# reads step by step however the steps overlapped. A step that fails ends
# the run (after the table); background steps still running are stopped.

ci_start=$(date +%s)
ci_logs="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-ci.XXXXXX")"
declare -a ci_names=() ci_begin=() ci_secs=() ci_state=() ci_cpu0=() ci_busy=() ci_own=()
declare -A ci_pid=() ci_index=()

ci_now() { echo $(($(date +%s) - ci_start)); }

# The machine's CPU time so far, "BUSY TOTAL" in clock ticks (all cores; idle,
# iowait and steal count as not busy).
ci_cpu() {
    awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6 - $9, t; exit }' /proc/stat
}
ci_cpu_start=$(ci_cpu)

# Busy cores on average between two ci_cpu readings ("BUSY TOTAL" each), as
# a share of all the machine's cores times their number: 2.0 = both busy.
ci_busy_cores() { # BEFORE AFTER
    local b0 t0 b1 t1
    read -r b0 t0 <<<"$1"
    read -r b1 t1 <<<"$2"
    awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" -v n="$(nproc)" \
        'BEGIN { if (t > 0) printf "%.2f", n * b / t; else printf "-" }'
}

# CPU seconds (user + system) of this shell's waited-for children so far
# (and theirs), from bash's `times` (its second line), into variable VAR.
# `times` runs in this shell: in a $(...) subshell it would see no children.
ci_children_cpu() { # VAR
    times >"$ci_logs/.times"
    printf -v "$1" '%s' "$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }; printf "%.0f", t }' "$ci_logs/.times")"
}

ci_record() { # NAME -> index of a new row
    ci_index[$1]=${#ci_names[@]}
    ci_names+=("$1")
    ci_begin+=("$(ci_now)")
    ci_secs+=("")
    ci_state+=("running")
    ci_cpu0+=("$(ci_cpu)")
    ci_busy+=("")
    ci_own+=("")
}

ci_finish() { # NAME STATE [END [CPU]]: END and CPU (a ci_cpu reading) default to now
    local i=${ci_index[$1]}
    ci_secs[i]=$((${3:-$(ci_now)} - ci_begin[i]))
    ci_state[i]=$2
    ci_busy[i]=$(ci_busy_cores "${ci_cpu0[i]}" "${4:-$(ci_cpu)}")
}

ci_table() {
    local i
    echo
    echo "== CI steps (wall seconds; 'from' is the second the step started; 'cores' is"
    echo "   how many of the machine's $(nproc) cores were busy on average meanwhile, by all steps;"
    echo "   'cpu' is the CPU seconds, user + system, of the step's own processes)"
    printf '%-52s %6s %6s %5s %6s  %s\n' step from secs cores cpu result
    for i in "${!ci_names[@]}"; do
        printf '%-52s %6s %6s %5s %6s  %s\n' "${ci_names[i]}" "${ci_begin[i]}" "${ci_secs[i]:--}" \
            "${ci_busy[i]:--}" "${ci_own[i]:--}" "${ci_state[i]}"
    done
    local all
    ci_children_cpu all
    printf '%-52s %6s %6s %5s %6s\n' "total" 0 "$(ci_now)" "$(ci_busy_cores "$ci_cpu_start" "$(ci_cpu)")" "$all"
}

ci_exit() {
    local rc=$? name
    trap - EXIT
    for name in "${!ci_pid[@]}"; do
        if [[ -f "$ci_logs/$name.rc" ]]; then
            # Finished but not joined yet: its own result and end time.
            local r
            r=$(cat "$ci_logs/$name.rc")
            [[ $r == 0 ]] && r="ok (not joined)" || r="FAILED (exit $r, not joined)"
            ci_own[${ci_index[$name]}]=$(cat "$ci_logs/$name.own" 2>/dev/null || echo -)
            ci_finish "$name" "$r" "$(cat "$ci_logs/$name.end")" "$(cat "$ci_logs/$name.cpu")"
            continue
        fi
        # A background step still running when the run ends is stopped (its group).
        kill -- -"${ci_pid[$name]}" 2>/dev/null || kill "${ci_pid[$name]}" 2>/dev/null || true
        ci_finish "$name" "stopped"
    done
    # Then what the run asked to be done at its end (.ci/targets.sh).
    local hook
    for hook in ${ci_exit_hooks[@]+"${ci_exit_hooks[@]}"}; do
        "$hook" || true
    done
    ci_table
    rm -rf "$ci_logs"
    exit "$rc"
}
# Functions ci_exit runs, in order, once every step has ended or been stopped.
ci_exit_hooks=()
trap ci_exit EXIT

# A background step that has already failed ends the run at the next step
# boundary, not when it would have been joined.
ci_failed_early() {
    local name
    for name in "${!ci_pid[@]}"; do
        if [[ -f "$ci_logs/$name.rc" && "$(cat "$ci_logs/$name.rc")" != 0 ]]; then
            join "$name"
        fi
    done
}

step() {
    local name=$1 rc=0
    shift
    ci_failed_early
    echo "== [$(ci_now)s] $name"
    ci_record "$name"
    local cpu0 cpu1
    ci_children_cpu cpu0
    "$@" || rc=$?
    ci_children_cpu cpu1
    ci_own[${ci_index[$name]}]=$((cpu1 - cpu0))
    if [[ $rc -ne 0 ]]; then
        ci_finish "$name" "FAILED (exit $rc)"
        echo "== step '$name' failed with exit status $rc" >&2
        exit "$rc"
    fi
    ci_finish "$name" "ok"
}

bg() {
    local name=$1
    shift
    echo "== [$(ci_now)s] $name (started in the background)"
    ci_record "$name"
    # Its own process group (set -m), so that stopping it stops its children.
    # The second it ends is written beside its log: its time is its own, not
    # the time until it was joined.
    set -m
    {
        local rc=0
        "$@" </dev/null >"$ci_logs/$name.log" 2>&1 || rc=$?
        ci_now >"$ci_logs/$name.end"
        ci_cpu >"$ci_logs/$name.cpu"
        local own
        ci_children_cpu own
        echo "$own" >"$ci_logs/$name.own"
        echo "$rc" >"$ci_logs/$name.rc"
        exit "$rc"
    } &
    ci_pid[$name]=$!
    set +m
}

join() {
    local name=$1 rc=0
    wait "${ci_pid[$name]}" || rc=$?
    unset "ci_pid[$name]"
    echo "== [$(ci_now)s] $name (background, output follows)"
    cat "$ci_logs/$name.log"
    local end cpu
    ci_own[${ci_index[$name]}]=$(cat "$ci_logs/$name.own" 2>/dev/null || echo -)
    end=$(cat "$ci_logs/$name.end" 2>/dev/null || ci_now)
    cpu=$(cat "$ci_logs/$name.cpu" 2>/dev/null || ci_cpu)
    if [[ $rc -ne 0 ]]; then
        ci_finish "$name" "FAILED (exit $rc)" "$end" "$cpu"
        echo "== background step '$name' failed with exit status $rc" >&2
        exit "$rc"
    fi
    ci_finish "$name" "ok" "$end" "$cpu"
}

# The cache for pure set-up (a Debian chroot, OpenSSL 3.5, installed tools),
# outside the clone: reused while present, rebuilt when absent. Each entry is
# keyed by a hash of the recipe that makes it, so a changed recipe makes a
# new entry instead of reusing a stale one.
ci_cache="${SPHINCS_CI_CACHE:-/var/cache/sphincs-ci}"
ci_key() { # FILE... -> 16 hex digits
    cat "$@" | sha256sum | cut -c1-16
}

# The key of a lane's inputs: the contents of the tracked files under the
# paths (read from the work tree, so that uncommitted edits count), their
# names, and the Rust toolchains that build them.
ci_inputs_key() { # "PATH..." -> 16 hex digits
    local paths=$1
    # shellcheck disable=SC2086
    {
        git ls-files -z -- $paths | xargs -0 sha256sum
        rustc -V
        rustup run nightly rustc -V 2>/dev/null || true
    } | sha256sum | cut -c1-16
}

ci_if_changed() { # NAME "PATH..." CMD...
    local name=$1 paths=$2 key stamp
    shift 2
    key="$(ci_inputs_key "$paths")"
    stamp="$ci_cache/passed/$name-$key"
    if [[ "${CI_FULL:-0}" != 1 && -f "$stamp" ]]; then
        echo "$name: not run: its inputs ($paths; key $key) are those of the run that passed on this machine at $(cat "$stamp"). CI_FULL=1 runs it."
        return 0
    fi
    "$@" || return
    mkdir -p "$ci_cache/passed"
    date -u +%Y-%m-%dT%H:%M:%SZ >"$stamp"
}
