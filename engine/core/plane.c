/*
 * plane.c: the geometry of a tabletop (plane.h), game-neutral. Polygons are
 * convex, so distances, contact and overlap are the separating-axis theorem
 * over their edges' normals, and a straight move is the swept version of the
 * same test: exact for translations, no stepping. Lines of sight are segments
 * clipped against obstacles (Cyrus-Beck).
 *
 * Speed without changing a result: a shape keeps what does not change while
 * it stands still (axes, its own extent on them, its box); distances
 * are minimised on their squares and the square root taken once (the square
 * root is correctly rounded and monotonic, so the root of the least square is
 * the least root, bit for bit); minima and maxima are comparisons, not the
 * library's fmin and fmax (no value here is ever NaN); a sight test leaves
 * out the obstacles apart from its corridor, tries first the obstacle that
 * blocked its last line, and decides without a clip the lines that certainly
 * cross an obstacle's core (none of these changes which lines are clear).
 */
#include "plane.h"

#include <assert.h>
#include <string.h>

const om_plane_scale om_plane_cm = OM_PLANE_SCALE_INIT(1.0);
const om_plane_scale om_plane_inch = OM_PLANE_SCALE_INIT(2.54);

/* Degrees in a radian, for facings given in degrees. */
#define DEG_PER_RAD (180.0 / 3.14159265358979323846)

/* Edge i of shape s: v[i + 1] - v[i] (worked out where it is used: a shape
 * is copied more often than its edges are read). */
static inline om_plane_vec edge_of(const om_plane_shape *s, unsigned i)
{
    return om_plane_sub(s->p.v[i + 1 < s->p.n ? i + 1 : 0], s->p.v[i]);
}

/* Minimum and maximum of two numbers that are never NaN. */
static inline double min2(double a, double b) { return b < a ? b : a; }
static inline double max2(double a, double b) { return b > a ? b : a; }

om_plane_vec om_plane_dir(double deg)
{
    double a = deg / DEG_PER_RAD;
    return om_plane_v(cos(a), sin(a));
}

double om_plane_facing_deg(om_plane_vec dir)
{
    double a = atan2(dir.y, dir.x) * DEG_PER_RAD;
    return a < 0 ? a + 360.0 : a;
}

/* ---- Polygons and shapes ---- */

om_plane_poly om_plane_rect(om_plane_vec c, om_plane_vec f, double hw, double hd)
{
    om_plane_vec r = om_plane_right(f);
    om_plane_poly p = {.n = 4};
    p.v[0] = om_plane_add(c, om_plane_add(om_plane_scale_by(f, hd), om_plane_scale_by(r, -hw)));
    p.v[1] = om_plane_add(c, om_plane_add(om_plane_scale_by(f, hd), om_plane_scale_by(r, hw)));
    p.v[2] = om_plane_add(c, om_plane_add(om_plane_scale_by(f, -hd), om_plane_scale_by(r, hw)));
    p.v[3] = om_plane_add(c, om_plane_add(om_plane_scale_by(f, -hd), om_plane_scale_by(r, -hw)));
    return p;
}

om_plane_box om_plane_box_of(const om_plane_poly *p)
{
    om_plane_box b = {p->v[0].x, p->v[0].y, p->v[0].x, p->v[0].y};
    for (unsigned i = 1; i < p->n; i++) {
        b.x0 = min2(b.x0, p->v[i].x);
        b.y0 = min2(b.y0, p->v[i].y);
        b.x1 = max2(b.x1, p->v[i].x);
        b.y1 = max2(b.y1, p->v[i].y);
    }
    return b;
}

/* The extent of polygon p on an axis. */
static inline void project(const om_plane_poly *p, om_plane_vec axis, double *lo, double *hi)
{
    double l, h;
    l = h = om_plane_dot(p->v[0], axis);
    for (unsigned i = 1; i < p->n; i++) {
        double d = om_plane_dot(p->v[i], axis);
        if (d < l) l = d;
        if (d > h) h = d;
    }
    *lo = l;
    *hi = h;
}

void om_plane_shape_of(om_plane_shape *s, const om_plane_poly *p)
{
    double area = 0;
    s->p = *p;
    for (unsigned i = 0; i < p->n; i++) {
        om_plane_vec e = om_plane_sub(p->v[(i + 1) % p->n], p->v[i]);
        double l = om_plane_len(e);
        /* Either side's normal: the separating-axis test only needs the line. */
        s->axis[i] = l > 0 ? om_plane_v(-e.y / l, e.x / l) : om_plane_v(1, 0);
        area += om_plane_cross(p->v[i], p->v[(i + 1) % p->n]);
    }
    for (unsigned i = 0; i < p->n; i++)
        project(p, s->axis[i], &s->lo[i], &s->hi[i]);
    s->box = om_plane_box_of(p);
    s->ccw = area > 0;
}

/* ---- Distances, contact, overlap ---- */

bool om_plane_overlap(const om_plane_shape *a, const om_plane_shape *b, double tol)
{
    /* a's own axes with its kept extent, then b's. */
    for (unsigned i = 0; i < a->p.n; i++) {
        double blo, bhi;
        project(&b->p, a->axis[i], &blo, &bhi);
        if (max2(a->lo[i], blo) >= min2(a->hi[i], bhi) - tol)
            return false;
    }
    for (unsigned i = 0; i < b->p.n; i++) {
        double alo, ahi;
        project(&a->p, b->axis[i], &alo, &ahi);
        if (max2(alo, b->lo[i]) >= min2(ahi, b->hi[i]) - tol)
            return false;
    }
    return true;
}

