#!/bin/sh
# test_cli_scenario.sh: battles fought as the scenarios Take and Hold and
# Battle for the Tower through the command line (TAP output for meson): the
# keys scenario, scenario_version and objectives read by the real loader
# (good values run; each bad one refused with exit 2, its FILE:LINE: field
# message and no file), the rows gaining each side's scenario points (and only
# in a scenario battle), the summary printing them, the verdict following
# them, the provenance and replay naming the scenario, the same seed giving
# the same rows on 1 and 2 threads, and `battle --scenario`.
# Usage: test_cli_scenario.sh PATH/TO/oddsmaster TESTS_DATA_DIR SOURCE_ROOT
set -u
OM=$1
ROOT=$3
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_scenario

if [ "${OM_TEST_SANITIZED:-0}" = 1 ]; then N=40; else N=150; fi

head_yaml() {
    printf 'schema: oddsmaster-scenario/1\nkind: battle\na: {list: revolution-empire-steel-and-shot}\nb: {list: revolution-orcs-horde}\n'
}


# ---- good files ----
{ head_yaml; printf 'scenario: take-and-hold\nscenario_version: battlefields\n'; } >"$TMP/th.yaml"
expect_exit 0 "a Take and Hold battle (Battlefields)" "$OM" run "$TMP/th.yaml" -n "$N" --seed 5 -q -o "$TMP/th1.h5" --threads 1
expect_grep "scenario_vp_a" "$TMP/out" "the summary prints side A's scenario points"
expect_grep "scenario_vp_b" "$TMP/out" "...and side B's"
expect_exit 0 "the same battle on 2 threads" "$OM" run "$TMP/th.yaml" -n "$N" --seed 5 -q -o "$TMP/th2.h5" --threads 2
trial_hashes "$TMP/th1.h5" >"$TMP/h1"
trial_hashes "$TMP/th2.h5" >"$TMP/h2"
if [ -s "$TMP/h1" ] && grep -q "scenario_vp_a" "$TMP/h1" && cmp -s "$TMP/h1" "$TMP/h2"; then
    ok "the same rows, scenario points included, on 1 and 2 threads"
else
    not_ok "the same rows, scenario points included, on 1 and 2 threads"
fi
# The verdict follows the scenario points: winner a when A has more, b when B
# has, a draw when equal (no withdrawal changes that but a withdrawn winner's
# draw, Battlefields), the level 2-4 by the difference; no battle ends on
# points of units alone; an ending on 10 points has 10 or more.
for f in scenario_vp_a scenario_vp_b winner level end withdrew_a withdrew_b; do
    h5dump -y -w 0 -d "/trials/$f" "$TMP/th1.h5" | sed -n '/DATA {/{n;p;q}' >"$TMP/col_$f"
done
if python3 - "$TMP" <<'PY'
import sys
col = lambda f: [v.strip() for v in open(sys.argv[1] + "/col_" + f).read().split(",") if v.strip()]
a, b = [int(v) for v in col("scenario_vp_a")], [int(v) for v in col("scenario_vp_b")]
w, lv, end = col("winner"), [int(v) for v in col("level")], [int(v) for v in col("end")]
wa, wb = [int(v) for v in col("withdrew_a")], [int(v) for v in col("withdrew_b")]
bad = 0 if len(a) > 0 and len(set(map(len, (a, b, w, lv, end, wa, wb)))) == 1 else 1
for i in range(len(a)):
    d = a[i] - b[i]
    win = "a" if d > 0 else "b" if d < 0 else "draw"
    if (win == "a" and wa[i]) or (win == "b" and wb[i]):
        win = "draw"
    want = 0 if win == "draw" else 2 if abs(d) <= 2 else 3 if abs(d) <= 5 else 4
    if w[i] != win or lv[i] != want or (end[i] == 3 and max(a[i], b[i]) < 10):
        bad += 1
sys.exit(0 if bad == 0 else 1)
PY
then ok "every row's winner and level follow its scenario points"; else not_ok "every row's winner and level follow its scenario points"; fi
expect_exit 0 "its provenance" h5dump -w 0 -a /options_json "$TMP/th1.h5"
expect_grep '"scenario":{"name":"take-and-hold","version":"battlefields"' "$TMP/out" "...records the scenario and version"
expect_exit 0 "replay of one of its battles" "$OM" replay "$TMP/th1.h5" --battle 1
expect_grep "The scenario is take-and-hold (Battlefields version)" "$TMP/out" "...names the scenario"
expect_match "^Scenario points (take-and-hold): A [0-9]*, B [0-9]*\.$" "$TMP/out" "...and tells its points"

{ head_yaml; printf 'scenario: take-and-hold\nobjectives: [[60, 60], [120, 60], [90, 30], [90, 90]]\nlength: fixed\nturns: 2\n'; } >"$TMP/given.yaml"
expect_exit 0 "objectives given by the file (Revolution, 2 turns)" "$OM" run "$TMP/given.yaml" -n 20 --seed 1 -q -o "$TMP/given.h5"
expect_exit 0 "...recorded" h5dump -w 0 -a /options_json "$TMP/given.h5"
expect_grep '"objectives":[[60.0,60.0],[120.0,60.0],[90.0,30.0],[90.0,90.0]]' "$TMP/out" "...as the file gives them"

