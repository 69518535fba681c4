/*
 * combat.c: one round of close combat (WHFB 7th edition, Close Combat): who
 * fights (models in base contact, extra ranks of spears), who strikes first
 * (charge, Always Strikes First, Initiative, strikes last, the previous turn's
 * winner or a roll-off on ties), the blows of each part as binomial draws from
 * the prepared alias tables (or die by die in the plain baseline), casualties
 * removed from the rear with multiple wounds pooled on multi-Wound units,
 * challenges and overkill, and the combat result (wounds, ranks, outnumber,
 * standard, battle standard, high ground, flank, rear, musician on a draw).
 */
#include <string.h>

#include "wh7_int.h"

/* Most overkill a challenge adds to the result (Characters > Overkill!). */
#define WH7_OVERKILL_MAX 5u
/* Unit strength a unit needs to claim a flank or rear bonus or to take away an
 * enemy's rank bonus (Combat Result Bonuses > Extra Rank, Flank Attack). */
#define WH7_US_FLANKING 5u
/* Combat result bonuses (Combat Result Bonus Chart). */
#define WH7_BONUS_OUTNUMBER 1u
#define WH7_BONUS_STANDARD 1u
#define WH7_BONUS_WAR_BANNER 1u
#define WH7_BONUS_BATTLE_STANDARD 1u
#define WH7_BONUS_HIGH_GROUND 1u
#define WH7_BONUS_FLANK 1u
#define WH7_BONUS_REAR 2u
/* Models per rank the rank bonus needs (Extra Rank: "at least five models wide"). */
#define WH7_RANK_WIDTH 5u

/* A round's scratch figures. */
typedef struct wh7_fight {
    unsigned rf_fighters[2];  /* rank and file fighting at the start of the round */
    unsigned rf_killed[2];    /* rank and file of each side slain this round */
    bool front_fights[2];     /* champion and characters are in contact */
    int duel[2];              /* the target index of each side's challenger, -1: none */
    unsigned cr_wounds[2];    /* wounds each side caused, as the result counts them */
    unsigned overkill[2];     /* challenge wounds beyond the opponent's Wounds */
    unsigned rank_bonus[2];   /* rank bonus counted at the start of the round */
    unsigned alive[2];        /* models of each side alive (at the start, then after the
                                 blows) */
    unsigned us[2];           /* unit strength of each side (likewise) */
} wh7_fight;

void om_wh7_state_init(const om_wh7_prepared *p, wh7_state *st)
{
    memset(st, 0, sizeof *st);
    for (int s = 0; s < 2; s++) {
        const wh7_side_info *si = &p->side[s];
        wh7_unit_state *u = &st->u[s];
        u->rf = si->rf_start;
        u->rf_wounds = si->target[WH7_TARGET_RF].w > 1 ? p->c.side[s].unit.wounds_lost : 0u;
        u->champ_w = si->target[WH7_TARGET_CHAMP].present ? si->target[WH7_TARGET_CHAMP].start_w
                                                          : 0u;
        for (unsigned i = 0; i < si->characters; i++)
            u->char_w[i] = si->target[WH7_TARGET_CHAR0 + i].start_w;
        u->frenzied = si->frenzied;
    }
}

/* Wounds left on a single-model target (champion or character). */
unsigned *om_wh7_single_wounds(wh7_unit_state *u, unsigned t)
{
    return t == WH7_TARGET_CHAMP ? &u->champ_w : &u->char_w[t - WH7_TARGET_CHAR0];
}

/* The target index a part's model is (its body: a mount dies with its rider). */
static unsigned part_body(unsigned part)
{
    return part <= WH7_PART_RF_MOUNT ? WH7_TARGET_RF : WH7_TARGET_CHAMP + (part - WH7_PART_CHAMP) / 2u;
}

/* Whether a single-model target is alive. */
bool om_wh7_single_alive(const wh7_unit_state *u, unsigned t)
{
    return t == WH7_TARGET_CHAMP ? u->champ_w > 0 : u->char_w[t - WH7_TARGET_CHAR0] > 0;
}

/* Wounds of one unsaved wound: its multiplier (Hits Inflicting Multiple
 * Wounds), doubled by flaming blows on a Flammable model (digest A19: the
 * multiplier, then the doubling, then the cap). */
