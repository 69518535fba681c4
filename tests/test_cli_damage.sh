#!/bin/sh
# test_cli_damage.sh: nothing damaged is read as data (TAP output for meson).
# Usage: test_cli_damage.sh PATH/TO/oddsmaster PATH/TO/h5edit SOURCE_ROOT
#
# Result files, an interrupted run's .partial file and a matrix file are
# damaged as a disk or a copy would damage them: bytes flipped or zeroed
# inside a chunk of rows, of tallies, of cells or of an axis (h5edit finds the
# chunk with H5Dget_chunk_info), rows rewritten so that they disagree with the
# tallies, attributes of the run edited, the file truncated, bytes of its
# metadata flipped. Every reader that reads what is damaged (summary, summary
# --from-rows, chart, efficiency, run --resume) refuses with exit 3 and a
# message naming the file, the dataset and the rows, and writes nothing; a
# refused resume leaves the .partial file as it was. Then the temporary files
# of runs (judged by their lock, not their process id), a battle file's
# victory points of each unit damaged or missing, and two full disks
# (matrix --cells-dir, a PDF chart), which must say the system's reason and
# leave no file.
set -u
OM=$1
EDIT=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_damage

# expect_silent DESCRIPTION: the last command printed nothing on stdout.
expect_silent() {
    if [ -s "$TMP/out" ]; then not_ok "$1" "stdout: $(head -c 200 "$TMP/out")"; else ok "$1"; fi
}

# same FILE COPY DESCRIPTION: FILE is byte for byte COPY.
same() {
    if cmp -s "$1" "$2"; then ok "$3"; else not_ok "$3"; fi
}

# damaged NAME FROM EDIT-ARGS...: a copy of FROM as $TMP/NAME, edited by h5edit
# (its FILE argument is the copy); a failed edit is a failed check, and leaves
# no file (nothing sound is taken for damaged).
damaged() {
    name=$1 from=$2 op=$3
    shift 3
    cp "$from" "$TMP/$name"
    if "$EDIT" "$op" "$TMP/$name" "$@" 2>"$TMP/edit"; then ok "h5edit $op $name $*"; else
        not_ok "h5edit $op $name $*" "$(tr '\n' ' ' <"$TMP/edit")"
        rm -f "$TMP/$name"
    fi
}

# varied FILE: a /trials dataset of FILE whose second chunk has bytes that are
# not zero (zeroing them changes the file), the one of the largest chunk.
varied() {
    for ds in $(h5ls "$1/trials" | awk '$2 == "Dataset" {print $1}'); do
        echo "$("$EDIT" chunks "$1" "/trials/$ds" 2>/dev/null | awk '$1 == 1 {print $3}') $ds"
    done | sort -rn | while read -r size ds; do
        cp "$1" "$TMP/scratch.h5"
        if [ -n "$size" ] && "$EDIT" chunk "$TMP/scratch.h5" "/trials/$ds" 1 zero data 8 2>/dev/null; then
            echo "$ds"
            break
        fi
    done
}

# --- a run file with rows: 50000 trials, chunks of rows 0..16383, 16384..32767, ...
"$OM" run --trials 50000 -q -t 1 -o "$TMP/good.h5" >/dev/null 2>&1
expect_exit 0 "summary --from-rows of a sound file" "$OM" summary "$TMP/good.h5" --from-rows
expect_exit 0 "h5dump reads and checks every dataset of a sound file" h5dump "$TMP/good.h5"
if h5dump -p -H "$TMP/good.h5" | grep -q "CHECKSUM FLETCHER32"; then
    n_sets=$(h5dump -p -H "$TMP/good.h5" | grep -c 'DATASET "')
    n_sums=$(h5dump -p -H "$TMP/good.h5" | grep -c "CHECKSUM FLETCHER32")
    if [ "$n_sets" -eq "$n_sums" ]; then ok "every dataset carries the Fletcher-32 checksum ($n_sums)"; else
        not_ok "every dataset carries the Fletcher-32 checksum" "$n_sums of $n_sets"; fi
else
    not_ok "the datasets carry the Fletcher-32 checksum"
fi

# h5py, where it is installed, finds the checksum on every dataset and reads
# them all (so verifies them), and refuses a damaged chunk too (below).
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    if /usr/bin/python3 - "$TMP/good.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
seen = []
def check(name, obj):
    if isinstance(obj, h5py.Dataset):
        assert obj.fletcher32, name
        obj[()]
        seen.append(name)
f.visititems(check)
assert len(seen) > 20
PY
    then ok "h5py: every dataset has its checksum and reads"; else not_ok "h5py: every dataset has its checksum and reads"; fi
