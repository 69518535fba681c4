/*
 * doctrine.c: a side's plans for its turn from a doctrine's weights
 * (doctrine.h): every free unit's candidate orders scored, the best kept,
 * brigades advancing as one while the enemy is out of reach, the side's
 * plans ordered best first. The weights are a doctrine file's
 * (scenarios/doctrines/warmaster for the named ones); none is written here.
 */
#include "doctrine.h"

#include <assert.h>
#include <math.h>
#include <string.h>

const char *const om_wm_aim_names[OM_WM_AIM_COUNT] = {
    [OM_WM_AIM_WIN] = "win",
    [OM_WM_AIM_VP_MARGIN] = "vp-margin",
    [OM_WM_AIM_LOSSES] = "losses",
};

/* What a charge of u at v is worth under the doctrine's aim, from p, the odds
 * of winning its first round: the odds themselves; the victory points won
 * less those put at risk, in units of u's own points; or the odds after the
 * risk to u (a fight lost costs as much as one won gains). */
static double charge_value(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                           unsigned u, unsigned v, double p)
{
    double own = odds->points[u] > 0 ? (double)odds->points[u] : 1.0;
    switch (dc->aim) {
    case OM_WM_AIM_VP_MARGIN:
        return (p * odds->points[v] - (1 - p) * odds->points[u]) / own;
    case OM_WM_AIM_LOSSES:
        return 2 * p - 1;
    case OM_WM_AIM_WIN:
    case OM_WM_AIM_COUNT:
        break;
    }
    return p;
}

/* Slack added to the bounds below that rule pairs out before their exact
 * distance, far above any rounding of the centres and sizes they add up. */
#define BOUND_SLACK_CM 1.0

/* The character of unit u's side who orders it: the closest of those on the
 * table whose command reaches it (General, Heroes and Wizards all give
 * orders: Generals, Wizards & Heroes), or -1 (the first in index order of
 * those as close). A character whose base lies beyond his command range from
 * u's circle is out of range whatever the exact distance, and one whose base
 * lies beyond the closest so far from it is no closer: neither is measured. */
static int8_t orderer(const om_wm_command_setup *setup, const om_wm_table *t, unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    const bool flyer = (un->traits & OM_WM_TABLE_TRAIT_FLYER) != 0;
    const double radius = hypot(om_wm_table_unit_width(un), om_wm_table_unit_depth(un)) / 2;
    double best = 0;
    int8_t who = -1;
    for (unsigned c = 0; c < t->characters; c++) {
        const om_wm_table_character *ch = &t->character[c];
        double cm, dx, dy, reach;
        if (ch->side != un->side || om_wm_table_character_gone(t, c))
            continue;
        dx = ch->at.x - un->centre.x;
        dy = ch->at.y - un->centre.y;
        reach = om_wm_command_range_cm(setup->rules, ch->kind) + ch->radius_cm + radius +
                BOUND_SLACK_CM;
        if (dx * dx + dy * dy > reach * reach) {
            assert(!om_wm_command_in_range(setup->rules, ch->kind, flyer,
                                           om_wm_table_character_distance(t, c, u)));
            continue;
        }
        /* Nor is one whose base lies farther from u's circle than the
         * closest found so far: he would not be closer. */
        if (who >= 0 &&
            sqrt(dx * dx + dy * dy) - radius - ch->radius_cm - BOUND_SLACK_CM > best) {
            assert(om_wm_table_character_distance(t, c, u) >= best);
            continue;
        }
        cm = om_wm_table_character_distance(t, c, u);
        if (om_wm_command_in_range(setup->rules, ch->kind, flyer, cm) && (who < 0 || cm < best)) {
            who = (int8_t)c;
            best = cm;
        }
    }
    return who;
}

/* The most orders a unit can be given in one Command phase (Command > Orders:
 * three), so the farthest a charge this turn can come from, in paces. */
#define REACH_PACES 3.0

/* An advance that would move a unit less than this toward the distance it
 * keeps is not worth an order. */
#define GAP_SLACK_CM 1.0

/* How close the closest enemy must be for a unit to charge it on its own
 * initiative (Movement > Moving by Initiative; Warmaster Ancients, Command >
 * Initiative: 20cm). The doctrine reads box gaps, the Command phase the
 * exact distance and what the unit sees. */
