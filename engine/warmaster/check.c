/*
 * check.c: validation of an engagement before it is simulated.
 *
 * Every impossible value is rejected here, once, with the dotted field path used
 * in scenario files ("a.unit.stands"), so that loaders can point at the line and
 * the resolver can rely on its invariants (asserted there). Limits come from the
 * rules (cited by rulebook section, Warmaster Revolution's unless another is
 * named) or from the storage types.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wm.h"
#include "wm_int.h"

/* Largest unit the engine accepts: 12 stands covers every army list (units of
 * 1-4 stands) with room for scenario experiments; outcome counters are uint8. */
#define OM_WM_MAX_STANDS 12
/* Largest per-stand Attacks, shooting Attacks and Hits values accepted. */
#define OM_WM_MAX_ATTACKS 12
#define OM_WM_MAX_HITS 12
/* Largest number of supporting stands: two supporting units of 12 stands. */
#define OM_WM_MAX_SUPPORTS 24
/* Longest an unresolved engagement may be followed (turns fit in uint8 outcomes). */
#define OM_WM_MAX_TURNS 100

/* Check one number against [lo, hi]; `path` is "<side>.<field>". */
static om_status check_range(om_wm_check_failure *why, const char *side, const char *field,
                             unsigned value, unsigned lo, unsigned hi)
{
    char path[sizeof why->field];
    snprintf(path, sizeof path, "%s.%s", side, field);
    return om_check_range(why, path, value, lo, hi);
}

/* One side under check: the engagement, the side, its enemy, its name in
 * paths ("a" or "b") and where a failure goes. */
typedef struct side_check {
    const om_wm_engagement *e;
    const om_wm_side *me, *foe;
    int s;
    const char *side;
    om_wm_check_failure *why;
} side_check;