static unsigned roll_damage(om_dice *d, const wh7_attack *at)
{
    unsigned dmg;
    switch (at->damage) {
    case OM_WH7_DAMAGE_D3: dmg = (om_dice_roll_d6(d) + 1u) / 2u; break;
    case OM_WH7_DAMAGE_D6: dmg = om_dice_roll_d6(d); break;
    case OM_WH7_DAMAGE_TWO: dmg = 2u; break;
    case OM_WH7_DAMAGE_THREE: dmg = 3u; break;
    default: dmg = 1u; break;
    }
    return at->doubled ? 2u * dmg : dmg;
}

/*
 * Wounds and killing blows on the rank and file of side e (Removing
 * Casualties; Multiple Wound Casualties; digest A5 and A26). One-Wound models:
 * one model per blow that got through. Multi-Wound models: killing blows slay
 * a model each (the wounded one first), then each wound's damage is capped at
 * the profile Wounds and pooled (the Ogre example), or, with the option
 * multiwound_no_pool, capped at the wounded model's remaining Wounds. Returns
 * the wounds inflicted (what the combat result counts: never more than the
 * unit had) and adds the models slain to *kills.
 */
unsigned om_wh7_wound_rank_and_file(const om_wh7_prepared *p, om_dice *d, wh7_unit_state *u,
                                    unsigned w, const wh7_attack *at, unsigned wounds,
                                    unsigned slays, unsigned *kills)
{
    const om_wh7_options *o = &p->c.options;
    unsigned inflicted = 0, total = 0, capacity;

    if (w <= 1u) {
        unsigned k = wounds + slays < u->rf ? wounds + slays : u->rf;
        u->rf -= k;
        *kills += k;
        return k;
    }
    if (o->killing_blow_one_wound) {
        wounds += slays;
        slays = 0;
    }
    for (; slays > 0 && u->rf > 0; slays--) {
        inflicted += w - u->rf_wounds;
        u->rf_wounds = 0;
        u->rf--;
        (*kills)++;
    }
    for (unsigned i = 0; i < wounds && u->rf > 0; i++) {
        unsigned dmg = roll_damage(d, at);
        if (dmg > w)
            dmg = w;
        if (!o->multiwound_no_pool) {
            total += dmg;
            continue;
        }
        if (dmg > w - u->rf_wounds)
            dmg = w - u->rf_wounds;
        inflicted += dmg;
        u->rf_wounds += dmg;
        if (u->rf_wounds == w) {
            u->rf_wounds = 0;
            u->rf--;
            (*kills)++;
        }
    }
    capacity = u->rf * w - u->rf_wounds;
    if (total > capacity)
        total = capacity;
    inflicted += total;
    u->rf_wounds += total;
    *kills += u->rf_wounds / w;
    u->rf -= u->rf_wounds / w;
    u->rf_wounds %= w;
    return inflicted;
}

/*
 * Wounds and killing blows on a single model (champion or character) with
 * *left Wounds: each wound's damage capped at the profile Wounds; a killing
 * blow slays him. Returns the wounds inflicted and stores in *excess those
 * beyond his Wounds (wasted, except in a challenge: Overkill!).
 */
unsigned om_wh7_wound_single(const om_wh7_prepared *p, om_dice *d, unsigned *left, unsigned w,
                             const wh7_attack *at, unsigned wounds, unsigned slays,
                             unsigned *excess)
{
    unsigned total = 0, inflicted;
    if (p->c.options.killing_blow_one_wound) {
        total += slays;
        slays = 0;
    }
    if (slays > 0)
        total += *left;
    for (unsigned i = 0; i < wounds; i++) {
        unsigned dmg = roll_damage(d, at);
        total += dmg > w ? w : dmg;
    }
    inflicted = total < *left ? total : *left;
    *excess = total - inflicted;
    *left -= inflicted;
    return inflicted;
}

/* Roll n blows of attack `at`: the unsaved wounds and killing blows. Fast
 * dice: binomial thinning, one alias draw (two when killing blows must be told
 * apart); plain dice: every die of every blow (om_wh7_chain_roll). */
