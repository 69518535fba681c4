/*
 * test_table.c: the Warmaster table (position) model, engine/warmaster/table.c.
 *
 * Every geometric decision has a test with a small drawn layout. The sketches
 * show the table from above: x to the right, y up the page (side 0 usually at
 * the bottom facing up, side 1 at the top facing down). Letters are units, `^`
 * and `v` their facing, `#` terrain. Expected values are worked by hand from the
 * coordinates in each comment. Infantry stands are 4cm wide and 2cm deep
 * (Game Values: 40x20mm bases, infantry on the long edge); Revolution cavalry
 * stands are 2cm wide and 4cm deep (short edge to the front). Rulebook sections
 * are Warmaster Revolution's unless another rulebook is named.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "command.h"
#include "table.h"

/* Geometry is exact up to double rounding; 1e-6cm is far below anything the
 * rules measure. */
#define EPS 1e-6

static const om_wm_ruleset_id REV = OM_WM_RULES_REV;
static const om_wm_ruleset_id WM11 = OM_WM_RULES_WM11;
static const om_wm_ruleset_id WMA = OM_WM_RULES_WMA;

static om_wm_vec at(double x, double y) { return (om_wm_vec){x, y}; }

static unsigned add(om_wm_table *t, const char *name, unsigned side, om_wm_troop troop,
                    unsigned stands, om_wm_table_formation f, double x, double y, double facing)
{
    int i = om_wm_table_add_unit(t, REV, name, side, troop, stands, f, at(x, y), facing);
    cr_assert_geq(i, 0, "add %s", name);
    return (unsigned)i;
}

static void check_ok(const om_wm_table *t)
{
    om_wm_check_failure why;
    memset(&why, 0, sizeof why);
    cr_assert_eq(om_wm_table_check(t, REV, &why), OM_OK, "%s: %s", why.field, why.reason);
}

/* ---------- Distances, touching, characters ---------- */

/*
 *   y=33 +--B--+      B: enemy line of 3 infantry at (90,32) facing down
 *   y=31 +-----+
 *          10cm
 *   y=21 +--A--+      A: line of 3 infantry at (90,20) facing up: x 84..96
 *   y=19 +-----+
 */
Test(table, closest_edge_distance_between_lines)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    cr_expect_float_eq(t.width_cm, 180.0, EPS);
    cr_expect_float_eq(t.depth_cm, 120.0, EPS);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 32, 270);
    check_ok(&t);
    cr_expect_float_eq(om_wm_table_unit_width(&t.unit[a]), 12.0, EPS);
    cr_expect_float_eq(om_wm_table_unit_depth(&t.unit[a]), 2.0, EPS);
    cr_expect_float_eq(om_wm_table_distance(&t, a, b), 10.0, EPS);
    cr_expect_not(om_wm_table_touching(&t, a, b));
    cr_expect_not(om_wm_table_engaged(&t, a));
}

/*
 * Corner to corner: B's nearest corner is (100,30), A's is (96,21):
 *               B (a column of 3 cavalry, 2 wide, 12 deep, centred at (101,36))
 *   A +---+ .
 *           4 across, 9 up: sqrt(16 + 81)
 */
Test(table, corner_to_corner_distance)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_CAVALRY, 3, OM_WM_TABLE_COLUMN, 101, 36, 270);
    check_ok(&t);
    cr_expect_float_eq(om_wm_table_unit_depth(&t.unit[b]), 12.0, EPS);
    cr_expect_float_eq(om_wm_table_distance(&t, a, b), sqrt(16.0 + 81.0), EPS);
}

/*
 * A unit turned 45 degrees: a single infantry stand (4x2) centred at (50,50)
 * facing 45 degrees; a point 10cm straight ahead of its centre is 9cm from its
 * front edge. A character there with a 25mm base (radius 1.25) is 7.75cm away.
 */
Test(table, rotated_unit_and_character_distance)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 50, 50, 45);
    om_wm_vec d = om_wm_table_dir(45);
    int c = om_wm_table_add_character(&t, "General", 0, OM_WM_GENERAL, 9,
                                      at(50 + 10 * d.x, 50 + 10 * d.y));
    cr_assert_geq(c, 0);
    cr_expect_float_eq(om_wm_table_character_distance(&t, (unsigned)c, a), 9.0, EPS);
    t.character[c].radius_cm = 1.25;
    cr_expect_float_eq(om_wm_table_character_distance(&t, (unsigned)c, a), 7.75, EPS);
    cr_expect_float_eq(om_wm_table_facing_deg(t.unit[a].dir), 45.0, EPS);
    check_ok(&t);
}

/*
 * Touching units, and engagement: A and B side by side share the edge x=96;
 * C (x 83..95) is an enemy whose front edge touches A's front edge; B touches
 * only its friend A (a corner contact with C would count, Combat > Attacks).
 *    +--C--+
 *     +--A--++--B--+
 */
Test(table, touching_and_engaged)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    unsigned c = add(&t, "C", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 89, 22, 270);
    check_ok(&t);
    cr_expect(om_wm_table_touching(&t, a, b));
    cr_expect(om_wm_table_touching(&t, a, c));
    cr_expect(om_wm_table_engaged(&t, a));
    cr_expect(om_wm_table_engaged(&t, c));
    cr_expect_not(om_wm_table_engaged(&t, b)); /* touches only a friend */
}

/* Three enemies: E15 ahead (y 36..38), E12 beside (x 108..120), E30 far off:
 * the closest is E12 at 12cm, seen or not (Command > Command Penalties). */
Test(table, closest_enemy_seen_or_not)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(&t, "E15", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 37, 270);
    unsigned e12 = add(&t, "E12", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 114, 20, 270);
    add(&t, "E30", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 60, 52, 270);
    check_ok(&t);
    double d;
    cr_expect_eq(om_wm_table_closest_enemy(&t, a, &d), (int)e12);
    cr_expect_float_eq(d, 12.0, EPS);
    t.unit[e12].present = false; /* gone: the next closest is at 15 */
    cr_expect_eq(om_wm_table_closest_enemy(&t, a, &d), 1);
    cr_expect_float_eq(d, 15.0, EPS);
}

/* ---------- Line of sight ---------- */

/*
 *   +--B--+        B at y 39..41
 * +----W----+      W: a line of 5 stands (x 80..100) at y 29..31 blocks every line
 *   +--A--+        A at y 19..21
 */
Test(table, sight_blocked_by_a_unit_between)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 270);
    cr_expect(om_wm_table_sees(&t, REV, a, b, false));
    unsigned w = add(&t, "W", 0, OM_WM_INFANTRY, 5, OM_WM_TABLE_LINE, 90, 30, 90);
    check_ok(&t);
    cr_expect_not(om_wm_table_sees(&t, REV, a, b, false));
    /* A single stand (x 84..88) leaves the right of B in view. */
    t.unit[w].stands = t.unit[w].size = 1;
    t.unit[w].centre.x = 86;
    cr_expect(om_wm_table_sees(&t, REV, a, b, false));
    /* Characters never block: only units are obstacles (a General on the line). */
    om_wm_table_add_character(&t, "General", 0, OM_WM_GENERAL, 9, at(92, 30));
    cr_expect(om_wm_table_sees(&t, REV, a, b, false));
}

/*
 * Front-edge sight: B stands behind A. A cannot see it from its front edge, but
 * a unit that sees all round can (Movement > Moving by Initiative).
 *   +--A--+  ^
 *   +--B--+
 */
Test(table, sight_from_the_front_edge_only)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 10, 90);
    check_ok(&t);
    cr_expect_not(om_wm_table_sees(&t, REV, a, b, false));
    cr_expect(om_wm_table_sees(&t, REV, a, b, true));
    cr_expect(om_wm_table_sees(&t, REV, b, a, false)); /* B faces A's rear */
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, false, 20, 0, NULL), -1);
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, true, 20, 0, NULL), (int)b);
}

/*
 * Woods (close terrain): a line may run 2cm inside. The wood is y 25..35.
 *   A inside with its front edge 1cm from the far edge sees B; 3cm in, it does
 *   not; from outside, the wood's 10cm block every line.
 *   +--B--+            y 44..46
 *   ###########        wood y 25..35
 *   +--A--+
 */
Test(table, sight_into_and_out_of_woods)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(60, 25), at(120, 35));
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 45, 270);
    check_ok(&t);
    cr_expect_not(om_wm_table_sees(&t, REV, a, b, false));
    t.unit[a].centre.y = 33; /* front edge y=34: 1cm inside */
    cr_expect(om_wm_table_in_dense(&t, a));
    cr_expect(om_wm_table_sees(&t, REV, a, b, false));
    cr_expect(om_wm_table_sees(&t, REV, b, a, false)); /* and can be seen */
    t.unit[a].centre.y = 31; /* front edge y=32: 3cm inside */
    cr_expect_not(om_wm_table_sees(&t, REV, a, b, false));
}

/*
 * Hills block a line crossing them from outside to outside, not a line from a
 * unit standing on them (Warmaster Ancients, Visibility; Optional Rules >
 * Advanced Terrain Rules).
 */
Test(table, sight_over_a_hill)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_HILL, at(60, 25), at(120, 35));
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 45, 270);
    check_ok(&t);
    cr_expect_not(om_wm_table_sees(&t, REV, a, b, false));
    t.unit[a].centre.y = 30; /* on the hill */
    cr_expect(om_wm_table_sees(&t, REV, a, b, false));
    cr_expect_not(om_wm_table_in_dense(&t, a));
}

/* Ancients: nothing farther than 60cm is seen (Warmaster Ancients, Visibility >
 * Maximum Visibility). */
Test(table, ancients_sight_limit)
{
    om_wm_table t;
    om_wm_table_init(&t, WMA, 0, 0);
    cr_expect_float_eq(t.width_cm, 240.0, EPS);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 82, 270);
    cr_expect_float_eq(om_wm_table_distance(&t, a, b), 60.0, EPS);
    cr_expect(om_wm_table_sees(&t, WMA, a, b, false));
    t.unit[b].centre.y = 83; /* 61cm */
    cr_expect_not(om_wm_table_sees(&t, WMA, a, b, false));
    cr_expect(om_wm_table_sees(&t, REV, a, b, false));
}

/*
 * The closest visible enemy: N is nearer but hidden behind W; F is seen.
 *   +--N--+          +--F--+
 *   +==W==+
 *   +--A--+
 */
Test(table, closest_visible_enemy_skips_hidden_and_fortified)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(&t, "W", 0, OM_WM_INFANTRY, 5, OM_WM_TABLE_LINE, 90, 26, 90);
    unsigned n = add(&t, "N", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 32, 270);
    unsigned f = add(&t, "F", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 110, 36, 270);
    check_ok(&t);
    double d;
    cr_expect_eq(om_wm_table_closest_enemy(&t, a, NULL), (int)n);
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, false, 0, 0, &d), (int)f);
    /* F: x 104..116, y 35..37; A's corner (96,21): sqrt(8^2 + 14^2). */
    cr_expect_float_eq(d, sqrt(64.0 + 196.0), EPS);
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, false, 15, 0, NULL), -1);
    t.unit[f].position = OM_WM_FORTIFIED;
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, false, 0,
                                                   OM_WM_TABLE_SKIP_FORTIFIED, NULL), -1);
}

/* ---------- Faces and zones ---------- */

/*
 * Zones of T, a line of 3 infantry at (90,60) facing down (front edge y=59,
 * x 84..96). The corner bisectors run at 45 degrees from its corners:
 *
 *          R (rear)
 *      \ +--T--+ /
 *   L    +--v--+    (T's left is +x: it faces -y)
 *      /    F    \
 */