/* Fail at field "<side>.<field>" of the side under check. */
static om_status fail_at(const side_check *c, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static om_status fail_at(const side_check *c, const char *field, const char *fmt, ...)
{
    char path[64], reason[sizeof c->why->reason];
    va_list ap;
    snprintf(path, sizeof path, "%s.%s", c->side, field);
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return om_check_fail(c->why, path, "%s", reason);
}

/* Check one number of the side against [lo, hi]. */
static om_status in_range(const side_check *c, const char *field, unsigned value, unsigned lo,
                          unsigned hi)
{
    return check_range(c->why, c->side, field, value, lo, hi);
}

/* The unit's own values: a name, a troop type, numbers in range, a save of
 * 3+ to 6+, a range for a shooter, one stand for a monster that can be badly
 * hurt. */
static om_status check_unit(const side_check *c)
{
    const om_wm_unit *u = &c->me->unit;
    om_status st;
    if (u->name[0] == '\0')
        return fail_at(c, "unit.name", "must not be empty");
    if ((unsigned)u->troop >= OM_WM_TROOP_COUNT)
        return fail_at(c, "unit.type", "unknown troop type %d", (int)u->troop);
    if ((st = in_range(c, "unit.stands", u->stands, 1, OM_WM_MAX_STANDS)) ||
        (st = in_range(c, "unit.attacks", u->attacks, 0, OM_WM_MAX_ATTACKS)) ||
        (st = in_range(c, "unit.shots", u->shots, 0, OM_WM_MAX_ATTACKS)) ||
        (st = in_range(c, "unit.hits", u->hits, 1, OM_WM_MAX_HITS)) ||
        (st = in_range(c, "unit.pace", u->pace_cm, 1, 255)))
        return st;
    /* Armour is a save of 6+ to 3+ or none; it "can never be better than 3+"
     * (Warmaster Revolution, Game Values; Magic > The Banner of Shielding). */
    if (u->armour != 0 && (u->armour < 3 || u->armour > 6))
        return fail_at(c, "unit.armour", "must be 3+ to 6+ or '-' for none (got %u+); Warmaster "
                       "armour is never better than 3+", u->armour);
    if (u->shots > 0 && u->range_cm == 0)
        return fail_at(c, "unit.range", "a unit with shooting attacks needs a range above 0 cm");
    /* Its traits name kinds the engine knows (the registry's always do). */
    for (size_t i = 0; i < om_wm_trait_count(); i++) {
        const om_wm_trait *d = om_wm_trait_at(i);
        const int v = om_wm_trait_get(&u->traits, d);
        if (d->kind == OM_WM_TRAIT_ENUM && om_wm_trait_value_name(d, v) == NULL)
            return fail_at(c, "unit.rules", "unknown %s %d", d->name, v);
    }
    /* Badly hurt is a rule of one-stand monsters (army lists). */
    if (u->traits.hurt != OM_WM_NEVER_HURT && om_wm_unit_size(u) > 1)
        return fail_at(c, "unit.stands", "a big monster that can be badly hurt is a unit of one "
                       "stand");
    return OM_OK;
}

/* Its position: a known one, defended or fortified only for infantry and
 * artillery (Combat > Defended & Fortified Troops), never for pikemen in dense
 * terrain or on walls (army list). */
static om_status check_position(const side_check *c)
{
    const om_wm_side *me = c->me;
    if ((unsigned)me->position >= OM_WM_POSITION_COUNT)
        return fail_at(c, "position", "unknown position %d", (int)me->position);
    if (me->position != OM_WM_OPEN && me->unit.troop != OM_WM_INFANTRY &&
        me->unit.troop != OM_WM_ARTILLERY)
        return fail_at(c, "position", "only infantry and artillery can be %s (this unit is %s)",
                       om_wm_position_name(me->position), om_wm_troop_name(me->unit.troop));
    if (me->unit.traits.pikes && me->position != OM_WM_OPEN &&
        (me->dense_terrain || me->position == OM_WM_FORTIFIED))
        return fail_at(c, "position", "pikemen are never defended or fortified in dense terrain "
                       "or on fortress walls");
    return OM_OK;
}

/* Magic items (Magic > Magic Items): one per infantry, cavalry or chariot unit,
 * in the rule sets that have them. */
static om_status check_magic(const side_check *c)
{
    const om_wm_side *me = c->me;
    if (me->magic == OM_WM_MAGIC_NONE)
        return OM_OK;
    if ((unsigned)me->magic >= OM_WM_MAGIC_COUNT)
        return fail_at(c, "magic", "unknown magic item %d", (int)me->magic);
    if (!c->e->rules->magic_items)
        return fail_at(c, "magic", "%s has no magic items", c->e->rules->short_title);
    if (me->unit.troop != OM_WM_INFANTRY && me->unit.troop != OM_WM_CAVALRY &&
        me->unit.troop != OM_WM_CHARIOT)
        return fail_at(c, "magic", "only infantry, cavalry and chariot units take magic items "
                       "(this unit is %s)", om_wm_troop_name(me->unit.troop));
    return OM_OK;
}

/* Its shooting: the stands in a line of fire (a bolt skewers at most as many
 * stands as the rule set's bolt thrower strikes, Artillery & Machines >
 * Artillery and the 1.1 difference D4; a cannon ball bounces 5cm), the
 * shooting stands, the distance to its target, and blind fire, which only
 * stone throwers and their like shoot (Artillery & Machines > Artillery: high
 * trajectory, never at chargers). */
static om_status check_shooting(const side_check *c)
{
    const om_wm_side *me = c->me;
    om_status st;
    if ((st = in_range(c, "line_stands", me->line_stands, 0, 3)))
        return st;
    if (me->line_stands > c->foe->unit.stands)
        return fail_at(c, "line_stands", "the line passes through %u stands but the target has "
                       "only %u", me->line_stands, c->foe->unit.stands);
    if (me->line_stands > 1 && !me->unit.traits.line_fire)
        return fail_at(c, "line_stands", "only cannon and bolt throwers hit further stands along "
                       "a line");
    if (me->line_stands > c->e->rules->bolt_line_stands &&
        me->unit.traits.shooter != OM_WM_SHOOTER_CANNON)
        return fail_at(c, "line_stands", "a %s bolt strikes at most %u stands",
                       c->e->rules->short_title, (unsigned)c->e->rules->bolt_line_stands);
    if ((st = in_range(c, "shooting", me->shooting, 0, me->unit.stands)))
        return st;
    if (me->target_cm > 0 && me->target_cm > me->unit.range_cm)
        return fail_at(c, "target_cm", "the target is beyond the unit's range of %u cm",
                       (unsigned)me->unit.range_cm);
    if (me->blind_fire && !me->unit.traits.no_stand_and_shoot)
        return fail_at(c, "blind_fire", "only stone throwers and trebuchets shoot blind");
    return OM_OK;
}

/* A joined character: its bonus and shooting Attacks in range, none for a
 * unit no character joins (army list), no shooting character where the rule
 * set's characters do not shoot. */
static om_status check_character(const side_check *c)
{
    const om_wm_side *me = c->me;
    om_status st;
    if ((st = in_range(c, "attack_bonus", me->attack_bonus, 0, OM_WM_MAX_BONUS)) ||
        (st = in_range(c, "extra_shots", me->extra_shots, 0, OM_WM_MAX_ATTACKS)))
        return st;
    if (me->unit.traits.no_character &&
        (me->attack_bonus > 0 || me->extra_shots > 0 || me->magic != OM_WM_MAGIC_NONE))
        return fail_at(c, me->attack_bonus > 0   ? "attack_bonus"
                          : me->extra_shots > 0 ? "extra_shots"
                                                : "magic",
                       "characters cannot join this unit and it takes no magic items (its "
                       "special rules)");
    if (me->extra_shots > 0 && !c->e->rules->characters_shoot)
        return fail_at(c, "extra_shots", "%s characters do not shoot",
                       c->e->rules->short_title);
    return OM_OK;
}

/* Skirmishers evade a charge unless confused, or charged by skirmishers at
 * least as fast (Warmaster Ancients, Movement > The Evade; Special Rules >
 * Skirmish). */
static om_status check_evade(const side_check *c)
{
    const om_wm_side *me = c->me, *foe = c->foe;
    if (!me->evade)
        return OM_OK;
    if (!me->unit.traits.skirmish)
        return fail_at(c, "evade", "only skirmishers evade");
    if (!foe->charging)
        return fail_at(c, "evade", "a unit evades an enemy that charges it");
    if (me->confused)
        return fail_at(c, "evade", "a confused unit cannot evade");
    if (foe->unit.traits.skirmish && foe->unit.pace_cm >= me->unit.pace_cm)
        return fail_at(c, "evade", "skirmishers cannot evade skirmishers at least as fast (%u cm "
                       "against %u cm)", (unsigned)foe->unit.pace_cm, (unsigned)me->unit.pace_cm);
    return OM_OK;
}

/* The War Wagon (Kislev lists): an artillery unit of a wagon and a team
 * stand, of which only the wagon fights and shoots; a laager has no flank or
 * rear. Kislev infantry may stand beside a laager, not while charging. */
static om_status check_war_wagon(const side_check *c)
{
    const om_wm_side *me = c->me;
    if ((unsigned)me->formation >= OM_WM_FORMATION_COUNT)
        return fail_at(c, "formation", "unknown formation %d", (int)me->formation);
    if (me->formation != OM_WM_FORMATION_NONE) {
        if (me->unit.troop != OM_WM_ARTILLERY)
            return fail_at(c, "formation", "only a War Wagon (artillery) has a formation");
        if (me->fighting > 1 || me->shooting > 1)
            return fail_at(c, "formation", "only the wagon stand fights and shoots (fighting and "
                           "shooting at most 1)");
        if (me->formation == OM_WM_FORMATION_LAAGER && me->flanked > 0)
            return fail_at(c, "formation", "a laager has no flank or rear (flanked must be 0)");
        if (me->charging)
            return fail_at(c, "formation", "a War Wagon cannot charge");
    }
    if (me->beside_laager && (me->unit.troop != OM_WM_INFANTRY || me->charging))
        return fail_at(c, "beside_laager", "only infantry shelters beside a laagered wagon, and "
                       "not while it charges");
    return OM_OK;
}

/* Help from outside the unit: a Shugenja near Daemons that suffer Daemonic
 * Instability, an aura against terror, Skaven infantry pushing the unit that
 * cannot move of its own accord (army lists). */
static om_status check_outside_help(const side_check *c)
{
    const om_wm_side *me = c->me;
    if (me->shugenja && !me->unit.traits.daemonic_instability)
        return fail_at(c, "shugenja", "a Shugenja helps only Daemons that suffer Daemonic "
                       "Instability");
    if ((unsigned)me->aura >= OM_WM_AURA_COUNT)
        return fail_at(c, "aura", "unknown aura %d", (int)me->aura);
    if (me->pushed && !me->unit.traits.immobile)
        return fail_at(c, "pushed", "only a unit that cannot move of its own accord (the "
                       "Screaming Bell) is pushed");
    return OM_OK;
}

/* A once-a-battle power: a known one, used in a turn of the
 * engagement; the Oathstone needs its Hero joined, not to Troll Slayers, in
 * a rule set whose Dwarfs have it. */
static om_status check_power(const side_check *c)
{
    const om_wm_side *me = c->me;
    const om_wm_options *o = &c->e->options;
    if ((unsigned)me->power >= OM_WM_POWER_COUNT)
        return fail_at(c, "power", "unknown power %d", (int)me->power);
    if (me->power_turn > (o->max_turns ? o->max_turns : OM_WM_DEFAULT_MAX_TURNS))
        return fail_at(c, "power_turn", "turn %u is past the engagement's last (max_turns)",
                       (unsigned)me->power_turn);
    if ((me->power == OM_WM_POWER_NONE) != (me->power_turn == 0))
        return fail_at(c, "power_turn", "%s", me->power_turn == 0
                                                   ? "a power is used in a turn of the "
                                                     "engagement, 1 or more"
                                                   : "there is no power to use (power: none)");
    /* Troll Slayers are the Dwarf unit with +1 Attack against monsters. */
    if (me->power == OM_WM_POWER_OATHSTONE &&
        (me->attack_bonus == 0 || me->unit.traits.attack_delta_vs_monsters > 0 ||
         !c->e->rules->oathstone))
        return fail_at(c, "power", "the Oathstone needs its Hero joined to the unit "
                       "(attack_bonus), not Troll Slayers, in Warmaster Revolution");
    return OM_OK;
}

/* What happens after a round: a pursuit policy, what lies behind and how many
 * stands it blocks, and the unit's full strength. */
static om_status check_after_the_round(const side_check *c)
{
    const om_wm_side *me = c->me;
    om_status st;
    if ((unsigned)me->pursue > OM_WM_PURSUE_WHEN_AHEAD)
        return fail_at(c, "pursue", "must be always, never or when-ahead");
    if ((unsigned)me->behind >= OM_WM_BEHIND_COUNT)
        return fail_at(c, "behind", "unknown kind of obstacle %d", (int)me->behind);
    if ((st = in_range(c, "behind_stands", me->behind_stands, 0, me->unit.stands)) ||
        (st = in_range(c, "unit.size", me->unit.size, 0, OM_WM_MAX_STANDS)))
        return st;
    if (me->unit.size != 0 && me->unit.size < me->unit.stands)
        return fail_at(c, "unit.size", "a unit cannot have more stands (%u) than at full "
                       "strength (%u)", me->unit.stands, me->unit.size);
    return OM_OK;
}

/* The stands in contact: at least one fighting, no more flanked than fight. */
static om_status check_contact(const side_check *c)
{
    const om_wm_side *me = c->me;
    om_status st;
    if ((st = in_range(c, "fighting", me->fighting, 1, me->unit.stands)) ||
        (st = in_range(c, "flanked", me->flanked, 0, me->fighting)))
        return st;
    return OM_OK;
}

/* Supports (Combat > Supporting Troops): only infantry can support, and only
 * infantry can be supported; a confused unit cannot support
 * (Confusion > Confused Units; not in Ancients). The declared supports are
 * stands of infantry behind or beside this unit's fighting stands: its own are
 * those not fighting. Then the Ancients formations: rear supports among them,
 * stands striking to a side among the flanked, and a long base only for shock
 * cavalry. */
static om_status check_supports(const side_check *c)
{
    const om_wm_side *me = c->me;
    om_status st;
    if ((st = in_range(c, "supports", me->supports, 0, OM_WM_MAX_SUPPORTS)) ||
        (st = in_range(c, "support_units", me->support_units, 0, me->supports)))
        return st;
    if (me->supports > 0 && me->unit.traits.no_support)
        return fail_at(c, "supports", "this unit can neither support nor be supported");
    if (me->supports > 0 && me->unit.troop != OM_WM_INFANTRY)
        return fail_at(c, "supports", "only infantry can be supported (this unit is %s)",
                       om_wm_troop_name(me->unit.troop));
    if (me->supports > 0 && me->confused && me->support_units == 0 &&
        !c->e->rules->confused_units_support)
        return fail_at(c, "supports", "a confused unit cannot support itself; declare the "
                       "supporting stands as other units with support_units");
    if (me->support_units == 0 && me->supports > me->unit.stands - me->fighting)
        return fail_at(c, "supports", "%u supporting stands of its own, but the unit has only %u "
                       "stands besides its %u fighting; declare other units' stands with "
                       "support_units", me->supports, me->unit.stands - me->fighting,
                       me->fighting);
    if ((st = in_range(c, "rear_supports", me->rear_supports, 0, me->supports)) ||
        (st = in_range(c, "side_strikers", me->side_strikers, 0, me->flanked)))
        return st;
    if (me->long_base && !me->unit.traits.shock)
        return fail_at(c, "long_base", "only shock cavalry has a long-base option");
    return OM_OK;
}

/* The charge: not both ways; a confused unit cannot be ordered, so it cannot
 * charge (Confusion > Confused Units), but stampeding elephants (confused
 * Araby Elephants) charge all the same (army list); a charger counts as in the
 * open (Combat > Defended & Fortified Troops); only infantry, flyers (and
 * giants, not modelled yet) may contact fortified stands (Combat > Moving
 * Chargers, Defended & Fortified Troops). */
static om_status check_charge(const side_check *c)
{
    const om_wm_side *me = c->me, *foe = c->foe;
    if (me->charging && foe->charging)
        return fail_at(c, "charging", "both sides cannot charge each other");
    if (me->advancing && (me->charging || foe->charging))
        return fail_at(c, "advancing", "an advance is a charge without its bonus: the advancing "
                       "unit does not charge, nor does its enemy (Combat > Advance)");
    if (me->advancing && me->position != OM_WM_OPEN)
        return fail_at(c, "position", "an advancing unit always counts as in the open (Combat > "
                       "Defended & Fortified Troops)");
    if (me->confused && me->unit.traits.never_confused)
        return fail_at(c, "confused", "this unit is never confused (its special rules)");
    if (me->charging && me->confused && !me->unit.traits.stampedes)
        return fail_at(c, "confused", "a confused unit cannot charge (it cannot be given orders)");
    if (me->charging && me->position != OM_WM_OPEN)
        return fail_at(c, "position", "a charging unit always counts as in the open (Combat > "
                       "Defended & Fortified Troops)");
    if (me->charging && foe->position == OM_WM_FORTIFIED && me->unit.troop != OM_WM_INFANTRY &&
        !me->unit.traits.flies)
        return fail_at(c, "charging", "only infantry and flyers can charge fortified stands (this "
                       "unit is %s)", om_wm_troop_name(me->unit.troop));
    return OM_OK;
}

/* Shooting before contact: at a charging enemy (Shooting > Shooting at
 * Charging Enemy), by a unit that shoots and may shoot at chargers; or a
 * volley in the side's own previous turn (Shooting > Driving Back Enemies),
 * which needs a charge: the charged side at the charger, or the charger at its
 * target. */
static om_status check_shooting_before_contact(const side_check *c)
{
    const om_wm_side *me = c->me, *foe = c->foe;
    if (me->stand_and_shoot) {
        if (!foe->charging && !foe->advancing)
            return fail_at(c, "stand_and_shoot", "a unit can only stand and shoot at an enemy "
                           "that charges or advances on it");
        if (!om_wm_unit_shoots(&me->unit) && me->extra_shots == 0)
            return fail_at(c, "stand_and_shoot", "the unit has no shooting attacks");
        if (me->unit.traits.no_stand_and_shoot)
            return fail_at(c, "stand_and_shoot", "this unit cannot shoot at chargers (heavy "
                           "artillery)");
        if (me->shooting == 0 && me->extra_shots == 0)
            return fail_at(c, "stand_and_shoot", "no stands shoot (shooting is 0)");
    }
    if (me->shoots_first) {
        if (!foe->charging && !me->charging)
            return fail_at(c, "shoots_first", "shooting first needs a charge: the charged side "
                           "shot at the charger, or the charger at its target, in its own "
                           "previous turn");
        if ((!om_wm_unit_shoots(&me->unit) || me->shooting == 0) && me->extra_shots == 0)
            return fail_at(c, "shoots_first", "the unit has no shooting attacks or shooting "
                           "stands");
    }
    return OM_OK;
}

/* A volley has no charge: side A, which needs something to shoot with,
 * shoots at side B. */
static om_status check_volley(const side_check *c)
{
    const om_wm_side *me = c->me;
    if (me->charging || me->stand_and_shoot || me->shoots_first)
        return fail_at(c, me->charging ? "charging" : me->stand_and_shoot ? "stand_and_shoot"
                                                                          : "shoots_first",
                       "a volley has no charge: side A shoots at side B");
    if (c->s == 0 && (!om_wm_unit_shoots(&me->unit) || me->shooting == 0) &&
        me->extra_shots == 0)
        return om_check_fail(c->why, "a.unit.shots", "the shooting unit of a volley needs shooting "
                    "attacks and at least one shooting stand");
    return OM_OK;
}

/* Every check of side s of e, named `name` in paths, in order; the first
 * failure wins. A unit of several in an engagement (`of_several`) may fight
 * no enemy itself (a unit that only supports): its contacts are checked
 * with the engagement's. */
static om_status check_side_as(const om_wm_engagement *e, int s, const char *name,
                               bool of_several, om_wm_check_failure *why)
{
    const side_check c = {e, &e->side[s], &e->side[1 - s], s, name, why};
    om_status st;
    if ((st = check_unit(&c)) || (st = check_position(&c)) || (st = check_magic(&c)) ||
        (st = check_shooting(&c)) || (st = check_character(&c)) || (st = check_evade(&c)) ||
        (st = check_war_wagon(&c)) || (st = check_outside_help(&c)) || (st = check_power(&c)) ||
        (st = check_after_the_round(&c)))
        return st;
    if (e->kind == OM_WM_KIND_VOLLEY)
        return check_volley(&c);
    if ((!of_several && (st = check_contact(&c))) || (st = check_supports(&c)) ||
        (st = check_charge(&c)) || (st = check_shooting_before_contact(&c)))
        return st;
    return OM_OK;
}

/* Every check of side s of a two-unit engagement ("a" or "b"). */
static om_status check_side(const om_wm_engagement *e, int s, om_wm_check_failure *why)
{
    return check_side_as(e, s, s == 0 ? "a" : "b", false, why);
}

om_status om_wm_engagement_check(const om_wm_engagement *e, om_wm_check_failure *why)
{
    om_status st;
    if (e->rules == NULL)
        return om_check_fail(why, "ruleset", "no rule set given");
    if ((unsigned)e->kind >= OM_WM_KIND_COUNT)
        return om_check_fail(why, "kind", "must be combat, engagement or volley");
    if (e->options.max_turns > OM_WM_MAX_TURNS)
        return om_check_fail(why, "options.max_turns", "must be 0 (the default, 10) to %d (got %u)",
                    OM_WM_MAX_TURNS, e->options.max_turns);
    for (int s = 0; s < 2; s++)
        if ((st = check_side(e, s, why)))
            return st;
    return OM_OK;
}

/* ------------------------------------------------------------------------ */
/* Engagements of several units (multi.c).                                   */
/* ------------------------------------------------------------------------ */

/* A multi-unit engagement under check, and where a failure goes. */
typedef struct multi_check {
    const om_wm_multi *m;
    om_wm_check_failure *why;
    unsigned fighting[OM_WM_UNITS_MAX];   /* each unit's stands in its contacts */
    unsigned supporting[OM_WM_UNITS_MAX]; /* each unit's stands in its support links */
} multi_check;

/* The name of a side in messages. */
static const char *army_name(unsigned army) { return army == OM_WM_SIDE_A ? "A" : "B"; }

/* The counts: units (1 to OM_WM_SIDE_UNITS_MAX a side), contacts, supports,
 * the span and the options. */
static om_status check_multi_counts(const multi_check *c)
{
    const om_wm_multi *m = c->m;
    unsigned per_army[2] = {0, 0};
    if (m->rules == NULL)
        return om_check_fail(c->why, "ruleset", "no rule set given");
    if ((unsigned)m->span >= OM_WM_SPAN_COUNT)
        return om_check_fail(c->why, "span", "must be round, phase or end");
    if (m->options.max_turns > OM_WM_MAX_TURNS)
        return om_check_fail(c->why, "options.max_turns", "must be 0 (the default, 10) to %d (got %u)",
                    OM_WM_MAX_TURNS, m->options.max_turns);
    if (m->n_units < 2 || m->n_units > OM_WM_UNITS_MAX)
        return om_check_fail(c->why, "units", "must be 2 to %d units (got %u)", OM_WM_UNITS_MAX,
                    m->n_units);
    if (m->n_contacts < 1 || m->n_contacts > OM_WM_CONTACTS_MAX)
        return om_check_fail(c->why, "contacts", "must be 1 to %d contacts (got %u)", OM_WM_CONTACTS_MAX,
                    m->n_contacts);
    if (m->n_supports > OM_WM_SUPPORTS_MAX)
        return om_check_fail(c->why, "supports", "must be 0 to %d support links (got %u)",
                    OM_WM_SUPPORTS_MAX, m->n_supports);
    for (unsigned u = 0; u < m->n_units; u++) {
        char path[64];
        snprintf(path, sizeof path, "unit.%u.side", u);
        if (m->unit[u].side == NULL)
            return om_check_fail(c->why, path, "no side given");
        snprintf(path, sizeof path, "unit.%u.army", u);
        if (m->unit[u].army > OM_WM_SIDE_B)
            return om_check_fail(c->why, path, "must be side A (0) or B (1) (got %u)", m->unit[u].army);
        if (++per_army[m->unit[u].army] > OM_WM_SIDE_UNITS_MAX)
            return om_check_fail(c->why, path, "side %s has more than %d units",
                        army_name(m->unit[u].army), OM_WM_SIDE_UNITS_MAX);
    }
    for (unsigned a = 0; a < 2; a++)
        if (per_army[a] == 0)
            return om_check_fail(c->why, "units", "side %s has no unit", army_name(a));
    if (m->rounds_before > OM_WM_MAX_TURNS * 2)
        return om_check_fail(c->why, "rounds_before", "must be 0 to %d (got %u)", OM_WM_MAX_TURNS * 2,
                    m->rounds_before);
    if (m->turn > OM_WM_MAX_TURNS)
        return om_check_fail(c->why, "turn", "must be 0 to %d (got %u)", OM_WM_MAX_TURNS, m->turn);
    return OM_OK;
}

/* A unit index of the engagement at `path`. */
static om_status check_index(const multi_check *c, const char *path, unsigned u)
{
    if (u >= c->m->n_units)
        return om_check_fail(c->why, path, "unit %u is not in the engagement (%u units)", u,
                    c->m->n_units);
    return OM_OK;
}

/* Contact k: a unit of one side fighting a unit of the other with 1 or more
 * stands, no more flanked than fight, no more striking to a side than are
 * flanked; one contact per pair; charging into fortified stands only infantry
 * and flyers (Combat > Moving Chargers, Defended & Fortified Troops). */
static om_status check_multi_contact(multi_check *c, unsigned k)
{
    const om_wm_multi *m = c->m;
    const om_wm_contact *x = &m->contact[k];
    char path[64], field[24];
    om_status st;
    snprintf(path, sizeof path, "contact.%u.unit", k);
    if ((st = check_index(c, path, x->unit)))
        return st;
    snprintf(path, sizeof path, "contact.%u.enemy", k);
    if ((st = check_index(c, path, x->enemy)))
        return st;
    if (m->unit[x->unit].army == m->unit[x->enemy].army)
        return om_check_fail(c->why, path, "unit %u is a friend of unit %u (both side %s)", x->enemy,
                    x->unit, army_name(m->unit[x->unit].army));
    for (unsigned j = 0; j < k; j++)
        if (m->contact[j].unit == x->unit && m->contact[j].enemy == x->enemy)
            return om_check_fail(c->why, path, "unit %u already fights unit %u (contact %u)", x->unit,
                        x->enemy, j);
    snprintf(field, sizeof field, "contact.%u", k);
    if ((st = check_range(c->why, field, "stands", x->stands, 1, OM_WM_MAX_STANDS)) ||
        (st = check_range(c->why, field, "flanked", x->flanked, 0, x->stands)) ||
        (st = check_range(c->why, field, "side_strikers", x->side_strikers, 0, x->flanked)))
        return st;
    c->fighting[x->unit] += x->stands;
    if (c->fighting[x->unit] > m->unit[x->unit].side->unit.stands) {
        snprintf(path, sizeof path, "contact.%u.stands", k);
        return om_check_fail(c->why, path, "unit %u fights with %u stands in its contacts but has only "
                    "%u", x->unit, c->fighting[x->unit], m->unit[x->unit].side->unit.stands);
    }
    {
        const om_wm_side *me = m->unit[x->unit].side, *foe = m->unit[x->enemy].side;
        if (me->charging && foe->position == OM_WM_FORTIFIED &&
            me->unit.troop != OM_WM_INFANTRY && !me->unit.traits.flies)
            return om_check_fail(c->why, path, "only infantry and flyers can charge fortified stands "
                        "(unit %u is %s)", x->unit, om_wm_troop_name(me->unit.troop));
    }
    return OM_OK;
}

/* Support link k (Combat > Supporting Troops): from a unit to a different
 * friendly unit that fights, both infantry that may support and be supported,
 * by a supporter not confused (Confusion > Confused Units; Ancients: confused
 * units support) whose stands supporting, fighting and supporting itself are
 * no more than it has; one link per pair. */
static om_status check_multi_support(multi_check *c, unsigned k)
{
    const om_wm_multi *m = c->m;
    const om_wm_support *x = &m->support[k];
    const om_wm_side *giver, *taker;
    char path[64], field[24];
    om_status st;
    snprintf(path, sizeof path, "support.%u.unit", k);
    if ((st = check_index(c, path, x->unit)))
        return st;
    snprintf(path, sizeof path, "support.%u.supported", k);
    if ((st = check_index(c, path, x->supported)))
        return st;
    if (x->unit == x->supported)
        return om_check_fail(c->why, path, "a unit's supports by its own stands are its side's "
                    "supports, not a link to itself");
    if (m->unit[x->unit].army != m->unit[x->supported].army)
        return om_check_fail(c->why, path, "unit %u is an enemy of unit %u", x->supported, x->unit);
    for (unsigned j = 0; j < k; j++)
        if (m->support[j].unit == x->unit && m->support[j].supported == x->supported)
            return om_check_fail(c->why, path, "unit %u already supports unit %u (support %u)", x->unit,
                        x->supported, j);
    if (c->fighting[x->supported] == 0)
        return om_check_fail(c->why, path, "unit %u does not fight (no contact): only stands fighting "
                    "to their front are supported", x->supported);
    snprintf(field, sizeof field, "support.%u", k);
    if ((st = check_range(c->why, field, "stands", x->stands, 1, OM_WM_MAX_STANDS)) ||
        (st = check_range(c->why, field, "rear", x->rear, 0, x->stands)))
        return st;
    giver = m->unit[x->unit].side;
    taker = m->unit[x->supported].side;
    snprintf(path, sizeof path, "support.%u.unit", k);
    if (giver->unit.troop != OM_WM_INFANTRY || taker->unit.troop != OM_WM_INFANTRY)
        return om_check_fail(c->why, path, "only infantry supports and is supported (unit %u is %s)",
                    giver->unit.troop != OM_WM_INFANTRY ? x->unit : x->supported,
                    om_wm_troop_name(giver->unit.troop != OM_WM_INFANTRY ? giver->unit.troop
                                                                          : taker->unit.troop));
    if (giver->unit.traits.no_support || taker->unit.traits.no_support)
        return om_check_fail(c->why, path, "unit %u can neither support nor be supported (its special "
                    "rules)", giver->unit.traits.no_support ? x->unit : x->supported);
    if (giver->confused && !m->rules->confused_units_support)
        return om_check_fail(c->why, path, "unit %u is confused: a confused unit cannot support "
                    "(Confusion > Confused Units)",
                    x->unit);
    c->supporting[x->unit] += x->stands;
    {
        unsigned own = giver->support_units == 0 ? giver->supports : 0u;
        if (c->fighting[x->unit] + own + c->supporting[x->unit] > giver->unit.stands) {
            snprintf(path, sizeof path, "support.%u.stands", k);
            return om_check_fail(c->why, path, "unit %u has %u stands, but %u fight, %u support it and "
                        "%u support other units", x->unit, giver->unit.stands,
                        c->fighting[x->unit], own, c->supporting[x->unit]);
        }
    }
    return OM_OK;
}

/* Whether a unit closes with its enemy as the engagement starts: a charge,
 * or an advance (Combat > Advance), either of which may be shot at. */
static bool closing(const om_wm_side *s) { return s->charging || s->advancing; }

/* Unit u: it takes part (a contact or a support), its pursuit target is an
 * enemy, its own supports support fighting stands; volleys of the turn
 * before and evading are fought with one unit a side; then its own values
 * as a two-unit engagement checks them, against the enemy charging it or
 * the first it touches. */
static om_status check_multi_unit(const multi_check *c, unsigned u)
{
    const om_wm_multi *m = c->m;
    const om_wm_side *me = m->unit[u].side;
    bool part = c->fighting[u] > 0 || c->supporting[u] > 0;
    unsigned foe = OM_WM_NO_UNIT;
    char name[32], path[64];
    om_wm_engagement e;
    snprintf(name, sizeof name, "unit.%u", u);
    for (unsigned k = 0; k < m->n_contacts; k++) {
        const om_wm_contact *x = &m->contact[k];
        unsigned other = x->unit == u ? x->enemy : x->enemy == u ? x->unit : OM_WM_NO_UNIT;
        if (other == OM_WM_NO_UNIT)
            continue;
        part = true;
        if (foe == OM_WM_NO_UNIT || (closing(m->unit[other].side) && !closing(m->unit[foe].side)))
            foe = other;
    }
    if (!part)
        return om_check_fail(c->why, name, "takes no part in the engagement: no contact and no support");
    snprintf(path, sizeof path, "%s.pursues", name);
    if (m->unit[u].pursues != OM_WM_NO_UNIT &&
        (m->unit[u].pursues >= m->n_units || m->unit[m->unit[u].pursues].army == m->unit[u].army))
        return om_check_fail(c->why, path, "must be an enemy unit of the engagement or none (got %u)",
                    m->unit[u].pursues);
    snprintf(path, sizeof path, "%s.supports", name);
    if (me->supports > 0 && me->support_units == 0 && c->fighting[u] == 0)
        return om_check_fail(c->why, path, "its own stands support its fighting stands, and none fight");
    if ((me->shoots_first || me->evade) && (m->n_units > 2 || m->rounds_before > 0)) {
        snprintf(path, sizeof path, "%s.%s", name, me->shoots_first ? "shoots_first" : "evade");
        return om_check_fail(c->why, path, "%s is worked out with one unit a side as the engagement "
                    "starts; with several, the Shooting and Command phases that shoot or evade "
                    "come before it", me->shoots_first ? "a volley of the turn before"
                                                       : "an evade");
    }
    if (foe == OM_WM_NO_UNIT) /* a unit that only supports: its side's first enemy */
        for (unsigned i = 0; i < m->n_units && foe == OM_WM_NO_UNIT; i++)
            if (m->unit[i].army != m->unit[u].army)
                foe = i;
    memset(&e, 0, sizeof e);
    e.rules = m->rules;
    e.kind = m->span == OM_WM_SPAN_ROUND ? OM_WM_KIND_COMBAT : OM_WM_KIND_ENGAGEMENT;
    e.options = m->options;
    om_wm_multi_side(m, u, &e.side[0]);
    om_wm_multi_side(m, foe, &e.side[1]);
    return check_side_as(&e, 0, name, true, c->why);
}

om_status om_wm_multi_check(const om_wm_multi *m, om_wm_check_failure *why)
{
    multi_check c = {.m = m, .why = why};
    om_status st;
    int charging = -1;
    if ((st = check_multi_counts(&c)))
        return st;
    for (unsigned k = 0; k < m->n_contacts; k++)
        if ((st = check_multi_contact(&c, k)))
            return st;
    for (unsigned k = 0; k < m->n_supports; k++)
        if ((st = check_multi_support(&c, k)))
            return st;
    for (unsigned u = 0; u < m->n_units; u++) {
        char path[64];
        if ((st = check_multi_unit(&c, u)))
            return st;
        if (!closing(m->unit[u].side))
            continue;
        snprintf(path, sizeof path, "unit.%u.%s", u,
                 m->unit[u].side->charging ? "charging" : "advancing");
        if (charging >= 0 && m->unit[charging].side->charging != m->unit[u].side->charging)
            return om_check_fail(why, path, "an engagement is a charge's or advances' (Combat > "
                        "Advance), not both: unit %d and unit %u", charging, u);
        /* Winners of both sides may advance into one engagement. */
        if (charging >= 0 && m->unit[u].side->charging &&
            m->unit[charging].army != m->unit[u].army)
            return om_check_fail(why, path, "both sides cannot charge: unit %d (side %s) and unit %u "
                        "(side %s) charge", charging, army_name(m->unit[charging].army), u,
                        army_name(m->unit[u].army));
        if (charging < 0)
            charging = (int)u;
    }
    return OM_OK;
}
