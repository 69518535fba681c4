#!/bin/sh
# test_cli.sh: the oddsmaster command line, end to end (TAP output for meson).
# Usage: test_cli.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
# Checks documented exit codes (0 ok, 1 usage, 2 bad input, 3 file I/O or corrupt
# result file), that errors name the file, line and field, and that a failed run
# leaves no output file behind (README "Exit codes").
set -u
OM=$1
DATA=$2
ROOT=$3
TMP=$(mktemp -d /tmp/om_test_cli_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

# expect_exit CODE DESCRIPTION COMMAND...: run, capture stdout/stderr, check the code.
expect_exit() {
    want=$1; what=$2; shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok "$what (exit $got)"; else
        not_ok "$what: exit $got, expected $want" "stderr: $(head -c 400 "$TMP/err")"; fi
}

# expect_grep PATTERN FILE DESCRIPTION
expect_grep() {
    if grep -q -- "$1" "$2"; then ok "$3"; else not_ok "$3" "no '$1' in: $(head -c 400 "$2")"; fi
}

expect_absent() {
    if [ -e "$1" ] || ls "$1".tmp* >/dev/null 2>&1; then not_ok "$2" "$(ls -la "$(dirname "$1")")"; else ok "$2"; fi
}

# --- help and usage ---
expect_exit 0 "oddsmaster --help" "$OM" --help
expect_grep "run" "$TMP/out" "top-level help lists run"
expect_exit 0 "oddsmaster --version" "$OM" --version
for cmd in run summary; do
    expect_exit 0 "oddsmaster $cmd --help" "$OM" "$cmd" --help
    expect_grep "Usage: oddsmaster $cmd" "$TMP/out" "$cmd --help shows its usage"
done
expect_exit 1 "no command" "$OM"
expect_exit 1 "unknown command" "$OM" frobnicate
expect_exit 1 "unknown option" "$OM" run --frobnicate
expect_exit 1 "negative trials" "$OM" run --trials -5 -o "$TMP/x.h5"
expect_grep "trials" "$TMP/err" "negative trials: message names the option"
expect_exit 1 "zero trials" "$OM" run --trials 0 -o "$TMP/x.h5"
expect_exit 1 "non-numeric seed" "$OM" run --seed abc -o "$TMP/x.h5"
expect_absent "$TMP/x.h5" "usage errors write no file"

# --- the default scenario ---
expect_exit 0 "run the embedded default" "$OM" run --trials 20000 --seed 7 -o "$TMP/default.h5"
expect_grep "Knights" "$TMP/out" "the answer names the units"
expect_grep "win" "$TMP/out" "the answer gives win odds"
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
expect_grep "nonexistent.yaml" "$TMP/err" "missing scenario: message names the file"

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
expect_grep "text.h5" "$TMP/err" "non-HDF5: message names the file"
head -c 3000 "$TMP/default.h5" >"$TMP/truncated.h5"
expect_exit 3 "summary of a truncated file" "$OM" summary "$TMP/truncated.h5"
expect_exit 3 "summary of a missing file" "$OM" summary "$TMP/missing.h5"
expect_exit 1 "summary without a file" "$OM" summary

# --- scenarios shipped in scenarios/ run ---
for f in "$ROOT"/scenarios/examples/*.yaml; do
    [ -e "$f" ] || continue
    expect_exit 0 "example $(basename "$f") runs" "$OM" run "$f" --trials 5000 -q -o "$TMP/example.h5"
done

echo "1..$n"
[ "$failed" -eq 0 ]