#define INITIATIVE_CM 20.0

/* Boxes farther apart than the touch tolerance and this margin (far more
 * than any rounding of theirs) hold units that do not touch. */
#define TOUCH_MARGIN_CM 0.01

/* The chance that 2D6 score `target` or less. */
static double pass_odds(int target)
{
    static const unsigned ways_at_most[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
    return target < 2 ? 0 : target >= 12 ? 1 : ways_at_most[target] / 36.0;
}

/* The chance that character c's first order to units u[0..n) passes, from
 * his Command and the distance to the farthest of them (Command > Command
 * Penalties: the other penalties fall alike on every order of the turn): a
 * character stops at his first failed order (a General's ends the phase),
 * so a player gives the surest orders of equal worth first. */
static double order_odds(const om_wm_command_setup *setup, const om_wm_table *t, int c,
                         const unsigned *u, unsigned n)
{
    double far = 0;
    if (c < 0)
        return 0;
    for (unsigned i = 0; i < n; i++)
        far = fmax(far, om_wm_table_character_distance(t, (unsigned)c, u[i]));
    return pass_odds((int)t->character[c].command -
                     (int)om_wm_command_distance_penalty(far, setup->options.distance_per_full_20));
}

/* A plan to issue: a unit's (brigade < 0) or a brigade's, with its score. */
typedef struct issue {
    double score;
    int unit, brigade;
} issue;

/* Insert e into list[0..*n) by score, best first; ties keep arrival order. */
static void insert(issue *list, unsigned *n, issue e)
{
    unsigned k = (*n)++;
    while (k > 0 && list[k - 1].score < e.score) {
        list[k] = list[k - 1];
        k--;
    }
    list[k] = e;
}

/* What the doctrine saw of one unit of the moving side this turn. */
typedef struct sight {
    double charge_score; /* the best charge's score (0: none worth it) */
    int8_t charge_at;    /* its target, or -1 */
    int8_t closest;      /* the enemy whose centre is closest, or -1 */
    double gap;          /* the smallest gap to an enemy, cm */
    double threat;       /* the best odds of an enemy within its turn's reach charging
                            this unit */
    bool within_reach;   /* an enemy is within the doctrine's engage_paces of it */
} sight;

/* The unit the side's General has joined, or else the one he is on his way
 * back to (a spell moved it without him, or it outran him in its Command
 * phase): he rejoins it at the end of this Command phase, so it is kept as
 * his; -1 if neither. */
static int general_unit(const om_wm_table *t, unsigned side)
{
    for (unsigned c = 0; c < t->characters; c++)
        if (t->character[c].side == side && t->character[c].kind == OM_WM_GENERAL)
            return t->character[c].joined >= 0 ? t->character[c].joined
                                                : t->character[c].follow;
    return -1;
}

/* Look at every enemy of free unit u (foe[0..n_foes): the enemies on the
 * table, in index order): the closest enemy, the best charge,
 * the threat and whether an enemy is within engaging reach. Distances are
 * the gaps between boxes: exact for units square to each other, less for
 * others (the Command phase measures every move itself exactly). */
static void look(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds, const om_wm_table *t,
                 const bool *engaged, const float *gap, const uint8_t *foe, unsigned n_foes,
                 unsigned u, double min_odds, sight *out)
{
    const om_wm_table_unit *me = &t->unit[u];
    const double pace = me->pace_cm > 0 ? me->pace_cm : 1;
    double best_d2 = 0;
    bool any = false;
    *out = (sight){.charge_at = -1, .closest = -1};
    for (unsigned k = 0; k < n_foes; k++) {
        const unsigned v = foe[k];
        const om_wm_table_unit *en = &t->unit[v];
        /* The enemy to advance on is the one whose centre is closest: in
         * lines facing each other every box of the enemy's front is as near,
         * and the centres pick the one straight ahead. */
        double dx = en->centre.x - me->centre.x, dy = en->centre.y - me->centre.y;
        if (out->closest < 0 || dx * dx + dy * dy < best_d2) {
            out->closest = (int8_t)v;
            best_d2 = dx * dx + dy * dy;
        }
        if (gap[v] < out->gap || !any) {
            out->gap = gap[v];
            any = true;
        }
    }
    if (out->closest < 0)
        return;
    out->within_reach = out->gap <= dc->engage_paces * pace;
    for (unsigned k = 0; k < n_foes; k++) {
        const unsigned v = foe[k];
        const om_wm_table_unit *en = &t->unit[v];
        if (engaged[v])
            continue;
        /* An enemy that could charge u in its next turn. */
        if (gap[v] <= REACH_PACES * (en->pace_cm > 0 ? en->pace_cm : 1) &&
            odds->win[v][u] > out->threat)
            out->threat = odds->win[v][u];
        double p = odds->win[u][v];
        if (p < 0 || p < min_odds || gap[v] > REACH_PACES * pace)
            continue; /* it cannot, or would not, or is beyond a turn's reach */
        /* An enemy more than a pace beyond the closest stands behind the
         * enemy's front: out of sight, or with no path to it (a policy; the
         * Command phase decides what a charge sees and reaches). */
        if (gap[v] > out->gap + pace)
            continue;
        double s = dc->charge * charge_value(dc, odds, u, v, p) - dc->distance * gap[v] / pace;
        /* The closest enemy within initiative range is charged with no order. */
        if (s > 0 && (int)v == out->closest && gap[v] <= INITIATIVE_CM)
            s += dc->initiative;
        if (s > out->charge_score) {
            out->charge_score = s;
            out->charge_at = (int8_t)v;
        }
    }
}

/* How far a supporter may stand in front of its place behind a friend (its
 * path there would cross the friend's outline beyond this). */
#define SUPPORT_AHEAD_CM 0.5

/* The units' edge stands (om_wm_command_edge_stand) the supports have asked
 * for: each unit's front and rear worked out when first asked for, the table
 * being unchanged while the doctrine plans. */
typedef struct edges {
    om_wm_edge_stands of[OM_WM_TABLE_MAX_UNITS];
    bool front[OM_WM_TABLE_MAX_UNITS], rear[OM_WM_TABLE_MAX_UNITS];
} edges;

/* Where unit u stands to support friend f (om_wm_command_support_spot), from
 * the edge stands kept in e. */
static om_wm_vec support_spot(const om_wm_table *t, unsigned u, unsigned f, edges *e)
{
    if (!e->front[u]) {
        om_wm_command_edge_stand(&t->unit[u], false, &e->of[u].front_fwd,
                                 &e->of[u].front_right);
        e->front[u] = true;
    }
    if (!e->rear[f]) {
        om_wm_command_edge_stand(&t->unit[f], true, &e->of[f].rear_fwd, &e->of[f].rear_right);
        e->rear[f] = true;
    }
    const om_wm_vec spot = om_wm_command_support_spot_of(t, u, f, &e->of[u], &e->of[f]);
#ifndef NDEBUG
    {
        /* Debug builds check the kept stands against the plain computation. */
        const om_wm_vec plain = om_wm_command_support_spot(t, u, f);
        assert(memcmp(&plain, &spot, sizeof spot) == 0);
    }
#endif
    return spot;
}

/* What standing behind friend f is worth to unit u (support_worth), or
 * -INFINITY when u cannot get there this turn: the friend's points at risk,
 * in u's points, times the doctrine's weight and `risk`, less the cost of the
 * paces to its place. */
static double support_worth(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                            const om_wm_table *t, unsigned u, unsigned f, double risk,
                            edges *e)
{
    const om_wm_table_unit *me = &t->unit[u], *fr = &t->unit[f];
    const double pace = me->pace_cm > 0 ? me->pace_cm : 1;
    const double own = odds->points[u] > 0 ? (double)odds->points[u] : 1.0;
    om_wm_vec spot = support_spot(t, u, f, e);
    double dx = me->centre.x - spot.x, dy = me->centre.y - spot.y, d = hypot(dx, dy);
    /* From in front of its place, the way there crosses the friend. */
    if (dx * fr->dir.x + dy * fr->dir.y > SUPPORT_AHEAD_CM || d > REACH_PACES * pace)
        return -INFINITY;
    return dc->support * risk * odds->points[f] / own - dc->support_distance * d / pace;
}

/* How far the place behind unit u's friend (om_wm_command_support_spot) can
 * lie from the friend's centre, u's share: the spot is the friend's rear
 * stand's offset, a stand's depth of each and u's front stand's offset back,
 * and the two stands' offsets across, each offset within its unit's half
 * width and half depth; this is half u's width, depth and stand depth, and
 * the friend's share is its own. */
static double spot_extent(const om_wm_table_unit *un)
{
    return (om_wm_table_unit_width(un) + om_wm_table_unit_depth(un) + un->stand_d) / 2;
}

/* Unit u's best support among the friends still open (not taken, at risk):
 * the first of the greatest worth above score[u], into *worth and *friend
 * (-1: none). Two kinds of friend are worth -INFINITY (support_worth) and are
 * not measured: one whose centre lies farther from u's than the place behind
 * it can lie from it (extent[], spot_extent) and a turn's reach; and one u
 * stands in front of by more than SUPPORT_AHEAD_CM and half their two depths
 * (depth[]), the most the place can lie in front of the friend's centre (its
 * rear stand's offset and u's front stand's, each within half its unit's
 * depth, less their stands' depths). */
static void best_support(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                         const om_wm_table *t, unsigned u, const bool *taken, const double *risk,
                         const double *score, const double *extent, const double *depth,
                         edges *e, double *worth, int *friend)
{
    const om_wm_table_unit *me = &t->unit[u];
    const double pace = me->pace_cm > 0 ? me->pace_cm : 1;
    *worth = -INFINITY;
    *friend = -1;
    for (unsigned f = 0; f < t->units; f++) {
        double w, dx, dy, reach;
        if (f == u || taken[f] || risk[f] <= 0)
            continue;
        dx = t->unit[f].centre.x - me->centre.x;
        dy = t->unit[f].centre.y - me->centre.y;
        reach = extent[u] + extent[f] + REACH_PACES * pace + BOUND_SLACK_CM;
        if (dx * dx + dy * dy > reach * reach ||
            -(dx * t->unit[f].dir.x + dy * t->unit[f].dir.y) >
                SUPPORT_AHEAD_CM + (depth[u] + depth[f]) / 2 + BOUND_SLACK_CM) {
            assert(support_worth(dc, odds, t, u, f, risk[f], e) == -INFINITY);
            continue;
        }
        w = support_worth(dc, odds, t, u, f, risk[f], e);
        if (w > score[u] && w > *worth) {
            *worth = w;
            *friend = (int)f;
        }
    }
}

/* The side's supports (doctrine.h): the free units of infantry whose plan is
 * not a charge are sent behind friends of infantry at risk (engaged or
 * charging: risk 1; holding: the best odds of an enemy charging it), the pair
 * of best worth first (the first in unit and friend order among equals), one
 * supporter a friend, while a support is worth more than the unit's own plan
 * (score[u]). Writes the plans and their scores. Each helper's best pair is
 * kept from one pick to the next: a pick takes out the friend it gives a
 * supporter and the supporter itself, and changes no other worth nor the
 * scores of the helpers left, so only the helpers whose best was one of the
 * two look again. */
static void supports(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                     const om_wm_table *t, om_wm_command_setup *setup, const bool *engaged,
                     const bool *free_unit, const sight *seen, double *score)
{
    double risk[OM_WM_TABLE_MAX_UNITS], worth[OM_WM_TABLE_MAX_UNITS];
    double extent[OM_WM_TABLE_MAX_UNITS], depth[OM_WM_TABLE_MAX_UNITS];
    int friend[OM_WM_TABLE_MAX_UNITS];
    bool taken[OM_WM_TABLE_MAX_UNITS], helper[OM_WM_TABLE_MAX_UNITS];
    const unsigned side = setup->side;
    edges e;
    memset(e.front, 0, sizeof e.front);
    memset(e.rear, 0, sizeof e.rear);
    for (unsigned f = 0; f < t->units; f++) {
        const om_wm_plan_kind k = setup->plan[f].kind;
        risk[f] = 0;
        taken[f] = false;
        /* A unit off the table has no stands to measure, and is no pair's. */
        extent[f] = t->unit[f].present ? spot_extent(&t->unit[f]) : 0;
        depth[f] = t->unit[f].present ? om_wm_table_unit_depth(&t->unit[f]) : 0;
        helper[f] = free_unit[f] && odds->may_support[f] && k != OM_WM_PLAN_CHARGE;
        if (t->unit[f].side != side || !t->unit[f].present || !odds->may_support[f])
            continue;
        if (engaged[f] || (free_unit[f] && k == OM_WM_PLAN_CHARGE))
            risk[f] = 1;
        else if (free_unit[f] && k == OM_WM_PLAN_HOLD && seen[f].closest >= 0)
            risk[f] = seen[f].threat;
    }
    for (unsigned u = 0; u < t->units; u++)
        if (helper[u])
            best_support(dc, odds, t, u, taken, risk, score, extent, depth, &e, &worth[u],
                             &friend[u]);
    for (;;) {
        double best = -INFINITY;
        int bu = -1, bf;
        for (unsigned u = 0; u < t->units; u++)
            if (helper[u] && friend[u] >= 0 && worth[u] > best) {
                best = worth[u];
                bu = (int)u;
            }
        if (bu < 0)
            return;
        bf = friend[bu];
        /* A supporter fights to no front, so nobody supports it; the friend
         * it supports stays where it is to be supported. */
        helper[bu] = helper[bf] = false;
        taken[bf] = true;
        risk[bu] = 0;
        score[bu] = best;
        setup->plan[bu] = (om_wm_plan){.kind = OM_WM_PLAN_SUPPORT, .target = (int8_t)bf,
                                       .by = orderer(setup, t, (unsigned)bu)};
        for (unsigned u = 0; u < t->units; u++)
            if (helper[u] && (friend[u] == bf || friend[u] == bu))
                best_support(dc, odds, t, u, taken, risk, score, extent, depth, &e, &worth[u],
                             &friend[u]);
    }
}

/* Whether unit u's plan is to support a friend that charges this turn. */
static bool behind_charger(const om_wm_command_setup *setup, unsigned u)
{
    const om_wm_plan *pl = &setup->plan[u];
    return pl->kind == OM_WM_PLAN_SUPPORT && setup->plan[pl->target].kind == OM_WM_PLAN_CHARGE;
}

/* ---- Where the Heroes go ---- */

/* A Hero moves to another unit only for a gain of at least this share of
 * what his orders reach where he stands (and more than nothing), so that he
 * does not wander between units of equal worth. */
#define COVER_GAIN 0.05

/* The chance that a character of kind `kind` and Command `command` standing
 * at p passes a first order to unit v: 0 out of his range. Distances are
 * from p to v's centre less half v's diagonal, a lower bound of the exact
 * distance the Command phase measures (enough to weigh where to stand). */
static double reach_odds(const om_wm_command_setup *setup, const om_wm_table *t,
                         om_wm_character_kind kind, unsigned command, om_wm_vec p, unsigned v)
{
    const om_wm_table_unit *un = &t->unit[v];
    const double half = hypot(om_wm_table_unit_width(un), om_wm_table_unit_depth(un)) / 2;
    const double cm = fmax(0, hypot(un->centre.x - p.x, un->centre.y - p.y) - half);
    if (!om_wm_command_in_range(setup->rules, kind, (un->traits & OM_WM_TABLE_TRAIT_FLYER) != 0,
                                cm))
        return 0;
    return pass_odds((int)command -
                     (int)om_wm_command_distance_penalty(cm, setup->options.distance_per_full_20));
}

/* What the side's plans are worth with character c at p: each planned unit's
 * score (worth[v] > 0) times the best chance of passing its first order,
 * c's from p or the other characters' (other[v], Command > Orders: any
 * character in range may give it). */
static double cover_worth(const om_wm_command_setup *setup, const om_wm_table *t,
                          const om_wm_table_character *ch, om_wm_vec p, const double *worth,
                          const double *other)
{
    double sum = 0;
    for (unsigned v = 0; v < t->units; v++)
        if (worth[v] > 0)
            sum += worth[v] * fmax(other[v], other[v] >= 1 ? 0 :
                                   reach_odds(setup, t, ch->kind, ch->command, p, v));
    return sum;
}

/* The doctrine's heroes_cover: each Hero of the side (in table order) whose
 * unit neither fights nor charges this turn (his bonus Attacks go with it)
 * may move, at the end of the Command phase (Movement > Character Movement:
 * up to 60cm, 100 flying, no order needed), to join the unit within his
 * move from which the side's characters reach the most of what its plans
 * this turn are worth, next turn's orders being much like this turn's; the
 * Heroes before him already placed. He joins no unit an enemy is within the
 * doctrine's engaging reach of (engage_paces): a player keeps his Heroes
 * behind the fighting, where a lost combat does not take them (a character
 * is slain with the unit he has joined) and whence they reach most units. The General keeps his unit (the
 * doctrine's protect_general places him), Wizards theirs (their spells'
 * ranges). Written into setup->refollow. */
static void heroes_cover(const om_wm_doctrine_odds *odds, const om_wm_table *t, unsigned side,
                         const bool *engaged, const bool *free_unit, const sight *seen,
                         const double *score, om_wm_command_setup *setup)
{
    om_wm_vec at[OM_WM_TABLE_MAX_CHARACTERS];
    double other[OM_WM_TABLE_MAX_UNITS];
    for (unsigned c = 0; c < t->characters; c++)
        at[c] = t->character[c].at;
    for (unsigned c = 0; c < t->characters; c++) {
        const om_wm_table_character *ch = &t->character[c];
        const double reach = ch->flying ? OM_WM_CHARACTER_FLY_CM : OM_WM_CHARACTER_MOVE_CM;
        double stay, best;
        int to = -1;
        if (ch->side != side || ch->kind != OM_WM_HERO || ch->joined < 0 ||
            !t->unit[ch->joined].present || engaged[ch->joined] ||
            setup->plan[ch->joined].kind == OM_WM_PLAN_CHARGE)
            continue;
        /* What the other characters' orders reach, where they stand or go. */
        for (unsigned v = 0; v < t->units; v++) {
            other[v] = 0;
            for (unsigned k = 0; k < t->characters && score[v] > 0 && other[v] < 1; k++) {
                const om_wm_table_character *o = &t->character[k];
                if (k != c && o->side == side && !om_wm_table_character_gone(t, k))
                    other[v] = fmax(other[v], reach_odds(setup, t, o->kind, o->command, at[k], v));
            }
        }
        stay = best = cover_worth(setup, t, ch, ch->at, score, other);
        for (unsigned u = 0; u < t->units; u++) {
            const om_wm_table_unit *un = &t->unit[u];
            om_wm_vec q;
            double w;
            if (!free_unit[u] || seen[u].closest < 0 || seen[u].within_reach ||
                !odds->may_join[u] || (int)u == ch->joined)
                continue;
            q = om_wm_table_closest_point(un, ch->at);
            if (hypot(q.x - ch->at.x, q.y - ch->at.y) - ch->radius_cm > reach)
                continue;
            w = cover_worth(setup, t, ch, q, score, other);
            if (w > best) {
                best = w;
                to = (int)u;
            }
        }
        if (to >= 0 && best > stay * (1 + COVER_GAIN)) {
            setup->refollow[c] = (uint8_t)(to + 1);
            at[c] = om_wm_table_closest_point(&t->unit[to], ch->at);
        }
    }
}

void om_wm_doctrine_plans(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                          const om_wm_table *t, unsigned side, om_wm_command_setup *setup)
{
    issue list[OM_WM_TABLE_MAX_UNITS + OM_WM_TABLE_MAX_BRIGADES];
    sight seen[OM_WM_TABLE_MAX_UNITS];
    float gap[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS];
    double score[OM_WM_TABLE_MAX_UNITS];
    bool engaged[OM_WM_TABLE_MAX_UNITS], free_unit[OM_WM_TABLE_MAX_UNITS];
    bool reserve[OM_WM_TABLE_MAX_UNITS] = {false};
    uint8_t foe[OM_WM_TABLE_MAX_UNITS];
    unsigned n = 0, free_count = 0, n_foes = 0;
    const int general = dc->protect_general ? general_unit(t, side) : -1;

    /* The gap between the boxes of every unit of the side and every enemy,
     * once; engagement from it: units touch only across sides, and only
     * units whose boxes are within the touch tolerance are asked exactly
     * (om_wm_table_touching), so that engaged[] is om_wm_table_engaged's
     * answer for every unit at a fraction of its cost. */
    for (unsigned u = 0; u < t->units; u++) {
        engaged[u] = false;
        if (t->unit[u].side != side && t->unit[u].present)
            foe[n_foes++] = (uint8_t)u;
    }
    for (unsigned u = 0; u < t->units; u++) {
        if (t->unit[u].side != side || !t->unit[u].present)
            continue;
        for (unsigned k = 0; k < n_foes; k++) {
            const unsigned v = foe[k];
            double g = om_plane_box_gap(t->unit[u].geom.shape.box, t->unit[v].geom.shape.box);
            /* No gap below 0 (boxes that meet); the sign of a zero gap
             * is read nowhere. */
            gap[u][v] = (float)(g > 0 ? g : 0);
            if (g <= OM_WM_TABLE_TOUCH_CM + TOUCH_MARGIN_CM && om_wm_table_touching(t, u, v))
                engaged[u] = engaged[v] = true;
        }
    }
    for (unsigned u = 0; u < t->units; u++) {
        free_unit[u] = t->unit[u].side == side && t->unit[u].present && !engaged[u];
        free_count += free_unit[u];
    }
    setup->side = (uint8_t)side;
    setup->take_over = dc->take_over;
    for (unsigned b = 0; b < OM_WM_TABLE_MAX_BRIGADES; b++)
        setup->brigade_plan[b] = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
    for (unsigned u = 0; u < t->units; u++) {
        setup->plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
        if (free_unit[u])
            look(dc, odds, t, engaged, gap[u], foe, n_foes, u,
                 (int)u == general ? fmax(dc->charge_min_odds, dc->general_min_odds)
                                   : dc->charge_min_odds,
                 &seen[u]);
    }
    /* The reserve: the free units farthest from the enemy, as many as its
     * share of them (rounded down), ties by index. */
    for (unsigned k = 0, want = (unsigned)(dc->reserve * free_count); k < want; k++) {
        int far = -1;
        for (unsigned u = 0; u < t->units; u++)
            if (free_unit[u] && !reserve[u] && seen[u].closest >= 0 &&
                (far < 0 || seen[u].gap > seen[far].gap))
                far = (int)u;
        if (far < 0)
            break;
        reserve[far] = true;
    }
    /* Each free unit's best order: a charge, a shooter's move into range, an
     * advance on the closest enemy (less the threat it walks into; none for a
     * unit in reserve; the General's unit stops further off), or hold. */
    for (unsigned u = 0; u < t->units; u++) {
        const sight *s = &seen[u];
        om_wm_plan best = {.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
        double best_score = dc->hold, adv = dc->advance - dc->threat * s->threat;
        score[u] = 0;
        if (!free_unit[u] || s->closest < 0)
            continue;
        if (s->charge_at >= 0 && s->charge_score > best_score) {
            best_score = s->charge_score;
            /* At the closest enemy within initiative range: whichever enemy the
             * unit sees closest, so that it charges on its initiative. */
            const bool initiative = s->charge_at == s->closest && s->gap <= INITIATIVE_CM;
            best = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE,
                                .target = initiative ? -1 : s->charge_at, .by = -1};
        }
        /* A shooter moves until the enemy is within its range: the General's
         * unit, kept general_keep_cm from the enemy, only if its range reaches
         * that far (else it advances to that distance, below, and shoots what
         * comes within range). */
        if (t->unit[u].range_cm > 0 && dc->shoot > best_score && !reserve[u] &&
            ((int)u != general || t->unit[u].range_cm >= dc->general_keep_cm)) {
            best_score = dc->shoot;
            best = (om_wm_plan){.kind = OM_WM_PLAN_SHOOT, .target = -1, .by = -1,
                                .orders = (uint8_t)dc->orders};
        }
        /* A charge closes on the enemy too: the advance is for units with
         * none worth making. */
        if (adv > best_score && !reserve[u] && best.kind != OM_WM_PLAN_CHARGE) {
            double keep = (int)u == general ? fmax(dc->keep_cm, dc->general_keep_cm) : dc->keep_cm;
            if (keep <= 0 || s->gap > keep + GAP_SLACK_CM) {
                best_score = adv;
                best = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = s->closest,
                                    .keep_cm = keep, .by = -1, .orders = (uint8_t)dc->orders};
            }
        }
        score[u] = best_score;
        if (best.kind == OM_WM_PLAN_HOLD)
            continue;
        best.by = orderer(setup, t, u);
        setup->plan[u] = best;
    }
    if (dc->support > 0)
        supports(dc, odds, t, setup, engaged, free_unit, seen, score);
    /* The plans to issue, best first; a unit that holds is worth nothing to
     * its brigade's advance. */
    for (unsigned u = 0; u < t->units; u++) {
        const om_wm_plan *pl = &setup->plan[u];
        if (!free_unit[u] || pl->kind == OM_WM_PLAN_HOLD)
            score[u] = 0;
        else if (pl->by >= 0 && !behind_charger(setup, u))
            insert(list, &n, (issue){score[u] * order_odds(setup, t, pl->by, &u, 1), (int)u, -1});
    }
    /* A brigade advances as one while no enemy is within its engaging reach
     * and none of its free units is held in reserve: one order moves them all
     * (Command > Brigades), toward the target of the best charge among its
     * units (which charge on their own as the brigade's orders bring them in
     * reach, Command > Brigades) or else the enemy closest to its first free
     * unit. Nearer the enemy its units act alone, on their initiative or
     * orders, as do those of a brigade holding the General's unit when the
     * doctrine protects him. */
    for (unsigned b = 0; b < t->brigades && dc->brigades && dc->advance > 0; b++) {
        const om_wm_table_brigade *br = &t->brigade[b];
        int lead = -1, charger = -1;
        bool as_one = t->unit[br->unit[0]].side == side;
        double best = 0;
        for (unsigned i = 0; i < br->count && as_one; i++) {
            unsigned u = br->unit[i];
            if (!free_unit[u] || seen[u].closest < 0)
                continue;
            if (seen[u].within_reach || reserve[u])
                as_one = false;
            if (lead < 0)
                lead = (int)u;
            if (setup->plan[u].kind == OM_WM_PLAN_CHARGE &&
                (charger < 0 || score[u] > score[charger]))
                charger = (int)u;
            /* The General's unit kept out of the fight is never carried
             * forward by its brigade's orders: the brigade's units act alone,
             * his on its own plan, which keeps general_keep_cm. */
            if ((int)u == general)
                as_one = false;
            best = fmax(best, score[u]);
        }
        int8_t by;
        unsigned members[OM_WM_BRIGADE_MAX_UNITS], m = 0;
        if (!as_one || lead < 0 || (by = orderer(setup, t, (unsigned)lead)) < 0)
            continue;
        for (unsigned i = 0; i < br->count; i++)
            if (free_unit[br->unit[i]])
                members[m++] = br->unit[i];
        setup->brigade_plan[b] = (om_wm_plan){
            .kind = OM_WM_PLAN_ADVANCE,
            .target = charger >= 0 ? seen[charger].charge_at : seen[lead].closest,
            .keep_cm = dc->keep_cm,
            .by = by, .orders = (uint8_t)(charger >= 0 ? 0 : dc->orders)};
        /* One order for several units: worth each of theirs. */
        insert(list, &n, (issue){best * m * order_odds(setup, t, by, members, m), -1, (int)b});
    }
    /* The supports of chargers last, best first: a friend's charge is made
     * before its supporter moves up behind it. */
    for (unsigned u = 0, first = n; u < t->units; u++)
        if (behind_charger(setup, u) && setup->plan[u].by >= 0) {
            issue e = {score[u] * order_odds(setup, t, setup->plan[u].by, &u, 1), (int)u, -1};
            unsigned k = n++;
            while (k > first && list[k - 1].score < e.score) {
                list[k] = list[k - 1];
                k--;
            }
            list[k] = e;
        }
    for (unsigned k = 0; k < n; k++) {
        uint8_t rank = (uint8_t)(k < UINT8_MAX ? k : UINT8_MAX);
        if (list[k].brigade >= 0)
            setup->brigade_plan[list[k].brigade].priority = rank;
        else
            setup->plan[list[k].unit].priority = rank;
    }
    memset(setup->refollow, 0, sizeof setup->refollow);
    if (dc->heroes_cover)
        heroes_cover(odds, t, side, engaged, free_unit, seen, score, setup);
}

int8_t om_wm_doctrine_orderer(const om_wm_command_setup *setup, const om_wm_table *t, unsigned u)
{
    return orderer(setup, t, u);
}
