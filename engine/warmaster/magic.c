/*
 * magic.c: Warmaster magic in the Shooting phase (magic.h): the casting roll,
 * anti-magic, the same-spell limit, the casting policy and the spells'
 * mechanisms (Warmaster Revolution, Magic > Spells; Casting Spells; the
 * Warmaster 1.1 Rules Update, P72 – Casting Spells; the army lists' spells).
 *
 * The mechanisms reuse the Shooting phase's own parts: the usual score to hit
 * (om_wm_to_hit_score, the target's position as the table decides it), the
 * usual save (om_wm_save_score, none for spells that ignore armour) and the
 * dice kit's test of that pair, so a magic missile is exactly that many
 * shooting Attacks; its hits join the phase's other hits and are removed and
 * driven back at the phase's end by the turn (turn.c). What the model leaves
 * out (path spells hit only their chosen target; no hits carried into a
 * combat; casting modifiers of magic items) is in docs/rules-coverage.md,
 * "Magic (Warmaster)".
 *
 * The casting policy (a player's choice the rules leave open): each Wizard
 * weighs every spell he knows on every eligible target by the chance to cast
 * it times the stands' worth of damage it is expected to do, and casts the
 * best (ties: the earlier spell, then the lower unit index). Damage by
 * shooting Attacks is the expected unsaved hits over the target's Hits; by
 * Attacks in combat the same at 4+ to hit, no save, against 3 Hits (a
 * typical infantry stand); a shattered stand is one stand.
 */
#include "magic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "turn.h"
#include "wm_int.h"

const char *const om_wm_spell_effect_names[OM_WM_SPELL_EFFECT_COUNT] = {
    [OM_WM_SPELL_NOT_MODELLED] = "not-modelled",
    [OM_WM_SPELL_MISSILE] = "missile",
    [OM_WM_SPELL_BURST] = "burst",
    [OM_WM_SPELL_BOOST] = "boost",
    [OM_WM_SPELL_WEAKEN] = "weaken",
    [OM_WM_SPELL_SHATTER] = "shatter",
};

/* The Hits of the stand the policy assumes Attacks in combat fall on, and the
 * chance such an Attack hits (4+, Combat > How to Calculate Damage). */
#define POLICY_COMBAT_HITS 3.0
#define POLICY_COMBAT_HIT_CHANCE 0.5
/* The mean of a D3, and the faces of a D6. */
#define D3_MEAN 2.0
#define D6_FACES 6u

double om_wm_spell_cast_chance(unsigned cast)
{
    /* The faces that work: those from `cast` up, but never the 1 and always the 6. */
    const unsigned faces = cast >= D6_FACES ? 1u : cast <= 2u ? D6_FACES - 1u
                                                               : D6_FACES + 1u - cast;
    return (double)faces / D6_FACES;
}

bool om_wm_spell_casts(unsigned face, unsigned cast)
{
    return face != 1u && (face == D6_FACES || face >= cast);
}


/* ---- Check ---- */

static om_status fail(om_wm_check_failure *why, const char *field, const char *reason)
{
    om_wm_check_failure local;
    if (why == NULL)
        why = &local;
    snprintf(why->field, sizeof why->field, "%s", field);
    snprintf(why->reason, sizeof why->reason, "%s", reason);
    return OM_ERROR(OM_EINVAL, "field '%s': %s", why->field, why->reason);
}

