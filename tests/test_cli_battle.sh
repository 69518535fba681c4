#!/bin/sh
# test_cli_battle.sh: battles (scenario files of kind battle) through the
# command line (TAP output for meson): two example lists fought with `run`,
# the battle's fields and each unit's in the file and the summary, the same
# seed giving the same tallies on 1 and 2 threads, its odds chart and the
# flags chart of the units' destruction, and each bad battle file refused with exit 2 (3 for a list
# file that cannot be read), its FILE:LINE: field 'PATH' message and no file.
# Usage: test_cli_battle.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_battle

cat >"$TMP/battle.yaml" <<'YAML'
schema: oddsmaster-scenario/1
kind: battle
a: {list: revolution-empire-steel-and-shot}
b: {list: revolution-orcs-horde, doctrine: aggressive}
length: fixed
turns: 3
YAML
expect_exit 0 "run of a battle" "$OM" run "$TMP/battle.yaml" -n 300 --seed 7 -q -o "$TMP/b1.h5" --threads 1
expect_grep "Outcome of the battle" "$TMP/out" "the summary's outcome table"
expect_grep "Per unit" "$TMP/out" "the summary's per-unit section"
expect_grep "a_steam-tank" "$TMP/out" "each unit named by its list id and side"
expect_exit 0 "the same battle on 2 threads" "$OM" run "$TMP/battle.yaml" -n 300 --seed 7 -q -o "$TMP/b2.h5" --threads 2
expect_exit 0 "summary of both as JSON" "$OM" summary "$TMP/b1.h5" --format json
cp "$TMP/out" "$TMP/s1.json"
"$OM" summary "$TMP/b2.h5" --format json >"$TMP/s2.json" 2>/dev/null
if python3 - "$TMP/s1.json" "$TMP/s2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("file", "threads", "program"):
        d.pop(k, None)
sys.exit(0 if a.get("fields") == b.get("fields") and a.get("per_unit") == b.get("per_unit") else 1)
PY
then ok "the same seed gives the same tallies on 1 and 2 threads"; else not_ok "the same seed gives the same tallies on 1 and 2 threads"; fi
json_ok "a fixed length of 3: every battle of 3 turns or fewer" \
    'all(int(k) <= 3 for k, v in d["fields"]["turns"]["distribution"].items() if v > 0) and d["fields"]["turns"]["max"] <= 3'
json_ok "per-unit fields stands_lost and destroyed" 'list(d["per_unit"]["fields"]) == ["stands_lost", "destroyed"]'
expect_exit 0 "a battle's default chart" "$OM" chart "$TMP/b1.h5" -o "$TMP/b1.png"
expect_match "^file,series,outcome" "$TMP/b1.png.csv" "...is its odds"
expect_exit 0 "a flags chart of the units' destruction" "$OM" chart "$TMP/b1.h5" --kind flags --field destroyed -o "$TMP/f.png"
expect_match "^destroyed@a_steam-tank," "$TMP/f.png.csv" "...a bar a unit, named FIELD@UNIT"

bad() {
    printf 'schema: oddsmaster-scenario/1\nkind: battle\n%s\n' "$2" >"$TMP/bad.yaml"
    expect_exit "$1" "bad battle: $3" "$OM" run "$TMP/bad.yaml" -n 10 -q -o "$TMP/bad.h5"
    expect_grep "$4" "$TMP/err" "bad battle: $3: the message"
    expect_absent "$TMP/bad.h5" "bad battle: $3: no file"
}
bad 2 "a: {list: revolution-empire-steel-and-shoot}
b: {list: revolution-orcs-horde}" "an unknown example list" \
    "bad.yaml:3: field 'a.list': no example list 'revolution-empire-steel-and-shoot'; did you mean 'revolution-empire-steel-and-shot'"
bad 2 "a: {list: revolution-orcs-horde, doctrine: agressive}
b: {list: revolution-orcs-horde}" "an unknown doctrine" "did you mean 'aggressive'?"
bad 2 "a: {list: 1.1-orcs-waaagh}
b: {list: revolution-orcs-horde}" "lists of two rule sets" "a battle is fought under one rule set"
bad 3 "a: {list: nothere.yaml}
b: {list: revolution-orcs-horde}" "a list file that is not there" "field 'a.list': cannot read the list file"
bad 2 "a: {list: revolution-orcs-horde}
b: {list: revolution-orcs-horde}
length: fixed" "a fixed length without turns" "a fixed length needs \`turns\`"
bad 2 "a: {list: revolution-orcs-horde}
b: {list: revolution-orcs-horde}
length: d6-6-7-9" "an unknown length" "did you mean 'd6-6-7-8'?"
bad 2 "a: {list: revolution-orcs-horde}
b: {list: revolution-orcs-horde}
first: c" "an unknown first side" "expected one of: roll, a, b"
bad 2 "a: {list: revolution-orcs-horde, army: x}
b: {list: revolution-orcs-horde}" "an unknown key" "unknown key 'army'"
bad 2 "a: {list: $DATA/lists/warmaster/bad/over-points.yaml}
b: {list: revolution-orcs-horde}" "a list that breaks its rules" "over-points.yaml:"

tap_end