Test(table, charge_face_by_zone)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
    check_ok(&t);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_FRONT);
    t.unit[c].centre = at(120, 60);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_LEFT);
    t.unit[c].centre = at(60, 60);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_RIGHT);
    t.unit[c].centre = at(90, 80);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_REAR);
    /* (104,50): 9 beyond the front line, 8 beyond the side line: front. */
    t.unit[c].centre = at(104, 50);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_FRONT);
    /* (106,52): 7 beyond the front line, 10 beyond the side line: flank. */
    t.unit[c].centre = at(106, 52);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_LEFT);
    /* Exactly on the bisector (8 and 8): the front (T5). */
    t.unit[c].centre = at(104, 51);
    cr_expect_eq(om_wm_table_zone(&t.unit[g], t.unit[c].centre), OM_WM_TABLE_FRONT);
}

/*
 * 1.1 charges the nearest edge (Warmaster 1.1 Rules Update, P33 – The charge;
 * D1); Revolution the zone (Combat > Moving Chargers > Zones). A line of 5
 * infantry (x 94..114, y 55..57) has its centre (104,56) in T's flank zone
 * (3 beyond the front line, 8 beyond the side) but its nearest point faces T's
 * front edge 2cm away (x 94..96):
 *      +--T--+
 *            +----C----+
 */
Test(table, charge_face_rule_set_difference)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_INFANTRY, 5, OM_WM_TABLE_LINE, 104, 56, 90);
    check_ok(&t);
    cr_expect_eq(om_wm_table_charge_face(&t, REV, c, g), OM_WM_TABLE_LEFT);
    cr_expect_eq(om_wm_table_charge_face(&t, WMA, c, g), OM_WM_TABLE_LEFT);
    cr_expect_eq(om_wm_table_charge_face(&t, WM11, c, g), OM_WM_TABLE_FRONT);
    /* Corner to corner, 1.1 falls back on the zone: C beyond T's corner. */
    t.unit[c].centre = at(110, 52);
    cr_expect_eq(om_wm_table_charge_face(&t, WM11, c, g), OM_WM_TABLE_LEFT);
}

/* ---------- Charges ---------- */

/*
 * A straight charge: cavalry C (line of 3, 6 wide, 4 deep, y 43..47) 12cm from
 * T's front edge. It ends front to front, centred on T's middle stand, centre
 * (90,57): every corner moves 12cm. Pace 30 reaches; pace 10 does not.
 */
Test(table, straight_charge_reach)
{
    om_wm_table t;
    om_wm_table_charge ch;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
    check_ok(&t);
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect(ch.possible);
    cr_expect(ch.reaches);
    cr_expect_eq(ch.face, OM_WM_TABLE_FRONT);
    cr_expect_float_eq(ch.required_cm, 12.0, EPS);
    cr_expect_float_eq(ch.centre.x, 90.0, EPS);
    cr_expect_float_eq(ch.centre.y, 57.0, EPS);
    cr_expect_float_eq(ch.dir.y, 1.0, EPS);
    om_wm_table_charge_plan(&t, REV, c, g, 10, &ch);
    cr_expect(ch.possible);
    cr_expect_not(ch.reaches);
    /* Placed there, C touches T: both are engaged. */
    t.unit[c].centre = ch.centre;
    t.unit[c].dir = ch.dir;
    cr_expect(om_wm_table_engaged(&t, c));
    check_ok(&t);
}

/*
 * A flank charge from the side: C (cavalry line, facing down) at (120,60) hits
 * T's left face (x=96, y 59..61). It turns to face -x and its corners move
 * farther than its centre: the farthest-moving corner decides (T4).
 */
Test(table, flank_charge_counts_the_turn)
{
    om_wm_table t;
    om_wm_table_charge ch;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 120, 60, 270);
    check_ok(&t);
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_assert(ch.possible);
    cr_expect_eq(ch.face, OM_WM_TABLE_LEFT);
    /* Contact: C faces -x, front edge on x=96 centred at y=60: centre (98,60). */
    cr_expect_float_eq(ch.centre.x, 98.0, EPS);
    cr_expect_float_eq(ch.centre.y, 60.0, EPS);
    cr_expect_float_eq(ch.dir.x, -1.0, EPS);
    /* C's corners before: (123,58),(117,58),(117,62),(123,62) (front-left first,
     * facing -y); after (facing -x): (96,57),(96,63),(100,63),(100,57). The
     * largest move is (123,58)->(96,57): sqrt(27^2 + 1). */
    cr_expect_float_eq(ch.required_cm, sqrt(27.0 * 27.0 + 1.0), EPS);
    cr_expect(ch.reaches);
}

/*
 * A blocked path: a friendly line of 5 (x 80..100) stands between C and T; no
 * placement along T's front has a clear straight path.
 *      +--T--+
 *    +====F====+
 *      +-C-+
 */
Test(table, charge_path_blocked_by_friends)
{
    om_wm_table t;
    om_wm_table_charge ch;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
    unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 5, OM_WM_TABLE_LINE, 90, 52, 90);
    check_ok(&t);
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect_not(ch.possible);
    cr_expect_not(ch.reaches);
    /* Move F aside (x 110..130): the charge is clear again. */
    t.unit[f].centre.x = 120;
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect(ch.possible);
}

/*
 * Placement: centre to centre with the closest target stand, else shifted in
 * half-stand steps to the nearest clear spot with a clear path (T4). T's front
 * stands (x 92..96, 88..92, 84..88; T faces down) and F, one friendly cavalry
 * stand already against T's middle stand (x 89..91, y 55..59):
 *        [T3][T2][T1]         y 59..61
 *            [F]              y 55..59
 *   C here: x=86 -> straight in on T1 (centre x 86)
 *           x=93 -> straight in on T3 (centre x 94)
 *           x=90 (below F) -> the centred spot and the shifts to x 89, 91, 88
 *                             and 92 are taken by F or their paths cross F;
 *                             x 87 is clear (its path passes F's corner)
 */
Test(table, charge_placement_shifts_to_a_clear_spot)
{
    om_wm_table t;
    om_wm_table_charge ch;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 1, OM_WM_TABLE_LINE, 86, 45, 90);
    add(&t, "F", 0, OM_WM_CAVALRY, 1, OM_WM_TABLE_LINE, 90, 57, 90);
    check_ok(&t);
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_assert(ch.possible);
    cr_expect_float_eq(ch.centre.x, 86.0, EPS);
    cr_expect_float_eq(ch.required_cm, 12.0, EPS);
    t.unit[c].centre.x = 93;
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_assert(ch.possible);
    cr_expect_float_eq(ch.centre.x, 94.0, EPS);
    t.unit[c].centre.x = 90;
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_assert(ch.possible);
    cr_expect_float_eq(ch.centre.x, 87.0, EPS);
    cr_expect_float_eq(ch.required_cm, sqrt(9.0 + 144.0), EPS);
}

/* Terrain and fortified targets: cavalry cannot charge through a wood nor
 * contact a fortified unit; infantry can (Movement > Terrain; Combat > Defended
 * & Fortified Troops). */
Test(table, charge_blocked_by_terrain_and_fortification)
{
    om_wm_table t;
    om_wm_table_charge ch;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned g = add(&t, "T", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 40, 90);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(60, 48), at(120, 54));
    check_ok(&t);
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect_not(ch.possible);
    t.unit[c].troop = OM_WM_INFANTRY; /* infantry pass through woods */
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect(ch.possible);
    t.terrain_pieces = 0;
    t.unit[c].troop = OM_WM_CAVALRY;
    t.unit[g].position = OM_WM_FORTIFIED;
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect_not(ch.possible);
    t.unit[c].troop = OM_WM_INFANTRY;
    om_wm_table_charge_plan(&t, REV, c, g, 30, &ch);
    cr_expect(ch.possible);
}

/* ---------- Moves ---------- */

static const om_wm_table_move_rule plain_move = {.enemy_gap_cm = 1, .target = -1};

/* A free move goes its full allowance; the goal caps it. */
Test(table, move_full_pace_and_goal)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    moved = om_wm_table_move(&t, REV, a, at(90, 70), 20, &plain_move, NULL);
    cr_expect_float_eq(moved, 20.0, EPS);
    cr_expect_float_eq(t.unit[a].centre.y, 40.0, EPS);
    moved = om_wm_table_move(&t, REV, a, at(90, 45), 20, &plain_move, NULL);
    cr_expect_float_eq(moved, 5.0, EPS);
    cr_expect_float_eq(t.unit[a].centre.y, 45.0, EPS);
}

/*
 * An enemy in the way: B (y 34..36) grown by the 1cm gap: A's front (y=21)
 * stops at y=33, 12cm on.
 *   +--B--+
 *   +--A--+ ^
 */
Test(table, move_stops_short_of_enemies)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 35, 270);
    moved = om_wm_table_move(&t, REV, a, at(90, 70), 20, &plain_move, NULL);
    cr_expect_float_eq(moved, 12.0, 1e-6);
    moved = om_wm_table_move(&t, REV, a, at(90, 70), 20, &plain_move, NULL);
    cr_expect_float_eq(moved, 0.0, 1e-6);
    /* Away from it is free, even from 1cm. */
    moved = om_wm_table_move(&t, REV, a, at(90, 0), 5, &plain_move, NULL);
    cr_expect_float_eq(moved, 5.0, EPS);
}

/* Terrain closed to a troop type halts it at the edge; infantry walk in
 * (Movement > Terrain: "they will halt at the edge"). A column of cavalry
 * (y 14..26) halts 14cm on at the wood (y 40..60); as infantry it walks 30cm
 * into it; then 30cm more, and only 20cm before its front reaches the table
 * edge. */
Test(table, move_halts_at_closed_terrain_and_table_edge)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(80, 40), at(100, 60));
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_COLUMN, 90, 20, 90);
    moved = om_wm_table_move(&t, REV, c, at(90, 100), 30, &plain_move, NULL);
    cr_expect_float_eq(moved, 14.0, 1e-6);
    t.unit[c].troop = OM_WM_INFANTRY;
    moved = om_wm_table_move(&t, REV, c, at(90, 100), 30, &plain_move, NULL);
    cr_expect_float_eq(moved, 30.0, 1e-6);
    moved = om_wm_table_move(&t, REV, c, at(90, 200), 30, &plain_move, NULL);
    cr_expect_float_eq(moved, 30.0, 1e-6);
    moved = om_wm_table_move(&t, REV, c, at(90, 200), 30, &plain_move, NULL);
    cr_expect_float_eq(moved, 20.0, 1e-6);
    cr_expect_float_eq(t.unit[c].centre.y, 114.0, 1e-6);
}

static const om_wm_table_move_rule round_move = {.enemy_gap_cm = 1, .target = -1,
                                                 .round = true};

/*
 * A second line passes the first: A (x 84..96, front y 21) is held up 4cm on
 * by friend B (y 25..27) going straight; going round it slants 13cm to the
 * right (B's 6cm + A's 6cm + OM_WM_TABLE_ROUND_CM) and 4cm on, sqrt(185)cm,
 * then goes straight on for the rest of its 20cm.
 *   +--B--+
 *   +--A--+ -> +--A--+ ^
 */
Test(table, move_goes_round_a_friend)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 26, 90);
    om_wm_table held = t;
    moved = om_wm_table_move(&held, REV, a, at(90, 70), 20, &plain_move, NULL);
    cr_expect_float_eq(moved, 4.0, 1e-6);
    moved = om_wm_table_move(&t, REV, a, at(90, 70), 20, &round_move, NULL);
    cr_expect_float_eq(moved, 20.0, 1e-6);
    cr_expect_float_eq(t.unit[a].centre.x, 103.0, 1e-6);
    cr_expect_float_eq(t.unit[a].centre.y, 24.0 + 20.0 - sqrt(185.0), 1e-6);
    check_ok(&t);
}

/*
 * A brigade of the second line passes the first as one body: A1 and A2 (x 84
 * to 108, touching) held up 4cm on by friend B (x 84..96) go round its right
 * edge, the body's 24cm width clearing it: 13cm across (B's 6cm right of A1's
 * centre, A1's 6cm left of it, OM_WM_TABLE_ROUND_CM), 4cm on, then straight on
 * for the rest of 20cm.
 */
