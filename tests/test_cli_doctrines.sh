#!/bin/sh
# test_cli_doctrines.sh: `oddsmaster list --doctrines` (TAP output for meson):
# every doctrine file of scenarios/doctrines/warmaster/ (the doctrines compiled
# into the program) is listed with the name, aim and summary its file gives,
# as text and as JSON; a doctrine file given by path is checked and shown the
# same way; a bad one (an unknown aim, take_over neither true nor false, a
# misspelt key or a value out of range of the support order) exits 2 naming
# file, line and field with nothing on standard output; a missing one exits 3; --doctrines with another listing or
# a name that is not a file is a usage error (exit 1).
# Usage: test_cli_doctrines.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_doctrines

# The value of top-level key $1 in doctrine file $2.
value() { sed -n "s/^$1: *//p" "$2" | head -n 1; }

# --- every compiled-in doctrine, as its file says ---
expect_exit 0 "list --doctrines" "$OM" list --doctrines
cp "$TMP/out" "$TMP/listing"
count=0
for f in "$ROOT"/scenarios/doctrines/warmaster/*.yaml; do
    count=$((count + 1))
    name=$(value name "$f")
    aim=$(value aim "$f")
    summary=$(value summary "$f")
    if [ "$name" = "$(basename "$f" .yaml)" ]; then ok "$name: named as its file"; else
        not_ok "$(basename "$f"): its name is '$name'"; fi
    if grep -qE -- "^  $name +$aim +" "$TMP/listing" && grep -qF -- "$summary" "$TMP/listing"; then
        ok "$name: listed with aim $aim and its summary"; else
        not_ok "$name: listed with aim $aim and its summary" "$(cat "$TMP/listing")"; fi
done
rows=$(grep -c '^  [a-z]' "$TMP/listing")
if [ "$rows" -eq $((count + 1)) ]; then ok "one row a doctrine file ($count) and the header"; else
    not_ok "$rows rows for $count doctrine files and the header" "$(cat "$TMP/listing")"; fi
if [ "$count" -ge 4 ]; then ok "four doctrines or more ($count)"; else not_ok "only $count doctrines"; fi

expect_exit 0 "list --doctrines --format json" "$OM" list --doctrines --format json
names=$(for f in "$ROOT"/scenarios/doctrines/warmaster/*.yaml; do printf '"%s",' "$(value name "$f")"; done)
json_ok "JSON: schema, and the doctrines by name with their keys" \
    "d['schema'] == 'oddsmaster-list/1' and sorted(x['name'] for x in d['doctrines']) == sorted([$names]) and all(set(x) == {'name', 'aim', 'summary'} and x['aim'] in ('win', 'vp-margin', 'losses') and x['summary'] for x in d['doctrines'])"

# --- a doctrine file by path ---
f="$DATA/doctrines/warmaster/every-key.yaml"
expect_exit 0 "list --doctrines FILE" "$OM" list --doctrines "$f"
expect_match "^  $(value name "$f") *$(value aim "$f") " "$TMP/out" "the file's name and aim"
expect_grep "$(value summary "$f")" "$TMP/out" "the file's summary"
expect_exit 0 "list --doctrines FILE --format json" "$OM" list --doctrines "$f" --format json
json_ok "JSON of a file: the file and its one doctrine" \
    "d['file'] == '$f' and len(d['doctrines']) == 1 and d['doctrines'][0]['name'] == '$(value name "$f")'"
"$OM" list --doctrines - <"$ROOT/scenarios/doctrines/warmaster/cautious.yaml" >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -qE '^  cautious +losses ' "$TMP/out"; then ok "list --doctrines - reads standard input"; else
    not_ok "list --doctrines - reads standard input" "$(head -c 300 "$TMP/err")"; fi

# --- bad doctrine files and bad uses ---
sed 's/^aim: .*/aim: vp-margn/' "$ROOT/scenarios/doctrines/warmaster/default.yaml" >"$TMP/bad-aim.yaml"
expect_exit 2 "a doctrine file with an unknown aim" "$OM" list --doctrines "$TMP/bad-aim.yaml"
expect_grep "$TMP/bad-aim.yaml:" "$TMP/err" "the bad file is named"
expect_grep "field 'aim'" "$TMP/err" "the bad field is named"
expect_grep "did you mean 'vp-margin'?" "$TMP/err" "an unknown aim gets did-you-mean"
if [ -s "$TMP/out" ]; then not_ok "a bad doctrine file prints nothing on standard output" "$(head -c 200 "$TMP/out")"; else
    ok "a bad doctrine file prints nothing on standard output"; fi
sed 's/^  take_over: true/  take_over: maybe/' "$ROOT/scenarios/doctrines/warmaster/default.yaml" \
    >"$TMP/bad-take-over.yaml"
expect_exit 2 "a doctrine file whose take_over is not true or false" "$OM" list --doctrines \
    "$TMP/bad-take-over.yaml"
expect_grep "$TMP/bad-take-over.yaml:" "$TMP/err" "...the bad file is named"
expect_grep "field 'orders.take_over': expected true or false, got 'maybe'" "$TMP/err" \
    "...the field and its value are named"
printf '  heroes_cover: sometimes\n' | cat "$ROOT/scenarios/doctrines/warmaster/default.yaml" - \
    >"$TMP/bad-heroes-cover.yaml"
expect_exit 2 "a doctrine file whose heroes_cover is not true or false" "$OM" list --doctrines \
    "$TMP/bad-heroes-cover.yaml"
expect_grep "field 'orders.heroes_cover': expected true or false, got 'sometimes'" "$TMP/err" \
    "...the field and its value are named"
sed 's/^  support: {weight: 0.6,/  support: {wieght: 0.6,/' "$ROOT/scenarios/doctrines/warmaster/default.yaml" \
    >"$TMP/bad-support-key.yaml"
expect_exit 2 "a doctrine file with an unknown key of the support order" "$OM" list --doctrines \
    "$TMP/bad-support-key.yaml"
expect_match "$TMP/bad-support-key.yaml:[0-9]*: field 'orders.support.wieght'" "$TMP/err" \
    "...the file, line and field are named"
sed 's/^  support: {weight: 0.6,/  support: {weight: 11,/' "$ROOT/scenarios/doctrines/warmaster/default.yaml" \
    >"$TMP/bad-support-weight.yaml"
expect_exit 2 "a doctrine file whose support weight is out of range" "$OM" list --doctrines \
    "$TMP/bad-support-weight.yaml"
expect_match "$TMP/bad-support-weight.yaml:[0-9]*: field 'orders.support.weight': 11 is out of range" \
    "$TMP/err" "...the file, line, field and value are named"
expect_exit 3 "a doctrine file that does not exist" "$OM" list --doctrines "$TMP/none.yaml"
expect_grep "none.yaml" "$TMP/err" "the missing file is named"
expect_exit 1 "--doctrines with --keys" "$OM" list --doctrines --keys
expect_exit 1 "--doctrines with a name that is no file" "$OM" list --doctrines default
expect_exit 0 "list --help names --doctrines" "$OM" list --help
expect_grep "--doctrines" "$TMP/out" "list --help: the option"

tap_end
