/*
 * enumerate.c: the enumerating dice source (enumerate.h): a depth-first walk
 * over the answers a trial asks its dice for.
 *
 * The current sequence of answers is a stack of choice points, each the list
 * of its call's outcomes (value, second value, probability) in an arena and
 * the index of the one taken. A run replays the recorded choices in order and
 * records a new choice point, taking its first outcome, for each call past
 * them; after the run, the last choice point with an outcome left moves to
 * it and every later one is dropped, so the next run differs from this one
 * in exactly that answer and whatever follows from it. The outcomes' laws
 * are the dice's (binomial, sums of D6 by convolution), computed in double
 * precision.
 */
#include "enumerate.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Faces of a die, and of a die that is known not to show 6. */
#define ENUM_FACES 6u
#define ENUM_FACES_NOT_SIX 5u

/* Outcomes the arena holds at first; it doubles when full. */
#define ENUM_ARENA_START 4096u

/* Why a run went wrong (om_enum.trouble), bit by bit. */
enum {
    ENUM_FOREIGN = 1u,  /* a draw the enumerator did not answer */
    ENUM_DEEP = 2u,     /* more than OM_ENUM_DEPTH_MAX answers */
    ENUM_DICE = 4u,     /* a sum of more than OM_ENUM_DICE_MAX dice */
    ENUM_NOMEM = 8u     /* the arena could not grow */
};

/* One outcome of a call: its value(s) and probability. */
typedef struct enum_outcome {
    unsigned value; /* the answer */
    unsigned extra; /* a second answer (the sixes of a sum), else 0 */
    double p;       /* its probability */
} enum_outcome;

/* A choice point: its call's outcomes, arena[first .. first + n), and the
 * one taken. */
typedef struct enum_choice {
    size_t first; /* its first outcome in the arena */
    size_t n;     /* its outcomes (at least one) */
    size_t at;    /* the outcome taken in this sequence */
} enum_choice;

struct om_enum {
    gsl_rng gen;              /* the dice source's plain generator: its type marks the
                                 source as enumerating, its state is this enumerator */
    enum_choice choice[OM_ENUM_DEPTH_MAX]; /* the current sequence's choice points */
    size_t depth;             /* choice points recorded */
    size_t pos;               /* the next one this run replays (or records) */
    enum_outcome *arena;      /* the outcomes of every choice point, in order */
    size_t used;              /* outcomes in the arena */
    size_t cap;               /* room in the arena */
    uint64_t runs;            /* runs completed */
    uint64_t max_runs;        /* most runs allowed */
    unsigned trouble;         /* ENUM_* bits of the run under way */
    unsigned fallback;        /* a counter for the answers of a run in trouble */
    om_rng seal;              /* the fast generator's state at the start: a run that
                                 changes it drew from it */
    double *law;              /* scratch for sums: [OM_ENUM_DICE_MAX + 1][5 * max + 1] */
};

/* A draw from the generator itself: never an answer of the enumeration. */
static unsigned long enum_gsl_get(void *state)
{
    ((om_enum *)state)->trouble |= ENUM_FOREIGN;
    return 0;
}

static double enum_gsl_get_double(void *state)
{
    ((om_enum *)state)->trouble |= ENUM_FOREIGN;
    return 0.0;
}

/* Seeding has nothing to set: the answers come from the walk. */
static void enum_gsl_set(void *state, unsigned long seed)
{
    (void)state;
    (void)seed;
}

const gsl_rng_type om_enum_gsl_type = {
    .name = "oddsmaster-enumerate",
    .max = ENUM_FACES,
    .min = 0,
    .size = 0,
    .set = enum_gsl_set,
    .get = enum_gsl_get,
    .get_double = enum_gsl_get_double,
};

/* Sums of n dice showing 1..5: (5n + 1) values kept per row of the scratch. */
#define ENUM_SUM_ROW (ENUM_FACES_NOT_SIX * OM_ENUM_DICE_MAX + 1u)

