#!/bin/sh
# test_cli_whfb7.sh: Warhammer Fantasy Battles 7th edition through the command
# line, end to end (TAP output for meson).
# Usage: test_cli_whfb7.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
# Checks that the odds the README and the manual quote for the WHFB7 examples are what
# `oddsmaster run` prints (1,000,000 trials, seed 1), that bad scenarios exit 2
# with a message naming the file, the line and the field and leave no output
# file (tests/data/whfb7/bad/*.yaml: each file's first line says what to
# expect), `oddsmaster list` of the game, of its options and of its scenario
# keys (a key it names loads, a near miss does not), the options and
# values recorded in a result file, and a matrix of the sample units through
# efficiency and a heat map.
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_whfb7

# --- the WHFB7 examples: the odds the documents quote are the program's ---
# (default trials and seed, so the numbers are exact; update the documents when
# the engine changes them). Each example is quoted by README.md or
# docs/manual.md (quoting_docs), every outcome table's A line.
for f in "$ROOT"/scenarios/examples/whfb7-*.yaml; do
    name=$(basename "$f")
    "$OM" run "$f" -o "$TMP/readme.h5" >"$TMP/out" 2>"$TMP/err"
    lines=$(grep -cE '^  A  ' "$TMP/out")
    grep -E '^  A  ' "$TMP/out" >"$TMP/lines"
    quoting_docs "$name" >"$TMP/docs"
    if [ ! -s "$TMP/docs" ]; then
        not_ok "the odds of $name are quoted" "neither README.md nor docs/manual.md names examples/$name"
        continue
    fi
    while IFS= read -r doc; do
        missing=0
        while IFS= read -r line; do
            grep -qF -- "$line" "$doc" || missing=$((missing + 1))
        done <"$TMP/lines"
        if [ "$lines" -gt 0 ] && [ "$missing" -eq 0 ]; then
            ok "${doc#"$ROOT"/} quotes the odds of $name ($lines tables)"
        else
            not_ok "${doc#"$ROOT"/} quotes the odds of $name" "output: $(cat "$TMP/lines")"
        fi
    done <"$TMP/docs"
done

