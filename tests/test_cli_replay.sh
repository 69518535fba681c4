#!/bin/sh
# test_cli_replay.sh: `oddsmaster replay` (TAP output for meson): a battle of
# a result file told turn by turn, its verdict and victory points those of
# the file's row (read independently with h5dump), the typical battle chosen
# the same way twice, the battlefield drawn as a PNG, and bad input refused
# with its documented exit code and a clear message: a battle out of range, a
# file that is not a battle's, a file without rows, a row edited since the
# run (placed by h5edit), a file that is not a result file, bad options;
# and the manual's example, line by line.
# Usage: test_cli_replay.sh PATH/TO/oddsmaster PATH/TO/h5edit SOURCE_ROOT
set -u
OM=$1
H5EDIT=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_replay

cat >"$TMP/battle.yaml" <<'YAML'
schema: oddsmaster-scenario/1
kind: battle
a: {list: revolution-empire-steel-and-shot}
b: {list: revolution-orcs-horde}
length: fixed
turns: 3
YAML
"$OM" run "$TMP/battle.yaml" -n 60 --seed 5 -q -t 2 -o "$TMP/b.h5" >/dev/null 2>&1

# The value of dataset DATASET at row K of FILE, as h5dump reads it.
row() {
    h5dump -d "$2" -s "$3" -c 1 "$1" 2>/dev/null | sed -n "s/^ *($3): \([0-9]*\)$/\1/p" | head -n 1
}

for k in 0 17 59; do
    expect_exit 0 "replay of battle $k" "$OM" replay "$TMP/b.h5" --battle "$k"
    expect_grep "b.h5: battle $k of 60" "$TMP/out" "battle $k: the heading names it"
    vp_a=$(row "$TMP/b.h5" /trials/vp_a "$k")
    vp_b=$(row "$TMP/b.h5" /trials/vp_b "$k")
    turns=$(row "$TMP/b.h5" /trials/turns "$k")
    expect_grep "after $turns turns" "$TMP/out" "battle $k: the turns of the file's row ($turns)"
    expect_grep "Victory points A $vp_a, B $vp_b." "$TMP/out" \
        "battle $k: the victory points of the file's row ($vp_a, $vp_b)"
done
expect_match "^  order 1 from .* needs [0-9]* or less, rolled [1-6]+[1-6]=[0-9]*: " "$TMP/out" \
    "orders are told with the score needed and the dice"
expect_match "^Turn 1, side [AB] " "$TMP/out" "each turn has its heading"

expect_exit 0 "replay of the typical battle" "$OM" replay "$TMP/b.h5" --typical
cp "$TMP/out" "$TMP/typical1"
"$OM" replay "$TMP/b.h5" --typical >"$TMP/typical2" 2>/dev/null
if cmp -s "$TMP/typical1" "$TMP/typical2"; then ok "the typical battle is the same battle twice"; else
    not_ok "the typical battle is the same battle twice"; fi
expect_grep "(the typical one: its victory-point margin is the median)" "$TMP/typical1" \
    "the heading says how the typical battle was chosen"

