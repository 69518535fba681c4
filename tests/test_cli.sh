#!/bin/sh
# test_cli.sh: the oddsmaster command line, end to end (TAP output for meson).
# Usage: test_cli.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
# Checks documented exit codes (0 ok, 1 usage, 2 bad input, 3 file I/O or corrupt
# result file), that errors name the file, line and field, that a failed run
# leaves no output file behind (docs/manual.md "Exit codes"), `oddsmaster list` in text
# and JSON (army lists, --rules, --options), warnings for special rules not
# modelled, a whole engagement's datasets and recorded options, and that the
# odds the README and the manual quote for the default scenario and the worked
# examples are the program's.
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli

# --- help and usage ---
expect_exit 0 "oddsmaster --help" "$OM" --help
expect_match "run" "$TMP/out" "top-level help lists run"
expect_exit 0 "oddsmaster --version" "$OM" --version
for cmd in run summary list; do
    expect_exit 0 "oddsmaster $cmd --help" "$OM" "$cmd" --help
    expect_match "Usage: oddsmaster $cmd" "$TMP/out" "$cmd --help shows its usage"
done
# Every subcommand names the build: the release and the commit it was built from.
for cmd in run summary list matrix efficiency chart; do
    expect_exit 0 "oddsmaster $cmd --version" "$OM" "$cmd" --version
    expect_match "^oddsmaster [0-9][0-9.]*" "$TMP/out" "$cmd --version prints the version"
done
expect_exit 1 "run --threads too many" "$OM" run --threads 10000 -o "$TMP/x.h5"
expect_match "threads" "$TMP/err" "too many threads: message names --threads"
expect_exit 1 "matrix --trials 0" "$OM" matrix warmaster-revolution empire orcs --trials 0 -o "$TMP/x.h5"
expect_match "trials" "$TMP/err" "matrix --trials 0: message names --trials"
expect_exit 1 "matrix --max-trials too small" "$OM" matrix warmaster-revolution empire orcs --max-trials 0 -o "$TMP/x.h5"
expect_match "max-trials" "$TMP/err" "matrix --max-trials 0: message names --max-trials"
expect_exit 1 "no command" "$OM"
expect_exit 1 "unknown command" "$OM" frobnicate
expect_exit 1 "unknown option" "$OM" run --frobnicate
expect_exit 1 "negative trials" "$OM" run --trials -5 -o "$TMP/x.h5"
expect_match "trials" "$TMP/err" "negative trials: message names the option"
expect_exit 1 "zero trials" "$OM" run --trials 0 -o "$TMP/x.h5"
expect_exit 1 "non-numeric seed" "$OM" run --seed abc -o "$TMP/x.h5"
expect_absent "$TMP/x.h5" "usage errors write no file"

# --- the default scenario ---
expect_exit 0 "run the embedded default" "$OM" run --trials 20000 --seed 7 -o "$TMP/default.h5"
expect_match "Knights" "$TMP/out" "the answer names the units"
expect_match "win" "$TMP/out" "the answer gives win odds"
if [ -s "$TMP/default.h5" ]; then ok "result file written"; else not_ok "result file written"; fi
expect_exit 0 "summary text" "$OM" summary "$TMP/default.h5"
expect_exit 0 "summary json" "$OM" summary "$TMP/default.h5" --format json
cp "$TMP/out" "$TMP/one.json"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "outcome" in d and "a" in d["outcome"] else 1)' "$TMP/one.json"; then
    ok "summary json parses and has outcome.a"; else not_ok "summary json parses" "$(head -c 300 "$TMP/one.json")"; fi
expect_exit 0 "summary csv" "$OM" summary "$TMP/default.h5" --format csv
expect_exit 1 "summary with an unknown format" "$OM" summary "$TMP/default.h5" --format xml

# Same seed, other thread count: the same numbers.
expect_exit 0 "same run on 1 thread" "$OM" run --trials 20000 --seed 7 --threads 1 -q -o "$TMP/t1.h5"
"$OM" summary "$TMP/t1.h5" --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d["outcome"], sort_keys=True))' >"$TMP/t1.out"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d["outcome"], sort_keys=True))' "$TMP/one.json" >"$TMP/t2.out"
if cmp -s "$TMP/t1.out" "$TMP/t2.out"; then ok "same seed gives the same odds on 1 and 2 threads"; else
    not_ok "same seed gives the same odds on 1 and 2 threads"; fi

# --- exact odds beside the estimates (docs/manual.md "Exact odds") ---
# The default's law is enumerated (130 outcomes of the dice), recorded in its
# file and printed beside the estimates; run --exact prints it alone and
# writes nothing; a scenario without a law says why.
expect_exit 0 "summary of the default shows its exact law" "$OM" summary "$TMP/default.h5"
expect_grep "  exact:     every field's law, by enumerating every outcome of the dice (130 outcomes)" \
    "$TMP/out" "the summary's header says how the exact law was computed"
