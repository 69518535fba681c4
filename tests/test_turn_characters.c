/*
 * test_turn_characters.c: characters in a whole turn (engine/warmaster/turn.c,
 * command.c): a character joined to a unit moves with it in every phase but
 * the Command phase, so that he keeps his place beside it through its
 * retreats and pursuits (Warmaster Revolution, Generals, Wizards & Heroes >
 * Character Movement; Warmaster Ancients, Commanders: "always move in company
 * with units they have joined in other phases ... throughout the Combat phase
 * during pursuit, fall backs, retreats and advances"); his bonus Attacks go
 * with him (Generals, Wizards & Heroes > Characters in Combat): the unit he is
 * with fights with it, a unit he could not follow in its Command phase (he
 * moves at its end, up to 60cm, and joins a unit by ending his move touching
 * it) fights without it.
 *
 * Every test is exact, trial by trial over many seeds. Layout as in
 * test_turn_moves.c (x to the right, y up the page): Knights K (3 stands of
 * Revolution cavalry, 2cm wide and 4cm deep) facing down charge Spearmen S (3
 * infantry stands, 4cm wide and 2cm deep) at (90,50) facing up; retreats run
 * straight back along each unit's facing.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "table.h"
#include "turn.h"
#include "wm.h"
#include "turn_builder.h"

#define TRIALS 4000u
/* Positions agree to a micrometre (the plane's tolerances are far finer than
 * a millimetre and far coarser than rounding). */
#define EXACT_CM 1e-4
#define S_Y 50.0
/* A battle's General: +2 Attacks, Command 10 (so that orders mostly pass). */
#define GENERAL_BONUS 2u
#define GENERAL_COMMAND 10u

static void begin(om_wm_turn *t)
{
    turn_begin(t, "warmaster-revolution", OM_WM_INITIATIVE_AUTO);
}

/* A unit of three stands, 3 Attacks and 3 Hits (turn_unit). */
static unsigned unit(om_wm_turn *t, const char *name, unsigned side, om_wm_troop troop,
                     unsigned armour, double x, double y, double facing)
{
    return turn_unit(t, name, side, troop, 3, 3, 3, armour, x, y, facing);
}

/* A character of `side` joined to unit u (and following it), at p. */
static unsigned joined_character(om_wm_turn *t, const char *name, unsigned side,
                                 om_wm_character_kind kind, unsigned u, om_wm_vec p)
{
    int c = om_wm_table_add_character(&t->table, name, side, kind, GENERAL_COMMAND, p);
    cr_assert_geq(c, 0, "add %s", name);
    t->table.character[c].joined = (int8_t)u;
    t->table.character[c].follow = (int8_t)u;
    return (unsigned)c;
}

/*
 * K (with a Hero) charges S (with a Wizard) on its initiative. S's Wizard
 * stands 3cm behind S's centre; K's Hero, left where K stood (his unit's
 * charge is a Command-phase move: he does not move with it), rejoins K at the
 * end of the Command phase at the closest point of K's rear edge, 2cm behind
 * its centre. Every later move of the turn (S's retreats, K's pursuits, fall
 * backs) carries each of them: as the turn ends each stands at that same
 * place behind his unit, whatever the combat did. Without the carry a Wizard
 * stays at (90,47) while S retreats: the check fails in every trial in which S
 * retreated and lived.
 */
