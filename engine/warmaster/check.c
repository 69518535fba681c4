/*
 * check.c: validation of an engagement before it is simulated.
 *
 * Every impossible value is rejected here, once, with the dotted field path used
 * in scenario files ("a.unit.stands"), so that loaders can point at the line and
 * the resolver can rely on its invariants (asserted there). Limits come from the
 * rules (digest warmaster.md sections cited) or from the storage types.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wm.h"

/* Largest unit the engine accepts: 12 stands covers every army list (units of
 * 1-4 stands) with room for scenario experiments; outcome counters are uint8. */
#define OM_WM_MAX_STANDS 12
/* Largest per-stand Attacks, shooting Attacks and Hits values accepted. */
#define OM_WM_MAX_ATTACKS 12
#define OM_WM_MAX_HITS 12
/* Largest character bonus (+2 hero, +2 monstrous mount, +1 magic: under 6). */
#define OM_WM_MAX_BONUS 6
/* Largest number of supporting stands: two supporting units of 12 stands. */
#define OM_WM_MAX_SUPPORTS 24
/* Longest an unresolved engagement may be followed (turns fit in uint8 outcomes). */
#define OM_WM_MAX_TURNS 100

static om_status fail(om_wm_check_failure *why, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static om_status fail(om_wm_check_failure *why, const char *field, const char *fmt, ...)
{
    om_wm_check_failure local;
    va_list ap;
    if (why == NULL)
        why = &local;
    snprintf(why->field, sizeof why->field, "%s", field);
    va_start(ap, fmt);
    vsnprintf(why->reason, sizeof why->reason, fmt, ap);
    va_end(ap);
    return OM_ERROR(OM_EINVAL, "field '%s': %s", why->field, why->reason);
}

/* Check one number against [lo, hi]; `path` is "<side>.<field>". */
static om_status check_range(om_wm_check_failure *why, const char *side, const char *field,
                             unsigned value, unsigned lo, unsigned hi)
{
    char path[64];
    if (value >= lo && value <= hi)
        return OM_OK;
    snprintf(path, sizeof path, "%s.%s", side, field);
    return fail(why, path, "must be %u to %u (got %u)", lo, hi, value);
}

static om_status check_unit(const om_wm_unit *u, const char *side, om_wm_check_failure *why)
{
    char path[64];
    om_status st;
    if (u->name[0] == '\0') {
        snprintf(path, sizeof path, "%s.unit.name", side);
        return fail(why, path, "must not be empty");
    }
    if ((unsigned)u->troop >= OM_WM_TROOP_COUNT) {
        snprintf(path, sizeof path, "%s.unit.type", side);
        return fail(why, path, "unknown troop type %d", (int)u->troop);
    }
    if ((st = check_range(why, side, "unit.stands", u->stands, 1, OM_WM_MAX_STANDS)) ||
        (st = check_range(why, side, "unit.attacks", u->attacks, 0, OM_WM_MAX_ATTACKS)) ||
        (st = check_range(why, side, "unit.shots", u->shots, 0, OM_WM_MAX_ATTACKS)) ||
        (st = check_range(why, side, "unit.hits", u->hits, 1, OM_WM_MAX_HITS)) ||
        (st = check_range(why, side, "unit.pace", u->pace_cm, 1, 255)))
        return st;
    /* Armour is a save of 6+ to 3+ or none; it "can never be better than 3+"
     * (warmaster.md 1.1, REV Banner of Shielding). */
    if (u->armour != 0 && (u->armour < 3 || u->armour > 6)) {
        snprintf(path, sizeof path, "%s.unit.armour", side);
        return fail(why, path, "must be 3+ to 6+ or '-' for none (got %u+); Warmaster armour is "
                    "never better than 3+", u->armour);
    }
    if (u->shots > 0 && u->range_cm == 0) {
        snprintf(path, sizeof path, "%s.unit.range", side);
        return fail(why, path, "a unit with shooting attacks needs a range above 0 cm");
    }
    return OM_OK;
}

static om_status check_side(const om_wm_engagement *e, int s, om_wm_check_failure *why)
{
    const om_wm_side *me = &e->side[s], *foe = &e->side[1 - s];
    const char *side = s == 0 ? "a" : "b";
    char path[64];
    om_status st;

    if ((st = check_unit(&me->unit, side, why)))
        return st;
    if ((unsigned)me->position >= OM_WM_POSITION_COUNT) {
        snprintf(path, sizeof path, "%s.position", side);
        return fail(why, path, "unknown position %d", (int)me->position);
    }
    /* Only infantry and artillery can be defended or fortified (6.15). */
    if (me->position != OM_WM_OPEN && me->unit.troop != OM_WM_INFANTRY &&
        me->unit.troop != OM_WM_ARTILLERY) {
        snprintf(path, sizeof path, "%s.position", side);
        return fail(why, path, "only infantry and artillery can be %s (this unit is %s)",
                    om_wm_position_name(me->position), om_wm_troop_name(me->unit.troop));
    }
    /* Pikemen never benefit from defended or fortified status in dense terrain
     * or on fortress walls (army list). */
    if (me->unit.traits.pikes && me->position != OM_WM_OPEN &&
        (me->dense_terrain || me->position == OM_WM_FORTIFIED)) {
        snprintf(path, sizeof path, "%s.position", side);
        return fail(why, path, "pikemen are never defended or fortified in dense terrain or "
                    "on fortress walls");
    }
    /* Magic items (1.4, 10.3): one per infantry, cavalry or chariot unit, in the
     * fantasy rule sets; Warmaster Ancients has none. */
    if (me->magic != OM_WM_MAGIC_NONE) {
        snprintf(path, sizeof path, "%s.magic", side);
        if ((unsigned)me->magic >= OM_WM_MAGIC_COUNT)
            return fail(why, path, "unknown magic item %d", (int)me->magic);
        if (!e->rules->magic_items)
            return fail(why, path, "%s has no magic items", e->rules->title);
        if (me->unit.troop != OM_WM_INFANTRY && me->unit.troop != OM_WM_CAVALRY &&
            me->unit.troop != OM_WM_CHARIOT)
            return fail(why, path, "only infantry, cavalry and chariot units take magic "
                        "items (this unit is %s)", om_wm_troop_name(me->unit.troop));
    }
    /* A bolt skewers at most 3 stands (Bone Thrower), a cannon ball bounces 5cm. */
    if ((st = check_range(why, side, "line_stands", me->line_stands, 0, 3)))
        return st;
    if (me->line_stands > foe->unit.stands) {
        snprintf(path, sizeof path, "%s.line_stands", side);
        return fail(why, path, "the line passes through %u stands but the target has only %u",
                    me->line_stands, foe->unit.stands);
    }
    if (me->line_stands > 1 && !me->unit.traits.line_fire) {
        snprintf(path, sizeof path, "%s.line_stands", side);
        return fail(why, path, "only cannon and bolt throwers hit further stands along a line");
    }
    /* A bolt strikes as many stands as the rule set's bolt thrower does
     * (5.10, D4); a cannon ball bounces through any of them. */
    if (me->line_stands > e->rules->bolt_line_stands &&
        me->unit.traits.shooter != OM_WM_SHOOTER_CANNON) {
        snprintf(path, sizeof path, "%s.line_stands", side);
        return fail(why, path, "a bolt strikes at most %u stands in %s",
                    (unsigned)e->rules->bolt_line_stands, e->rules->title);
    }
    if ((st = check_range(why, side, "shooting", me->shooting, 0, me->unit.stands)) ||
        (st = check_range(why, side, "attack_bonus", me->attack_bonus, 0, OM_WM_MAX_BONUS)) ||
        (st = check_range(why, side, "extra_shots", me->extra_shots, 0, OM_WM_MAX_ATTACKS)))
        return st;
    /* Characters cannot join Gnoblars, nor take magic items (army list). */
    if (me->unit.traits.no_character &&
        (me->attack_bonus > 0 || me->extra_shots > 0 || me->magic != OM_WM_MAGIC_NONE)) {
        snprintf(path, sizeof path, "%s.%s", side,
                 me->attack_bonus > 0 ? "attack_bonus"
                 : me->extra_shots > 0 ? "extra_shots" : "magic");
        return fail(why, path, "characters cannot join this unit and it takes no magic items "
                    "(its special rules)");
    }
    if (me->target_cm > 0 && me->target_cm > me->unit.range_cm) {
        snprintf(path, sizeof path, "%s.target_cm", side);
        return fail(why, path, "the target is beyond the unit's range of %u cm",
                    (unsigned)me->unit.range_cm);
    }
    /* Only stone throwers and their like shoot blind (5.10): high trajectory,
     * never at chargers. */
    if (me->blind_fire && !me->unit.traits.no_stand_and_shoot) {
        snprintf(path, sizeof path, "%s.blind_fire", side);
        return fail(why, path, "only stone throwers and trebuchets shoot blind");
    }
    /* Skirmishers evade a charge unless confused, or charged by skirmishers
     * at least as fast (Warmaster Ancients, Movement > The Evade; Special Rules >
     * Skirmish). */
    if (me->evade) {
        snprintf(path, sizeof path, "%s.evade", side);
        if (!me->unit.traits.skirmish)
            return fail(why, path, "only skirmishers evade");
        if (!foe->charging)
            return fail(why, path, "a unit evades an enemy that charges it");
        if (me->confused)
            return fail(why, path, "a confused unit cannot evade");
        if (foe->unit.traits.skirmish && foe->unit.pace_cm >= me->unit.pace_cm)
            return fail(why, path, "skirmishers cannot evade skirmishers at least as fast "
                        "(%u cm against %u cm)", (unsigned)foe->unit.pace_cm,
                        (unsigned)me->unit.pace_cm);
    }
    /* The War Wagon (Kislev lists): an artillery unit of a wagon and a team
     * stand, of which only the wagon fights and shoots; a laager has no flank
     * or rear. Kislev infantry may stand beside a laager. */
    if ((unsigned)me->formation >= OM_WM_FORMATION_COUNT) {
        snprintf(path, sizeof path, "%s.formation", side);
        return fail(why, path, "unknown formation %d", (int)me->formation);
    }
    if (me->formation != OM_WM_FORMATION_NONE) {
        snprintf(path, sizeof path, "%s.formation", side);
        if (me->unit.troop != OM_WM_ARTILLERY)
            return fail(why, path, "only a War Wagon (artillery) has a formation");
        if (me->fighting > 1 || me->shooting > 1)
            return fail(why, path, "only the wagon stand fights and shoots (fighting and "
                        "shooting at most 1)");
        if (me->formation == OM_WM_FORMATION_LAAGER && me->flanked > 0)
            return fail(why, path, "a laager has no flank or rear (flanked must be 0)");
        if (me->charging)
            return fail(why, path, "a War Wagon cannot charge");
    }
    if (me->shugenja && !me->unit.traits.daemonic_instability) {
        snprintf(path, sizeof path, "%s.shugenja", side);
        return fail(why, path, "a Shugenja helps only Daemons that suffer Daemonic Instability");
    }
    if (me->beside_laager && (me->unit.troop != OM_WM_INFANTRY || me->charging)) {
        snprintf(path, sizeof path, "%s.beside_laager", side);
        return fail(why, path, "only infantry shelters beside a laagered wagon, and not "
                    "while it charges");
    }
    if ((unsigned)me->aura >= OM_WM_AURA_COUNT) {
        snprintf(path, sizeof path, "%s.aura", side);
        return fail(why, path, "unknown aura %d", (int)me->aura);
    }
    if ((unsigned)me->power >= OM_WM_POWER_COUNT) {
        snprintf(path, sizeof path, "%s.power", side);
        return fail(why, path, "unknown power %d", (int)me->power);
    }
    if (me->power_turn > (e->options.max_turns ? e->options.max_turns : OM_WM_DEFAULT_MAX_TURNS)) {
        snprintf(path, sizeof path, "%s.power_turn", side);
        return fail(why, path, "turn %u is past the engagement's last (max_turns)",
                    (unsigned)me->power_turn);
    }
    if (me->extra_shots > 0 && !e->rules->characters_shoot) {
        snprintf(path, sizeof path, "%s.extra_shots", side);
        return fail(why, path, "characters do not shoot in %s", e->rules->title);
    }
    /* Badly hurt is a rule of one-stand monsters (army lists). */
    if (me->unit.traits.hurt != OM_WM_NEVER_HURT && om_wm_unit_size(&me->unit) > 1) {
        snprintf(path, sizeof path, "%s.unit.stands", side);
        return fail(why, path, "a big monster that can be badly hurt is a unit of one stand");
    }
    if ((me->power == OM_WM_POWER_NONE) != (me->power_turn == 0)) {
        snprintf(path, sizeof path, "%s.power_turn", side);
        return fail(why, path, me->power_turn == 0 ? "a power is used in a turn of the "
                                                     "engagement, 1 or more"
                                                   : "there is no power to use (power: none)");
    }
    /* The Oathstone (Revolution Dwarfs): its Hero joins the unit, and not
     * Troll Slayers (army list). */
    if (me->power == OM_WM_POWER_OATHSTONE &&
        (me->attack_bonus == 0 || me->unit.traits.attack_delta_vs_monsters > 0 ||
         !e->rules->oathstone)) {
        snprintf(path, sizeof path, "%s.power", side);
        return fail(why, path, "the Oathstone needs its Hero joined to the unit "
                    "(attack_bonus), not Troll Slayers, in Warmaster Revolution");
    }
    if (me->pushed && !me->unit.traits.immobile) {
        snprintf(path, sizeof path, "%s.pushed", side);
        return fail(why, path, "only a unit that cannot move of its own accord (the "
                    "Screaming Bell) is pushed");
    }
    if ((unsigned)me->pursue > OM_WM_PURSUE_WHEN_AHEAD) {
        snprintf(path, sizeof path, "%s.pursue", side);
        return fail(why, path, "must be always, never or when-ahead");
    }
    if ((unsigned)me->behind >= OM_WM_BEHIND_COUNT) {
        snprintf(path, sizeof path, "%s.behind", side);
        return fail(why, path, "unknown kind of obstacle %d", (int)me->behind);
    }
    if ((st = check_range(why, side, "behind_stands", me->behind_stands, 0, me->unit.stands)) ||
        (st = check_range(why, side, "unit.size", me->unit.size, 0, OM_WM_MAX_STANDS)))
        return st;
    if (me->unit.size != 0 && me->unit.size < me->unit.stands) {
        snprintf(path, sizeof path, "%s.unit.size", side);
        return fail(why, path, "a unit cannot have more stands (%u) than at full strength (%u)",
                    me->unit.stands, me->unit.size);
    }
    if (e->kind != OM_WM_KIND_VOLLEY) {
        if ((st = check_range(why, side, "fighting", me->fighting, 1, me->unit.stands)) ||
            (st = check_range(why, side, "flanked", me->flanked, 0, me->fighting)) ||
            (st = check_range(why, side, "supports", me->supports, 0, OM_WM_MAX_SUPPORTS)) ||
            (st = check_range(why, side, "support_units", me->support_units, 0, me->supports)))
            return st;
        /* Only infantry can support, and only infantry can be supported; a
         * confused unit cannot support (6.7, 7.2). The declared supports are
         * stands of infantry behind or beside this unit's fighting stands. */
        if (me->supports > 0 && me->unit.traits.no_support) {
            snprintf(path, sizeof path, "%s.supports", side);
            return fail(why, path, "this unit can neither support nor be supported");
        }
        if (me->supports > 0 && me->unit.troop != OM_WM_INFANTRY) {
            snprintf(path, sizeof path, "%s.supports", side);
            return fail(why, path, "only infantry can be supported (this unit is %s)",
                        om_wm_troop_name(me->unit.troop));
        }
        if (me->supports > 0 && me->confused && me->support_units == 0 &&
            !e->rules->confused_units_support) {
            snprintf(path, sizeof path, "%s.supports", side);
            return fail(why, path, "a confused unit cannot support itself; declare the "
                        "supporting stands as other units with support_units");
        }
        /* A unit's own supports are its stands that are not fighting (6.7). */
        if (me->support_units == 0 && me->supports > me->unit.stands - me->fighting) {
            snprintf(path, sizeof path, "%s.supports", side);
            return fail(why, path, "%u supporting stands of its own, but the unit has only %u "
                        "stands besides its %u fighting; declare other units' stands "
                        "with support_units", me->supports, me->unit.stands - me->fighting,
                        me->fighting);
        }
        if ((st = check_range(why, side, "rear_supports", me->rear_supports, 0, me->supports)) ||
            (st = check_range(why, side, "side_strikers", me->side_strikers, 0, me->flanked)))
            return st;
        if (me->long_base && !me->unit.traits.shock) {
            snprintf(path, sizeof path, "%s.long_base", side);
            return fail(why, path, "only shock cavalry has a long-base option");
        }
        if (me->charging && foe->charging) {
            snprintf(path, sizeof path, "%s.charging", side);
            return fail(why, path, "both sides cannot charge each other");
        }
        if (me->confused && me->unit.traits.never_confused) {
            snprintf(path, sizeof path, "%s.confused", side);
            return fail(why, path, "this unit is never confused (its special rules)");
        }
        /* A confused unit cannot be ordered, so it cannot charge (7.2);
         * stampeding elephants (confused Araby Elephants) charge all the same
         * (army list). */
        if (me->charging && me->confused && !me->unit.traits.stampedes) {
            snprintf(path, sizeof path, "%s.confused", side);
            return fail(why, path, "a confused unit cannot charge (it cannot be given orders)");
        }
        if (me->charging && me->position != OM_WM_OPEN) {
            snprintf(path, sizeof path, "%s.position", side);
            return fail(why, path, "a charging unit always counts as in the open (6.15)");
        }
        /* Only infantry, flyers (and giants, not modelled yet) may contact
         * fortified stands (6.2, 6.15). */
        if (me->charging && foe->position == OM_WM_FORTIFIED &&
            me->unit.troop != OM_WM_INFANTRY && !me->unit.traits.flies) {
            snprintf(path, sizeof path, "%s.charging", side);
            return fail(why, path, "only infantry and flyers can charge fortified stands (this unit "
                        "is %s)",
                        om_wm_troop_name(me->unit.troop));
        }
        if (me->stand_and_shoot) {
            snprintf(path, sizeof path, "%s.stand_and_shoot", side);
            if (!foe->charging)
                return fail(why, path, "a unit can only stand and shoot at an enemy that "
                            "charges it");
            if (!om_wm_unit_shoots(&me->unit) && me->extra_shots == 0)
                return fail(why, path, "the unit has no shooting attacks");
            if (me->unit.traits.no_stand_and_shoot)
                return fail(why, path, "this unit cannot shoot at chargers (heavy artillery)");
            if (me->shooting == 0 && me->extra_shots == 0)
                return fail(why, path, "no stands shoot (shooting is 0)");
        }
        if (me->shoots_first) {
            snprintf(path, sizeof path, "%s.shoots_first", side);
            if (!foe->charging && !me->charging)
                return fail(why, path, "shooting first needs a charge: the charged side shot "
                            "at the charger, or the charger at its target, in its own "
                            "previous turn");
            if ((!om_wm_unit_shoots(&me->unit) || me->shooting == 0) && me->extra_shots == 0)
                return fail(why, path, "the unit has no shooting attacks or shooting stands");
        }
    } else {
        if (me->charging || me->stand_and_shoot || me->shoots_first) {
            snprintf(path, sizeof path, "%s.%s", side,
                     me->charging ? "charging" : me->stand_and_shoot ? "stand_and_shoot"
                                                                     : "shoots_first");
            return fail(why, path, "a volley has no charge: side A shoots at side B");
        }
        if (s == 0 && (!om_wm_unit_shoots(&me->unit) || me->shooting == 0) &&
            me->extra_shots == 0) {
            snprintf(path, sizeof path, "a.unit.shots");
            return fail(why, path, "the shooting unit of a volley needs shooting attacks and "
                        "at least one shooting stand");
        }
    }
    return OM_OK;
}

om_status om_wm_engagement_check(const om_wm_engagement *e, om_wm_check_failure *why)
{
    om_status st;
    if (e->rules == NULL)
        return fail(why, "ruleset", "no rule set given");
    if ((unsigned)e->kind >= OM_WM_KIND_COUNT)
        return fail(why, "kind", "must be combat, engagement or volley");
    if (e->options.max_turns > OM_WM_MAX_TURNS)
        return fail(why, "options.max_turns", "must be 0 (the default, 10) to %d (got %u)",
                    OM_WM_MAX_TURNS, e->options.max_turns);
    for (int s = 0; s < 2; s++)
        if ((st = check_side(e, s, why)))
            return st;
    return OM_OK;
}