Test(table, group_goes_round_a_friend)
{
    om_wm_table t;
    om_wm_table_move_rule body = round_move;
    om_wm_table_init(&t, REV, 0, 0);
    const unsigned g[2] = {add(&t, "A1", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90),
                           add(&t, "A2", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90)};
    add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 26, 90);
    om_wm_table held = t;
    double moved = om_wm_table_move_group(&held, REV, g, 2, at(90, 70), 20, &plain_move);
    cr_expect_float_eq(moved, 4.0, 1e-6);
    moved = om_wm_table_move_group(&t, REV, g, 2, at(90, 70), 20, &body);
    cr_expect_float_eq(moved, 20.0, 1e-6);
    cr_expect_float_eq(t.unit[g[0]].centre.x, 103.0, 1e-6);
    cr_expect_float_eq(t.unit[g[1]].centre.x, 115.0, 1e-6);
    cr_expect_float_eq(t.unit[g[0]].centre.y, 24.0 + 20.0 - sqrt(185.0), 1e-6);
    cr_expect_float_eq(t.unit[g[1]].centre.y, t.unit[g[0]].centre.y, 1e-9);
    check_ok(&t);
}

/* An enemy in the way is not gone round: the move stops short of it as a
 * straight one does. */
Test(table, move_does_not_go_round_an_enemy)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 35, 270);
    const double moved = om_wm_table_move(&t, REV, a, at(90, 70), 20, &round_move, NULL);
    cr_expect_float_eq(moved, 12.0, 1e-6);
    cr_expect_float_eq(t.unit[a].centre.x, 90.0, 1e-9);
}

/*
 * Round terrain closed to it: the cavalry column (x 89..91, y 14..26) halted
 * 14cm on by the wood (x 80..100, from y 40) goes round its right edge: 12cm
 * across (10 + 1 + OM_WM_TABLE_ROUND_CM) and 14cm on, sqrt(340)cm, then
 * straight on beside the wood for the rest of its 30cm.
 */
Test(table, move_goes_round_closed_terrain)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(80, 40), at(100, 60));
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_COLUMN, 90, 20, 90);
    const double moved = om_wm_table_move(&t, REV, c, at(90, 100), 30, &round_move, NULL);
    cr_expect_float_eq(moved, 30.0, 1e-6);
    cr_expect_float_eq(t.unit[c].centre.x, 102.0, 1e-6);
    cr_expect_float_eq(t.unit[c].centre.y, 34.0 + 30.0 - sqrt(340.0), 1e-6);
    check_ok(&t);
}

/* Turning to face the way: an infantry line goes sideways after turning when
 * the turned rectangle is clear (T2). */
Test(table, move_turns_to_face_its_way)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    om_wm_table_move_rule r = plain_move;
    r.turn = true;
    moved = om_wm_table_move(&t, REV, a, at(150, 20), 20, &r, NULL);
    cr_expect_float_eq(moved, 20.0, EPS);
    cr_expect_float_eq(om_wm_table_facing_deg(t.unit[a].dir), 0.0, EPS);
    cr_expect_float_eq(t.unit[a].centre.x, 110.0, EPS);
}

/* Flyers pass over units and terrain and end clear of them (T8). */
Test(table, flyers_pass_over)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned f = add(&t, "F", 0, OM_WM_MONSTER, 1, OM_WM_TABLE_LINE, 90, 20, 90);
    t.unit[f].traits = OM_WM_TABLE_TRAIT_FLYER;
    t.unit[f].pace_cm = 100;
    add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 270);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(80, 60), at(100, 70));
    /* To (90,50): over B (y 39..41), ends clear. */
    moved = om_wm_table_move(&t, REV, f, at(90, 50), 100, &plain_move, NULL);
    cr_expect_float_eq(moved, 30.0, 1e-6);
    /* To (90,65), inside the wood: it may not end there; it backs off in 1cm
     * steps to where its 4cm-deep stand (y 61..59 -> front at 60) is clear. */
    moved = om_wm_table_move(&t, REV, f, at(90, 65), 100, &plain_move, NULL);
    cr_expect_float_eq(moved, 8.0, 1e-6);
    cr_expect_leq(t.unit[f].centre.y + 2, 60.0 + 1e-9);
}

/*
 * Evading through friends (The path of evaders: a burst through): E moves 30cm
 * straight down. It passes wholly through friend F (y 29..31); ending at
 * y 9..11 would put it on friend G (y 9..11), so it stops touching G, its rear
 * edge at y=11: 28cm. Only F was burst through.
 *   +--E--+   y 39..41  v
 *   +--F--+   y 29..31
 *   +--G--+   y 9..11
 */
Test(table, burst_through_friends)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned e = add(&t, "E", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 90);
    unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 30, 90);
    add(&t, "G", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 10, 90);
    check_ok(&t);
    om_wm_table_move_rule r = plain_move;
    om_wm_unit_set burst = {0}, only_f = {0};
    r.through_friends = true;
    moved = om_wm_table_move(&t, REV, e, at(90, 0), 30, &r, &burst);
    cr_expect_float_eq(moved, 28.0, 1e-6);
    om_wm_unit_set_add(&only_f, f);
    cr_expect(memcmp(&burst, &only_f, sizeof burst) == 0, "F alone burst through");
    /* Without bursting through, F stops it at once (it touches F after 8cm). */
    om_wm_table_init(&t, REV, 0, 0);
    e = add(&t, "E", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 90);
    add(&t, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 30, 90);
    moved = om_wm_table_move(&t, REV, e, at(90, 0), 30, &plain_move, NULL);
    cr_expect_float_eq(moved, 8.0, 1e-6);
}

/* A brigade moves as one body and stops where its first unit is stopped. */
Test(table, group_moves_as_a_body)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    add(&t, "E", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 104, 31, 270); /* y 30..32 */
    unsigned u[2] = {a, b};
    /* B's front (y=21) meets E grown by 1cm (y=29) after 8cm. */
    moved = om_wm_table_move_group(&t, REV, u, 2, at(90, 60), 20, &plain_move);
    cr_expect_float_eq(moved, 8.0, 1e-6);
    cr_expect_float_eq(t.unit[a].centre.y, 28.0, 1e-6);
    cr_expect(om_wm_table_touching(&t, a, b));
}

/* ---------- What lies behind ---------- */

/*
 *   +--A--+  y 19..21, facing up; nothing behind within 10cm: open; the table
 *            edge (y=0) 19cm behind.
 */
Test(table, behind_open_and_table_edge)
{
    om_wm_table t;
    om_wm_table_behind bh;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    om_wm_table_behind_of(&t, REV, a, 10, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_OPEN);
    om_wm_table_behind_of(&t, REV, a, 30, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_TABLE_EDGE);
    cr_expect_float_eq(bh.cm, 19.0, 1e-6);
    cr_expect_eq(bh.stands, 3);
}

/*
 * Friends behind, unyielding when engaged, enemies, impassable terrain, and
 * the stands whose path is blocked: a single friendly stand F (x 84..88) 8cm
 * behind A blocks only A's left-hand stand.
 *   +--A--+        y 19..21
 *   +F+            y 9..11
 */
Test(table, behind_friends_enemies_and_terrain)
{
    om_wm_table t;
    om_wm_table_behind bh;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 86, 10, 90);
    om_wm_table_behind_of(&t, REV, a, 30, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_FRIENDS);
    cr_expect_float_eq(bh.cm, 8.0, 1e-6);
    cr_expect_eq(bh.stands, 1);
    cr_expect_eq(bh.unit, (int)f);
    /* F engaged by an enemy touching its rear: unyielding. */
    add(&t, "X", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 86, 8, 90);
    om_wm_table_behind_of(&t, REV, a, 30, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_UNYIELDING);
    /* F a whole enemy line instead: enemy, all 3 stands. */
    t.units = 2;
    t.unit[f].side = 1;
    t.unit[f].stands = t.unit[f].size = 3;
    t.unit[f].centre.x = 90;
    om_wm_table_behind_of(&t, REV, a, 30, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_ENEMY);
    cr_expect_eq(bh.stands, 3);
    /* A river 3cm behind instead: impassable. */
    t.unit[f].present = false;
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_RIVER, at(0, 10), at(180, 16));
    om_wm_table_behind_of(&t, REV, a, 30, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_IMPASSABLE);
    cr_expect_float_eq(bh.cm, 3.0, 1e-6);
    /* A wood is closed to cavalry only. */
    t.terrain[0].kind = OM_WM_TERRAIN_WOOD;
    om_wm_table_behind_of(&t, REV, a, 30, &bh);
    cr_expect_eq(bh.kind, OM_WM_BEHIND_TABLE_EDGE);
}

/*
 * Two things met at the same distance behind are met together, whatever their
 * indices or sides (Combat > Retreats > Blocked retreats): two single friendly
 * stands 8cm behind A's left and right stands block two stands, and an enemy
 * stand beside a friend at that distance makes it an enemy behind, blocking
 * the one stand the enemy is behind, whichever of them comes first on the
 * table.
 *   +--A--+        y 19..21
 *   +F+ +G+        y 9..11 (F x 84..88, G x 92..96)
 */
Test(table, behind_everything_met_at_once)
{
    om_wm_table t;
    om_wm_table_behind bh;
    for (unsigned order = 0; order < 2; order++) {
        om_wm_table_init(&t, REV, 0, 0);
        unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
        unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, order ? 94 : 86, 10, 90);
        unsigned g = add(&t, "G", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, order ? 86 : 94, 10, 90);
        check_ok(&t);
        om_wm_table_behind_of(&t, REV, a, 30, &bh);
        cr_expect_eq(bh.kind, OM_WM_BEHIND_FRIENDS);
        cr_expect_float_eq(bh.cm, 8.0, 1e-6);
        cr_expect_eq(bh.stands, 2, "order %u: both friends block a stand each", order);
        /* One of them an enemy: an enemy behind, its one stand blocked. */
        t.unit[order ? g : f].side = 1;
        om_wm_table_update(&t, OM_WM_TABLE_ALL);
        om_wm_table_behind_of(&t, REV, a, 30, &bh);
        cr_expect_eq(bh.kind, OM_WM_BEHIND_ENEMY, "order %u", order);
        cr_expect_eq(bh.stands, 1, "order %u", order);
        cr_expect_eq(bh.unit, (int)(order ? g : f), "order %u", order);
    }
}

/* ---------- Terrain status and paces ---------- */

/* Dense terrain and cover (Command > Command Penalties; Combat > Defended &
 * Fortified Troops): a wood makes infantry defended; a low wall it touches too;
 * a high wall fortified; cavalry never. */
Test(table, dense_and_position_from_terrain)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned c = add(&t, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 40, 20, 90);
    cr_expect_eq(om_wm_table_position(&t, a), OM_WM_OPEN);
    cr_expect_not(om_wm_table_in_dense(&t, a));
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(94, 10), at(110, 30));
    cr_expect(om_wm_table_in_dense(&t, a)); /* one stand partly inside */
    cr_expect_eq(om_wm_table_position(&t, a), OM_WM_DEFENDED);
    t.terrain[0].kind = OM_WM_TERRAIN_HILL;
    cr_expect_not(om_wm_table_in_dense(&t, a));
    /* A low wall along A's front edge (y 21..22): touching it, defended. */
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_LOW_OBSTACLE, at(80, 21), at(100, 22));
    cr_expect_eq(om_wm_table_position(&t, a), OM_WM_DEFENDED);
    t.terrain[1].kind = OM_WM_TERRAIN_HIGH_OBSTACLE;
    cr_expect_eq(om_wm_table_position(&t, a), OM_WM_FORTIFIED);
    cr_expect_float_eq(om_wm_table_move_pace(&t, a), 10.0, EPS); /* fortified: half */
    t.unit[c].position = OM_WM_DEFENDED;
    cr_expect_eq(om_wm_table_position(&t, c), OM_WM_OPEN);
    t.unit[c].dense = true;
    cr_expect(om_wm_table_in_dense(&t, c));
}