Test(turn_characters, joined_characters_move_with_their_unit)
{
    om_wm_turn t;
    om_wm_turn_work *w = NULL;
    om_dice d;
    unsigned long s_moved = 0, k_moved = 0;
    begin(&t);
    const unsigned k = unit(&t, "Knights", 0, OM_WM_CAVALRY, 4, 90, 60, 270);
    const unsigned s = unit(&t, "Spearmen", 1, OM_WM_INFANTRY, 6, 90, S_Y, 90);
    t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    const unsigned hero = joined_character(&t, "Hero", 0, OM_WM_HERO, k, at(90, 60));
    const unsigned wizard = joined_character(&t, "Wizard", 1, OM_WM_WIZARD, s, at(90, S_Y - 3));
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    for (unsigned n = 0; n < TRIALS; n++) {
        om_wm_turn_result r;
        seed(&d, 7000 + n);
        om_wm_turn_resolve(p, w, &d, &r);
        const om_wm_table *tb = om_wm_turn_work_table(w);
        const om_wm_table_unit *ku = &tb->unit[k], *su = &tb->unit[s];
        const om_wm_table_character *h = &tb->character[hero], *z = &tb->character[wizard];
        cr_assert(r.unit[k].charged, "trial %u: K charges", n);
        if (su->present) {
            cr_assert_eq(z->joined, (int)s);
            cr_assert_float_eq(z->at.x, su->centre.x, EXACT_CM, "trial %u", n);
            cr_assert_float_eq(z->at.y, su->centre.y - 3, EXACT_CM,
                               "trial %u: the Wizard at %.4f, S's centre at %.4f", n, z->at.y,
                               su->centre.y);
            s_moved += fabs(su->centre.y - S_Y) > 1;
        }
        if (ku->present) {
            cr_assert_eq(h->joined, (int)k);
            cr_assert_float_eq(h->at.x, ku->centre.x, EXACT_CM, "trial %u", n);
            cr_assert_float_eq(h->at.y, ku->centre.y + 2, EXACT_CM,
                               "trial %u: the Hero at %.4f, K's centre at %.4f", n, h->at.y,
                               ku->centre.y);
            k_moved += fabs(ku->centre.y - 53) > 1;
        }
    }
    cr_expect_gt(s_moved, TRIALS / 20, "S retreated and lived in %lu trials", s_moved);
    cr_expect_gt(k_moved, TRIALS / 20, "K moved after its charge in %lu trials", k_moved);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* Two turns alike but for where a character's bonus is written: `by_character`
 * gives it to the General as a battle does (and to the unit's side as its
 * value at the start), else it is the unit's own, no character having any. */
static void general_and_knights(om_wm_turn *t, double k_y, bool by_character, unsigned bonus,
                                unsigned *k, unsigned *g)
{
    begin(t);
    *k = unit(t, "Knights", 0, OM_WM_CAVALRY, 4, 90, k_y, 270);
    const unsigned s = unit(t, "Spearmen", 1, OM_WM_INFANTRY, 5, 90, S_Y, 90);
    *g = joined_character(t, "General", 0, OM_WM_GENERAL, *k, at(90, k_y));
    t->unit[*k].side.attack_bonus = (uint8_t)bonus;
    t->table.character[*g].attack_bonus = by_character ? (uint8_t)bonus : 0;
    t->command.plan[*k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s,
                                       .by = (int8_t)*g, .orders = 3};
}

/* Whether two turns played the same: the same dice drawn and every unit left
 * with the same stands at the same place. */
static bool same_turn(const om_dice *d1, const om_wm_turn_work *w1, const om_dice *d2,
                      const om_wm_turn_work *w2)
{
    const om_wm_table *a = om_wm_turn_work_table(w1), *b = om_wm_turn_work_table(w2);
    if (memcmp(&d1->rng, &d2->rng, sizeof d1->rng) != 0)
        return false;
    for (unsigned u = 0; u < a->units; u++)
        if (a->unit[u].present != b->unit[u].present || a->unit[u].stands != b->unit[u].stands ||
            a->unit[u].centre.x != b->unit[u].centre.x ||
            a->unit[u].centre.y != b->unit[u].centre.y)
            return false;
    return true;
}

/* Play turn tx and turn ty on the same dice, trial by trial: `left` counts
 * the trials in which K fought with its General left behind (he moves 60cm at
 * the end of the Command phase and joins only a unit he reaches), `with` those
 * in which it fought with him; `same_*` those of each that played alike. */
typedef struct paired {
    unsigned long left, with, same_left, same_with;
} paired;

static paired play_pair(const om_wm_turn *tx, const om_wm_turn *ty, unsigned k, unsigned g)
{
    om_wm_turn_prepared *px = turn_prepare(tx), *py = turn_prepare(ty);
    om_wm_turn_work *wx = NULL, *wy = NULL;
    paired c = {0, 0, 0, 0};
    cr_assert_eq(om_wm_turn_work_alloc(&wx), OM_OK);
    cr_assert_eq(om_wm_turn_work_alloc(&wy), OM_OK);
    for (unsigned n = 0; n < TRIALS; n++) {
        om_wm_turn_result rx, ry;
        om_dice dx, dy;
        seed(&dx, 9000 + n);
        seed(&dy, 9000 + n);
        om_wm_turn_resolve(px, wx, &dx, &rx);
        om_wm_turn_resolve(py, wy, &dy, &ry);
        if (!rx.unit[k].engaged)
            continue;
        const bool alike = same_turn(&dx, wx, &dy, wy);
        if (om_wm_turn_work_table(wx)->character[g].joined < 0) {
            c.left++;
            c.same_left += alike;
        } else {
            c.with++;
            c.same_with += alike;
        }
    }
    om_wm_turn_work_free(wx);
    om_wm_turn_work_free(wy);
    om_wm_turn_prepared_free(px);
    om_wm_turn_prepared_free(py);
    return c;
}

/*
 * K, joined by its General (+2 Attacks), charges S from 65cm away on three
 * orders: the General, left where K stood, moves 60cm toward it at the end of
 * the Command phase and does not reach it, so K fights without his bonus. A
 * battle's turn (the bonus the General's, and K's side's as the battle
 * starts) plays every such trial exactly as the same turn with no bonus at
 * all. Without the rule (the bonus kept by the unit, or the General counted
 * as joined wherever he stands) no trial leaves him behind, or K fights with
 * +2 and many trials differ.
 */
Test(turn_characters, a_general_left_behind_takes_his_bonus_with_him)
{
    om_wm_turn battle, plain;
    unsigned k, g;
    general_and_knights(&battle, 118, true, GENERAL_BONUS, &k, &g);
    general_and_knights(&plain, 118, false, 0, &k, &g);
    paired c = play_pair(&battle, &plain, k, g);
    cr_assert_gt(c.left, TRIALS / 10, "K charged with its General left behind in %lu trials",
                 c.left);
    cr_expect_eq(c.with, 0u, "he never catches up: K ends 63cm from him");
    cr_expect_eq(c.same_left, c.left, "%lu of %lu trials played as with no bonus", c.same_left,
                 c.left);
}

/*
 * The same charge on initiative from 10cm away: the General catches up with K
 * at the end of the Command phase and K fights with his +2, trial by trial as
 * a unit whose own bonus is +2 (a turn scenario's attack_bonus); and not as a
 * unit with none (the bonus changes the dice rolled): so the bonus follows
 * the General, not the table's place where he started.
 */
Test(turn_characters, a_general_who_catches_up_gives_his_bonus)
{
    om_wm_turn battle, own, none;
    unsigned k, g;
    general_and_knights(&battle, 60, true, GENERAL_BONUS, &k, &g);
    general_and_knights(&own, 60, false, GENERAL_BONUS, &k, &g);
    general_and_knights(&none, 60, false, 0, &k, &g);
    paired c = play_pair(&battle, &own, k, g);
    cr_assert_gt(c.with, TRIALS / 2, "K charged with its General in %lu trials", c.with);
    cr_expect_eq(c.left, 0u);
    cr_expect_eq(c.same_with, c.with, "%lu of %lu trials played as with its own +2",
                 c.same_with, c.with);
    c = play_pair(&battle, &none, k, g);
    cr_expect_lt(c.same_with, c.with / 2, "%lu of %lu trials played as with no bonus",
                 c.same_with, c.with);
}
