#!/bin/sh
# test_cli_matrix_lists.sh: matrices of army lists (matrix --lists) and their
# summary (TAP output for meson).
# Usage: test_cli_matrix_lists.sh PATH/TO/oddsmaster SOURCE_ROOT
#
# A list matrix of examples and of a folder: the file's legs, lists and
# provenance, the same file on one thread or two, its summary (pooled odds,
# each leg, the first-turn and zone effects), the pooled odds of a bare table
# against `battle` of the same lists with the first turn rolled (five
# standard errors); the options of a matrix of units refused with --lists and
# those of --lists without it (exit 1); a folder holding a file that is no
# list, an unknown list, lists of two rule sets and a bad terrain method
# refused with exit 2, naming the file, and no matrix file left.
set -u
OM=$1
ROOT=$2
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_matrix_lists
cd "$TMP" || exit 1

A=revolution-empire-steel-and-shot
B=revolution-orcs-horde
SHORT="--length fixed --turns 2"

expect_exit 0 "matrix --lists of two example lists" \
    "$OM" matrix --lists $A $B -o m1.h5 --battles 40 --seed 7 $SHORT --terrain dice-for-edges \
    --threads 1 -q
expect_grep "1 lists x 1 lists, 4 legs of 40 battles" "$TMP/out" "the closing line says what ran"
expect_exit 0 "the same on two threads" \
    "$OM" matrix --lists $A $B -o m2.h5 --battles 40 --seed 7 $SHORT --terrain dice-for-edges \
    --threads 2 -q
for d in /cells/wins_row /cells/margin_sq_sum /trials/winner /trials/margin; do
    if [ "$(h5dump -d $d m1.h5 | tail -n +2)" = "$(h5dump -d $d m2.h5 | tail -n +2)" ]; then
        ok "$d is the same on one thread or two"
    else not_ok "$d is the same on one thread or two"; fi
done
h5dump -d /situations/name m1.h5 >legs.txt 2>&1
expect_grep '"south-a-first", "south-b-first", "north-a-first", "north-b-first"' legs.txt \
    "the situations are the four legs"
h5dump -a /kind m1.h5 >kind.txt 2>&1
expect_grep '"battle"' kind.txt "the file's kind is battle"
h5dump -d /rows/id m1.h5 >ids.txt 2>&1
expect_grep "$A" ids.txt "the rows name the list as given"

expect_exit 0 "summary of a list matrix" "$OM" summary m1.h5
expect_match '^List matrix: m1.h5' "$TMP/out" "the summary names the file"
expect_match '^A: Steel and shot (empire, 2000 points) against B: Green horde' "$TMP/out" \
    "the summary names the lists, armies and points"
expect_match '^  pooled over the legs (160 battles)' "$TMP/out" "the odds pooled over the legs"
expect_match '^  north-b-first ' "$TMP/out" "each leg's odds"
expect_match '^  first turn (A first less B first): P(A wins) [-+]0\.[0-9]* \[' "$TMP/out" \
    "the first-turn effect with its interval"
expect_match '^  zones (A south less A north): *P(A wins) [-+]0\.[0-9]* \[' "$TMP/out" \
    "the zone effect with its interval"
expect_grep "paired battle by battle" "$TMP/out" "the intervals are paired"
expect_exit 1 "summary of a list matrix is text only" "$OM" summary m1.h5 --format json
# The heatmap of a list matrix, its legs pooled: lists, not units, rated.
expect_exit 0 "chart of a list matrix, every leg pooled" "$OM" chart m1.h5 --situation all \
    -o heat.svg
expect_grep "expected score of the row list" heat.svg "...titled for lists"
if grep -q "row unit" heat.svg; then not_ok "...not for units"; else ok "...not for units"; fi
expect_grep "Steel and shot" heat.svg "...each row labelled by its list's name"

expect_exit 0 "matrix --lists --no-rows" \
    "$OM" matrix --lists $A $B -o norows.h5 --battles 40 --seed 7 $SHORT --no-rows -q
expect_exit 0 "summary of a list matrix without rows" "$OM" summary norows.h5
expect_grep "the legs taken as independent" "$TMP/out" "without rows the legs are independent"

# The pooled odds of a bare table (zones change nothing there, the first turn
# is A's in half the legs) against `battle` with the first turn rolled: one
# question, two estimates, within five standard errors.
"$OM" matrix --lists $A $B -o bare.h5 --battles 200 --seed 3 $SHORT -q >/dev/null 2>&1
"$OM" summary bare.h5 >bare.txt 2>&1
"$OM" battle $A $B -o battle.h5 --battles 800 --seed 3 $SHORT -q >battle.txt 2>&1
pm=$(sed -n 's/^    P(A wins) \([0-9.]*\) .*/\1/p' bare.txt)
pb=$(awk '$1 == "A" && NF > 3 { print $2; exit }' battle.txt)
if [ -n "$pm" ] && [ -n "$pb" ] && awk -v a="$pm" -v b="$pb" 'BEGIN {
        se = sqrt(a * (1 - a) / 800 + b * (1 - b) / 800); d = a - b; if (d < 0) d = -d;
        exit !(d <= 5 * se) }'; then
    ok "the pooled P(A wins) ($pm) agrees with battle's ($pb)"
