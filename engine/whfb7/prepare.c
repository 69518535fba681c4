/*
 * prepare.c: a combat description becomes a prepared combat: for each side its
 * attacking parts (rank and file, mounts, champion, characters) and the models
 * blows can land on, the dice chain of every part against every target in
 * every kind of round (WHFB 7th edition, Close Combat > Hitting the Enemy,
 * Wounding the Enemy, Taking Saving Throws; Weapons; Special Rules), their
 * binomial alias tables, and the strike orders (Who Strikes First?). Also the
 * public entry points that allocate, free and dispatch a trial.
 */
#include <stdlib.h>
#include <string.h>

#include "wh7_int.h"

/* Rounds an engagement lasts when options.max_rounds is 0: the brief's "to a
 * break or 6 rounds" (three game turns of two close combat phases each). */
#define WH7_DEFAULT_MAX_ROUNDS 6u

/* Strike order tiers (Who Strikes First?; Always Strikes First; Strikes
 * Last; digest ambiguity A6): always strikes first, then chargers, then
 * everyone by Initiative, then strikes last. The key is tier * 16 + (10 - I):
 * lower strikes first. */
enum { WH7_TIER_ASF = 0, WH7_TIER_CHARGED, WH7_TIER_INITIATIVE, WH7_TIER_LAST };
#define WH7_TIER_STRIDE 16u

/* The regeneration save (Special Rules > Regeneration: "exactly like a 4+
 * ward save"). */
#define WH7_REGENERATION_SAVE 4u

/* Attacks a model may have above its profile: two hand weapons, the Sword of
 * Battle, the champion's +1, Frenzy. */
#define WH7_MOST_EXTRA_ATTACKS 4u

/* Largest n of one alias table (om_binom_table_alloc's limit); larger rolls
 * are drawn in chunks, which is exact. */
#define WH7_TABLE_N_LIMIT 255u

/* What a part is: whose profile, equipment and rules it strikes with. */
typedef struct wh7_part_src {
    const om_wh7_profile *profile;  /* its characteristics */
    const om_wh7_equipment *equip;  /* its weapons (NULL for mounts: they use none) */
    const om_wh7_traits *traits;    /* its own rules */
    om_wh7_rules psych;             /* the whole model's psychology rules */
    bool mounted;                   /* a rider (weapons are used mounted) */
    unsigned extra_attacks;         /* the champion's +1 */
    unsigned models;                /* most models of this part that can fight */
} wh7_part_src;

/* What a target is. */
typedef struct wh7_target_src {
    const om_wh7_profile *profile;
    const om_wh7_equipment *equip;
    om_wh7_rules rules;             /* its rules with its mount's */
    bool mounted;
    bool steed;                     /* on a mount of 1 Wound: the cavalry save bonus */
    unsigned us;                    /* unit strength of one such model */
} wh7_target_src;

static bool has_mount(const om_wh7_mount *m) { return m->profile.name[0] != '\0'; }

/* The weapon a model fights with: a magic weapon replaces it and is used as a
 * hand weapon (Magic Items > Magic Weapons). */
static om_wh7_weapon fighting_weapon(const om_wh7_equipment *e)
{
    return e->magic_weapon != OM_WH7_MAGIC_WEAPON_NONE ? OM_WH7_WEAPON_HAND : e->weapon;
}

static const om_wh7_weapon_rules *weapon_rules(const om_wh7_equipment *e, bool mounted)
{
    const om_wh7_weapon_entry *w = om_wh7_weapon_get(fighting_weapon(e));
    return mounted ? &w->mounted : &w->foot;
}

/* Whether a side charged with its charge bonuses this turn: not against a
 * unit defending an obstacle, unless it flies (Close Combat > Defended
 * Obstacles). */
static bool charge_counts(const om_wh7_combat *c, int s)
{
    const om_wh7_side *me = &c->side[s], *foe = &c->side[1 - s];
    return me->charging && (!foe->defended_obstacle || (me->unit.traits.rules & OM_WH7_RULE_FLYER));
}