/* The square of the distance from p to the segment from a along ab (of
 * squared length l2), and the parameter of its closest point. */
static inline double seg_dist2(om_plane_vec p, om_plane_vec a, om_plane_vec ab, double *par)
{
    double l2 = om_plane_dot(ab, ab), s = l2 > 0 ? om_plane_dot(om_plane_sub(p, a), ab) / l2 : 0;
    om_plane_vec w;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    if (par) *par = s;
    w = om_plane_sub(p, om_plane_add(a, om_plane_scale_by(ab, s)));
    return om_plane_dot(w, w);
}

double om_plane_seg_distance(om_plane_vec p, om_plane_vec a, om_plane_vec b, double *par)
{
    return sqrt(seg_dist2(p, a, om_plane_sub(b, a), par));
}

double om_plane_distance(const om_plane_shape *a, const om_plane_shape *b)
{
    double best = INFINITY;
    if (om_plane_overlap(a, b, 0))
        return 0;
    for (unsigned i = 0; i < a->p.n; i++)
        for (unsigned j = 0; j < b->p.n; j++) {
            double d1 = seg_dist2(a->p.v[i], b->p.v[j], edge_of(b, j), NULL);
            double d2 = seg_dist2(b->p.v[j], a->p.v[i], edge_of(a, i), NULL);
            best = min2(best, min2(d1, d2));
        }
    return sqrt(best);
}

/* Whether p is inside b by the signs of the edges' cross products, and the
 * square of its distance to b's outline. */
static inline double point_outline2(om_plane_vec p, const om_plane_shape *b, bool *inside)
{
    double best = INFINITY, sign = 0;
    *inside = true;
    for (unsigned j = 0; j < b->p.n; j++) {
        const om_plane_vec e = edge_of(b, j);
        double c = om_plane_cross(e, om_plane_sub(p, b->p.v[j]));
        if (sign == 0) sign = c;
        else if (c * sign < 0) *inside = false;
        best = min2(best, seg_dist2(p, b->p.v[j], e, NULL));
    }
    return best;
}

double om_plane_point_distance(om_plane_vec p, const om_plane_shape *b)
{
    bool inside;
    double d2 = point_outline2(p, b, &inside);
    return inside ? 0 : sqrt(d2);
}

bool om_plane_point_inside(om_plane_vec p, const om_plane_shape *b)
{
    bool inside;
    double d2 = point_outline2(p, b, &inside);
    return inside || d2 == 0;
}

/* Whether segments a0-a1 and b0-b1 cross (properly: no end on the other). */
static bool seg_cross(om_plane_vec a0, om_plane_vec a1, om_plane_vec b0, om_plane_vec b1)
{
    om_plane_vec da = om_plane_sub(a1, a0), db = om_plane_sub(b1, b0);
    double d1 = om_plane_cross(da, om_plane_sub(b0, a0)), d2 = om_plane_cross(da, om_plane_sub(b1, a0));
    double d3 = om_plane_cross(db, om_plane_sub(a0, b0)), d4 = om_plane_cross(db, om_plane_sub(a1, b0));
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 &&
           d4 != 0;
}

/* The square of the distance between two segments that do not cross. */
static inline double seg_seg_dist2(om_plane_vec a0, om_plane_vec a1, om_plane_vec b0,
                                   om_plane_vec b1)
{
    om_plane_vec da = om_plane_sub(a1, a0), db = om_plane_sub(b1, b0);
    return min2(min2(seg_dist2(a0, b0, db, NULL), seg_dist2(a1, b0, db, NULL)),
                min2(seg_dist2(b0, a0, da, NULL), seg_dist2(b1, a0, da, NULL)));
}

double om_plane_seg_seg_distance(om_plane_vec a0, om_plane_vec a1, om_plane_vec b0,
                                 om_plane_vec b1)
{
    if (seg_cross(a0, a1, b0, b1))
        return 0;
    return sqrt(seg_seg_dist2(a0, a1, b0, b1));
}

double om_plane_seg_shape_distance(om_plane_vec a0, om_plane_vec a1, const om_plane_shape *p)
{
    bool in0, in1;
    double d0 = point_outline2(a0, p, &in0), d1 = point_outline2(a1, p, &in1), best;
    if (in0 || in1)
        return 0;
    best = min2(d0, d1);
    for (unsigned j = 0; j < p->p.n && best > 0; j++) {
        om_plane_vec b0 = p->p.v[j], b1 = p->p.v[(j + 1) % p->p.n];
        if (seg_cross(a0, a1, b0, b1))
            return 0;
        best = min2(best, seg_seg_dist2(a0, a1, b0, b1));
    }
    return sqrt(best);
}

void om_plane_closest_points(const om_plane_poly *a, const om_plane_poly *b, om_plane_vec *pa,
                             om_plane_vec *pb)
{
    /* Each candidate's root is compared, not its square: two squares that
     * differ may round to the same root, and the first of equal roots wins. */
    double best = INFINITY;
    for (unsigned i = 0; i < a->n; i++)
        for (unsigned j = 0; j < b->n; j++) {
            om_plane_vec b0 = b->v[j], b1 = b->v[(j + 1) % b->n];
            om_plane_vec a0 = a->v[i], a1 = a->v[(i + 1) % a->n];
            double s, d = om_plane_seg_distance(a0, b0, b1, &s);
            if (d < best) {
                best = d;
                *pa = a0;
                *pb = om_plane_add(b0, om_plane_scale_by(om_plane_sub(b1, b0), s));
            }
            d = om_plane_seg_distance(b0, a0, a1, &s);
            if (d < best) {
                best = d;
                *pb = b0;
                *pa = om_plane_add(a0, om_plane_scale_by(om_plane_sub(a1, a0), s));
            }
        }
}

