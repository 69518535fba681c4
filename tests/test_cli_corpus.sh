#!/bin/sh
# test_cli_corpus.sh: the scenario corpus through the command line (TAP output
# for meson), the exit codes and messages a user sees.
# Usage: test_cli_corpus.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
# Every file of tests/data/corpus/GAME/KIND runs (`run --trials 64`, exit 0, a
# result file); every file of tests/data/corpus/GAME/bad is refused with exit
# 2, the message its first line expects after "FILE:", and no output file;
# text that is not text (a NUL byte, binary bytes, UTF-16) likewise; and the
# manual's "Whole turns" example, with its terrain, runs.
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_corpus

# --- every file the loaders accept runs ---
for f in "$DATA"/corpus/*/*/*.yaml; do
    case "$f" in */bad/*) continue ;; esac
    name=${f#"$DATA"/corpus/}
    rm -f "$TMP/good.h5"
    expect_exit 0 "runs: $name" "$OM" run "$f" --trials 64 -q -o "$TMP/good.h5"
    [ -s "$TMP/good.h5" ] && ok "a result file: $name" || not_ok "a result file: $name"
done

# --- every file the loaders refuse: exit 2, its message, no output file ---
for f in "$DATA"/corpus/*/bad/*.yaml; do
    name=${f#"$DATA"/corpus/}
    expected=$(sed -n '1s/^# expect: //p' "$f")
    expect_exit 2 "refused: $name" "$OM" run "$f" --trials 64 -q -o "$TMP/bad.h5"
    expect_grep "oddsmaster run: error: $f:$expected" "$TMP/err" "the file, line, field and reason: $name"
    expect_absent "$TMP/bad.h5" "no output file: $name"
done

# --- text that is not text ---
# not_text NAME DESCRIPTION EXPECTED_MESSAGE: $TMP/NAME.yaml is refused so.
not_text() {
    expect_exit 2 "$2" "$OM" run "$TMP/$1.yaml" --trials 64 -q -o "$TMP/$1.h5"
    expect_grep "$1.yaml:$3" "$TMP/err" "$2: what is wrong, and where"
    expect_absent "$TMP/$1.h5" "$2: no output file"
}
printf '\000schema: oddsmaster-scenario/1\n' >"$TMP/nul_first.yaml"
not_text nul_first "a NUL byte first, never 'the file is empty'" \
    "1: field '(document)': the file is not text: it holds a NUL byte (line 1, column 1)"
sed '3s/^/ \x00/' "$DATA/corpus/warmaster/combat/inline-units.yaml" >"$TMP/nul_inside.yaml"
not_text nul_inside "a NUL byte inside" \
    "3: field '(document)': the file is not text: it holds a NUL byte (line 3, column 2)"
printf '\211PNG\r\n\032\n\001\002' >"$TMP/binary.yaml"
not_text binary "binary bytes" "1: field '(document)': the file is not text"
printf '\377\376s\000c\000h\000' >"$TMP/utf16.yaml"
not_text utf16 "a file saved as UTF-16" \
    "1: field '(document)': the file is UTF-16 text; save it as UTF-8"

# --- the manual's "Whole turns" example, terrain included, runs ---
awk '/^##+ Whole turns/ { part = 1 } part && /^```yaml/ { inside = 1; next }
     inside && /^```/ { exit } inside' "$ROOT/docs/manual.md" >"$TMP/manual-turn.yaml"
if grep -q '^terrain:' "$TMP/manual-turn.yaml"; then ok "the manual's turn example has terrain"
else not_ok "the manual's turn example has terrain" "$(head -c 300 "$TMP/manual-turn.yaml")"; fi
expect_exit 0 "the manual's turn example runs" "$OM" run "$TMP/manual-turn.yaml" \
    --trials 1000 -q -o "$TMP/manual-turn.h5"

tap_end
