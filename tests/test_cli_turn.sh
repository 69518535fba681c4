#!/bin/sh
# test_cli_turn.sh: whole turns (`kind: turn`) through the command line, end
# to end (TAP output for meson).
# Usage: test_cli_turn.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
# Checks that the odds the README and the manual quote for the turn examples
# are what `run` prints (1,000,000 trials, seed 1, so the documents cannot
# drift); an exactly
# computable Command phase through `run` and `summary --format json` (5
# standard errors); the result file's per-unit datasets, its two-byte victory
# points and its recorded options; and that bad input (contradictory
# positions, a character that cannot reach its unit, a brigade that does not
# touch, unknown ids, keys the table decides) is an error naming the file,
# line and field, exit 2, no output file.
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_turn

# --- the turn examples: every line the documents quote is what run prints ---
# Each example is quoted by README.md or docs/manual.md (quoting_docs); the
# lines are those of the first code block after the document names the file,
# less the block's indentation (a block in a list item is indented).
for f in "$ROOT"/scenarios/examples/turns/*.yaml; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    "$OM" run "$f" -o "$TMP/readme.h5" >"$TMP/run" 2>"$TMP/err"
    quoting_docs "turns/$name" >"$TMP/docs"
    if [ ! -s "$TMP/docs" ]; then
        not_ok "the odds of $name are quoted" "neither README.md nor docs/manual.md names examples/turns/$name"
        continue
    fi
    while IFS= read -r doc; do
        rel=${doc#"$ROOT"/}
        awk -v name="examples/turns/$name" '
            index($0, name) { found = 1 }
            found && /^ *```/ { if (inside) exit; inside = 1; indent = index($0, "`") - 1; next }
            found && inside { print substr($0, indent + 1) }' "$doc" >"$TMP/quoted"
        if [ ! -s "$TMP/quoted" ]; then
            not_ok "$rel quotes the odds of $name" "no code block after examples/turns/$name"
            continue
        fi
        missing=""
        while IFS= read -r line; do
            grep -qF -- "$line" "$TMP/run" || missing="$missing|$line"
        done <"$TMP/quoted"
        if [ -z "$missing" ]; then ok "$rel quotes the odds of $name"; else
            not_ok "$rel quotes the odds of $name" "not printed: $missing"; fi
    done <"$TMP/docs"
done

# --- an exact Command phase through run: P(the General's chain reaches order k) ---
expect_exit 0 "run the exact chain" "$OM" run "$DATA/turns/chain.yaml" --trials 200000 --seed 3 -q -o "$TMP/chain.h5"
expect_exit 0 "summary of the chain as JSON" "$OM" summary "$TMP/chain.h5" --format json
json_ok "P(chain reaches order k) = products of P(2D6 <= 9, 7, 5, 9, 9), 5 se" '
all(abs(d["fields"]["general_orders"]["at_least"].get(str(k), {"p": 0})["p"] - p) <= 5 * math.sqrt(p * (1 - p) / d["trials"])
    for k, p in ((k, math.prod((30/36, 21/36, 10/36, 30/36, 30/36)[:k])) for k in range(1, 6)))'
json_ok "the unit ordered first took 1 to 3 orders" 'd["per_unit"]["fields"]["orders"]["units"]["a"]["max"] == 3 and abs(d["per_unit"]["fields"]["ordered"]["units"]["a"]["p"]["p"] - 30/36) <= 5 * math.sqrt(30/36 * 6/36 / d["trials"])'

# --- the result file of a turn ---
f="$ROOT/scenarios/examples/turns/cavalry-wing.yaml"
expect_exit 0 "run a turn example" "$OM" run "$f" --trials 20000 --seed 2 -q -o "$TMP/turn.h5"
expect_exit 0 "summary json of a turn" "$OM" summary "$TMP/turn.h5" --format json
json_ok "the turn's own fields, no field per unit" 'sorted(d["fields"]) == sorted(["general_orders", "vp_lost_a", "vp_lost_b", "engagements", "unresolved"])'
json_ok "per-unit results: every unit field for every unit of the table" '[u["id"] for u in d["per_unit"]["units"]] == ["knights", "pistoliers", "orc_warriors", "orc_reserve", "wolf_riders"] and list(d["per_unit"]["fields"]) == ["ordered", "orders", "moved", "charged", "shot_at", "engaged", "still_engaged", "stands_lost", "confused", "routed", "destroyed"] and all(sorted(f["units"]) == sorted(u["id"] for u in d["per_unit"]["units"]) for f in d["per_unit"]["fields"].values())'
json_ok "the other side's units never charge; units as the table says" 'd["per_unit"]["fields"]["charged"]["units"]["orc_warriors"]["p"]["p"] == 0 and d["per_unit"]["fields"]["charged"]["units"]["knights"]["p"]["p"] > 0.3 and d["per_unit"]["units"][2] == {"id": "orc_warriors", "name": "Orc Warriors", "army": "Orcs", "side": "b", "points": 60} and d["per_unit"]["fields"]["stands_lost"]["max"] >= 3'
if h5dump -H -d /units/charged "$TMP/turn.h5" 2>/dev/null | grep -q "( 20000, 5 )"; then
    ok "a unit field is a trials x units dataset"; else not_ok "a unit field is a trials x units dataset"; fi
"$OM" summary "$TMP/turn.h5" --format csv >"$TMP/turn.csv" 2>"$TMP/err"
expect_grep "charged[knights],1," "$TMP/turn.csv" "CSV: a row per unit field, unit and value"
json_ok "kind turn, no winner, the armies as the sides" 'd["kind"] == "turn" and d["outcome"] is None and d["units"]["a"]["name"] == "Empire" and d["units"]["a"]["points"] == 205'
json_ok "victory points at the values that occurred" 'set(d["fields"]["vp_lost_b"]["distribution"]) <= {"0", "30", "60"} and d["fields"]["vp_lost_a"]["type"] == "count"'
if h5dump -H -d /trials/vp_lost_a "$TMP/turn.h5" 2>/dev/null | grep -q "H5T_STD_U16LE"; then
    ok "victory points are a 16-bit dataset"; else not_ok "victory points are a 16-bit dataset"; fi
h5dump -a /options_json -w 0 "$TMP/turn.h5" | sed -n 's/^ *(0): "\(.*\)"$/\1/p' >"$TMP/out"
json_ok "options_json: the turn resolved, every option and fixed reading" 'd["kind"] == "turn" and [u["id"] for u in d["units"]] == ["knights", "pistoliers", "orc_warriors", "orc_reserve", "wolf_riders"] and d["units"][0]["plan"]["kind"] == "charge" and d["units"][0]["plan"]["target"] == "orc_warriors" and d["units"][0]["side"]["unit"]["name"] == "Knights" and "general_blunders" in d["options"] and d["options"]["drive_back_driver"].startswith("fixed") and "max_turns" in d["options"]'
expect_exit 0 "summary of a turn from its rows" "$OM" summary "$TMP/turn.h5" --from-rows
cp "$TMP/out" "$TMP/rows.txt"
"$OM" summary "$TMP/turn.h5" >"$TMP/tallies.txt" 2>/dev/null
if cmp -s "$TMP/rows.txt" "$TMP/tallies.txt"; then ok "the rows say what the tallies say"; else
    not_ok "the rows say what the tallies say"; fi
expect_exit 2 "a distribution chart of a unit field is refused" "$OM" chart "$TMP/turn.h5" --kind dist --field charged -o "$TMP/charged.png"
expect_grep "'charged' is a field of each unit (one value per unit and trial): draw a yes/no one with --kind flags" "$TMP/err" "a chart of a unit field: the message says why and how to draw it"
expect_absent "$TMP/charged.png" "a refused chart of a unit field writes no file"
expect_exit 2 "a target precision on the victory points" "$OM" run "$f" --halfwidth 0.01 --target vp_lost_a -q -o "$TMP/precision.h5"
expect_grep "--target 'vp_lost_a' is a two-byte count" "$TMP/err" "the victory points are no target: the message says why"
expect_absent "$TMP/precision.h5" "a refused target writes no file"
expect_exit 0 "a target precision on a unit's flag" "$OM" run "$f" --halfwidth 0.01 --target charged@knights --trials 2000000 -q -o "$TMP/precision.h5"
expect_exit 2 "a unit field as target without its unit" "$OM" run "$f" --halfwidth 0.01 --target charged -q -o "$TMP/precision2.h5"
expect_grep "name the unit as FIELD@UNIT (charged@knights)" "$TMP/err" "a unit field without its unit: the message says what to write"
expect_exit 0 "list --options" "$OM" list --options
expect_grep "drive_back_driver  (-; Warmaster Revolution, Shooting > Driving Back Enemies)  fixed" "$TMP/out" "list --options: a turn's fixed reading"
expect_grep "general_blunders  (A1; Warmaster Revolution, Generals, Wizards & Heroes > Blunders)  switch" "$TMP/out" "list --options: a Command switch"

# --- bad input: FILE:LINE: field 'PATH': REASON, exit 2, no file ---
base() {
    cat <<'EOF'
schema: oddsmaster-scenario/1
ruleset: warmaster-revolution
kind: turn
a:
  units:
    - id: knights
      unit: {from: empire/knights}
      at: [80, 20]
      plan: {kind: charge, target: orc_warriors, by: hero}
  characters:
    - id: hero
      from: empire/hero
      at: [80, 12]
b:
  units:
    - id: orc_warriors
      unit: {from: orcs/orc-warriors}
      at: [80, 50]
EOF
}
base >"$TMP/base.yaml"
expect_exit 0 "the base of the bad inputs runs" "$OM" run "$TMP/base.yaml" --trials 2000 -q -o "$TMP/base.h5"

# bad NAME DESCRIPTION EXPECTED_MESSAGE SED_EXPRESSION
bad() {
    base | sed "$4" >"$TMP/$1.yaml"
    expect_exit 2 "$2" "$OM" run "$TMP/$1.yaml" --trials 2000 -q -o "$TMP/$1.h5"
    expect_grep "$1.yaml:$3" "$TMP/err" "$2: the file, line and field"
    expect_absent "$TMP/$1.h5" "$2: no output file"
}
bad overlap "positions that contradict each other" "18: field 'b.units[0].at': Orc Warriors overlaps knights (Knights)" 's/at: \[80, 50\]/at: [81, 21]/'
bad offtable "a unit off the table" "8: field 'a.units[0].at'" 's/at: \[80, 20\]/at: [179, 20]/'
bad reach "a character that cannot reach the unit it orders" "9: field 'a.units[0].plan.by': the Hero (hero, Hero) is 78.0cm from knights (Knights), beyond the 60cm" 's/at: \[80, 12\]/at: [80, 100]/'
bad target "an unknown unit in a plan" "9: field 'a.units[0].plan.target': unknown unit 'orc_warrior'; did you mean 'orc_warriors'?" 's/target: orc_warriors/target: orc_warrior/'
bad by "an unknown character in a plan" "9: field 'a.units[0].plan.by': unknown character 'heroe'; did you mean 'hero'?" 's/by: hero/by: heroe/'
bad foe_by "a character of the other side" "9: field 'a.units[0].plan.by'" 's/by: hero/by: orc_boss/; $a\  characters:\n    - {id: orc_boss, from: orcs/orc-hero, at: [80, 60]}'
bad charging "a key the table decides" "9: field 'a.units[0].charging': 'charging' is decided by the table" 's/      at: \[80, 20\]/      at: [80, 20]\n      charging: true/'
bad dup "an id given twice" "16: field 'b.units[0].id': unit id 'knights' is given twice" 's/id: orc_warriors/id: knights/'
bad badid "an id that is not one" "6: field 'a.units[0].id': 'Knights!' is not an id" 's/id: knights/id: "Knights!"/'
bad option "an unknown option" "4: field 'options.general_blunder': unknown option 'general_blunder'; did you mean 'general_blunders'?" 's/^a:$/options: {general_blunder: true}\na:/'
bad fixed "a fixed reading of the turn given as an option" "4: field 'options.drive_back_driver': 'drive_back_driver' is a fixed reading" 's/^a:$/options: {drive_back_driver: true}\na:/'
bad optkey "a Command phase option outside options:" "4: field 'general_blunders': unknown key 'general_blunders'; it is an option: put it under the top-level 'options:'" 's/^a:$/general_blunders: true\na:/'
bad at "a unit without a place" "6: field 'a.units[0].at': required key 'at' is missing" '/at: \[80, 20\]/d'
cat >"$TMP/brigade.yaml" <<'EOF'
schema: oddsmaster-scenario/1
ruleset: warmaster-revolution
kind: turn
a:
  units:
    - id: knights
      unit: {from: empire/knights}
      at: [80, 20]
    - id: riders
      unit: {from: empire/knights}
      at: [100, 20]
  brigades:
    - units: [knights, riders]
b:
  units:
    - id: orc_warriors
      unit: {from: orcs/orc-warriors}
      at: [80, 50]
EOF
expect_exit 2 "a brigade of units that do not touch" "$OM" run "$TMP/brigade.yaml" -q -o "$TMP/brigade.h5"
expect_grep "brigade.yaml:13: field 'a.brigades[0].units': riders (Knights) does not touch the rest of the brigade" "$TMP/err" "a brigade that does not touch: the file, line and field"
expect_absent "$TMP/brigade.h5" "a brigade that does not touch: no output file"
{
    printf 'schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\nkind: turn\na:\n  units:\n'
    for i in $(seq 65); do
        printf '    - {id: u%s, unit: {from: empire/halberdiers}, at: [%s, 20]}\n' "$i" $((i * 15))
    done
    printf 'b:\n  units:\n    - {id: e, unit: {from: orcs/orc-warriors}, at: [80, 90]}\n'
} >"$TMP/many.yaml"
expect_exit 2 "more than 64 units a side" "$OM" run "$TMP/many.yaml" -q -o "$TMP/many.h5"
expect_grep "many.yaml:5: field 'a.units': 1 to 64 units a side (got 65)" "$TMP/err" "more than 64 units: the file, line and field"
expect_exit 0 "a table at full capacity: its 128 units' results in one file" "$OM" run "$DATA/turns/capacity.yaml" --trials 20000 -q -o "$TMP/capacity.h5"
if h5dump -H -d /units/stands_lost "$TMP/capacity.h5" 2>/dev/null | grep -q "( 20000, 128 )"; then
    ok "a table at full capacity: a column per unit"; else not_ok "a table at full capacity: a column per unit"; fi
expect_exit 0 "a table at full capacity: its rows counted again" "$OM" summary "$TMP/capacity.h5" --from-rows

tap_end