/* ---- Straight paths ---- */

/* One axis of a sweep: a's extent [alo, ahi] moving at speed sp along it
 * against b's [blo, bhi]; narrows [*t_in, *t_out]; false when they can no
 * longer overlap. */
static inline bool sweep_axis(double alo, double ahi, double blo, double bhi, double sp,
                              const om_plane_scale *s, double *t_in, double *t_out)
{
    const double tol = s->touch;
    double t1, t2;
    if (fabs(sp) < s->parallel)
        return alo < bhi - tol && ahi > blo + tol;
    /* Overlap on this axis while alo + sp t < bhi - tol and ahi + sp t > blo + tol. */
    t1 = (blo + tol - ahi) / sp;
    t2 = (bhi - tol - alo) / sp;
    *t_in = max2(*t_in, min2(t1, t2));
    *t_out = min2(*t_out, max2(t1, t2));
    return *t_in < *t_out;
}

bool om_plane_sweep(const om_plane_shape *a, om_plane_vec v, const om_plane_shape *b,
                    const om_plane_scale *s, double *enter, double *exit)
{
    double t_in = -INFINITY, t_out = INFINITY;
    for (unsigned i = 0; i < a->p.n; i++) {
        double blo, bhi;
        project(&b->p, a->axis[i], &blo, &bhi);
        if (!sweep_axis(a->lo[i], a->hi[i], blo, bhi, om_plane_dot(v, a->axis[i]), s, &t_in,
                        &t_out))
            return false;
    }
    for (unsigned i = 0; i < b->p.n; i++) {
        double alo, ahi;
        project(&a->p, b->axis[i], &alo, &ahi);
        if (!sweep_axis(alo, ahi, b->lo[i], b->hi[i], om_plane_dot(v, b->axis[i]), s, &t_in,
                        &t_out))
            return false;
    }
    if (t_out <= 0 || t_in >= 1)
        return false;
    *enter = t_in;
    *exit = t_out;
    return true;
}

double om_plane_contact_time(double enter, om_plane_vec v, const om_plane_scale *s)
{
    double len = om_plane_len(v), t = enter - (len > 0 ? s->touch / len : 0);
    return t < 0 ? 0 : t;
}

double om_plane_first_hit(const om_plane_shape *a, om_plane_vec v, const om_plane_shape *b,
                          const om_plane_shape *b0, const om_plane_scale *s)
{
    double in, out;
    if (om_plane_overlap(a, b, s->touch)) {
        if (b0 == NULL || om_plane_overlap(a, b0, s->touch))
            return 1;
        b = b0;
    }
    if (!om_plane_sweep(a, v, b, s, &in, &out))
        return 1;
    return om_plane_contact_time(in, v, s);
}

double om_plane_bound(double width, double depth, const om_plane_poly *a, om_plane_vec v)
{
    double best = 1;
    for (unsigned i = 0; i < a->n; i++) {
        om_plane_vec p = a->v[i];
        if (v.x > 0) best = min2(best, (width - p.x) / v.x);
        if (v.x < 0) best = min2(best, -p.x / v.x);
        if (v.y > 0) best = min2(best, (depth - p.y) / v.y);
        if (v.y < 0) best = min2(best, -p.y / v.y);
    }
    return best < 0 ? 0 : best;
}

bool om_plane_on_table(double width, double depth, const om_plane_poly *a, double tol)
{
    for (unsigned i = 0; i < a->n; i++)
        if (a->v[i].x < -tol || a->v[i].y < -tol || a->v[i].x > width + tol ||
            a->v[i].y > depth + tol)
            return false;
    return true;
}

/* ---- Lines of sight ---- */

/* The inward normal of shape p's edge i: to the left of an edge of a
 * counter-clockwise polygon. */
static inline om_plane_vec inward_normal(const om_plane_shape *p, unsigned i)
{
    om_plane_vec e = edge_of(p, i);
    return p->ccw ? om_plane_v(-e.y, e.x) : om_plane_v(e.y, -e.x);
}

/* One edge's cut of the parameter interval [*lo, *hi] of a segment (Cyrus-Beck):
 * `num` the start's offset along the edge's inward normal, `den` the
 * segment's direction along it. Returns false when the segment lies wholly
 * outside the edge (then the interval is left as it was or emptied). */
static inline bool clip_by_edge(double num, double den, const om_plane_scale *s, double *lo,
                                double *hi)
{
    double t;
    if (fabs(den) < s->parallel2)
        return num >= 0;
    t = -num / den;
    if (den > 0) *lo = max2(*lo, t);
    else *hi = min2(*hi, t);
    return *lo <= *hi;
}

bool om_plane_clip_segment(om_plane_vec a, om_plane_vec b, const om_plane_shape *p,
                           const om_plane_scale *s, double *t0, double *t1)
{
    om_plane_vec d = om_plane_sub(b, a);
    double lo = 0, hi = 1;
    for (unsigned i = 0; i < p->p.n; i++) {
        om_plane_vec n = inward_normal(p, i);
        if (!clip_by_edge(om_plane_dot(n, om_plane_sub(a, p->p.v[i])), om_plane_dot(n, d), s,
                          &lo, &hi))
            return false;
    }
    *t0 = lo;
    *t1 = hi;
    return true;
}