/* The source of part `k` of side `s`, or false if the side has no such part. */
static bool part_source(const om_wh7_combat *c, int s, unsigned k, wh7_part_src *src)
{
    const om_wh7_unit *u = &c->side[s].unit;
    unsigned ch;
    memset(src, 0, sizeof *src);
    switch (k) {
    case WH7_PART_RF:
    case WH7_PART_RF_MOUNT:
    case WH7_PART_CHAMP:
    case WH7_PART_CHAMP_MOUNT: {
        bool champ = k == WH7_PART_CHAMP || k == WH7_PART_CHAMP_MOUNT;
        bool mount = k == WH7_PART_RF_MOUNT || k == WH7_PART_CHAMP_MOUNT;
        unsigned rf = u->models - (u->champion ? 1u : 0u);
        if (champ && !u->champion)
            return false;
        if (!champ && rf == 0)
            return false;
        if (mount && !has_mount(&u->mount))
            return false;
        src->psych = u->traits.rules | u->mount.traits.rules;
        src->mounted = has_mount(&u->mount);
        src->models = champ ? 1u : rf;
        if (mount) {
            src->profile = &u->mount.profile;
            src->traits = &u->mount.traits;
        } else {
            src->profile = &u->profile;
            src->equip = &u->equipment;
            src->traits = &u->traits;
            src->extra_attacks = champ ? 1u : 0u;
        }
        return true;
    }
    default:
        ch = (k - WH7_PART_CHAR0) / 2u;
        if (ch >= u->characters)
            return false;
        {
            const om_wh7_character *h = &u->character[ch];
            bool mount = (k - WH7_PART_CHAR0) % 2u == 1u;
            if (mount && !has_mount(&h->mount))
                return false;
            src->psych = h->traits.rules | h->mount.traits.rules;
            src->mounted = has_mount(&h->mount);
            src->models = 1;
            if (mount) {
                src->profile = &h->mount.profile;
                src->traits = &h->mount.traits;
            } else {
                src->profile = &h->profile;
                src->equip = &h->equipment;
                src->traits = &h->traits;
            }
        }
        return true;
    }
}

static bool target_source(const om_wh7_combat *c, int s, unsigned t, wh7_target_src *src)
{
    const om_wh7_unit *u = &c->side[s].unit;
    memset(src, 0, sizeof *src);
    if (t == WH7_TARGET_RF || t == WH7_TARGET_CHAMP) {
        unsigned rf = u->models - (u->champion ? 1u : 0u);
        if ((t == WH7_TARGET_CHAMP && !u->champion) || (t == WH7_TARGET_RF && rf == 0))
            return false;
        src->profile = &u->profile;
        src->equip = &u->equipment;
        src->rules = u->traits.rules | u->mount.traits.rules;
        src->mounted = has_mount(&u->mount);
        src->steed = src->mounted && u->mount.profile.w <= 1u;
        src->us = om_wh7_model_unit_strength(u);
        return true;
    }
    if (t - WH7_TARGET_CHAR0 >= u->characters)
        return false;
    {
        const om_wh7_character *h = &u->character[t - WH7_TARGET_CHAR0];
        src->profile = &h->profile;
        src->equip = &h->equipment;
        src->rules = h->traits.rules | h->mount.traits.rules;
        src->mounted = has_mount(&h->mount);
        src->steed = src->mounted && h->mount.profile.w <= 1u;
        src->us = om_wh7_character_unit_strength(h);
    }
    return true;
}

/* Clamp a modified close combat requirement (digest A1): by default a natural
 * 6 always hits and a natural 1 always misses, so 2..6; unclamped, a score
 * beyond 6 cannot hit and one below 2 hits on any roll. */
static unsigned clamp_hit(int need, bool unclamped)
{
    if (unclamped)
        return need < 1 ? 1u : need > 6 ? 10u : (unsigned)need;
    return need < 2 ? 2u : need > 6 ? 6u : (unsigned)need;
}

/* Clamp a modified to-wound score (digest A2): by default 2..6 with N kept. */
static unsigned clamp_wound(unsigned base, int mod, bool unclamped)
{
    int need;
    if (base >= OM_WH7_NEVER)
        return OM_WH7_NEVER;
    need = (int)base - mod;
    if (unclamped)
        return need < 2 ? 2u : need > 6 ? OM_WH7_NEVER : (unsigned)need;
    return need < 2 ? 2u : need > 6 ? 6u : (unsigned)need;
}

/* Strength of a part's blows in a kind of round (Weapons > Special Weapon
 * Rules > Strength Bonus; Common Magic Items > Sword of Might). */
static unsigned part_strength(const om_wh7_combat *c, int s, const wh7_part_src *a, unsigned v)
{
    int str = a->profile->s + c->side[s].mods.strength;
    if (a->equip != NULL) {
        const om_wh7_weapon_rules *w = weapon_rules(a->equip, a->mounted);
        str += w->strength;
        if (v != WH7_ROUND_LATER) {
            str += w->strength_first_turn;
            if (charge_counts(c, s))
                str += w->strength_charging;
        }
        if (a->equip->magic_weapon == OM_WH7_MAGIC_WEAPON_MIGHT)
            str += 1;
    }
    return str < 0 ? 0u : (unsigned)str;
}

