/*
 * test_plane.c: the game-neutral geometry of the table, engine/core/plane.c.
 *
 * Each test draws its layout from above: x to the right, y up the page.
 * Letters are shapes, `#` an obstacle, `*` a point, `^` and `v` a facing.
 * Expected values are worked by hand from the coordinates in each comment.
 * Units are centimetres (om_plane_cm) unless a test says inches; the
 * tolerances follow the scale (plane.h: a tenth of a millimetre for contact).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "plane.h"

/* Geometry is exact up to double rounding; 1e-9 of a unit is far below it. */
#define EPS 1e-9

static const om_plane_scale *const cm = &om_plane_cm;

static om_plane_vec at(double x, double y) { return om_plane_v(x, y); }

/* The shape of a rectangle centred at (x, y) facing `deg`, w across, d deep. */
static om_plane_shape rect(double x, double y, double deg, double w, double d)
{
    om_plane_shape s;
    om_plane_poly p = om_plane_rect(at(x, y), om_plane_dir(deg), w / 2, d / 2);
    om_plane_shape_of(&s, &p);
    return s;
}

/* The shape of an axis-aligned box from (x0, y0) to (x1, y1). */
static om_plane_shape box(double x0, double y0, double x1, double y1)
{
    om_plane_shape s;
    om_plane_poly p = {.n = 4, .v = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}};
    om_plane_shape_of(&s, &p);
    return s;
}

/* ---------- Facings, rectangles, shapes ---------- */

/*
 * A rectangle 12 wide and 2 deep centred at (90,20) facing up (90 degrees):
 *   FL (84,21) +-----^-----+ FR (96,21)
 *   RL (84,19) +-----------+ RR (96,19)
 * Corners front-left, front-right, rear-right, rear-left; the right of a
 * facing up is +x.
 */
Test(plane, rectangle_corners_and_facings)
{
    om_plane_poly p = om_plane_rect(at(90, 20), om_plane_dir(90), 6, 1);
    const double want[4][2] = {{84, 21}, {96, 21}, {96, 19}, {84, 19}};
    for (unsigned i = 0; i < 4; i++) {
        cr_expect_float_eq(p.v[i].x, want[i][0], EPS, "corner %u x", i);
        cr_expect_float_eq(p.v[i].y, want[i][1], EPS, "corner %u y", i);
    }
    cr_expect_float_eq(om_plane_right(om_plane_dir(90)).x, 1.0, EPS);
    cr_expect_float_eq(om_plane_facing_deg(om_plane_dir(270)), 270.0, EPS);
    cr_expect_float_eq(om_plane_facing_deg(om_plane_dir(-45)), 315.0, EPS);
    cr_expect_eq(om_plane_edge_face[0], OM_PLANE_FRONT);
    cr_expect_eq(om_plane_edge_face[1], OM_PLANE_RIGHT);
    cr_expect_eq(om_plane_edge_face[2], OM_PLANE_REAR);
    cr_expect_eq(om_plane_edge_face[3], OM_PLANE_LEFT);
}

/* A shape keeps its box, its orientation and its own extent on its axes: a
 * rectangle's corners FL, FR, RR, RL run clockwise; the triangle (0,0),
 * (4,0), (0,4) counter-clockwise. */
Test(plane, shapes_keep_what_tests_need)
{
    om_plane_shape s = rect(90, 20, 90, 12, 2);
    om_plane_poly ccw = {.n = 3, .v = {{0, 0}, {4, 0}, {0, 4}}};
    om_plane_shape t;
    cr_expect_float_eq(s.box.x0, 84, EPS);
    cr_expect_float_eq(s.box.x1, 96, EPS);
    cr_expect_float_eq(s.box.y0, 19, EPS);
    cr_expect_float_eq(s.box.y1, 21, EPS);
    cr_expect_not(s.ccw);
    om_plane_shape_of(&t, &ccw);
    cr_expect(t.ccw);
    for (unsigned i = 0; i < 4; i++)
        cr_expect_float_eq(s.hi[i] - s.lo[i], i % 2 ? 12.0 : 2.0, EPS, "extent on axis %u", i);
}

/* ---------- Distances ---------- */

