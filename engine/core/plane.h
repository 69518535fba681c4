/*
 * plane.h: the geometry of a tabletop, game-neutral: points and directions,
 * convex polygons (stands, blocks of stands, terrain pieces, segments), their
 * distances, overlaps and contacts, straight paths and what they run into,
 * lines of sight past obstacles, the zones around a rectangle and the stands
 * of a block in files and ranks.
 *
 * CONTRACT
 *
 * Units of length. Every length is in the caller's unit: the game says which
 * by the scale it passes (om_plane_scale: centimetres for Warmaster,
 * om_plane_cm; inches for Warhammer Fantasy Battles, om_plane_inch). The
 * tolerances below are physical (a tenth of a millimetre for contact, a
 * nanometre for ties): the scale holds them converted to the unit, so the same
 * table measured in cm or in inches gives the same decisions.
 *
 * Axes and facings. x runs along the table's width from its left edge, y along
 * its depth from its near edge; the table is [0, width] x [0, depth]. A facing
 * is a unit vector; in degrees, 0 faces +x and 90 faces +y (counter-clockwise).
 * The right of a facing f is f turned 90 degrees clockwise, (f.y, -f.x).
 *
 * Rectangles (stands, blocks) have their corners in the order front-left,
 * front-right, rear-right, rear-left; their edges are numbered by the corner
 * they start from: 0 front, 1 right, 2 rear, 3 left. Other polygons are
 * convex with their corners in order, either orientation; a segment is a
 * polygon of 2 corners and a point one of 1.
 *
 * Distances are closest-edge distances: the shortest distance between any
 * point of one shape and any point of the other, 0 when they touch or
 * overlap. Two shapes touch when that distance is at most the scale's `touch`;
 * they overlap when every separating axis shows them overlapping by more than a
 * given tolerance (om_plane_overlap). Straight paths (om_plane_sweep) are exact
 * for translations: no stepping.
 *
 * Shapes (om_plane_shape) are polygons with what the tests need worked out
 * once: separating axes, their own extent on those axes and a bounding box. A caller keeps the shape of anything that does not move and builds it
 * again only when it moves. Every function here is pure and thread-safe: no
 * allocation, no I/O, no global state.
 */
#ifndef OM_PLANE_H
#define OM_PLANE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* Most corners of a polygon: a terrain piece of 8 corners covers the shapes of
 * real scenery; blocks and stands have 4. */
#define OM_PLANE_MAX_VERTICES 8

/* Physical tolerances, in centimetres (the scale converts them). Two shapes
 * closer than OM_PLANE_TOUCH_CM touch: a tenth of a millimetre, far below any
 * measurement on a real table and far above double rounding on a 240cm plane.
 * Lengths closer than OM_PLANE_TIE_CM are equal (ties between distances, a
 * point on the border between zones). A move along an axis shorter than
 * OM_PLANE_PARALLEL_CM per unit of time is parallel to it. */
#define OM_PLANE_TOUCH_CM 0.01
#define OM_PLANE_TIE_CM 1e-9
#define OM_PLANE_PARALLEL_CM 1e-12
/* A segment whose direction's product with an edge's normal (an area, cm^2) is
 * under this runs along the edge. */
#define OM_PLANE_PARALLEL_CM2 1e-15

/* Points sampled along each edge for a line of sight: the two corners and
 * three points between them. */
#define OM_PLANE_SIGHT_SAMPLES 5
/* Most obstacles one sight test takes (om_plane_edge_sees): every unit and
 * terrain piece of the biggest table a game holds, with room to spare. */
#define OM_PLANE_SIGHT_MAX_OBSTACLES 256

/* A point or a direction on the table, in the scale's unit. */
typedef struct om_plane_vec {
    double x; /* from the left edge */
    double y; /* from the near edge */
} om_plane_vec;

/* The unit of length and the tolerances in it. */
typedef struct om_plane_scale {
    double unit_cm;     /* length of the unit in cm: 1 (cm), 2.54 (inch) */
    double touch;       /* OM_PLANE_TOUCH_CM in the unit */
    double tie;         /* OM_PLANE_TIE_CM in the unit */
    double parallel;    /* OM_PLANE_PARALLEL_CM in the unit */
    double parallel2;   /* OM_PLANE_PARALLEL_CM2 in the unit squared */
} om_plane_scale;

/* The scale of a unit `unit_cm` centimetres long (a constant expression). */
#define OM_PLANE_SCALE_INIT(unit_cm)                                                      \
    {(unit_cm), OM_PLANE_TOUCH_CM / (unit_cm), OM_PLANE_TIE_CM / (unit_cm),               \
     OM_PLANE_PARALLEL_CM / (unit_cm), OM_PLANE_PARALLEL_CM2 / ((unit_cm) * (unit_cm))}