void om_wh7_roll_blows(om_dice *d, const wh7_attack *at, unsigned n, unsigned *wounds,
                       unsigned *slays)
{
    unsigned w = 0, sl = 0;
    om_enum *e;
    if (d->plain != NULL && (e = om_enum_of(d)) != NULL) {
        /* Enumerated: the counts the fast dice draw, with their exact law,
         * rather than every die of every blow. */
        unsigned k = at->any != NULL ? om_enum_binomial(e, at->any->p, n) : 0u;
        sl = at->slay != NULL && k > 0 ? om_enum_binomial(e, at->slay->p, k) : 0u;
        w = k - sl;
    } else if (d->plain != NULL) {
        for (unsigned i = 0; i < n; i++) {
            om_wh7_blow b = om_wh7_chain_roll(d, &at->chain);
            w += b == OM_WH7_BLOW_WOUND;
            sl += b == OM_WH7_BLOW_SLAY;
        }
    } else if (at->any != NULL && n > 0) {
        unsigned k = om_binom_draw_select(at->any, &d->rng, n);
        sl = at->slay != NULL && k > 0 ? om_binom_draw_select(at->slay, &d->rng, k) : 0u;
        w = k - sl;
    }
    *wounds = w;
    *slays = sl;
}

/* Whom part `part` of side s strikes now: its challenge opponent, else the
 * enemy rank and file while any are left, else the enemy's champion or a
 * character not in the challenge. Returns WH7_TARGETS for nobody. */
static unsigned pick_target(const om_wh7_prepared *p, const wh7_state *st, const wh7_fight *f,
                            int s, unsigned part)
{
    const wh7_unit_state *foe = &st->u[1 - s];
    const wh7_side_info *fi = &p->side[1 - s];
    if (f->duel[s] >= 0 && (int)part_body(part) == f->duel[s])
        return om_wh7_single_alive(foe, (unsigned)f->duel[1 - s]) ? (unsigned)f->duel[1 - s]
                                                           : WH7_TARGETS;
    if (foe->rf > 0)
        return WH7_TARGET_RF;
    for (unsigned t = WH7_TARGET_CHAMP; t < WH7_TARGETS; t++)
        if (fi->target[t].present && om_wh7_single_alive(foe, t) && (int)t != f->duel[1 - s])
            return t;
    return WH7_TARGETS;
}

/* Models of part `part` of side s striking now. */
static unsigned part_models(const wh7_state *st, const wh7_fight *f, int s, unsigned part)
{
    const wh7_unit_state *u = &st->u[s];
    unsigned body = part_body(part);
    if (body == WH7_TARGET_RF)
        return f->rf_fighters[s] > f->rf_killed[s] ? f->rf_fighters[s] - f->rf_killed[s] : 0u;
    if (!om_wh7_single_alive(u, body))
        return 0;
    return f->front_fights[s] || (f->duel[s] >= 0 && (int)body == f->duel[s]) ? 1u : 0u;
}

unsigned om_wh7_land(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int e, unsigned t,
                  const wh7_attack *at, unsigned n, unsigned *kills, unsigned *excess)
{
    unsigned wounds, slays, inflicted;
    *kills = *excess = 0;
    om_wh7_roll_blows(d, at, n, &wounds, &slays);
    if (wounds + slays == 0)
        return 0;
    if (t == WH7_TARGET_RF) {
        inflicted = om_wh7_wound_rank_and_file(p, d, &st->u[e], p->side[e].target[t].w, at, wounds,
                                            slays, kills);
    } else {
        unsigned *left = om_wh7_single_wounds(&st->u[e], t);
        if (*left == 0)
            return 0;
        inflicted = om_wh7_wound_single(p, d, left, p->side[e].target[t].w, at, wounds, slays,
                                     excess);
        if (*left == 0) {
            *kills = 1;
            if (t >= WH7_TARGET_CHAR0)
                st->chars_slain[e]++;
        }
    }
    st->wounds[e] += inflicted;
    st->slain[e] += *kills;
    return inflicted;
}

/* What part `part` of side s rolls now: its blows and their target (none:
 * n = 0). */
static const wh7_attack *aim(const om_wh7_prepared *p, const wh7_state *st, const wh7_fight *f,
                             int s, unsigned part, unsigned variant, unsigned *target,
                             unsigned *n)
{
    const wh7_part_info *pi = &p->side[s].part[part];
    unsigned models = part_models(st, f, s, part);
    *n = 0;
    *target = WH7_TARGETS;
    if (models == 0)
        return NULL;
    *target = pick_target(p, st, f, s, part);
    if (*target == WH7_TARGETS)
        return NULL;
    *n = models * (pi->attacks[variant] + (pi->frenzy && st->u[s].frenzied ? 1u : 0u));
    return &pi->vs[*target][variant];
}

