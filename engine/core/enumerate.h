/*
 * enumerate.h: every outcome of a trial's dice, each with its exact
 * probability: the dice source behind the exact laws (exact.h).
 *
 * A trial of an engine is a function of what its dice primitives return
 * (om_dice_roll_d6, om_dice_roll_sum, om_dice_roll_count, om_dice_hits, and
 * the few draws an engine makes through om_enum_* when it is enumerated).
 * An enumerating dice source answers each call with one of the call's
 * outcomes and remembers the choice; the enumerator runs the trial again and
 * again, each time with the next sequence of answers (depth first, the last
 * choice first), until every sequence of positive probability has been
 * taken. Each run's outcome has the probability of its answers' product:
 * the trial's law, computed in double precision from the rules' own
 * probabilities, with no simulation. The sequences are few where the
 * engine draws whole counts at once (a unit's hits are one binomial answer,
 * not one answer per die); where they would be too many the enumeration
 * stops and says so.
 *
 * The dice source is the plain baseline's (om_dice.plain) with a generator of
 * the enumerator's own GSL type: an engine takes the paths it takes with
 * plain dice, which roll through the primitives only, and each primitive in
 * dice.c answers from the enumerator when its generator is of that type
 * (om_enum_of). A draw that bypasses them, from the GSL generator or from
 * the fast generator, marks the run, and the enumeration fails: a law is
 * exact, or it is not given.
 *
 * Usage:
 *
 *     om_enum *e; om_dice d; bool more = true; double p;
 *     om_enum_alloc(limit, &e);
 *     om_enum_start(e, &d);
 *     while (more) {
 *         trial(&d, &outcome);                   // any engine trial
 *         if (om_enum_next(e, &d, &p, &more) != OM_OK) break;
 *         ...outcome has probability p...
 *     }
 *     om_enum_free(e);
 *
 * An enumerator is used by one thread at a time.
 */
#ifndef OM_ENUMERATE_H
#define OM_ENUMERATE_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "dice.h"
#include "status.h"

/* Most answers one run of a trial may ask for: beyond, a trial that loops
 * until its dice agree (a roll-off re-rolled on ties) would never end its
 * first run, whose answers are always the first outcomes. */
#define OM_ENUM_DEPTH_MAX 1024u

/* Most dice one om_dice_roll_sum answer enumerates: the joint law of their
 * sum and sixes has up to (5n + 1)(n + 1) outcomes. */
#define OM_ENUM_DICE_MAX 64u

typedef struct om_enum om_enum;

/* The GSL generator type of enumerating dice sources (never drawn from:
 * a draw from it marks the run). */
extern const gsl_rng_type om_enum_gsl_type;

/*
 * om_enum_alloc: an enumerator that runs a trial at most `max_runs` times
 * (at least 1): a law of more outcomes is refused rather than computed for
 * long. Free with om_enum_free. Errors: OM_EINVAL (max_runs 0), OM_ENOMEM.
 */
om_status om_enum_alloc(uint64_t max_runs, om_enum **out);

/* Free an enumerator (NULL allowed). */
void om_enum_free(om_enum *e);

/*
 * om_enum_start: make `d` the enumerating dice source of `e`, at its first
 * sequence of answers. `d` must then be used by the trials of this
 * enumeration only, and stay where it is (e answers through it).
 */
void om_enum_start(om_enum *e, om_dice *d);

/*
 * om_enum_next: after a run of the trial with `d`, the probability *p of the
 * answers it was given, and *more: whether another sequence remains, which
 * the next run takes. Errors (the enumeration cannot go on): OM_EUNSUPPORTED
 * when the run drew dice the enumerator did not answer (the fast generator,
 * or the GSL generator directly), asked for more than OM_ENUM_DEPTH_MAX
 * answers or for a sum of more than OM_ENUM_DICE_MAX dice, did not ask again
 * for the answers it was given (a trial that is not a function of its dice),
 * or when the trial has more sequences than `max_runs`; OM_ENOMEM. The
 * message says which.
 */
om_status om_enum_next(om_enum *e, om_dice *d, double *p, bool *more);

/* Runs completed so far: the outcomes of the law, once the last is done. */
uint64_t om_enum_runs(const om_enum *e);

/* The enumerator behind dice source d, or NULL when d rolls dice. */
static inline om_enum *om_enum_of(const om_dice *d)
{
    return d->plain != NULL && d->plain->type == &om_enum_gsl_type ? (om_enum *)d->plain->state
                                                                    : NULL;
}

/*
 * The answers. Each returns one outcome of its law and records the choice;
 * only outcomes of positive probability are ever given. An engine calls
 * these directly only where its plain dice would take more answers than the
 * law needs (a roll-off re-rolled on ties, die by die blows), and only when
 * om_enum_of(d) is not NULL.
 */

/* One D6: 1..6, each 1/6. */
unsigned om_enum_d6(om_enum *e);

/* The sum of n D6 and, when `sixes` is not NULL, how many of them show 6
 * (the joint law of the two). */
unsigned om_enum_sum(om_enum *e, unsigned n, unsigned *sixes);

/* Bin(n, p): the successes of n independent trials of probability p. */
unsigned om_enum_binomial(om_enum *e, double p, unsigned n);

/* true with probability p (0 <= p <= 1). */
bool om_enum_chance(om_enum *e, double p);

/* 0..m-1 uniformly (m >= 1). */
unsigned om_enum_uniform(om_enum *e, unsigned m);

#endif /* OM_ENUMERATE_H */
