/*
 * shooting.c: missile fire (WHFB 7th edition, Shooting: Who May Shoot, Range,
 * Rolling to Hit, To Hit Modifiers, the 7+ rule, Rolling to Wound, Armour Save
 * Modifiers, Ward Saves; Weapons > Multiple Shots, Thrown Weapon, Move-or-Fire,
 * Armour Piercing; Characters > Characters Inside Units; Special Rules >
 * Poisoned Attacks; Movement > Stand & Shoot; Psychology > Panic, 25%
 * casualties), and the volley kind.
 *
 * A volley is drawn in two stages: the hits of all shots (binomial thinning,
 * poisoned 6s told apart), shared among the target's models when it has fewer
 * than five rank and file (E31), then each share's wounds and saves.
 */
#include <math.h>
#include <string.h>

#include "wh7_int.h"

/* Shooting requirements: a natural 1 always misses, so 2+ is the best; 10 or
 * more cannot hit (To Hit Modifiers). */
#define WH7_SHOT_BEST 2
#define WH7_SHOT_NEVER 10
/* Rank-and-file models from which characters inside cannot be shot (Characters
 * Inside Units: five or more). */
#define WH7_RF_SHIELD 5u
/* Faces of a D6. */
#define WH7_FACES 6u
/* The Panic threshold: a quarter of the models at the start of the phase. */
#define WH7_PANIC_QUARTER 4u

int om_wh7_shoot_required(const om_wh7_shot_case *c)
{
    int r = om_wh7_bs_to_hit(c->bs);
    if (c->large_target)
        r -= 1;
    if (c->moved && !c->thrown_or_pistol)
        r += 1;
    if (c->cover == OM_WH7_COVER_SOFT)
        r += 1;
    else if (c->cover == OM_WH7_COVER_HARD)
        r += 2;
    if (c->long_range && !c->thrown_or_pistol)
        r += 1;
    if (c->stand_and_shoot)
        r += 1;
    if (c->small_target)
        r += 1;
    if (c->multiple)
        r += 1;
    return r;
}

/* Victory points of a unit with no points value (Victory!). */
#define WH7_DEFAULT_VP 100u

om_wh7_range_band om_wh7_range_of(unsigned range_in, unsigned inches)
{
    if (inches > range_in)
        return OM_WH7_RANGE_OUT;
    return 2u * inches > range_in ? OM_WH7_RANGE_LONG : OM_WH7_RANGE_SHORT;
}

bool om_wh7_quarter_lost(unsigned start, unsigned lost)
{
    return start > 0 && lost * WH7_PANIC_QUARTER >= start;
}

unsigned om_wh7_victory_points(unsigned points, unsigned start, unsigned left, bool fled)
{
    if (points == 0)
        points = WH7_DEFAULT_VP;
    if (fled || left == 0)
        return points;
    return 2u * left <= start ? (points + 1u) / 2u : 0u;
}

/* Rank-and-file models of a unit description (champion excluded). */
static unsigned rank_and_file(const om_wh7_unit *u)
{
    return u->models - (u->champion ? 1u : 0u);
}

/* Whether a target unit counts as a small target: a single model of unit
 * strength 1, or skirmishers of unit strength 1 models (To Hit Modifiers). */
static bool small_target(const om_wh7_prepared *p, int e)
{
    const om_wh7_unit *u = &p->c.side[e].unit;
    unsigned total = (unsigned)u->models + u->characters;
    unsigned us = total == u->characters && u->characters > 0
                      ? p->side[e].target[WH7_TARGET_CHAR0].us : p->side[e].model_us;
    if (u->troop == OM_WH7_WAR_MACHINE)
        return false;
    return us == 1u && (total == 1u || (p->side[e].rules & OM_WH7_RULE_SKIRMISHERS));
}

/* Shooters of side s: as declared, else its front rank (one more rank on a
 * hill), never more than its rank and file (Who May Shoot). */
static unsigned shooters(const om_wh7_side *me)
{
    unsigned rf = rank_and_file(&me->unit), n;
    if (me->shooters)
        n = me->shooters;
    else
        n = me->unit.files * (me->on_hill ? 2u : 1u);
    return n < rf ? n : rf;
}