/* Whether two attacks' blows end alike: the same probabilities of a wound
 * and of a killing blow, and the same damage (then the same tables too). */
static bool same_attack(const wh7_attack *a, const wh7_attack *b)
{
    return a->p_wound == b->p_wound && a->p_slay == b->p_slay && a->damage == b->damage &&
           a->doubled == b->doubled;
}

/*
 * The parts of one side that strike at the same instant (consecutive in the
 * order with the same strike key) roll together where they strike the same
 * target alike: attacks are allocated before rolling (Which Models Fight?),
 * and Bin(a, p) + Bin(b, p) is Bin(a + b, p). Returns the index of the next
 * entry of the order.
 */
static unsigned strike(const om_wh7_prepared *p, om_dice *d, wh7_state *st, wh7_fight *f,
                       const uint8_t *order, unsigned i, unsigned phase, const unsigned *variant)
{
    int s = order[i] / WH7_PARTS, e = 1 - s;
    unsigned part = order[i] % WH7_PARTS, key = p->side[s].part[part].key[phase];
    unsigned t, n, inflicted, kills, excess;
    const wh7_attack *at = aim(p, st, f, s, part, variant[s], &t, &n);

    for (i++; i < p->order_len && order[i] / WH7_PARTS == (unsigned)s &&
              p->side[s].part[order[i] % WH7_PARTS].key[phase] == key; i++) {
        unsigned t2, n2;
        const wh7_attack *at2 = aim(p, st, f, s, order[i] % WH7_PARTS, variant[s], &t2, &n2);
        if (n2 == 0)
            continue;
        if (n > 0 && (t2 != t || !same_attack(at, at2)))
            break;
        at = at2;
        t = t2;
        n += n2;
    }
    if (n == 0)
        return i;
    inflicted = om_wh7_land(p, d, st, e, t, at, n, &kills, &excess);
    if (t == WH7_TARGET_RF)
        f->rf_killed[e] += kills;
    else if (f->duel[s] >= 0 && (int)t == f->duel[e])
        f->overkill[s] += excess;
    f->cr_wounds[s] += inflicted;
    return i;
}

/* The challenger of side s this round: a character in contact, else the
 * champion (Characters > Challenges; Command Groups > Champion). */
static int challenger(const om_wh7_prepared *p, const wh7_state *st, const wh7_fight *f, int s)
{
    if (!f->front_fights[s])
        return -1;
    for (unsigned t = WH7_TARGET_CHAR0; t < WH7_TARGETS; t++)
        if (p->side[s].target[t].present && om_wh7_single_alive(&st->u[s], t))
            return (int)t;
    if (p->side[s].target[WH7_TARGET_CHAMP].present && st->u[s].champ_w > 0)
        return WH7_TARGET_CHAMP;
    return -1;
}

/*
 * Who fights at the start of a round (Which Models Fight?; Fight in Ranks;
 * Command Groups > Position Within Unit). Characters and the champion stand in
 * the front rank and take the first places in contact when the enemy is at the
 * front; the rank and file fill the rest of the contact, and with spears the
 * ranks behind them (one fewer after moving or charging: Fight in Ranks). To
 * the flank or rear only rank and file are in contact, unless no rank and
 * file are left.
 */
