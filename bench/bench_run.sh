#!/bin/bash
# bench_run.sh: `oddsmaster run` end to end against the engine alone, and side by
# side with another commit (by default the one before this one), in one script.
#
# Usage: [ROUNDS=N] bench/bench_run.sh [BASE_COMMIT] [TRIALS]   (from the repository root)
#
# Builds BASE_COMMIT (default HEAD~1) in a temporary git worktree and this tree
# in build-bench/, both with meson's release settings, then times the embedded
# default scenario (Knights charge Spearmen) in one session:
#   engine   bench_engagement of this tree: trials per second of the engine
#            alone (simulated and dropped: no tally, no file), 1 and 2 threads
#   rows     `run` writing every row and the tallies, 1 and 2 threads
#   no rows  `run --no-rows`, 1 and 2 threads (this tree only)
#   base     `run` of BASE_COMMIT, 1 and 2 threads
# The runs are timed in ROUNDS rounds (default 7), each round running each
# once in turn; a figure is a run's best round (the machine is shared and
# noisy), and the medians of the rounds are printed too. Each run is timed by
# bash's microsecond clock (EPOCHREALTIME: a run of 1e8 trials on 2 threads
# takes about a third of a second, where a 10 ms timer would step by 3%).
# Each timed run prints its odds (to /dev/null), as `run` does with -q too: about
# 10 ms of a run, read back from the tallies of the file just written; a base
# commit from before run -q printed them has not that cost to pay.
# Ratios are what to compare: run / engine, and this tree / base. Finally the
# peak RSS of a 1e9-trial run without rows (a few seconds). TRIALS defaults
# to 1e8.
set -eu
export LC_ALL=C # a decimal point in EPOCHREALTIME
BASE=${1:-HEAD~1}
TRIALS=${2:-100000000}
ROUNDS=${ROUNDS:-7}
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

# time_rate LABEL COMMAND...: trials/s of one run of COMMAND (its output goes
# to /dev/null). A run that fails ends the script with its errors, rather
# than give the time it took to fail as a rate. The run's output,
# $WORK/LABEL.h5 (the last argument), is removed before the run and its
# removal not timed: a run onto an existing file of 400 MB pays for deleting
# it when it renames its own over it (about a sixth of the run).
time_rate() {
    label=$1
    shift
    rm -f "$WORK/$label.h5"
    sync
    t0=$EPOCHREALTIME
    if ! "$@" >/dev/null 2>"$WORK/err"; then
        echo "bench_run.sh: the run $label failed: $*" >&2
        cat "$WORK/err" >&2
        exit 1
    fi
    t1=$EPOCHREALTIME
    awk -v t="$TRIALS" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", t / (b - a) }'
}

# The six runs, in rounds: each round runs each once, in turn, so that a
# slower spell of the machine falls on all of them alike rather than on
# whichever was being timed. A run's figure is its best round.
declare -A best all
LABELS="rows1 rows2 norows1 norows2 base1 base2"
for round in $(seq "$ROUNDS"); do
    for label in $LABELS; do
        case $label in
        rows*) cmd=("$NEW" run) ;;
        norows*) cmd=("$NEW" run --no-rows) ;;
        base*) cmd=("$OLD" run) ;;
        esac
        rate=$(time_rate "$label" "${cmd[@]}" --trials "$TRIALS" -q -t "${label: -1}" \
               -o "$WORK/$label.h5")
        all[$label]+="$rate "
        [ "$rate" -gt "${best[$label]:-0}" ] && best[$label]=$rate
    done
done
# median LABEL: the median round of a run.
median() {
    echo "${all[$1]}" | tr ' ' '\n' | grep . | sort -n |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

engine=$(build-bench/bench/bench_engagement - 20000000 400000)
e1=$(echo "$engine" | awk '/^oddsmaster/ { printf "%.0f", $(NF-1) }')
e2=$(echo "$engine" | awk '/^oddsmaster/ { printf "%.0f", $NF }')
r1=${best[rows1]} r2=${best[rows2]} n1=${best[norows1]} n2=${best[norows2]}
b1=${best[base1]} b2=${best[base2]}
mr1=$(median rows1) mr2=$(median rows2) mb1=$(median base1) mb2=$(median base2)
size=$(stat -c %s "$WORK/rows1.h5")
rm -f "$WORK"/*.h5
/usr/bin/time -o "$WORK/time" -f "%M %e" "$NEW" run --trials 1000000000 -q --no-rows \
    -o "$WORK/big.h5" >/dev/null 2>&1
rss=$(awk '{ print $1 }' "$WORK/time")
big=$(awk '{ print $2 }' "$WORK/time")

awk -v t="$TRIALS" -v e1="$e1" -v e2="$e2" -v r1="$r1" -v r2="$r2" -v n1="$n1" -v n2="$n2" \
    -v b1="$b1" -v b2="$b2" -v mr1="$mr1" -v mr2="$mr2" -v mb1="$mb1" -v mb2="$mb2" \
    -v size="$size" -v rss="$rss" -v big="$big" -v base="$BASE" -v rounds="$ROUNDS" 'BEGIN {
    printf "\ndefault scenario, %.0e trials (trials per second, best of %d rounds)\n", t, rounds
    printf "%-28s %12s %12s %8s\n", "", "1 thread", "2 threads", "2 / 1"
    printf "%-28s %12.3e %12.3e %7.2fx\n", "engine alone", e1, e2, e2 / e1
    printf "%-28s %12.3e %12.3e %7.2fx\n", "run, rows and tallies", r1, r2, r2 / r1
    printf "%-28s %12.3e %12.3e %7.2fx\n", "run --no-rows", n1, n2, n2 / n1
    printf "%-28s %12.3e %12.3e %7.2fx\n", "run of " base, b1, b2, b2 / b1
    printf "\nrun with rows / engine:   %5.1f%% (1 thread), %5.1f%% (2 threads)\n", 100 * r1 / e1, 100 * r2 / e2
    printf "run --no-rows / engine:   %5.1f%% (1 thread), %5.1f%% (2 threads)\n", 100 * n1 / e1, 100 * n2 / e2
    printf "run / run of %s: %.2fx (1 thread), %.2fx (2 threads)\n", base, r1 / b1, r2 / b2
    printf "medians of the rounds: run with rows %.3e / %.3e (%.2fx), run of %s %.3e / %.3e (%.2fx)\n", mr1, mr2, mr2 / mr1, base, mb1, mb2, mb2 / mb1
    printf "file with rows: %.2f bytes per trial\n", size / t
    printf "peak RSS of 1e9 trials without rows: %.1f MB (%s s)\n", rss / 1024, big
}'
