#!/bin/bash
# bench_run.sh: `oddsmaster run` end to end against the engine alone, and side by
# side with another commit (by default the one before this one), in one script.
#
# Usage: bench/bench_run.sh [BASE_COMMIT] [TRIALS]   (from the repository root)
#
# Builds BASE_COMMIT (default HEAD~1) in a temporary git worktree and this tree
# in build-bench/, both with meson's release settings, then times the embedded
# default scenario (Knights charge Spearmen) in one session:
#   engine   bench_engagement of this tree: trials per second of the engine
#            alone (simulated and dropped: no tally, no file), 1 and 2 threads
#   rows     `run` writing every row and the tallies, 1 and 2 threads
#   no rows  `run --no-rows`, 1 and 2 threads (this tree only)
#   base     `run` of BASE_COMMIT, 1 and 2 threads
# Each figure is the best of 5 (the machine is shared and noisy), each run
# timed by bash's microsecond clock (EPOCHREALTIME: a run of 1e8 trials on 2
# threads takes about a third of a second, where a 10 ms timer would step by
# 3%). Ratios are what to compare: run / engine, and this tree / base.
# Finally the peak RSS of a 1e9-trial run without rows (about 30 s). TRIALS
# defaults to 1e8.
set -eu
export LC_ALL=C # a decimal point in EPOCHREALTIME
BASE=${1:-HEAD~1}
TRIALS=${2:-100000000}
ROOT=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/om_bench_run_XXXXXX")
trap 'git -C "$ROOT" worktree remove --force "$WORK/base" >/dev/null 2>&1; rm -rf "$WORK"' EXIT

echo "building this tree and $BASE ($(git rev-parse --short "$BASE"))..."
[ -d build-bench ] || meson setup build-bench --buildtype=release >/dev/null
meson compile -C build-bench >/dev/null
git worktree add --detach "$WORK/base" "$BASE" >/dev/null 2>&1
(cd "$WORK/base" && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null)
NEW=build-bench/oddsmaster
OLD="$WORK/base/build/oddsmaster"

# best_rate LABEL COMMAND...: the best trials/s of 5 runs of COMMAND (its
# output and errors go to /dev/null). The run's output, $WORK/LABEL.h5 (the
# last argument), is removed before each run and its removal not timed: a
# run onto an existing file of 400 MB pays for deleting it when it renames
# its own over it (about a sixth of the run).
best_rate() {
    label=$1
    shift
    best=0
    for i in 1 2 3 4 5; do
        rm -f "$WORK/$label.h5"
        sync
        t0=$EPOCHREALTIME
        "$@" >/dev/null 2>&1
        t1=$EPOCHREALTIME
        rate=$(awk -v t="$TRIALS" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", t / (b - a) }')
        [ "$rate" -gt "$best" ] && best=$rate
    done
    echo "$best"
}

engine=$(build-bench/bench/bench_engagement - 20000000 400000)
e1=$(echo "$engine" | awk '/^oddsmaster/ { printf "%.0f", $(NF-1) }')
e2=$(echo "$engine" | awk '/^oddsmaster/ { printf "%.0f", $NF }')
r1=$(best_rate rows1 "$NEW" run --trials "$TRIALS" -q -t 1 -o "$WORK/rows1.h5")
r2=$(best_rate rows2 "$NEW" run --trials "$TRIALS" -q -t 2 -o "$WORK/rows2.h5")
n1=$(best_rate norows1 "$NEW" run --trials "$TRIALS" -q -t 1 --no-rows -o "$WORK/norows1.h5")
n2=$(best_rate norows2 "$NEW" run --trials "$TRIALS" -q -t 2 --no-rows -o "$WORK/norows2.h5")
b1=$(best_rate base1 "$OLD" run --trials "$TRIALS" -q -t 1 -o "$WORK/base1.h5")
b2=$(best_rate base2 "$OLD" run --trials "$TRIALS" -q -t 2 -o "$WORK/base2.h5")
size=$(stat -c %s "$WORK/rows1.h5")
rm -f "$WORK"/*.h5
/usr/bin/time -o "$WORK/time" -f "%M %e" "$NEW" run --trials 1000000000 -q --no-rows \
    -o "$WORK/big.h5" >/dev/null 2>&1
rss=$(awk '{ print $1 }' "$WORK/time")
big=$(awk '{ print $2 }' "$WORK/time")

awk -v t="$TRIALS" -v e1="$e1" -v e2="$e2" -v r1="$r1" -v r2="$r2" -v n1="$n1" -v n2="$n2" \
    -v b1="$b1" -v b2="$b2" -v size="$size" -v rss="$rss" -v big="$big" -v base="$BASE" 'BEGIN {
    printf "\ndefault scenario, %.0e trials (trials per second, best of 5)\n", t
    printf "%-28s %12s %12s %8s\n", "", "1 thread", "2 threads", "2 / 1"
    printf "%-28s %12.3e %12.3e %7.2fx\n", "engine alone", e1, e2, e2 / e1
    printf "%-28s %12.3e %12.3e %7.2fx\n", "run, rows and tallies", r1, r2, r2 / r1
    printf "%-28s %12.3e %12.3e %7.2fx\n", "run --no-rows", n1, n2, n2 / n1
    printf "%-28s %12.3e %12.3e %7.2fx\n", "run of " base, b1, b2, b2 / b1
    printf "\nrun with rows / engine:   %5.1f%% (1 thread), %5.1f%% (2 threads)\n", 100 * r1 / e1, 100 * r2 / e2
    printf "run --no-rows / engine:   %5.1f%% (1 thread), %5.1f%% (2 threads)\n", 100 * n1 / e1, 100 * n2 / e2
    printf "run / run of %s: %.2fx (1 thread), %.2fx (2 threads)\n", base, r1 / b1, r2 / b2
    printf "file with rows: %.2f bytes per trial\n", size / t
    printf "peak RSS of 1e9 trials without rows: %.1f MB (%s s)\n", rss / 1024, big
}'
