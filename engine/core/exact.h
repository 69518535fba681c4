/*
 * exact.h: the exact law of a scenario's per-trial fields, where it is known.
 *
 * For each field of a layout (layout.h) whose law a game can compute exactly,
 * P(field = v) for every value v, computed in double precision from the
 * rules' probabilities, not from simulation: by enumerating every outcome of
 * a trial's dice (enumerate.h, om_exact_enumerate). A game fills it
 * (scenarios/game.h, the optional `exact` group), a run records it in its
 * result file beside the estimates (sim/), and the summary prints each exact
 * value next to the estimate (analysis/). Fields whose law is not known, and
 * two-byte counts, are left unknown, with the reason said once.
 */
#ifndef OM_EXACT_H
#define OM_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dice.h"
#include "layout.h"
#include "status.h"

/* Values of a one-byte field. */
#define OM_EXACT_VALUES 256u

/* Room for the method and the reason, with their terminating NUL. */
#define OM_EXACT_TEXT_MAX 320

/* How far the probabilities of one field's values may sum from 1: each is a
 * product of a few dozen binomial probabilities, each within a few ulps, and
 * up to OM_EXACT_RUNS_MAX of them are added. */
#define OM_EXACT_SUM_TOL 1e-9

/* Most outcomes of the dice an exact law enumerates: each is a run of the
 * trial, 0.3 to 0.9 microseconds (a Warmaster combat, a WHFB7 one), so a law
 * is computed, or found to have more outcomes and reported as not known, in
 * half a second at most. A Fireball cast with three power dice against two
 * dispel dice has 320,312; a WHFB7 combat of characters and a stand and
 * shoot has over 67 million, which no budget would reach. */
#define OM_EXACT_RUNS_MAX (UINT64_C(1) << 19)

/* The exact law of the fields of one layout. */
typedef struct om_exact {
    size_t field_count;               /* fields of the layout it describes */
    bool known[OM_LAYOUT_FIELDS_MAX]; /* field k's law is exact */
    double *p;                        /* P(field k = v) at p[k * OM_EXACT_VALUES + v]
                                         (field_count rows; zero for unknown fields; owned) */
    uint64_t outcomes;                /* outcomes of the dice enumerated (0: none) */
    char method[OM_EXACT_TEXT_MAX];   /* how the known laws were computed, one phrase, or ""
                                         when no field's law is known */
    char reason[OM_EXACT_TEXT_MAX];   /* why the other fields have no exact law, or "" when
                                         every field has one */
} om_exact;

/*
 * om_exact_alloc: the law of a layout of `field_count` fields (at most
 * OM_LAYOUT_FIELDS_MAX), every field unknown. Free with om_exact_free.
 * Errors: OM_EINVAL (too many fields), OM_ENOMEM.
 */
om_status om_exact_alloc(size_t field_count, om_exact **out);

/* Free a law (NULL allowed). */
void om_exact_free(om_exact *x);

/* P(field k = v) (0 for an unknown field). */
static inline double om_exact_p(const om_exact *x, size_t k, unsigned v)
{
    return x->p[k * OM_EXACT_VALUES + v];
}

/* P(field k >= v). */
double om_exact_at_least(const om_exact *x, size_t k, unsigned v);

/* The mean and the standard deviation of field k. */
double om_exact_mean(const om_exact *x, size_t k);
double om_exact_sd(const om_exact *x, size_t k);

/* The largest value of field k of positive probability (0 for an unknown
 * field). */
unsigned om_exact_max(const om_exact *x, size_t k);

/* How many fields have a known law. */
size_t om_exact_known_count(const om_exact *x);

/* Set the method or the reason (printf format; truncated to
 * OM_EXACT_TEXT_MAX - 1 characters). */
void om_exact_set_method(om_exact *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void om_exact_set_reason(om_exact *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * om_exact_check: whether every known field's probabilities are in [0, 1]
 * and sum to 1 within OM_EXACT_SUM_TOL. `what` names the law in the
 * message. Errors: OM_EINVAL ("WHAT: field F's probabilities sum to S").
 */
om_status om_exact_check(const om_exact *x, const om_layout *l, const char *what);

/* A trial to enumerate: one trial of `ctx` with dice `d`, its row of the
 * layout written at `row` (zeroed before each call). */
typedef void (*om_exact_trial)(const void *ctx, om_dice *d, uint8_t *row);

/*
 * om_exact_enumerate: the exact law of the fields `fields[k]` of layout `l`
 * (one-byte fields only; NULL: every one-byte field) into `x`, by running
 * `trial` once for every outcome of its dice (enumerate.h), at most
 * `max_runs` times: each row adds its probability to P(field = its value).
 * On success the fields are marked known, x->outcomes and x->method are set
 * ("enumerating every outcome of the dice (N outcomes)"), and the laws are
 * checked (om_exact_check). On error x is left as it was. Thread-safe for
 * distinct x (trial must be too). Errors: those of om_enum_next
 * (OM_EUNSUPPORTED: the dice cannot be enumerated, or have more than
 * max_runs outcomes; the message says why), OM_EINVAL (a law that does not
 * sum to 1), OM_ENOMEM.
 */
om_status om_exact_enumerate(om_exact_trial trial, const void *ctx, const om_layout *l,
                             const bool *fields, uint64_t max_runs, om_exact *x);

#endif /* OM_EXACT_H */