/* Whether obstacle o blocks the segment a-b (its box `seg`). */
static bool obstacle_blocks(om_plane_vec a, om_plane_vec b, om_plane_box seg,
                            const om_plane_obstacle *o, double close, const om_plane_scale *s)
{
    double t0, t1, inside;
    /* A segment that misses the obstacle's box misses the obstacle. */
    if (!om_plane_box_meet(seg, o->shape->box) ||
        !om_plane_clip_segment(a, b, o->shape, s, &t0, &t1))
        return false;
    inside = (t1 - t0) * om_plane_len(om_plane_sub(b, a));
    switch (o->mode) {
    case OM_PLANE_SIGHT_BLOCKS:
        return inside > s->touch;
    case OM_PLANE_SIGHT_CLOSE:
        return inside > close;
    case OM_PLANE_SIGHT_BODY:
        return inside > s->touch && !om_plane_point_inside(a, o->shape) &&
               !om_plane_point_inside(b, o->shape);
    case OM_PLANE_SIGHT_CLEAR:
        break;
    }
    return false;
}

/* The index of an obstacle of the n `o` that blocks segment a-b, trying
 * o[first] before the others (first >= n: none first); n when none does.
 * Whether an obstacle blocks does not depend on the others, so the order
 * changes only how soon a blocked segment is found. */
static unsigned segment_blocker(om_plane_vec a, om_plane_vec b, const om_plane_obstacle *o,
                                unsigned n, unsigned first, double close,
                                const om_plane_scale *s)
{
    const om_plane_box seg = {min2(a.x, b.x), min2(a.y, b.y), max2(a.x, b.x), max2(a.y, b.y)};
    if (first < n && obstacle_blocks(a, b, seg, &o[first], close, s))
        return first;
    for (unsigned k = 0; k < n; k++)
        if (k != first && obstacle_blocks(a, b, seg, &o[k], close, s))
            return k;
    return n;
}

bool om_plane_segment_clear(om_plane_vec a, om_plane_vec b, const om_plane_obstacle *o,
                            unsigned n, double close, const om_plane_scale *s)
{
    return segment_blocker(a, b, o, n, n, close, s) == n;
}

/* The sample points of edge a-b: point k of OM_PLANE_SIGHT_SAMPLES along it,
 * inset by the touch tolerance so that a corner shared with a neighbour does
 * not count as inside it. What the points of an edge share (its direction,
 * the inset) is worked out once an edge (edge_samples_of), each point then
 * (edge_sample_of). */
typedef struct edge_samples {
    om_plane_vec a, d;
    double inset;
} edge_samples;

static inline edge_samples edge_samples_of(om_plane_vec a, om_plane_vec b,
                                           const om_plane_scale *s)
{
    edge_samples e = {a, om_plane_sub(b, a), 0};
    double l = om_plane_len(e.d);
    e.inset = l > 0 ? s->touch / l : 0;
    return e;
}

static inline om_plane_vec edge_sample_of(const edge_samples *e, unsigned k)
{
    double f = (double)k / (OM_PLANE_SIGHT_SAMPLES - 1);
    f = e->inset + f * (1 - 2 * e->inset);
    return om_plane_add(e->a, om_plane_scale_by(e->d, f));
}

/*
 * The corridor of a sight test: the convex hull of the sighting edge and the
 * target, which holds every line the test samples (a line between two points
 * of a convex set stays in it). An obstacle apart from the corridor by more
 * than the touch tolerance meets none of those lines: its clip is empty,
 * whatever the rounding of the samples (far below that tolerance), so it
 * blocks none of them and the test leaves it out. The hull's edges are kept
 * as unit outward normals and offsets: a point p is outside edge i by
 * dot(normal[i], p) - offset[i].
 */
#define CORRIDOR_MAX (2 + OM_PLANE_MAX_VERTICES)
typedef struct corridor {
    unsigned n;                         /* edges of the hull */
    om_plane_vec normal[CORRIDOR_MAX];  /* unit outward normal of edge i */
    double offset[CORRIDOR_MAX];
    om_plane_box box;                   /* the hull's box */
} corridor;

/* The corridor of the n points p (n <= CORRIDOR_MAX; reordered): Andrew's
 * monotone chain, counter-clockwise. Collinear or coincident points give
 * fewer edges, and fewer obstacles are left out. */
static void corridor_of(om_plane_vec *p, unsigned n, corridor *c)
{
    om_plane_vec h[2 * CORRIDOR_MAX];
    unsigned m = 0;
    /* Insertion sort by x, then y: a handful of points. */
    for (unsigned i = 1; i < n; i++) {
        om_plane_vec v = p[i];
        unsigned j = i;
        while (j > 0 && (p[j - 1].x > v.x || (p[j - 1].x == v.x && p[j - 1].y > v.y))) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = v;
    }
    /* Lower hull, then upper hull; a turn that is not to the left is dropped. */
    for (unsigned i = 0; i < n; i++) {
        while (m >= 2 && om_plane_cross(om_plane_sub(h[m - 1], h[m - 2]),
                                        om_plane_sub(p[i], h[m - 2])) <= 0)
            m--;
        h[m++] = p[i];
    }
    for (unsigned i = n - 1, lower = m + 1; i-- > 0;) {
        while (m >= lower && om_plane_cross(om_plane_sub(h[m - 1], h[m - 2]),
                                            om_plane_sub(p[i], h[m - 2])) <= 0)
            m--;
        h[m++] = p[i];
    }
    /* h[m - 1] is h[0] again: m - 1 corners, as many edges. */
    c->n = 0;
    c->box = (om_plane_box){p[0].x, p[0].y, p[0].x, p[0].y};
    for (unsigned i = 0; i + 1 < m; i++) {
        om_plane_vec e = om_plane_sub(h[i + 1], h[i]);
        double l = om_plane_len(e);
        c->box.x0 = min2(c->box.x0, h[i].x);
        c->box.y0 = min2(c->box.y0, h[i].y);
        c->box.x1 = max2(c->box.x1, h[i].x);
        c->box.y1 = max2(c->box.y1, h[i].y);
        if (l > 0) {
            /* The right of an edge of a counter-clockwise hull is outside. */
            c->normal[c->n] = om_plane_v(e.y / l, -e.x / l);
            c->offset[c->n] = om_plane_dot(c->normal[c->n], h[i]);
            c->n++;
        }
    }
}