/* Centimetres (Warmaster) and inches (Warhammer Fantasy Battles). */
extern const om_plane_scale om_plane_cm;
extern const om_plane_scale om_plane_inch;

/* ---- Vectors (inline: the innermost arithmetic of every test) ---- */

static inline om_plane_vec om_plane_v(double x, double y) { return (om_plane_vec){x, y}; }
static inline om_plane_vec om_plane_add(om_plane_vec a, om_plane_vec b)
{
    return om_plane_v(a.x + b.x, a.y + b.y);
}
static inline om_plane_vec om_plane_sub(om_plane_vec a, om_plane_vec b)
{
    return om_plane_v(a.x - b.x, a.y - b.y);
}
static inline om_plane_vec om_plane_scale_by(om_plane_vec a, double s)
{
    return om_plane_v(a.x * s, a.y * s);
}
static inline double om_plane_dot(om_plane_vec a, om_plane_vec b) { return a.x * b.x + a.y * b.y; }
static inline double om_plane_cross(om_plane_vec a, om_plane_vec b)
{
    return a.x * b.y - a.y * b.x;
}
static inline double om_plane_len(om_plane_vec a) { return sqrt(om_plane_dot(a, a)); }
/* The direction 90 degrees clockwise of a facing: its right. */
static inline om_plane_vec om_plane_right(om_plane_vec f) { return om_plane_v(f.y, -f.x); }

/* The facing of `deg` degrees (0: +x, 90: +y), and back in [0, 360). */
om_plane_vec om_plane_dir(double deg);
double om_plane_facing_deg(om_plane_vec dir);

/* ---- Polygons and shapes ---- */

/* A convex polygon of 1 to OM_PLANE_MAX_VERTICES corners. */
typedef struct om_plane_poly {
    unsigned n;                            /* corners */
    om_plane_vec v[OM_PLANE_MAX_VERTICES]; /* in order, either orientation */
} om_plane_poly;

/* An axis-aligned bounding box. */
typedef struct om_plane_box {
    double x0, y0, x1, y1; /* lowest and highest x and y */
} om_plane_box;

/* A polygon with its tests' data worked out once (om_plane_shape_of). */
typedef struct om_plane_shape {
    om_plane_poly p;                          /* the polygon; edge i runs from v[i] to
                                                 v[i + 1] */
    om_plane_vec axis[OM_PLANE_MAX_VERTICES]; /* unit normal of edge i (the separating
                                                 axis; (1, 0) for an edge of length 0) */
    double lo[OM_PLANE_MAX_VERTICES];         /* the polygon's own extent on axis i */
    double hi[OM_PLANE_MAX_VERTICES];
    om_plane_box box;                         /* its bounding box */
    bool ccw;                                 /* counter-clockwise (positive area) */
} om_plane_shape;

/* The rectangle centred at c, facing f (a unit vector), of half-width hw
 * (across the facing) and half-depth hd, corners front-left, front-right,
 * rear-right, rear-left. */
om_plane_poly om_plane_rect(om_plane_vec c, om_plane_vec f, double hw, double hd);

/* The shape of polygon p (n >= 1). */
void om_plane_shape_of(om_plane_shape *s, const om_plane_poly *p);

/* The bounding box of a polygon; whether two boxes meet (edges included); the
 * gap between two boxes along the axis where it is largest (0 or less when
 * they meet: a lower bound of the distance between what they bound). */
om_plane_box om_plane_box_of(const om_plane_poly *p);
static inline bool om_plane_box_meet(om_plane_box a, om_plane_box b)
{
    return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}
static inline double om_plane_box_gap(om_plane_box a, om_plane_box b)
{
    double gx = a.x0 - b.x1 > b.x0 - a.x1 ? a.x0 - b.x1 : b.x0 - a.x1;
    double gy = a.y0 - b.y1 > b.y0 - a.y1 ? a.y0 - b.y1 : b.y0 - a.y1;
    return gx > gy ? gx : gy;
}

/* A box grown by d on every side; the box a box sweeps moving by v. */
static inline om_plane_box om_plane_box_grow(om_plane_box b, double d)
{
    return (om_plane_box){b.x0 - d, b.y0 - d, b.x1 + d, b.y1 + d};
}
static inline om_plane_box om_plane_box_sweep(om_plane_box b, om_plane_vec v)
{
    return (om_plane_box){v.x < 0 ? b.x0 + v.x : b.x0, v.y < 0 ? b.y0 + v.y : b.y0,
                          v.x > 0 ? b.x1 + v.x : b.x1, v.y > 0 ? b.y1 + v.y : b.y1};
}