expect_grep "        exact 0.853464            exact 0.081949            exact 0.064587" "$TMP/out" \
    "the exact odds under side A's estimates"
grep -xF "  exact:     every field's law, by enumerating every outcome of the dice (130 outcomes)" \
    "$ROOT/docs/manual.md" >/dev/null && ok "the manual quotes the header line" ||
    not_ok "the manual quotes the header line"
expect_exit 0 "summary json of the default" "$OM" summary "$TMP/default.h5" --format json
json_ok "json: the exact law's provenance and values" 'd["exact"]["outcomes"] == 130 and d["exact"]["reason"] == "" and "winner" in d["exact"]["fields"] and abs(d["outcome"]["a"]["win"]["exact"] - 0.853463847631) < 1e-9 and abs(sum(d["fields"]["stands_lost_b"]["exact"]["distribution"].values()) - 1) < 1e-12 and d["fields"]["destroyed_b"]["exact"]["p"] == d["fields"]["destroyed_b"]["at_least"]["1"]["exact"] and d["points_lost"]["a"]["exact"]["distribution"]["55"] > 0'
expect_exit 0 "summary csv of the default" "$OM" summary "$TMP/default.h5" --format csv
expect_match "^field,k,p_equal,p_at_least,lo,hi,exact_equal,exact_at_least$" "$TMP/out" \
    "csv: the exact columns"
expect_match "^win_a,1,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,0.8534638476,0.8534638476$" "$TMP/out" \
    "csv: the exact P(A wins)"
mkdir -p "$TMP/exactdir"
(cd "$TMP/exactdir" && "$OM" run --exact >"$TMP/out" 2>"$TMP/err")
if [ $? -eq 0 ] && [ -z "$(ls -A "$TMP/exactdir")" ]; then ok "run --exact writes no file"; else
    not_ok "run --exact writes no file" "$(ls -A "$TMP/exactdir")" "$(head -c 300 "$TMP/err")"; fi
expect_grep "  method:    enumerating every outcome of the dice (130 outcomes), no simulation" \
    "$TMP/out" "run --exact says how"
sed -n '/^Outcome$/,/^$/p' "$TMP/out" | sed '/^$/d' >"$TMP/quoted"
missing=""
while IFS= read -r line; do
    grep -qxF -- "$line" "$ROOT/docs/manual.md" || missing="$missing|$line"
done <"$TMP/quoted"
if [ -s "$TMP/quoted" ] && [ -z "$missing" ]; then ok "the manual quotes run --exact of the default"
else not_ok "the manual quotes run --exact of the default" "not quoted: $missing"; fi
expect_exit 1 "run --exact with a run's option" "$OM" run --exact --trials 5
expect_grep "--exact prints the exact law without simulating: give it no --trials" "$TMP/err" \
    "run --exact names the option it does not take"
expect_exit 2 "run --exact of a whole turn" "$OM" run --exact \
    "$ROOT/scenarios/examples/turns/cavalry-wing.yaml"
expect_grep "cavalry-wing.yaml: no exact law is known for this scenario: the exact law of a whole turn is not computed" \
    "$TMP/err" "run --exact of a turn says why there is no law"
expect_exit 0 "a turn's summary says why it has no exact law" "$OM" run -n 2000 \
    "$ROOT/scenarios/examples/turns/cavalry-wing.yaml" -o "$TMP/turn.h5"
line=$(grep '^  exact:     none known: ' "$TMP/out")
if [ -n "$line" ] && grep -qxF -- "$line" "$ROOT/docs/manual.md"; then
    ok "the manual quotes a turn's exact line"
else not_ok "the manual quotes a turn's exact line" "output: $line"; fi
expect_exit 0 "an engagement's exact law is its first round's" "$OM" run --exact \
    "$ROOT/scenarios/examples/whole-engagement.yaml"
expect_grep "  fields:    round1_winner, result_a, result_b, charged; the other fields depend on the rounds and turns after the first" \
    "$TMP/out" "run --exact names an engagement's exact fields"

