#!/bin/sh
# test_cli_conventions.sh: what a command-line tool owes its user, end to end
# (TAP output for meson).
# Usage: test_cli_conventions.sh PATH/TO/oddsmaster SOURCE_ROOT
# Checks "did you mean" wherever a name is typed (commands, options, option
# words, rule sets, armies, units, situations, kinds, fields), that an army
# is taken by its id or its display name, that '-' reads a scenario from
# standard input, what --quiet silences and what it keeps, and that the help
# texts say what the program does (every exit code; no pointer to a README
# section that moved to docs/).
set -u
OM=$1
ROOT=$2
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_conventions
EXAMPLE="$ROOT/scenarios/examples/charge-in-the-open.yaml"

# expect_suggestion CODE DESCRIPTION NEAREST COMMAND...: the command exits CODE
# and its error suggests NEAREST.
expect_suggestion() {
    code=$1 what=$2 near=$3
    shift 3
    expect_exit "$code" "$what" "$@"
    expect_grep "did you mean '$near'?" "$TMP/err" "$what: did you mean '$near'"
}

# --- did you mean: the command line ---
expect_suggestion 1 "a misspelt command" summary "$OM" sumary knights.h5
expect_suggestion 1 "a command missing a letter" run "$OM" rn
expect_suggestion 1 "help of a misspelt command" matrix "$OM" help matirx
expect_exit 1 "an unknown command far from any" "$OM" frobnicate
expect_grep "(commands: run, battle, summary, list, matrix, efficiency, chart, compare, replay)" "$TMP/err" \
    "an unknown command far from any: the commands are named"
expect_suggestion 1 "a misspelt option" --trials "$OM" run --trails 10 -o "$TMP/x.h5"
expect_suggestion 1 "a misspelt option with its value" --trials "$OM" run --trails=10
expect_suggestion 1 "a misspelt option of list" --format "$OM" list --fromat json
expect_exit 1 "an ambiguous abbreviation" "$OM" run --t 3
expect_grep "could be --trials, --threads, --target" "$TMP/err" "the abbreviation's options are named"
expect_exit 1 "a flag given a value" "$OM" run --quiet=yes
expect_grep "option '--quiet' takes no value" "$TMP/err" "a flag given a value: it says so"
expect_suggestion 1 "a misspelt --format" json "$OM" summary x.h5 --format jsn
expect_suggestion 1 "a misspelt --kind" heatmap "$OM" chart x.h5 --kind hetmap -o x.png
expect_suggestion 1 "a misspelt --interval" bootstrap "$OM" efficiency x.h5 --interval bootstrp
expect_exit 1 "a word far from any" "$OM" summary x.h5 --format xml
expect_grep "--format must be text, json or csv, got 'xml'" "$TMP/err" "a word far from any: the words are named"
expect_exit 1 "an option before the command" "$OM" --trials 5
expect_grep "a command's options follow it" "$TMP/err" "an option before the command: it says where options go"

# The manual's example of these answers is the program's, line for line: each
# "$ oddsmaster ..." line of the block run, its standard error compared with
# the lines under it.
awk '/A name that is not known, wherever it is typed/ { on = 1 } on && /^```$/ { n++; next }
     on && n == 1' "$ROOT/docs/manual.md" >"$TMP/example"
if grep -q '^\$ oddsmaster ' "$TMP/example"; then
    : >"$TMP/got"
    sed -n 's/^\$ oddsmaster //p' "$TMP/example" | while read -r args; do
        echo "\$ oddsmaster $args" >>"$TMP/got"
        # shellcheck disable=SC2086
        "$OM" $args 2>>"$TMP/got" >/dev/null
    done
    if cmp -s "$TMP/example" "$TMP/got"; then ok "the manual's did-you-mean example is the program's"; else
        not_ok "the manual's did-you-mean example is the program's" "$(diff "$TMP/example" "$TMP/got" | head -8)"; fi
else
    not_ok "the manual's did-you-mean example is the program's" "no example found in docs/manual.md"
fi