om_status om_wm_spellbook_check(const om_wm_spellbook *b, const om_wm_table *t,
                                om_wm_ruleset_id rules, om_wm_check_failure *why)
{
    char path[64];
    for (unsigned s = 0; s < 2; s++) {
        if (b->n[s] > OM_WM_SPELLS_MAX) {
            snprintf(path, sizeof path, "magic.spells[%u]", s);
            return fail(why, path, "too many spells for one army");
        }
        if (b->n[s] > 0 && rules == OM_WM_RULES_WMA) {
            snprintf(path, sizeof path, "magic.spells[%u]", s);
            return fail(why, path, "Warmaster Ancients has no magic");
        }
        for (unsigned k = 0; k < b->n[s]; k++) {
            const om_wm_spell *sp = &b->spell[s][k];
            const char *bad = NULL, *key = "";
            if (sp->cast < 2 || sp->cast > 6)
                bad = "the casting value is a D6 score, 2 to 6", key = ".cast";
            else if ((unsigned)sp->effect >= OM_WM_SPELL_EFFECT_COUNT)
                bad = "unknown mechanism", key = ".effect";
            else if (sp->range_cm == 0 && !sp->own_unit && sp->effect != OM_WM_SPELL_NOT_MODELLED)
                bad = "a range of 1cm or more", key = ".range_cm";
            else if (sp->attacks > OM_WM_SPELL_ATTACKS_MAX)
                bad = "too many Attacks", key = ".attacks";
            else if (sp->effect != OM_WM_SPELL_NOT_MODELLED && sp->attacks == 0)
                bad = "a modelled spell gives at least one Attack", key = ".attacks";
            else if (memchr(sp->id, '\0', sizeof sp->id) == NULL || sp->id[0] == '\0')
                bad = "an id is needed", key = ".id";
            if (bad != NULL) {
                snprintf(path, sizeof path, "magic.spells[%u][%u]%s", s, k, key);
                return fail(why, path, bad);
            }
        }
    }
    for (unsigned c = 0; c < OM_WM_TABLE_MAX_CHARACTERS; c++) {
        const bool here = c < t->characters;
        const unsigned side = here ? t->character[c].side : 0;
        snprintf(path, sizeof path, "magic.knows[%u]", c);
        if (b->knows[c] != 0 && (!here || t->character[c].kind != OM_WM_WIZARD))
            return fail(why, path, "only a Wizard casts spells");
        if (here && side < 2 && (b->knows[c] >> b->n[side]) != 0)
            return fail(why, path, "a spell beyond his army's list");
        if (b->anti_magic[c] && !here) {
            snprintf(path, sizeof path, "magic.anti_magic[%u]", c);
            return fail(why, path, "no such character");
        }
    }
    return OM_OK;
}

/* Whether character c is on the table: joined to a unit still there, or alone. */
static bool character_present(const om_wm_table *t, unsigned c)
{
    const int j = t->character[c].joined;
    return j < 0 || t->unit[j].present;
}

bool om_wm_spellbook_active(const om_wm_spellbook *b, const om_wm_table *t, unsigned side)
{
    for (unsigned c = 0; c < t->characters; c++) {
        if (t->character[c].side != side || b->knows[c] == 0)
            continue;
        for (unsigned k = 0; k < b->n[side]; k++)
            if ((b->knows[c] >> k & 1u) && b->spell[side][k].effect != OM_WM_SPELL_NOT_MODELLED)
                return true;
    }
    return false;
}

void om_wm_magic_turn_clear(om_wm_magic_turn *m, unsigned units)
{
    memset(m->affected, 0, sizeof m->affected);
    memset(m->stand_attacks, 0, units * sizeof m->stand_attacks[0]);
    memset(m->unit_attacks, 0, units * sizeof m->unit_attacks[0]);
    memset(m->hits, 0, units * sizeof m->hits[0]);
    memset(m->quiet_hits, 0, units * sizeof m->quiet_hits[0]);
    memset(m->driver, -1, units * sizeof m->driver[0]);
    m->cast = m->worked = m->dispelled = 0;
}

/* ---- Targets ---- */

/* Unit u as a spell's shooting Attacks find it: its values, its position and
 * dense terrain as the table decides them (Shooting > Scores to Hit). */
static void target_side(const om_wm_turn *turn, const om_wm_table *t, unsigned u, om_wm_side *s)
{
    *s = turn->unit[u].side;
    s->position = om_wm_table_position(t, u);
    s->dense_terrain = om_wm_table_in_dense(t, u);
}