/*
 * Broad phase. Two shapes whose boxes are apart by more than the touch
 * tolerance (om_plane_box_gap), with a tie's margin for rounding, are apart
 * by more than it themselves: they neither touch nor overlap, and one moving
 * within a box apart from the other never meets it. A caller skips the exact
 * tests of such pairs, and nothing it decides changes: the exact tests
 * would say the same.
 */
static inline bool om_plane_boxes_apart(om_plane_box a, om_plane_box b, const om_plane_scale *s)
{
    return om_plane_box_gap(a, b) > s->touch + s->tie;
}

/* ---- Distances, contact, overlap ---- */

/*
 * om_plane_overlap: whether the interiors of a and b overlap by more than `tol`
 * on every separating axis (the edges' normals of both). Shapes that only
 * touch, or overlap by no more than tol, do not overlap.
 */
bool om_plane_overlap(const om_plane_shape *a, const om_plane_shape *b, double tol);

/* Closest-edge distance between two shapes (0 when they overlap). */
double om_plane_distance(const om_plane_shape *a, const om_plane_shape *b);

/* Distance from point p to a shape (0 inside or on its outline). */
double om_plane_point_distance(om_plane_vec p, const om_plane_shape *b);

/* Whether point p lies inside or on the outline of a shape. */
bool om_plane_point_inside(om_plane_vec p, const om_plane_shape *b);

/* Distance from p to segment ab; *par (if not NULL) the parameter of the
 * closest point, a + par (b - a), par in [0, 1]. */
double om_plane_seg_distance(om_plane_vec p, om_plane_vec a, om_plane_vec b, double *par);

/* Distance between segments a0-a1 and b0-b1 (0 when they cross). */
double om_plane_seg_seg_distance(om_plane_vec a0, om_plane_vec a1, om_plane_vec b0,
                                 om_plane_vec b1);

/* Distance from segment a0-a1 to a shape (0 when it enters it). */
double om_plane_seg_shape_distance(om_plane_vec a0, om_plane_vec a1, const om_plane_shape *p);

/* The closest pair of points of two polygons that do not overlap: *pa on a,
 * *pb on b (first found among equals, a's corners before b's). */
void om_plane_closest_points(const om_plane_poly *a, const om_plane_poly *b, om_plane_vec *pa,
                             om_plane_vec *pb);

/* ---- Straight paths ---- */

/*
 * om_plane_sweep: moving a by t v (t in [0, 1]), the interval of t in which a
 * and b overlap by more than the scale's touch tolerance, as [*enter, *exit].
 * Returns false when they never overlap in [0, 1].
 */
bool om_plane_sweep(const om_plane_shape *a, om_plane_vec v, const om_plane_shape *b,
                    const om_plane_scale *s, double *enter, double *exit);

/* The time a sweep's shapes touch: `enter` backed off by the touch tolerance
 * along v, at least 0. */
double om_plane_contact_time(double enter, om_plane_vec v, const om_plane_scale *s);

/*
 * om_plane_first_hit: the first time in [0, 1] at which `a` moving by v meets
 * obstacle `b`; 1 if never. An obstacle it already overlaps does not stop it:
 * when `b` is an obstacle grown by a gap and `b0` its true outline, the move
 * out of the gap is stopped by b0 alone (b0 NULL: no gap).
 */
double om_plane_first_hit(const om_plane_shape *a, om_plane_vec v, const om_plane_shape *b,
                          const om_plane_shape *b0, const om_plane_scale *s);

/* The largest t in [0, 1] keeping every corner of a + t v on the table
 * [0, width] x [0, depth]. */
double om_plane_bound(double width, double depth, const om_plane_poly *a, om_plane_vec v);

/* Whether every corner of a is on the table, within `tol` of its edges. */
bool om_plane_on_table(double width, double depth, const om_plane_poly *a, double tol);

/* ---- Lines of sight ---- */

/* What an obstacle does to a line of sight. */
typedef enum om_plane_sight {
    OM_PLANE_SIGHT_CLEAR = 0, /* never blocks */
    OM_PLANE_SIGHT_CLOSE,     /* a line may run `close` inside it (woods) */
    OM_PLANE_SIGHT_BODY,      /* blocks a line crossing it from outside to outside (hills) */
    OM_PLANE_SIGHT_BLOCKS     /* blocks any crossing longer than the touch tolerance */
} om_plane_sight;

/* An obstacle to lines of sight. */
typedef struct om_plane_obstacle {
    const om_plane_shape *shape; /* its outline */
    om_plane_sight mode;         /* what it does */
} om_plane_obstacle;