# --- did you mean: names of the games and of files ---
expect_suggestion 2 "matrix: a misspelt rule set" warmaster-revolution "$OM" matrix warmaster-revoltion empire/knights orcs -o "$TMP/m.h5"
expect_suggestion 2 "matrix: a misspelt army" empire "$OM" matrix warmaster-revolution empir/knights orcs -o "$TMP/m.h5"
expect_suggestion 2 "matrix: a misspelt unit" knights "$OM" matrix warmaster-revolution empire/knigts orcs -o "$TMP/m.h5"
expect_suggestion 2 "matrix: a misspelt situation" a-charges "$OM" matrix warmaster-revolution empire/knights orcs --situation a-chargs -o "$TMP/m.h5"
expect_suggestion 2 "matrix: a misspelt kind" combat "$OM" matrix warmaster-revolution empire/knights orcs --kind combt -o "$TMP/m.h5"
expect_exit 2 "matrix: a kind the matrix does not run" "$OM" matrix warmaster-revolution empire/knights orcs --kind volley -o "$TMP/m.h5"
expect_grep "(the kinds a matrix of this rule set runs: engagement, combat)" "$TMP/err" "a kind far from any: the kinds are named"
expect_exit 2 "matrix: a rule set far from any" "$OM" matrix chess empire orcs -o "$TMP/m.h5"
expect_grep "(rule sets: warmaster-1.1, warmaster-revolution, warmaster-ancients, whfb7)" "$TMP/err" "a rule set far from any: the rule sets are named"
expect_absent "$TMP/m.h5" "no matrix file after a refused name"
expect_suggestion 2 "list: a misspelt rule set" warmaster-revolution "$OM" list warmaster-revoltion
expect_suggestion 2 "list: a misspelt WHFB7 list" units "$OM" list whfb7/unit
expect_suggestion 2 "a scenario's misspelt rule set, on standard input" warmaster-revolution \
    sh -c 'printf "ruleset: warmaster-revoltion\n" | "$1" run - -n 10 -o "$2"' sh "$OM" "$TMP/s.h5"
expect_suggestion 2 "run: a misspelt --target" stands_lost_b "$OM" run --halfwidth 0.05 --target stand_lost_b -o "$TMP/t.h5"
expect_exit 0 "a run file" "$OM" run "$EXAMPLE" -n 2000 -q -o "$TMP/run.h5"
expect_suggestion 2 "chart: a misspelt --field" stands_lost_b "$OM" chart "$TMP/run.h5" --kind dist --field stand_lost_b -o "$TMP/d.png"
expect_exit 0 "a Warmaster matrix" "$OM" matrix warmaster-revolution empire/knights,halberdiers chaos,orcs -n 400 -q -o "$TMP/wm.h5"
expect_suggestion 2 "efficiency: a misspelt situation" a-charges "$OM" efficiency "$TMP/wm.h5" --situation a-chargs
expect_suggestion 2 "chart: a misspelt situation" a-charges "$OM" chart "$TMP/wm.h5" --kind heatmap --situation a-chargs -o "$TMP/h.png"

# --- efficiency --field: the army's id, or its display name in any case ---
for army in chaos Chaos CHAOS; do
    expect_exit 0 "efficiency --field $army" "$OM" efficiency "$TMP/wm.h5" --field "$army" --format json
    json_ok "efficiency --field $army: the field is Chaos's units" 'd["field"] == ["'"$army"'"]'
done
"$OM" efficiency "$TMP/wm.h5" --field chaos --format csv >"$TMP/by_id.csv"
"$OM" efficiency "$TMP/wm.h5" --field Chaos --format csv >"$TMP/by_name.csv"
# Every column but the field's own name (column 7) and the manifest.
if [ -s "$TMP/by_id.csv" ] && [ "$(cut -d, -f1-6,8-11 "$TMP/by_id.csv")" = "$(cut -d, -f1-6,8-11 "$TMP/by_name.csv")" ]; then
    ok "the id and the display name give the same fair points"; else
    not_ok "the id and the display name give the same fair points"; fi
expect_exit 2 "efficiency: a misspelt army id" "$OM" efficiency "$TMP/wm.h5" --field chaso
expect_grep "did you mean 'chaos' (Chaos)?" "$TMP/err" "a misspelt army: the nearest army, id first"
expect_exit 2 "efficiency: an army far from any" "$OM" efficiency "$TMP/wm.h5" --field zzz
expect_grep "(armies: empire (Empire), chaos (Chaos), orcs (Orcs))" "$TMP/err" "an army far from any: each army, id first"
expect_exit 0 "a WHFB7 matrix" "$OM" matrix whfb7 empire/swordsmen,halberdiers orcs-goblins/orc-boyz,goblins -n 400 -q -o "$TMP/w7.h5"
for army in orcs-goblins "Orcs & Goblins" "orcs & goblins"; do
    expect_exit 0 "WHFB7 efficiency --field '$army'" "$OM" efficiency "$TMP/w7.h5" --field "$army"
done
expect_exit 2 "WHFB7 efficiency: a misspelt army id" "$OM" efficiency "$TMP/w7.h5" --field orcs-goblin
expect_grep "did you mean 'orcs-goblins' (Orcs & Goblins)?" "$TMP/err" "a misspelt WHFB7 army: the nearest army, id first"

# --- '-' is standard input ---
expect_exit 0 "run - < FILE" sh -c 'cd "$1" && "$2" run - -n 5000 --seed 3 < "$3"' sh "$TMP" "$OM" "$EXAMPLE"
if [ -s "$TMP/stdin.h5" ]; then ok "run - writes stdin.h5 by default"; else not_ok "run - writes stdin.h5 by default"; fi
expect_grep "Summary of stdin.h5" "$TMP/out" "run - prints the odds of stdin.h5"
expect_exit 0 "the same scenario from its file" "$OM" run "$EXAMPLE" -n 5000 --seed 3 -o "$TMP/file.h5"
if [ "$("$OM" summary "$TMP/stdin.h5" --format csv)" = "$("$OM" summary "$TMP/file.h5" --format csv)" ]; then
    ok "standard input and the file give the same odds"; else not_ok "standard input and the file give the same odds"; fi