expect_exit 0 "a chart of the table as deployed" "$OM" replay "$TMP/b.h5" --battle 3 --chart "$TMP/t.png"
if [ "$(head -c 8 "$TMP/t.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    ok "the chart is a PNG"; else not_ok "the chart is a PNG" "$(head -c 16 "$TMP/t.png" | od -c)"; fi
expect_exit 0 "a chart of the table at the end of turn 2, as SVG" \
    "$OM" replay "$TMP/b.h5" --battle 3 --chart "$TMP/t.svg" --turn 2
expect_grep "Battle 3, at the end of turn 2" "$TMP/t.svg" "the chart's title names the battle and turn"
expect_grep "Handgunners" "$TMP/t.svg" "the chart names the units"

expect_exit 2 "a battle out of range" "$OM" replay "$TMP/b.h5" --battle 60
expect_grep "there is no battle 60: the file holds 60 (0 to 59)" "$TMP/err" "...names the range"
expect_exit 1 "neither --battle nor --typical" "$OM" replay "$TMP/b.h5"
expect_exit 1 "both --battle and --typical" "$OM" replay "$TMP/b.h5" --battle 1 --typical
expect_exit 1 "--turn without --chart" "$OM" replay "$TMP/b.h5" --battle 1 --turn 2
expect_exit 1 "a chart of an unknown format" "$OM" replay "$TMP/b.h5" --battle 1 --chart "$TMP/t.gif"
expect_absent "$TMP/t.gif" "...and no chart"

"$OM" run -n 100 -q -o "$TMP/combat.h5" >/dev/null 2>&1
expect_exit 2 "a file that is not a battle's" "$OM" replay "$TMP/combat.h5" --battle 1
expect_grep "only a battle's trials are told" "$TMP/err" "...says only battles are told"
"$OM" run "$TMP/battle.yaml" -n 20 -q --no-rows -o "$TMP/norows.h5" >/dev/null 2>&1
expect_exit 2 "a file without rows" "$OM" replay "$TMP/norows.h5" --typical
expect_grep "keeps no per-trial rows" "$TMP/err" "...says it keeps no rows"

cp "$TMP/b.h5" "$TMP/edited.h5"
turns=$(row "$TMP/b.h5" /trials/turns 4)
"$H5EDIT" rewrite "$TMP/edited.h5" /trials/turns 4 $((turns + 1)) >/dev/null
expect_exit 3 "a row edited since the run" "$OM" replay "$TMP/edited.h5" --battle 4 --chart "$TMP/e.png"
expect_grep "trial 4 replays with turns = $turns, the file has $((turns + 1))" "$TMP/err" \
    "...names the field and both values"
expect_absent "$TMP/e.png" "...and draws no chart"
if [ -s "$TMP/out" ]; then not_ok "...and tells no story" "$(head -c 200 "$TMP/out")"; else
    ok "...and tells no story"; fi
cp "$TMP/b.h5" "$TMP/flipped.h5"
"$H5EDIT" chunk "$TMP/flipped.h5" /trials/vp_a 0 flip data 4 >/dev/null
expect_exit 3 "a damaged chunk of the margin's field" "$OM" replay "$TMP/flipped.h5" --typical
expect_grep "/trials/vp_a, rows 0.." "$TMP/err" "...names the dataset and the rows"
printf 'not a result file\n' >"$TMP/junk.h5"
expect_exit 3 "a file that is not HDF5" "$OM" replay "$TMP/junk.h5" --battle 0
expect_exit 3 "a missing file" "$OM" replay "$TMP/missing.h5" --battle 0

# The manual's example ("Why one battle went as it did"): every line it
# shows of the typical battle is a line of the real story.
cat >"$TMP/example.yaml" <<'YAML'
schema: oddsmaster-scenario/1
kind: battle
a: {list: revolution-empire-steel-and-shot}
b: {list: revolution-orcs-horde}
YAML
"$OM" run "$TMP/example.yaml" --trials 1000 --seed 1 -q -t 2 -o "$TMP/battle.h5" >/dev/null 2>&1
(cd "$TMP" && "$OM" replay battle.h5 --typical >"$TMP/story" 2>/dev/null)
if python3 - "$ROOT/docs/manual.md" "$TMP/story" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index("$ oddsmaster replay battle.h5 --typical")
shown = s[i:s.index("```", i)].splitlines()[1:]
told = open(sys.argv[2]).read().splitlines()
missing = [l for l in shown if l.strip() not in ("...", "") and l not in told]
for l in missing:
    print("# not told: " + l)
sys.exit(1 if missing or not shown else 0)
PY
then ok "the manual's replay example is the real story"; else not_ok "the manual's replay example is the real story"; fi

tap_end