/*
 *   y=33 +--B--+      B: 12 x 2 at (90,32)
 *   y=31 +-----+
 *          10
 *   y=21 +--A--+      A: 12 x 2 at (90,20), x 84..96
 *   y=19 +-----+
 */
Test(plane, closest_edge_distance_between_rectangles)
{
    om_plane_shape a = rect(90, 20, 90, 12, 2), b = rect(90, 32, 270, 12, 2);
    cr_expect_float_eq(om_plane_distance(&a, &b), 10.0, EPS);
    cr_expect_float_eq(om_plane_distance(&b, &a), 10.0, EPS);
    cr_expect_geq(om_plane_box_gap(a.box, b.box), 10.0 - EPS);
}

/*
 * Corner to corner: B's nearest corner (100,30), A's (96,21): 4 across and 9
 * up, sqrt(97).
 *                 +B
 *   +---A---+ .
 */
Test(plane, corner_to_corner_distance)
{
    om_plane_shape a = rect(90, 20, 90, 12, 2), b = rect(101, 36, 270, 2, 12);
    cr_expect_float_eq(om_plane_distance(&a, &b), sqrt(16.0 + 81.0), EPS);
    /* The box gap is a lower bound: 4 along x, 9 along y, the larger. */
    cr_expect_float_eq(om_plane_box_gap(a.box, b.box), 9.0, EPS);
}

/*
 * A 4 x 2 rectangle at (50,50) turned to face 45 degrees; a point 10 straight
 * ahead of its centre is 9 from its front edge, and 0 from inside.
 *          *
 *        /
 *      <A>
 */
Test(plane, rotated_rectangle_and_point)
{
    om_plane_shape a = rect(50, 50, 45, 4, 2);
    om_plane_vec d = om_plane_dir(45);
    cr_expect_float_eq(om_plane_point_distance(at(50 + 10 * d.x, 50 + 10 * d.y), &a), 9.0, EPS);
    cr_expect_float_eq(om_plane_point_distance(at(50.5, 50.2), &a), 0.0, EPS);
    cr_expect(om_plane_point_inside(at(50.5, 50.2), &a));
    cr_expect_not(om_plane_point_inside(at(60, 60), &a));
}

/*
 * Touching and overlapping: A and B share the edge x = 96; C overlaps A by 1.
 *     +--A--++--B--+
 *        +--C--+
 * A and B touch (distance 0) but do not overlap, not even with tolerance 0;
 * A and C overlap by 1, so only a tolerance under 1 keeps them overlapping.
 */
Test(plane, touching_is_not_overlapping)
{
    om_plane_shape a = box(84, 19, 96, 21), b = box(96, 19, 108, 21), c = box(90, 20, 102, 22);
    cr_expect_float_eq(om_plane_distance(&a, &b), 0.0, EPS);
    cr_expect_not(om_plane_overlap(&a, &b, 0));
    cr_expect_not(om_plane_overlap(&a, &b, cm->touch));
    cr_expect(om_plane_overlap(&a, &c, cm->touch));
    cr_expect_not(om_plane_overlap(&a, &c, 1.0));
    cr_expect_float_eq(om_plane_distance(&a, &c), 0.0, EPS);
}

/*
 * Segments: a-b from (0,0) to (10,0); p = (5,3) is 3 from it at parameter
 * 0.5; q = (-4,3) is 5 from its end a. The segments (0,0)-(10,0) and
 * (5,-1)-(5,1) cross; (0,2)-(10,2) is 2 from the first. A segment through a
 * box is 0 from it, one beside it is its gap.
 *    q      p
 *    +------+-----+ (0,2)..(10,2)
 *    a------+-----b
 *           |
 */
