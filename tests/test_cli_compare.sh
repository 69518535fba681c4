#!/bin/sh
# test_cli_compare.sh: rule changes across a matrix, and two files side by
# side (TAP output for meson).
# Usage: test_cli_compare.sh PATH/TO/oddsmaster PATH/TO/h5edit SOURCE_ROOT
#
# matrix --option: a reading in force in every cell, recorded in the file and
# in each cell's scenario; malformed, unknown, fixed, foreign and unread
# readings refused with the documented exit code (and did-you-mean), leaving
# no file. compare: the manual's worked example, line for line; two identical
# files (every difference 0, every interval of zero width); the paired
# interval narrower than the independent one; the JSON and CSV forms; runs of
# --trial-streams; files that do not pair (other seeds, --no-rows) said so;
# files that do not compare (a run and a matrix, other units, kinds, games)
# refused with exit 2; damaged, foreign and missing files with exit 3.
set -u
OM=$1
EDIT=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_compare
cd "$TMP" || exit 1

RULES=warmaster-revolution
ROWS=empire/halberdiers,knights
COLS=orcs/orc-warriors,boar-riders

# --- matrix --option ---
expect_exit 0 "matrix of the default readings" \
    "$OM" matrix $RULES $ROWS $COLS -o base.h5 --trial-streams -q
expect_exit 0 "matrix with --option infantry_pursues_cavalry=true" \
    "$OM" matrix $RULES $ROWS $COLS -o pursue.h5 --trial-streams \
    --option infantry_pursues_cavalry=true --cells-dir cells -q
if grep -q '^  infantry_pursues_cavalry: true$' cells/s0_r0_c1.yaml &&
    grep -q '^options:$' cells/s0_r0_c1.yaml; then ok "each cell's scenario holds the reading"
else not_ok "each cell's scenario holds the reading" "$(head -c 600 cells/s0_r0_c1.yaml)"; fi
expect_grep "--trial-streams" cells/s0_r0_c1.yaml "a cell's file says to run it with --trial-streams"
if h5dump -a /options pursue.h5 2>/dev/null | grep -qF '"infantry_pursues_cavalry=true"'; then
    ok "the matrix file records the reading (options attribute)"
else not_ok "the matrix file records the reading (options attribute)"; fi

# option_refused CODE DESCRIPTION MESSAGE OPTION...: a matrix with these
# options exits with CODE, says MESSAGE and leaves no file.
option_refused() {
    code=$1 what=$2 says=$3
    shift 3
    expect_exit "$code" "matrix --option: $what" "$OM" matrix $RULES $ROWS $COLS -o refused.h5 -q "$@"
    expect_grep "$says" "$TMP/err" "matrix --option: $what: the message says why"
    expect_absent "$TMP/refused.h5" "matrix --option: $what: no file"
}
option_refused 1 "not KEY=VALUE" "give KEY=VALUE" --option infantry_pursues_cavalry
option_refused 1 "no value" "give KEY=VALUE" --option max_turns=
option_refused 2 "a misspelt switch" \
    "unknown option 'infantry_pursues_cavalri'; did you mean 'infantry_pursues_cavalry'?" \
    --option infantry_pursues_cavalri=true
option_refused 2 "a name near no switch" "the switches of Warmaster" --option zzzzzzzz=1
option_refused 2 "a switch of the other game" "is a reading of Warhammer Fantasy Battles 7th edition" \
    --option cc_hit_unclamped=true
option_refused 2 "a fixed reading" "is a fixed reading, not a switch" --option stand_floor=true
option_refused 2 "a reading the cells do not read" "which a matrix of engagement cells does not read" \
    --option general_blunders=true
option_refused 2 "a misspelt value" "is true or false, not 'ture'; did you mean 'true'?" \
    --option infantry_pursues_cavalry=ture
option_refused 2 "a count out of range" "is a count from 0 to 100" --option max_turns=101
option_refused 2 "a switch given twice" "is given twice" --option max_turns=2 --option max_turns=3

# The manual's did-you-mean example, as it is printed there.
"$OM" matrix $RULES empire orcs -o m.h5 --option infantry_pursues_cavalri=true 2>"$TMP/err"
line=$(head -n 1 "$TMP/err")
if grep -qxF -- "$line" "$ROOT/docs/manual.md"; then ok "the manual quotes matrix --option's did-you-mean"
else not_ok "the manual quotes matrix --option's did-you-mean" "$line"; fi