static void who_fights(const om_wh7_prepared *p, const wh7_state *st, wh7_fight *f, int s,
                       unsigned round)
{
    const wh7_side_info *si = &p->side[s];
    const om_wh7_side *me = &p->c.side[s];
    const wh7_unit_state *u = &st->u[s];
    unsigned total = f->alive[s], front_singles = total - u->rf;
    unsigned rf_front, engaged, depth = si->rank_depth;

    f->front_fights[s] = me->arc == OM_WH7_ARC_FRONT || u->rf == 0;
    if (f->front_fights[s]) {
        rf_front = si->contact > front_singles ? si->contact - front_singles : 0u;
        engaged = si->contact < total ? si->contact : total;
    } else {
        rf_front = si->contact;
        engaged = si->contact;
    }
    if (rf_front > u->rf)
        rf_front = u->rf;
    f->rf_fighters[s] = rf_front;
    if (me->arc != OM_WH7_ARC_FRONT || depth <= 1u)
        return;
    if (round == 1 && (me->charging || me->moved))
        depth--;
    /* Rank k (k >= 2) holds min(files, total - (k - 1) * files) rank-and-file
     * models; those behind an engaged model fight. */
    for (unsigned k = 2; k <= depth; k++) {
        unsigned before = (k - 1u) * si->files;
        unsigned in_rank = total > before ? total - before : 0u;
        if (in_rank > si->files)
            in_rank = si->files;
        f->rf_fighters[s] += in_rank < engaged ? in_rank : engaged;
    }
    if (f->rf_fighters[s] > u->rf)
        f->rf_fighters[s] = u->rf;
}

/* The rank bonus of side s at the start of the round (Extra Rank): none for
 * skirmishers and fast cavalry, none while an enemy of unit strength 5 or
 * more (not skirmishers) fights its flank or rear. */
static unsigned rank_bonus(const om_wh7_prepared *p, const wh7_fight *f, int s)
{
    const wh7_side_info *si = &p->side[s], *fi = &p->side[1 - s];
    if (si->rules & (OM_WH7_RULE_SKIRMISHERS | OM_WH7_RULE_FAST_CAVALRY))
        return 0;
    if (p->c.side[s].arc != OM_WH7_ARC_FRONT && f->us[1 - s] >= WH7_US_FLANKING &&
        !(fi->rules & OM_WH7_RULE_SKIRMISHERS))
        return 0;
    return si->ranks_by_models[f->alive[s]];
}

/* Side s's combat result after the blows (Combat Result; Combat Result
 * Bonuses), and whether its rank bonus still stands (digest A24, A25). */
static unsigned combat_score(const om_wh7_prepared *p, const wh7_state *st, const wh7_fight *f,
                             int s)
{
    const om_wh7_side *me = &p->c.side[s], *foe = &p->c.side[1 - s];
    const wh7_side_info *si = &p->side[s];
    const wh7_unit_state *u = &st->u[s];
    unsigned us = f->us[s], foe_us = f->us[1 - s];
    unsigned score = f->cr_wounds[s], ranks = f->rank_bonus[s];
    unsigned alive = f->alive[s];

    if (p->c.options.rank_width_after_blows &&
        (alive < si->files ? alive : si->files) < WH7_RANK_WIDTH)
        ranks = 0;
    score += ranks;
    score += f->overkill[s] < WH7_OVERKILL_MAX ? f->overkill[s] : WH7_OVERKILL_MAX;
    if (us > foe_us)
        score += WH7_BONUS_OUTNUMBER;
    /* The standard bearer is removed last, so it stands while any rank and
     * file do (Command Groups > Standards). */
    if (me->unit.standard && u->rf > 0) {
        score += WH7_BONUS_STANDARD;
        if (me->unit.war_banner)
            score += WH7_BONUS_WAR_BANNER;
    }
    for (unsigned i = 0; i < si->characters; i++)
        if (me->unit.character[i].battle_standard && u->char_w[i] > 0)
            score += WH7_BONUS_BATTLE_STANDARD;
    if (me->high_ground)
        score += WH7_BONUS_HIGH_GROUND;
    if (us >= WH7_US_FLANKING) {
        if (foe->arc == OM_WH7_ARC_FLANK)
            score += WH7_BONUS_FLANK;
        else if (foe->arc == OM_WH7_ARC_REAR)
            score += WH7_BONUS_REAR;
    }
    return score;
}

/* Whether side s has its musician: removed last with the standard bearer,
 * so present while the rank and file can still hold him (Musicians). */
static bool has_musician(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    const om_wh7_unit *u = &p->c.side[s].unit;
    return u->musician && st->u[s].rf >= (u->standard ? 2u : 1u);
}

/* The winner of the round (Combat Result): a side wiped out loses; equal
 * scores draw unless exactly one side has a musician, which wins by 1. */