/* Paces (Movement > Formation & Movement; Warmaster Ancients, Movement >
 * Formation): irregular moves at half pace; Revolution charges at full pace
 * whatever the formation, Ancients at the formation's pace; skirmishers always
 * full. */
Test(table, paces_by_formation_and_rule_set)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_IRREGULAR, 90, 20, 90);
    cr_expect_float_eq(om_wm_table_move_pace(&t, a), 15.0, EPS);
    cr_expect_float_eq(om_wm_table_charge_pace(&t, REV, a), 30.0, EPS);
    cr_expect_float_eq(om_wm_table_charge_pace(&t, WM11, a), 30.0, EPS);
    cr_expect_float_eq(om_wm_table_charge_pace(&t, WMA, a), 15.0, EPS);
    t.unit[a].traits = OM_WM_TABLE_TRAIT_SKIRMISH;
    cr_expect_float_eq(om_wm_table_move_pace(&t, a), 30.0, EPS);
    cr_expect_float_eq(om_wm_table_charge_pace(&t, WMA, a), 30.0, EPS);
    t.unit[a].traits = 0;
    t.unit[a].formation = OM_WM_TABLE_COLUMN;
    cr_expect_float_eq(om_wm_table_move_pace(&t, a), 30.0, EPS);
    /* Irregular: 2 files of a 3-stand unit is 2 wide, 2 ranks deep. */
    t.unit[a].formation = OM_WM_TABLE_IRREGULAR;
    cr_expect_float_eq(om_wm_table_unit_width(&t.unit[a]), 4.0, EPS);
    cr_expect_float_eq(om_wm_table_unit_depth(&t.unit[a]), 8.0, EPS);
}

/* Stand sizes by rule set (Game Values; Warmaster Ancients, Game Values > Types of
 * Troops). */
Test(table, stand_sizes)
{
    double w, d;
    om_wm_table_stand_size(REV, OM_WM_CAVALRY, &w, &d);
    cr_expect(w == 2 && d == 4);
    om_wm_table_stand_size(WMA, OM_WM_CAVALRY, &w, &d);
    cr_expect(w == 4 && d == 2);
    om_wm_table_stand_size(WM11, OM_WM_INFANTRY, &w, &d);
    cr_expect(w == 4 && d == 2);
    cr_expect(om_wm_table_terrain_closed(REV, OM_WM_TERRAIN_STREAM, OM_WM_CHARIOT));
    cr_expect_not(om_wm_table_terrain_closed(WMA, OM_WM_TERRAIN_STREAM, OM_WM_CHARIOT));
    cr_expect_str_eq(om_wm_terrain_names[OM_WM_TERRAIN_LOW_OBSTACLE], "low-obstacle");
}

/* ---------- The check: every error path once ---------- */

/* A valid table to break: two touching friends in a brigade, an enemy, a
 * General and a Hero, a wood. */
static void base_table(om_wm_table *t)
{
    unsigned u[2] = {0, 1};
    om_wm_table_init(t, REV, 0, 0);
    add(t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    add(t, "E", 1, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 80, 270);
    om_wm_table_add_character(t, "General", 0, OM_WM_GENERAL, 9, at(90, 10));
    om_wm_table_add_character(t, "Hero", 0, OM_WM_HERO, 8, at(60, 10));
    om_wm_table_add_rect_terrain(t, OM_WM_TERRAIN_WOOD, at(20, 40), at(40, 60));
    om_wm_table_add_brigade(t, u, 2);
}

typedef struct bad_case {
    const char *what;  /* the change */
    const char *field; /* expected dotted path */
} bad_case;

static void breaker(om_wm_table *t, unsigned k)
{
    switch (k) {
    case 0: t->width_cm = 0; break;
    case 1: t->units = OM_WM_TABLE_MAX_UNITS + 1; break;
    case 2: t->terrain[0].kind = OM_WM_TERRAIN_KIND_COUNT; break;
    case 3: t->terrain[0].vertices = 2; break;
    case 4: { /* a concave L: corners (20,40) (40,40) (40,50) (30,50) (30,60) (20,60) */
        om_wm_vec v[6] = {{20, 40}, {40, 40}, {40, 50}, {30, 50}, {30, 60}, {20, 60}};
        t->terrain[0].vertices = 6;
        memcpy(t->terrain[0].v, v, sizeof v);
        break;
    }
    case 5: { /* three collinear corners: no area */
        om_wm_vec v[3] = {{20, 40}, {30, 40}, {40, 40}};
        t->terrain[0].vertices = 3;
        memcpy(t->terrain[0].v, v, sizeof v);
        break;
    }
    case 6: t->unit[2].side = 2; break;
    case 7: t->unit[2].troop = OM_WM_TROOP_COUNT; break;
    case 8: t->unit[2].size = 0; break;
    case 9: t->unit[2].stands = 4; break;
    case 10: t->unit[2].pace_cm = 0; break;
    case 11: t->unit[2].stand_w = 0; break;
    case 12: t->unit[2].formation = OM_WM_TABLE_FORMATION_COUNT; break;
    case 13: t->unit[2].formation = OM_WM_TABLE_IRREGULAR; t->unit[2].files = 3; break;
    case 14: t->unit[2].dir.x = 2; break;
    case 15: t->unit[2].position = OM_WM_POSITION_COUNT; break;
    case 16: t->unit[2].centre.y = 119; break;
    case 17: t->unit[2].centre = at(92, 21); break;
    case 18: t->unit[2].centre = at(30, 50); break;
    case 19: t->character[1].side = 3; break;
    case 20: t->character[1].kind = OM_WM_CHARACTER_KIND_COUNT; break;
    case 21: t->character[1].command = 11; break;
    case 22: t->character[1].radius_cm = 9; break;
    case 23: t->character[1].at = at(-1, 10); break;
    case 24: t->character[1].joined = 2; break;
    case 25: t->character[1].follow = 9; break;
    case 26: t->character[1].kind = OM_WM_GENERAL; break;
    case 27: t->brigade[0].count = 1; break;
    case 28: t->brigade[0].unit[1] = 9; break;
    case 29: t->brigade[0].unit[1] = 2; break;
    case 30: t->brigade[0].unit[1] = 0; break;
    case 31: { /* a second brigade reusing unit 1 */
        unsigned u[2] = {1, 0};
        om_wm_table_add_brigade(t, u, 2);
        break;
    }
    case 32: t->unit[1].centre.x = 103; break; /* a 1cm gap: not touching */
    default: break;
    }
}

static const bad_case bad_cases[] = {
    {"table size", "table"},
    {"too many units", "units"},
    {"terrain kind", "terrain[0].kind"},
    {"two corners", "terrain[0].points"},
    {"concave piece", "terrain[0].points"},
    {"no area", "terrain[0].points"},
    {"side", "units[2].side"},
    {"troop type", "units[2].type"},
    {"size", "units[2].size"},
    {"stands above size", "units[2].stands"},
    {"pace", "units[2].pace"},
    {"stand size", "units[2].stand"},
    {"formation", "units[2].formation"},
    {"irregular files", "units[2].files"},
    {"facing", "units[2].facing"},
    {"position", "units[2].position"},
    {"off the table", "units[2].at"},
    {"overlapping units", "units[2].at"},
    {"cavalry in a wood", "units[2].at"},
    {"character side", "characters[1].side"},
    {"character kind", "characters[1].kind"},
    {"command value", "characters[1].command"},
    {"base radius", "characters[1].radius"},
    {"character off the table", "characters[1].at"},
    {"joined an enemy", "characters[1].joined"},
    {"follows no unit", "characters[1].follow"},
    {"two Generals", "characters[1].kind"},
    {"one-unit brigade", "brigades[0].units"},
    {"unit not on the table", "brigades[0].units"},
    {"enemy in a brigade", "brigades[0].units"},
    {"unit listed twice", "brigades[0].units"},
    {"unit in two brigades", "brigades[1].units"},
    {"brigade that does not touch", "brigades[0].units"},
};

Test(table, check_rejects_contradictory_positions)
{
    om_wm_table t;
    base_table(&t);
    check_ok(&t);
    for (unsigned k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++) {
        om_wm_check_failure why;
        memset(&why, 0, sizeof why);
        base_table(&t);
        breaker(&t, k);
        cr_expect_eq(om_wm_table_check(&t, REV, &why), OM_EINVAL, "%s accepted", bad_cases[k].what);
        cr_expect_str_eq(why.field, bad_cases[k].field, "%s: field %s (%s)", bad_cases[k].what,
                         why.field, why.reason);
        cr_expect_neq(why.reason[0], '\0', "%s: no reason", bad_cases[k].what);
        cr_expect(strstr(om_error_message(), why.field) != NULL, "%s: message %s",
                  bad_cases[k].what, om_error_message());
    }
    /* Without a failure record the status is the same. */
    base_table(&t);
    breaker(&t, 32);
    cr_expect_eq(om_wm_table_check(&t, REV, NULL), OM_EINVAL);
}

/* The builders refuse what cannot be stored. */
Test(table, builders_refuse_bad_values)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    cr_expect_eq(om_wm_table_add_unit(&t, REV, "X", 2, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE,
                                      at(1, 1), 0), -1);
    cr_expect_eq(om_wm_table_add_unit(&t, REV, "X", 0, OM_WM_INFANTRY, 0, OM_WM_TABLE_LINE,
                                      at(1, 1), 0), -1);
    cr_expect_eq(om_wm_table_add_character(&t, "X", 0, OM_WM_CHARACTER_KIND_COUNT, 9, at(1, 1)),
                 -1);
    cr_expect_eq(om_wm_table_add_terrain(&t, OM_WM_TERRAIN_WOOD, NULL, 99), -1);
    unsigned u[5] = {0, 1, 2, 3, 4};
    cr_expect_eq(om_wm_table_add_brigade(&t, u, 5), -1);
}

/* ---------- Stands: contacts and supports (Combat > Attacks; Attack Modifiers;
 * Supporting Troops) ---------- */

/*
 *   y=53 +--B--+      B: line of 3 infantry at (90,52) facing down, x 84..96
 *   y=51 +==A==+      A: line of 3 infantry at (90,50) facing up: front edges flush
 *   y=49 +-----+
 * Every stand of both touches the other along its front edge; nobody is flanked.
 * Stand 1 of A's stands sits at x 88..92 (file 1 of 3).
 */
Test(table, stands_in_frontal_contact)
{
    om_wm_table t;
    om_wm_table_touch tc;
    om_wm_vec c[4];
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 50, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 52, 270);
    check_ok(&t);
    om_wm_table_stand_corners(&t.unit[a], 1, c);
    cr_expect(fabs(c[0].x - 88) < EPS && fabs(c[0].y - 51) < EPS, "front-left (88,51)");
    cr_expect(fabs(c[2].x - 92) < EPS && fabs(c[2].y - 49) < EPS, "rear-right (92,49)");
    for (unsigned i = 0; i < 3; i++) {
        om_wm_table_stand_touch(&t, a, i, b, &tc);
        cr_expect(tc.touches && tc.edges == 1u << OM_WM_TABLE_FRONT && !tc.flanked,
                  "A stand %u: touches %d edges %u flanked %d", i, tc.touches, tc.edges,
                  tc.flanked);
        om_wm_table_stand_touch(&t, b, i, a, &tc);
        cr_expect(tc.touches && tc.edges == 1u << OM_WM_TABLE_FRONT && !tc.flanked, "B %u", i);
    }
}

/*
 * C (2 cavalry stands, each 2 wide and 4 deep, facing left at (98,50): x 96..100,
 * y 48..52) has charged the right flank of B (line of 3 infantry facing up at
 * (90,50): x 84..96, y 49..51):
 *        +--+--+--+ C
 *        |  |  |B2|<|
 *        +--+--+--+ |
 * B's stand 2 is touched on its right edge by C's front edge: flanked; its
 * stands 0 and 1 do not touch C. Both of C's stands touch B with their front
 * edge (overlaps y 49..50 and 50..51) and are not flanked (they lie in B's
 * right zone, not its front).
 */