om_status om_enum_alloc(uint64_t max_runs, om_enum **out)
{
    om_enum *e;
    *out = NULL;
    if (max_runs == 0)
        return OM_ERROR(OM_EINVAL, "an enumeration needs at least one run");
    if ((e = calloc(1, sizeof *e)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for an enumeration");
    e->cap = ENUM_ARENA_START;
    e->arena = malloc(e->cap * sizeof *e->arena);
    e->law = malloc((size_t)(OM_ENUM_DICE_MAX + 1u) * ENUM_SUM_ROW * sizeof *e->law);
    if (e->arena == NULL || e->law == NULL) {
        om_enum_free(e);
        return OM_ERROR(OM_ENOMEM, "out of memory for an enumeration");
    }
    e->gen.type = &om_enum_gsl_type;
    e->gen.state = e;
    e->max_runs = max_runs;
    *out = e;
    return OM_OK;
}

void om_enum_free(om_enum *e)
{
    if (e == NULL)
        return;
    free(e->arena);
    free(e->law);
    free(e);
}

void om_enum_start(om_enum *e, om_dice *d)
{
    e->depth = e->pos = e->used = 0;
    e->runs = 0;
    e->trouble = 0;
    e->fallback = 0;
    /* Any fixed state: only whether a run moves it matters. */
    om_rng_seed_block(&e->seal, 0, 0);
    d->rng = e->seal;
    d->plain = &e->gen;
}

uint64_t om_enum_runs(const om_enum *e)
{
    return e->runs;
}

/* Room for n more outcomes in the arena; false (and the run in trouble) when
 * it cannot grow. */
static bool arena_room(om_enum *e, size_t n)
{
    enum_outcome *grown;
    size_t cap = e->cap;
    if (e->used + n <= e->cap)
        return true;
    while (cap < e->used + n)
        cap *= 2;
    if ((grown = realloc(e->arena, cap * sizeof *grown)) == NULL) {
        e->trouble |= ENUM_NOMEM;
        return false;
    }
    e->arena = grown;
    e->cap = cap;
    return true;
}

/* The choice point for this call: the recorded one when the run replays,
 * else a new one whose outcomes the caller appends (*fresh set). NULL when
 * the run is in trouble (too deep). */
static enum_choice *next_choice(om_enum *e, bool *fresh)
{
    enum_choice *c;
    *fresh = false;
    if (e->trouble)
        return NULL;
    if (e->pos < e->depth)
        return &e->choice[e->pos++];
    if (e->depth == OM_ENUM_DEPTH_MAX) {
        e->trouble |= ENUM_DEEP;
        return NULL;
    }
    c = &e->choice[e->depth++];
    e->pos++;
    c->first = e->used;
    c->n = 0;
    c->at = 0;
    *fresh = true;
    return c;
}

/* Append an outcome to the choice point being recorded (one of positive
 * probability: the others never happen). */
static void add_outcome(om_enum *e, enum_choice *c, unsigned value, unsigned extra, double p)
{
    if (p <= 0.0 || !arena_room(e, 1))
        return;
    e->arena[e->used++] = (enum_outcome){.value = value, .extra = extra, .p = p};
    c->n++;
}

/* The outcome taken at choice point c, or NULL: the run is in trouble. */
static const enum_outcome *taken(om_enum *e, const enum_choice *c)
{
    if (c == NULL || e->trouble)
        return NULL;
    /* Every law has an outcome of positive probability: a point without one
     * could only come of an arena that did not grow, which sets trouble. */
    if (NEVER(c->n == 0)) {
        e->trouble |= ENUM_NOMEM;
        return NULL;
    }
    return &e->arena[c->first + c->at];
}

/*
 * A run in trouble goes on to its end (its result is thrown away), with
 * answers that end any loop over dice that must differ or fall in a range:
 * a count that cycles through its values.
 */
static unsigned fallback(om_enum *e, unsigned lo, unsigned hi)
{
    return lo + e->fallback++ % (hi - lo + 1u);
}

unsigned om_enum_d6(om_enum *e)
{
    bool fresh;
    enum_choice *c = next_choice(e, &fresh);
    const enum_outcome *o;
    for (unsigned f = 1; fresh && f <= ENUM_FACES; f++)
        add_outcome(e, c, f, 0, 1.0 / ENUM_FACES);
    if ((o = taken(e, c)) == NULL)
        return fallback(e, 1, ENUM_FACES);
    return o->value;
}

unsigned om_enum_binomial(om_enum *e, double p, unsigned n)
{
    bool fresh;
    enum_choice *c = next_choice(e, &fresh);
    const enum_outcome *o;
    assert(p >= 0.0 && p <= 1.0);
    for (unsigned k = 0; fresh && k <= n; k++)
        add_outcome(e, c, k, 0, om_dice_binomial_pmf(k, p, n));
    if ((o = taken(e, c)) == NULL)
        return fallback(e, 0, n);
    return o->value;
}

bool om_enum_chance(om_enum *e, double p)
{
    bool fresh;
    enum_choice *c = next_choice(e, &fresh);
    const enum_outcome *o;
    assert(p >= 0.0 && p <= 1.0);
    if (fresh) {
        add_outcome(e, c, 1, 0, p);
        add_outcome(e, c, 0, 0, 1.0 - p);
    }
    if ((o = taken(e, c)) == NULL)
        return fallback(e, 0, 1) != 0;
    return o->value != 0;
}

unsigned om_enum_uniform(om_enum *e, unsigned m)
{
    bool fresh;
    enum_choice *c = next_choice(e, &fresh);
    const enum_outcome *o;
    assert(m >= 1);
    for (unsigned k = 0; fresh && k < m; k++)
        add_outcome(e, c, k, 0, 1.0 / m);
    if ((o = taken(e, c)) == NULL)
        return fallback(e, 0, m - 1u);
    return o->value;
}

/*
 * The laws of sums of m dice that do not show 6 (each face 1..5 equally
 * likely), m = 0..n: law[m * ENUM_SUM_ROW + s] = P(sum = s), by convolution
 * with one die at a time.
 */
static void sums_without_six(double *law, unsigned n)
{
    memset(law, 0, (size_t)(n + 1u) * ENUM_SUM_ROW * sizeof *law);
    law[0] = 1.0;
    for (unsigned m = 1; m <= n; m++) {
        const double *prev = law + (size_t)(m - 1u) * ENUM_SUM_ROW;
        double *row = law + (size_t)m * ENUM_SUM_ROW;
        for (unsigned s = m - 1u; s <= ENUM_FACES_NOT_SIX * (m - 1u); s++)
            for (unsigned f = 1; f <= ENUM_FACES_NOT_SIX && prev[s] > 0.0; f++)
                row[s + f] += prev[s] / ENUM_FACES_NOT_SIX;
    }
}

/*
 * The outcomes of n D6: with `joint`, each (sum, sixes): j sixes have
 * probability Bin(n, 1/6)(j), and the other n - j dice then show 1..5
 * evenly, so P(sum, j) = Bin(n, 1/6)(j) * P(the n - j sum to sum - 6j);
 * without, each sum, those of every j added.
 */
static void sum_outcomes(om_enum *e, enum_choice *c, unsigned n, bool joint)
{
    sums_without_six(e->law, n);
    for (unsigned s = n; s <= ENUM_FACES * n; s++) {
        double total = 0.0;
        for (unsigned j = 0; j <= n; j++) {
            const unsigned m = n - j;
            double p;
            if (s < ENUM_FACES * j + m || s - ENUM_FACES * j > ENUM_FACES_NOT_SIX * m)
                continue;
            p = om_dice_binomial_pmf(j, 1.0 / ENUM_FACES, n) *
                e->law[(size_t)m * ENUM_SUM_ROW + (s - ENUM_FACES * j)];
            if (joint)
                add_outcome(e, c, s, j, p);
            else
                total += p;
        }
        if (!joint)
            add_outcome(e, c, s, 0, total);
    }
}

unsigned om_enum_sum(om_enum *e, unsigned n, unsigned *sixes)
{
    bool fresh;
    enum_choice *c;
    const enum_outcome *o;
    if (n > OM_ENUM_DICE_MAX)
        e->trouble |= ENUM_DICE;
    c = next_choice(e, &fresh);
    if (fresh)
        sum_outcomes(e, c, n, sixes != NULL);
    if ((o = taken(e, c)) == NULL) {
        if (sixes != NULL)
            *sixes = 0;
        return n;
    }
    if (sixes != NULL)
        *sixes = o->extra;
    return o->value;
}

/* Why the run could not be enumerated, raised as the error. */
static om_status run_trouble(const om_enum *e, const om_dice *d)
{
    if (e->trouble & ENUM_NOMEM)
        return OM_ERROR(OM_ENOMEM, "out of memory enumerating the dice");
    if ((e->trouble & ENUM_FOREIGN) || memcmp(&d->rng, &e->seal, sizeof e->seal) != 0)
        return OM_ERROR(OM_EUNSUPPORTED, "a draw of this scenario's trials is not a die the "
                        "enumeration answers (a continuous scatter or guess)");
    if (e->trouble & ENUM_DEEP)
        return OM_ERROR(OM_EUNSUPPORTED, "a trial of this scenario rolls dice more than %u "
                        "times", OM_ENUM_DEPTH_MAX);
    if (e->trouble & ENUM_DICE)
        return OM_ERROR(OM_EUNSUPPORTED, "a trial of this scenario sums more than %u dice at "
                        "once", OM_ENUM_DICE_MAX);
    return OM_ERROR(OM_EUNSUPPORTED, "a trial of this scenario did not ask for the dice it "
                    "was answered (its outcome is not a function of its dice)");
}

om_status om_enum_next(om_enum *e, om_dice *d, double *p, bool *more)
{
    double prob = 1.0;
    *p = 0.0;
    *more = false;
    if (e->trouble || e->pos != e->depth || memcmp(&d->rng, &e->seal, sizeof e->seal) != 0)
        return run_trouble(e, d);
    for (size_t i = 0; i < e->depth; i++)
        prob *= e->arena[e->choice[i].first + e->choice[i].at].p;
    e->runs++;
    *p = prob;
    /* The next sequence: the last choice point with an outcome left takes
     * it; the ones after it are dropped, with their outcomes. */
    while (e->depth > 0 && e->choice[e->depth - 1].at + 1 == e->choice[e->depth - 1].n) {
        e->depth--;
        e->used = e->choice[e->depth].first;
    }
    e->pos = 0;
    e->fallback = 0;
    if (e->depth == 0)
        return OM_OK;
    e->choice[e->depth - 1].at++;
    if (e->runs >= e->max_runs)
        return OM_ERROR(OM_EUNSUPPORTED, "this scenario's dice have more than %llu outcomes "
                        "to enumerate", (unsigned long long)e->max_runs);
    *more = true;
    return OM_OK;
}