if command -v h5dump >/dev/null 2>&1; then
    h5dump -a /scenario_name "$TMP/stdin.h5" >"$TMP/h5" 2>&1
    expect_grep '"<stdin>"' "$TMP/h5" "the result file names the scenario <stdin>"
else
    ok "the result file names the scenario <stdin> # SKIP h5dump not installed"
fi
expect_exit 0 "cat FILE | run - -o OUT" sh -c 'cat "$1" | "$2" run - -n 1000 -o "$3"' sh "$EXAMPLE" "$OM" "$TMP/piped.h5"
if [ -s "$TMP/piped.h5" ]; then ok "a pipe into run - with -o"; else not_ok "a pipe into run - with -o"; fi
expect_exit 2 "a bad scenario on standard input" sh -c 'printf "a: [\n" | "$1" run - -n 10 -o "$2"' sh "$OM" "$TMP/bad.h5"
expect_match "^oddsmaster run: error: <stdin>:" "$TMP/err" "an error in standard input names <stdin> and the line"
expect_absent "$TMP/bad.h5" "no result file for a bad scenario on standard input"
expect_exit 2 "an empty standard input" sh -c '"$1" run - -n 10 -o "$2" </dev/null' sh "$OM" "$TMP/empty.h5"

# --- --quiet: no progress, warnings or notes; the odds still printed ---
UNMODELLED="$ROOT/tests/data/scenarios/good/rules_unmodelled.yaml"
expect_exit 0 "run --quiet" "$OM" run "$UNMODELLED" -n 2000 -q -o "$TMP/q.h5"
if [ -s "$TMP/err" ]; then not_ok "run --quiet writes nothing to standard error" "$(head -c 300 "$TMP/err")"; else
    ok "run --quiet writes nothing to standard error"; fi
expect_grep "Summary of $TMP/q.h5" "$TMP/out" "run --quiet still prints the odds"
expect_exit 0 "run without --quiet" "$OM" run "$UNMODELLED" -n 2000 -o "$TMP/q.h5"
expect_grep "warning: Desert Riders: special rules not modelled yet" "$TMP/err" "without --quiet the warnings are printed"
expect_exit 0 "run --quiet > /dev/null prints nothing" sh -c '"$1" run -n 1000 -q -o "$2" >/dev/null' sh "$OM" "$TMP/none.h5"
if [ -s "$TMP/out" ] || [ -s "$TMP/err" ]; then not_ok "nothing at all with standard output discarded"; else
    ok "nothing at all with standard output discarded"; fi
expect_exit 0 "matrix --quiet" "$OM" matrix warmaster-revolution empire/knights orcs/orc-warriors -n 200 -q -o "$TMP/mq.h5"
if [ -s "$TMP/err" ]; then not_ok "matrix --quiet writes nothing to standard error"; else ok "matrix --quiet writes nothing to standard error"; fi
expect_grep "Matrix: $TMP/mq.h5" "$TMP/out" "matrix --quiet still says what it wrote"
"$OM" run --help >"$TMP/help"
expect_grep "the odds still go to" "$TMP/help" "run --help says --quiet keeps the odds"
expect_grep "the odds on standard output, are still printed" "$ROOT/docs/manual.md" "the manual says --quiet keeps the odds"

# --- WHFB7's lost_a and lost_b count models, and say so ---
expect_exit 0 "a WHFB7 run" "$OM" run "$ROOT/scenarios/examples/whfb7-swordsmen-charge-orc-boyz.yaml" -n 2000 -q -o "$TMP/w.h5"
expect_exit 0 "its summary as JSON" "$OM" summary "$TMP/w.h5" --format json
json_ok "lost_a and lost_b describe models lost, not victory points" 'all(d["fields"][f]["description"].startswith("Models unit ") and "victory points follow" in d["fields"][f]["description"] for f in ("lost_a", "lost_b"))'

# --- the help texts say what the program does ---
expect_exit 0 "oddsmaster --help" "$OM" --help
expect_grep "5 interrupted by a signal" "$TMP/out" "the program's help lists exit code 5"
for cmd in run summary list matrix efficiency chart; do
    "$OM" "$cmd" --help >"$TMP/help"
    if grep -q "README" "$TMP/help"; then not_ok "$cmd --help points to no README section" "$(grep README "$TMP/help")"; else
        ok "$cmd --help points to no README section"; fi
done
expect_exit 0 "summary --format json" "$OM" summary "$TMP/run.h5" --format json
"$OM" summary --help >"$TMP/help"
missing=""
for key in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))))' "$TMP/out"); do
    grep -q "$key" "$TMP/help" || missing="$missing $key"
done
if [ -z "$missing" ]; then ok "summary --help names every key of its JSON"; else
    not_ok "summary --help names every key of its JSON" "missing:$missing"; fi

tap_end