/* Whether shape p is apart from corridor c by more than `gap` (along the
 * corridor's box or one of its edges' normals). */
static bool corridor_apart(const corridor *c, const om_plane_shape *p, double gap)
{
    if (om_plane_box_gap(c->box, p->box) > gap)
        return true;
    for (unsigned i = 0; i < c->n; i++) {
        bool apart = true;
        for (unsigned j = 0; j < p->p.n && apart; j++)
            apart = om_plane_dot(c->normal[i], p->p.v[j]) - c->offset[i] > gap;
        if (apart)
            return true;
    }
    return false;
}

/*
 * A fan of lines from one point through the corridor's obstacles: what
 * om_plane_clip_segment works out of each edge of an obstacle that does not
 * depend on the line's far end (the edge's inward normal, and the point's
 * offset along it), worked out once for every line from that point. The
 * clip of each line then does the rest with the same operations in the same
 * order, so its answer is om_plane_clip_segment's bit for bit.
 */
typedef struct fan_edges {
    om_plane_vec n[OM_PLANE_MAX_VERTICES]; /* inward normal of edge i */
    double num[OM_PLANE_MAX_VERTICES];     /* the fan's point along it */
    bool ready;                            /* num worked out for the fan's point */
    bool cored;                            /* its cores worked out (below) */
    unsigned cores;                        /* how many: 0 to CORE_MAX */
    om_plane_vec c0[2], c1[2];             /* their ends */
} fan_edges;

/* Most cores of an obstacle (below): its two longest diagonals. */
#define CORE_MAX 2

/* The inward normals of obstacle shape p's edges; its core not yet sought. */
static void fan_normals(const om_plane_shape *p, fan_edges *f)
{
    for (unsigned i = 0; i < p->p.n; i++)
        f->n[i] = inward_normal(p, i);
    f->cored = false;
}

/* The offsets of point a along shape p's normals (fan_normals first),
 * unless worked out already for the fan's point a: they are worked out when
 * a line from a first meets the obstacle's box, not for every obstacle of
 * the corridor at each point. */
static void fan_point(const om_plane_shape *p, om_plane_vec a, fan_edges *f)
{
    if (f->ready)
        return;
    for (unsigned i = 0; i < p->p.n; i++)
        f->num[i] = om_plane_dot(f->n[i], om_plane_sub(a, p->p.v[i]));
    f->ready = true;
}

/* om_plane_clip_segment of a-b, a the fan's point of f. */
static bool fan_clip(om_plane_vec a, om_plane_vec b, const om_plane_shape *p,
                     const fan_edges *f, const om_plane_scale *s, double *t0, double *t1)
{
    om_plane_vec d = om_plane_sub(b, a);
    double lo = 0, hi = 1;
    for (unsigned i = 0; i < p->p.n; i++)
        if (!clip_by_edge(f->num[i], om_plane_dot(f->n[i], d), s, &lo, &hi))
            return false;
    *t0 = lo;
    *t1 = hi;
    return true;
}

/* obstacle_blocks of a-b, a the fan's point of f. */
static bool fan_blocks(om_plane_vec a, om_plane_vec b, om_plane_box seg,
                       const om_plane_obstacle *o, fan_edges *f, double close,
                       const om_plane_scale *s)
{
    double t0, t1, inside;
    if (!om_plane_box_meet(seg, o->shape->box))
        return false;
    fan_point(o->shape, a, f);
    if (!fan_clip(a, b, o->shape, f, s, &t0, &t1))
        return false;
    inside = (t1 - t0) * om_plane_len(om_plane_sub(b, a));
    switch (o->mode) {
    case OM_PLANE_SIGHT_BLOCKS:
        return inside > s->touch;
    case OM_PLANE_SIGHT_CLOSE:
        return inside > close;
    case OM_PLANE_SIGHT_BODY:
        return inside > s->touch && !om_plane_point_inside(a, o->shape) &&
               !om_plane_point_inside(b, o->shape);
    case OM_PLANE_SIGHT_CLEAR:
        break;
    }
    return false;
}

