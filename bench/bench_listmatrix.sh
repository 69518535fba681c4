#!/bin/bash
# bench_listmatrix.sh: battles a second of a matrix of army lists (`matrix
# --lists`) against `battle` alone, for the same two lists and battles of the
# same kinds. Usage (from the repository root, after building BUILD):
#
#   [ROUNDS=N] bench/bench_listmatrix.sh BUILD/oddsmaster [BATTLES] [THREADS]
#
# A list matrix of one pairing fights BATTLES / 4 battles in each of its four
# legs (side A south or north x A or B first); `battle` fights BATTLES / 2
# with --first a and BATTLES / 2 with --first b, so both fight battles of the
# same kinds (the north legs are the south ones on the terrain turned round).
# Both lay out a terrain for each battle (dice-for-edges). Each is timed in
# ROUNDS rounds (default 3) by its processor time (user + system, from
# /usr/bin/time: the machine is shared, and processor time is steadier than
# the clock under load) and by the clock; a figure is the best round. The
# ratio of the two rates is what to compare: the list matrix's own cost (four
# scenarios loaded and prepared, a random stream seeded for each battle, the
# battles held in memory and written at the end) over the battles themselves.
set -eu
export LC_ALL=C
OM=$1
BATTLES=${2:-2000}
THREADS=${3:-1}
ROUNDS=${ROUNDS:-3}
A=revolution-empire-steel-and-shot
B=revolution-orcs-horde
TMP=$(mktemp -d "${TMPDIR:-/tmp}/om_bench_listmatrix_XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# timed NAME COMMAND...: append "cpu wall" of one run to $TMP/NAME.
timed() {
    name=$1
    shift
    /usr/bin/time -f "%U %S %e" -o "$TMP/t" "$@" >/dev/null
    awk '{ print $1 + $2, $3 }' "$TMP/t" >>"$TMP/$name"
}

for _ in $(seq "$ROUNDS"); do
    : >"$TMP/one"
    timed one "$OM" battle $A $B --battles $((BATTLES / 2)) --first a --terrain dice-for-edges \
        --threads "$THREADS" -q -o "$TMP/a.h5"
    timed one "$OM" battle $A $B --battles $((BATTLES / 2)) --first b --terrain dice-for-edges \
        --threads "$THREADS" -q -o "$TMP/b.h5"
    awk '{ c += $1; w += $2 } END { print c, w }' "$TMP/one" >>"$TMP/battle"
    timed matrix "$OM" matrix --lists $A $B --battles $((BATTLES / 4)) --terrain dice-for-edges \
        --threads "$THREADS" -q -o "$TMP/m.h5"
done
best() { sort -n -k"$2" "$TMP/$1" | head -n 1 | awk -v k="$2" '{ print $k }'; }
bc=$(best battle 1) bw=$(best battle 2) mc=$(best matrix 1) mw=$(best matrix 2)
awk -v n="$BATTLES" -v bc="$bc" -v bw="$bw" -v mc="$mc" -v mw="$mw" -v t="$THREADS" 'BEGIN {
    printf "%d battles, %d thread(s), best of the rounds:\n", n, t
    printf "  battle (first a, first b)   %6.2f s processor %6.1f battles/s; %6.2f s clock %6.1f battles/s\n", bc, n / bc, bw, n / bw
    printf "  matrix --lists (4 legs)     %6.2f s processor %6.1f battles/s; %6.2f s clock %6.1f battles/s\n", mc, n / mc, mw, n / mw
    printf "  ratio matrix / battle       %6.3f (processor)                   %6.3f (clock)\n", bc / mc, bw / mw
}'