{ head_yaml; printf 'scenario: battle-for-the-tower\n'; } >"$TMP/tower.yaml"
expect_exit 0 "a Battle for the Tower (Revolution)" "$OM" run "$TMP/tower.yaml" -n 20 --seed 1 -q -o "$TMP/tower.h5"
expect_grep "scenario_vp_a" "$TMP/out" "...its summary prints the scenario points"
expect_exit 0 "...its provenance" h5dump -w 0 -a /options_json "$TMP/tower.h5"
expect_grep '"scenario":{"name":"battle-for-the-tower","version":"revolution","tower":0}' "$TMP/out" "...records the scenario and its tower"
expect_grep '{"kind":"building","points":[[86.0,56.0],[94.0,56.0],[94.0,64.0],[86.0,64.0]]}' "$TMP/out" "...the tower a building in the middle of the table"

# A battle without a scenario has no scenario points in its rows.
{ head_yaml; printf 'length: fixed\nturns: 1\n'; } >"$TMP/plain.yaml"
expect_exit 0 "a battle without a scenario" "$OM" run "$TMP/plain.yaml" -n 10 --seed 1 -q -o "$TMP/plain.h5"
if trial_hashes "$TMP/plain.h5" | grep -q scenario_vp; then not_ok "...has no scenario points"; else ok "...has no scenario points"; fi

# ---- bad files ----
bad() {
    { head_yaml; printf '%s\n' "$1"; } >"$TMP/bad.yaml"
    expect_exit 2 "bad scenario: $2" "$OM" run "$TMP/bad.yaml" -n 10 -q -o "$TMP/bad.h5"
    expect_grep "$3" "$TMP/err" "bad scenario: $2: the message"
    expect_absent "$TMP/bad.h5" "bad scenario: $2: no file"
}
bad "scenario: take-and-hol" "an unknown scenario" "bad.yaml:5: field 'scenario': unknown scenario 'take-and-hol'; did you mean 'take-and-hold'?"
bad "scenario: defending-the-village" "Defending the Village" "the scenario defending-the-village is not modelled yet"
bad "scenario: wagon-train" "Wagon Train" "the scenario wagon-train is not modelled yet"
bad "scenario: take-and-hold
scenario_version: battlefield" "an unknown version" "did you mean 'battlefields'?"
bad "scenario_version: battlefields" "a version without a scenario" "scenario_version goes with a scenario"
bad "scenario: take-and-hold
objectives: [[60, 60], [120, 60]]" "two objectives" "Take and Hold has 4 objectives (got 2)"
bad "scenario: take-and-hold
objectives: [[60, 60], [120, 60], [90, 30], [90, 200]]" "an objective off the table" "objective 4 at [90, 200]: an objective stands on the table"
bad "scenario: take-and-hold
terrain: [{kind: wood, points: [[80, 20], [100, 40]]}]
objectives: [[60, 60], [120, 60], [90, 30], [90, 90]]" "an objective in a wood" "objective 3 at [90, 30]"
bad "scenario: take-and-hold
objectives: [[60, x], [120, 60], [90, 30], [90, 90]]" "an objective not a number" "field 'objectives'"
bad "scenario: battle-for-the-tower
objectives: [[60, 60], [120, 60], [90, 30], [90, 90]]" "objectives in the tower" "objectives go with scenario: take-and-hold"
bad "scenario: battle-for-the-tower
terrain: [{kind: hill, points: [[80, 50], [100, 70]]}]" "a piece over the tower" "the tower stands in the middle of the table"

# ---- the doctrine's consideration `contest` ----
printf 'schema: oddsmaster-doctrine/1\nname: contesting\norders:\n  contest: {weight: 2, distance: 0.2}\n  advance: {weight: 0.3}\n' >"$TMP/contest.yaml"
expect_exit 0 "a doctrine file weighing contest" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --scenario take-and-hold --doctrine-a "$TMP/contest.yaml" -n 10 --seed 1 -q -o "$TMP/dc.h5"
printf 'schema: oddsmaster-doctrine/1\nname: contesting\norders:\n  contest: {weight: 20}\n' >"$TMP/contest_bad.yaml"
expect_exit 2 "a contest weight out of range" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --scenario take-and-hold --doctrine-a "$TMP/contest_bad.yaml" -n 10 -q -o "$TMP/dcb.h5"
expect_grep "contest_bad.yaml:4: field 'orders.contest.weight'" "$TMP/err" "...its file, line and field"
expect_absent "$TMP/dcb.h5" "...no file"

# ---- oddsmaster battle --scenario ----
expect_exit 0 "battle --scenario take-and-hold --scenario-version battlefields" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --scenario take-and-hold --scenario-version battlefields -n "$N" --seed 5 -q -o "$TMP/cli.h5" --threads 2
trial_hashes "$TMP/cli.h5" >"$TMP/hc"
if cmp -s "$TMP/h1" "$TMP/hc"; then ok "...the same rows as run of the file"; else not_ok "...the same rows as run of the file"; fi
expect_exit 2 "battle --scenario wagon-train" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --scenario wagon-train -n 10 -o "$TMP/w.h5"
expect_grep "not modelled yet" "$TMP/err" "...not modelled yet"
expect_absent "$TMP/w.h5" "...no file"
expect_exit 2 "battle --scenario take-and-hld" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --scenario take-and-hld -n 10 -o "$TMP/w.h5"
expect_grep "did you mean 'take-and-hold'" "$TMP/err" "...the nearest name"
expect_exit 2 "battle --scenario-version without --scenario" "$OM" battle revolution-empire-steel-and-shot revolution-orcs-horde --scenario-version battlefields -n 10 -o "$TMP/w.h5"
expect_grep "goes with --scenario" "$TMP/err" "...says so"

tap_end