/*
 * Lines certainly blocked, without their clip. A core of an obstacle is a
 * segment c0-c1 inside it whose every point lies at least `depth` inside its
 * outline: the depth of a point in a convex polygon (its least distance to
 * an edge's line, on the inner side; negative outside) is concave, so both
 * ends that deep make the whole segment that deep. A line from a point pt
 * that crosses the core at X runs inside the obstacle for at least
 * depth(X) - max(depth(pt), 0) before X: from outside, through the disc of
 * radius depth(X) around X, which lies in the obstacle; from inside, from pt
 * to X (depth changes no faster than distance). With `depth` two touch
 * tolerances beyond what the obstacle's mode lets a line run inside it, and
 * pt no more than one touch tolerance deep (a point on the outline of a
 * neighbour in contact is, its rounding aside), the clip that
 * om_plane_clip_segment works out
 * in floating point blocks that line too: its rounding, some 1e-12cm on a
 * table of 240cm (a line that deep inside crosses the edges that bound its
 * clip at a slope of at least depth / length), is far below that tolerance.
 * The crossing is decided on the signs of cross products whose rounding is
 * far below CORE_MARGIN (in the scale's unit squared); a sign within it
 * leaves the line undecided, and the line is clipped as before. The answer
 * of a sight test is unchanged: a line decided here is one its clip blocks
 * (the debug build checks every one).
 */
#define CORE_MARGIN(s) ((s)->touch * (s)->touch * 0.01)

/* How deep a core lies for an obstacle of mode `mode`: beyond what a line
 * may run inside it by two touch tolerances; 0 when no core is sought (a
 * hill blocks by its ends' positions as well, a clear piece never). */
static double core_depth(om_plane_sight mode, double close, const om_plane_scale *s)
{
    switch (mode) {
    case OM_PLANE_SIGHT_BLOCKS:
        return 3 * s->touch;
    case OM_PLANE_SIGHT_CLOSE:
        return close + 2 * s->touch;
    case OM_PLANE_SIGHT_BODY:
    case OM_PLANE_SIGHT_CLEAR:
        break;
    }
    return 0;
}

/* The depth of point q inside shape p (negative outside), f its fan's normals. */
static double depth_in(const om_plane_shape *p, const fan_edges *f, om_plane_vec q)
{
    double d = INFINITY;
    for (unsigned i = 0; i < p->p.n; i++) {
        const double l = om_plane_len(f->n[i]);
        d = min2(d, l > 0 ? om_plane_dot(f->n[i], om_plane_sub(q, p->p.v[i])) / l : -INFINITY);
    }
    return d;
}

/* The longest diagonal of shape p whose corners are neither a nor b, as *bi
 * and *bj; false when there is none. */
static bool longest_diagonal(const om_plane_shape *p, unsigned a, unsigned b, unsigned *bi,
                             unsigned *bj)
{
    double best = 0;
    for (unsigned i = 0; i < p->p.n; i++)
        for (unsigned j = i + 1; j < p->p.n; j++) {
            const om_plane_vec d = om_plane_sub(p->p.v[j], p->p.v[i]);
            if (i != a && i != b && j != a && j != b && om_plane_dot(d, d) > best) {
                best = om_plane_dot(d, d);
                *bi = i;
                *bj = j;
            }
        }
    return best > 0;
}

/* The cores of obstacle o (fan_normals first): stretches of its longest
 * diagonal and of the longest other diagonal with neither of its corners (a
 * line across a quadrilateral crosses one of its two), each cut back from
 * both corners by the least of a few fractions that leaves both ends
 * `depth` inside; none for a thin piece or a mode without. */
static void fan_core(const om_plane_obstacle *o, fan_edges *f, double close,
                     const om_plane_scale *s)
{
    static const double cut[] = {1.0 / 16, 1.0 / 8, 1.0 / 4, 3.0 / 8};
    const om_plane_shape *p = o->shape;
    const double depth = core_depth(o->mode, close, s);
    unsigned bi = p->p.n, bj = p->p.n;
    f->cored = true;
    f->cores = 0;
    if (depth <= 0 || p->p.n < 3)
        return;
    for (unsigned k = 0; k < CORE_MAX && longest_diagonal(p, bi, bj, &bi, &bj); k++)
        for (unsigned c = 0; c < sizeof cut / sizeof cut[0]; c++) {
            const om_plane_vec d = om_plane_sub(p->p.v[bj], p->p.v[bi]);
            const om_plane_vec c0 = om_plane_add(p->p.v[bi], om_plane_scale_by(d, cut[c]));
            const om_plane_vec c1 = om_plane_sub(p->p.v[bj], om_plane_scale_by(d, cut[c]));
            if (depth_in(p, f, c0) >= depth && depth_in(p, f, c1) >= depth) {
                f->c0[f->cores] = c0;
                f->c1[f->cores] = c1;
                f->cores++;
                break;
            }
        }
}

/* A core seen from the fan's point pt: its ends less pt, its direction, and
 * the side of its line pt is on. */
typedef struct core_view {
    bool ok;          /* pt no deeper than a touch tolerance, and off the core's line */
    om_plane_vec a0, a1;
    om_plane_vec e;   /* c1 - c0 */
    om_plane_vec c0;
    double side;      /* cross(e, pt - c0) */
} core_view;

/* The views of obstacle p's cores from the fan's point pt (fan_core
 * first). pt is no deeper inside than a touch tolerance when its offset
 * along an edge's inward normal n is at most that tolerance times |n|. */
static void core_view_of(const om_plane_shape *p, fan_edges *f, om_plane_vec pt,
                         const om_plane_scale *s, core_view v[CORE_MAX])
{
    const double margin = CORE_MARGIN(s);
    bool shallow = false;
    fan_point(p, pt, f);
    for (unsigned i = 0; i < p->p.n && !shallow; i++)
        shallow = f->num[i] <= 0 ||
                  f->num[i] * f->num[i] <= s->touch * s->touch * om_plane_dot(f->n[i], f->n[i]);
    for (unsigned c = 0; c < CORE_MAX; c++) {
        v[c].ok = false;
        if (c >= f->cores || !shallow)
            continue;
        v[c].a0 = om_plane_sub(f->c0[c], pt);
        v[c].a1 = om_plane_sub(f->c1[c], pt);
        v[c].e = om_plane_sub(f->c1[c], f->c0[c]);
        v[c].c0 = f->c0[c];
        v[c].side = om_plane_cross(v[c].e, om_plane_sub(pt, f->c0[c]));
        v[c].ok = fabs(v[c].side) > margin;
    }
}

