#!/bin/sh
# test_cli_chart.sh: the charts a blogger posts unedited, through the command
# line (TAP output for meson).
# Usage: test_cli_chart.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
# Checks the kind chosen when none is asked for (a turn: flags; a volley:
# dist; a run with a winner: odds; a matrix: heatmap); a whole turn's yes/no fields
# as one bar chart with their full labels, the fields picked by --field
# (names and patterns, in the order given) and misspelt ones suggested; that
# dist picks a field the file has and draws a turn's victory points (a
# two-byte count); series of several run files labelled by what differs in
# their records, and a warning when they mix games; a fair chart's footnote
# naming the units left out and why, and the heat map's key of blank cells;
# that drawing again replaces the chart's own OUT.csv but no other file; and
# that every PNG has the size asked for (or the one its bars need).
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_chart
EX=$ROOT/scenarios/examples

# png_size FILE: "WIDTH HEIGHT" from the PNG's header (IHDR, big-endian).
png_size() {
    od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# expect_png FILE WIDTH HEIGHT DESCRIPTION: a PNG of that size.
expect_png() {
    if [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
        not_ok "$4" "$1 is not a PNG"; return; fi
    got=$(png_size "$1")
    if [ "$got" = "$2 $3" ]; then ok "$4 ($got)"; else not_ok "$4" "size $got, expected $2 $3"; fi
}

# --- a whole turn: yes/no fields as one bar chart ---
"$OM" run "$EX/turns/cavalry-wing.yaml" -n 20000 --seed 1 -q -o "$TMP/turn.h5" >/dev/null
expect_exit 0 "a turn without --kind draws its yes/no fields" "$OM" chart "$TMP/turn.h5" -o "$TMP/flags.png"
expect_match "^field,label,p,lo,hi,count,trials,manifest$" "$TMP/flags.png.csv" "the flags CSV's header"
expect_grep "charged@knights,Knights charged,0.347" "$TMP/flags.png.csv" "a unit field's label names the unit, with its probability"
expect_grep "confused@wolf_riders,Wolf Riders is confused at the end of the turn," "$TMP/flags.png.csv" "a unit's label drops the description's closing remark, and the id that repeats its name"
if grep -q "shot_at@knights" "$TMP/flags.png.csv"; then not_ok "a field never set is left out by default"; else ok "a field never set is left out by default"; fi
rows=$(($(wc -l <"$TMP/flags.png.csv") - 1))
expect_png "$TMP/flags.png" 1200 "$(awk -v n="$rows" 'BEGIN { f = 1200 / 66; h = f * (15 + 1.9 * n); h = (h == int(h)) ? h : int(h) + 1; print (h < 600 ? 600 : h) }')" "the flags PNG is as high as its $rows bars need"
expect_exit 0 "the flags chart as SVG" "$OM" chart "$TMP/turn.h5" -o "$TMP/flags.svg"
expect_grep ">Orc Warriors was destroyed</text>" "$TMP/flags.svg" "labels are text, whole"
expect_grep "Not drawn: 31 yes/no fields never set in any trial" "$TMP/flags.svg" "the footnote counts the fields left out"

expect_exit 0 "flags: --field names and patterns" "$OM" chart "$TMP/turn.h5" --kind flags --field destroyed@orc_warriors --field '*@knights' -o "$TMP/pick.png" --width 800
cut -d, -f1 "$TMP/pick.png.csv" | tail -n +2 | tr '\n' ' ' >"$TMP/order"
expect_grep "destroyed@orc_warriors ordered@knights moved@knights charged@knights shot_at@knights engaged@knights still_engaged@knights confused@knights routed@knights destroyed@knights " "$TMP/order" "in the order given, a pattern's matches in file order, never-set fields drawn when named"
expect_png "$TMP/pick.png" 800 "$(awk 'BEGIN { f = 800 / 66; h = f * (15 + 1.9 * 10); print (h == int(h)) ? h : int(h) + 1 }')" "--width sets the width, the height follows the 10 bars"
expect_exit 0 "flags: --height is kept when given" "$OM" chart "$TMP/turn.h5" --field '*@knights' -o "$TMP/fixed.png" --width 900 --height 500
expect_png "$TMP/fixed.png" 900 500 "a flags PNG of the size asked for"
expect_exit 2 "flags: a misspelt field" "$OM" chart "$TMP/turn.h5" --kind flags --field chraged -o "$TMP/x.png"
expect_grep "did you mean 'charged'?" "$TMP/err" "flags: the misspelt field is suggested"
expect_exit 2 "flags: a count named as a yes/no field" "$OM" chart "$TMP/turn.h5" --kind flags --field engagements -o "$TMP/x.png"
expect_grep "draw it with --kind dist --field engagements" "$TMP/err" "flags: a count is sent to dist"
expect_exit 2 "flags: a pattern that matches nothing" "$OM" chart "$TMP/turn.h5" --kind flags --field 'zz_*' -o "$TMP/x.png"
expect_grep "oddsmaster summary" "$TMP/err" "flags: no match says where the fields are listed"
expect_absent "$TMP/x.png" "a refused chart writes no image"
expect_exit 1 "odds takes no --field" "$OM" chart "$TMP/turn.h5" --kind odds --field charged@knights -o "$TMP/x.png"
expect_exit 1 "dist draws one field" "$OM" chart "$TMP/turn.h5" --kind dist --field vp_lost_a --field vp_lost_b -o "$TMP/x.png"
expect_exit 2 "odds of a turn, which has no winner" "$OM" chart "$TMP/turn.h5" --kind odds -o "$TMP/x.png"

# --- a volley: dist of its losses by default; its yes/no fields name the unit ---
"$OM" run "$DATA/corpus/warmaster/volley/blind-rock-lobber.yaml" -n 2000 -q -o "$TMP/volley.h5" >/dev/null
expect_exit 0 "a volley without --kind" "$OM" chart "$TMP/volley.h5" -o "$TMP/volley.png"
expect_match "^field,k,p_equal" "$TMP/volley.png.csv" "...draws dist, of the side's losses"
expect_match "^stands_lost_b,0," "$TMP/volley.png.csv" "...of stands_lost_b, the field deciding B's victory points"
expect_exit 0 "a volley's yes/no fields" "$OM" chart "$TMP/volley.h5" --kind flags -o "$TMP/volleyf.png"
expect_grep "confused_b,Warriors ended confused" "$TMP/volleyf.png.csv" "'unit B' in a label becomes the unit's name"

# --- dist: a field the file has; a turn's victory points ---
expect_exit 0 "dist of a turn picks a field it has" "$OM" chart "$TMP/turn.h5" --kind dist -o "$TMP/dist.png"
expect_match "^vp_lost_b,0,0.849" "$TMP/dist.png.csv" "...side B's victory points, at 0"
expect_match "^vp_lost_b,60,0.083" "$TMP/dist.png.csv" "...and at 60, only the values that occurred"
expect_png "$TMP/dist.png" 1200 700 "the dist PNG's default size"
expect_exit 0 "dist of side A's victory points" "$OM" chart "$TMP/turn.h5" --kind dist --field vp_lost_a -o "$TMP/dista.svg"
expect_grep "Victory points Empire lost in the turn" "$TMP/dista.svg" "the title names the side"
expect_exit 2 "dist of a misspelt field" "$OM" chart "$TMP/turn.h5" --kind dist --field vp_lost_c -o "$TMP/x.png"
expect_grep "did you mean 'vp_lost_a'?" "$TMP/err" "dist: a suggestion among the file's count fields"
expect_exit 2 "dist of a yes/no field" "$OM" chart "$TMP/turn.h5" --kind dist --field charged -o "$TMP/x.png"
expect_grep "--kind flags" "$TMP/err" "dist: a yes/no field is sent to flags"

# --- dist of one unit's values of a count field of the units ---
expect_exit 0 "dist of a unit's count (FIELD@UNIT)" "$OM" chart "$TMP/turn.h5" --kind dist --field stands_lost@orc_warriors -o "$TMP/ud.png"
expect_match "^stands_lost@orc_warriors,0,0.67" "$TMP/ud.png.csv" "...P(= 0) from the unit's tally"
expect_match "^stands_lost@orc_warriors,3,0.08" "$TMP/ud.png.csv" "...every k to the field's largest value"
expect_exit 0 "...as SVG" "$OM" chart "$TMP/turn.h5" --kind dist --field stands_lost@orc_warriors -o "$TMP/ud.svg"
expect_grep "Stands Orc Warriors lost in the turn" "$TMP/ud.svg" "...titled with the unit named"
expect_exit 2 "dist of a misspelt unit" "$OM" chart "$TMP/turn.h5" --kind dist --field stands_lost@orc_warrior -o "$TMP/x.png"
expect_grep "did you mean 'orc_warriors'?" "$TMP/err" "...the unit is suggested"
expect_exit 2 "dist of a unit's yes/no field" "$OM" chart "$TMP/turn.h5" --kind dist --field charged@knights -o "$TMP/x.png"
expect_grep "draw it with --kind flags --field charged@knights" "$TMP/err" "...is sent to flags"

# --- odds: series labelled by what differs ---
"$OM" run "$EX/whole-engagement.yaml" -n 4000 -q -o "$TMP/we1.h5" >/dev/null
sed 's/infantry_pursues_cavalry: false/infantry_pursues_cavalry: true/' "$EX/whole-engagement.yaml" >"$TMP/we2.yaml"
"$OM" run "$TMP/we2.yaml" -n 4000 -q -o "$TMP/we2.h5" >/dev/null
"$OM" run "$EX/whole-engagement.yaml" -n 4000 --seed 5 -q -o "$TMP/we3.h5" >/dev/null
expect_exit 0 "odds of three files (the default kind of a run with a winner)" "$OM" chart "$TMP/we1.h5" "$TMP/we2.h5" "$TMP/we3.h5" -o "$TMP/series.svg"
expect_grep ">infantry_pursues_cavalry=false · seed 1</text>" "$TMP/series.svg" "series 1: the option and, to tell it from series 3, the seed"
expect_grep ">infantry_pursues_cavalry=true · seed 1</text>" "$TMP/series.svg" "series 2: the option toggled"
expect_grep ">infantry_pursues_cavalry=false · seed 5</text>" "$TMP/series.svg" "series 3: the seed"
expect_grep "Knights (110 pts) vs Orc Warriors (60 pts) · warmaster-revolution · engagement" "$TMP/series.svg" "what the files share is the subtitle"
if [ -s "$TMP/err" ]; then not_ok "no warning for files of one game and kind" "$(cat "$TMP/err")"; else ok "no warning for files of one game and kind"; fi
"$OM" run "$EX/whfb7-swordsmen-charge-orc-boyz.yaml" -n 4000 -q -o "$TMP/wh.h5" >/dev/null
expect_exit 0 "odds of a Warmaster and a WHFB7 file" "$OM" chart "$TMP/we1.h5" "$TMP/wh.h5" -o "$TMP/mixed.png"
expect_grep "warning: these files mix games" "$TMP/err" "mixing games is warned of"
expect_grep "wh.h5,whfb7 · Swordsmen (135 pts) vs Orc Boyz (135 pts),win_a" "$TMP/mixed.png.csv" "each series is labelled with its own rule set and units"
expect_grep "we1.h5,warmaster-revolution · Knights (110 pts) vs Orc Warriors (60 pts),win_a" "$TMP/mixed.png.csv" "...the first file's too"
expect_png "$TMP/mixed.png" 1200 600 "the odds PNG's default size"

# --- matrices: the fair chart's footnote and the heat map's key ---
"$OM" matrix warmaster-revolution empire orcs -n 1000 -q -o "$TMP/m.h5" >/dev/null
expect_exit 0 "the heat map (the default kind of a matrix)" "$OM" chart "$TMP/m.h5" -o "$TMP/heat.svg"
expect_grep ">no score: the pair cannot meet here (a unit cannot do what the situation asks)</text>" "$TMP/heat.svg" "a key says what a blank cell means"
expect_exit 0 "the heat map as PNG" "$OM" chart "$TMP/m.h5" -o "$TMP/heat.png" --width 1000 --height 900
expect_png "$TMP/heat.png" 1000 900 "the heat map PNG of the size asked for"
expect_exit 0 "the fair chart" "$OM" chart "$TMP/m.h5" --kind fair -o "$TMP/fair.svg"
expect_grep "Not drawn: Helblaster, Cannon, Rock Lobber (not rated: cannot take part in the selected situations)." "$TMP/fair.svg" "the footnote names the units left out and why"
expect_exit 0 "the fair chart as a small PNG" "$OM" chart "$TMP/m.h5" --kind fair -o "$TMP/fair.png" --width 600 --height 450
expect_png "$TMP/fair.png" 600 450 "the fair PNG of the size asked for"

# --- OUT.csv: an earlier chart's is replaced, any other file is not ---
expect_exit 0 "drawing the same chart again" "$OM" chart "$TMP/turn.h5" -o "$TMP/flags.png"
expect_exit 0 "another kind to the same name replaces the chart's CSV" "$OM" chart "$TMP/turn.h5" --kind dist -o "$TMP/flags.png"
expect_match "^field,k,p_equal" "$TMP/flags.png.csv" "the CSV is the new chart's"
printf 'field,k,p_equal,p_at_least,lo,hi,manifest\nmine,0,1,1,1,1,my own notes\n' >"$TMP/own.png.csv"
expect_exit 2 "a file with a chart's header but not its manifest is kept" "$OM" chart "$TMP/turn.h5" -o "$TMP/own.png"
expect_grep "is not a chart's data that oddsmaster wrote" "$TMP/err" "the refusal says why"
expect_grep "my own notes" "$TMP/own.png.csv" "the user's file is untouched"
expect_absent "$TMP/own.png" "no image either"
cp "$TMP/flags.png.csv" "$TMP/real.csv"
ln -s "$TMP/real.csv" "$TMP/link.png.csv"
expect_exit 2 "a link named OUT.csv is kept, even to a chart's CSV" "$OM" chart "$TMP/turn.h5" -o "$TMP/link.png"
expect_exit 0 "--force replaces it" "$OM" chart "$TMP/turn.h5" -o "$TMP/own.png" --force
expect_match "^field,label,p" "$TMP/own.png.csv" "the forced CSV is the chart's"

tap_end