else
    ok "h5py: every dataset has its checksum # SKIP python3-h5py not installed"
fi

# Bytes flipped inside the second chunk of a row dataset.
damaged rows-flip.h5 "$TMP/good.h5" chunk /trials/hits_on_b 1 flip mid
expect_exit 3 "summary --from-rows of flipped rows" "$OM" summary "$TMP/rows-flip.h5" --from-rows
expect_grep "rows-flip.h5: /trials/hits_on_b, rows 16384..32767: the data are damaged" "$TMP/err" "the file, the dataset and the rows of the damaged chunk are named"
expect_silent "no summary printed"
expect_exit 0 "summary (the tallies alone, sound) of flipped rows" "$OM" summary "$TMP/rows-flip.h5"
if h5dump -d /trials/hits_on_b "$TMP/rows-flip.h5" >/dev/null 2>&1; then
    not_ok "h5dump refuses the damaged chunk too"; else ok "h5dump refuses the damaged chunk too"; fi
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    if /usr/bin/python3 -c 'import sys, h5py; h5py.File(sys.argv[1], "r")["trials/hits_on_b"][:]' \
        "$TMP/rows-flip.h5" 2>"$TMP/py"; then not_ok "h5py refuses the damaged chunk too"; else
        expect_grep "Fletcher32" "$TMP/py" "h5py refuses the damaged chunk too"; fi
else
    ok "h5py refuses the damaged chunk too # SKIP python3-h5py not installed"
fi
# A chunk of a unit's column (per-unit results, a whole turn's) flipped: the
# file, the dataset, the rows and the unit are named.
"$OM" run "$ROOT/scenarios/examples/turns/cavalry-wing.yaml" --trials 20000 -q -t 1 \
    -o "$TMP/turn.h5" >/dev/null 2>&1
expect_exit 0 "summary --from-rows of a sound turn file" "$OM" summary "$TMP/turn.h5" --from-rows
n_sets=$(h5dump -p -H "$TMP/turn.h5" | grep -c 'DATASET "')
n_sums=$(h5dump -p -H "$TMP/turn.h5" | grep -c "CHECKSUM FLETCHER32")
if [ "$n_sets" -eq "$n_sums" ] && h5dump -p -H "$TMP/turn.h5" | grep -q 'DATASET "table"'; then
    ok "every dataset of a turn file, /units's too, carries the checksum ($n_sums)"; else
    not_ok "every dataset of a turn file carries the checksum" "$n_sums of $n_sets"; fi
damaged turn-flip.h5 "$TMP/turn.h5" chunk /units/stands_lost 3 flip mid
expect_exit 3 "summary --from-rows of a flipped unit chunk" "$OM" summary "$TMP/turn-flip.h5" --from-rows
expect_match "turn-flip.h5: /units/stands_lost, rows [0-9]*\.\.[0-9]* of unit [a-z_]*: the data are damaged" "$TMP/err" "the file, the dataset, the rows and the unit of the damaged chunk are named"
expect_silent "no summary of a damaged unit chunk printed"

# Bytes zeroed inside the third chunk of the winner's rows.
damaged rows-zero.h5 "$TMP/good.h5" chunk /trials/winner 2 zero data 8
expect_exit 3 "summary --from-rows of zeroed rows" "$OM" summary "$TMP/rows-zero.h5" --from-rows
expect_grep "/trials/winner, rows 32768..49151: the data are damaged" "$TMP/err" "zeroed rows: the dataset and the rows are named"
# The last, short chunk: the rows it holds.
damaged rows-last.h5 "$TMP/good.h5" chunk /trials/hits_on_b 3 flip 30
expect_exit 3 "summary --from-rows of the last chunk damaged" "$OM" summary "$TMP/rows-last.h5" --from-rows
expect_grep "rows 49152..49999" "$TMP/err" "the last chunk's rows stop at the last trial"

# Tallies: every reader of them refuses.
damaged tally-flip.h5 "$TMP/good.h5" chunk /tallies/hits_on_b 0 flip mid
damaged tally-zero.h5 "$TMP/good.h5" chunk /tallies/winner 0 zero 0 8
for f in tally-flip tally-zero; do
    for how in "" --from-rows; do
        # shellcheck disable=SC2086
        expect_exit 3 "summary $how of $f" "$OM" summary "$TMP/$f.h5" $how
        expect_match "$f.h5: /tallies/[a-z_]*, counts of values 0\.\.[0-9]*: the data are damaged" "$TMP/err" "summary $how of $f: the tally's dataset is named"
        expect_silent "summary $how of $f prints nothing"
    done
    for kind in odds dist; do
        expect_exit 3 "chart --kind $kind of $f" "$OM" chart "$TMP/$f.h5" --kind $kind -o "$TMP/$f.png"
        expect_grep "the data are damaged" "$TMP/err" "chart --kind $kind of $f: the damage is said"
        expect_absent "$TMP/$f.png" "chart --kind $kind of $f writes no image"
        expect_absent "$TMP/$f.png.csv" "chart --kind $kind of $f writes no data"
    done