Test(plane, segments_and_points)
{
    double par = -1;
    om_plane_shape b = box(20, -1, 24, 1);
    cr_expect_float_eq(om_plane_seg_distance(at(5, 3), at(0, 0), at(10, 0), &par), 3.0, EPS);
    cr_expect_float_eq(par, 0.5, EPS);
    cr_expect_float_eq(om_plane_seg_distance(at(-4, 3), at(0, 0), at(10, 0), &par), 5.0, EPS);
    cr_expect_float_eq(par, 0.0, EPS);
    cr_expect_float_eq(om_plane_seg_seg_distance(at(0, 0), at(10, 0), at(5, -1), at(5, 1)), 0, EPS);
    cr_expect_float_eq(om_plane_seg_seg_distance(at(0, 0), at(10, 0), at(0, 2), at(10, 2)), 2, EPS);
    cr_expect_float_eq(om_plane_seg_shape_distance(at(18, 0), at(30, 0), &b), 0, EPS);
    cr_expect_float_eq(om_plane_seg_shape_distance(at(18, 3), at(30, 3), &b), 2, EPS);
    cr_expect_float_eq(om_plane_seg_shape_distance(at(21, 0), at(22, 0), &b), 0, EPS);
}

/* The closest points of two boxes 10 apart: on A's top edge and B's bottom
 * edge, the first found (A's corner (84,21) onto B). */
Test(plane, closest_points)
{
    om_plane_poly a = box(84, 19, 96, 21).p, b = box(84, 31, 96, 33).p;
    om_plane_vec pa, pb;
    om_plane_closest_points(&a, &b, &pa, &pb);
    cr_expect_float_eq(pb.y - pa.y, 10.0, EPS);
    cr_expect_float_eq(pa.x, pb.x, EPS);
}

/* ---------- Straight paths ---------- */

/*
 * A (2 x 2 at y 0..2) moves 20 up toward a wall W (y 10..12):
 *   ###W###   y 10..12
 *      ^
 *     [A]     y 0..2
 * It enters the wall (overlapping by more than the touch tolerance) after 8 of
 * its 20, at t = 0.4 plus the tolerance, leaves it at t = 0.7; it touches it
 * at t = 0.4; the first hit is then.
 */
Test(plane, sweep_and_first_hit)
{
    om_plane_shape a = box(4, 0, 6, 2), w = box(0, 10, 10, 12);
    om_plane_vec v = at(0, 20);
    double in, out;
    cr_assert(om_plane_sweep(&a, v, &w, cm, &in, &out));
    cr_expect_float_eq(in, (8 + cm->touch) / 20, EPS);
    cr_expect_float_eq(out, (12 - cm->touch) / 20, EPS);
    cr_expect_float_eq(om_plane_contact_time(in, v, cm), 0.4, EPS);
    cr_expect_float_eq(om_plane_first_hit(&a, v, &w, NULL, cm), 0.4, EPS);
    /* Moving sideways it never meets it. */
    cr_expect_not(om_plane_sweep(&a, at(20, 0), &w, cm, &in, &out));
    cr_expect_float_eq(om_plane_first_hit(&a, at(20, 0), &w, NULL, cm), 1.0, EPS);
}

/*
 * A gap kept around an obstacle: E grown by 1 (G, y 9..13); A starting inside
 * the gap (y 8.5..9.5 overlaps G) is stopped only by E itself.
 */
Test(plane, first_hit_out_of_a_gap)
{
    om_plane_shape e = box(0, 10, 10, 12), g = box(-1, 9, 11, 13), a = box(4, 7.5, 6, 9.5);
    cr_expect_float_eq(om_plane_first_hit(&a, at(0, 5), &g, &e, cm), 0.1, EPS);
    /* Without the true outline, an obstacle it overlaps never stops it. */
    cr_expect_float_eq(om_plane_first_hit(&a, at(0, 5), &g, NULL, cm), 1.0, EPS);
}

/* The table's edge: a box at x 170..176 moving 20 right stops at t = 0.2 on a
 * 180-wide table; on it within the tolerance, off it beyond. */
Test(plane, table_edges)
{
    om_plane_shape a = box(170, 10, 176, 12);
    om_plane_poly off = box(-0.5, 10, 2, 12).p;
    cr_expect_float_eq(om_plane_bound(180, 120, &a.p, at(20, 0)), 0.2, EPS);
    cr_expect_float_eq(om_plane_bound(180, 120, &a.p, at(-20, 0)), 1.0, EPS);
    cr_expect(om_plane_on_table(180, 120, &a.p, cm->touch));
    cr_expect_not(om_plane_on_table(180, 120, &off, cm->touch));
}

/* ---------- Lines of sight ---------- */

/*
 * A segment from (0,5) to (20,5) through a box (8..12 x 0..10): the part
 * t in [0.4, 0.6] is inside; a segment above the box misses it.
 *   *---[####]---*
 */