Test(table, stands_in_flank_contact)
{
    om_wm_table t;
    om_wm_table_touch tc;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 50, 90);
    unsigned c = add(&t, "C", 1, OM_WM_CAVALRY, 2, OM_WM_TABLE_LINE, 98, 50, 180);
    check_ok(&t);
    om_wm_table_stand_touch(&t, b, 2, c, &tc);
    cr_expect(tc.touches && tc.edges == 1u << OM_WM_TABLE_RIGHT && tc.flanked,
              "B2: edges %u flanked %d", tc.edges, tc.flanked);
    for (unsigned i = 0; i < 2; i++) {
        om_wm_table_stand_touch(&t, b, i, c, &tc);
        cr_expect_not(tc.touches, "B%u", i);
        om_wm_table_stand_touch(&t, c, i, b, &tc);
        cr_expect(tc.touches && tc.edges == 1u << OM_WM_TABLE_FRONT && !tc.flanked, "C%u", i);
    }
}

/*
 * Two enemy lines side by side, facing the same way, B set back by 1cm:
 * side-to-side contact is no flank (Combat > Attack Modifiers), though B's
 * front corner touches A's side edge. And corner to corner only: D's
 * front-right corner on A's front-right corner: a touch along no edge.
 */
Test(table, side_to_side_and_corner_contacts)
{
    om_wm_table t;
    om_wm_table_touch tc;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 90, 50, 90);
    unsigned b = add(&t, "B", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 94, 49, 90);
    unsigned d = add(&t, "D", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 90, 60, 270);
    check_ok(&t);
    om_wm_table_stand_touch(&t, a, 0, b, &tc);
    cr_expect(tc.touches && tc.edges == 1u << OM_WM_TABLE_RIGHT && !tc.flanked,
              "side to side: edges %u flanked %d", tc.edges, tc.flanked);
    /* D faces down at (94,52): its front edge runs x 92..96 at y 51 and meets A
     * (x 88..92, y 49..51) only at the corner (92,51). */
    t.unit[d].centre = at(94, 52);
    t.unit[b].present = false;
    om_wm_table_stand_touch(&t, a, 0, d, &tc);
    cr_expect(tc.touches && tc.edges == 0 && !tc.flanked, "corner: edges %u", tc.edges);
}

/*
 * Supports (Combat > Supporting Troops): a column of 3 infantry, A (facing up,
 * centred at (60,53): y 50..56): stand 1 is exactly behind stand 0, stand 2
 * behind stand 1 (and not behind stand 0). A line L of 2 beside F (1 stand at
 * (100,50)): L's stand 0 is beside F, its stand 1 is not. R behind F, 0.5cm off
 * line: lined up (within 1cm); S behind R, 1.5cm off line: not; W behind U
 * facing the other way: not.
 */
Test(table, supporting_stands)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_COLUMN, 60, 53, 90);
    unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 100, 50, 90);
    unsigned l = add(&t, "L", 0, OM_WM_INFANTRY, 2, OM_WM_TABLE_LINE, 106, 50, 90);
    unsigned r = add(&t, "R", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 100.5, 48, 90);
    unsigned s = add(&t, "S", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 102, 46, 90);
    unsigned u = add(&t, "U", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 120, 50, 90);
    unsigned w = add(&t, "W", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 120, 48, 270);
    check_ok(&t);
    cr_expect_eq(om_wm_table_stand_support(&t, a, 1, a, 0), OM_WM_TABLE_SUPPORT_REAR);
    cr_expect_eq(om_wm_table_stand_support(&t, a, 2, a, 1), OM_WM_TABLE_SUPPORT_REAR);
    cr_expect_eq(om_wm_table_stand_support(&t, a, 2, a, 0), OM_WM_TABLE_NO_SUPPORT);
    cr_expect_eq(om_wm_table_stand_support(&t, l, 0, f, 0), OM_WM_TABLE_SUPPORT_SIDE);
    cr_expect_eq(om_wm_table_stand_support(&t, l, 1, f, 0), OM_WM_TABLE_NO_SUPPORT);
    cr_expect_eq(om_wm_table_stand_support(&t, r, 0, f, 0), OM_WM_TABLE_SUPPORT_REAR);
    cr_expect_eq(om_wm_table_stand_support(&t, s, 0, r, 0), OM_WM_TABLE_NO_SUPPORT,
                 "1.5cm out of line");
    cr_expect_eq(om_wm_table_stand_support(&t, w, 0, u, 0), OM_WM_TABLE_NO_SUPPORT,
                 "facing another way");
    cr_expect_float_eq(om_wm_table_stand_distance(&t, f, 0, l), 0.0, EPS);
    cr_expect_float_eq(om_wm_table_stand_distance(&t, l, 1, f), 4.0, EPS);
}

/* Engaged enemies are no targets for shooting (Shooting > Targets): the filter
 * skips them and the next closest visible enemy is the target. */
Test(table, closest_visible_enemy_skips_engaged)
{
    om_wm_table t;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned near = add(&t, "Near", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 30, 270);
    unsigned far = add(&t, "Far", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 120, 40, 270);
    add(&t, "Friend", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 32, 90); /* touches Near */
    check_ok(&t);
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, false, 30, 0, NULL), (int)near);
    cr_expect_eq(om_wm_table_closest_visible_enemy(&t, REV, a, false, 30,
                                                   OM_WM_TABLE_SKIP_ENGAGED, NULL),
                 (int)far);
}

/* ---------- The memo: exactly the answers worked out ---------- */

/* A small deterministic generator for the layouts below (SplitMix64). */
static uint64_t mix_state;
static double uniform(double lo, double hi)
{
    uint64_t z = (mix_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

/* A random table: up to 10 units of both sides, in lines, columns and
 * irregular blocks, at any facing, some touching, a wood, a hill and a
 * river; two characters. Units that overlap or leave the table are dropped
 * (the check refuses them). */
static void random_table(om_wm_table *t, om_wm_ruleset_id rules)
{
    om_wm_table_init(t, rules, 0, 0);
    om_wm_table_add_rect_terrain(t, OM_WM_TERRAIN_WOOD, at(uniform(20, 80), 40),
                                 at(uniform(90, 120), 60));
    om_wm_table_add_rect_terrain(t, OM_WM_TERRAIN_HILL, at(130, 30), at(150, 50));
    om_wm_table_add_rect_terrain(t, OM_WM_TERRAIN_RIVER, at(0, 90), at(40, 95));
    for (unsigned k = 0; k < 10; k++) {
        const unsigned side = k % 2;
        const om_wm_troop troop = (om_wm_troop)(k % 3 == 2 ? OM_WM_CAVALRY : OM_WM_INFANTRY);
        const double y = side == 0 ? uniform(15, 55) : uniform(45, 85);
        const double facing = (side == 0 ? 90 : 270) + (k % 4 == 3 ? uniform(-60, 60) : 0);
        int u = om_wm_table_add_unit(t, rules, "U", side, troop, 3,
                                     (om_wm_table_formation)(k % 3), at(uniform(20, 160), y),
                                     facing);
        om_wm_check_failure why;
        cr_assert_geq(u, 0);
        if (om_wm_table_check(t, rules, &why) != OM_OK)
            t->units--; /* overlapping or off the table: drop it */
    }
    om_wm_table_add_character(t, "General", 0, OM_WM_GENERAL, 9, at(uniform(20, 160), 8));
    om_wm_table_add_character(t, "Hero", 1, OM_WM_HERO, 8, at(uniform(20, 160), 110));
}

/* Every question of table a (with a memo) and b (without) has the same
 * answer, bit for bit. */
static void same_answers(const om_wm_table *a, const om_wm_table *b, om_wm_ruleset_id rules)
{
    cr_assert_eq(om_wm_table_any_contact(a), om_wm_table_any_contact(b));
    for (unsigned u = 0; u < b->units; u++) {
        double ca, cb;
        om_wm_table_behind bha, bhb;
        cr_assert_eq(om_wm_table_engaged(a, u), om_wm_table_engaged(b, u));
        cr_assert_eq(om_wm_table_in_dense(a, u), om_wm_table_in_dense(b, u));
        cr_assert_eq(om_wm_table_position(a, u), om_wm_table_position(b, u));
        cr_assert_eq(om_wm_table_closest_enemy(a, u, &ca), om_wm_table_closest_enemy(b, u, &cb));
        cr_assert(memcmp(&ca, &cb, sizeof ca) == 0);
        /* Whether an enemy is within a reach: the closest enemy's answer, the
         * circles' bound only sparing the work (Command > Command Penalties:
         * 20cm, and reaches either side of it). */
        for (double reach = 2.5; reach <= 80; reach *= 2) {
            const bool within = om_wm_table_closest_enemy(b, u, &cb) >= 0 && cb <= reach + 1e-9;
            cr_assert_eq(om_wm_table_enemy_within(a, u, reach), within, "unit %u, %.1fcm", u,
                         reach);
            cr_assert_eq(om_wm_table_enemy_within(b, u, reach), within, "unit %u, %.1fcm", u,
                         reach);
        }
        cr_assert_eq(om_wm_table_closest_visible_enemy(a, rules, u, false, 20, 0, &ca),
                     om_wm_table_closest_visible_enemy(b, rules, u, false, 20, 0, &cb));
        for (unsigned c = 0; c < b->characters; c++) {
            double da = om_wm_table_character_distance(a, c, u);
            double db = om_wm_table_character_distance(b, c, u);
            om_wm_command_setup s = {.rules = rules, .side = b->character[c].side};
            cr_assert(memcmp(&da, &db, sizeof da) == 0);
            /* The Command phase keeps its tests in the memo too. */
            for (unsigned order = 1; order <= 3; order++) {
                om_wm_command_test ta, tb;
                om_wm_command_test_for(&s, a, c, &u, 1, order, &ta);
                om_wm_command_test_for(&s, b, c, &u, 1, order, &tb);
                cr_assert(memcmp(&ta, &tb, sizeof ta) == 0, "test %u %u %u", c, u, order);
            }
        }
        for (unsigned v = 0; v < b->units; v++) {
            double da = om_wm_table_distance(a, u, v), db = om_wm_table_distance(b, u, v);
            om_wm_table_charge cha, chb;
            om_wm_vec pa, pb, qa, qb;
            cr_assert(memcmp(&da, &db, sizeof da) == 0, "distance %u %u", u, v);
            cr_assert_eq(om_wm_table_touching(a, u, v), om_wm_table_touching(b, u, v));
            cr_assert_eq(om_wm_table_sees(a, rules, u, v, u % 2),
                         om_wm_table_sees(b, rules, u, v, u % 2));
            if (u == v)
                continue;
            om_wm_table_closest_points(a, u, v, &pa, &qa);
            om_wm_table_closest_points(b, u, v, &pb, &qb);
            cr_assert(memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&qa, &qb, sizeof qa) == 0);
            memset(&cha, 0, sizeof cha);
            memset(&chb, 0, sizeof chb);
            om_wm_table_charge_plan(a, rules, u, v, 30, &cha);
            om_wm_table_charge_plan(b, rules, u, v, 30, &chb);
            cr_assert(memcmp(&cha, &chb, sizeof cha) == 0, "charge %u %u", u, v);
            for (unsigned i = 0; i < b->unit[u].stands; i++) {
                om_wm_table_touch ta, tb;
                double sa = om_wm_table_stand_distance(a, u, i, v);
                double sb = om_wm_table_stand_distance(b, u, i, v);
                cr_assert(memcmp(&sa, &sb, sizeof sa) == 0);
                om_wm_table_stand_touch(a, u, i, v, &ta);
                om_wm_table_stand_touch(b, u, i, v, &tb);
                cr_assert(ta.touches == tb.touches && ta.edges == tb.edges &&
                          ta.flanked == tb.flanked);
                for (unsigned j = 0; j < b->unit[v].stands; j++)
                    cr_assert_eq(om_wm_table_stand_support(a, u, i, v, j),
                                 om_wm_table_stand_support(b, u, i, v, j));
            }
        }
        om_wm_table_behind_of(a, rules, u, 40, &bha);
        om_wm_table_behind_of(b, rules, u, 40, &bhb);
        cr_assert(bha.kind == bhb.kind && memcmp(&bha.cm, &bhb.cm, sizeof bha.cm) == 0 &&
                  bha.stands == bhb.stands && bha.unit == bhb.unit);
    }
}

/*
 * The memo keeps the table's answers under what they were worked out from:
 * over random layouts, a table with a memo and one without answer every
 * question alike, before and after units move (the same moves on both), and
 * again in a second "trial" from the same start (answers found in the memo).
 */
Test(table, memo_gives_the_answers_worked_out)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    const om_wm_table_move_rule rule = {.enemy_gap_cm = 1, .target = -1, .turn = true};
    unsigned units = 0, moved = 0;
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    mix_state = 42;
    for (unsigned layout = 0; layout < 12; layout++) {
        const om_wm_ruleset_id rules = (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT);
        random_table(&start, rules);
        units += start.units;
        for (unsigned trial = 0; trial < 2; trial++) {
            om_wm_table_copy(a, &start, memo);
            om_wm_table_copy(b, &start, NULL);
            same_answers(a, b, rules);
            for (unsigned u = 0; u < b->units; u++) {
                const om_wm_vec goal = at(uniform(10, 170), uniform(10, 110));
                double ma = om_wm_table_move(a, rules, u, goal, 20, &rule, NULL);
                double mb = om_wm_table_move(b, rules, u, goal, 20, &rule, NULL);
                cr_assert(memcmp(&ma, &mb, sizeof ma) == 0, "move %u", u);
                moved += ma > 0;
                cr_assert(memcmp(&a->unit[u].centre, &b->unit[u].centre, sizeof(om_wm_vec)) == 0);
            }
            same_answers(a, b, rules);
            mix_state -= 0x9e3779b97f4a7c15u * b->units; /* the same goals next trial */
        }
    }
    /* The layouts are not empty, and the moves go somewhere. */
    cr_expect_geq(units, 60, "%u units in the layouts", units);
    cr_expect_geq(moved, 60, "%u moves", moved);
    om_wm_table_memo_free(memo);
    free(a);
    free(b);
}