/* Attacks per model of a part (Hitting the Enemy; two hand weapons; Sword of
 * Battle; the champion's +1). Frenzy's +1 is added during the trial. */
static unsigned part_attacks(const wh7_part_src *a, const om_wh7_modifiers *mods)
{
    int n = a->profile->a + (int)a->extra_attacks + mods->attacks;
    if (a->equip != NULL) {
        n += weapon_rules(a->equip, a->mounted)->extra_attacks;
        if (a->equip->magic_weapon == OM_WH7_MAGIC_WEAPON_BATTLE)
            n += 1;
    }
    return n < 0 ? 0u : (unsigned)n;
}

/* Whether a part's blows are magical (a magic weapon, or the rule). */
static bool part_magical(const wh7_part_src *a)
{
    return (a->traits->rules & OM_WH7_RULE_MAGICAL_ATTACKS) ||
           (a->equip != NULL && a->equip->magic_weapon != OM_WH7_MAGIC_WEAPON_NONE);
}

/* The dice chain of part `a` of side s against target `t` of the enemy in a
 * kind of round `v` (the rules each field cites are in wh7.h's om_wh7_chain). */
static om_wh7_chain build_chain(const om_wh7_combat *c, int s, const wh7_part_src *a,
                                const wh7_target_src *t, unsigned v)
{
    const om_wh7_options *o = &c->options;
    const om_wh7_side *foe = &c->side[1 - s];
    const om_wh7_modifiers *mine = &c->side[s].mods, *theirs = &foe->mods;
    om_wh7_rules own = a->traits->rules;
    unsigned str = part_strength(c, s, a, v);
    unsigned ws = mine->ws ? mine->ws : a->profile->ws;
    unsigned foe_ws = theirs->ws && t->profile->ws ? theirs->ws : t->profile->ws;
    int hit_mod = mine->to_hit, worsen, tough = t->profile->t + theirs->toughness;
    om_wh7_save_case how;
    om_wh7_chain ch;
    unsigned base;

    memset(&ch, 0, sizeof ch);
    /* To hit: Weapon Skill against the target's (a rider's for cavalry). */
    if (a->equip != NULL && a->equip->magic_weapon == OM_WH7_MAGIC_WEAPON_STRIKING)
        hit_mod += 1;
    base = om_wh7_cc_to_hit(ws, foe_ws);
    if (v == WH7_ROUND_FIRST_FEARFUL && (t->rules & (OM_WH7_RULE_FEAR | OM_WH7_RULE_TERROR))) {
        /* Failed Fear: only natural 6s hit the feared models in the first turn,
         * "no modifiers or special rules apply" (Psychology > Fear). */
        ch.hit = base <= 1u ? 1u : 6u;
    } else {
        ch.hit = base <= 1u ? 1u : clamp_hit((int)base - hit_mod, o->cc_hit_unclamped);
        /* Hatred: re-roll misses in the first turn of each combat; it covers
         * a re-roll of ones (no die is re-rolled twice). */
        if (v != WH7_ROUND_LATER && (a->psych & OM_WH7_RULE_HATRED))
            ch.reroll_hit = OM_WH7_REROLL_MISSES;
        else if (mine->reroll_ones)
            ch.reroll_hit = OM_WH7_REROLL_ONES;
    }
    ch.poison = (own & OM_WH7_RULE_POISON) && !(t->rules & OM_WH7_RULE_IMMUNE_POISON);
    ch.wound = clamp_wound(om_wh7_to_wound(str, tough < 1 ? 1u : (unsigned)tough), mine->to_wound,
                           o->wound_mod_unclamped);
    ch.reroll_wound = mine->reroll_ones ? OM_WH7_REROLL_ONES : OM_WH7_REROLL_NONE;
    /* Killing blow works only against models of unit strength 2 or less. */
    ch.killing_blow = (own & OM_WH7_RULE_KILLING_BLOW) && t->us <= 2u;
    /* Armour: the target's save, worsened by Strength, armour piercing and the
     * Biting Blade; the parry counts only against blows from its front. */
    memset(&how, 0, sizeof how);
    how.steed = t->steed;
    how.close_combat = true;
    how.from_front = foe->arc == OM_WH7_ARC_FRONT;
    how.weapon = fighting_weapon(t->equip);
    how.mounted = t->mounted;
    how.slung_shield_counts = o->shield_with_two_handed;
    worsen = (int)om_wh7_strength_save_modifier(str) + theirs->armour;
    if (own & OM_WH7_RULE_ARMOUR_PIERCING)
        worsen += 1;
    if (a->equip != NULL && a->equip->magic_weapon == OM_WH7_MAGIC_WEAPON_BITING_BLADE)
        worsen += 1;
    ch.armour = (uint8_t)om_wh7_save_need(om_wh7_armour_save(t->equip, &how), worsen);
    ch.ward = t->equip->ward >= 2u && t->equip->ward <= 6u ? t->equip->ward : OM_WH7_NEVER;
    /* Regeneration: not against flaming attacks (Special Rules > Flaming
     * Attacks); killing blows deny it by the chain itself. */
    ch.regen = (t->rules & OM_WH7_RULE_REGENERATION) && !(own & OM_WH7_RULE_FLAMING)
                   ? WH7_REGENERATION_SAVE : OM_WH7_NEVER;
    /* Ethereal models are harmed only by magical attacks (army books). */
    if ((t->rules & OM_WH7_RULE_ETHEREAL) && !part_magical(a)) {
        ch.hit = 10u;
        ch.poison = false;
        ch.reroll_hit = OM_WH7_REROLL_NONE;
    }
    return ch;
}

