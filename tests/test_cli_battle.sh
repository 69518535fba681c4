#!/bin/sh
# test_cli_battle.sh: battles (scenario files of kind battle) through the
# command line (TAP output for meson): two example lists fought with `run`,
# the battle's fields and each unit's in the file and the summary, the same
# seed giving the same tallies on 1 and 2 threads, its odds chart and the
# flags chart of the units' destruction, and each bad battle file refused with exit 2 (3 for a list
# file that cannot be read), its FILE:LINE: field 'PATH' message and no file;
# `oddsmaster battle LIST_A LIST_B`: the same per-trial datasets as `run` of
# the equivalent file on 1 and 2 threads, each bad list or option refused with
# its exit status, message and no file, and Ctrl-C then --resume giving the
# file an uninterrupted run gives.
# Usage: test_cli_battle.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
set -u
OM=$1
DATA=$2
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_battle

# Battles a run: fewer under the sanitizers (ten times slower), where what is
# checked is that the same paths run clean; every check below holds at any
# count (tallies against rows, 1 against 2 threads, sums that add up).
if [ "${OM_TEST_SANITIZED:-0}" = 1 ]; then N=100; N_FULL=200; else N=300; N_FULL=600; fi

cat >"$TMP/battle.yaml" <<'YAML'
schema: oddsmaster-scenario/1
kind: battle
a: {list: revolution-empire-steel-and-shot}
b: {list: revolution-orcs-horde, doctrine: aggressive}
length: fixed
turns: 3
YAML
expect_exit 0 "run of a battle" "$OM" run "$TMP/battle.yaml" -n "$N" --seed 7 -q -o "$TMP/b1.h5" --threads 1
expect_grep "Outcome of the battle" "$TMP/out" "the summary's outcome table"
expect_grep "Per unit" "$TMP/out" "the summary's per-unit section"
expect_grep "a_steam-tank" "$TMP/out" "each unit named by its list id and side"
expect_exit 0 "the same battle on 2 threads" "$OM" run "$TMP/battle.yaml" -n "$N" --seed 7 -q -o "$TMP/b2.h5" --threads 2
expect_exit 0 "summary of both as JSON" "$OM" summary "$TMP/b1.h5" --format json
cp "$TMP/out" "$TMP/s1.json"
"$OM" summary "$TMP/b2.h5" --format json >"$TMP/s2.json" 2>/dev/null
if python3 - "$TMP/s1.json" "$TMP/s2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("file", "threads", "program"):
        d.pop(k, None)
sys.exit(0 if a.get("fields") == b.get("fields") and a.get("per_unit") == b.get("per_unit") else 1)
PY
then ok "the same seed gives the same tallies on 1 and 2 threads"; else not_ok "the same seed gives the same tallies on 1 and 2 threads"; fi
json_ok "a fixed length of 3: every battle of 3 turns or fewer" \
    'all(int(k) <= 3 for k, v in d["fields"]["turns"]["distribution"].items() if v > 0) and d["fields"]["turns"]["max"] <= 3'
json_ok "per-unit fields stands_lost and destroyed" 'list(d["per_unit"]["fields"]) == ["stands_lost", "destroyed"]'
expect_exit 0 "a battle's default chart" "$OM" chart "$TMP/b1.h5" -o "$TMP/b1.png"
expect_match "^file,series,outcome" "$TMP/b1.png.csv" "...is its odds"
expect_exit 0 "a flags chart of the units' destruction" "$OM" chart "$TMP/b1.h5" --kind flags --field destroyed -o "$TMP/f.png"
expect_match "^destroyed@a_steam-tank," "$TMP/f.png.csv" "...a bar a unit, named FIELD@UNIT"
# The points chart: a row a unit, its means those of the summary's unit_points
# (the scored mean first), side A's rows before side B's.
expect_exit 0 "a points chart of what each unit scored and gave up" "$OM" chart "$TMP/b1.h5" --kind points -o "$TMP/p.svg"
if python3 - "$TMP/p.svg.csv" "$TMP/s1.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
up = json.load(open(sys.argv[2]))["unit_points"]
ok = len(rows) == len(up) and [r["side"] for r in rows] == sorted(r["side"] for r in rows)
for r in rows:
    u = up[r["unit"]]
    ok = ok and abs(float(r["scored"]) - u["scored"]["mean"]) < 1e-6 \
        and abs(float(r["given"]) - u["given"]["mean"]) < 1e-6 \
        and abs(float(r["scored_hi"]) - u["scored"]["hi"]) < 1e-6