static void decide(const om_wh7_prepared *p, const wh7_state *st, const wh7_fight *f,
                   wh7_round *r)
{
    bool gone[2];
    for (int s = 0; s < 2; s++)
        gone[s] = f->alive[s] == 0;
    if (gone[0] || gone[1]) {
        r->winner = gone[0] && gone[1] ? OM_WH7_DRAW : gone[0] ? OM_WH7_SIDE_B : OM_WH7_SIDE_A;
        r->diff = 0;
        if (r->winner != OM_WH7_DRAW) {
            int w = r->winner;
            r->diff = r->result[w] > r->result[1 - w] ? r->result[w] - r->result[1 - w] : 0u;
        }
        return;
    }
    if (r->result[0] != r->result[1]) {
        r->winner = r->result[0] > r->result[1] ? OM_WH7_SIDE_A : OM_WH7_SIDE_B;
        r->diff = r->result[r->winner] - r->result[1 - r->winner];
        return;
    }
    if (has_musician(p, st, 0) != has_musician(p, st, 1)) {
        r->winner = has_musician(p, st, 0) ? OM_WH7_SIDE_A : OM_WH7_SIDE_B;
        r->diff = 1;
        return;
    }
    r->winner = OM_WH7_DRAW;
    r->diff = 0;
}

/* The side striking first on ties this round: last turn's winner, else a
 * roll-off, a D6 each until they differ (Who Strikes First?). */
static int tie_first(const om_wh7_prepared *p, om_dice *d, unsigned phase, int last_winner)
{
    if (!p->tie[phase])
        return 0;
    if (last_winner == OM_WH7_SIDE_A || last_winner == OM_WH7_SIDE_B)
        return last_winner;
    /* Enumerated: the roll-off is a fair coin (its re-rolls on ties would
     * never end the enumeration's first run). */
    if (om_enum_of(d) != NULL)
        return om_enum_chance(om_enum_of(d), 0.5) ? OM_WH7_SIDE_A : OM_WH7_SIDE_B;
    for (;;) {
        unsigned a = om_dice_roll_d6(d), b = om_dice_roll_d6(d);
        if (a != b)
            return a > b ? OM_WH7_SIDE_A : OM_WH7_SIDE_B;
    }
}

/* Kills of a tabulated round on side s (the fast dice). */
static void table_kills(wh7_state *st, wh7_fight *f, int s, unsigned k)
{
    st->u[s].rf -= k;
    st->slain[s] += k;
    st->wounds[s] += k;
    f->rf_killed[s] += k;
    f->cr_wounds[1 - s] += k;
}

/*
 * The round's blows from the round tables (rounds.c), when they describe it:
 * no challenge, no character, champions alive, fighters within the table,
 * both sides keeping rank and file whatever is slain. Returns false to draw
 * part by part instead.
 */
static bool tabled_round(const om_wh7_prepared *p, om_dice *d, wh7_state *st, wh7_fight *f,
                         unsigned round, int tie)
{
    const wh7_round_table *rt = &p->rounds;
    unsigned fa = f->rf_fighters[0], fb = f->rf_fighters[1], vset, fz = 0, k;
    const wh7_rt_entry *en;

    if (!rt->present || f->duel[0] >= 0 || fa > rt->fmax[0] || fb > rt->fmax[1])
        return false;
    if (round > 1)
        vset = WH7_RT_LATER;
    else if (st->u[0].fearful)
        vset = st->u[1].fearful ? WH7_RT_VSETS : WH7_RT_FIRST_A_FEARFUL;
    else
        vset = st->u[1].fearful ? WH7_RT_FIRST_B_FEARFUL : WH7_RT_FIRST;
    if (vset == WH7_RT_VSETS)
        return false;
    for (int s = 0; s < 2; s++) {
        if (p->side[s].target[WH7_TARGET_CHAMP].present && st->u[s].champ_w == 0)
            return false;
        if (st->u[s].frenzied)
            fz |= 1u << s;
    }
    en = &rt->entry[wh7_rt_index(rt, vset, (unsigned)tie, fz, fa, fb)];
    if (en->alias == NULL || st->u[0].rf <= en->kmax[0] || st->u[1].rf <= en->kmax[1])
        return false;
    k = en->kills[om_alias_draw_select(en->alias, &d->rng)];
    table_kills(st, f, 0, k >> WH7_RT_KILL_BITS);
    table_kills(st, f, 1, k & WH7_RT_KILL_MASK);
    return true;
}

