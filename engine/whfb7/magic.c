/*
 * magic.c: the magic phase (WHFB 7th edition, The Magic Phase: Casting
 * Spells, Irresistible Force & Miscast, Dispelling, Double 1s & 6s, the
 * Miscast Table) and the 48 spells of the eight lores (The Lores of Magic) as
 * data: each row says what its dice do (hits of a Strength, modifiers of an
 * augment or hex, rules it gives), and the few damage spells whose hits are
 * not plain dice name a shared mechanism (special). The magic kind resolves
 * one casting attempt against the opponent's dispel and applies the spell's
 * damage to the target like shooting, with its panic.
 */
#include <string.h>

#include "wh7_int.h"

/* Shorthands for the table: kinds and specials. */
#define DMG OM_WH7_SPELL_DAMAGE
#define AUG OM_WH7_SPELL_AUGMENT
#define HEX OM_WH7_SPELL_HEX
#define OTH OM_WH7_SPELL_OTHER

/* The spells of the eight lores (The Lores of Magic). Casting values of 0 are
 * illegible in the rulebook (digest A15): a scenario must give them. A member
 * left out of a row is zero: no dice, no Strength, no modifiers, no rules
 * given, OM_WH7_SPECIAL_NONE. */
static const om_wh7_spell om_wh7_spell_table[] = {
    /* Lore of Fire: every spell is flaming. */
    {.id = "fireball", .name = "Fireball", .lore = OM_WH7_LORE_FIRE, .number = 1,
     .casting_value = 5, .magic_missile = true, .kind = DMG, .hit_dice = 1, .strength = 4,
     .flaming = true, .effect = "magic missile: D6 S4 flaming hits"},
    {.id = "flaming-sword-of-rhuin", .name = "Flaming Sword of Rhuin", .lore = OM_WH7_LORE_FIRE,
     .number = 2, .casting_value = 5, .remains_in_play = true, .kind = OTH, .flaming = true,
     .effect = "not modelled: the caster's own weapon (a character augment)"},
    {.id = "the-burning-head", .name = "The Burning Head", .lore = OM_WH7_LORE_FIRE, .number = 3,
     .casting_value = 8, .kind = DMG, .strength = 4, .flaming = true,
     .special = OM_WH7_SPECIAL_LINE,
     .effect = "an 18\" line: an S4 flaming hit on the model of each rank; panic on any wound"},
    {.id = "fiery-blast", .name = "Fiery Blast", .lore = OM_WH7_LORE_FIRE, .number = 4,
     .casting_value = 8, .magic_missile = true, .kind = DMG, .hit_dice = 2, .strength = 4,
     .flaming = true, .effect = "magic missile: 2D6 S4 flaming hits"},
    {.id = "conflagration-of-doom", .name = "Conflagration of Doom", .lore = OM_WH7_LORE_FIRE,
     .number = 5, .casting_value = 11, .kind = DMG, .hit_dice = 1, .strength = 4, .flaming = true,
     .special = OM_WH7_SPECIAL_CONFLAGRATION,
     .effect = "D6 S4 flaming hits, plus the caster's die while it beats the opponent's (A17)"},
    {.id = "wall-of-fire", .name = "Wall of Fire", .lore = OM_WH7_LORE_FIRE, .number = 6,
     .casting_value = 12, .remains_in_play = true, .kind = DMG, .strength = 4, .flaming = true,
     .special = OM_WH7_SPECIAL_FRONT_RANK,
     .effect = "an S4 flaming hit on every front-rank model (its effect on moving is not "
               "modelled)"},
    /* Lore of Metal. */
    {.id = "rule-of-burning-iron", .name = "Rule of Burning Iron", .lore = OM_WH7_LORE_METAL,
     .number = 1, .casting_value = 0, .kind = DMG, .hits_fixed = 1, .flaming = true,
     .no_armour = true, .special = OM_WH7_SPECIAL_BURNING_IRON,
     .effect = "one flaming hit, no armour save, Strength by the model's save (CV illegible: A15)"},
    {.id = "commandment-of-brass", .name = "Commandment of Brass", .lore = OM_WH7_LORE_METAL,
     .number = 2, .casting_value = 6, .kind = OTH,
     .effect = "not modelled: a war machine or chariot cannot move or shoot"},
    {.id = "transmutation-of-lead", .name = "Transmutation of Lead", .lore = OM_WH7_LORE_METAL,
     .number = 3, .casting_value = 7, .kind = HEX,
     .mods = {.to_hit = -1, .to_wound = -1, .armour = 1},
     .effect = "an engaged enemy: -1 to hit and to wound in close combat, armour one worse"},
    {.id = "distillation-of-molten-silver", .name = "Distillation of Molten Silver",
     .lore = OM_WH7_LORE_METAL, .number = 4, .casting_value = 8, .magic_missile = true, .kind = DMG,
     .hit_dice = 2, .strength = 4, .flaming = true, .effect = "magic missile: 2D6 S4 flaming hits"},
    {.id = "the-law-of-gold", .name = "The Law of Gold", .lore = OM_WH7_LORE_METAL, .number = 5,
     .casting_value = 8, .kind = OTH, .effect = "not modelled: a magic item unusable"},
    {.id = "the-spirit-of-the-forge", .name = "The Spirit of the Forge", .lore = OM_WH7_LORE_METAL,
     .number = 6, .casting_value = 12, .kind = DMG, .hit_dice = 2, .flaming = true,
     .no_armour = true, .special = OM_WH7_SPECIAL_BURNING_IRON,
     .effect = "2D6 models take the Burning Iron hit"},
    /* Lore of Shadow. */
    {.id = "steed-of-shadows", .name = "Steed of Shadows", .lore = OM_WH7_LORE_SHADOW, .number = 1,
     .casting_value = 5, .kind = OTH, .effect = "not modelled: a move"},
    {.id = "creeping-death", .name = "Creeping Death", .lore = OM_WH7_LORE_SHADOW, .number = 2,
     .casting_value = 6, .magic_missile = true, .kind = DMG, .hit_dice = 3, .strength = 1,
     .no_armour = true, .effect = "magic missile: 3D6 S1 hits, no armour save"},
    {.id = "crown-of-taidron", .name = "Crown of Taidron", .lore = OM_WH7_LORE_SHADOW, .number = 3,
     .casting_value = 8, .kind = DMG, .hit_dice = 1, .strength = 4,
     .effect = "D6 S4 hits on the target (other units within 12\" are not modelled)"},
    {.id = "shades-of-death", .name = "Shades of Death", .lore = OM_WH7_LORE_SHADOW, .number = 4,
     .casting_value = 9, .remains_in_play = true, .kind = AUG, .grant = OM_WH7_RULE_FEAR,
     .effect = "a friendly unit causes Fear, or Terror if it already causes Fear"},
    {.id = "unseen-lurker", .name = "Unseen Lurker", .lore = OM_WH7_LORE_SHADOW, .number = 5,
     .casting_value = 11, .kind = OTH, .effect = "not modelled: a move"},
    {.id = "pit-of-shades", .name = "Pit of Shades", .lore = OM_WH7_LORE_SHADOW, .number = 6,
     .casting_value = 12, .kind = DMG, .special = OM_WH7_SPECIAL_PIT,
     .effect = "a 3\" template on the unit's middle: each model under it passes an Initiative "
               "test or is removed (A31)"},
    /* Lore of Beasts. */
    {.id = "the-bears-anger", .name = "The Bear's Anger", .lore = OM_WH7_LORE_BEASTS, .number = 1,
     .casting_value = 4, .remains_in_play = true, .kind = OTH,
     .effect = "not modelled: a character augment"},
    {.id = "the-oxen-stands", .name = "The Oxen Stands", .lore = OM_WH7_LORE_BEASTS, .number = 2,
     .casting_value = 5, .kind = OTH, .effect = "not modelled: a rally"},
    {.id = "the-crows-feast", .name = "The Crow's Feast", .lore = OM_WH7_LORE_BEASTS, .number = 3,
     .casting_value = 7, .magic_missile = true, .kind = DMG, .hit_dice = 2, .strength = 3,
     .effect = "magic missile: 2D6 S3 hits"},
    {.id = "the-beast-cowers", .name = "The Beast Cowers", .lore = OM_WH7_LORE_BEASTS, .number = 4,
     .casting_value = 7, .kind = HEX, .mods = {.mounts_idle = true},
     .effect = "the enemy's creatures (not riders) do not attack in the close combat phase"},
    {.id = "the-hunters-spear", .name = "The Hunter's Spear", .lore = OM_WH7_LORE_BEASTS,
     .number = 5, .casting_value = 8, .magic_missile = true, .kind = DMG, .hits_fixed = 1,
     .strength = 6, .no_armour = true, .special = OM_WH7_SPECIAL_THROUGH_RANKS,
     .effect = "magic missile: one S6 hit, no armour save, through the ranks like a bolt thrower"},
    {.id = "the-wolf-hunts", .name = "The Wolf Hunts", .lore = OM_WH7_LORE_BEASTS, .number = 6,
     .casting_value = 9, .kind = OTH, .effect = "not modelled: a move"},
    /* Lore of Heavens. */
    {.id = "portent-of-far", .name = "Portent of Far", .lore = OM_WH7_LORE_HEAVENS, .number = 1,
     .casting_value = 5, .kind = AUG, .mods = {.reroll_ones = true},
     .effect = "a friendly unit re-rolls 1s to hit and to wound"},
    {.id = "second-sign-of-amul", .name = "Second Sign of Amul", .lore = OM_WH7_LORE_HEAVENS,
     .number = 2, .casting_value = 5, .kind = OTH,
     .effect = "not modelled: D3 re-rolls of the player's choice"},
    {.id = "celestial-shield", .name = "Celestial Shield", .lore = OM_WH7_LORE_HEAVENS, .number = 3,
     .casting_value = 7, .remains_in_play = true, .kind = AUG, .mods = {.missile_ward = 4},
     .effect = "a friendly unit has a 4+ ward save against missiles"},
    {.id = "forked-lightning", .name = "Forked Lightning", .lore = OM_WH7_LORE_HEAVENS, .number = 4,
     .casting_value = 6, .kind = DMG, .hit_dice = 1, .strength = 4, .effect = "D6 S4 hits"},
    {.id = "uranons-thunderbolt", .name = "Uranon's Thunderbolt", .lore = OM_WH7_LORE_HEAVENS,
     .number = 5, .casting_value = 9, .kind = DMG, .hit_dice = 1, .strength = 4, .no_armour = true,
     .effect = "D6 S4 hits, no armour save"},
    {.id = "the-comet-of-casandora", .name = "The Comet of Casandora", .lore = OM_WH7_LORE_HEAVENS,
     .number = 6, .casting_value = 12, .remains_in_play = true, .kind = OTH,
     .effect = "not modelled: strikes over several turns (A16)"},
    /* Lore of Light. */
    {.id = "burning-gaze", .name = "Burning Gaze", .lore = OM_WH7_LORE_LIGHT, .number = 1,
     .casting_value = 5, .magic_missile = true, .kind = DMG, .hit_dice = 1, .strength = 4,
     .strength_undead = 6, .flaming = true,
     .effect = "magic missile: D6 S4 flaming hits, S6 on Undead"},
    {.id = "phas-illumination", .name = "Pha's Illumination", .lore = OM_WH7_LORE_LIGHT,
     .number = 2, .casting_value = 5, .remains_in_play = true, .kind = OTH,
     .effect = "not modelled: a character augment"},
    {.id = "healing-energy", .name = "Healing Energy", .lore = OM_WH7_LORE_LIGHT, .number = 3,
     .casting_value = 5, .kind = OTH, .effect = "not modelled: a wound healed"},
    {.id = "dazzling-brightness", .name = "Dazzling Brightness", .lore = OM_WH7_LORE_LIGHT,
     .number = 4, .casting_value = 6, .kind = HEX, .mods = {.ws = 1},
     .effect = "an engaged enemy unit has WS 1 for the close combat phase"},
    {.id = "guardian-light", .name = "Guardian Light", .lore = OM_WH7_LORE_LIGHT, .number = 5,
     .casting_value = 8, .remains_in_play = true, .kind = AUG, .grant = OM_WH7_RULE_ITP,
     .effect = "friendly units become immune to psychology (their rally is not modelled)"},
    {.id = "light-of-battle", .name = "(title illegible)", .lore = OM_WH7_LORE_LIGHT, .number = 6,
     .casting_value = 0, .kind = DMG, .hit_dice = 1, .strength = 5, .strength_undead = 6,
     .effect = "D6 S5 hits, S6 on Undead (title and CV illegible: A15; the id is ours)"},
    /* Lore of Life. */
    {.id = "mistress-of-the-marsh", .name = "Mistress of the Marsh", .lore = OM_WH7_LORE_LIFE,
     .number = 1, .casting_value = 4, .kind = HEX, .mods = {.halve_flee = true},
     .effect = "an enemy unit's flee and pursuit rolls are halved (its half speed is not "
               "modelled)"},
    {.id = "master-of-the-wood", .name = "Master of the Wood", .lore = OM_WH7_LORE_LIFE,
     .number = 2, .casting_value = 6, .kind = DMG, .hit_dice = 1, .strength = 4,
     .effect = "D6 S4 hits, S5 in a wood (in_feature)", .feature_bonus = true},
    {.id = "gift-of-life", .name = "Gift of Life", .lore = OM_WH7_LORE_LIFE, .number = 3,
     .casting_value = 7, .kind = OTH, .effect = "not modelled: wounds healed"},
    {.id = "the-howler-wind", .name = "The Howler Wind", .lore = OM_WH7_LORE_LIFE, .number = 4,
     .casting_value = 7, .remains_in_play = true, .kind = OTH,
     .effect = "not modelled: no shooting of S4 or less near the wizard"},
    {.id = "the-rain-lord", .name = "The Rain Lord", .lore = OM_WH7_LORE_LIFE, .number = 5,
     .casting_value = 8, .kind = HEX, .mods = {.soaked = true},
     .effect = "an enemy unit shoots at -1, -2 with armour piercing weapons"},
    {.id = "master-of-stone", .name = "Master of Stone", .lore = OM_WH7_LORE_LIFE, .number = 6,
     .casting_value = 8, .kind = DMG, .hit_dice = 1, .strength = 5,
     .effect = "D6 S5 hits, S6 inside the feature (in_feature)", .feature_bonus = true},
    /* Lore of Death. */
    {.id = "dark-hand-of-death", .name = "Dark Hand of Death", .lore = OM_WH7_LORE_DEATH,
     .number = 1, .casting_value = 5, .magic_missile = true, .kind = DMG, .hit_dice = 1,
     .strength = 4, .effect = "magic missile: D6 S4 hits"},
    {.id = "steal-soul", .name = "Steal Soul", .lore = OM_WH7_LORE_DEATH, .number = 2,
     .casting_value = 8, .kind = DMG, .hits_fixed = 1, .no_armour = true,
     .effect = "a model loses 1 Wound, no armour save (an automatic wound; the caster's gain is "
               "not modelled)"},
    {.id = "wind-of-death", .name = "Wind of Death", .lore = OM_WH7_LORE_DEATH, .number = 3,
     .casting_value = 8, .magic_missile = true, .kind = DMG, .hit_dice = 2, .strength = 4,
     .effect = "magic missile: 2D6 S4 hits"},
    {.id = "walking-death", .name = "Walking Death", .lore = OM_WH7_LORE_DEATH, .number = 4,
     .casting_value = 9, .remains_in_play = true, .kind = AUG, .grant = OM_WH7_RULE_FEAR,
     .effect = "a friendly unit causes Fear, or Terror if it already causes Fear"},
    {.id = "doom-and-darkness", .name = "Doom & Darkness!", .lore = OM_WH7_LORE_DEATH, .number = 5,
     .casting_value = 9, .kind = HEX, .mods = {.leadership = -3},
     .effect = "an enemy unit tests Leadership at -3 (not if immune to psychology)"},
    {.id = "drain-life", .name = "Drain Life", .lore = OM_WH7_LORE_DEATH, .number = 6,
     .casting_value = 10, .kind = DMG, .hit_dice = 1, .strength = 3, .no_armour = true,
     .effect = "D6 S3 hits, no armour save"},
};