# --- compare: the manual's worked example ---
expect_exit 0 "compare base.h5 pursue.h5" "$OM" compare base.h5 pursue.h5
cp "$TMP/out" "$TMP/example"
awk '/^prints, among its lines:$/ { found = 1; next }
     found && /^```$/ { if (inside) exit; inside = 1; next }
     inside' "$ROOT/docs/manual.md" >"$TMP/quoted"
if [ "$(grep -c . "$TMP/quoted")" -ge 10 ]; then ok "the manual quotes the worked example"
else not_ok "the manual quotes the worked example" "$(head -c 300 "$TMP/quoted")"; fi
missing=0
while IFS= read -r line; do
    case "$line" in "" | "...") continue ;; esac
    if ! grep -qxF -- "$line" "$TMP/example"; then
        missing=$((missing + 1))
        not_ok "the manual's line is printed" "$line"
    fi
done <"$TMP/quoted"
if [ "$missing" -eq 0 ]; then ok "every line the manual quotes of the worked example is printed"; fi
expect_grep "paired: both files keep every trial's winner" "$TMP/example" "the example's intervals are paired"

# The manual's claims about the independent intervals.
expect_exit 0 "compare --independent" "$OM" compare base.h5 pursue.h5 --independent
expect_grep "  Halberdiers vs Boar Riders  0.2810    0.1616    -0.1194   [-0.1274, -0.1113]     independent" \
    "$TMP/out" "independent, Halberdiers vs Boar Riders is -0.1194 +-0.008, as the manual says"
expect_grep "  Halberdiers (Empire, row)   33.3      38.9      +5.6      [+5.1, +6.0]           independent bootstrap" \
    "$TMP/out" "independent, the Halberdiers' fair points' interval is about +-0.45, as the manual says"

# --- compare: identical files, and the forms ---
expect_exit 0 "compare a file with itself, as JSON" "$OM" compare pursue.h5 pursue.h5 --format json
json_ok "identical files: every difference 0 in an interval of zero width" \
    'd["schema"] == "oddsmaster-compare/1" and d["paired"] and len(d["rows"]) == 12 and all(r["diff"] == 0 and r["lo"] == 0 and r["hi"] == 0 for r in d["rows"])'
expect_exit 0 "compare as JSON" "$OM" compare base.h5 pursue.h5 --format json
json_ok "JSON: the paired difference counts its discordant trials" \
    '[(r["diff"], r["only_a"], r["only_b"], r["interval"]) for r in d["rows"] if r["key"] == "a-charges/empire/halberdiers/orcs/boar-riders"] == [(-0.11935, 2387, 0, "paired")]'
json_ok "JSON: the files' options and streams" \
    'd["files"][0]["options"] == "" and d["files"][1]["options"] == "infantry_pursues_cavalry=true" and "trial t" in d["files"][1]["rng"]'
expect_exit 0 "compare as CSV" "$OM" compare base.h5 pursue.h5 --format csv
if head -n 1 "$TMP/out" | grep -qxF "section,measure,key,a,b,diff,lo,hi,interval,n_a,n_b,only_a,only_b,a_lo,a_hi,b_lo,b_hi,note" &&
    [ "$(wc -l <"$TMP/out")" -eq 13 ]; then ok "CSV: the header and one row per measure"
else not_ok "CSV: the header and one row per measure" "$(head -c 300 "$TMP/out")"; fi
expect_exit 0 "compare as Markdown" "$OM" compare base.h5 pursue.h5 --format markdown
expect_grep "| Halberdiers vs Boar Riders | 0.2810 | 0.1616 | -0.1194 | [-0.1238, -0.1149] | paired | 2,387 |" \
    "$TMP/out" "Markdown: a table row"

# --- compare: files that do not pair ---
"$OM" matrix $RULES $ROWS $COLS -o seed2.h5 --trial-streams --seed 2 -q >/dev/null
expect_exit 0 "compare matrices of other seeds" "$OM" compare base.h5 seed2.h5
expect_grep "independent: the seeds differ (1, 2)" "$TMP/out" "other seeds: independent, and why"
expect_match "independent  *-$" "$TMP/out" "other seeds: the kind column says independent"
"$OM" matrix $RULES $ROWS $COLS -o norows.h5 --trial-streams --no-rows -q >/dev/null
expect_exit 0 "compare with a matrix of --no-rows" "$OM" compare base.h5 norows.h5
expect_grep "keeps no trial's winner" "$TMP/out" "--no-rows: independent, and why"
"$OM" matrix $RULES $ROWS $COLS -o blocks.h5 -q >/dev/null
expect_exit 0 "compare with a matrix of block streams" "$OM" compare base.h5 blocks.h5
expect_grep "independent: the files drew their dice from different streams" "$TMP/out" \
    "other streams: independent, and why"

# --- compare: two runs ---
sed 's/^options: .*/&\n  max_turns: 1/' "$ROOT/scenarios/examples/whole-engagement.yaml" >short.yaml
expect_exit 0 "run --trial-streams" "$OM" run "$ROOT/scenarios/examples/whole-engagement.yaml" \
    -o r1.h5 --trials 50000 --trial-streams -q
expect_exit 0 "run --trial-streams with max_turns: 1" "$OM" run short.yaml -o r2.h5 --trials 50000 \
    --trial-streams -q
expect_exit 0 "compare two runs" "$OM" compare r1.h5 r2.h5
expect_grep "differences: options.max_turns: 10 -> 1" "$TMP/out" "two runs: the option that differs is named"
expect_grep "(one a trial)" "$TMP/out" "two runs of --trial-streams pair trial by trial"
expect_match "^  P(no result) .* paired " "$TMP/out" "two runs: the engagements cut short are counted, paired"
expect_exit 0 "compare two runs as JSON" "$OM" compare r1.h5 r2.h5 --format json
json_ok "two runs: P(no result) rises by exactly the trials cut short" \
    'all(r["diff"] > 0 and r["only_a"] == 0 and r["only_b"] > 0 for r in d["rows"] if r["key"] == "winner/none")'
expect_exit 1 "run --plain-dice --trial-streams" "$OM" run --plain-dice --trial-streams -o x.h5

# --- compare: files that do not compare ---
expect_exit 2 "compare a run and a matrix" "$OM" compare r1.h5 base.h5
expect_grep "compare two runs or two matrices" "$TMP/err" "a run and a matrix: the message says so"
"$OM" matrix $RULES empire/halberdiers,knights orcs/orc-warriors,trolls -o other.h5 --trial-streams -q >/dev/null
expect_exit 2 "compare matrices of other units" "$OM" compare base.h5 other.h5
expect_grep "column unit 1 of base.h5 is orcs/boar-riders and of other.h5 orcs/trolls" "$TMP/err" \
    "other units: the unit is named"
"$OM" matrix $RULES $ROWS $COLS -o combat.h5 --kind combat --trial-streams -q >/dev/null
expect_exit 2 "compare matrices of other kinds" "$OM" compare base.h5 combat.h5
expect_grep "compare two matrices of one kind" "$TMP/err" "other kinds: the message says so"
"$OM" matrix whfb7 empire/swordsmen,halberdiers orcs-goblins/orc-boyz,trolls -o wh7.h5 \
    --trials 4000 --trial-streams -q >/dev/null
expect_exit 0 "a WHFB7 matrix with --option cc_hit_unclamped=true" "$OM" matrix whfb7 \
    empire/swordsmen,halberdiers orcs-goblins/orc-boyz,trolls -o wh7b.h5 --trials 4000 \
    --trial-streams --option cc_hit_unclamped=true -q
expect_exit 0 "compare two WHFB7 matrices" "$OM" compare wh7.h5 wh7b.h5
expect_grep "differences: options: (none) -> cc_hit_unclamped=true" "$TMP/out" \
    "WHFB7: the reading is recorded and named"
expect_grep "(one a trial)" "$TMP/out" "WHFB7: the matrices pair trial by trial"
expect_exit 2 "compare matrices of two games" "$OM" compare base.h5 wh7.h5
expect_grep "compare two matrices of one game" "$TMP/err" "two games: the message says so"
expect_exit 1 "compare of one file" "$OM" compare base.h5

# --- compare: damaged, foreign and missing files ---
cp pursue.h5 damaged.h5
if "$EDIT" chunk damaged.h5 /trials/winner 1 flip mid 2>"$TMP/edit"; then
    expect_exit 3 "compare with a damaged chunk of winners" "$OM" compare base.h5 damaged.h5
    expect_grep "damaged.h5: /trials/winner, the winners of cell (situation a-charges, row Halberdiers, column Boar Riders), trials 0..19999: the data are damaged" \
        "$TMP/err" "the damaged cell and its trials are named"
    if [ -s "$TMP/out" ]; then not_ok "nothing printed of a damaged file" "$(head -c 200 "$TMP/out")"
    else ok "nothing printed of a damaged file"; fi
else not_ok "h5edit flips a chunk of /trials/winner" "$(cat "$TMP/edit")"; fi
cp pursue.h5 cells.h5
"$EDIT" chunk cells.h5 /cells/wins_row 0 flip mid 2>/dev/null
expect_exit 3 "compare with damaged cells" "$OM" compare cells.h5 base.h5
expect_grep "the data are damaged" "$TMP/err" "damaged cells: said"
echo "not HDF5" >text.h5
expect_exit 3 "compare with a file that is not HDF5" "$OM" compare base.h5 text.h5
expect_exit 3 "compare with a missing file" "$OM" compare base.h5 missing.h5
expect_grep "missing.h5" "$TMP/err" "a missing file is named"

tap_end