else not_ok "the pooled P(A wins) agrees with battle's" "matrix $pm, battle $pb"; fi

# A folder of lists: every *.yaml in it.
mkdir lists
cp "$ROOT/scenarios/lists/warmaster/revolution-orcs-horde.yaml" \
    "$ROOT/scenarios/lists/warmaster/revolution-orcs-riders.yaml" lists/
expect_exit 0 "matrix --lists with a folder of lists" \
    "$OM" matrix --lists $A lists -o folder.h5 --battles 4 $SHORT -q
expect_grep "1 lists x 2 lists" "$TMP/out" "the folder's two lists are the columns"

# Ratings of the lists (efficiency of a list matrix): a pool of two lists a
# side, the strengths, the terms, the lists the matrix cannot tell apart.
expect_exit 0 "a pool of four lists" \
    "$OM" matrix --lists $A,revolution-empire-knightly-host lists -o pool.h5 --battles 12 \
    $SHORT -q
expect_exit 0 "efficiency of a list matrix" "$OM" efficiency pool.h5 --replicates 50
expect_grep "List ratings of pool.h5" "$TMP/out" "the ratings name the file"
expect_grep "bootstrap of" "$TMP/out" "the intervals are the bootstrap's over battles"
expect_match '^  Knightly host ' "$TMP/out" "every list of the pool is rated"
expect_match '^  first turn (A first less B first) *[-+][0-9.]* \[' "$TMP/out" \
    "the first-turn term with its interval"
expect_match '^  zones (A south less A north) *[-+][0-9.]* \[' "$TMP/out" \
    "the zone term with its interval"
expect_grep "warning: the matrix cannot tell" "$TMP/out" \
    "twelve battles a leg cannot tell the lists apart: a warning says so"
expect_exit 1 "efficiency of a list matrix is text" "$OM" efficiency pool.h5 --format json
expect_exit 0 "efficiency of a list matrix without rows" "$OM" efficiency norows.h5 \
    --interval covariance
"$OM" matrix --lists $A $A -o self.h5 --battles 4 $SHORT -q >/dev/null 2>&1
expect_exit 2 "a list against itself alone is nothing to rate" "$OM" efficiency self.h5
expect_grep "one list in the pool" "$TMP/err" "the message says why a list alone is not rated"

# Usage errors (exit 1) and bad input (exit 2), each leaving no file.
expect_exit 1 "--trials with --lists" "$OM" matrix --lists $A $B -o u.h5 --trials 5
expect_grep "--trials is for a matrix of units" "$TMP/err" "the message says why"
expect_exit 1 "--battles without --lists" \
    "$OM" matrix warmaster-revolution empire orcs -o u.h5 --battles 5
expect_exit 1 "three operands with --lists" "$OM" matrix --lists $A $B $B -o u.h5
expect_absent "$TMP/u.h5" "no file after a usage error"

mkdir bad
cp lists/revolution-orcs-horde.yaml bad/
printf 'schema: oddsmaster-scenario/1\nkind: combat\n' >bad/zz-not-a-list.yaml
expect_exit 2 "a folder with a file that is no list" \
    "$OM" matrix --lists $A bad -o refused.h5 --battles 2 -q
expect_grep "zz-not-a-list.yaml" "$TMP/err" "the message names the file"
expect_absent "$TMP/refused.h5" "no file for a folder with a file that is no list"
expect_exit 2 "an unknown list" "$OM" matrix --lists revolution-empire-steel-and-shoot $B \
    -o refused.h5 --battles 2 -q
expect_grep "did you mean '$A'" "$TMP/err" "the nearest list is suggested"
expect_exit 2 "lists of two rule sets" "$OM" matrix --lists $A,1.1-orcs-waaagh $B \
    -o refused.h5 --battles 2 -q
expect_grep "1.1-orcs-waaagh" "$TMP/err" "the message names the list of the other rule set"
expect_exit 2 "a bad terrain method" "$OM" matrix --lists $A $B -o refused.h5 --battles 2 \
    --terrain dice-for-edge -q
expect_exit 2 "a deployment that decides the first turn itself" \
    "$OM" matrix --lists $A $B -o refused.h5 --battles 2 --deployment one-side-first -q
expect_grep "first" "$TMP/err" "the message names the first turn"
expect_absent "$TMP/refused.h5" "no file after bad input"

# The help and the manual tell of it.
"$OM" matrix --help >help.txt 2>&1
expect_grep "oddsmaster matrix --lists ROWS COLS" help.txt "matrix --help gives the usage"
expect_grep "four legs" help.txt "matrix --help tells of the legs"
expect_grep "matrix --lists ROWS COLS" "$ROOT/docs/manual.md" "the manual gives the usage"

tap_end