#define WH7_SPELL_COUNT (sizeof om_wh7_spell_table / sizeof om_wh7_spell_table[0])
_Static_assert(WH7_SPELL_COUNT == OM_WH7_LORE_COUNT * OM_WH7_SPELLS_PER_LORE,
               "six spells in each of the eight lores");

const char *const om_wh7_lore_names[OM_WH7_LORE_COUNT] = {
    "fire", "metal", "shadow", "beasts", "heavens", "light", "life", "death"};

/* Casting (Casting Spells; Irresistible Force & Miscast): totals of 1 or 2
 * always fail; two natural 1s miscast, two natural 6s are irresistible. */
#define WH7_CAST_ALWAYS_FAILS 2u
#define WH7_DOUBLE 2u
/* The Miscast Table's results (2D6). */
#define WH7_MISCAST_REMOVED 2u
#define WH7_MISCAST_S6_MAX 4u
#define WH7_MISCAST_FREE_SPELL_MAX 6u
#define WH7_MISCAST_LOSE_DICE 7u
#define WH7_MISCAST_S4_MAX 9u
#define WH7_MISCAST_S8_MAX 11u
#define WH7_MISCAST_IRRESISTIBLE 12u
/* Strengths of the miscast hits (Miscast Table). */
#define WH7_MISCAST_S_REMOVED 10u
#define WH7_MISCAST_S_CONTACT 6u
#define WH7_MISCAST_S_SEVEN 2u
#define WH7_MISCAST_S_EIGHT 4u
#define WH7_MISCAST_S_TEN 8u
/* Pit of Shades' small round template: 3" across; partly covered models are
 * hit on a 4+ (Templates). */