/* The closest visible enemy of unit u the plain way: every enemy not
 * filtered out measured exactly, then tried for sight nearest first, the
 * first of a tie within 1e-9cm (in index order) tried first. The table
 * rules out beforehand, by the circles around the units, enemies farther
 * than max_cm; here they are ruled out by their distance, which answers
 * alike but for a distance within 1e-9cm beyond max_cm. */
static int plain_visible(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                         bool all_round, double max_cm, unsigned filter, double *cm)
{
    double d[OM_WM_TABLE_MAX_UNITS];
    bool tried[OM_WM_TABLE_MAX_UNITS] = {false};
    for (unsigned k = 0; k < t->units; k++) {
        const om_wm_table_unit *e = &t->unit[k];
        const bool skip =
            !e->present || e->side == t->unit[u].side ||
            ((filter & OM_WM_TABLE_SKIP_ENGAGED) && om_wm_table_engaged(t, k)) ||
            ((filter & OM_WM_TABLE_SKIP_FORTIFIED) &&
             (e->troop == OM_WM_INFANTRY || e->troop == OM_WM_ARTILLERY) &&
             om_wm_table_position(t, k) == OM_WM_FORTIFIED);
        d[k] = skip ? INFINITY : om_wm_table_distance(t, u, k);
        if (max_cm > 0 && d[k] > max_cm)
            d[k] = INFINITY;
    }
    for (;;) {
        int best = -1;
        for (unsigned k = 0; k < t->units; k++)
            if (!tried[k] && d[k] < INFINITY && (best < 0 || d[k] < d[best] - 1e-9))
                best = (int)k;
        if (best < 0)
            break;
        tried[best] = true;
        if (om_wm_table_sees(t, rules, u, (unsigned)best, all_round)) {
            *cm = d[best];
            return best;
        }
    }
    *cm = INFINITY;
    return -1;
}

/*
 * The closest enemy and the closest visible enemy work out exact distances
 * nearest lower bound first and only until the choice is settled: over
 * random layouts, and layouts of enemies in mirror pairs (ties at the same
 * distance to the last bit or within rounding of it, where the tie rule
 * decides), every unit's closest enemy, and its closest visible enemy from
 * its front and all round, unlimited and within reaches, with and without
 * the filters, is the plain answer, its distance bit for bit.
 */
Test(table, closest_visible_enemy_as_every_enemy_measured)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, *a = malloc(sizeof *a);
    static const double reach[] = {0, 10, 20, 45};
    static const unsigned filter[] = {0, OM_WM_TABLE_SKIP_ENGAGED, OM_WM_TABLE_SKIP_FORTIFIED};
    unsigned found = 0, none = 0, ties = 0;
    cr_assert_not_null(a);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    mix_state = 2111;
    for (unsigned layout = 0; layout < 40; layout++) {
        const om_wm_ruleset_id rules = (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT);
        if (layout % 2 == 0) {
            random_table(&start, rules);
        } else {
            /* A shooter on the mirror line x = 90, enemies in mirror pairs,
             * a friend between some of them. */
            om_wm_table_init(&start, rules, 0, 0);
            cr_assert_geq(om_wm_table_add_unit(&start, rules, "A", 0, OM_WM_INFANTRY, 3,
                                               OM_WM_TABLE_LINE, at(90, 20), 90),
                          0);
            for (unsigned k = 0; k < 3; k++) {
                const double dx = uniform(8, 60), y = uniform(30, 90), f = uniform(200, 340);
                cr_assert_geq(om_wm_table_add_unit(&start, rules, "L", 1, OM_WM_INFANTRY, 3,
                                                   OM_WM_TABLE_LINE, at(90 - dx, y), f),
                              0);
                cr_assert_geq(om_wm_table_add_unit(&start, rules, "R", 1, OM_WM_INFANTRY, 3,
                                                   OM_WM_TABLE_LINE, at(90 + dx, y), 540 - f),
                              0);
            }
            if (layout % 4 == 1)
                cr_assert_geq(om_wm_table_add_unit(&start, rules, "F", 0, OM_WM_INFANTRY, 3,
                                                   OM_WM_TABLE_LINE, at(90 + uniform(-20, 20), 26),
                                                   90),
                              0);
        }
        om_wm_table_copy(a, &start, layout % 3 == 0 ? NULL : memo);
        for (unsigned u = 0; u < a->units; u++) {
            /* The closest enemy, seen or not, the same way. */
            double cm, want_cm = INFINITY;
            int want = -1;
            for (unsigned k = 0; k < a->units; k++) {
                const double d = om_wm_table_distance(a, u, k);
                if (a->unit[k].present && a->unit[k].side != a->unit[u].side &&
                    (want < 0 || d < want_cm - 1e-9)) {
                    want = (int)k;
                    want_cm = d;
                }
            }
            cr_assert_eq(om_wm_table_closest_enemy(a, u, &cm), want, "layout %u unit %u", layout,
                         u);
            cr_assert(memcmp(&cm, &want_cm, sizeof cm) == 0);
        }
        for (unsigned u = 0; u < a->units; u++)
            for (unsigned r = 0; r < sizeof reach / sizeof reach[0]; r++)
                for (unsigned f = 0; f < sizeof filter / sizeof filter[0]; f++)
                    for (unsigned round = 0; round < 2; round++) {
                        double cm, want_cm;
                        const int want = plain_visible(a, rules, u, round, reach[r], filter[f],
                                                       &want_cm);
                        const int got = om_wm_table_closest_visible_enemy(
                            a, rules, u, round, reach[r], filter[f], &cm);
                        cr_assert_eq(got, want, "layout %u unit %u reach %.0f filter %u", layout,
                                     u, reach[r], filter[f]);
                        cr_assert(memcmp(&cm, &want_cm, sizeof cm) == 0);
                        found += got >= 0;
                        none += got < 0;
                        for (unsigned k = 0; k < a->units && got >= 0; k++)
                            ties += k != (unsigned)got && a->unit[k].side != a->unit[u].side &&
                                    fabs(om_wm_table_distance(a, u, k) - cm) <= 1e-9;
                    }
    }
    /* Both answers occur, and ties to the last nanometre do. */
    cr_expect_geq(found, 500, "%u found", found);
    cr_expect_geq(none, 500, "%u none", none);
    cr_expect_geq(ties, 20, "%u ties", ties);
    om_wm_table_memo_free(memo);
    free(a);
}

/* Whether units are engaged, checked on a random walk: over 20 random
 * Revolution layouts from seed `seed`, 60 steps each of a unit moving (toward
 * another unit, into contact, or anywhere) or leaving the table and coming
 * back, on a table with a memo (a) and one without (b); after every step
 * check(a, b, layout, step, counts) asserts what the test asks and counts the
 * units engaged (counts[0]) and not (counts[1]), of which each test wants
 * 500 at least. */
typedef void engaged_check(om_wm_table *a, om_wm_table *b, unsigned layout, unsigned step,
                           unsigned counts[2]);

static void engaged_walk(uint64_t seed, engaged_check *check)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    const om_wm_table_move_rule rule = {.enemy_gap_cm = 0, .target = -1, .turn = false};
    unsigned counts[2] = {0, 0};
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    mix_state = seed;
    for (unsigned layout = 0; layout < 20; layout++) {
        const om_wm_ruleset_id rules = OM_WM_RULES_REV;
        random_table(&start, rules);
        om_wm_table_copy(a, &start, memo);
        om_wm_table_copy(b, &start, NULL);
        for (unsigned step = 0; step < 60 && b->units > 1; step++) {
            const unsigned u = (unsigned)uniform(0, b->units - 0.001);
            const unsigned v = (unsigned)uniform(0, b->units - 0.001);
            if (step % 7 == 6 && u != v) {
                /* A unit leaves the table, or comes back. */
                a->unit[u].present = b->unit[u].present = !b->unit[u].present;
                om_wm_table_update(a, u);
                om_wm_table_update(b, u);
            } else if (b->unit[u].present) {
                /* Toward another unit (into contact) or anywhere. */
                const om_wm_vec goal =
                    step % 2 ? b->unit[v].centre : at(uniform(10, 170), uniform(10, 110));
                double ma = om_wm_table_move(a, rules, u, goal, 25, &rule, NULL);
                double mb = om_wm_table_move(b, rules, u, goal, 25, &rule, NULL);
                cr_assert(memcmp(&ma, &mb, sizeof ma) == 0);
            }
            check(a, b, layout, step, counts);
        }
    }
    cr_expect_geq(counts[0], 500, "%u engaged", counts[0]);
    cr_expect_geq(counts[1], 500, "%u not engaged", counts[1]);
    om_wm_table_memo_free(memo);
    free(a);
    free(b);
}

/* engaged_kept_while_nothing_changes_near: each unit on the table asked of
 * both tables. */
static void engaged_each(om_wm_table *a, om_wm_table *b, unsigned layout, unsigned step,
                         unsigned counts[2])
{
    for (unsigned k = 0; k < b->units; k++) {
        bool want;
        if (!b->unit[k].present)
            continue; /* asked only of units on the table */
        want = om_wm_table_engaged(b, k);
        cr_assert_eq(om_wm_table_engaged(a, k), want, "layout %u step %u unit %u", layout, step,
                     k);
        counts[0] += want;
        counts[1] += !want;
    }
}

/*
 * Whether a unit is engaged is kept per unit across states, while no unit
 * changes near it: over random layouts, units moving one at a time into
 * contact and away, and units leaving and coming back to the table, a table
 * with a memo answers as one without after every change. Contacts come and
 * go often, so a kept answer gone stale would show.
 */
