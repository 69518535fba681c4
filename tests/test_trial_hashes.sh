#!/bin/sh
# test_trial_hashes.sh: behaviour is unchanged by refactoring (TAP output for meson).
# Usage: test_trial_hashes.sh PATH/TO/oddsmaster SOURCE_ROOT [--record]
#
# Runs the embedded default and every example scenario, the whole turns of
# scenarios/examples/turns/ included (seed 1, 100,000 trials)
# and a two-situation Warmaster Revolution Empire x Orcs matrix, then compares
# the SHA-256 of every per-trial dataset (raw values as h5dump -b writes them,
# whatever the file's compression) and of every matrix cell dataset with the
# table tests/data/trial_hashes.tsv; a file with per-unit results has each
# unit's column of each /units dataset hashed on its own, as
# /units/FIELD[UNIT] (so a turn's unit field keeps the hash it had as the
# per-trial dataset /trials/UNIT_FIELD before the fields of its units moved to
# /units). A change of a hash is a change of what the
# program computes: a refactor must leave every line as it is; a deliberate
# change of the rules updates the table in the same commit, saying why.
# With --record, prints the table instead (tab-separated: case, dataset, sha256).
set -u
OM=$1
ROOT=$2
MODE=${3:-check}
TABLE="$ROOT/tests/data/trial_hashes.tsv"
TRIALS=100000
BATTLES=256
TMP=$(mktemp -d "${TMPDIR:-/tmp}/om_hashes_XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# hash_file CASE FILE GROUP: one line per dataset of GROUP, sorted by name.
hash_file() {
    h5ls "$2/$3" | awk '$2 == "Dataset" {print $1}' | sort | while read -r ds; do
        rm -f "$TMP/ds.bin"
        h5dump -b NATIVE -d "$3/$ds" -o "$TMP/ds.bin" "$2" >/dev/null 2>&1
        printf '%s\t%s/%s\t%s\n' "$1" "$3" "$ds" "$(sha256sum <"$TMP/ds.bin" | cut -d' ' -f1)"
    done
}

# hash_units CASE FILE: one line per unit field and unit of /units (none for
# a file without it), the unit fields sorted by name, the units in the
# file's order: the column of the unit, as h5dump -b writes it.
hash_units() {
    h5ls "$2/units" >/dev/null 2>&1 || return 0
    ids=$(h5dump -a /units/units "$2" | sed -n 's/^ *(0): "\(.*\)"$/\1/p')
    h5ls "$2/units" | awk '$2 == "Dataset" && $1 != "table" {print $1}' | sort |
        while read -r ds; do
            u=0
            for id in $ids; do
                rm -f "$TMP/ds.bin"
                h5dump -b NATIVE -d "/units/$ds" -s "0,$u" -c "$TRIALS,1" -o "$TMP/ds.bin" "$2" \
                    >/dev/null 2>&1
                printf '%s\t/units/%s[%s]\t%s\n' "$1" "$ds" "$id" \
                    "$(sha256sum <"$TMP/ds.bin" | cut -d' ' -f1)"
                u=$((u + 1))
            done
        done
}

{
    "$OM" run --trials $TRIALS --seed 1 --quiet -o "$TMP/default.h5" >/dev/null &&
        hash_file default "$TMP/default.h5" /trials
    for f in "$ROOT"/scenarios/examples/*.yaml; do
        name=$(basename "$f" .yaml)
        "$OM" run "$f" --trials $TRIALS --seed 1 --quiet -o "$TMP/$name.h5" >/dev/null &&
            hash_file "$name" "$TMP/$name.h5" /trials
    done
    for f in "$ROOT"/scenarios/examples/turns/*.yaml; do
        name=turn-$(basename "$f" .yaml)
        "$OM" run "$f" --trials $TRIALS --seed 1 --quiet -o "$TMP/$name.h5" >/dev/null &&
            hash_file "$name" "$TMP/$name.h5" /trials && hash_units "$name" "$TMP/$name.h5"
    done
    # Whole battles of the example lists, one pairing of each rule set: the
    # battles' own fields and the per-unit datasets whole.
    for pair in "revolution-empire-steel-and-shot revolution-orcs-horde" \
        "1.1-empire-battle-line 1.1-orcs-waaagh" "ancients-greek ancients-republican-roman"; do
        set -- $pair
        name=battle-$1
        "$OM" battle "$1" "$2" --battles $BATTLES --seed 1 -q -t 2 -o "$TMP/$name.h5" \
            >/dev/null && hash_file "$name" "$TMP/$name.h5" /trials &&
            hash_file "$name" "$TMP/$name.h5" /units
    done
    "$OM" matrix warmaster-revolution empire orcs --situation a-charges \
        --situation b-charges --trials 5000 --seed 1 --quiet -o "$TMP/matrix.h5" >/dev/null &&
        hash_file matrix-rev-empire-orcs "$TMP/matrix.h5" /cells
} >"$TMP/now.tsv" 2>"$TMP/err"

if [ "$MODE" = "--record" ]; then
    cat "$TMP/now.tsv"
    exit 0
fi

n=0
failed=0
while IFS="$(printf '\t')" read -r case ds want; do
    n=$((n + 1))
    got=$(awk -F'\t' -v c="$case" -v d="$ds" '$1 == c && $2 == d {print $3}' "$TMP/now.tsv")
    if [ "$got" = "$want" ]; then
        echo "ok $n - $case $ds unchanged"
    else
        failed=$((failed + 1))
        echo "not ok $n - $case $ds: sha256 ${got:-missing}, recorded $want"
        [ -s "$TMP/err" ] && echo "# $(head -c 300 "$TMP/err")"
    fi
done <"$TABLE"
extra=$(cut -f1,2 "$TMP/now.tsv" | sort | comm -23 - "$(cut -f1,2 "$TABLE" | sort >"$TMP/t"; echo "$TMP/t")" | wc -l)
n=$((n + 1))
if [ "$extra" -eq 0 ]; then echo "ok $n - no dataset without a recorded hash"; else
    failed=$((failed + 1)); echo "not ok $n - $extra datasets have no recorded hash"; fi
echo "1..$n"
[ "$failed" -eq 0 ]
