/*
 * test_wm_units.h: what the Warmaster engine's Criterion tests build their
 * units and engagements with (test_engagement.c, test_multicombat.c): a rule
 * set by name, a rule's traits, a side of plain values, a two-unit
 * engagement, and a Monte Carlo check of a probability at 5 standard errors.
 */
#ifndef OM_TEST_WM_UNITS_H
#define OM_TEST_WM_UNITS_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wm.h"

/* Trials per statistical check: standard error under 0.0012 on any probability. */
#define TRIALS 200000u
#define SIGMAS 5.0

/* The rule set of this name (the test fails if there is none). */
static inline const om_wm_ruleset *rules(const char *name)
{
    const om_wm_ruleset *r = om_wm_ruleset_find(name);
    cr_assert_not_null(r, "%s", name);
    return r;
}

/* A unit with no special rule. */
static const om_wm_traits NO_TRAITS;

/* The traits rule `id` of the registry gives a unit under rule set `rs`. */
static inline om_wm_traits traits_of(const char *id, const char *rs)
{
    const om_wm_special *sp = om_wm_special_find(id);
    cr_assert_not_null(sp, "%s", id);
    return *om_wm_special_traits(sp, om_wm_ruleset_find(rs));
}

/* A side of a unit of these values, every stand fighting and shooting. */
static inline om_wm_side side_of(const char *name, om_wm_troop t, unsigned stands,
                                 unsigned attacks, unsigned hits, unsigned armour,
                                 om_wm_traits traits)
{
    om_wm_side s;
    memset(&s, 0, sizeof s);
    snprintf(s.unit.name, sizeof s.unit.name, "%s", name);
    s.unit.troop = t;
    s.unit.stands = (uint8_t)stands;
    s.unit.attacks = (uint8_t)attacks;
    s.unit.hits = (uint8_t)hits;
    s.unit.armour = (uint8_t)armour;
    s.unit.pace_cm = (uint8_t)om_wm_troop_pace(t);
    s.unit.traits = traits;
    s.fighting = (uint8_t)stands;
    s.shooting = (uint8_t)stands;
    return s;
}

/* A two-unit engagement of this kind under this rule set. */
static inline om_wm_engagement make(const char *ruleset, om_wm_kind kind, om_wm_side a,
                                    om_wm_side b)
{
    om_wm_engagement e;
    memset(&e, 0, sizeof e);
    e.rules = rules(ruleset);
    e.kind = kind;
    e.side[0] = a;
    e.side[1] = b;
    return e;
}

/* count of n trials against the exact probability p, at SIGMAS standard errors. */
static inline void expect_p(const char *what, unsigned long count, unsigned long n, double p)
{
    double est = (double)count / (double)n;
    double se = sqrt(fmax(p * (1 - p), 1e-12) / (double)n);
    cr_expect(fabs(est - p) <= SIGMAS * se + 1e-12, "%s: %.5f vs exact %.5f (5 se = %.5f)",
              what, est, p, SIGMAS * se);
}

#endif /* OM_TEST_WM_UNITS_H */