# --- bad scenarios: exit 2, file, line and field named, no output left ---
for f in "$DATA"/whfb7/bad/*.yaml; do
    name=$(basename "$f")
    expect=$(sed -n '1s/^# expect: //p' "$f")
    line=${expect%% *}
    rest=${expect#* }
    field=${rest%% *}
    fragment=${rest#* }
    "$OM" run "$f" --trials 100 -o "$TMP/bad.h5" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq 2 ] && grep -qF -- "$name:$line: field '$field': " "$TMP/err" &&
        grep -qF -- "$fragment" "$TMP/err"; then
        ok "bad scenario $name: exit 2, $name:$line, field '$field'"
    else
        not_ok "bad scenario $name: exit $got, expected 2 with $name:$line field '$field' and '$fragment'" "$(head -c 400 "$TMP/err")"
    fi
    if [ -e "$TMP/bad.h5" ] || ls "$TMP"/bad.h5.* >/dev/null 2>&1; then
        not_ok "bad scenario $name leaves no output file"; rm -f "$TMP"/bad.h5*
    else ok "bad scenario $name leaves no output file"; fi
done

# --- oddsmaster list: the game, its tables, its options ---
expect_exit 0 "list names the games" "$OM" list
expect_grep "whfb7      Warhammer Fantasy Battles 7th edition" "$TMP/out" "list shows the WHFB7 game"
expect_exit 0 "list --format json" "$OM" list --format json
json_ok "list json: the games with their kinds" '[(g["name"], g["kinds"]) for g in d["games"] if g["name"] == "whfb7"] == [("whfb7", ["combat", "engagement", "volley", "magic"])]'
expect_exit 0 "list whfb7" "$OM" list whfb7
for kind in combat engagement volley magic; do
    expect_grep "  $kind " "$TMP/out" "list whfb7 shows the kind $kind"
done
expect_exit 0 "list whfb7/profiles as json" "$OM" list whfb7/profiles --format json
json_ok "list whfb7/profiles: the rulebook's 306 profiles" 'len(d["profiles"]) == 306 and [(p["M"], p["WS"], p["I"]) for p in d["profiles"] if p["id"] == "empire-swordsman"] == [("4", "4", "4")]'
expect_exit 0 "list one profile" "$OM" list whfb7/profiles/orcs-goblins-orc-boy
expect_grep "Use: profile: orcs-goblins-orc-boy" "$TMP/out" "list whfb7/profiles/ID shows how to use it"
expect_exit 2 "list an unknown profile" "$OM" list whfb7/profiles/empire-swordsmn
expect_grep "did you mean 'empire-swordsman'" "$TMP/err" "unknown profile: did you mean"
expect_exit 0 "list whfb7/weapons as json" "$OM" list whfb7/weapons -f json
json_ok "list whfb7/weapons: the weapon table" '[(w["strength"], w["two_handed"], w["strikes_last"]) for w in d["weapons"] if w["id"] == "great-weapon"] == [("+2", True, True)] and [w["mounted"] for w in d["weapons"] if w["id"] == "lance"] == [True]'
expect_exit 0 "list whfb7/missiles" "$OM" list whfb7/missiles
expect_grep "crossbow" "$TMP/out" "list whfb7/missiles shows the crossbow"
expect_exit 0 "list whfb7/machines" "$OM" list whfb7/machines
expect_grep "great-cannon" "$TMP/out" "list whfb7/machines shows the Great Cannon"
expect_exit 0 "list --rules whfb7" "$OM" list --rules whfb7 -f json
json_ok "list --rules whfb7: the engine's special rules" 'any(r["id"] == "killing-blow" for r in d["rules"]) and len(d["rules"]) >= 26'
expect_exit 0 "list whfb7/spells" "$OM" list whfb7/spells -f json
json_ok "list whfb7/spells: 48 spells, Fireball's casting value" 'len(d["spells"]) == 48 and [(s["lore"], s["casting_value"], s["kind"]) for s in d["spells"] if s["id"] == "fireball"] == [("fire", 5, "damage")]'
expect_exit 0 "list whfb7/units" "$OM" list whfb7/units -f json
json_ok "list whfb7/units: the sample units with points" '[(u["models"], u["points"]) for u in d["units"] if u["id"] == "empire/swordsmen"] == [(20, 135)]'
expect_exit 2 "list an unknown WHFB7 list" "$OM" list whfb7/weapon
expect_grep "did you mean 'weapons'" "$TMP/err" "unknown WHFB7 list: did you mean"
expect_exit 0 "list --options" "$OM" list --options
expect_grep "  cc_hit_unclamped  (A1; WHFB 7th edition, Close Combat > Hitting the Enemy)  switch" "$TMP/out" "list --options: a WHFB7 switch, its ambiguity and section"
expect_grep "  strike_tiers  (A6; WHFB 7th edition, Close Combat > Who Strikes First?)  fixed" "$TMP/out" "list --options: a WHFB7 fixed reading"
expect_grep "  contact_default  (R1;" "$TMP/out" "list --options: a reading of the abstraction"
expect_exit 0 "list --options as json" "$OM" list --options -f json
json_ok "list --options json: every WHFB7 ambiguity named" '[o["name"] for o in d["options"] if o["game"] == "whfb7"][:2] == ["cc_hit_unclamped", "wound_mod_unclamped"] and {"A%d" % i for i in range(1, 34)} <= {o["ambiguity"] for o in d["options"]} and [(o["switchable"], o["default"]) for o in d["options"] if o["name"] == "max_rounds"] == [(True, 0)]'

# --- list --keys: WHFB7's keys from its table, under its title, after Warmaster's ---
expect_exit 0 "list --keys" "$OM" list --keys
expect_grep "Scenario keys of Warhammer Fantasy Battles 7th edition (docs/scenario-format.md explains each):" "$TMP/out" "list --keys: WHFB7's keys under its title"
if [ "$(grep '^Scenario keys of' "$TMP/out" | cut -c18-36 | tr '\n' '|')" = "Warmaster (1.1, Rev|Warhammer Fantasy B|" ]; then
    ok "list --keys: every game, Warmaster then WHFB7"
else
    not_ok "list --keys: every game, Warmaster then WHFB7" "$(grep '^Scenario keys of' "$TMP/out")"
fi
expect_grep "    flee_blocked_in  0..255 (default: 0: open ground)" "$TMP/out" "list --keys: a WHFB7 side key, its range and default"
expect_grep "    arc              front | flank | rear (default: front)" "$TMP/out" "list --keys: a WHFB7 name key's words"
expect_grep "  mods keys:" "$TMP/out" "list --keys: the WHFB7 levels"
expect_exit 0 "list --keys as json" "$OM" list --keys -f json
json_ok "list --keys json: each game with its title and keys" '[(g["game"], g["title"]) for g in d["games"]] == [("warmaster", "Warmaster (1.1, Revolution, Ancients)"), ("whfb7", "Warhammer Fantasy Battles 7th edition")] and all(set(k) == {"name", "where", "type", "values", "default", "help"} for g in d["games"] for k in g["keys"])'
json_ok "list --keys json: WHFB7 keys by level" '[(k["where"], k["type"], k["values"], k["default"]) for k in d["games"][1]["keys"] if k["name"] in ("missile_ward", "arc")] == [("side", "name", ["front", "flank", "rear"], "front"), ("mods", "2+..6+, or none", None, "none")] and {k["where"] for k in d["games"][1]["keys"]} == {"top", "unit", "profile", "equipment", "mount", "character", "side", "mods", "magic"}'
# A key list --keys names is one a scenario may write; a near miss is refused
# with the file, the line and the field, and a suggestion.
cat >"$TMP/keys.yaml" <<'EOF'
schema: oddsmaster-scenario/1
ruleset: whfb7
a:
  unit: {from: empire/swordsmen}
  flee_blocked_in: 6
b:
  unit: {from: orcs-goblins/orc-boyz}
  charging: true
EOF
expect_exit 0 "a key of list --keys runs" "$OM" run "$TMP/keys.yaml" --trials 2000 --no-rows -o "$TMP/keys.h5" --quiet
sed 's/flee_blocked_in/flee_block_in/' "$TMP/keys.yaml" >"$TMP/keys-bad.yaml"
expect_exit 2 "a misspelt key" "$OM" run "$TMP/keys-bad.yaml" --trials 2000 -o "$TMP/keys-bad.h5" --quiet
expect_grep "keys-bad.yaml:5: field 'a.flee_block_in': unknown key 'flee_block_in'; did you mean 'flee_blocked_in'?" "$TMP/err" "a misspelt key: file, line, field and suggestion"
# An option of the WHFB7 registry written outside `options:` is named as one.
sed 's/^ruleset: whfb7$/ruleset: whfb7\ncc_hit_unclamped: true/' "$TMP/keys.yaml" >"$TMP/keys-opt.yaml"
expect_exit 2 "an option outside options:" "$OM" run "$TMP/keys-opt.yaml" --trials 2000 -o "$TMP/keys-opt.h5" --quiet
expect_grep "keys-opt.yaml:3: field 'cc_hit_unclamped': unknown key 'cc_hit_unclamped'; it is an option: put it under the top-level 'options:'" "$TMP/err" "an option outside options: says where it goes"

# --- a run records every value and option; summary reads it ---
cat >"$TMP/options.yaml" <<'EOF'
schema: oddsmaster-scenario/1
ruleset: whfb7
kind: engagement
options:
  max_rounds: 3
  killing_blow_one_wound: true
a:
  unit:
    from: empire/greatswords
    models: 10
  charging: true
b:
  unit: {from: orcs-goblins/orc-boyz}
EOF
expect_exit 0 "run a scenario with options" "$OM" run "$TMP/options.yaml" --trials 20000 -q -o "$TMP/options.h5"
if command -v h5dump >/dev/null 2>&1; then
    h5dump -a /options_json -w 0 "$TMP/options.h5" | sed -n 's/^ *(0): "\(.*\)"$/\1/p' | sed 's/\\"/"/g' >"$TMP/out"
    json_ok "options_json: the options, the resolved units, every reading" 'd["game"] == "whfb7" and d["options"]["max_rounds"] == 3 and d["options"]["killing_blow_one_wound"] is True and d["options"]["cc_hit_unclamped"] is False and d["options"]["strike_tiers"].startswith("fixed") and d["a"]["unit"]["models"] == 10 and d["a"]["from"] == "empire/greatswords" and d["a"]["unit"]["rules"] == ["stubborn"] and d["a"]["unit"]["equipment"]["weapon"] == "great-weapon" and d["options"]["victory_points_per_side"].startswith("fixed") and len(d["options"]) == 44'
else
    ok "# SKIP h5dump not installed"
fi
expect_exit 0 "summary of a WHFB7 run" "$OM" summary "$TMP/options.h5" --format json
json_ok "summary json: the WHFB7 fields, points scaled to 10 models" 'd["ruleset"] == "whfb7" and d["fields"]["rounds"]["max"] <= 3 and "lost_a" in d["fields"] and d["units"]["a"]["points"] == 108 and d["points_lost"]["a"]["models"] == 10'

expect_exit 0 "odds chart of a WHFB7 run" "$OM" chart "$TMP/options.h5" --kind odds -o "$TMP/odds.svg"
expect_exit 0 "distribution chart of a WHFB7 run, by default of B's losses" "$OM" chart "$TMP/options.h5" --kind dist -o "$TMP/dist.svg"
expect_grep "lost_b" "$TMP/dist.svg" "the distribution is of lost_b, the field deciding B's victory points"

# --- matrix, efficiency and a heat map of the sample units ---
expect_exit 0 "matrix of WHFB7 units" "$OM" matrix whfb7 empire/swordsmen,halberdiers,knights,great-cannon orcs-goblins/orc-boyz,goblins,trolls --situation a-charges --situation a-charges-b-shoots -n 2000 -q -o "$TMP/m.h5" --cells-dir "$TMP/cells"
if [ "$(ls "$TMP/cells" | wc -l)" -eq 24 ]; then ok "one scenario file per cell"; else not_ok "one scenario file per cell"; fi
cell=$(head -n 1 "$TMP/cells/s0_r1_c2.yaml" | sed 's/.*: oddsmaster run //')
# shellcheck disable=SC2086
expect_exit 0 "a cell's scenario runs as written in it" "$OM" run $cell -q -o "$TMP/cell.h5"
expect_grep "# Outside the rating: the row unit" "$TMP/cells/s0_r3_c0.yaml" "a war machine's charge is outside the rating"
expect_exit 0 "efficiency of the WHFB7 matrix" "$OM" efficiency "$TMP/m.h5" --format json
json_ok "efficiency: every unit rated but the war machine" 'len(d["units"]) == 7'
expect_exit 0 "heat map of the WHFB7 matrix" "$OM" chart "$TMP/m.h5" --kind heatmap -o "$TMP/heat.svg"
expect_grep "Swordsmen" "$TMP/heat.svg" "the heat map names the units"
expect_exit 2 "matrix of an unknown WHFB7 army" "$OM" matrix whfb7 empier orcs-goblins -o "$TMP/x.h5"
expect_grep "did you mean 'empire'" "$TMP/err" "unknown army: did you mean"
if [ -e "$TMP/x.h5" ]; then not_ok "a failed matrix writes no file"; else ok "a failed matrix writes no file"; fi

tap_end
