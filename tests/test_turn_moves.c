/*
 * test_turn_moves.c: the moves a Combat phase leaves on the table
 * (engine/warmaster/turn.c, fixed readings moves_after_combat and
 * advance_choice; TURNS.md W7): retreats and fall backs move units back,
 * pursuers follow the enemies they pursued into contact and the units
 * supporting them move with them, a winner whose enemy was destroyed advances
 * on the closest enemy it sees within 20cm and fights it in the same Combat
 * phase (unless its player never pursues), and the next turn's combat goes on
 * from where the pursuit ended.
 *
 * Every test is exact, trial by trial over many seeds: each trial's record of
 * its engagement (the trace's retreats, fall backs and pursuits) gives where
 * its units must stand, to a micrometre. Layout (x to the right, y up the
 * page): Knights K (3 stands of Revolution cavalry, 2cm wide and 4cm deep) at
 * (90,60) facing down charge Spearmen S (3 infantry stands, 4cm wide and 2cm
 * deep) at (90,50) facing up: K ends with its front on S's front edge (y 51),
 * its centre at (90,53). Retreats run straight back along each unit's facing,
 * so S moves down the page and K up.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "table.h"
#include "trace.h"
#include "turn.h"
#include "wm.h"
#include "turn_builder.h"

#define TRIALS 4000u
#define EVENTS 256u
/* Positions agree to a micrometre (the plane's tolerances are far finer than
 * a millimetre and far coarser than rounding). */
#define EXACT_CM 1e-4
/* Where the Knights' centre stands in contact with the Spearmen's front. */
#define K_CONTACT_Y 53.0
#define S_Y 50.0

static void begin(om_wm_turn *t)
{
    turn_begin(t, "warmaster-revolution", OM_WM_INITIATIVE_AUTO);
}

/* What the trace says the Combat phase did to unit u (its last engagement). */
typedef struct moved {
    int retreated, fell_back, pursued;
    bool found;
} moved;

static moved moves_of(const om_wm_trace *tr, unsigned u)
{
    moved m = {0, 0, 0, false};
    for (size_t i = 0; i < tr->n; i++)
        if (tr->ev[i].kind == OM_WM_EV_COMBAT_UNIT && tr->ev[i].unit == (int)u) {
            m.retreated = tr->ev[i].v[1];
            m.fell_back = tr->ev[i].v[2];
            m.pursued = tr->ev[i].v[3];
            m.found = true;
        }
    return m;
}

/* The Knights-and-Spearmen turn: K charges S. */
static void knights_and_spearmen(om_wm_turn *t, unsigned *k, unsigned *s)
{
    begin(t);
    *k = turn_unit(t, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 90, 60, 270);
    *s = turn_unit(t, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 90, S_Y, 90);
    t->command.plan[*k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)*s, .by = -1};
}

/*
 * Trial by trial, where the turn leaves K and S: S back by its retreats and
 * fall back; K back from contact by its own, and forward by every retreat of
 * S it pursued (infantry never pursues cavalry, option A6, so S follows no
 * one): K_y = 53 + K's retreats and fall back - S's retreats when K pursued.
 * Both pursue outcomes are seen: combats left unresolved after a second
 * pursuit (then K and S still touch, and the next turn's Combat phase fights
 * them on from there), and combats that a pursuit did not end (a draw or a
 * lost second round after a pursuit, K ending where it followed S less its
 * own move back). Without the pursuers' move K would stand at 53 whatever S
 * did: the first check fails in every trial in which K pursued.
 */