Test(table, engaged_kept_while_nothing_changes_near)
{
    engaged_walk(99, engaged_each);
}

/* engaged_all_as_each_unit_asked: every unit at once, of both tables, twice
 * of the one with a memo, then each unit alone. */
static void engaged_at_once(om_wm_table *a, om_wm_table *b, unsigned layout, unsigned step,
                            unsigned counts[2])
{
    bool all_a[OM_WM_TABLE_MAX_UNITS], all_b[OM_WM_TABLE_MAX_UNITS];
    om_wm_table_engaged_all(a, all_a);
    om_wm_table_engaged_all(b, all_b);
    {
        /* Asked again of the same state: the answers it kept. */
        bool again[OM_WM_TABLE_MAX_UNITS];
        om_wm_table_engaged_all(a, again);
        cr_assert(memcmp(again, all_a, b->units * sizeof again[0]) == 0);
    }
    for (unsigned k = 0; k < b->units; k++) {
        const bool want = b->unit[k].present && om_wm_table_engaged(b, k);
        cr_assert_eq(all_a[k], want, "layout %u step %u unit %u", layout, step, k);
        cr_assert_eq(all_b[k], want, "layout %u step %u unit %u", layout, step, k);
        if (b->unit[k].present)
            cr_assert_eq(om_wm_table_engaged(a, k), want, "kept: layout %u step %u unit %u",
                         layout, step, k);
        counts[0] += want;
        counts[1] += b->unit[k].present && !want;
    }
}

/*
 * Whether every unit is engaged, asked at once (om_wm_table_engaged_all, the
 * turn's start), answers as each unit asked alone of a table without a memo:
 * over random layouts, units moving one at a time into contact and away and
 * units leaving and coming back, on tables with and without a memo; and the
 * answers it keeps in the memo are those each unit's question then finds.
 */
Test(table, engaged_all_as_each_unit_asked)
{
    engaged_walk(1234, engaged_at_once);
}

/*
 * Whether a stand lies within a reach of a unit (om_wm_table_stand_within,
 * the shooters' range) is its exact distance's answer, the bounds of its
 * centre sparing the work: over random layouts, every stand of every unit
 * against every other unit at reaches around its exact distance (inside,
 * outside, and within rounding of it), with and without a memo.
 */
Test(table, stand_within_as_its_exact_distance)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    static const double off[] = {-8, -2.5, -0.5, -1e-6, -1e-9, 0, 1e-9, 1e-6, 0.5, 2.5, 8};
    unsigned in = 0, out = 0;
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    mix_state = 4321;
    for (unsigned layout = 0; layout < 12; layout++) {
        const om_wm_ruleset_id rules = (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT);
        random_table(&start, rules);
        om_wm_table_copy(a, &start, memo);
        om_wm_table_copy(b, &start, NULL);
        for (unsigned u = 0; u < b->units; u++)
            for (unsigned v = 0; v < b->units; v++)
                for (unsigned i = 0; u != v && i < b->unit[u].stands; i++) {
                    const double d = om_wm_table_stand_distance(b, u, i, v);
                    for (unsigned k = 0; k < sizeof off / sizeof off[0]; k++) {
                        const double reach = d + off[k];
                        const bool want = d <= reach;
                        cr_assert_eq(om_wm_table_stand_within(b, u, i, v, reach), want,
                                     "layout %u: %u %u %u at %g", layout, u, i, v, off[k]);
                        cr_assert_eq(om_wm_table_stand_within(a, u, i, v, reach), want,
                                     "layout %u: %u %u %u at %g (memo)", layout, u, i, v,
                                     off[k]);
                        in += want;
                        out += !want;
                    }
                }
    }
    cr_expect_geq(in, 1000, "%u within", in);
    cr_expect_geq(out, 1000, "%u beyond", out);
    om_wm_table_memo_free(memo);
    free(a);
    free(b);
}

/*
 * Whether a character lies within a reach of a unit (om_wm_table_character_within,
 * the Wizards' spells' range) is its distance's answer, the circles' bound
 * sparing the work: over random layouts with characters anywhere, every
 * character against every unit at reaches around its distance and far from
 * it, with and without a memo.
 */
Test(table, character_within_as_its_distance)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    static const double off[] = {-60, -20, -2.5, -1e-6, -1e-9, 0, 1e-9, 1e-6, 2.5, 20, 60};
    unsigned in = 0, out = 0;
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    mix_state = 777;
    for (unsigned layout = 0; layout < 40; layout++) {
        const om_wm_ruleset_id rules = (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT);
        random_table(&start, rules);
        for (unsigned c = 0; c < start.characters; c++)
            start.character[c].at = at(uniform(5, 175), uniform(5, 115));
        om_wm_table_copy(a, &start, memo);
        om_wm_table_copy(b, &start, NULL);
        for (unsigned c = 0; c < b->characters; c++)
            for (unsigned u = 0; u < b->units; u++) {
                const double d = om_wm_table_character_distance(b, c, u);
                for (unsigned k = 0; k < sizeof off / sizeof off[0]; k++) {
                    const double reach = d + off[k] > 0 ? d + off[k] : 0;
                    const bool want = d <= reach;
                    cr_assert_eq(om_wm_table_character_within(b, c, u, reach), want,
                                 "layout %u: %u %u at %g", layout, c, u, off[k]);
                    cr_assert_eq(om_wm_table_character_within(a, c, u, reach), want,
                                 "layout %u: %u %u at %g (memo)", layout, c, u, off[k]);
                    in += want;
                    out += !want;
                }
            }
    }
    cr_expect_geq(in, 1000, "%u within", in);
    cr_expect_geq(out, 1000, "%u beyond", out);
    om_wm_table_memo_free(memo);
    free(a);
    free(b);
}

/*
 * Whether one unit sees another is kept across states while no unit changes
 * in the box around the two: over random layouts, units moving one at a time
 * (often into the lines between others) and units leaving and coming back to
 * the table, a table with a memo answers as one without after every change,
 * for every pair, from the front edge and all round. Lines open and close
 * often, so a kept answer gone stale would show.
 */
Test(table, sight_kept_while_nothing_changes_between)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    const om_wm_table_move_rule rule = {.enemy_gap_cm = 0, .target = -1, .turn = false};
    static bool was[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS][2];
    unsigned seen = 0, hidden = 0, flips = 0;
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    mix_state = 7;
    for (unsigned layout = 0; layout < 16; layout++) {
        const om_wm_ruleset_id rules = (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT);
        random_table(&start, rules);
        /* Two trials from the same start: the second finds the first's
         * answers, which the log of the first must not vouch for. */
        for (unsigned trial = 0; trial < 2; trial++) {
            om_wm_table_copy(a, &start, memo);
            om_wm_table_copy(b, &start, NULL);
            for (unsigned step = 0; step < 40 && b->units > 2; step++) {
                const unsigned u = (unsigned)uniform(0, b->units - 0.001);
                const unsigned v = (unsigned)uniform(0, b->units - 0.001);
                const unsigned w = (unsigned)uniform(0, b->units - 0.001);
                if (step == 0) {
                    /* As the trial starts. */
                } else if (step % 9 == 8) {
                    /* A unit leaves the table, or comes back. */
                    a->unit[u].present = b->unit[u].present = !b->unit[u].present;
                    om_wm_table_update(a, u);
                    om_wm_table_update(b, u);
                } else if (b->unit[u].present) {
                    /* Between two others (into their line) or anywhere. */
                    const om_wm_vec goal =
                        step % 2 ? at((b->unit[v].centre.x + b->unit[w].centre.x) / 2,
                                      (b->unit[v].centre.y + b->unit[w].centre.y) / 2)
                                 : at(uniform(10, 170), uniform(10, 110));
                    double ma = om_wm_table_move(a, rules, u, goal, 30, &rule, NULL);
                    double mb = om_wm_table_move(b, rules, u, goal, 30, &rule, NULL);
                    cr_assert(memcmp(&ma, &mb, sizeof ma) == 0);
                }
                for (unsigned f = 0; f < b->units; f++)
                    for (unsigned g = 0; g < b->units; g++)
                        for (unsigned round = 0; round < 2; round++) {
                            bool want;
                            if (f == g || !b->unit[f].present || !b->unit[g].present)
                                continue;
                            want = om_wm_table_sees(b, rules, f, g, round);
                            cr_assert_eq(om_wm_table_sees(a, rules, f, g, round), want,
                                         "layout %u trial %u step %u: %u sees %u (%u)", layout,
                                         trial, step, f, g, round);
                            seen += want;
                            hidden += !want;
                            flips += (step > 0 || trial > 0) && was[f][g][round] != want;
                            was[f][g][round] = want;
                        }
            }
        }
    }
    cr_expect_geq(seen, 2000, "%u seen", seen);
    cr_expect_geq(hidden, 2000, "%u hidden", hidden);
    cr_expect_geq(flips, 200, "%u lines opened or closed", flips);
    om_wm_table_memo_free(memo);
    free(a);
    free(b);
}

/*
 * A sight answer kept in one trial is not vouched for in the next by the
 * changes logged since: the table copied for a new trial puts back units the
 * log never saw move. A sees B until W steps between them; the next trial
 * starts with W aside again, and once another unit far away has moved (a new
 * state, so the answer is not the start state's), A sees B again.
 *   B at (90,40), W steps from (150,30) to (90,30), A at (90,20); F far off.
 */
Test(table, sight_kept_answers_end_with_their_trial)
{
    om_wm_table_memo *memo = NULL;
    om_wm_table start, a;
    const om_wm_table_move_rule rule = {.enemy_gap_cm = 0, .target = -1, .turn = false};
    om_wm_table_init(&start, REV, 0, 0);
    unsigned ua = add(&start, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned ub = add(&start, "B", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 270);
    unsigned uw = add(&start, "W", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 150, 30, 90);
    unsigned uf = add(&start, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 20, 100, 90);
    check_ok(&start);
    cr_assert_eq(om_wm_table_memo_alloc(&memo), OM_OK);
    om_wm_table_copy(&a, &start, memo);
    cr_expect(om_wm_table_sees(&a, REV, ua, ub, false));
    cr_expect_gt(om_wm_table_move(&a, REV, uw, at(90, 30), 60, &rule, NULL), 0);
    cr_expect(a.unit[uw].centre.x == 90 && a.unit[uw].centre.y == 30);
    cr_expect_not(om_wm_table_sees(&a, REV, ua, ub, false));
    om_wm_table_copy(&a, &start, memo);
    cr_expect_gt(om_wm_table_move(&a, REV, uf, at(30, 100), 20, &rule, NULL), 0);
    cr_expect(om_wm_table_sees(&a, REV, ua, ub, false), "W is back aside");
    om_wm_table_memo_free(memo);
}

/* ---------- The contact questions' bounds ---------- */

/* Unit u's outline worked out plainly: its rectangle, as the table draws it. */
static void plain_shape(const om_wm_table *t, unsigned u, om_plane_shape *s)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_plane_poly p = om_plane_rect(un->centre, un->dir, om_wm_table_unit_width(un) / 2,
                                          om_wm_table_unit_depth(un) / 2);
    om_plane_shape_of(s, &p);
}

/* The contact questions of table t against the exact tests they stand for:
 * om_wm_table_contacts against om_wm_table_touching of every pair; whether
 * a stand touches an enemy against its distance, and its edges against each
 * edge's part without its corners; om_wm_table_may_support against every
 * pair of stands. Counts what it saw into seen[0..3): touching pairs, stands'
 * touching edges, supporting pairs of stands. */