Test(plane, clip_segment)
{
    om_plane_shape b = box(8, 0, 12, 10);
    double t0, t1;
    cr_assert(om_plane_clip_segment(at(0, 5), at(20, 5), &b, cm, &t0, &t1));
    cr_expect_float_eq(t0, 0.4, EPS);
    cr_expect_float_eq(t1, 0.6, EPS);
    cr_expect_not(om_plane_clip_segment(at(0, 15), at(20, 15), &b, cm, &t0, &t1));
}

/*
 * One obstacle 4 wide across the line (0,5)-(20,5), of each kind: it blocks
 * (4 inside), lets a line run up to `close` (2) inside it (so 4 is too much,
 * a line cutting 1 of its corner is not), blocks crossing its body from outside
 * to outside but not from inside, and never blocks when clear.
 */
Test(plane, sight_modes)
{
    om_plane_shape b = box(8, 0, 12, 10), corner = box(8, 4.5, 12, 10);
    om_plane_obstacle o = {&b, OM_PLANE_SIGHT_BLOCKS};
    cr_expect_not(om_plane_segment_clear(at(0, 5), at(20, 5), &o, 1, 2, cm));
    o.mode = OM_PLANE_SIGHT_CLOSE;
    cr_expect_not(om_plane_segment_clear(at(0, 5), at(20, 5), &o, 1, 2, cm));
    cr_expect(om_plane_segment_clear(at(0, 5), at(9, 5), &o, 1, 2, cm)); /* 1 inside */
    o.mode = OM_PLANE_SIGHT_BODY;
    cr_expect_not(om_plane_segment_clear(at(0, 5), at(20, 5), &o, 1, 2, cm));
    cr_expect(om_plane_segment_clear(at(10, 5), at(20, 5), &o, 1, 2, cm)); /* from inside */
    o.mode = OM_PLANE_SIGHT_CLEAR;
    cr_expect(om_plane_segment_clear(at(0, 5), at(20, 5), &o, 1, 2, cm));
    /* A line cutting a corner (8,4.5) of an obstacle by less than the
     * tolerance passes: x + y = 12.503 runs 0.0042 inside it. */
    o = (om_plane_obstacle){&corner, OM_PLANE_SIGHT_BLOCKS};
    cr_expect(om_plane_segment_clear(at(0, 12.503), at(12.503, 0), &o, 1, 2, cm));
    cr_expect_not(om_plane_segment_clear(at(0, 12.6), at(12.6, 0), &o, 1, 2, cm));
}

/*
 * Sight from the front edge of A (facing up) to B: clear, blocked by a wide
 * wall W between them, and through a gap beside a narrow one N: some sampled
 * line passes.
 *   +--B--+     y 40..42
 *   ##W###      y 30..32 (x 70..110) or N (x 88..92)
 *   +--A--+     y 19..21 (x 84..96), facing up
 * Its rear edge sees nothing ahead: lines leave only through their own edge.
 */
Test(plane, sight_from_an_edge)
{
    om_plane_shape a = rect(90, 20, 90, 12, 2), b = rect(90, 41, 270, 12, 2);
    om_plane_shape w = box(70, 30, 110, 32), n = box(88, 30, 92, 32);
    om_plane_obstacle ow = {&w, OM_PLANE_SIGHT_BLOCKS}, on = {&n, OM_PLANE_SIGHT_BLOCKS};
    cr_expect(om_plane_edge_sees(&a, 0, &b, NULL, 0, 2, cm));
    cr_expect_not(om_plane_edge_sees(&a, 0, &b, &ow, 1, 2, cm));
    cr_expect(om_plane_edge_sees(&a, 0, &b, &on, 1, 2, cm));
    cr_expect_not(om_plane_edge_sees(&a, 2, &b, NULL, 0, 2, cm));
}