/* An alias table of Bin(n, prob), n <= n_max, shared with any earlier table of
 * the same probability and size; NULL (drawing nothing) when prob is 0. */
om_status om_wh7_table(om_wh7_prepared *p, double prob, unsigned n_max,
                    const om_binom_table **out)
{
    om_binom_table *t;
    om_status st;
    *out = NULL;
    if (prob <= 0.0)
        return OM_OK;
    for (unsigned i = 0; i < p->n_tables; i++)
        if (p->tables[i]->p == prob && p->tables[i]->n_max == n_max) {
            *out = p->tables[i];
            return OM_OK;
        }
    if (NEVER(p->n_tables >= WH7_MAX_TABLES))
        return OM_ERROR(OM_ENOMEM, "too many dice tables for one combat");
    st = om_binom_table_alloc(&t, prob > 1.0 ? 1.0 : prob, n_max);
    if (st != OM_OK)
        return st;
    p->tables[p->n_tables++] = t;
    *out = t;
    return OM_OK;
}

om_status om_wh7_attack_tables(om_wh7_prepared *p, wh7_attack *at, unsigned target_w,
                            unsigned n_max)
{
    double any;
    om_status st;
    om_wh7_chain_probability(&at->chain, &at->p_wound, &at->p_slay);
    any = at->p_wound + at->p_slay;
    if (n_max == 0)
        n_max = 1;
    if (n_max > WH7_TABLE_N_LIMIT)
        n_max = WH7_TABLE_N_LIMIT;
    if ((st = om_wh7_table(p, any, n_max, &at->any)) != OM_OK)
        return st;
    /* Killing blows need telling apart only where a wound is not a model:
     * targets of more than one Wound. */
    if (at->p_slay > 0.0 && target_w > 1u)
        return om_wh7_table(p, at->p_slay / any, n_max, &at->slay);
    return OM_OK;
}

om_wh7_chain om_wh7_hit_chain(const om_wh7_prepared *p, int from, unsigned t, unsigned s,
                           bool no_armour, unsigned ap, bool flaming, bool magical, bool missile)
{
    const om_wh7_combat *c = &p->c;
    const om_wh7_modifiers *theirs = &c->side[1 - from].mods;
    wh7_target_src ts;
    om_wh7_save_case how;
    om_wh7_chain ch;
    int tough;
    memset(&ch, 0, sizeof ch);
    ch.hit = 1;
    if (!target_source(c, 1 - from, t, &ts)) {
        ch.hit = 10;
        return ch;
    }
    tough = ts.profile->t + theirs->toughness;
    ch.wound = (uint8_t)om_wh7_to_wound(s, tough < 1 ? 1u : (unsigned)tough);
    memset(&how, 0, sizeof how);
    how.steed = ts.steed;
    how.mounted = ts.mounted;
    how.weapon = fighting_weapon(ts.equip);
    ch.armour = no_armour ? OM_WH7_NEVER
              : (uint8_t)om_wh7_save_need(om_wh7_armour_save(ts.equip, &how),
                                          (int)(om_wh7_strength_save_modifier(s) + ap) +
                                              theirs->armour);
    ch.ward = ts.equip->ward >= 2u && ts.equip->ward <= 6u ? ts.equip->ward : OM_WH7_NEVER;
    /* Celestial Shield: a ward against missiles; only the best ward counts. */
    if (missile && theirs->missile_ward >= 2u && theirs->missile_ward < ch.ward)
        ch.ward = theirs->missile_ward;
    ch.regen = (ts.rules & OM_WH7_RULE_REGENERATION) && !flaming ? WH7_REGENERATION_SAVE
                                                                : OM_WH7_NEVER;
    if ((ts.rules & OM_WH7_RULE_ETHEREAL) && !magical)
        ch.hit = 10;
    return ch;
}