/* Whether segment pt-q certainly crosses the core of view v (v->ok): the
 * line through pt and q parts the core's ends, and q is across the core's
 * line from pt, each by more than the margin. */
static inline bool core_crossed(const core_view *v, om_plane_vec pt, om_plane_vec q,
                                double margin)
{
    const om_plane_vec d = om_plane_sub(q, pt);
    const double x0 = om_plane_cross(d, v->a0), x1 = om_plane_cross(d, v->a1);
    const double sq = om_plane_cross(v->e, om_plane_sub(q, v->c0));
    return ((x0 > margin && x1 < -margin) || (x0 < -margin && x1 > margin)) &&
           (v->side > 0 ? sq < -margin : sq > margin);
}

/* Whether every line from the fan's point to polygon q certainly crosses
 * the core of view v (v->ok): core_crossed's three quantities are linear in
 * the line's far end, so when they pass with twice the margin at q's
 * corners, they pass at every point of q (its sampled points included, whose
 * rounding moves them far less than the margin) with the margin, and every
 * such line is blocked. */
static bool core_hides(const core_view *v, om_plane_vec pt, const om_plane_poly *q,
                       double margin)
{
    const double m2 = 2 * margin;
    bool plus = true, minus = true;
    for (unsigned i = 0; i < q->n && (plus || minus); i++) {
        const om_plane_vec d = om_plane_sub(q->v[i], pt);
        const double x0 = om_plane_cross(d, v->a0), x1 = om_plane_cross(d, v->a1);
        const double sq = om_plane_cross(v->e, om_plane_sub(q->v[i], v->c0));
        if (!(v->side > 0 ? sq < -m2 : sq > m2))
            return false;
        plus = plus && x0 > m2 && x1 < -m2;
        minus = minus && x0 < -m2 && x1 > m2;
    }
    return plus || minus;
}

/* segment_blocker of a-b, a the fans' point of f (one per obstacle). */
static unsigned fan_blocker(om_plane_vec a, om_plane_vec b, const om_plane_obstacle *o,
                            fan_edges *f, unsigned n, unsigned first, double close,
                            const om_plane_scale *s)
{
    const om_plane_box seg = {min2(a.x, b.x), min2(a.y, b.y), max2(a.x, b.x), max2(a.y, b.y)};
    if (first < n && fan_blocks(a, b, seg, &o[first], &f[first], close, s))
        return first;
    for (unsigned k = 0; k < n; k++)
        if (k != first && fan_blocks(a, b, seg, &o[k], &f[k], close, s))
            return k;
    return n;
}

#ifndef NDEBUG
/* Whether every line from pt to the m points q that leaves through the edge
 * of outward direction `out` is blocked (debug builds check a shadow). */
static bool all_blocked(om_plane_vec pt, const om_plane_vec *q, unsigned m, om_plane_vec out,
                        double leave, const om_plane_obstacle *o, fan_edges *f, unsigned n,
                        double close, const om_plane_scale *s)
{
    for (unsigned j = 0; j < m; j++)
        if (om_plane_dot(om_plane_sub(q[j], pt), out) > leave &&
            fan_blocker(pt, q[j], o, f, n, n, close, s) == n)
            return false;
    return true;
}
#endif

