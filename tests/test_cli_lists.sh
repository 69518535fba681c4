#!/bin/sh
# test_cli_lists.sh: army list files through the command line (TAP output for
# meson): `oddsmaster list FILE.yaml` checks and shows every example list of
# scenarios/lists/warmaster/ (text, JSON and standard input), keeps the other
# uses of `list`, and refuses each bad list of tests/data/lists/ with exit 2
# and the message its first line expects (FILE:LINE: field 'PATH': REASON):
# an unknown unit with did-you-mean, points over the limit, min/max broken, two
# Generals, an item twice, malformed YAML, a wrong schema and the rest.
# Usage: test_cli_lists.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_lists

# --- every example list is within its rules and shows its points ---
count=0
for f in "$ROOT"/scenarios/lists/warmaster/*.yaml; do
    name=$(basename "$f")
    count=$((count + 1))
    expect_exit 0 "list $name" "$OM" list "$f"
    expect_match '^Total: [0-9]* points of 2000 ' "$TMP/out" "$name: its total against 2,000"
    expect_grep "Units" "$TMP/out" "$name: its units"
done
if [ "$count" -ge 10 ]; then ok "ten example lists or more ($count)"; else not_ok "only $count example lists"; fi

f="$ROOT/scenarios/lists/warmaster/revolution-orcs-riders.yaml"
expect_exit 0 "list FILE --format json" "$OM" list "$f" --format json
json_ok "the JSON's units add up to the heading's points" \
    'sum(u["points"] for u in d["units"]) + sum(c["points"] for c in d["characters"]) == 1985 and d["schema"] == "oddsmaster-list/1" and d["units"][0]["unit"] == "orc-warriors" and d["units"][0]["count"] == 4'
"$OM" list - <"$f" >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q "Boar and wolf: Orcs" "$TMP/out"; then ok "list - reads a list from standard input"; else
    not_ok "list - reads a list from standard input" "$(head -c 300 "$TMP/err")"; fi

# --- the other uses of list are kept ---
expect_exit 0 "list RULESET/ARMY still lists an army" "$OM" list warmaster-revolution/empire
expect_grep "halberdiers" "$TMP/out" "list RULESET/ARMY shows its units"
expect_exit 0 "list --keys" "$OM" list --keys
expect_grep "Army list file keys of Warmaster" "$TMP/out" "list --keys shows the keys of army list files"
expect_grep "magic_item" "$TMP/out" "list --keys names magic_item"
expect_exit 0 "list --keys as json" "$OM" list --keys --format json
json_ok "list --keys json: Warmaster's list_keys by level" \
    '{(k["where"], k["name"]) for k in d["games"][0]["list_keys"]} >= {("list", "points"), ("list unit", "count"), ("list character", "mount"), ("list character", "magic_item")} and "list_keys" not in d["games"][1]'
expect_exit 1 "--rules with a list file is a usage error" "$OM" list --rules "$f"
expect_exit 3 "a list file that does not exist (exit 3)" "$OM" list "$TMP/none.yaml"
expect_grep "none.yaml" "$TMP/err" "the missing file is named"

# --- bad lists: exit 2, the expected message, nothing on standard output ---
bad=0
for f in "$DATA"/lists/warmaster/bad/*.yaml; do
    bad=$((bad + 1))
    name=$(basename "$f")
    expected=$(head -n 1 "$f" | sed "s/^# expect: //")
    expect_exit 2 "bad list $name" "$OM" list "$f"
    expect_grep "oddsmaster list: error: $f:$expected" "$TMP/err" "$name: its message"
    if [ -s "$TMP/out" ]; then not_ok "$name: nothing on standard output" "$(head -c 200 "$TMP/out")"; else
        ok "$name: nothing on standard output"; fi
done
if [ "$bad" -ge 20 ]; then ok "twenty bad lists or more ($bad)"; else not_ok "only $bad bad lists"; fi

# The cases the command line must name, each with what it says.
B="$DATA/lists/warmaster/bad"
expect_exit 2 "an unknown unit" "$OM" list "$B/unknown-unit.yaml"
expect_grep "did you mean 'goblins'?" "$TMP/err" "an unknown unit gets did-you-mean"
expect_exit 2 "points over the limit" "$OM" list "$B/over-points.yaml"
expect_grep "field 'points': the units and characters cost 2055 points, 55 over the limit of 2000" "$TMP/err" "over points names the total"
expect_exit 2 "a maximum broken" "$OM" list "$B/max-broken.yaml"
expect_grep "3 Black Orcs: more than Orcs allows" "$TMP/err" "a maximum broken names the unit"
expect_exit 2 "a minimum broken" "$OM" list "$B/min-broken.yaml"
expect_grep "3 Goblins: fewer than Orcs needs" "$TMP/err" "a minimum broken names the unit"
expect_exit 2 "two Generals" "$OM" list "$B/two-generals.yaml"
expect_grep "2 Orc General: more than Orcs allows (exactly 1 in any army" "$TMP/err" "two Generals are named"
expect_exit 2 "an item twice" "$OM" list "$B/item-twice.yaml"
expect_grep "a specific item may only appear in an army once" "$TMP/err" "an item twice cites the rule"
expect_exit 2 "malformed YAML" "$OM" list "$B/malformed.yaml"
expect_grep "invalid YAML" "$TMP/err" "malformed YAML is named"
expect_exit 2 "a wrong schema" "$OM" list "$B/wrong-schema.yaml"
expect_grep "this version reads 'oddsmaster-wm-list/1'" "$TMP/err" "a wrong schema names the right one"

tap_end