sys.exit(0 if ok else 1)
PY
then ok "...its CSV: every unit, side A first, the summary's means and intervals"
else not_ok "...its CSV: every unit, side A first, the summary's means and intervals"; fi
expect_grep "Steam Tank (A, 130 pts)" "$TMP/p.svg" "...each row labelled by name, side and points"
expect_exit 0 "an engagement's run file" "$OM" run -n 200 -q -o "$TMP/e200.h5"
expect_exit 2 "a points chart of a file that is not a battle's" "$OM" chart "$TMP/e200.h5" --kind points -o "$TMP/pe.png"
expect_grep "only a battle's file records" "$TMP/err" "...says a battle's file is needed"
expect_absent "$TMP/pe.png" "...and writes no chart"

bad() {
    printf 'schema: oddsmaster-scenario/1\nkind: battle\n%s\n' "$2" >"$TMP/bad.yaml"
    expect_exit "$1" "bad battle: $3" "$OM" run "$TMP/bad.yaml" -n 10 -q -o "$TMP/bad.h5"
    expect_grep "$4" "$TMP/err" "bad battle: $3: the message"
    expect_absent "$TMP/bad.h5" "bad battle: $3: no file"
}
bad 2 "a: {list: revolution-empire-steel-and-shoot}
b: {list: revolution-orcs-horde}" "an unknown example list" \
    "bad.yaml:3: field 'a.list': no example list 'revolution-empire-steel-and-shoot'; did you mean 'revolution-empire-steel-and-shot'"
