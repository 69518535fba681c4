#!/bin/bash
# bench_turn.sh: whole turns (kind: turn) per second, this tree against another
# commit, side by side in one session.
#
# Usage: [ROUNDS=N] [CALLGRIND=1] bench/bench_turn.sh BASE_COMMIT [TRIALS]
#        (from the repository root)
#
# Builds BASE_COMMIT in a temporary git worktree and this tree in
# build-bench/, both with meson's release settings, then times `run --no-rows`
# of the two turn examples (scenarios/examples/turns/cavalry-wing.yaml and
# brigade-volley.yaml), TRIALS trials each (default 2e6), on 1 and 2 threads,
# with both programs. The runs are timed in ROUNDS rounds (default 5), each
# round running each once in turn, so that a slower spell of a shared machine
# falls on all of them alike; a figure is a run's best round, and the medians
# of the rounds are printed too. Each run is timed by bash's microsecond clock
# (EPOCHREALTIME). Ratios are what to compare: this tree / base.
#
# With CALLGRIND=1, also the instructions per turn of both programs (valgrind
# --tool=callgrind, counting inside om_wm_turn_resolve only, 20,000 turns on 1
# thread): a count that does not depend on what else the machine runs.
set -eu
export LC_ALL=C # a decimal point in EPOCHREALTIME
BASE=${1:?usage: bench/bench_turn.sh BASE_COMMIT [TRIALS]}
TRIALS=${2:-2000000}
ROUNDS=${ROUNDS:-5}
ROOT=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/om_bench_turn_XXXXXX")
trap 'git -C "$ROOT" worktree remove --force "$WORK/base" >/dev/null 2>&1; rm -rf "$WORK"' EXIT
EXAMPLES="cavalry-wing brigade-volley"

echo "building this tree and $BASE ($(git rev-parse --short "$BASE"))..."
[ -d build-bench ] || meson setup build-bench --buildtype=release >/dev/null
meson compile -C build-bench >/dev/null
git worktree add --detach "$WORK/base" "$BASE" >/dev/null 2>&1
(cd "$WORK/base" && meson setup build --buildtype=release >/dev/null &&
    meson compile -C build oddsmaster >/dev/null)
NEW=build-bench/oddsmaster
OLD="$WORK/base/build/oddsmaster"

# time_rate PROGRAM EXAMPLE THREADS: turns per second of one run. A run that
# fails ends the script with its errors, rather than give the time it took
# to fail as a rate.
time_rate() {
    rm -f "$WORK/out.h5"
    t0=$EPOCHREALTIME
    if ! "$1" run --no-rows --trials "$TRIALS" -q -t "$3" -o "$WORK/out.h5" \
        "$ROOT/scenarios/examples/turns/$2.yaml" >/dev/null 2>"$WORK/err"; then
        echo "bench_turn.sh: the run of $2 by $1 failed:" >&2
        cat "$WORK/err" >&2
        exit 1
    fi
    t1=$EPOCHREALTIME
    awk -v t="$TRIALS" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", t / (b - a) }'
}

# The runs, in rounds; a run's figure is its best round.
declare -A best all
for round in $(seq "$ROUNDS"); do
    for ex in $EXAMPLES; do
        for threads in 1 2; do
            for prog in new base; do
                label="$ex/$threads/$prog"
                [ "$prog" = new ] && bin=$NEW || bin=$OLD
                rate=$(time_rate "$bin" "$ex" "$threads")
                all[$label]+="$rate "
                [ "$rate" -gt "${best[$label]:-0}" ] && best[$label]=$rate
            done
        done
    done
done
# median LABEL: the median round of a run.
median() {
    echo "${all[$1]}" | tr ' ' '\n' | grep . | sort -n |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '\nwhole turns, %.0e trials, run --no-rows (turns per second, best of %d rounds; median)\n' \
    "$TRIALS" "$ROUNDS"
printf '%-16s %-8s %22s %22s %16s\n' example threads "this tree" "$BASE" "this / base"
for ex in $EXAMPLES; do
    for threads in 1 2; do
        n=${best[$ex/$threads/new]} b=${best[$ex/$threads/base]}
        mn=$(median "$ex/$threads/new") mb=$(median "$ex/$threads/base")
        awk -v ex="$ex" -v th="$threads" -v n="$n" -v b="$b" -v mn="$mn" -v mb="$mb" 'BEGIN {
            printf "%-16s %-8s %10.3e (%9.3e) %10.3e (%9.3e) %6.2fx (%5.2fx)\n",
                   ex, th, n, mn, b, mb, n / b, mn / mb }'
    done
done

if [ "${CALLGRIND:-0}" = 1 ]; then
    # per_turn PROGRAM EXAMPLE: instructions per turn inside om_wm_turn_resolve.
    per_turn() {
        valgrind --tool=callgrind --toggle-collect=om_wm_turn_resolve \
            --callgrind-out-file="$WORK/cg.out" "$1" run --no-rows --trials 20000 -q -t 1 \
            -o "$WORK/out.h5" "$ROOT/scenarios/examples/turns/$2.yaml" 2>&1 |
            awk '/Collected/ { printf "%.0f", $4 / 20000 }'
    }
    printf '\ninstructions per turn (callgrind, inside om_wm_turn_resolve, 20000 turns)\n'
    printf '%-16s %14s %14s %12s\n' example "this tree" "$BASE" "base / this"
    for ex in $EXAMPLES; do
        n=$(per_turn "$NEW" "$ex")
        b=$(per_turn "$OLD" "$ex")
        awk -v ex="$ex" -v n="$n" -v b="$b" \
            'BEGIN { printf "%-16s %14d %14d %11.2fx\n", ex, n, b, b / n }'
    done
fi