Test(turn_moves, pursuers_follow_into_contact)
{
    om_wm_turn t;
    unsigned k, s;
    om_wm_event buf[EVENTS];
    om_wm_trace tr = {.ev = buf, .cap = EVENTS};
    om_wm_turn_work *w = NULL;
    om_dice d;
    unsigned long unresolved = 0, ended_after_pursuit = 0, fought_on = 0;
    knights_and_spearmen(&t, &k, &s);
    om_wm_turn_prepared *p = turn_prepare(&t);
    om_wm_command_setup second = t.command;
    second.side = 1;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        second.plan[u] = (om_wm_plan){.target = -1, .by = -1};
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    om_wm_turn_work_set_trace(w, &tr);
    for (unsigned n = 0; n < TRIALS; n++) {
        om_wm_turn_result r1, r2;
        const om_wm_table *tb = om_wm_turn_work_table(w);
        moved mk, ms;
        seed(&d, 1000 + n);
        tr.n = tr.dropped = 0;
        om_wm_turn_begin(p, w);
        om_wm_turn_play(p, &t.command, w, &d, &r1);
        cr_assert_eq(tr.dropped, 0);
        mk = moves_of(&tr, k);
        ms = moves_of(&tr, s);
        cr_assert(mk.found && ms.found, "trial %u: the charge was fought", n);
        if (!tb->unit[k].present || !tb->unit[s].present)
            continue;
        cr_assert_eq(ms.pursued, 0, "trial %u: infantry does not pursue cavalry", n);
        {
            const double s_y = S_Y - ms.retreated - ms.fell_back;
            const double k_y = K_CONTACT_Y + mk.retreated + mk.fell_back -
                               (mk.pursued > 0 ? ms.retreated : 0);
            cr_assert_float_eq(tb->unit[s].centre.y, s_y, EXACT_CM, "trial %u: S at %.6f, not %.6f",
                               n, tb->unit[s].centre.y, s_y);
            cr_assert_float_eq(tb->unit[k].centre.y, k_y, EXACT_CM, "trial %u: K at %.6f, not %.6f",
                               n, tb->unit[k].centre.y, k_y);
            cr_assert_float_eq(tb->unit[k].centre.x, 90.0, EXACT_CM);
            cr_assert_float_eq(tb->unit[s].centre.x, 90.0, EXACT_CM);
        }
        if (r1.unresolved > 0) {
            /* Unresolved after a second pursuit: still in contact... */
            cr_assert_eq(mk.pursued, 2, "trial %u", n);
            cr_assert(om_wm_table_touching(tb, k, s), "trial %u: the pursuit ends in contact", n);
            unresolved++;
            /* ...and the next turn's Combat phase fights on from there. */
            tr.n = tr.dropped = 0;
            om_wm_turn_play(p, &second, w, &d, &r2);
            cr_assert_geq(r2.engagements, 1, "trial %u: the combat goes on next turn", n);
            cr_assert(r2.unit[k].engaged && r2.unit[s].engaged, "trial %u", n);
            fought_on++;
        } else if (mk.pursued > 0) {
            ended_after_pursuit++;
        }
    }
    cr_expect_gt(unresolved, 100, "combats unresolved after pursuits: %lu", unresolved);
    cr_expect_eq(fought_on, unresolved);
    cr_expect_gt(ended_after_pursuit, 10, "combats a pursuit did not end: %lu",
                 ended_after_pursuit);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/*
 * An advance (Warmaster Revolution, Combat > Advance): K charges a lone
 * Spearmen stand S (Hits 1, no armour) at (90,50), which its charge destroys
 * nearly always; the Reserve R (3 infantry stands at (90,35) facing up, its
 * front edge at y 36) stands 15cm from K's front. K advances on R, its front on
 * R's front, centre (90,38), and the new engagement is fought in the same
 * Combat phase: two engagements, R engaged. Without the advance K would stay
 * at (90,53) and R would not fight.
 */
Test(turn_moves, winner_advances_and_fights_again)
{
    om_wm_turn t;
    om_wm_event buf[EVENTS];
    om_wm_trace tr = {.ev = buf, .cap = EVENTS};
    om_wm_turn_work *w = NULL;
    om_dice d;
    unsigned long advanced = 0;
    begin(&t);
    unsigned k = turn_unit(&t, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 90, 60, 270);
    unsigned s = turn_unit(&t, "Picket", 1, OM_WM_INFANTRY, 1, 1, 1, 0, 90, S_Y, 90);
    unsigned r = turn_unit(&t, "Reserve", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 90, 35, 90);
    t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    om_wm_turn_work_set_trace(w, &tr);
    for (unsigned n = 0; n < TRIALS / 4; n++) {
        om_wm_turn_result res;
        const om_wm_table *tb = om_wm_turn_work_table(w);
        bool advance_told = false;
        seed(&d, 7000 + n);
        tr.n = tr.dropped = 0;
        om_wm_turn_resolve(p, w, &d, &res);
        if (!res.unit[s].destroyed || !tb->unit[k].present)
            continue;
        for (size_t i = 0; i < tr.n; i++)
            advance_told |= tr.ev[i].kind == OM_WM_EV_CHARGE && tr.ev[i].unit == (int)k &&
                            tr.ev[i].target == (int)r && tr.ev[i].v[0] == OM_WM_CHARGE_ADVANCE;
        cr_assert(advance_told, "trial %u: the advance is in the record", n);
        cr_assert_eq(res.engagements, 2, "trial %u: the advance is fought in this phase", n);
        cr_assert(res.unit[r].engaged, "trial %u", n);
        if (!res.unit[r].destroyed && moves_of(&tr, k).retreated == 0 &&
            moves_of(&tr, k).fell_back == 0 && moves_of(&tr, r).retreated == 0 &&
            moves_of(&tr, r).fell_back == 0) {
            /* Where the advance put K, when its second fight moved no one. */
            cr_assert_float_eq(tb->unit[k].centre.x, 90.0, EXACT_CM, "trial %u", n);
            cr_assert_float_eq(tb->unit[k].centre.y, 38.0, EXACT_CM, "trial %u: K at %.6f", n,
                               tb->unit[k].centre.y);
        }
        advanced++;
    }
    cr_expect_gt(advanced, TRIALS / 8, "advances: %lu", advanced);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/*
 * A unit whose player never pursues stands instead of advancing (fixed
 * reading advance_choice): the same table, K's pursue choice "never": one
 * engagement, R untouched, K where it fought.
 */
Test(turn_moves, a_unit_that_never_pursues_stands)
{
    om_wm_turn t;
    om_wm_turn_work *w = NULL;
    om_dice d;
    unsigned long stood = 0;
    begin(&t);
    unsigned k = turn_unit(&t, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 90, 60, 270);
    unsigned s = turn_unit(&t, "Picket", 1, OM_WM_INFANTRY, 1, 1, 1, 0, 90, S_Y, 90);
    unsigned r = turn_unit(&t, "Reserve", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 90, 35, 90);
    t.unit[k].side.pursue = OM_WM_PURSUE_NEVER;
    t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    for (unsigned n = 0; n < TRIALS / 8; n++) {
        om_wm_turn_result res;
        const om_wm_table *tb = om_wm_turn_work_table(w);
        seed(&d, 9000 + n);
        om_wm_turn_resolve(p, w, &d, &res);
        if (!res.unit[s].destroyed || !tb->unit[k].present)
            continue;
        cr_assert_eq(res.engagements, 1, "trial %u", n);
        cr_assert(!res.unit[r].engaged, "trial %u", n);
        cr_assert_float_eq(tb->unit[k].centre.y, K_CONTACT_Y, EXACT_CM, "trial %u", n);
        stood++;
    }
    cr_expect_gt(stood, TRIALS / 16);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/*
 * A supporting pursuit (Warmaster Revolution, Combat > Pursuit > Supporting
 * pursuits): Warriors W (infantry at (90,52) facing down, front edge y 51)
 * already fight Spearmen S (at (90,50) facing up), and Reserve V stands
 * exactly behind W (at (90,54), facing down), supporting it from behind. When
 * W wins and pursues, V moves as W moved and stays 2cm behind it, supporting
 * it in the next round; when W's side retreats or falls back, both move back
 * by their own distances. Without the supporter's move V would stay at 54
 * while W followed S down the page.
 */
Test(turn_moves, supporters_follow_the_pursuer)
{
    om_wm_turn t;
    om_wm_event buf[EVENTS];
    om_wm_trace tr = {.ev = buf, .cap = EVENTS};
    om_wm_turn_work *w = NULL;
    om_dice d;
    unsigned long followed = 0;
    begin(&t);
    unsigned a = turn_unit(&t, "Warriors", 0, OM_WM_INFANTRY, 3, 3, 3, 5, 90, 52, 270);
    unsigned v = turn_unit(&t, "Reserve", 0, OM_WM_INFANTRY, 3, 3, 3, 5, 90, 54, 270);
    unsigned s = turn_unit(&t, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 90, S_Y, 90);
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    om_wm_turn_work_set_trace(w, &tr);
    for (unsigned n = 0; n < TRIALS / 2; n++) {
        om_wm_turn_result res;
        const om_wm_table *tb = om_wm_turn_work_table(w);
        moved ma, mv, ms;
        seed(&d, 20000 + n);
        tr.n = tr.dropped = 0;
        om_wm_turn_resolve(p, w, &d, &res);
        ma = moves_of(&tr, a);
        mv = moves_of(&tr, v);
        ms = moves_of(&tr, s);
        cr_assert(ma.found && mv.found && ms.found, "trial %u: one engagement of three", n);
        if (!tb->unit[a].present || !tb->unit[v].present || ma.pursued == 0 ||
            ma.retreated + ma.fell_back + mv.retreated + mv.fell_back > 0)
            continue;
        cr_assert_float_eq(tb->unit[a].centre.y, 52.0 - ms.retreated, EXACT_CM, "trial %u", n);
        cr_assert_float_eq(tb->unit[v].centre.y, 54.0 - ms.retreated, EXACT_CM,
                           "trial %u: V at %.6f", n, tb->unit[v].centre.y);
        followed++;
    }
    cr_expect_gt(followed, TRIALS / 20, "supporting pursuits: %lu", followed);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/*
 * A spell that forbids its target to charge, pursue or advance until the end
 * of its next turn (the lasting effect OM_WM_LASTING_NO_CHARGE: Warmaster
 * Revolution army lists, Dark Elves > Spells > Dominion; Lizardmen >
 * Mazdamundi's Revenge) also stops an advance (Combat > Advance: an advance is
 * a charge). The table of winner_advances_and_fights_again, with K already in
 * contact with the Picket (no charge needed): without the spell K advances on
 * the Reserve in some trials; under it, never, and the Reserve never fights.
 */
static void advances_under(bool no_charge, unsigned long *won, unsigned long *advanced)
{
    om_wm_turn t;
    om_wm_turn_work *w = NULL;
    om_dice d;
    begin(&t);
    unsigned k = turn_unit(&t, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 90, K_CONTACT_Y, 270);
    unsigned s = turn_unit(&t, "Picket", 1, OM_WM_INFANTRY, 1, 1, 1, 0, 90, S_Y, 90);
    unsigned r = turn_unit(&t, "Reserve", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 90, 35, 90);
    if (no_charge)
        t.table.unit[k].lasting.kinds = OM_WM_LASTING_NO_CHARGE;
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    *won = *advanced = 0;
    for (unsigned n = 0; n < TRIALS / 8; n++) {
        om_wm_turn_result res;
        const om_wm_table *tb = om_wm_turn_work_table(w);
        seed(&d, 11000 + n);
        om_wm_turn_resolve(p, w, &d, &res);
        if (!res.unit[s].destroyed || !tb->unit[k].present)
            continue;
        ++*won;
        if (res.unit[r].engaged) {
            cr_assert_eq(res.engagements, 2, "trial %u", n);
            ++*advanced;
        }
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(turn_moves, a_unit_a_spell_forbids_to_charge_does_not_advance)
{
    unsigned long won, advanced;
    advances_under(false, &won, &advanced);
    cr_assert_gt(won, TRIALS / 16, "K won %lu times", won);
    cr_assert_gt(advanced, 0, "without the spell K advances: %lu of %lu", advanced, won);
    advances_under(true, &won, &advanced);
    cr_assert_gt(won, TRIALS / 16, "K won %lu times under the spell", won);
    cr_assert_eq(advanced, 0, "under the spell K advanced %lu times of %lu", advanced, won);
}

/*
 * Shooting at an advance (Warmaster Revolution and Warmaster Ancients, Combat
 * > Advance: the unit advanced upon "can shoot at the advancing unit in
 * exactly the same way as a unit shooting at chargers"; Warmaster 1.1 alike,
 * fixed reading advance_shooting). The table of
 * winner_advances_and_fights_again with a Knights unit of one stand and one
 * Hit: K charges the Picket and, when it destroys it and lives, advances on
 * Crossbowmen X (3 stands of 1 shot each, standing and shooting) 15cm away,
 * to X's front. X shoots before the round: 3 dice, each hitting the advancer
 * in the open on 4+ (chargers are never defended) and its armour (4+) saving
 * half: P(an unsaved hit) = 1/4 a die, so K's stand is lost before contact,
 * no round fought, with probability 1 - (3/4)^3 = 37/64. Without the rule K
 * is never lost before contact: the advance engagement always fights a round.
 * Counts are over the trials in which K advanced on X; the tolerance is five
 * standard errors of that count's binomial.
 */
#define ADVANCE_SHOT_P (37.0 / 64.0)

/* Over `trials` trials of the table above under rule set `rules`, dice of
 * streams `stream` on: the trials
 * in which K advanced on X, and of those the ones its stand was shot down
 * before contact (the advance's engagement fought no round and destroyed
 * K). Every advance is fought in the same Combat phase. */
static void advance_under_fire(const om_wm_ruleset *rules, unsigned trials, uint64_t stream,
                               unsigned long *advanced, unsigned long *shot_down)
{
    om_wm_turn t;
    om_wm_event buf[EVENTS];
    om_wm_trace tr = {.ev = buf, .cap = EVENTS};
    om_wm_turn_work *w = NULL;
    om_dice d;
    turn_begin(&t, rules->name, OM_WM_INITIATIVE_AUTO);
    t.rules = rules;
    unsigned k = turn_unit(&t, "Knights", 0, OM_WM_CAVALRY, 1, 3, 1, 4, 90, 60, 270);
    unsigned s = turn_unit(&t, "Picket", 1, OM_WM_INFANTRY, 1, 1, 1, 0, 90, S_Y, 90);
    unsigned x = turn_unit(&t, "Crossbowmen", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 90, 35, 90);
    t.unit[x].side.unit.shots = 1;
    t.unit[x].side.unit.range_cm = 30;
    t.table.unit[x].range_cm = 30;
    t.unit[x].stand_and_shoot = true;
    t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    om_wm_turn_work_set_trace(w, &tr);
    *advanced = *shot_down = 0;
    for (unsigned n = 0; n < trials; n++) {
        om_wm_turn_result res;
        bool advance_told = false;
        int rounds = -1;
        seed(&d, stream + n);
        tr.n = tr.dropped = 0;
        om_wm_turn_resolve(p, w, &d, &res);
        cr_assert_eq(tr.dropped, 0);
        for (size_t i = 0; i < tr.n; i++) {
            const om_wm_event *e = &tr.ev[i];
            if (e->kind == OM_WM_EV_CHARGE && e->unit == (int)k && e->target == (int)x &&
                e->v[0] == OM_WM_CHARGE_ADVANCE)
                advance_told = true;
            else if (advance_told && e->kind == OM_WM_EV_COMBAT && rounds < 0)
                rounds = e->v[3];
        }
        if (!advance_told)
            continue;
        cr_assert_eq(res.engagements, 2, "trial %u: the advance is fought in this phase", n);
        cr_assert_geq(rounds, 0, "trial %u: the advance's engagement is in the record", n);
        cr_assert(rounds > 0 || res.unit[k].destroyed,
                  "trial %u: no round fought, yet the advancer lives", n);
        ++*advanced;
        *shot_down += rounds == 0;
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* The count of `n` trials at probability q is within five standard errors. */
static void expect_rate(unsigned long hits, unsigned long n, double q, const char *what)
{
    const double se = sqrt(q * (1.0 - q) / (double)n);
    const double rate = (double)hits / (double)n;
    cr_expect_gt(n, TRIALS / 4, "%s: advances %lu", what, n);
    cr_expect(fabs(rate - q) <= 5.0 * se, "%s: shot down %lu of %lu (%.4f), exact %.4f, se %.4f",
              what, hits, n, rate, q, se);
}

Test(turn_moves, the_unit_advanced_upon_shoots_at_the_advancer)
{
    static const char *const rules[] = {"warmaster-revolution", "warmaster-ancients",
                                        "warmaster-1.1"};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const om_wm_ruleset *r = om_wm_ruleset_find(rules[i]);
        unsigned long advanced, shot_down;
        cr_assert_not_null(r);
        advance_under_fire(r, TRIALS, 31000 + i * TRIALS, &advanced, &shot_down);
        expect_rate(shot_down, advanced, ADVANCE_SHOT_P, rules[i]);
    }
}

/* The same table, the rule taken away (a rule set like Revolution whose unit
 * advanced upon may not shoot): no advancer is ever lost before contact. */
Test(turn_moves, without_the_rule_no_advancer_is_shot)
{
    om_wm_ruleset r = *om_wm_ruleset_find("warmaster-revolution");
    unsigned long advanced, shot_down;
    r.shoot_at_advancers = false;
    advance_under_fire(&r, TRIALS, 31000, &advanced, &shot_down);
    cr_expect_gt(advanced, TRIALS / 4, "advances: %lu", advanced);
    cr_expect_eq(shot_down, 0, "shot down %lu of %lu advances", shot_down, advanced);
}