/* Whether side s fires all its multiple shots in a volley of this kind. */
static bool fires_multiple(const om_wh7_prepared *p, int s, const om_wh7_missile_entry *m,
                           bool stand)
{
    const om_wh7_side *me = &p->c.side[s];
    if (!me->multiple_shots || m->shots <= 1u)
        return false;
    if (m->multiple_within_in > 0 && (me->target_in == 0 || me->target_in > m->multiple_within_in))
        return false;
    return !(stand && p->c.options.no_multiple_stand_and_shoot);
}

static om_status prepare_volley(om_wh7_prepared *p, int s, unsigned kind)
{
    const om_wh7_side *me = &p->c.side[s], *foe = &p->c.side[1 - s];
    const om_wh7_unit *u = &me->unit;
    const om_wh7_missile_entry *m = om_wh7_missile_get(u->equipment.missile);
    wh7_volley *v = &p->volley[s][kind];
    bool stand = kind == WH7_VOLLEY_STAND, multiple;
    bool flaming = (u->traits.rules & OM_WH7_RULE_FLAMING) != 0;
    bool magical = (u->traits.rules & OM_WH7_RULE_MAGICAL_ATTACKS) != 0;
    om_wh7_shot_case sc;
    double pr[3];
    unsigned str;
    int req, sv;
    om_status st;

    if (m == NULL || u->equipment.missile == OM_WH7_MISSILE_NONE)
        return OM_OK;
    /* Move-or-fire: no shot after moving; at a charger by default it may
     * (digest A28). */
    if (m->move_or_fire && ((!stand && me->moved) ||
                            (stand && p->c.options.no_move_or_fire_stand_and_shoot)))
        return OM_OK;
    /* A target beyond the maximum range cannot be hit (Range); a declared
     * distance gives the band. */
    if (me->target_in > 0 && om_wh7_range_of(m->range_in, me->target_in) == OM_WH7_RANGE_OUT &&
        !stand)
        return OM_OK;
    multiple = fires_multiple(p, s, m, stand);
    v->present = true;
    v->shots = shooters(me) * (multiple ? m->shots : 1u);
    memset(&sc, 0, sizeof sc);
    sc.bs = u->profile.bs;
    sc.moved = me->moved && !stand;
    sc.long_range = me->long_range ||
                    (me->target_in > 0 && om_wh7_range_of(m->range_in, me->target_in) != OM_WH7_RANGE_SHORT);
    sc.stand_and_shoot = stand;
    sc.multiple = multiple;
    sc.thrown_or_pistol = m->no_range_move_penalty;
    sc.cover = foe->cover;
    sc.large_target = (p->side[1 - s].rules & OM_WH7_RULE_LARGE_TARGET) != 0;
    sc.small_target = small_target(p, 1 - s);
    req = om_wh7_shoot_required(&sc);
    /* The Rain Lord: a soaked unit shoots at -1, -2 with armour piercing. */
    if (me->mods.soaked)
        req += m->armour_piercing ? 2 : 1;
    v->hit.hit = (uint8_t)(req >= WH7_SHOT_NEVER ? WH7_SHOT_NEVER
                           : req < WH7_SHOT_BEST ? WH7_SHOT_BEST : req);
    v->hit.wound = 1;
    v->hit.poison = (u->traits.rules & OM_WH7_RULE_POISON_SHOTS) &&
                    !(p->side[1 - s].rules & OM_WH7_RULE_IMMUNE_POISON);
    om_wh7_hit_probability(&v->hit, pr);
    v->p_hit = pr[OM_WH7_HIT_HIT];
    v->p_poison = pr[OM_WH7_HIT_POISON];
    if ((st = om_wh7_table(p, v->p_hit + v->p_poison, v->shots ? v->shots : 1u, &v->hits)) ||
        (v->p_poison > 0.0 &&
         (st = om_wh7_table(p, v->p_poison / (v->p_hit + v->p_poison), v->shots, &v->poisoned))))
        return st;
    sv = (int)(m->strength ? m->strength : u->profile.s + m->strength_bonus) + me->mods.strength;
    str = sv < 0 ? 0u : (unsigned)sv;
    for (unsigned t = 0; t < WH7_TARGETS; t++) {
        const wh7_target_info *ti = &p->side[1 - s].target[t];
        if (!ti->present)
            continue;
        v->on[t].chain = om_wh7_hit_chain(p, s, t, str, false, m->armour_piercing, flaming, magical,
                                       true);
        v->on[t].doubled = flaming && ti->flammable;
        v->on_poisoned[t] = v->on[t];
        v->on_poisoned[t].chain.wound = 1;
        if ((st = om_wh7_attack_tables(p, &v->on[t], ti->w, v->shots)) ||
            (st = om_wh7_attack_tables(p, &v->on_poisoned[t], ti->w, v->shots)))
            return st;
    }
    return OM_OK;
}