/* A small deterministic generator for the random layouts below (SplitMix64). */
static uint64_t mix_state;
static double uniform(double lo, double hi)
{
    uint64_t z = (mix_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

/* Sample k along edge a-b as om_plane_edge_sees takes it (plane.h: inset
 * from the corners by the touch tolerance). */
static om_plane_vec sample(om_plane_vec a, om_plane_vec b, unsigned k)
{
    om_plane_vec d = om_plane_sub(b, a);
    double l = om_plane_len(d), f = (double)k / (OM_PLANE_SIGHT_SAMPLES - 1);
    double inset = l > 0 ? cm->touch / l : 0;
    f = inset + f * (1 - 2 * inset);
    return om_plane_add(a, om_plane_scale_by(d, f));
}

/* om_plane_edge_sees the plain way: every sampled line leaving through the
 * edge, against every obstacle. */
static bool plain_edge_sees(const om_plane_shape *from, unsigned e, const om_plane_shape *to,
                            const om_plane_obstacle *o, unsigned n)
{
    om_plane_vec a = from->p.v[e], b = from->p.v[(e + 1) % 4], c = at(0, 0);
    for (unsigned i = 0; i < 4; i++)
        c = om_plane_add(c, from->p.v[i]);
    c = om_plane_scale_by(c, 0.25);
    om_plane_vec out = om_plane_sub(om_plane_scale_by(om_plane_add(a, b), 0.5), c);
    for (unsigned i = 0; i < OM_PLANE_SIGHT_SAMPLES; i++)
        for (unsigned te = 0; te < to->p.n; te++)
            for (unsigned k = 0; k + 1 < OM_PLANE_SIGHT_SAMPLES; k++) {
                om_plane_vec p = sample(a, b, i);
                om_plane_vec q = sample(to->p.v[te], to->p.v[(te + 1) % to->p.n], k);
                if (om_plane_dot(om_plane_sub(q, p), out) > cm->touch * om_plane_len(out) &&
                    om_plane_segment_clear(p, q, o, n, 2, cm))
                    return true;
            }
    return false;
}

/*
 * A sight test leaves out the obstacles apart from its corridor and tries
 * the last blocker first: over random layouts (two rectangles, up to 12
 * obstacles of every kind, many of them between the two, some grazing the
 * lines), its answer from every edge is the plain one. Both answers occur
 * often, so the comparison is not empty.
 */
Test(plane, sight_answers_as_every_line_against_every_obstacle)
{
    static const om_plane_sight modes[] = {OM_PLANE_SIGHT_BLOCKS, OM_PLANE_SIGHT_CLOSE,
                                           OM_PLANE_SIGHT_BODY, OM_PLANE_SIGHT_CLEAR};
    unsigned seen = 0, hidden = 0;
    mix_state = 21;
    for (unsigned layout = 0; layout < 3000; layout++) {
        om_plane_shape from = rect(uniform(20, 160), uniform(10, 50), uniform(0, 360),
                                   uniform(4, 40), uniform(2, 20));
        om_plane_shape to = rect(uniform(20, 160), uniform(70, 110), uniform(0, 360),
                                 uniform(4, 40), uniform(2, 20));
        om_plane_shape shape[12];
        om_plane_obstacle o[12];
        const unsigned n = (unsigned)uniform(0, 12.999);
        for (unsigned k = 0; k < n; k++) {
            /* Most between the two, at any size and facing. */
            const double f = uniform(-0.2, 1.2);
            om_plane_vec c = om_plane_add(
                from.p.v[0], om_plane_scale_by(om_plane_sub(to.p.v[2], from.p.v[0]), f));
            c = om_plane_add(c, at(uniform(-30, 30), uniform(-10, 10)));
            shape[k] = rect(c.x, c.y, uniform(0, 360), uniform(0.5, 30), uniform(0.5, 10));
            o[k] = (om_plane_obstacle){&shape[k], modes[(unsigned)uniform(0, 3.999)]};
        }
        for (unsigned e = 0; e < 4; e++) {
            const bool want = plain_edge_sees(&from, e, &to, o, n);
            cr_assert_eq(om_plane_edge_sees(&from, e, &to, o, n, 2, cm), want,
                         "layout %u edge %u", layout, e);
            seen += want;
            hidden += !want;
        }
    }
    cr_expect_geq(seen, 1000, "%u seen", seen);
    cr_expect_geq(hidden, 1000, "%u hidden", hidden);
}

/* ---------- Zones ---------- */

/*
 * The zones of a 12 x 2 rectangle at (90,20) facing up, bounded by its
 * corners' bisectors:
 *     \ FRONT /
 *  LEFT +-^-+ RIGHT
 *     /  REAR \
 * A point 5 beyond the front edge and 3 beyond the side (x 99, y 26) is in the
 * front zone; 3 beyond the front and 5 beyond the side (101, 24) in the right
 * zone; on the bisector itself (100, 25) the front wins, as does a point
 * within the tie of it.
 */
Test(plane, zones_by_bisectors)
{
    const om_plane_vec c = at(90, 20), f = om_plane_dir(90);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(99, 26), cm->tie), OM_PLANE_FRONT);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(101, 24), cm->tie), OM_PLANE_RIGHT);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(79, 24), cm->tie), OM_PLANE_LEFT);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(90, 10), cm->tie), OM_PLANE_REAR);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(100, 25), cm->tie), OM_PLANE_FRONT);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(100 + 1e-12, 25), cm->tie), OM_PLANE_FRONT);
    cr_expect_eq(om_plane_zone(c, f, 6, 1, at(90, 20), cm->tie), OM_PLANE_FRONT);
}