done

# Rows that disagree with the tallies, each chunk's checksum right (rewritten
# through HDF5): summary --from-rows names the field, the value and the counts.
damaged disagree.h5 "$TMP/good.h5" rewrite /trials/hits_on_b 5 200
expect_exit 3 "summary --from-rows of rows that disagree with the tallies" "$OM" summary "$TMP/disagree.h5" --from-rows
expect_grep "disagree.h5: the rows and the tallies differ" "$TMP/err" "the disagreement is said"
expect_grep "hits_on_b = 200: 1 rows, the tally 0" "$TMP/err" "field, value and both counts are named"
expect_silent "no summary printed of rows that disagree"

# The run's attributes edited: the digest written when it began tells.
damaged seed.h5 "$TMP/good.h5" u64 seed 77
expect_exit 3 "summary of a file whose seed was edited" "$OM" summary "$TMP/seed.h5"
expect_grep "seed.h5: seed is not what the digest of the run" "$TMP/err" "the edited seed is named"
damaged yaml.h5 "$TMP/good.h5" text scenario_yaml "title: another fight"
expect_exit 3 "chart of a file whose scenario was edited" "$OM" chart "$TMP/yaml.h5" --kind odds -o "$TMP/yaml.png"
expect_grep "scenario_yaml is not what the digest" "$TMP/err" "the edited scenario is named"
expect_absent "$TMP/yaml.png" "no chart of an edited file"

# A truncated file, and bytes of its metadata flipped: a clear error, never a crash.
size=$(wc -c <"$TMP/good.h5")
cp "$TMP/good.h5" "$TMP/short.h5"
truncate -s $((size / 2)) "$TMP/short.h5"
for how in "" --from-rows; do
    # shellcheck disable=SC2086
    expect_exit 3 "summary $how of a truncated file" "$OM" summary "$TMP/short.h5" $how
    expect_match "short.h5.*truncated" "$TMP/err" "summary $how: the truncation is said"
done
# The file's first 6000 bytes (superblock, root group, its attributes, /trials)
# and its last 8000 (what the run's end wrote: /tallies, the end's attributes,
# the chunk indexes). HDF5 1.10 leaks a little of its own memory when an object
# header fails its checksum (in the sanitizer build, LeakSanitizer's report and
# exit status): leaks are not looked for here, crashes are.
crashes=0 silent=0 tried=0
for at in $(seq 0 61 6000) $(seq $((size - 8000)) 67 $((size - 1))); do
    cp "$TMP/good.h5" "$TMP/meta.h5"
    printf '%s' "$(dd if="$TMP/meta.h5" bs=1 skip="$at" count=1 2>/dev/null | od -An -tu1 | tr -d ' ')" >"$TMP/byte"
    b=$(cat "$TMP/byte")
    printf "$(printf '\\%03o' $(((${b:-0} + 0) ^ 255)))" |
        dd of="$TMP/meta.h5" bs=1 seek="$at" conv=notrunc 2>/dev/null
    ASAN_OPTIONS=detect_leaks=0 "$OM" summary "$TMP/meta.h5" >/dev/null 2>"$TMP/err"
    got=$?
    tried=$((tried + 1))
    if [ "$got" -ne 0 ] && [ "$got" -ne 3 ]; then
        crashes=$((crashes + 1))
        echo "# byte $at: exit $got: $(head -c 200 "$TMP/err" | tr '\n' ' ')"
    fi
    if [ "$got" -eq 3 ] && ! grep -q "meta.h5" "$TMP/err"; then silent=$((silent + 1)); fi
done
if [ "$crashes" -eq 0 ]; then ok "metadata flipped at $tried places: exit 0 or 3, never a crash"; else
    not_ok "metadata flipped at $tried places: $crashes crashes or other exits"; fi
if [ "$silent" -eq 0 ]; then ok "each refusal of damaged metadata names the file"; else
    not_ok "$silent refusals of damaged metadata do not name the file"; fi