om_status om_wh7_shooting_prepare(om_wh7_prepared *p, int s)
{
    const om_wh7_combat *c = &p->c;
    const om_wh7_side *me = &c->side[s];
    om_status st;
    if (c->kind == OM_WH7_KIND_VOLLEY && s == 0 && me->unit.troop != OM_WH7_WAR_MACHINE &&
        (st = prepare_volley(p, s, WH7_VOLLEY_PHASE)) != OM_OK)
        return st;
    if (me->response == OM_WH7_RESPONSE_STAND_AND_SHOOT && c->side[1 - s].charging &&
        (st = prepare_volley(p, s, WH7_VOLLEY_STAND)) != OM_OK)
        return st;
    if (c->kind == OM_WH7_KIND_VOLLEY && s == 0 && me->machine != OM_WH7_MACHINE_NONE)
        return om_wh7_machine_prepare(p, s);
    return OM_OK;
}

/* A uniform choice among m (1..36) models: one D6 re-rolled above m, or two
 * D6 as a number 0..35 re-rolled past the largest multiple of m (Characters
 * Inside Units: "D6, re-rolling 6s, when 5 models share"). */
static unsigned pick_model(om_dice *d, unsigned m)
{
    /* Enumerated: the uniform choice the re-rolls make (its re-rolls would
     * never end the enumeration's first run). */
    if (om_enum_of(d) != NULL)
        return om_enum_uniform(om_enum_of(d), m);
    for (;;) {
        unsigned a = om_dice_roll_d6(d) - 1u, v;
        if (m <= WH7_FACES) {
            if (a < m)
                return a;
            continue;
        }
        v = WH7_FACES * a + (om_dice_roll_d6(d) - 1u);
        if (v < WH7_FACES * WH7_FACES / m * m)
            return v % m;
    }
}

/*
 * Share `hits` among side e's models (Characters Inside Units): all on the
 * rank and file while it has five or more (or no champion or character is
 * alive); else evenly over every model, characters included, the remainder
 * each to a random model (E31). share[t] gets each target's hits.
 */
void om_wh7_allocate(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int e,
                  unsigned hits, unsigned share[WH7_TARGETS])
{
    const wh7_unit_state *u = &st->u[e];
    unsigned singles[WH7_TARGETS], n_singles = 0, m, each, rest;
    memset(share, 0, WH7_TARGETS * sizeof share[0]);
    for (unsigned t = WH7_TARGET_CHAMP; t < WH7_TARGETS; t++)
        if (p->side[e].target[t].present && om_wh7_single_alive(u, t))
            singles[n_singles++] = t;
    if (u->rf >= WH7_RF_SHIELD || n_singles == 0) {
        share[WH7_TARGET_RF] = u->rf > 0 ? hits : 0u;
        return;
    }
    m = u->rf + n_singles;
    each = hits / m;
    rest = hits % m;
    share[WH7_TARGET_RF] = each * u->rf;
    for (unsigned i = 0; i < n_singles; i++)
        share[singles[i]] = each;
    for (unsigned i = 0; i < rest; i++) {
        unsigned k = pick_model(d, m);
        share[k < u->rf ? WH7_TARGET_RF : singles[k - u->rf]]++;
    }
}