bool om_plane_edge_sees(const om_plane_shape *from, unsigned e, const om_plane_shape *to,
                        const om_plane_obstacle *o, unsigned n, double close,
                        const om_plane_scale *s)
{
    const om_plane_poly *fp = &from->p, *tp = &to->p;
    om_plane_vec a = fp->v[e], b = fp->v[(e + 1) % fp->n];
    om_plane_vec centre = om_plane_scale_by(
        om_plane_add(om_plane_add(fp->v[0], fp->v[1]), om_plane_add(fp->v[2], fp->v[3])), 0.25);
    om_plane_vec mid = om_plane_scale_by(om_plane_add(a, b), 0.5), out = om_plane_sub(mid, centre);
    const double leave = s->touch * om_plane_len(out);
    /* The middle sample first: most visible targets are seen from it. */
    static const unsigned order[OM_PLANE_SIGHT_SAMPLES] = {2, 1, 3, 0, 4};
    om_plane_vec to_pt[OM_PLANE_MAX_VERTICES * (OM_PLANE_SIGHT_SAMPLES - 1)];
    om_plane_vec hull_pt[CORRIDOR_MAX];
    om_plane_obstacle near[OM_PLANE_SIGHT_MAX_OBSTACLES];
    fan_edges fan[OM_PLANE_SIGHT_MAX_OBSTACLES];
    corridor c;
    const double margin = CORE_MARGIN(s);
    unsigned m = 0, k = 0, blocker;
    const edge_samples from_samples = edge_samples_of(a, b, s);
    assert(n <= OM_PLANE_SIGHT_MAX_OBSTACLES);
    for (unsigned te = 0; te < tp->n; te++) {
        const edge_samples es = edge_samples_of(tp->v[te], tp->v[(te + 1) % tp->n], s);
        for (unsigned i = 0; i + 1 < OM_PLANE_SIGHT_SAMPLES; i++)
            to_pt[m++] = edge_sample_of(&es, i);
    }
    /* The obstacles in the corridor, in their order. */
    hull_pt[0] = a;
    hull_pt[1] = b;
    memcpy(&hull_pt[2], tp->v, tp->n * sizeof tp->v[0]);
    corridor_of(hull_pt, 2 + tp->n, &c);
    for (unsigned i = 0; i < n; i++)
        if (o[i].mode != OM_PLANE_SIGHT_CLEAR && !corridor_apart(&c, o[i].shape, s->touch))
            near[k++] = o[i];
    for (unsigned i = 0; i < k; i++)
        fan_normals(near[i].shape, &fan[i]);
    /* The obstacle that blocked the last line is tried first on the next:
     * lines to a hidden target are mostly blocked by the same one, most of
     * them certainly (core_crossed) without a clip. */
    blocker = k;
    for (unsigned i = 0; i < OM_PLANE_SIGHT_SAMPLES; i++) {
        om_plane_vec pt = edge_sample_of(&from_samples, order[i]);
        core_view view[CORE_MAX] = {{.ok = false}, {.ok = false}};
        unsigned viewed = k; /* the obstacle whose core `view` shows from pt */
        for (unsigned q = 0; q < k; q++)
            fan[q].ready = false;
        for (unsigned j = 0; j < m; j++) {
            /* Only lines leaving through this edge: the rectangle's own body
             * blocks the others. */
            if (om_plane_dot(om_plane_sub(to_pt[j], pt), out) <= leave)
                continue;
            if (blocker < k && blocker != viewed) {
                if (!fan[blocker].cored)
                    fan_core(&near[blocker], &fan[blocker], close, s);
                core_view_of(near[blocker].shape, &fan[blocker], pt, s, view);
                viewed = blocker;
                /* The whole target in a core's shadow: no line from pt is
                 * clear. */
                if ((view[0].ok && core_hides(&view[0], pt, tp, margin)) ||
                    (view[1].ok && core_hides(&view[1], pt, tp, margin))) {
                    assert(all_blocked(pt, to_pt, m, out, leave, near, fan, k, close, s));
                    break;
                }
            }
            if (blocker < k && ((view[0].ok && core_crossed(&view[0], pt, to_pt[j], margin)) ||
                                (view[1].ok && core_crossed(&view[1], pt, to_pt[j], margin)))) {
                assert(fan_blocker(pt, to_pt[j], near, fan, k, blocker, close, s) == blocker);
                continue;
            }
            blocker = fan_blocker(pt, to_pt[j], near, fan, k, blocker, close, s);
            if (blocker == k)
                return true;
        }
    }
    return false;
}

/* ---- Rectangles: zones ---- */

const om_plane_face om_plane_edge_face[4] = {OM_PLANE_FRONT, OM_PLANE_RIGHT, OM_PLANE_REAR,
                                             OM_PLANE_LEFT};

om_plane_face om_plane_zone(om_plane_vec c, om_plane_vec f, double hw, double hd,
                            om_plane_vec p, double tie)
{
    om_plane_vec rel = om_plane_sub(p, c), r = om_plane_right(f);
    double fwd = om_plane_dot(rel, f), lat = om_plane_dot(rel, r);
    double dx = fabs(lat) - hw, df = fwd - hd, dr = -fwd - hd;
    /* Corner bisectors: the front zone holds the points farther beyond the
     * front edge's line than beyond the side's. */
    if (df > 0 && df >= dx - tie)
        return OM_PLANE_FRONT;
    if (dr > 0 && dr >= dx - tie)
        return OM_PLANE_REAR;
    if (dx > 0)
        return lat < 0 ? OM_PLANE_LEFT : OM_PLANE_RIGHT;
    return OM_PLANE_FRONT;
}

/* ---- Blocks of stands ---- */

unsigned om_plane_block_file_stands(const om_plane_block *b, unsigned file)
{
    unsigned full = b->count / b->files, rem = b->count % b->files;
    return full + (file < rem ? 1u : 0u);
}

om_plane_poly om_plane_block_stand_at(const om_plane_block *b, unsigned file, unsigned rank)
{
    unsigned ranks = om_plane_block_ranks(b), files = b->files;
    om_plane_vec r = om_plane_right(b->dir);
    double lat = ((double)file - (files - 1) / 2.0) * b->stand_w;
    double fwd = ((ranks - 1) / 2.0 - (double)rank) * b->stand_d;
    om_plane_vec c = om_plane_add(b->centre, om_plane_add(om_plane_scale_by(r, lat),
                                                          om_plane_scale_by(b->dir, fwd)));
    return om_plane_rect(c, b->dir, b->stand_w / 2, b->stand_d / 2);
}

om_plane_poly om_plane_block_stand(const om_plane_block *b, unsigned i)
{
    return om_plane_block_stand_at(b, i % b->files, i / b->files);
}

unsigned om_plane_block_blocked(const om_plane_block *b, om_plane_vec v,
                                const om_plane_shape *hit, const om_plane_scale *s)
{
    unsigned n = 0;
    for (unsigned f = 0; f < b->files; f++)
        for (unsigned r = 0; r < om_plane_block_file_stands(b, f); r++) {
            om_plane_poly p = om_plane_block_stand_at(b, f, r);
            om_plane_shape sh;
            om_plane_shape_of(&sh, &p);
            if (om_plane_first_hit(&sh, v, hit, NULL, s) < 1)
                n++;
        }
    return n;
}