# --- bad scenarios: exit 2, file and line named, no output left ---
for f in "$DATA"/scenarios/bad/*.yaml; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .yaml)
    "$OM" run "$f" --trials 100 -o "$TMP/bad_$name.h5" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq 2 ] && grep -q "$(basename "$f"):[0-9]" "$TMP/err"; then ok "bad scenario $name: exit 2, file:line named"
    else not_ok "bad scenario $name: exit $got" "$(head -c 300 "$TMP/err")"; fi
    expect_absent "$TMP/bad_$name.h5" "bad scenario $name leaves no output file"
done
expect_exit 3 "missing scenario file" "$OM" run "$TMP/nonexistent.yaml" -o "$TMP/m.h5"
expect_match "nonexistent.yaml" "$TMP/err" "missing scenario: message names the file"

# A failed run never clobbers an existing result file.
cp "$TMP/default.h5" "$TMP/keep.h5"
bad=$(ls "$DATA"/scenarios/bad/*.yaml 2>/dev/null | head -n 1)
if [ -n "$bad" ]; then
    "$OM" run "$bad" -o "$TMP/keep.h5" >/dev/null 2>&1
    if cmp -s "$TMP/default.h5" "$TMP/keep.h5"; then ok "a failed run leaves an existing file intact"; else
        not_ok "a failed run leaves an existing file intact"; fi
fi
expect_exit 3 "unwritable output directory" "$OM" run --trials 100 -o "$TMP/no/such/dir/x.h5"

# --- corrupt result files: exit 3 with the file named ---
echo "not hdf5" >"$TMP/text.h5"
expect_exit 3 "summary of a non-HDF5 file" "$OM" summary "$TMP/text.h5"
expect_match "text.h5" "$TMP/err" "non-HDF5: message names the file"
head -c 3000 "$TMP/default.h5" >"$TMP/truncated.h5"
expect_exit 3 "summary of a truncated file" "$OM" summary "$TMP/truncated.h5"
expect_exit 3 "summary of a missing file" "$OM" summary "$TMP/missing.h5"
expect_exit 1 "summary without a file" "$OM" summary

# --- oddsmaster list: the embedded army lists ---
expect_exit 0 "list" "$OM" list
expect_match "warmaster-revolution" "$TMP/out" "list names the rule sets"
expect_exit 0 "list --format json" "$OM" list --format json
json_ok "list json: schema and three rule sets" 'd["schema"] == "oddsmaster-list/1" and [r["id"] for r in d["rulesets"]] == ["warmaster-1.1", "warmaster-revolution", "warmaster-ancients"] and all(r["armies"] > 0 for r in d["rulesets"])'
expect_exit 0 "list a rule set" "$OM" list warmaster-revolution
expect_match "empire" "$TMP/out" "list RULESET names its armies"
expect_exit 0 "list a rule set as json" "$OM" list warmaster-ancients --format json
json_ok "list RULESET json: armies with counts and versions" 'len(d["armies"]) == 25 and all(a["units"] > 0 and a["list_version"] == "2005 rulebook" for a in d["armies"])'
expect_exit 0 "list an army" "$OM" list warmaster-revolution/empire
expect_match "knights" "$TMP/out" "list RULESET/ARMY names its units"
expect_match "Teleport (2+, no range): not modelled" "$TMP/out" "list RULESET/ARMY names the spells not modelled"
expect_match "skirmishers\*" "$TMP/out" "list RULESET/ARMY marks rules not modelled"
expect_exit 0 "list an army as json" "$OM" list warmaster-revolution/empire -f json
json_ok "list RULESET/ARMY json: unit values" '[(u["attacks"], u["hits"], u["armour"], u["size"], u["points"]) for u in d["units"] if u["id"] == "knights"] == [(3, 3, "4+", 3, 110)] and [u["not_modelled"] for u in d["units"] if u["id"] == "skirmishers"] == [["skirmishers"]] and [u["not_modelled"] for u in d["units"] if u["id"] == "flagellants"] == [[]]'
json_ok "list RULESET/ARMY json: each spell with how the engine casts it" '[(x["id"], x["roll"], x["engine"]) for x in d["spells"]] == [("ball-of-flame", 5, "missile"), ("voice-of-command", 5, "move"), ("weird-enchantment", 4, "lasting"), ("teleport", 2, "not modelled")] and all(x["model"] for x in d["spells"])'
expect_exit 0 "list a unit" "$OM" list warmaster-revolution/empire/skirmishers
expect_match "not modelled yet" "$TMP/out" "list RULESET/ARMY/UNIT explains its rules"
expect_exit 0 "list a unit as json" "$OM" list warmaster-1.1/orc/orc-hero --format json
json_ok "list RULESET/ARMY/UNIT json" 'd["unit"]["type"] == "hero" and d["section"] == "units"'
expect_exit 0 "list --rules" "$OM" list --rules --format json
json_ok "list --rules json: rules and implementation status" 'd["count"] == len(d["rules"]) > 100 and any(r["id"] == "terror" and r["implemented"] for r in d["rules"]) and any(r["id"] == "skirmishers" and not r["implemented"] for r in d["rules"]) and any(r["id"] == "flagellants" and r["implemented"] for r in d["rules"]) and any(e["id"] == "terror" for e in d["engine_rules"])'
expect_exit 0 "list --rules RULESET" "$OM" list --rules warmaster-ancients
expect_match "warband" "$TMP/out" "list --rules RULESET lists its rules"
( cd "$TMP" && "$OM" list warmaster-ancients/egyptian >"$TMP/out" 2>"$TMP/err" )
if [ $? -eq 0 ] && grep -q "chariots" "$TMP/out"; then ok "list works from any directory (embedded data)"; else
    not_ok "list works from any directory" "$(head -c 300 "$TMP/err")"; fi
expect_exit 2 "list: unknown rule set" "$OM" list warmaster-revolutoin
expect_match "did you mean 'warmaster-revolution'" "$TMP/err" "unknown rule set: did you mean"
expect_exit 2 "list: unknown army" "$OM" list warmaster-revolution/emprie
expect_match "did you mean 'empire'" "$TMP/err" "unknown army: did you mean"
expect_exit 2 "list: unknown unit" "$OM" list warmaster-revolution/empire/knigths --format json
expect_match "did you mean 'knights'" "$TMP/err" "unknown unit: did you mean"
expect_exit 2 "list: army without its rule set" "$OM" list dwarfs
expect_match "warmaster-revolution/dwarfs" "$TMP/err" "army without rule set: did you mean"
expect_exit 2 "list --rules: unknown rule set" "$OM" list --rules chess
expect_exit 0 "list --options" "$OM" list --options
expect_match "^  max_turns  (-; Warmaster Revolution, Combat > Unresolved Combat)  switch$" "$TMP/out" "list --options: a switch, its ambiguity and section"
expect_match "^  stand_floor  (A4; Warmaster Revolution, Combat > Attack Modifiers)  fixed$" "$TMP/out" "list --options: a fixed reading"
expect_match "question: May infantry pursue retreating cavalry or chariots?" "$TMP/out" "list --options: the question"
expect_match "other:    true: every stand at 0 rolls one die" "$TMP/out" "list --options: the other reading"
expect_exit 0 "list --options --format json" "$OM" list --options --format json
json_ok "list --options json: the whole registry" 'd["schema"] == "oddsmaster-list/1" and d["count"] == len(d["options"]) >= 19 and d["switchable"] == sum(o["switchable"] for o in d["options"]) and all(set(o) == {"name", "game", "registry", "ambiguity", "section", "question", "default_reading", "other_reading", "switchable", "default"} for o in d["options"])'
json_ok "list --options json: switches and fixed readings" '[(o["switchable"], o["default"], o["ambiguity"]) for o in d["options"] if o["name"] in ("max_turns", "last_ditch_per_stand", "stand_floor")] == [(True, False, "A3"), (True, 0, "-"), (False, None, "A4")] and all(o["other_reading"] is None for o in d["options"] if not o["switchable"])'
expect_exit 0 "list --keys" "$OM" list --keys
expect_match "^    supports         0..255 (default: 0)$" "$TMP/out" "list --keys: a side key, its value and default"
expect_match "^    pursue           always | never | when-ahead (default: always)$" "$TMP/out" "list --keys: a name key's words"
expect_exit 0 "list --keys --format json" "$OM" list --keys --format json
json_ok "list --keys json: every key with its level" 'd["schema"] == "oddsmaster-list/1" and any(k["name"] == "behind_stands" and k["where"] == "side" for k in d["games"][0]["keys"]) and all(set(k) == {"name", "where", "type", "values", "default", "help"} for g in d["games"] for k in g["keys"])'
expect_exit 1 "list --keys with a name" "$OM" list --keys warmaster-revolution
expect_exit 1 "list --options with a name" "$OM" list --options warmaster-revolution
expect_exit 1 "list --options with --rules" "$OM" list --options --rules
expect_exit 1 "list: unknown format" "$OM" list --format xml
expect_exit 1 "list: two names" "$OM" list warmaster-1.1 warmaster-ancients
expect_exit 1 "list: unknown option" "$OM" list --frobnicate

# --- special rules not modelled: one warning per unit, not in quiet mode ---
expect_exit 0 "run a unit with rules not modelled" "$OM" run "$DATA/scenarios/good/rules_unmodelled.yaml" --trials 2000 -o "$TMP/unmodelled.h5"
expect_match "^oddsmaster run: warning: Desert Riders: special rules not modelled yet: desert-riders$" "$TMP/err" "run warns about rules not modelled"
expect_match "^oddsmaster run: warning: Skirmishers: special rules not modelled yet: skirmishers$" "$TMP/err" "one warning line per unit"
if command -v h5dump >/dev/null 2>&1; then
    h5dump -a /options_json "$TMP/unmodelled.h5" >"$TMP/out" 2>&1
    expect_match '"unmodelled":\["desert-riders"\]' "$TMP/out" "the result file records the rules not modelled"
else
    ok "# SKIP h5dump not installed"
fi
expect_exit 0 "quiet run" "$OM" run "$DATA/scenarios/good/rules_unmodelled.yaml" --trials 2000 -q -o "$TMP/unmodelled.h5"
if [ -s "$TMP/err" ]; then not_ok "quiet mode prints no warning" "$(head -c 300 "$TMP/err")"; else ok "quiet mode prints no warning"; fi

# --- a whole engagement: its datasets and the options recorded with it ---
expect_exit 0 "run kind: engagement" "$OM" run "$DATA/scenarios/good/full.yaml" --trials 3000 -q -o "$TMP/engagement.h5"
if command -v h5dump >/dev/null 2>&1; then
    h5dump -n "$TMP/engagement.h5" >"$TMP/out" 2>&1
    for d in rounds turns round1_winner retreated_cm_a retreated_cm_b; do
        expect_match "dataset */trials/$d\$" "$TMP/out" "an engagement writes /trials/$d"
    done
    h5dump -a /options_json -w 0 "$TMP/engagement.h5" | sed -n 's/^ *(0): "\(.*\)"$/\1/p' >"$TMP/out"
    json_ok "options_json: kind, sides, unit size and every option" 'd["kind"] == "engagement" and d["a"]["pursue"] == "when-ahead" and d["a"]["behind"] == "table-edge" and (d["a"]["behind_cm"], d["a"]["behind_stands"], d["a"]["side_strikers"], d["a"]["long_base"]) == (10, 2, 1, True) and (d["b"]["rear_supports"], d["b"]["shoots_first"], d["b"]["dense_terrain"], d["b"]["behind"]) == (1, True, True, "friends") and d["a"]["unit"]["size"] == 4 and d["options"]["max_turns"] == 7 and d["options"]["last_ditch_per_stand"] is True and d["options"]["stand_floor"].startswith("fixed") and len(d["options"]) >= 19 and d["rules"]["confused_units_support"] is True and d["rules"]["drive_back_discount_infantry_only"] is True and "supports_after_casualties" in d["rules"] and "retreat_divisor_engaged_only" in d["rules"]'