/* The to-hit and save of a spell's shooting Attacks at unit u. */
static void spell_scores(const om_wm_turn *turn, const om_wm_table *t, const om_wm_spell *sp,
                         unsigned u, unsigned *to_hit, unsigned *save)
{
    om_wm_side s;
    target_side(turn, t, u, &s);
    *to_hit = om_wm_to_hit_score(turn->rules, &s);
    *save = om_wm_save_score(&s.unit, !sp->no_save);
}

/* Whether unit u may be a target of spell `sp` of Wizard c, sight aside
 * (seen_by). */
static bool eligible_unseen(const om_wm_turn *turn, const om_wm_table *t, om_wm_magic_turn *m,
                            unsigned c, unsigned k, const om_wm_spell *sp, unsigned u)
{
    const om_wm_table_character *ch = &t->character[c];
    const om_wm_table_unit *un = &t->unit[u];
    const bool enemy = un->side != ch->side;
    /* Whom the mechanism falls on: an enemy or a friend, engaged or not. */
    const bool wants_enemy = sp->effect != OM_WM_SPELL_BOOST;
    const bool wants_engaged = sp->effect == OM_WM_SPELL_BOOST || sp->effect == OM_WM_SPELL_WEAKEN;
    if (!un->present || enemy != wants_enemy || om_wm_unit_set_has(&m->affected[k], u) ||
        om_wm_unit_set_has(&turn->magic.barred[ch->side][k], u))
        return false;
    if (sp->own_unit ? ch->joined != (int)u
                     : om_wm_table_character_distance(t, c, u) > sp->range_cm + OM_WM_TABLE_TOUCH_CM)
        return false;
    if (m->engaged[u] < 0)
        m->engaged[u] = (int8_t)om_wm_table_engaged(t, u);
    return (m->engaged[u] != 0) == wants_engaged;
}

/* Whether Wizard c sees unit u as spell `sp` needs: he sees all round from
 * the unit he has joined; stands and terrain block (Casting Spells); a
 * Wizard alone sees nothing here (a simplification: in a battle every
 * character stands with a unit). */
static bool seen_by(const om_wm_turn *turn, const om_wm_table *t, unsigned c,
                    const om_wm_spell *sp, unsigned u)
{
    const int j = t->character[c].joined;
    return !sp->sight ||
           (j >= 0 && om_wm_table_sees(t, turn->command.rules, (unsigned)j, u, true));
}

/* Whether unit u is a target spell `sp` of Wizard c may be cast on. */
static bool eligible(const om_wm_turn *turn, const om_wm_table *t, om_wm_magic_turn *m,
                     unsigned c, unsigned k, const om_wm_spell *sp, unsigned u)
{
    return eligible_unseen(turn, t, m, c, k, sp, u) && seen_by(turn, t, c, sp, u);
}

/* Expected stands' worth of damage of spell `sp` on unit u (the policy). */
static double damage_of(const om_wm_turn *turn, const om_wm_table *t, const om_wm_spell *sp,
                        unsigned u)
{
    const om_wm_unit *v = &turn->unit[u].side.unit;
    const double attacks = sp->d3 ? sp->attacks * D3_MEAN : sp->attacks;
    const double hits = v->hits > 0 ? v->hits : 1.0;
    unsigned to_hit, save;
    switch (sp->effect) {
    case OM_WM_SPELL_MISSILE:
    case OM_WM_SPELL_BURST:
        spell_scores(turn, t, sp, u, &to_hit, &save);
        return attacks * om_dice_test_probability(to_hit, save) / hits;
    case OM_WM_SPELL_BOOST:
    case OM_WM_SPELL_WEAKEN:
        return attacks * (sp->per_stand ? t->unit[u].stands : 1u) * POLICY_COMBAT_HIT_CHANCE /
               POLICY_COMBAT_HITS;
    case OM_WM_SPELL_SHATTER:
        return v->hits >= D6_FACES ? 0.0 : (double)(D6_FACES - v->hits) / D6_FACES;
    default:
        return 0.0;
    }
}

/* Whether a spell falls on every eligible unit in range, not one. */
static bool area_spell(const om_wm_spell *sp)
{
    return sp->effect == OM_WM_SPELL_BURST || (sp->effect == OM_WM_SPELL_BOOST && sp->all_in_range);
}