void om_wh7_fight_round(const om_wh7_prepared *p, om_dice *d, wh7_state *st, unsigned round,
                     int last_winner, wh7_round *r)
{
    unsigned phase = round == 1 ? WH7_PHASE_FIRST : WH7_PHASE_LATER;
    unsigned variant[2];
    int tie;
    const uint8_t *order;
    wh7_fight f;

    memset(&f, 0, sizeof f);
    for (int s = 0; s < 2; s++) {
        f.alive[s] = wh7_models_alive(&p->side[s], &st->u[s]);
        f.us[s] = wh7_unit_strength(&p->side[s], &st->u[s]);
        r->us_start[s] = f.us[s];
    }
    for (int s = 0; s < 2; s++) {
        who_fights(p, st, &f, s, round);
        f.rank_bonus[s] = rank_bonus(p, &f, s);
        variant[s] = round > 1 ? WH7_ROUND_LATER
                   : st->u[s].fearful ? WH7_ROUND_FIRST_FEARFUL : WH7_ROUND_FIRST;
    }
    f.duel[0] = f.duel[1] = -1;
    if (p->c.challenge) {
        int a = challenger(p, st, &f, 0), b = challenger(p, st, &f, 1);
        if (a >= 0 && b >= 0) {
            f.duel[0] = a;
            f.duel[1] = b;
        }
    }
    r->duel = f.duel[0] >= 0;
    tie = tie_first(p, d, phase, last_winner);
    order = p->order[phase][tie];
    if (d->plain != NULL || !tabled_round(p, d, st, &f, round, tie))
        for (unsigned i = 0; i < p->order_len;)
            i = strike(p, d, st, &f, order, i, phase, variant);
    for (int s = 0; s < 2; s++) {
        f.alive[s] = wh7_models_alive(&p->side[s], &st->u[s]);
        f.us[s] = wh7_unit_strength(&p->side[s], &st->u[s]);
    }
    for (int s = 0; s < 2; s++)
        r->result[s] = combat_score(p, st, &f, s);
    r->alive[0] = f.alive[0];
    r->alive[1] = f.alive[1];
    decide(p, st, &f, r);
}

void om_wh7_unsaveable_wounds(const om_wh7_prepared *p, wh7_state *st, int s, unsigned n)
{
    wh7_unit_state *u = &st->u[s];
    const wh7_side_info *si = &p->side[s];
    unsigned w = si->target[WH7_TARGET_RF].w;

    /* The rank and file first, wounds pooled as for any multi-Wound unit. */
    while (n > 0 && u->rf > 0) {
        unsigned take = w - u->rf_wounds < n ? w - u->rf_wounds : n;
        u->rf_wounds += take;
        n -= take;
        st->wounds[s] += take;
        if (u->rf_wounds == w) {
            u->rf_wounds = 0;
            u->rf--;
            st->slain[s]++;
        }
    }
    for (unsigned t = WH7_TARGET_CHAMP; t < WH7_TARGETS && n > 0; t++) {
        unsigned *left;
        if (!si->target[t].present || !om_wh7_single_alive(u, t))
            continue;
        left = om_wh7_single_wounds(u, t);
        {
            unsigned take = *left < n ? *left : n;
            *left -= take;
            n -= take;
            st->wounds[s] += take;
            if (*left == 0) {
                st->slain[s]++;
                if (t >= WH7_TARGET_CHAR0)
                    st->chars_slain[s]++;
            }
        }
    }
}

void om_wh7_remove_models(const om_wh7_prepared *p, wh7_state *st, int s, unsigned n)
{
    wh7_unit_state *u = &st->u[s];
    const wh7_side_info *si = &p->side[s];
    unsigned w = si->target[WH7_TARGET_RF].w;
    for (; n > 0 && u->rf > 0; n--) {
        st->wounds[s] += w - u->rf_wounds;
        u->rf_wounds = 0;
        u->rf--;
        st->slain[s]++;
    }
    for (unsigned t = WH7_TARGET_CHAMP; t < WH7_TARGETS && n > 0; t++) {
        unsigned *left;
        if (!si->target[t].present || !om_wh7_single_alive(u, t))
            continue;
        left = om_wh7_single_wounds(u, t);
        st->wounds[s] += *left;
        *left = 0;
        st->slain[s]++;
        if (t >= WH7_TARGET_CHAR0)
            st->chars_slain[s]++;
        n--;
    }
}