/* ---------- Blocks of stands ---------- */

/*
 * Five stands 4 x 2 in 3 files at (90,20) facing up: two ranks, the last
 * filled from the left.
 *   [0][1][2]   y 20..22
 *   [3][4]      y 18..20
 * Stand 4 is the middle file of the rear rank, centred at (90,19).
 */
Test(plane, blocks_of_stands)
{
    om_plane_block b = {at(90, 20), om_plane_dir(90), 5, 3, 4, 2};
    om_plane_poly s4 = om_plane_block_stand(&b, 4), s0 = om_plane_block_stand(&b, 0);
    cr_expect_eq(om_plane_block_ranks(&b), 2);
    cr_expect_float_eq(om_plane_block_width(&b), 12, EPS);
    cr_expect_float_eq(om_plane_block_depth(&b), 4, EPS);
    cr_expect_eq(om_plane_block_file_stands(&b, 0), 2);
    cr_expect_eq(om_plane_block_file_stands(&b, 2), 1);
    cr_expect_float_eq((s4.v[0].x + s4.v[2].x) / 2, 90, EPS);
    cr_expect_float_eq((s4.v[0].y + s4.v[2].y) / 2, 19, EPS);
    cr_expect_float_eq(s0.v[0].x, 84, EPS); /* front-left of the front-left stand */
    cr_expect_float_eq(s0.v[0].y, 22, EPS);
}

/*
 * What lies behind: the block above retreating 20 down meets a single stand F
 * (x 84..88, y 9..11) behind its left file: the two stands of that file.
 *   [0][1][2]
 *   [3][4]
 *   [F]
 */
Test(plane, stands_blocked_behind)
{
    om_plane_block b = {at(90, 20), om_plane_dir(90), 5, 3, 4, 2};
    om_plane_shape f = box(84, 9, 88, 11), wide = box(80, 9, 100, 11);
    cr_expect_eq(om_plane_block_blocked(&b, at(0, -20), &f, cm), 2);
    cr_expect_eq(om_plane_block_blocked(&b, at(0, -20), &wide, cm), 5);
    cr_expect_eq(om_plane_block_blocked(&b, at(0, 20), &f, cm), 0);
}

/* ---------- Units of length ---------- */

/*
 * The same table measured in inches: two shapes 0.003 inch apart (0.0076 cm)
 * touch, 0.005 inch (0.0127 cm) do not, as in cm; the tolerances are the
 * same lengths in either unit.
 */
Test(plane, inches_keep_the_same_tolerances)
{
    const om_plane_scale *in = &om_plane_inch;
    om_plane_shape a = box(0, 0, 1, 1), near = box(1.003, 0, 2, 1), far = box(1.005, 0, 2, 1);
    cr_expect_float_eq(in->touch * 2.54, cm->touch, 1e-15);
    cr_expect_float_eq(in->unit_cm, 2.54, EPS);
    cr_expect_leq(om_plane_distance(&a, &near), in->touch);
    cr_expect_gt(om_plane_distance(&a, &far), in->touch);
    cr_expect_gt(om_plane_distance(&a, &near), cm->touch / 10); /* not a cm tolerance */
}