/* ---- Effects ---- */

/* Spell `sp` of Wizard c takes effect on unit u. */
static void resolve_on(const om_wm_turn *turn, const om_wm_dice_kit *kit, om_wm_table *t,
                       unsigned c, const om_wm_spell *sp, unsigned u, om_dice *d,
                       om_wm_magic_turn *m)
{
    om_wm_table_unit *un = &t->unit[u];
    unsigned n = sp->attacks, to_hit, save, hits;
    om_dice_test test;
    switch (sp->effect) {
    case OM_WM_SPELL_MISSILE:
    case OM_WM_SPELL_BURST:
        if (sp->d3) {
            n = 0;
            for (unsigned i = 0; i < sp->attacks; i++)
                n += (om_dice_roll_d6(d) + 1u) / 2u;
        }
        spell_scores(turn, t, sp, u, &to_hit, &save);
        om_wm_dice_kit_test(kit, to_hit, save, &test);
        hits = om_dice_hits(d, &test, n);
        if (sp->drive_back && t->character[c].joined >= 0) {
            /* The Wizard's unit drives it back: the closest Wizard's, as for
             * the closest shooter (Driving Back Enemies). */
            const unsigned j = (unsigned)t->character[c].joined;
            m->hits[u] = om_wm_sat8(m->hits[u] + hits);
            if (m->driver[u] < 0 ||
                om_wm_table_distance(t, j, u) < om_wm_table_distance(t, (unsigned)m->driver[u], u))
                m->driver[u] = (int8_t)j;
        } else {
            m->quiet_hits[u] = om_wm_sat8(m->quiet_hits[u] + hits);
        }
        break;
    case OM_WM_SPELL_BOOST:
    case OM_WM_SPELL_WEAKEN: {
        const int sign = sp->effect == OM_WM_SPELL_BOOST ? 1 : -1;
        if (sp->per_stand) {
            const int a = m->stand_attacks[u] + sign * (int)sp->attacks;
            m->stand_attacks[u] = (int8_t)(a > INT8_MAX ? INT8_MAX : a < INT8_MIN ? INT8_MIN : a);
        } else {
            m->unit_attacks[u] = om_wm_sat8(m->unit_attacks[u] + sp->attacks);
        }
        /* "Every stand, including characters that have joined the unit": a
         * joined character's bonus grows as a stand's Attacks do. */
        for (unsigned j = 0; sign > 0 && sp->with_characters && j < t->characters; j++)
            if (t->character[j].joined == (int)u)
                m->unit_attacks[u] = om_wm_sat8(m->unit_attacks[u] + sp->attacks);
        break;
    }
    case OM_WM_SPELL_SHATTER:
        /* Roll a D6: above the target's Hits, one stand is destroyed and removed
         * (Kislev lists, Freeze); never driven back. */
        if (om_dice_roll_d6(d) > turn->unit[u].side.unit.hits && un->stands > 0) {
            un->stands--;
            if (un->stands == 0) {
                /* Gone: its enemies may no longer be engaged. */
                un->present = false;
                memset(m->engaged, -1, t->units * sizeof m->engaged[0]);
            }
            om_wm_table_update(t, u);
        }
        break;
    default:
        break;
    }
}

/* Whether an enemy anti-magic character within reach of Wizard c dispels his
 * spell: one attempt per spell, whoever makes it (Dwarf lists, Runesmith). */
static bool anti_magicked(const om_wm_spellbook *b, const om_wm_table *t, unsigned c, om_dice *d)
{
    const om_wm_table_character *ch = &t->character[c];
    for (unsigned r = 0; r < t->characters; r++) {
        const om_wm_table_character *rs = &t->character[r];
        double dx, dy;
        if (!b->anti_magic[r] || rs->side == ch->side || !character_present(t, r))
            continue;
        dx = rs->at.x - ch->at.x;
        dy = rs->at.y - ch->at.y;
        if (sqrt(dx * dx + dy * dy) - rs->radius_cm - ch->radius_cm >
            OM_WM_ANTI_MAGIC_CM + OM_WM_TABLE_TOUCH_CM)
            continue;
        return om_dice_roll_d6(d) >= OM_WM_ANTI_MAGIC_SCORE;
    }
    return false;
}