# --- an interrupted run: its .partial file damaged or edited, resumed ---
turn=$(ls "$ROOT"/scenarios/examples/turns/*.yaml | head -n 1)
"$OM" run "$turn" --trials 16384 -q -t 1 --seed 3 -o "$TMP/one.h5" >/dev/null 2>&1
block=$(wc -c <"$TMP/one.h5")
"$OM" run "$turn" --trials 2000000 -q -t 1 --seed 3 -o "$TMP/p.h5" >/dev/null 2>"$TMP/perr" &
pid=$!
# Interrupted once its temporary file holds a few blocks of rows.
for _ in $(seq 600); do
    size=$(stat -c %s "$TMP/p.h5.tmp-$pid" 2>/dev/null || echo 0)
    [ "$size" -gt $((4 * block)) ] && break
    sleep 0.05
done
kill -INT $pid
wait $pid
got=$?
if [ "$got" -eq 5 ] && [ -s "$TMP/p.h5.partial" ]; then ok "an interrupted run leaves its .partial file"; else
    not_ok "an interrupted run leaves its .partial file (exit $got)" "$(head -c 300 "$TMP/perr")"; fi
mv "$TMP/p.h5.partial" "$TMP/sound.partial"
ds=$(varied "$TMP/sound.partial")
damaged p1.h5.partial "$TMP/sound.partial" chunk "/trials/$ds" 1 flip mid
damaged p2.h5.partial "$TMP/sound.partial" chunk "/trials/$ds" 1 zero data 8
damaged p3.h5.partial "$TMP/sound.partial" u64 seed 77
damaged p4.h5.partial "$TMP/sound.partial" text scenario_yaml "title: another fight"
damaged p5.h5.partial "$TMP/sound.partial" chunk "/tallies/$ds" 0 flip mid
damaged p6.h5.partial "$TMP/sound.partial" rewrite "/trials/$ds" 7 250
for k in 1 2 3 4 5 6; do
    cp "$TMP/p$k.h5.partial" "$TMP/before"
    expect_exit 3 "run --resume of .partial file $k (damaged or edited)" "$OM" run --resume "$TMP/p$k.h5.partial" -q
    case $k in
    1 | 2) expect_grep "p$k.h5.partial: /trials/$ds, rows 16384..32767: the data are damaged" "$TMP/err" "resume $k: the damaged rows are named" ;;
    3) expect_grep "p3.h5.partial: seed is not what the digest of the run" "$TMP/err" "resume 3: the edited seed (3 -> 77) is named" ;;
    4) expect_grep "p4.h5.partial: scenario_yaml is not what the digest of the run" "$TMP/err" "resume 4: the edited scenario is named" ;;
    5) expect_grep "p5.h5.partial: /tallies/$ds, counts of values" "$TMP/err" "resume 5: the damaged tally is named" ;;
    6) expect_grep "p6.h5.partial: the rows and the tallies differ" "$TMP/err" "resume 6: rows that disagree are found" ;;
    esac
    same "$TMP/p$k.h5.partial" "$TMP/before" "a refused resume $k leaves the .partial file as it was"
    expect_absent "$TMP/p$k.h5" "a refused resume $k writes no result"
done

# --- a matrix: cells and axes damaged ---
"$OM" matrix warmaster-revolution empire/knights,halberdiers orcs/orc-warriors,trolls,goblins \
    --situation a-charges --situation b-charges -n 500 -q -t 1 -o "$TMP/m.h5" >/dev/null 2>&1
expect_exit 0 "h5dump reads and checks every dataset of a matrix" h5dump "$TMP/m.h5"
expect_exit 0 "efficiency of a sound matrix" "$OM" efficiency "$TMP/m.h5"
damaged cells-flip.h5 "$TMP/m.h5" chunk /cells/wins_row 1 flip mid
damaged cells-zero.h5 "$TMP/m.h5" chunk /cells/trials 0 zero 0 8
damaged axis-flip.h5 "$TMP/m.h5" chunk /rows/name 0 flip 0
for f in cells-flip cells-zero axis-flip; do
    expect_exit 3 "efficiency of $f" "$OM" efficiency "$TMP/$f.h5"
    expect_silent "efficiency of $f prints nothing"
    case $f in
    cells-flip) expect_grep "cells-flip.h5: /cells/wins_row, the cells of situation b-charges [1][0..1][0..2]: the data are damaged" "$TMP/err" "the situation of the damaged cells is named" ;;
    cells-zero) expect_grep "cells-zero.h5: /cells/trials, the cells of situation a-charges [0][0..1][0..2]" "$TMP/err" "zeroed cells: the dataset and situation are named" ;;
    axis-flip) expect_grep "axis-flip.h5: /rows/name, entries 0..1: the data are damaged" "$TMP/err" "a damaged axis is named" ;;
    esac
    for kind in heatmap fair; do
        expect_exit 3 "chart --kind $kind of $f" "$OM" chart "$TMP/$f.h5" --kind $kind -o "$TMP/$f-$kind.svg"
        expect_absent "$TMP/$f-$kind.svg" "chart --kind $kind of $f writes no image"
    done
done

# --- temporary files: judged by their lock, not their process id ---
: >"$TMP/reused.h5.tmp-1"
expect_exit 0 "a leftover named after a live process (1) that writes nothing" "$OM" run --trials 1000 -o "$TMP/reused.h5"
expect_grep "removed $TMP/reused.h5.tmp-1" "$TMP/err" "the leftover of a reused process id is removed, and said so"
expect_absent "$TMP/reused.h5.tmp-1" "no temporary file is left"
"$OM" run "$turn" --trials 100000000 -q -t 1 -o "$TMP/live.h5" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
    [ -e "$TMP/live.h5.tmp-$pid" ] && break
    sleep 0.05
done
expect_exit 2 "a run onto an output a live run is writing" "$OM" run --trials 1000 -o "$TMP/live.h5"
expect_grep "another run (process $pid) is writing it now" "$TMP/err" "the live run is named"
kill -KILL $pid
wait $pid 2>/dev/null
expect_exit 0 "the next run once it was killed" "$OM" run --trials 1000 -o "$TMP/live.h5"
expect_grep "removed $TMP/live.h5.tmp-$pid" "$TMP/err" "the killed run's file is removed"

# --- a battle file's victory points of each unit: a damaged chunk of them, and
# a declared unit field the file lacks, refused by summary ---
expect_exit 0 "a battle file" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde \
    -n 100 --seed 5 -q -o "$TMP/battle.h5"
damaged battle-vp.h5 "$TMP/battle.h5" chunk /units/vp_scored 0 flip mid
expect_exit 3 "summary of a battle file whose vp_scored is damaged" "$OM" summary "$TMP/battle-vp.h5"
expect_match "battle-vp.h5: /units/vp_scored, rows [0-9]*\.\.[0-9]* of unit [a-z0-9_-]*: the data are damaged" \
    "$TMP/err" "the file, the unit field, the rows and the unit are named"
damaged battle-lacks.h5 "$TMP/battle.h5" text unit_scored_field vp_scord
expect_exit 3 "summary of a battle file that declares a unit field it lacks" "$OM" summary "$TMP/battle-lacks.h5"
expect_grep "declares the unit field vp_scord (attribute unit_scored_field) and its high byte vp_scord_hi, and lacks the first: the file is damaged" \
    "$TMP/err" "the file, the field and its attribute are named"

# --- full disks (a file size limit, its SIGXFSZ ignored): the reason, no file ---
# full LIMIT ARGS...: oddsmaster ARGS with files limited to LIMIT blocks (0:
# no byte can be written), its messages through a pipe (which the limit does
# not touch) to its stderr, its exit status returned.
full() {
    lim=$1
    shift
    { (trap '' XFSZ; ulimit -f "$lim"; exec "$OM" "$@" 2>&3 >/dev/null); echo $? >"$TMP/rc"; } 3>&1 |
        cat >"$TMP/lerr"
    cat "$TMP/lerr" >&2
    return "$(cat "$TMP/rc")"
}
mkdir "$TMP/cells"
expect_exit 3 "matrix --cells-dir onto a full disk" full 0 matrix warmaster-revolution empire/knights orcs/trolls --situation a-charges -n 100 -q -t 1 -o "$TMP/mf.h5" --cells-dir "$TMP/cells"
expect_grep "cells/s0_r0_c0.yaml: File too large" "$TMP/err" "the cell's file and the system's reason are named"
if [ -z "$(ls -A "$TMP/cells")" ]; then ok "no cell file is left"; else not_ok "no cell file is left" "$(ls -la "$TMP/cells")"; fi
expect_absent "$TMP/mf.h5" "no matrix file is left"
expect_exit 3 "a PDF chart onto a full disk" full 0 chart "$TMP/good.h5" --kind odds -o "$TMP/full.pdf"
expect_grep "cannot write $TMP/full.pdf: File too large" "$TMP/err" "the chart's file and the system's reason are named"
expect_absent "$TMP/full.pdf" "no PDF is left"
expect_absent "$TMP/full.pdf.csv" "no data CSV is left"

tap_end