static void contact_bounds_agree(const om_wm_table *t, unsigned *seen)
{
    om_wm_unit_set touches[OM_WM_TABLE_MAX_UNITS];
    const double share = 0.02;
    memset(touches, 0, sizeof touches);
    cr_assert_eq(om_wm_table_contacts(t, touches), om_wm_table_any_contact(t));
    for (unsigned u = 0; u < t->units; u++)
        for (unsigned v = 0; v < t->units; v++) {
            const bool enemies = u != v && t->unit[u].present && t->unit[v].present &&
                                 t->unit[u].side != t->unit[v].side;
            om_plane_shape vs;
            cr_assert_eq(om_wm_unit_set_has(&touches[u], v),
                         enemies && om_wm_table_touching(t, u < v ? u : v, u < v ? v : u),
                         "units %u and %u", u, v);
            seen[0] += om_wm_unit_set_has(&touches[u], v);
            if (u == v)
                continue;
            plain_shape(t, v, &vs);
            for (unsigned i = 0; i < t->unit[u].stands; i++) {
                om_wm_table_touch tc;
                om_wm_vec c[4];
                uint8_t edges = 0;
                om_wm_table_stand_touch(t, u, i, v, &tc);
                cr_assert_eq(tc.touches,
                             om_wm_table_stand_distance(t, u, i, v) <= OM_WM_TABLE_TOUCH_CM,
                             "stand %u of %u on %u", i, u, v);
                om_wm_table_stand_corners(&t->unit[u], i, c);
                for (unsigned j = 0; j < 4 && tc.touches; j++) {
                    const om_wm_vec d = om_plane_sub(c[(j + 1) % 4], c[j]);
                    const om_wm_vec p0 = om_plane_add(c[j], om_plane_scale_by(d, share));
                    const om_wm_vec p1 = om_plane_add(c[j], om_plane_scale_by(d, 1 - share));
                    if (om_plane_seg_shape_distance(p0, p1, &vs) <= OM_WM_TABLE_TOUCH_CM) {
                        edges |= (uint8_t)(1u << om_plane_edge_face[j]);
                        seen[1]++;
                    }
                }
                cr_assert_eq(tc.edges, edges, "edges of stand %u of %u on %u", i, u, v);
                for (unsigned j = 0; j < t->unit[v].stands; j++) {
                    const bool supports =
                        om_wm_table_stand_support(t, u, i, v, j) != OM_WM_TABLE_NO_SUPPORT;
                    cr_assert(!supports || om_wm_table_may_support(t, u, v),
                              "stand %u of %u supports stand %u of %u", i, u, j, v);
                    seen[2] += supports;
                }
            }
        }
}

/*
 * The Combat phase asks the table which enemies touch once a pass
 * (om_wm_table_contacts), and leaves out the stands, edges and friends the
 * bounds rule out (boxes apart, a stand or edge beyond an enemy's side,
 * units not facing alike or too far apart to support): over random layouts
 * with charges brought into contact and friends placed behind friends, every
 * answer is the one the exact tests give. Fails when a bound rules out a
 * contact or a support that is there.
 */
Test(table, contact_bounds_leave_out_only_what_exact_tests_rule_out)
{
    om_wm_table *t = malloc(sizeof *t);
    unsigned seen[3] = {0, 0, 0};
    cr_assert_not_null(t);
    mix_state = 2028;
    for (unsigned layout = 0; layout < 30; layout++) {
        const om_wm_ruleset_id rules = (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT);
        random_table(t, rules);
        for (unsigned u = 0; u < t->units; u++) {
            const unsigned v = (u + 1 + layout) % t->units;
            if (u == v)
                continue;
            if (t->unit[u].side != t->unit[v].side) {
                om_wm_table_charge ch;
                memset(&ch, 0, sizeof ch);
                om_wm_table_charge_plan(t, rules, u, v, 40, &ch);
                if (!ch.possible || !ch.reaches)
                    continue;
                t->unit[u].centre = ch.centre;
                t->unit[u].dir = ch.dir;
            } else {
                /* Behind the friend, facing its way: its stands support. */
                t->unit[u].dir = t->unit[v].dir;
                t->unit[u].centre = om_wm_command_support_spot(t, u, v);
            }
            om_wm_table_update(t, u);
        }
        contact_bounds_agree(t, seen);
    }
    /* The layouts hold contacts, touching edges and supports to test. */
    cr_expect_geq(seen[0], 40, "%u touching pairs", seen[0]);
    cr_expect_geq(seen[1], 200, "%u touching edges", seen[1]);
    cr_expect_geq(seen[2], 60, "%u supporting pairs of stands", seen[2]);
    free(t);
}

/*
 * The doctrine keeps each unit's edge stands while it weighs supports
 * (om_wm_command_support_spot_of): over random layouts and formations, the
 * spot from stands worked out beforehand is the plain spot bit for bit, and
 * stands kept from before a unit lost a stand give another spot (so kept
 * stands gone stale would show).
 */
Test(table, support_spot_from_kept_edge_stands_is_the_plain_spot)
{
    om_wm_table *t = malloc(sizeof *t);
    unsigned pairs = 0, stale = 0;
    cr_assert_not_null(t);
    mix_state = 2029;
    for (unsigned layout = 0; layout < 30; layout++) {
        om_wm_edge_stands e[OM_WM_TABLE_MAX_UNITS];
        random_table(t, (om_wm_ruleset_id)(layout % OM_WM_RULES_COUNT));
        for (unsigned u = 0; u < t->units; u++) {
            om_wm_command_edge_stand(&t->unit[u], false, &e[u].front_fwd, &e[u].front_right);
            om_wm_command_edge_stand(&t->unit[u], true, &e[u].rear_fwd, &e[u].rear_right);
        }
        for (unsigned u = 0; u < t->units; u++)
            for (unsigned f = 0; f < t->units; f++) {
                const om_wm_vec plain = om_wm_command_support_spot(t, u, f);
                const om_wm_vec kept = om_wm_command_support_spot_of(t, u, f, &e[u], &e[f]);
                if (u == f)
                    continue;
                cr_assert(memcmp(&plain, &kept, sizeof kept) == 0, "units %u and %u", u, f);
                pairs++;
            }
        /* Each unit loses a stand (its stands' offsets, unlike its place
         * and facing, are what the kept stands hold). */
        for (unsigned u = 0; u < t->units; u++) {
            const unsigned f = (u + 1) % t->units;
            om_wm_vec plain, kept;
            if (t->unit[u].stands < 2)
                continue;
            t->unit[u].stands--;
            om_wm_table_update(t, u);
            plain = om_wm_command_support_spot(t, f, u);
            kept = om_wm_command_support_spot_of(t, f, u, &e[f], &e[u]);
            stale += memcmp(&plain, &kept, sizeof kept) != 0;
        }
    }
    cr_expect_geq(pairs, 1000, "%u pairs", pairs);
    cr_expect_geq(stale, 150, "%u units that lost a stand seen stale", stale);
    free(t);
}

/*
 * Round more than one obstacle: A (x 6..18, front y 21) near the table's left
 * edge, bound 60cm for (12, 110), is held up 4cm on by friend B (y 25..27);
 * its way round B's right (13cm across, 4cm on: sqrt(185)cm; the left one
 * runs into the table's edge) leads it 14cm on into friend C (x 19..31, y 39
 * to 41); it goes round C's right too (13cm across, 14cm on: sqrt(365)cm;
 * C's left would take it back into B), then straight on for the rest of its
 * 60cm. Going round one obstacle alone, it ends against C.
 *        +--C--+
 *   +--B--+
 *   +--A--+
 */
Test(table, move_goes_round_two_obstacles)
{
    om_wm_table t;
    double moved;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 12, 20, 90);
    add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 12, 26, 90);
    add(&t, "C", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 25, 40, 90);
    moved = om_wm_table_move(&t, REV, a, at(12, 110), 60, &round_move, NULL);
    cr_expect_float_eq(moved, 60.0, 1e-6);
    cr_expect_float_eq(t.unit[a].centre.x, 38.0, 1e-6);
    cr_expect_float_eq(t.unit[a].centre.y, 38.0 + 60.0 - sqrt(185.0) - sqrt(365.0), 1e-6);
    check_ok(&t);
}

/* A brigade of five units (more than Command > Brigades' four: a group as
 * large as the table holds) goes round a friend as the brigade of two does:
 * the body's extent clears B's right edge 13cm across the lead's centre. */
Test(table, group_of_five_goes_round_a_friend)
{
    om_wm_table t;
    unsigned g[5];
    om_wm_table_init(&t, REV, 0, 0);
    for (unsigned i = 0; i < 5; i++)
        g[i] = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90 + 12.0 * i, 20, 90);
    add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 26, 90);
    const double moved = om_wm_table_move_group(&t, REV, g, 5, at(90, 70), 20, &round_move);
    cr_expect_float_eq(moved, 20.0, 1e-6);
    for (unsigned i = 0; i < 5; i++) {
        cr_expect_float_eq(t.unit[g[i]].centre.x, 103.0 + 12.0 * i, 1e-6, "unit %u", i);
        cr_expect_float_eq(t.unit[g[i]].centre.y, 24.0 + 20.0 - sqrt(185.0), 1e-6);
    }
    check_ok(&t);
}

/* The stands of unit s that support a stand of unit f, and how (`kind`). */
static unsigned supports_of(const om_wm_table *t, unsigned s, unsigned f,
                            om_wm_table_support kind)
{
    unsigned n = 0;
    for (unsigned i = 0; i < t->unit[s].stands; i++)
        for (unsigned j = 0; j < t->unit[f].stands; j++)
            if (om_wm_table_stand_support(t, s, i, f, j) == kind) {
                n++;
                break;
            }
    return n;
}

/*
 * Supports from the side (Combat > Supporting Troops: "exactly behind or
 * exactly beside"): friend F (x 84..96, y 49..51) fights enemy E, one stand
 * (x 88..92) at its front; friend B stands in the place behind F. A
 * supporter S goes beside F instead: its left end stand side to side with
 * F's right end stand, level with it (centre x 102), touching no enemy, and
 * there it supports F from the side. With a wide enemy (x 80..100) the places
 * beside F would touch it: S is sent behind, as before; with nothing behind F,
 * behind.
 */
Test(table, support_goes_beside_a_fighting_friend_when_behind_is_taken)
{
    om_wm_table t;
    om_wm_vec spot;
    om_wm_table_init(&t, REV, 0, 0);
    unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 50, 90);
    unsigned e = add(&t, "E", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 90, 52, 270);
    unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 48, 90);
    unsigned s = add(&t, "S", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 130, 30, 90);
    const om_wm_vec behind = om_wm_command_support_spot(&t, s, f);
    cr_assert(om_wm_table_engaged(&t, f));
    spot = om_wm_command_support_place(&t, REV, s, f);
    cr_expect_float_eq(spot.x, 102.0, 1e-9);
    cr_expect_float_eq(spot.y, 50.0, 1e-9);
    t.unit[s].centre = spot;
    om_wm_table_update(&t, OM_WM_TABLE_ALL);
    cr_expect_eq(supports_of(&t, s, f, OM_WM_TABLE_SUPPORT_SIDE), 1u);
    cr_expect_not(om_wm_table_touching(&t, s, e));
    check_ok(&t);
    /* A wide enemy: beside F is in contact with it on either side. */
    t.unit[s].centre = at(130, 30);
    t.unit[e].present = false;
    unsigned wide = add(&t, "W", 1, OM_WM_INFANTRY, 5, OM_WM_TABLE_LINE, 90, 52, 270);
    om_wm_table_update(&t, OM_WM_TABLE_ALL);
    cr_assert(om_wm_table_touching(&t, f, wide));
    spot = om_wm_command_support_place(&t, REV, s, f);
    cr_expect_float_eq(spot.x, behind.x, 1e-9);
    cr_expect_float_eq(spot.y, behind.y, 1e-9);
    /* Nothing behind F: behind. */
    t.unit[b].present = false;
    t.unit[wide].present = false;
    t.unit[e].present = true;
    om_wm_table_update(&t, OM_WM_TABLE_ALL);
    spot = om_wm_command_support_place(&t, REV, s, f);
    cr_expect_float_eq(spot.x, behind.x, 1e-9);
    cr_expect_float_eq(spot.y, behind.y, 1e-9);
}