/* The strike order key of a part in a phase (tiers above). */
static uint8_t strike_key(const om_wh7_combat *c, int s, const wh7_part_src *a, unsigned phase)
{
    bool asf = (a->traits->rules & OM_WH7_RULE_ASF) != 0;
    bool last = a->equip != NULL && weapon_rules(a->equip, a->mounted)->strikes_last;
    bool charged = phase == WH7_PHASE_FIRST && charge_counts(c, s);
    unsigned tier, ini = a->profile->i > OM_WH7_CHAR_MAX ? OM_WH7_CHAR_MAX : a->profile->i;
    /* Always strikes first and strikes last on one model cancel out (A6). */
    if (asf && last)
        asf = last = false;
    tier = asf ? WH7_TIER_ASF : charged ? WH7_TIER_CHARGED
         : last ? WH7_TIER_LAST : WH7_TIER_INITIATIVE;
    return (uint8_t)(tier * WH7_TIER_STRIDE + (OM_WH7_CHAR_MAX - ini));
}

/* The Beast Cowers: a side's creatures do not attack: mounts, and the rank
 * and file of monsters and swarms (not riders). */
static bool creature_idle(const om_wh7_combat *c, int s, unsigned k)
{
    const om_wh7_unit *u = &c->side[s].unit;
    bool creature_rf = u->troop == OM_WH7_MONSTER || (u->traits.rules & OM_WH7_RULE_SWARM);
    if (!c->side[s].mods.mounts_idle)
        return false;
    if (k == WH7_PART_RF_MOUNT || k == WH7_PART_CHAMP_MOUNT || k == WH7_PART_CHAR0_MOUNT ||
        k == WH7_PART_CHAR1_MOUNT)
        return true;
    return creature_rf && (k == WH7_PART_RF || k == WH7_PART_CHAMP);
}

/* The most blows a draw is expected to roll in a round: the widest contact
 * times the ranks fighting, plus the champion and characters, times the most
 * Attacks with every bonus (two hand weapons, the Sword of Battle, the
 * champion's, Frenzy, spells), capped at the alias tables' limit. Parts of a
 * side striking together merge, so the bound is on their sum. A larger roll
 * is drawn in chunks of this size, which is exact: the bound only decides
 * the tables' size. */
static unsigned blow_n_max(const om_wh7_prepared *p)
{
    unsigned most = 1;
    for (int s = 0; s < 2; s++) {
        const om_wh7_unit *u = &p->c.side[s].unit;
        unsigned a = u->profile.a > u->mount.profile.a ? u->profile.a : u->mount.profile.a;
        unsigned models = (unsigned)p->side[s].contact * p->side[s].rank_depth + u->characters + 1u;
        int mod = p->c.side[s].mods.attacks;
        for (unsigned i = 0; i < u->characters; i++) {
            if (u->character[i].profile.a > a)
                a = u->character[i].profile.a;
            if (u->character[i].mount.profile.a > a)
                a = u->character[i].mount.profile.a;
        }
        a += WH7_MOST_EXTRA_ATTACKS + (mod > 0 ? (unsigned)mod : 0u);
        if (models * a > most)
            most = models * a;
    }
    return most > WH7_TABLE_N_LIMIT ? WH7_TABLE_N_LIMIT : most;
}