bad 2 "a: {list: revolution-orcs-horde, doctrine: agressive}
b: {list: revolution-orcs-horde}" "an unknown doctrine" "did you mean 'aggressive'?"
bad 2 "a: {list: 1.1-orcs-waaagh}
b: {list: revolution-orcs-horde}" "lists of two rule sets" "a battle is fought under one rule set"
bad 3 "a: {list: nothere.yaml}
b: {list: revolution-orcs-horde}" "a list file that is not there" "field 'a.list': cannot read the list file"
bad 2 "a: {list: revolution-orcs-horde}
b: {list: revolution-orcs-horde}
length: fixed" "a fixed length without turns" "a fixed length needs \`turns\`"
bad 2 "a: {list: revolution-orcs-horde}
b: {list: revolution-orcs-horde}
length: d6-6-7-9" "an unknown length" "did you mean 'd6-6-7-8'?"
bad 2 "a: {list: revolution-orcs-horde}
b: {list: revolution-orcs-horde}
first: c" "an unknown first side" "expected one of: roll, a, b"
bad 2 "a: {list: revolution-orcs-horde, army: x}
b: {list: revolution-orcs-horde}" "an unknown key" "unknown key 'army'"
bad 2 "a: {list: $DATA/lists/warmaster/bad/over-points.yaml}
b: {list: revolution-orcs-horde}" "a list that breaks its rules" "over-points.yaml:"

# ---- oddsmaster battle LIST_A LIST_B ----

trial_hashes "$TMP/b1.h5" >"$TMP/h_run"
expect_exit 0 "battle of two example lists, 1 thread" "$OM" battle revolution-empire-steel-and-shot \
    revolution-orcs-horde --doctrine-b aggressive --turns 3 -n "$N" --seed 7 -q -o "$TMP/c1.h5" --threads 1
expect_grep "Outcome of the battle" "$TMP/out" "battle prints the battle's odds"
expect_exit 0 "the same battle on 2 threads" "$OM" battle revolution-empire-steel-and-shot \
    revolution-orcs-horde --doctrine-b aggressive --length fixed --turns 3 -n "$N" --seed 7 -q \
    -o "$TMP/c2.h5" --threads 2
trial_hashes "$TMP/c1.h5" >"$TMP/h_c1"
trial_hashes "$TMP/c2.h5" >"$TMP/h_c2"
if [ -s "$TMP/h_run" ] && grep -q "^units/destroyed " "$TMP/h_run" && cmp -s "$TMP/h_run" "$TMP/h_c1"; then
    ok "battle and run of the equivalent file: the same per-trial datasets"; else
    not_ok "battle and run of the equivalent file: the same per-trial datasets" "$(diff "$TMP/h_run" "$TMP/h_c1" | head -5)"; fi
if cmp -s "$TMP/h_c1" "$TMP/h_c2"; then ok "battle on 1 and 2 threads: the same per-trial datasets"; else
    not_ok "battle on 1 and 2 threads: the same per-trial datasets"; fi
"$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --turns 3 -n "$N" --seed 8 -q \
    -o "$TMP/c3.h5" >/dev/null 2>&1
trial_hashes "$TMP/c3.h5" >"$TMP/h_c3"
if cmp -s "$TMP/h_c1" "$TMP/h_c3"; then not_ok "another seed and doctrine: other battles"; else
    ok "another seed and doctrine: other battles"; fi
# --terrain and --deployment: the scenario keys terrain_method and
# deployment, the same battles as run of the file that gives them.
printf 'schema: oddsmaster-scenario/1\nkind: battle\na: {list: revolution-empire-steel-and-shot}\nb: {list: revolution-orcs-horde}\nlength: fixed\nturns: 2\nterrain_method: dice-for-edges\ndeployment: scouting\n' >"$TMP/field.yaml"
"$OM" run "$TMP/field.yaml" -n 40 --seed 5 -q -o "$TMP/f_run.h5" >/dev/null 2>&1
expect_exit 0 "battle --terrain dice-for-edges --deployment scouting" "$OM" battle \
    revolution-empire-steel-and-shot revolution-orcs-horde --turns 2 --terrain dice-for-edges \
    --deployment scouting -n 40 --seed 5 -q -o "$TMP/f_cli.h5"
trial_hashes "$TMP/f_run.h5" >"$TMP/h_frun"
trial_hashes "$TMP/f_cli.h5" >"$TMP/h_fcli"
if [ -s "$TMP/h_frun" ] && cmp -s "$TMP/h_frun" "$TMP/h_fcli"; then
    ok "...the same per-trial datasets as run of the file with terrain_method and deployment"; else
    not_ok "...the same per-trial datasets as run of the file with terrain_method and deployment"; fi
expect_exit 0 "...its battle told" "$OM" replay "$TMP/f_cli.h5" --battle 1
expect_grep "Deployment (scouting): A " "$TMP/out" "...with the scouting roll drawn for it"
# Each battle's row records the side its deployment's roll favoured: the
# scouting roll's winner that replay tells, battle by battle.
h5dump -b NATIVE -d /trials/deployment -o "$TMP/deployment.bin" "$TMP/f_cli.h5" >/dev/null 2>&1
told=""
for k in 0 1 2 3 4 5 6 7; do
    "$OM" replay "$TMP/f_cli.h5" --battle "$k" 2>/dev/null | grep -q "^Deployment (scouting): .*; side A " &&
        told="${told}0" || told="${told}1"
done
recorded=$(od -An -tu1 -N8 -v "$TMP/deployment.bin" 2>/dev/null | tr -d ' \n')
if [ "${#recorded}" -eq 8 ] && [ "$recorded" = "$told" ]; then
    ok "...each battle's row records the scouting roll's winner replay tells ($recorded)"; else
    not_ok "...each battle's row records the scouting roll's winner replay tells" \
        "file $recorded, replay $told"; fi
badcmd_early() {
    expect_exit 2 "battle: $1" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde \
        "$2" "$3" -n 10 -q -o "$TMP/bad.h5"
    expect_grep "$4" "$TMP/err" "battle: $1: the message"
    expect_absent "$TMP/bad.h5" "battle: $1: no file"
}
badcmd_early "an unknown terrain method" --terrain dice-for-edge \
    "--terrain: unknown terrain method 'dice-for-edge'; did you mean 'dice-for-edges'?"
badcmd_early "terrain the command line cannot give" --terrain given \
    "expected one of: none, dice-for-edges, symmetrical, random"
badcmd_early "an unknown deployment method" --deployment scoutin \
    "--deployment: unknown deployment method 'scoutin'; did you mean 'scouting'?"
expect_exit 0 "battle --help" "$OM" battle --help
expect_grep "oddsmaster battle LIST_A LIST_B -o FILE.h5" "$TMP/out" "...gives the usage"
expect_exit 1 "battle with one list" "$OM" battle revolution-orcs-horde -o "$TMP/u.h5"
expect_exit 1 "battle without -o" "$OM" battle revolution-orcs-horde revolution-orcs-horde
expect_grep "-o FILE.h5" "$TMP/err" "...asks for the result file"
expect_exit 1 "battle --resume with a list" "$OM" battle --resume "$TMP/x.h5.partial" revolution-orcs-horde

badcmd() {
    code=$1 what=$2 msg=$3
    shift 3
    expect_exit "$code" "battle: $what" "$OM" battle "$@" -n 10 -q -o "$TMP/bad.h5"
    expect_grep "$msg" "$TMP/err" "battle: $what: the message"
    expect_absent "$TMP/bad.h5" "battle: $what: no file"
}
badcmd 2 "an unknown example list" \
    "LIST_A: no example list 'revolution-empire-steel-and-shoot'; did you mean 'revolution-empire-steel-and-shot'?" \
    revolution-empire-steel-and-shoot revolution-orcs-horde
badcmd 2 "lists of two rule sets" "a battle is fought under one rule set" \
    revolution-orcs-horde 1.1-orcs-waaagh
badcmd 2 "an unknown doctrine" "--doctrine-b: unknown doctrine 'agressive'; did you mean 'aggressive'?" \
    revolution-orcs-horde revolution-orcs-riders --doctrine-b agressive
badcmd 2 "an unknown length" "--length: unknown length method 'd6-6-7-9'; did you mean 'd6-6-7-8'?" \
    revolution-orcs-horde revolution-orcs-riders --length d6-6-7-9
badcmd 2 "a fixed length without turns" "a fixed length needs --turns" \
    revolution-orcs-horde revolution-orcs-riders --length fixed
badcmd 2 "turns with a rolled length" "--turns goes with --length fixed" \
    revolution-orcs-horde revolution-orcs-riders --length rolled-from-6 --turns 4
badcmd 2 "an unknown first side" "--first: unknown first side 'c'" \
    revolution-orcs-horde revolution-orcs-riders --first c
badcmd 2 "a list file that breaks its rules" "over-points.yaml:8: field 'points':" \
    revolution-orcs-horde "$DATA/lists/warmaster/bad/over-points.yaml"
badcmd 3 "a list file that is not there" "LIST_B: cannot read the list file" \
    revolution-orcs-horde "$TMP/nothere.yaml"

# Ctrl-C stops at the end of the block of battles under way (exit 5, a
# .partial file); --resume, from another folder (a list file given by a
# relative path), finishes it into the file an uninterrupted run writes.
mkdir -p "$TMP/lists" "$TMP/elsewhere"
cp "$ROOT/scenarios/lists/warmaster/revolution-orcs-riders.yaml" "$TMP/lists/riders.yaml"
BLOCK=16384
(cd "$TMP" && exec "$OM" battle lists/riders.yaml revolution-orcs-horde --turns 1 --first a \
    -n $((BLOCK + 500)) --threads 1 -q -o "$TMP/int.h5" >"$TMP/out" 2>"$TMP/err") &
pid=$!
sleep 1
kill -INT $pid
wait $pid
got=$?
if [ "$got" -eq 5 ]; then ok "battle: SIGINT: exit 5"; else not_ok "battle: SIGINT: exit 5, got $got" "$(head -c 300 "$TMP/err")"; fi
expect_grep "oddsmaster battle --resume" "$TMP/err" "battle: SIGINT: the message says how to resume"
(cd "$TMP/elsewhere" && exec "$OM" battle --resume "$TMP/int.h5.partial" --threads 2 -q >"$TMP/out" 2>"$TMP/err")
got=$?
if [ "$got" -eq 0 ]; then ok "battle --resume from another folder (exit 0)"; else not_ok "battle --resume from another folder: exit $got" "$(head -c 300 "$TMP/err")"; fi
(cd "$TMP" && exec "$OM" battle lists/riders.yaml revolution-orcs-horde --turns 1 --first a \
    -n $((BLOCK + 500)) --threads 2 -q -o "$TMP/whole.h5" >/dev/null 2>&1)
trial_hashes "$TMP/int.h5" >"$TMP/h_int"
trial_hashes "$TMP/whole.h5" >"$TMP/h_whole"
if [ -s "$TMP/h_int" ] && cmp -s "$TMP/h_int" "$TMP/h_whole"; then
    ok "battle: interrupted and resumed, the file of an uninterrupted run"; else
    not_ok "battle: interrupted and resumed, the file of an uninterrupted run"; fi

# ---- The summary of a battle file: the margin, the units that decided, the
# rules not modelled ----
expect_exit 0 "a battle of the full length" "$OM" battle revolution-empire-steel-and-shot \
    revolution-orcs-horde -n "$N_FULL" --seed 3 -o "$TMP/e.h5"
expect_grep "Margin: vp_a - vp_b" "$TMP/out" "battle prints the margin of victory points"
expect_grep "Which units decided battles" "$TMP/out" "battle prints the units that decided"
expect_grep "Not modelled (the odds leave these out):" "$TMP/out" "battle prints what is not modelled"
if h5ls "$TMP/e.h5/trials" 2>/dev/null | grep -q "^deployment "; then
    not_ok "a battle deployed in lines, which rolls nothing, has no deployment field"; else
    ok "a battle deployed in lines, which rolls nothing, has no deployment field"; fi
expect_grep "Victory points of each unit: means a battle [95% CI] of the points it scored" "$TMP/out" \
    "battle prints each unit's victory points scored and given up"
expect_match "^  a_[a-z0-9_-]* *A  *[0-9][0-9]*  [0-9.]* \[[0-9.]*, [0-9.]*\]  *[0-9.]* \[[0-9.]*, [0-9.]*\]  *[0-9.]*$" \
    "$TMP/out" "...a row a unit: side, points, scored and given up with intervals, per 100 points"
if grep -q "(a_pistoliers_1): not modelled" "$TMP/out"; then
    not_ok "...not the Pistoliers, whose shooting all round a battle plays"; else
    ok "...not the Pistoliers, whose shooting all round a battle plays"; fi
expect_grep "Hero (a_hero_1): not modelled: sword-of-might" "$TMP/out" \
    "...a character's magic item, which a battle gives no effect, numbered as units are"
if grep -q "not modelled: ring-of-magic" "$TMP/out"; then
    not_ok "...but not the Wizard's Ring of Magic, which a battle plays"; else
    ok "...but not the Wizard's Ring of Magic, which a battle plays"; fi
if grep -q "attacks to the unit joined" "$TMP/out"; then
    not_ok "...and no character's bonus Attacks, which a battle gives the unit it joins"; else
    ok "...and no character's bonus Attacks, which a battle gives the unit it joins"; fi
if grep -q "(a_hero_2): not modelled" "$TMP/out"; then
    not_ok "...nor the second Hero, who has no item"; else ok "...nor the second Hero, who has no item"; fi
if grep -q "(a_knights_1): not modelled" "$TMP/out"; then
    not_ok "...and no unit whose rules are all modelled"; else ok "...and no unit whose rules are all modelled"; fi
expect_exit 0 "summary of a battle file as JSON" "$OM" summary "$TMP/e.h5" --format json
json_ok "the margin's mean is the difference of the sides' means" \
    'abs(d["margin"]["mean"] - (d["fields"]["vp_a"]["mean"] - d["fields"]["vp_b"]["mean"])) < 1e-9 and d["margin"]["fields"] == ["vp_a", "vp_b"]'
json_ok "the margin's interval holds its mean and its quantiles increase" \
    'd["margin"]["lo"] < d["margin"]["mean"] < d["margin"]["hi"] and sorted(d["margin"]["quantiles"].values()) == list(d["margin"]["quantiles"].values())'
json_ok "not_modelled lists a character's item" '"Hero (a_hero_1): not modelled: sword-of-might" in d["not_modelled"]'
json_ok "decided_by: every unit, its battles lost and kept adding up" \
    'len(d["decided_by"]) == len(d["per_unit"]["units"]) and all(v["lost"] + v["kept"] == d["trials"] for v in d["decided_by"].values())'
json_ok "per_unit leaves the bytes of the points to unit_points" \
    'list(d["per_unit"]["fields"]) == ["stands_lost", "destroyed"] and len(d["unit_points"]) == len(d["per_unit"]["units"])'
json_ok "unit_points: each side's units gave up the enemy's points, and scored them but for losses no enemy caused" \
    '(lambda side: all(abs(sum(v["given"]["mean"] for k, v in d["unit_points"].items() if side[k] == s) - d["fields"]["vp_" + ("b" if s == "a" else "a")]["mean"]) < 1e-6 and 0.99 * d["fields"]["vp_" + s]["mean"] <= sum(v["scored"]["mean"] for k, v in d["unit_points"].items() if side[k] == s) <= d["fields"]["vp_" + s]["mean"] + 1e-6 for s in "ab"))({u["id"]: u["side"] for u in d["per_unit"]["units"]})'
json_ok "unit_points: intervals hold their means, points per 100 as the mean scored over the unit's value" \
    'all(v[k]["lo"] <= v[k]["mean"] <= v[k]["hi"] for v in d["unit_points"].values() for k in ("scored", "given")) and all(abs(d["unit_points"][u["id"]]["scored_per_100_points"] - 100 * d["unit_points"][u["id"]]["scored"]["mean"] / u["points"]) < 1e-9 for u in d["per_unit"]["units"] if u["points"] > 0)'
cp "$TMP/out" "$TMP/e.json"
# Battle by battle from the file's bytes (h5dump -b): each side's units gave up
# exactly the enemy's victory points, and scored its own but for the points
# of losses no enemy caused.
for ds in units/vp_given units/vp_given_hi units/vp_scored units/vp_scored_hi trials/vp_a trials/vp_b; do
    h5dump -b NATIVE -d "/$ds" -o "$TMP/$(basename "$ds").bin" "$TMP/e.h5" >/dev/null 2>&1
done
if python3 - "$TMP" <<'PY' >"$TMP/py" 2>&1
import json, struct, sys
t = sys.argv[1]
d = json.load(open(t + "/e.json"))
side = [u["side"] for u in d["per_unit"]["units"]]
n, k = d["trials"], len(side)
raw = lambda name: open("%s/%s.bin" % (t, name), "rb").read()
both = lambda name: [lo + 256 * hi for lo, hi in zip(raw(name), raw(name + "_hi"))]
given, scored = both("vp_given"), both("vp_scored")
vp = {s: struct.unpack("<%dH" % n, raw("vp_" + s)) for s in "ab"}
assert len(given) == n * k and len(scored) == n * k
missed = 0
for i in range(n):
    for s, e in (("a", "b"), ("b", "a")):
        row = range(i * k, (i + 1) * k)
        assert sum(given[j] for j in row if side[j - i * k] == e) == vp[s][i], (i, s)
        got = sum(scored[j] for j in row if side[j - i * k] == s)
        assert got <= vp[s][i], (i, s, got, vp[s][i])
        missed += vp[s][i] - got
assert missed * 100 <= sum(vp["a"]) + sum(vp["b"]), missed
PY
then ok "battle by battle in the file: the units' points given up and scored add up to the sides'"; else
    not_ok "battle by battle in the file: the units' points given up and scored add up to the sides'" "$(tail -n 3 "$TMP/py")"; fi
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    if /usr/bin/python3 - "$TMP/e.h5" "$TMP/e.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys
import h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
d = json.load(open(sys.argv[2]))
m = f["trials/vp_a"][:].astype(int) - f["trials/vp_b"][:].astype(int)
n = len(m)
assert abs(m.mean() - d["margin"]["mean"]) < 1e-9
for q, v in d["margin"]["quantiles"].items():
    s = np.sort(m)
    want = s[int(np.ceil(float(q) * n - 1e-9)) - 1]
    assert want == v, (q, want, v)
assert round(d["margin"]["p_a_ahead"]["p"] * n) == (m > 0).sum()
opts = json.loads(f.attrs["options_json"])
assert opts["not_modelled"]["a_hero_1"] == ["sword-of-might"], opts["not_modelled"]
assert "a_pistoliers_1" not in opts["not_modelled"], opts["not_modelled"]
text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
assert text(f.attrs["score_field_a"]) == "vp_a" and text(f.attrs["unit_lost_field"]) == "destroyed"
w = f["trials/winner"][:]
lost = f["units/destroyed"][:]
for j, u in enumerate(d["per_unit"]["units"]):
    side = 0 if u["side"] == "a" else 1
    x = d["decided_by"][u["id"]]
    gone = lost[:, j] == 1
    assert x["lost"] == gone.sum(), (u["id"], x["lost"], gone.sum())
    if x["lost"]:
        assert abs(x["p_win_lost"]["p"] - (w[gone] == side).mean()) < 1e-12
    if x["kept"]:
        assert abs(x["p_win_kept"]["p"] - (w[~gone] == side).mean()) < 1e-12
    if x["difference"] is not None:
        assert x["difference"]["lo"] <= x["difference"]["value"] <= x["difference"]["hi"]
PY
    then ok "margin quantiles and each unit's P(win | destroyed) as counted from the rows"; else
        not_ok "margin quantiles and each unit's P(win | destroyed) as counted from the rows" "$(tail -n 3 "$TMP/py")"; fi
else
    ok "# SKIP h5py is not installed"
fi
expect_exit 0 "an engagement's file" "$OM" run -n 1000 -q -o "$TMP/eng.h5"
expect_exit 0 "...its summary as JSON" "$OM" summary "$TMP/eng.h5" --format json
json_ok "...has no margin, no units that decided, no units' points, nothing not modelled" \
    'd["margin"] is None and d["decided_by"] is None and d["unit_points"] is None and d["not_modelled"] == []'

# The README's battle of two example lists: its quoted lines are what the
# command prints (checked in the plain build; a sanitizer build, whose results
# are the same, does not run the thousand battles again: tests/meson.build).
if [ "${OM_TEST_SANITIZED:-0}" != 1 ]; then
expect_exit 0 "the README's battle" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde \
    -o "$TMP/readme.h5" --battles 1000 -q
for quoted in "  A     0.6640 [0.6341, 0.6926]   0.0200 [0.0130, 0.0307]   0.3160 [0.2879, 0.3455]" \
    "  mean 104.56 [95% CI 90.14, 118.97], sd 232.55"; do
    if grep -qF -- "$quoted" "$ROOT/README.md"; then ok "README.md quotes '$quoted'"; else
        not_ok "README.md quotes '$quoted'"; fi
    expect_grep "$quoted" "$TMP/out" "...which the battle prints"
done
fi

tap_end