/* The part [*t0, *t1] of segment a + t (b - a), t in [0, 1], inside a shape
 * (Cyrus-Beck); false if none. */
bool om_plane_clip_segment(om_plane_vec a, om_plane_vec b, const om_plane_shape *p,
                           const om_plane_scale *s, double *t0, double *t1);

/* Whether the segment a-b passes the `n` obstacles `o`: `close` is how far a
 * line may run inside an OM_PLANE_SIGHT_CLOSE obstacle. */
bool om_plane_segment_clear(om_plane_vec a, om_plane_vec b, const om_plane_obstacle *o,
                            unsigned n, double close, const om_plane_scale *s);

/*
 * om_plane_edge_sees: whether a line from edge e of rectangle `from` (4
 * corners), leaving through that edge, reaches the outline of `to` past the
 * obstacles. Lines are sampled: OM_PLANE_SIGHT_SAMPLES points along the edge
 * (the middle one first), each to OM_PLANE_SIGHT_SAMPLES - 1 points along each
 * edge of `to`, every sample inset from the corners by the touch tolerance so
 * that a corner shared with a neighbour is not inside it. At most
 * OM_PLANE_SIGHT_MAX_OBSTACLES obstacles. The answer is that of trying every
 * sampled line against every obstacle (om_plane_segment_clear); obstacles
 * apart from the hull of the edge and `to` are left out first, as they meet
 * no such line, and a line that certainly crosses deep inside an obstacle
 * (by a margin far above rounding) is blocked without its clip, as the clip
 * would block it.
 */
bool om_plane_edge_sees(const om_plane_shape *from, unsigned e, const om_plane_shape *to,
                        const om_plane_obstacle *o, unsigned n, double close,
                        const om_plane_scale *s);

/* ---- Rectangles: zones ---- */

/* The faces of a rectangle and the zones beyond them. */
typedef enum om_plane_face {
    OM_PLANE_FRONT = 0,
    OM_PLANE_LEFT,
    OM_PLANE_RIGHT,
    OM_PLANE_REAR,
    OM_PLANE_FACE_COUNT
} om_plane_face;

/* The face of a rectangle that its edge e is (corner order FL, FR, RR, RL). */
extern const om_plane_face om_plane_edge_face[4];

/*
 * om_plane_zone: the zone of the rectangle centred at c, facing f, of
 * half-width hw and half-depth hd, that point p lies in: the zones are bounded
 * by the corners' bisectors (135-degree front and rear zones for a square's
 * 90), a point within `tie` of a border between the front (or rear) zone and a
 * side zone counts as in the front (or rear); a point inside counts as in the
 * front.
 */
om_plane_face om_plane_zone(om_plane_vec c, om_plane_vec f, double hw, double hd,
                            om_plane_vec p, double tie);

/* ---- Blocks of stands ---- */

/* A block of `count` stands in `files` files (stands abreast), as many ranks
 * as they need, the front rank first and the last rank filled from the left:
 * a unit, a regiment. */
typedef struct om_plane_block {
    om_plane_vec centre; /* centre of its rectangle */
    om_plane_vec dir;    /* the facing of its front */
    unsigned count;      /* stands, 1 or more */
    unsigned files;      /* stands abreast, 1 .. count */
    double stand_w;      /* a stand's frontage */
    double stand_d;      /* a stand's depth */
} om_plane_block;

/* Ranks of a block; its width (files x stand_w) and depth (ranks x stand_d). */
static inline unsigned om_plane_block_ranks(const om_plane_block *b)
{
    return (b->count + b->files - 1) / b->files;
}
static inline double om_plane_block_width(const om_plane_block *b)
{
    return b->files * b->stand_w;
}
static inline double om_plane_block_depth(const om_plane_block *b)
{
    return om_plane_block_ranks(b) * b->stand_d;
}

/* Stands in file `file` (0 the leftmost). */
unsigned om_plane_block_file_stands(const om_plane_block *b, unsigned file);

/* The rectangle of the stand in file `file` and rank `rank` (0 the front). */
om_plane_poly om_plane_block_stand_at(const om_plane_block *b, unsigned file, unsigned rank);

/* Stand i of a block: file i % files, rank i / files. */
om_plane_poly om_plane_block_stand(const om_plane_block *b, unsigned i);

/* Stands of a block whose own straight path along v (the whole of it) meets
 * the shape `hit`: the stands a blocked retreat or move runs into it. */
unsigned om_plane_block_blocked(const om_plane_block *b, om_plane_vec v,
                                const om_plane_shape *hit, const om_plane_scale *s);

#endif /* OM_PLANE_H */