static om_status build_part(om_wh7_prepared *p, int s, unsigned k)
{
    const om_wh7_combat *c = &p->c;
    wh7_part_info *pi = &p->side[s].part[k];
    wh7_part_src a;
    om_status st;

    if (!part_source(c, s, k, &a))
        return OM_OK;
    pi->present = true;
    pi->frenzy = (a.psych & OM_WH7_RULE_FRENZY) != 0;
    for (unsigned v = 0; v < WH7_VARIANTS; v++)
        pi->attacks[v] = creature_idle(c, s, k) ? 0u : (uint8_t)part_attacks(&a, &c->side[s].mods);
    for (unsigned ph = 0; ph < WH7_PHASES; ph++)
        pi->key[ph] = strike_key(c, s, &a, ph);
    /* One size for every blow table of the combat, so that parts striking
     * together share them (merged draws, combat.c). */
    pi->max_dice = (uint8_t)p->blow_n_max;
    for (unsigned t = 0; t < WH7_TARGETS; t++) {
        wh7_target_src ts;
        if (!target_source(c, 1 - s, t, &ts))
            continue;
        for (unsigned v = 0; v < WH7_VARIANTS; v++) {
            wh7_attack *at = &pi->vs[t][v];
            at->chain = build_chain(c, s, &a, &ts, v);
            at->damage = (uint8_t)a.traits->damage;
            at->doubled = (a.traits->rules & OM_WH7_RULE_FLAMING) &&
                          (ts.rules & OM_WH7_RULE_FLAMMABLE);
            if ((st = om_wh7_attack_tables(p, at, ts.profile->w, pi->max_dice)) != OM_OK)
                return st;
        }
    }
    return OM_OK;
}

/* The targets of side s. */
static void build_targets(om_wh7_prepared *p, int s)
{
    const om_wh7_unit *u = &p->c.side[s].unit;
    for (unsigned t = 0; t < WH7_TARGETS; t++) {
        wh7_target_info *ti = &p->side[s].target[t];
        wh7_target_src ts;
        if (!target_source(&p->c, s, t, &ts))
            continue;
        ti->present = true;
        ti->w = ts.profile->w;
        ti->us = (uint8_t)ts.us;
        ti->causes_fear = (ts.rules & (OM_WH7_RULE_FEAR | OM_WH7_RULE_TERROR)) != 0;
        ti->flammable = (ts.rules & OM_WH7_RULE_FLAMMABLE) != 0;
        ti->start_w = ts.profile->w;
        if (t >= WH7_TARGET_CHAR0) {
            unsigned lost = u->character[t - WH7_TARGET_CHAR0].wounds_lost;
            ti->start_w = (uint8_t)(lost >= ts.profile->w ? 0u : ts.profile->w - lost);
        }
    }
}

/* The whole unit's rules: rank and file, mounts and characters. */
static om_wh7_rules unit_rules(const om_wh7_unit *u)
{
    om_wh7_rules r = u->traits.rules | u->mount.traits.rules;
    for (unsigned i = 0; i < u->characters; i++)
        r |= u->character[i].traits.rules | u->character[i].mount.traits.rules;
    return r;
}

/* A side's figures besides its parts: Leadership (Psychology > Using Superior
 * Leadership; Characters > Character's Leadership; The General), Stubborn
 * Leadership, flee dice, contact, the ranks its weapon fights in. */
static void build_side(om_wh7_prepared *p, int s)
{
    const om_wh7_side *me = &p->c.side[s], *foe = &p->c.side[1 - s];
    const om_wh7_unit *u = &me->unit;
    wh7_side_info *si = &p->side[s];
    const om_wh7_weapon_rules *w = weapon_rules(&u->equipment, has_mount(&u->mount));
    unsigned ld = u->profile.ld, stubborn = 0, m = u->profile.m;
    unsigned width, foe_width;
    om_wh7_rules rr = u->traits.rules | u->mount.traits.rules;

    si->rules = unit_rules(u);
    si->rf_start = (uint8_t)(u->models - (u->champion ? 1u : 0u));
    si->model_us = (uint8_t)om_wh7_model_unit_strength(u);
    si->characters = u->characters;
    si->files = u->files;
    /* Default contact: equal bases corner to corner reach the enemy's front
     * width plus one model at each end (see README.md). */
    width = me->arc == OM_WH7_ARC_FRONT ? u->files
          : (u->models + u->characters + u->files - 1u) / u->files;
    foe_width = foe->unit.files;
    si->contact = me->contact ? me->contact
                : (uint8_t)(width < foe_width + 2u ? width : foe_width + 2u);
    si->rank_depth = w->ranks;
    if (rr & OM_WH7_RULE_STUBBORN)
        stubborn = u->profile.ld;
    for (unsigned i = 0; i < u->characters; i++) {
        const om_wh7_character *h = &u->character[i];
        if (h->profile.ld > ld)
            ld = h->profile.ld;
        if (((h->traits.rules | h->mount.traits.rules) & OM_WH7_RULE_STUBBORN) &&
            h->profile.ld > stubborn)
            stubborn = h->profile.ld;
    }
    if (me->general_ld > ld)
        ld = me->general_ld;
    si->ld = (uint8_t)ld;
    si->stubborn_ld = (uint8_t)stubborn;
    /* Cavalry move at their mount's speed, barding costing 1" (Movement >
     * Barding). */
    if (has_mount(&u->mount)) {
        m = u->mount.profile.m;
        if (u->equipment.barding && m > 0)
            m--;
    }
    si->flee_dice = (uint8_t)om_wh7_flee_dice(m, (si->rules & OM_WH7_RULE_FLYER) != 0);
    si->charge_in = (uint8_t)(2u * m);
    si->frenzied = (si->rules & OM_WH7_RULE_FRENZY) != 0;
    si->unit_rules = rr;
    for (unsigned n = 0; n <= (unsigned)u->models + u->characters; n++)
        si->ranks_by_models[n] = (uint8_t)om_wh7_rank_bonus(n, u->files);
}