/* Wizard c chooses his spell and its target (-1: every eligible unit); the
 * spell's index, or -1 when none has an eligible target. */
static int choose(const om_wm_turn *turn, const om_wm_table *t, om_wm_magic_turn *m,
                  unsigned c, int *target)
{
    const om_wm_spellbook *b = &turn->magic;
    const unsigned side = t->character[c].side;
    double best = 0.0;
    int best_k = -1;
    for (unsigned k = 0; k < b->n[side]; k++) {
        const om_wm_spell *sp = &b->spell[side][k];
        const double p = om_wm_spell_cast_chance(sp->cast);
        double area = 0.0;
        int one = -1;
        double one_value = 0.0;
        if (!(b->knows[c] >> k & 1u) || sp->effect == OM_WM_SPELL_NOT_MODELLED)
            continue;
        for (unsigned u = 0; u < t->units; u++) {
            double v;
            if (!eligible_unseen(turn, t, m, c, k, sp, u))
                continue;
            v = damage_of(turn, t, sp, u);
            /* Sight, the costly test, only for a target that would count. */
            if (area_spell(sp) ? !seen_by(turn, t, c, sp, u)
                               : v <= one_value || !seen_by(turn, t, c, sp, u))
                continue;
            area += v;
            if (v > one_value) {
                one_value = v;
                one = (int)u;
            }
        }
        if (area_spell(sp) ? p * area > best : p * one_value > best) {
            best = area_spell(sp) ? p * area : p * one_value;
            best_k = (int)k;
            *target = area_spell(sp) ? -1 : one;
        }
    }
    return best_k;
}

void om_wm_magic_phase(const om_wm_turn *turn, const om_wm_dice_kit *kit, om_wm_table *t,
                       unsigned side, om_dice *d, om_wm_magic_turn *m, om_wm_trace *trace)
{
    const om_wm_spellbook *b = &turn->magic;
    memset(m->engaged, -1, t->units * sizeof m->engaged[0]);
    for (unsigned c = 0; c < t->characters; c++) {
        const om_wm_spell *sp;
        int k, target = -1;
        if (t->character[c].side != side || b->knows[c] == 0 || !character_present(t, c))
            continue;
        if ((k = choose(turn, t, m, c, &target)) < 0)
            continue;
        sp = &b->spell[side][k];
        m->cast++;
        {
            /* The casting roll, its die kept for the trace. */
            const unsigned face = om_dice_roll_d6(d);
            const bool cast = om_wm_spell_casts(face, sp->cast);
            const bool dispelled = cast && anti_magicked(b, t, c, d);
            if (trace != NULL) {
                om_wm_event e = om_wm_event_make(trace, OM_WM_EV_SPELL, target, (int)c);
                e.v[0] = (int16_t)k;
                e.v[1] = (int16_t)sp->cast;
                e.v[2] = dispelled;
                e.dice[0] = (uint8_t)face;
                e.flags = cast ? OM_WM_EVF_PASSED : 0;
                om_wm_trace_put(trace, &e);
            }
            if (!cast)
                continue;
            if (dispelled) {
                m->dispelled++;
                continue;
            }
        }
        m->worked++;
        /* A unit is affected by the same spell once a turn (Casting Spells). */
        if (target >= 0) {
            om_wm_unit_set_add(&m->affected[k], (unsigned)target);
            resolve_on(turn, kit, t, c, sp, (unsigned)target, d, m);
            continue;
        }
        for (unsigned u = 0; u < t->units; u++) {
            if (!eligible(turn, t, m, c, (unsigned)k, sp, u))
                continue;
            om_wm_unit_set_add(&m->affected[k], u);
            resolve_on(turn, kit, t, c, sp, u, d, m);
        }
    }
}