#define WH7_PIT_RADIUS_IN 1.5
#define WH7_PARTIAL_HIT 4u
/* Conflagration of Doom's opposed dice, and the Burning Iron's Strength by
 * save: no save S1, 6+ S2 ... 1+ S7 (Lore of Metal). */
#define WH7_BURNING_IRON_BEST 7u

const om_wh7_spell *om_wh7_spell_get(om_wh7_lore lore, unsigned number)
{
    if ((unsigned)lore >= OM_WH7_LORE_COUNT || number < 1 || number > OM_WH7_SPELLS_PER_LORE)
        return NULL;
    return &om_wh7_spell_table[(unsigned)lore * OM_WH7_SPELLS_PER_LORE + number - 1u];
}

const om_wh7_spell *om_wh7_spell_find(const char *id)
{
    for (size_t i = 0; i < WH7_SPELL_COUNT; i++)
        if (strcmp(om_wh7_spell_table[i].id, id) == 0)
            return &om_wh7_spell_table[i];
    return NULL;
}

size_t om_wh7_spell_count(void) { return WH7_SPELL_COUNT; }

const om_wh7_spell *om_wh7_spell_at(size_t i)
{
    return i < WH7_SPELL_COUNT ? &om_wh7_spell_table[i] : NULL;
}

/* Add two modifiers, saturating each field. */
static int8_t add8(int a, int b)
{
    int v = a + b;
    return (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
}

om_status om_wh7_spell_apply(const om_wh7_spell *sp, om_wh7_side *side)
{
    om_wh7_modifiers *m = &side->mods;
    if (sp->kind != OM_WH7_SPELL_AUGMENT && sp->kind != OM_WH7_SPELL_HEX)
        return OM_ERROR(OM_EUNSUPPORTED, "spell '%s' has no effect on a unit in combat to apply "
                        "(%s)", sp->id, sp->effect);
    m->to_hit = add8(m->to_hit, sp->mods.to_hit);
    m->to_wound = add8(m->to_wound, sp->mods.to_wound);
    m->armour = add8(m->armour, sp->mods.armour);
    m->attacks = add8(m->attacks, sp->mods.attacks);
    m->strength = add8(m->strength, sp->mods.strength);
    m->toughness = add8(m->toughness, sp->mods.toughness);
    m->leadership = add8(m->leadership, sp->mods.leadership);
    if (sp->mods.ws)
        m->ws = sp->mods.ws;
    if (sp->mods.missile_ward && (m->missile_ward == 0 || sp->mods.missile_ward < m->missile_ward))
        m->missile_ward = sp->mods.missile_ward;
    m->reroll_ones |= sp->mods.reroll_ones;
    m->halve_flee |= sp->mods.halve_flee;
    m->mounts_idle |= sp->mods.mounts_idle;
    m->soaked |= sp->mods.soaked;
    /* Fear becomes Terror on a unit that already causes Fear. */
    if (sp->grant & OM_WH7_RULE_FEAR)
        side->unit.traits.rules |= (side->unit.traits.rules & OM_WH7_RULE_FEAR)
                                       ? OM_WH7_RULE_TERROR : OM_WH7_RULE_FEAR;
    else
        side->unit.traits.rules |= sp->grant;
    return OM_OK;
}

om_wh7_cast om_wh7_cast_result(const unsigned *faces, unsigned n, unsigned bonus, unsigned cv)
{
    unsigned ones = 0, sixes = 0, total = bonus;
    for (unsigned i = 0; i < n; i++) {
        ones += faces[i] == 1u;
        sixes += faces[i] == 6u;
        total += faces[i];
    }
    /* A miscast beats irresistible force (Irresistible Force & Miscast). */
    if (ones >= WH7_DOUBLE)
        return OM_WH7_CAST_MISCAST;
    if (sixes >= WH7_DOUBLE)
        return OM_WH7_CAST_IRRESISTIBLE;
    return total > WH7_CAST_ALWAYS_FAILS && total >= cv ? OM_WH7_CAST_CAST : OM_WH7_CAST_FAIL;
}

bool om_wh7_dispel_holds(const unsigned *faces, unsigned n, unsigned bonus, unsigned total)
{
    unsigned ones = 0, sixes = 0, sum = bonus;
    for (unsigned i = 0; i < n; i++) {
        ones += faces[i] == 1u;
        sixes += faces[i] == 6u;
        sum += faces[i];
    }
    /* Failure takes precedence over success (Double 1s & 6s). */
    if (ones >= WH7_DOUBLE)
        return false;
    if (sixes >= WH7_DOUBLE)
        return true;
    return sum >= total;
}

void om_wh7_cast_probabilities(unsigned n, unsigned bonus, unsigned cv, double p[4])
{
    unsigned faces[8], combos = 1;
    for (unsigned k = 0; k < 4; k++)
        p[k] = 0.0;
    if (n > 7)
        n = 7;
    for (unsigned i = 0; i < n; i++)
        combos *= 6u;
    for (unsigned code = 0; code < combos; code++) {
        unsigned x = code;
        for (unsigned i = 0; i < n; i++) {
            faces[i] = x % 6u + 1u;
            x /= 6u;
        }
        p[om_wh7_cast_result(faces, n, bonus, cv)] += 1.0 / combos;
    }
}

/* The casting value of the attempt: the scenario's, else the table's. */
static unsigned casting_value(const om_wh7_combat *c, const om_wh7_spell *sp)
{
    return c->magic.casting_value ? c->magic.casting_value : sp->casting_value;
}

/* The Burning Iron's Strength against a save (Lore of Metal): no save S1,
 * 6+ S2, 5+ S3, 4+ S4, 3+ S5, 2+ S6, 1+ or better S7. */
static unsigned burning_iron_strength(unsigned save)
{
    return save >= OM_WH7_NEVER ? 1u : WH7_BURNING_IRON_BEST + 1u - (save < 1u ? 1u : save);
}

om_status om_wh7_magic_prepare(om_wh7_prepared *p)
{
    const om_wh7_combat *c = &p->c;
    const om_wh7_spell *sp = om_wh7_spell_get(c->magic.lore, c->magic.spell);
    wh7_spellcast *m = &p->spell;
    unsigned n_max = (unsigned)c->side[1].unit.models + c->side[1].unit.characters;
    om_status st;

    m->sp = sp;
    m->cv = casting_value(c, sp);
    if (sp->kind == OM_WH7_SPELL_DAMAGE) {
        for (unsigned t = 0; t < WH7_TARGETS; t++) {
            const wh7_target_info *ti = &p->side[1].target[t];
            if (!ti->present)
                continue;
            for (unsigned s = 0; s < WH7_MACHINE_STRENGTHS; s++) {
                wh7_attack *at = &m->on[t][s];
                at->chain = om_wh7_hit_chain(p, 0, t, s, sp->no_armour, 0, sp->flaming, true,
                                          sp->magic_missile);
                /* Strength 0: the hit wounds automatically (Steal Soul). */
                if (s == 0 && at->chain.hit == 1)
                    at->chain.wound = 1;
                at->doubled = sp->flaming && ti->flammable;
                if ((st = om_wh7_attack_tables(p, at, ti->w, n_max ? n_max : 1u)) != OM_OK)
                    return st;
            }
        }
        /* The target rank and file's save, for the Burning Iron. */
        {
            om_wh7_save_case how;
            memset(&how, 0, sizeof how);
            how.steed = c->side[1].unit.mount.profile.name[0] != '\0' &&
                        c->side[1].unit.mount.profile.w <= 1;
            how.mounted = c->side[1].unit.mount.profile.name[0] != '\0';
            m->iron_strength = burning_iron_strength(
                om_wh7_armour_save(&c->side[1].unit.equipment, &how));
        }
    }
    /* Miscast hits with no armour save on the models touching the caster. */
    if (p->side[0].target[WH7_TARGET_RF].present) {
        m->contact_s10.chain = om_wh7_hit_chain(p, 1, WH7_TARGET_RF, WH7_MISCAST_S_REMOVED, true, 0,
                                             false, true, false);
        m->contact_s6.chain = om_wh7_hit_chain(p, 1, WH7_TARGET_RF, WH7_MISCAST_S_CONTACT, true, 0,
                                            false, true, false);
        if ((st = om_wh7_attack_tables(p, &m->contact_s10, p->side[0].target[WH7_TARGET_RF].w,
                                    c->magic.caster_contacts)) ||
            (st = om_wh7_attack_tables(p, &m->contact_s6, p->side[0].target[WH7_TARGET_RF].w,
                                    c->magic.caster_contacts)))
            return st;
    }
    return OM_OK;
}

/* Roll n dice through the dice source into faces[]. */
static void roll_faces(om_dice *d, unsigned *faces, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        faces[i] = om_dice_roll_d6(d);
}

/* One hit of Strength s with no armour save on the caster (Miscast Table):
 * to wound against his Toughness, his ward. */
static void hit_caster(const om_wh7_prepared *p, om_dice *d, unsigned s, om_wh7_outcome *o)
{
    const om_wh7_magic *mg = &p->c.magic;
    om_wh7_chain ch;
    memset(&ch, 0, sizeof ch);
    ch.hit = 1;
    ch.wound = (uint8_t)om_wh7_to_wound(s, mg->caster.t);
    ch.armour = OM_WH7_NEVER;
    ch.ward = mg->caster_ward ? mg->caster_ward : OM_WH7_NEVER;
    ch.regen = OM_WH7_NEVER;
    if (om_wh7_chain_roll(d, &ch) == OM_WH7_BLOW_NONE)
        return;
    o->caster_wounds++;
    if (o->caster_wounds >= mg->caster.w)
        o->caster_slain = 1;
}

/* The Miscast Table (2D6). Returns true if the spell is cast anyway (12:
 * with irresistible force, A14). Effects on the turn's later phases (lost
 * dice, the phase ending, a lost level, the opponent's free spell) are
 * recorded by the roll only. */
static bool miscast(const om_wh7_prepared *p, om_dice *d, wh7_state *st, om_wh7_outcome *o)
{
    const wh7_spellcast *m = &p->spell;
    unsigned roll = om_dice_roll_sum(d, 2, NULL), contacts = p->c.magic.caster_contacts;
    unsigned kills, excess;
    o->miscast = (uint8_t)roll;
    if (roll == WH7_MISCAST_REMOVED) {
        o->caster_slain = 1;
        if (contacts > 0)
            om_wh7_land(p, d, st, 0, WH7_TARGET_RF, &m->contact_s10, contacts, &kills, &excess);
    } else if (roll <= WH7_MISCAST_S6_MAX) {
        hit_caster(p, d, WH7_MISCAST_S_CONTACT, o);
        if (contacts > 0)
            om_wh7_land(p, d, st, 0, WH7_TARGET_RF, &m->contact_s6, contacts, &kills, &excess);
    } else if (roll <= WH7_MISCAST_FREE_SPELL_MAX) {
        /* The opponent's free spell: not modelled (README.md). */
    } else if (roll == WH7_MISCAST_LOSE_DICE) {
        hit_caster(p, d, WH7_MISCAST_S_SEVEN, o);
    } else if (roll <= WH7_MISCAST_S4_MAX) {
        hit_caster(p, d, WH7_MISCAST_S_EIGHT, o);
    } else if (roll <= WH7_MISCAST_S8_MAX) {
        hit_caster(p, d, WH7_MISCAST_S_TEN, o);
    } else {
        return true;
    }
    return false;
}

/* Conflagration of Doom's extra hits (digest A17): both roll a D6; while the
 * caster's is higher, add it and roll again. */
static unsigned conflagration(om_dice *d)
{
    unsigned extra = 0;
    for (;;) {
        unsigned mine = om_dice_roll_d6(d), theirs = om_dice_roll_d6(d);
        if (mine <= theirs)
            return extra;
        extra += mine;
    }
}

/* Ranks of side e alive now (along an 18" line: every one). */
static unsigned ranks_alive(const om_wh7_prepared *p, const wh7_state *st, int e)
{
    unsigned total = wh7_models_alive(&p->side[e], &st->u[e]), files = p->c.side[e].unit.files;
    return (total + files - 1u) / files;
}

/* Pit of Shades: the 3" template on the middle of the unit; each model wholly
 * under it, and each partly under it on a 4+, takes an Initiative test (a
 * D6 of I or less, a 6 failing: A31) or is removed whatever its protection. */
static unsigned pit_of_shades(const om_wh7_prepared *p, om_dice *d, wh7_state *st)
{
    const om_wh7_side *t = &p->c.side[1];
    unsigned total = wh7_models_alive(&p->side[1], &st->u[1]);
    unsigned ranks = (total + t->unit.files - 1u) / t->unit.files, under, removed, ini;
    double w, dd;
    om_wh7_template_cover cov;
    om_wh7_base_in(p, 1, &w, &dd);
    om_wh7_round_template(total, t->unit.files, w, dd, 0.0, 0.0, 0.5 * ranks * dd,
                          WH7_PIT_RADIUS_IN, &cov);
    under = cov.full + (cov.centre ? 1u : 0u) + om_dice_roll_count(d, cov.partial, WH7_PARTIAL_HIT);
    ini = t->unit.profile.i >= 6u ? 5u : t->unit.profile.i;
    removed = om_dice_roll_count(d, under, ini + 1u);
    om_wh7_remove_models(p, st, 1, removed);
    return under;
}

/* Through the ranks (The Hunter's Spear): S, then S - 1 behind while each
 * model is slain. */
static unsigned through_ranks(const om_wh7_prepared *p, om_dice *d, wh7_state *st, unsigned s)
{
    unsigned hits = 0, ranks = ranks_alive(p, st, 1), kills, excess;
    for (unsigned r = 0; r < ranks && s >= 1 && st->u[1].rf > 0; r++, s--) {
        hits++;
        om_wh7_land(p, d, st, 1, WH7_TARGET_RF, &p->spell.on[WH7_TARGET_RF][s], 1, &kills, &excess);
        if (kills == 0)
            break;
    }
    return hits;
}

/* The damage of a cast spell on side B. Returns the hits. */
static unsigned spell_damage(const om_wh7_prepared *p, om_dice *d, wh7_state *st)
{
    const om_wh7_spell *sp = p->spell.sp;
    const om_wh7_magic *mg = &p->c.magic;
    unsigned hits, s = sp->strength, share[WH7_TARGETS], kills, excess;

    if (sp->strength_undead && (p->side[1].rules & OM_WH7_RULE_UNDEAD))
        s = sp->strength_undead;
    if (mg->in_feature && sp->feature_bonus)
        s += 1;
    switch (sp->special) {
    case OM_WH7_SPECIAL_PIT:
        return pit_of_shades(p, d, st);
    case OM_WH7_SPECIAL_THROUGH_RANKS:
        return through_ranks(p, d, st, s);
    case OM_WH7_SPECIAL_LINE:
        hits = ranks_alive(p, st, 1);
        break;
    case OM_WH7_SPECIAL_FRONT_RANK: {
        unsigned total = wh7_models_alive(&p->side[1], &st->u[1]);
        hits = total < p->c.side[1].unit.files ? total : p->c.side[1].unit.files;
        break;
    }
    default:
        /* Dice of hits (the Burning Iron: of models, at its own Strength). */
        hits = om_dice_roll_sum(d, sp->hit_dice, NULL) + sp->hits_fixed;
        if (sp->special == OM_WH7_SPECIAL_CONFLAGRATION)
            hits += conflagration(d);
        if (sp->special == OM_WH7_SPECIAL_BURNING_IRON)
            s = p->spell.iron_strength;
        break;
    }
    if (s >= WH7_MACHINE_STRENGTHS)
        s = WH7_MACHINE_STRENGTHS - 1u;
    /* Hits from spells are shared like shooting (Spells Commentary); the
     * Burning Iron's Strength is the rank and file's. */
    if (sp->special == OM_WH7_SPECIAL_BURNING_IRON) {
        memset(share, 0, sizeof share);
        share[WH7_TARGET_RF] = st->u[1].rf > 0 ? hits : 0u;
    } else {
        om_wh7_allocate(p, d, st, 1, hits, share);
    }
    for (unsigned t = 0; t < WH7_TARGETS; t++)
        if (share[t] > 0)
            om_wh7_land(p, d, st, 1, t, &p->spell.on[t][s], share[t], &kills, &excess);
    return hits;
}

void om_wh7_resolve_magic(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *o)
{
    const om_wh7_magic *mg = &p->c.magic;
    unsigned faces[OM_WH7_MAX_MAGIC_DICE], total = mg->cast_bonus, start, us_start;
    om_wh7_cast r;
    bool takes_effect = false;
    wh7_state st;

    om_wh7_state_init(p, &st);
    start = wh7_models_alive(&p->side[1], &st.u[1]);
    us_start = wh7_unit_strength(&p->side[1], &st.u[1]);
    o->winner = OM_WH7_NO_CONTEST;
    roll_faces(d, faces, mg->dice);
    for (unsigned i = 0; i < mg->dice; i++)
        total += faces[i];
    o->cast_total = wh7_sat8(total);
    r = om_wh7_cast_result(faces, mg->dice, mg->cast_bonus, p->spell.cv);
    if (r == OM_WH7_CAST_MISCAST && miscast(p, d, &st, o))
        r = OM_WH7_CAST_IRRESISTIBLE;
    if (r == OM_WH7_CAST_CAST || r == OM_WH7_CAST_IRRESISTIBLE) {
        o->cast = 1;
        o->irresistible = r == OM_WH7_CAST_IRRESISTIBLE;
        takes_effect = true;
        if (!o->irresistible) {
            /* One dispel attempt: a scroll dispels outright (not against
             * irresistible force). */
            if (mg->dispel_scroll) {
                takes_effect = false;
            } else if (mg->dispel_dice > 0) {
                unsigned df[OM_WH7_MAX_MAGIC_DICE];
                roll_faces(d, df, mg->dispel_dice);
                takes_effect = !om_wh7_dispel_holds(df, mg->dispel_dice, mg->dispel_bonus, total);
            }
            o->dispelled = !takes_effect;
        }
    }
    if (takes_effect && p->spell.sp->kind == OM_WH7_SPELL_DAMAGE) {
        unsigned before = st.wounds[1];
        o->hits[1] = (uint16_t)spell_damage(p, d, &st);
        if (wh7_wiped_out(&p->side[1], &st.u[1])) {
            o->destroyed[1] = 1;
            om_wh7_friends_panic(p, d, 1, us_start, o);
        } else if (p->spell.sp->special == OM_WH7_SPECIAL_LINE) {
            /* The Burning Head: any unit that suffers an unsaved wound tests. */
            if (st.wounds[1] > before)
                om_wh7_panic_flee(p, d, &st, 1, o);
        } else {
            om_wh7_casualty_panic(p, d, &st, 1, start, o);
        }
    }
    om_wh7_finish(&st, o);
}