else
    ok "# SKIP h5dump not installed"
fi
expect_exit 0 "summary of an engagement" "$OM" summary "$TMP/engagement.h5" --format json
json_ok "summary json: the engagement fields" 'all(k in d["fields"] for k in ("rounds", "turns", "retreated_cm_a", "retreated_cm_b")) and d["fields"]["rounds"]["max"] >= 2 and d["outcome"] is not None'

# --- scenarios shipped in scenarios/ run ---
for f in "$ROOT"/scenarios/examples/*.yaml; do
    [ -e "$f" ] || continue
    expect_exit 0 "example $(basename "$f") runs" "$OM" run "$f" --trials 5000 -q -o "$TMP/example.h5"
done

# --- the quick start: the README quotes the default scenario's outcome table ---
# (default trials and seed, so the numbers are exact; update the documents when
# the engine changes them).
"$OM" run -o "$TMP/knights.h5" >"$TMP/out" 2>"$TMP/err"
sed -n '/^Outcome$/,/^$/p' "$TMP/out" | sed '/^$/d' >"$TMP/quoted"
missing=""
while IFS= read -r line; do
    grep -qxF -- "$line" "$ROOT/README.md" || missing="$missing|$line"
done <"$TMP/quoted"
if [ -s "$TMP/quoted" ] && [ -z "$missing" ]; then ok "README.md quotes the default scenario's outcome"; else
    not_ok "README.md quotes the default scenario's outcome" "not quoted: $missing"; fi

# --- the worked examples: the odds each document quotes are the program's ---
# Every example is quoted by README.md or docs/manual.md, and each of the two
# that names it quotes its first outcome line.
for f in "$ROOT"/scenarios/examples/*.yaml; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    "$OM" run "$f" -o "$TMP/readme.h5" >"$TMP/out" 2>"$TMP/err"
    line=$(grep -E '^  A  ' "$TMP/out" | head -n 1)
    quoting_docs "$name" >"$TMP/docs"
    if [ ! -s "$TMP/docs" ]; then
        not_ok "the odds of $name are quoted" "neither README.md nor docs/manual.md names examples/$name"
        continue
    fi
    while IFS= read -r doc; do
        if [ -n "$line" ] && grep -qF -- "$line" "$doc"; then
            ok "${doc#"$ROOT"/} quotes the odds of $name"
        else
            not_ok "${doc#"$ROOT"/} quotes the odds of $name" "output: $line"
        fi
    done <"$TMP/docs"
done

# --- matchup matrices, efficiency and charts (docs/manual.md "Matchup matrices") ---
for cmd in matrix efficiency chart; do
    expect_exit 0 "oddsmaster $cmd --help" "$OM" "$cmd" --help
    expect_match "Usage: oddsmaster $cmd" "$TMP/out" "$cmd --help shows its usage"
done
expect_exit 0 "matrix --list-situations" "$OM" matrix --list-situations
expect_match "a-charges-b-defended" "$TMP/out" "the situations are listed"
expect_exit 1 "matrix without -o" "$OM" matrix warmaster-revolution empire orcs
expect_exit 2 "matrix of an unknown army" "$OM" matrix warmaster-revolution emprie orcs -o "$TMP/m.h5"
expect_match "empire" "$TMP/err" "unknown army: did you mean"
expect_exit 2 "matrix with an unknown situation" "$OM" matrix warmaster-revolution empire orcs --situation nope -o "$TMP/m.h5"
expect_absent "$TMP/m.h5" "failed matrices write no file"
expect_exit 0 "a small matrix" "$OM" matrix warmaster-revolution empire/knights,halberdiers orcs/orc-warriors,trolls,goblins --situation a-charges --situation a-charges-b-shoots -n 2000 -q -o "$TMP/m.h5" --cells-dir "$TMP/cells"
if [ "$(ls "$TMP/cells" | wc -l)" -eq 12 ]; then ok "one scenario file per cell"; else not_ok "one scenario file per cell"; fi
cell=$(head -n 1 "$TMP/cells/s1_r0_c2.yaml" | sed 's/.*: oddsmaster run //')
# shellcheck disable=SC2086
expect_exit 0 "a cell's scenario runs as written in it" "$OM" run $cell -q -o "$TMP/cell.h5"
for fmt in text csv json markdown; do
    expect_exit 0 "efficiency --format $fmt" "$OM" efficiency "$TMP/m.h5" --format "$fmt"
done
if "$OM" efficiency "$TMP/m.h5" --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if len(d["units"]) == 5 and "manifest" in d else 1)'; then
    ok "efficiency json: every unit and the manifest"; else not_ok "efficiency json: every unit and the manifest"; fi
expect_exit 3 "efficiency of a run file" "$OM" efficiency "$TMP/default.h5"
# Tidy outputs: each CSV is one table with one header line, every row as wide.
for table in units model residuals; do
    if "$OM" efficiency "$TMP/m.h5" --format csv --table "$table" >"$TMP/eff.csv" &&
        python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); sys.exit(0 if len(r) > 1 and all(len(x) == len(r[0]) for x in r) and r[0][-1] == "manifest" and not r[0][0].startswith("#") else 1)' "$TMP/eff.csv"; then
        ok "efficiency csv --table $table: one table"; else not_ok "efficiency csv --table $table: one table"; fi
done
"$OM" efficiency "$TMP/m.h5" --format csv >"$TMP/out" 2>"$TMP/err"
expect_match ",all,fair_points," "$TMP/out" "efficiency csv: a fair_points row per unit"
expect_exit 0 "efficiency text" "$OM" efficiency "$TMP/m.h5"
expect_match "Price curve" "$TMP/out" "efficiency prints the fit diagnostic"
expect_match "fair \[CI\]" "$TMP/out" "efficiency prints fair values with intervals"
expect_exit 0 "efficiency --interval bootstrap" "$OM" efficiency "$TMP/m.h5" --interval bootstrap --replicates 50 --seed 3 --format json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["interval"]["method"] == "bootstrap" and d["interval"]["replicates"] == 50 else 1)' "$TMP/out"; then
    ok "efficiency json: the bootstrap is recorded"; else not_ok "efficiency json: the bootstrap is recorded"; fi
expect_exit 1 "efficiency --replicates without the bootstrap" "$OM" efficiency "$TMP/m.h5" --replicates 50
expect_exit 1 "efficiency --table without csv" "$OM" efficiency "$TMP/m.h5" --table model
expect_exit 2 "efficiency against an army not in the file" "$OM" efficiency "$TMP/m.h5" --field elves
expect_match "elves" "$TMP/err" "the unknown field army is named"
for ext in png svg pdf; do
    expect_exit 0 "heat map as $ext" "$OM" chart "$TMP/m.h5" --kind heatmap -o "$TMP/heat.$ext"
    if [ -s "$TMP/heat.$ext" ]; then ok "heat map $ext written"; else not_ok "heat map $ext written"; fi
done
expect_exit 0 "odds chart of a run" "$OM" chart "$TMP/default.h5" --kind odds -o "$TMP/odds.png"
expect_exit 0 "distribution chart of a run" "$OM" chart "$TMP/default.h5" --kind dist -o "$TMP/dist.svg"
expect_exit 3 "chart of a non-HDF5 file" "$OM" chart "$TMP/text.h5" --kind odds -o "$TMP/x.png"
expect_absent "$TMP/x.png" "a failed chart writes no image"
expect_exit 1 "chart with an unknown kind" "$OM" chart "$TMP/default.h5" --kind pie -o "$TMP/x.png"
expect_exit 0 "fair points chart" "$OM" chart "$TMP/m.h5" --kind fair -o "$TMP/fair.svg"
expect_match "<text" "$TMP/fair.svg" "SVG keeps its text as text"
if [ -s "$TMP/fair.svg.csv" ]; then ok "the data CSV is OUT.csv appended"; else not_ok "the data CSV is OUT.csv appended"; fi
expect_exit 0 "odds chart of two run files" "$OM" chart "$TMP/default.h5" "$TMP/cell.h5" --kind odds -o "$TMP/cmp.png"
expect_exit 1 "several files for a heat map" "$OM" chart "$TMP/m.h5" "$TMP/m.h5" --kind heatmap -o "$TMP/y.png"
echo mine >"$TMP/keep.csv"
expect_exit 0 "a chart beside the user's CSV" "$OM" chart "$TMP/default.h5" --kind odds -o "$TMP/keep.png"
expect_match "^mine$" "$TMP/keep.csv" "the user's keep.csv is untouched"
expect_exit 0 "drawing again replaces the chart's own data CSV" "$OM" chart "$TMP/default.h5" --kind odds -o "$TMP/keep.png"
expect_exit 0 "...even for another kind of chart" "$OM" chart "$TMP/default.h5" --kind dist -o "$TMP/keep.png"
expect_match "^field,k,p_equal" "$TMP/keep.png.csv" "the data CSV is the new chart's"
rm -f "$TMP/keep.png"
echo "my notes" >"$TMP/keep.png.csv"
expect_exit 2 "a chart whose data CSV is another file" "$OM" chart "$TMP/default.h5" --kind odds -o "$TMP/keep.png"
expect_match "force" "$TMP/err" "the refusal says how to replace it"
expect_absent "$TMP/keep.png" "a refused chart writes no image"
expect_match "^my notes$" "$TMP/keep.png.csv" "the other file is untouched"
expect_exit 0 "--force replaces the data CSV" "$OM" chart "$TMP/default.h5" --kind odds -o "$TMP/keep.png" --force
expect_exit 3 "a chart into a missing directory" "$OM" chart "$TMP/default.h5" --kind odds -o "$TMP/nodir/c.png"
expect_match "nodir' does not exist" "$TMP/err" "the missing directory is named"

# --- the main job at engine speed: tallies, no rows, precision, interruption ---
# The summary from the tallies says exactly what the rows say, on every example.
for f in "$ROOT"/scenarios/examples/*.yaml; do
    name=$(basename "$f" .yaml)
    "$OM" run "$f" --trials 50000 --seed 3 -q -o "$TMP/ex.h5" >/dev/null
    "$OM" summary "$TMP/ex.h5" --format json >"$TMP/tallies.json"
    "$OM" summary "$TMP/ex.h5" --format json --from-rows >"$TMP/rows.json"
    if cmp -s "$TMP/tallies.json" "$TMP/rows.json"; then ok "$name: tallies and rows summarise alike"; else
        not_ok "$name: tallies and rows summarise alike" "$(diff "$TMP/tallies.json" "$TMP/rows.json" | head -5)"; fi
done
expect_exit 0 "run --no-rows" "$OM" run --trials 50000 --seed 3 --no-rows -q -o "$TMP/norows.h5"
"$OM" run --trials 50000 --seed 3 -q -o "$TMP/withrows.h5" >/dev/null
"$OM" summary "$TMP/norows.h5" --format csv >"$TMP/a.csv"
"$OM" summary "$TMP/withrows.h5" --format csv >"$TMP/b.csv"
if cmp -s "$TMP/a.csv" "$TMP/b.csv"; then ok "no rows: the same summary"; else not_ok "no rows: the same summary"; fi
expect_exit 2 "summary --from-rows of a file without rows" "$OM" summary "$TMP/norows.h5" --from-rows
expect_match "no rows" "$TMP/err" "the message says the run wrote no rows"
expect_exit 0 "run --halfwidth" "$OM" run --halfwidth 0.01 --trials 10000000 -o "$TMP/hw.h5"
expect_match "stopped:   after 16384 of at most 10000000 trials: target precision reached" "$TMP/out" "the summary says why the run stopped"
expect_exit 1 "--target without --halfwidth" "$OM" run --target hits_on_b -o "$TMP/x.h5"
expect_exit 2 "--target of no field" "$OM" run --halfwidth 0.01 --target hits_on_c -o "$TMP/x.h5"
expect_match "hits_on_c" "$TMP/err" "the unknown target is named"
expect_absent "$TMP/x.h5" "no file for a bad target"
expect_exit 0 "--halfwidth with a target field" "$OM" run --halfwidth 0.02 --target stands_lost_b -q -o "$TMP/hwt.h5"
expect_exit 1 "run -o ''" "$OM" run -o "" --trials 10
expect_match "output" "$TMP/err" "an empty output names the option"
expect_exit 3 "run -o a directory" "$OM" run -o "$TMP" --trials 10
expect_match "is a directory" "$TMP/err" "a directory as output is refused before any work"
expect_exit 3 "run -o /dev/null (a device)" "$OM" run -o /dev/null --trials 10
expect_match "not a regular file" "$TMP/err" "a device as output is refused"
if [ -c /dev/null ]; then ok "the device is still a device"; else not_ok "the device is still a device"; fi

# Ctrl-C: a resumable .partial file, exit 5; --resume finishes it; refusals.
"$OM" run --trials 300000000 --threads 1 --no-rows -q -o "$TMP/int.h5" >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
got=$?
if [ "$got" -eq 5 ]; then ok "SIGINT: exit 5"; else not_ok "SIGINT: exit 5, got $got" "$(head -c 300 "$TMP/err")"; fi
expect_match "resume" "$TMP/err" "SIGINT: the message says how to resume"
expect_absent "$TMP/int.h5" "SIGINT: nothing under the finished name"
if [ -s "$TMP/int.h5.partial" ]; then ok "SIGINT: the .partial file is there"; else not_ok "SIGINT: the .partial file is there"; fi
expect_exit 0 "summary of a .partial file" "$OM" summary "$TMP/int.h5.partial"
expect_match "INCOMPLETE" "$TMP/out" "the summary says the run is incomplete"
cp "$TMP/int.h5.partial" "$TMP/before"
expect_exit 2 "--resume with another seed" "$OM" run --resume "$TMP/int.h5.partial" --seed 9
expect_match "seed is 1, not 9" "$TMP/err" "the seed that differs is named"
if cmp -s "$TMP/int.h5.partial" "$TMP/before"; then ok "a refused resume leaves the file as it was"; else
    not_ok "a refused resume leaves the file as it was"; fi
expect_exit 2 "a new run onto an interrupted one" "$OM" run --trials 10 -o "$TMP/int.h5"
expect_match "resume" "$TMP/err" "the new run points to --resume"
expect_exit 2 "--resume of a finished file" "$OM" run --resume "$TMP/norows.h5"
expect_exit 1 "--resume with -o" "$OM" run --resume "$TMP/int.h5.partial" -o "$TMP/y.h5"
# SIGKILL: the next run on the output removes the temporary file and says so.
"$OM" run --trials 300000000 --threads 1 --no-rows -q -o "$TMP/kill.h5" >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -KILL $pid
wait $pid 2>/dev/null
if ls "$TMP"/kill.h5.tmp-* >/dev/null 2>&1; then ok "SIGKILL leaves a temporary file"; else
    not_ok "SIGKILL leaves a temporary file"; fi
expect_exit 0 "the next run after a SIGKILL" "$OM" run --trials 1000 -o "$TMP/kill.h5"
expect_match "removed .*kill.h5.tmp-$pid, left by a run that was killed" "$TMP/err" "it says it removed the killed run's file"
if ls "$TMP"/kill.h5.tmp-* >/dev/null 2>&1; then not_ok "no temporary file is left"; else ok "no temporary file is left"; fi
# A full disk (here a file size limit, past which writes fail with EFBIG; the
# SIGXFSZ it raises ignored): exit 3 with the system's reason, no file, no crash.
full_run() { (trap '' XFSZ; ulimit -f "$1"; shift; exec "$OM" "$@"); }
expect_exit 3 "run onto a full disk" full_run 1024 run --trials 2000000 -q -o "$TMP/full.h5"
expect_grep "full.h5: cannot write the file: File too large" "$TMP/err" "a full disk: the system's reason"
expect_absent "$TMP/full.h5" "a full disk: no file left"
expect_exit 3 "run --no-rows onto a full disk" full_run 8 run --trials 100000 --no-rows -q -o "$TMP/full.h5"
expect_absent "$TMP/full.h5" "a full disk at the close: no file left"
# Stock readers: h5dump reads the rows and tallies; h5py too where it is installed.
expect_exit 0 "h5dump reads a result file" h5dump -d /trials/stands_lost_b -d /tallies/stands_lost_b "$TMP/withrows.h5"
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    if /usr/bin/python3 - "$TMP/withrows.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
for name in f["trials"].attrs["fields"].split():
    col = f["trials"][name][:]
    counts = np.bincount(col.astype(np.int64), minlength=len(f["tallies"][name]))
    assert (counts == f["tallies"][name][:]).all(), name
assert len(col) == f.attrs["trials"]
PY
    then ok "h5py reads every dataset, and the tallies count the rows"; else not_ok "h5py reads every dataset"; fi
else
    ok "h5py reads every dataset # SKIP python3-h5py not installed"
fi

tap_end