/* The strike order of a phase with side `first` striking first on ties: parts
 * sorted by key, a stable insertion sort over at most 16 entries. */
static void build_order(om_wh7_prepared *p, unsigned ph, int first)
{
    uint8_t *o = p->order[ph][first];
    unsigned n = 0;
    for (int k = 0; k < 2; k++) {
        int s = k == 0 ? first : 1 - first;
        for (unsigned part = 0; part < WH7_PARTS; part++)
            if (p->side[s].part[part].present)
                o[n++] = (uint8_t)(s * WH7_PARTS + part);
    }
    for (unsigned i = 1; i < n; i++) {
        uint8_t e = o[i];
        uint8_t key = p->side[e / WH7_PARTS].part[e % WH7_PARTS].key[ph];
        unsigned j = i;
        while (j > 0 && p->side[o[j - 1] / WH7_PARTS].part[o[j - 1] % WH7_PARTS].key[ph] > key) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = e;
    }
    p->order_len = (uint8_t)n;
}

/* Whether the two sides share a strike key in a phase (a tie to break). */
static bool has_tie(const om_wh7_prepared *p, unsigned ph)
{
    for (unsigned a = 0; a < WH7_PARTS; a++)
        for (unsigned b = 0; b < WH7_PARTS; b++)
            if (p->side[0].part[a].present && p->side[1].part[b].present &&
                p->side[0].part[a].key[ph] == p->side[1].part[b].key[ph])
                return true;
    return false;
}

om_status om_wh7_combat_prepare(om_wh7_prepared *p)
{
    om_status st;
    for (int s = 0; s < 2; s++) {
        build_side(p, s);
        build_targets(p, s);
    }
    p->blow_n_max = blow_n_max(p);
    for (int s = 0; s < 2; s++) {
        om_wh7_psychology_prepare(p, s);
        om_wh7_pursuit_prepare(p, s);
    }
    for (int s = 0; s < 2; s++) {
        for (unsigned k = 0; k < WH7_PARTS; k++)
            if ((st = build_part(p, s, k)) != OM_OK)
                return st;
        if ((st = om_wh7_shooting_prepare(p, s)) != OM_OK)
            return st;
    }
    for (unsigned ph = 0; ph < WH7_PHASES; ph++) {
        build_order(p, ph, 0);
        build_order(p, ph, 1);
        p->tie[ph] = has_tie(p, ph);
    }
    if (p->c.kind == OM_WH7_KIND_MAGIC && (st = om_wh7_magic_prepare(p)) != OM_OK)
        return st;
    if ((st = om_wh7_rounds_prepare(p)) != OM_OK)
        return st;
    p->max_rounds = p->c.kind == OM_WH7_KIND_COMBAT ? 1u
                  : p->c.options.max_rounds ? p->c.options.max_rounds : WH7_DEFAULT_MAX_ROUNDS;
    return OM_OK;
}