unsigned om_wh7_fire(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                  const wh7_volley *v)
{
    int e = 1 - s;
    unsigned hits = 0, poisoned = 0, share[WH7_TARGETS], pshare[WH7_TARGETS];
    unsigned kills, excess;

    om_enum *en;

    if (!v->present || v->shots == 0)
        return 0;
    if (d->plain != NULL && (en = om_enum_of(d)) != NULL) {
        /* Enumerated: the counts the fast dice draw, with their exact law. */
        hits = v->hits != NULL ? om_enum_binomial(en, v->hits->p, v->shots) : 0u;
        poisoned = v->poisoned != NULL && hits > 0 ? om_enum_binomial(en, v->poisoned->p, hits)
                                                   : 0u;
    } else if (d->plain != NULL) {
        for (unsigned i = 0; i < v->shots; i++) {
            om_wh7_hit h = om_wh7_hit_roll(d, &v->hit);
            hits += h != OM_WH7_HIT_MISS;
            poisoned += h == OM_WH7_HIT_POISON;
        }
    } else {
        hits = v->hits != NULL ? om_binom_draw(v->hits, &d->rng, v->shots) : 0u;
        poisoned = v->poisoned != NULL && hits > 0 ? om_binom_draw(v->poisoned, &d->rng, hits)
                                                   : 0u;
    }
    /* Poisoned hits are shared like the others, separately (README.md). */
    om_wh7_allocate(p, d, st, e, hits - poisoned, share);
    om_wh7_allocate(p, d, st, e, poisoned, pshare);
    for (unsigned t = 0; t < WH7_TARGETS; t++) {
        if (share[t] > 0)
            om_wh7_land(p, d, st, e, t, &v->on[t], share[t], &kills, &excess);
        if (pshare[t] > 0)
            om_wh7_land(p, d, st, e, t, &v->on_poisoned[t], pshare[t], &kills, &excess);
    }
    return hits;
}

void om_wh7_casualty_panic(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int e,
                        unsigned start, om_wh7_outcome *o)
{
    unsigned alive = wh7_models_alive(&p->side[e], &st->u[e]);
    if (alive == 0 || alive > start || !om_wh7_quarter_lost(start, start - alive))
        return;
    om_wh7_panic_flee(p, d, st, e, o);
}

void om_wh7_panic_flee(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int e,
                    om_wh7_outcome *o)
{
    unsigned flee, blocked = p->c.side[e].flee_blocked_in;
    /* War machine crews never test for casualties from shooting (War
     * Machines > Shooting at War Machines). */
    if (p->c.side[e].unit.troop == OM_WH7_WAR_MACHINE || !om_wh7_panic_test(p, d, st, e))
        return;
    o->panicked[e] = 1;
    /* A panicked unit flees directly away; no one pursues it. */
    flee = om_wh7_flee_roll(p, d, e);
    if (blocked > 0 && flee >= blocked) {
        o->caught[e] = o->destroyed[e] = 1;
        return;
    }
    o->fled[e] = 1;
}

void om_wh7_resolve_volley(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *o)
{
    wh7_state st;
    unsigned start, us_start;
    om_wh7_state_init(p, &st);
    start = wh7_models_alive(&p->side[1], &st.u[1]);
    us_start = wh7_unit_strength(&p->side[1], &st.u[1]);
    o->winner = OM_WH7_NO_CONTEST;
    if (p->machine[0].present)
        o->hits[1] = (uint16_t)om_wh7_machine_fire(p, d, &st, 0, o);
    else
        o->hits[1] = (uint16_t)om_wh7_fire(p, d, &st, 0, &p->volley[0][WH7_VOLLEY_PHASE]);
    if (wh7_wiped_out(&p->side[1], &st.u[1])) {
        o->destroyed[1] = 1;
        om_wh7_friends_panic(p, d, 1, us_start, o);
    } else {
        om_wh7_casualty_panic(p, d, &st, 1, start, o);
    }
    om_wh7_finish(&st, o);
}