om_status om_wh7_prepare_alloc(const om_wh7_combat *c, om_wh7_prepared **out)
{
    om_wh7_prepared *p;
    om_status st;

    *out = NULL;
    if ((st = om_wh7_check(c, NULL)) != OM_OK)
        return st;
    p = calloc(1, sizeof *p);
    if (p == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a prepared combat");
    p->c = *c;
    if ((st = om_wh7_combat_prepare(p)) != OM_OK) {
        om_wh7_prepared_free(p);
        return st;
    }
    *out = p;
    return OM_OK;
}

void om_wh7_prepared_free(om_wh7_prepared *p)
{
    if (p == NULL)
        return;
    for (unsigned i = 0; i < p->n_tables; i++)
        om_binom_table_free(p->tables[i]);
    om_wh7_rounds_release(p);
    free(p);
}

const om_wh7_combat *om_wh7_prepared_combat(const om_wh7_prepared *p)
{
    return &p->c;
}

void om_wh7_resolve(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *out)
{
    memset(out, 0, sizeof *out);
    switch (p->c.kind) {
    case OM_WH7_KIND_COMBAT:
    case OM_WH7_KIND_ENGAGEMENT:
        om_wh7_resolve_combat(p, d, out);
        break;
    case OM_WH7_KIND_VOLLEY:
        om_wh7_resolve_volley(p, d, out);
        break;
    case OM_WH7_KIND_MAGIC:
        om_wh7_resolve_magic(p, d, out);
        break;
    default:
        assert(!"om_wh7_check admits no other kind");
        out->winner = OM_WH7_NO_CONTEST;
        break;
    }
}

void om_wh7_resolve_block(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        om_wh7_resolve(p, d, &out[i]);
}

const char *const om_wh7_kind_names[OM_WH7_KIND_COUNT] = {"combat", "engagement", "volley",
                                                          "magic"};
const char *const om_wh7_cover_names[OM_WH7_COVER_COUNT] = {"none", "soft", "hard"};
const char *const om_wh7_arc_names[OM_WH7_ARC_COUNT] = {"front", "flank", "rear"};
const char *const om_wh7_pursue_names[OM_WH7_PURSUE_COUNT] = {"always", "restrain"};
const char *const om_wh7_response_names[OM_WH7_RESPONSE_COUNT] = {"hold", "stand-and-shoot",
                                                                  "flee"};

#define FIELD(f, n, d) {#f, offsetof(om_wh7_outcome, f), \
                        (uint8_t)sizeof(((om_wh7_outcome *)0)->f) / (n), (n), d}

/* The outcome's fields for result writers, in struct order. */
static const om_wh7_outcome_field om_wh7_outcome_fields[] = {
    FIELD(winner, 1, "winner: 0 side A, 1 side B, 2 draw or unresolved, 3 no contest"),
    FIELD(round1_winner, 1, "winner of the first round of combat"),
    FIELD(rounds, 1, "rounds of close combat fought"),
    FIELD(charged, 1, "1 if the charge reached combat"),
    FIELD(result, 2, "combat result score of the first round"),
    FIELD(wounds, 2, "unsaved wounds the unit suffered"),
    FIELD(slain, 2, "models the unit lost to wounds, characters included"),
    FIELD(characters_slain, 2, "characters of the unit slain"),
    FIELD(broke, 2, "1 if the unit failed a break test"),
    FIELD(fled, 2, "1 if the unit fled and escaped"),
    FIELD(destroyed, 2, "1 if the unit was destroyed"),
    FIELD(caught, 2, "1 if the unit was destroyed while fleeing"),
    FIELD(panicked, 2, "1 if the unit failed a panic test"),
    FIELD(feared, 2, "1 if the unit failed a fear or terror test"),
    FIELD(stupid, 2, "1 if the unit failed a stupidity test"),
    FIELD(pursued, 2, "1 if the unit pursued a fleeing enemy"),
    FIELD(friend_panicked, 2, "1 if the friendly unit near it failed a panic test"),
    FIELD(hits, 2, "shooting hits the unit suffered"),
    FIELD(misfire, 1, "the war machine's misfire roll 1..6, 0 if none"),
    FIELD(on_target, 1, "1 if a stone thrower's shot landed where it aimed"),
    FIELD(cast, 1, "1 if the spell was cast"),
    FIELD(irresistible, 1, "1 if it was cast with irresistible force"),
    FIELD(dispelled, 1, "1 if it was dispelled"),
    FIELD(miscast, 1, "the miscast table's 2D6, 0 if no miscast"),
    FIELD(cast_total, 1, "the casting result"),
    FIELD(caster_wounds, 1, "wounds the caster suffered from a miscast"),
    FIELD(caster_slain, 1, "1 if the caster was slain or removed"),
    FIELD(challenge, 1, "1 if a challenge was fought"),
};

#define WH7_OUTCOME_FIELDS (sizeof om_wh7_outcome_fields / sizeof om_wh7_outcome_fields[0])

size_t om_wh7_outcome_field_count(void) { return WH7_OUTCOME_FIELDS; }

const om_wh7_outcome_field *om_wh7_outcome_field_at(size_t i)
{
    return i < WH7_OUTCOME_FIELDS ? &om_wh7_outcome_fields[i] : NULL;
}
