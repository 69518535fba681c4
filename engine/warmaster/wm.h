/*
 * wm.h: the Warmaster family rules engine (Warmaster 1.1, Warmaster Revolution,
 * Warmaster Ancients) as pure functions over plain structs.
 *
 * The engine sees no table geometry, only what geometry decides: an engagement
 * is a declared contact description (stands fighting, stands with an enemy on
 * their flank or rear, supports, position, who charged), of two units
 * (om_wm_engagement) or of several a side (om_wm_multi, MULTICOMBAT.md), one
 * engine for both. Rule-set differences are data in om_wm_ruleset, special
 * rules are typed traits (wm_traits.h) from the registry of special.c, never
 * copies of code; a unit's state in a fight (om_wm_unit_state) can be owned
 * by the caller. Rules are cited by rulebook section ("Combat > Retreats"):
 * Warmaster Revolution's unless another rulebook is named (Warmaster Ancients,
 * the Warmaster 1.1 Rules Update). A3, W7 and D5 are the ambiguities, worked
 * examples and 1.1 differences of the Warmaster mechanics digest
 * (scenarios/armies/sources/rules/warmaster.md; WMA A5 of the Ancients one),
 * A-14 and P18 the readings and effects of the research note
 * docs/research/rule_effects_fantasy.md.
 */
#ifndef OM_WM_H
#define OM_WM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "dice.h"
#include "options.h"
#include "status.h"
#include "wm_traits.h"

/* Troop types (Warmaster Revolution, Movement > Movement Chart). */
typedef enum om_wm_troop {
    OM_WM_INFANTRY = 0,
    OM_WM_CAVALRY,
    OM_WM_CHARIOT,
    OM_WM_MONSTER,
    OM_WM_ARTILLERY,
    OM_WM_MACHINE,
    OM_WM_TROOP_COUNT
} om_wm_troop;

/* A unit's position (Warmaster Revolution, Combat > Defended & Fortified
 * Troops): decides the score needed to hit it. */
typedef enum om_wm_position {
    OM_WM_OPEN = 0,
    OM_WM_DEFENDED,
    OM_WM_FORTIFIED,
    OM_WM_POSITION_COUNT
} om_wm_position;

/* The rule sets of the family. */
typedef enum om_wm_ruleset_id {
    OM_WM_RULES_WM11 = 0, /* Warmaster 1.1 (official Rules Update) */
    OM_WM_RULES_REV,      /* Warmaster Revolution (community rules) */
    OM_WM_RULES_WMA,      /* Warmaster Ancients (2005 rulebook) */
    OM_WM_RULES_COUNT
} om_wm_ruleset_id;

/* How the engine models a special rule of its registry. */
typedef enum om_wm_special_how {
    OM_WM_BY_TRAITS = 0,  /* by the traits it gives the unit that has it */
    OM_WM_BY_SIDE_KEYS,   /* declared with side keys (caractacus, aura, power) */
    OM_WM_BY_DEFAULT      /* it changes nothing the engine does not do anyway */
} om_wm_special_how;

/* A special rule the engine implements (special.c): one row of the registry. */
typedef struct om_wm_special {
    const char *id;      /* rule id as used in army data and scenarios, e.g. "terror" */
    om_wm_traits traits; /* what it makes a unit do, under every rule set not in `in` */
    const om_wm_traits *in[OM_WM_RULES_COUNT]; /* what it makes a unit do under one rule
                                                  set whose army list words it otherwise,
                                                  or NULL: `traits` */
    om_wm_special_how how; /* traits, side keys, or nothing to do */
    uint8_t joined_shots;  /* shooting Attacks a character with the rule (or riding a
                              mount with it) adds to the unit it joins
                              (rule_effects_fantasy) */
    uint8_t joined_range_cm; /* their range in cm */
    const char *effect;  /* one sentence: what the engine does with it */
    const char *section; /* rulebook section it implements */
} om_wm_special;

/* The implemented special rule with this id, or NULL if the engine does not
 * model it (the caller then records it as not modelled). */
const om_wm_special *om_wm_special_find(const char *id);

/* Number of implemented special rules, and the i-th (NULL past the end). */
size_t om_wm_special_count(void);
const om_wm_special *om_wm_special_at(size_t i);

/* Most modelled special rules one unit records: its own and those of a joined
 * character and mount (the army lists give a unit at most 5). */
#define OM_WM_UNIT_RULES_MAX 16

/* One unit's values (Game Values). Every stand of a unit has the same values. */
typedef struct om_wm_unit {
    char name[64];       /* display name, e.g. "Knights" */
    om_wm_troop troop;   /* troop type */
    uint8_t stands;      /* stands in the unit at the start (1..12) */
    uint8_t size;        /* stands at full strength (0: = stands); fewer stands means losses */
    uint8_t attacks;     /* close combat Attacks per stand */
    uint8_t shots;       /* shooting Attacks per stand (0: cannot shoot) */
    uint8_t range_cm;    /* shooting range in cm (0: cannot shoot) */
    uint8_t hits;        /* hits that remove one stand (1..8) */
    uint8_t armour;      /* save score 3..6; 0 means no save */
    uint8_t pace_cm;     /* full-pace move in cm: a drive back beyond it routs */
    uint16_t points;     /* points value of the whole unit (0: unknown) */
    om_wm_traits traits; /* what its special rules make it do (om_wm_unit_add_rule) */
    bool chaos_or_undead; /* from a Chaos or Undead army list, hated by Zealots */
    uint8_t rule_count;  /* modelled special rules recorded in `rule` */
    uint16_t rule[OM_WM_UNIT_RULES_MAX]; /* each modelled special rule it carries, once, as
                                            its index in the registry (om_wm_special_at),
                                            for provenance: the engine reads `traits` */
    uint16_t joined;     /* bit i: rule[i] came with a joined character or mount, which
                            gives the unit only part of its traits (om_wm_join_traits) */
    char unmodelled[192]; /* comma-separated ids of its special rules the engine does not
                             model yet (reported with every run, never dropped) */
} om_wm_unit;

/* Stands of the unit at full strength (its size, or its stands when size is 0). */
static inline unsigned om_wm_unit_size(const om_wm_unit *u)
{
    return u->size ? u->size : u->stands;
}

/* The winner's choice after a won round (Combat > Aftermath): pursue when
 * allowed, or not. */
typedef enum om_wm_pursue {
    OM_WM_PURSUE_ALWAYS = 0, /* pursue whenever the rules allow (the common play) */
    OM_WM_PURSUE_NEVER,      /* always stand (or fall back): the combat ends */
    OM_WM_PURSUE_WHEN_AHEAD  /* pursue while it has at least as many stands as the loser */
} om_wm_pursue;

/* What lies behind a unit, in the direction it would retreat (Combat > Retreats,
 * Movement > Units Which Move off the Table, Confusion > Making Way). */
typedef enum om_wm_behind {
    OM_WM_BEHIND_OPEN = 0,      /* open ground: retreats are never blocked */
    OM_WM_BEHIND_IMPASSABLE,    /* impassable terrain: blocked stands are destroyed */
    OM_WM_BEHIND_ENEMY,         /* an enemy unit: blocked stands are destroyed */
    OM_WM_BEHIND_UNYIELDING,    /* engaged or unyielding friends: blocked stands destroyed */
    OM_WM_BEHIND_FRIENDS,       /* friends that make way: the retreater tests confusion (6) */
    OM_WM_BEHIND_TABLE_EDGE,    /* the table edge: retreating off it destroys the unit */
    OM_WM_BEHIND_COUNT
} om_wm_behind;

/* A magic standard or weapon with a dice effect in an engagement (Magic >
 * Magic Items; Warmaster 1.1 and Revolution). The simulated engagement
 * is taken to be the unit's first, for the items that say "first combat
 * engagement". */
typedef enum om_wm_magic {
    OM_WM_MAGIC_NONE = 0,
    OM_WM_MAGIC_BATTLE_BANNER,     /* +1 Attack to every stand */
    OM_WM_MAGIC_SHIELDING,         /* armour one better (none -> 6+, at best 3+) until a stand is lost */
    OM_WM_MAGIC_FORTITUDE,         /* +1 Hits per stand */
    OM_WM_MAGIC_STEADFASTNESS,     /* ignore 1 shooting hit per turn until a stand is lost */
    OM_WM_MAGIC_DESTRUCTION,       /* the enemy re-rolls one successful save each round */
    OM_WM_MAGIC_FATE,              /* +1 Attack to one stand in the first round */
    OM_WM_MAGIC_CLEAVING,          /* re-roll one failed Attack die each round */
    OM_WM_MAGIC_MIGHT,             /* +1 Attack to one stand in every round */
    OM_WM_MAGIC_COUNT
} om_wm_magic;

/* Item ids as scenario files write them ("battle-banner", ...), by om_wm_magic. */
extern const char *const om_wm_magic_names[]; /* [OM_WM_MAGIC_COUNT] */

/* Protection from terror that comes from outside the unit (rule_effects_fantasy
 * P06, A-26): touching the Screaming Bell, or an Anvil of Doom or Shrine struck
 * in the owner's Shooting phase on a 4+ and lasting to the start of its next
 * turn. */
typedef enum om_wm_aura {
    OM_WM_AURA_NONE = 0,
    OM_WM_AURA_ALWAYS,   /* immune to terror throughout (touching the Bell, or struck) */
    OM_WM_AURA_ROLL,     /* a D6 in each of the owner's turns: immune on a 4+ until its next */
    OM_WM_AURA_COUNT
} om_wm_aura;

/* A once-a-battle power used in one turn of the engagement. */
typedef enum om_wm_power {
    OM_WM_POWER_NONE = 0,
    OM_WM_POWER_TOMB_KING, /* +1 Attack per stand for one Combat phase (Tomb King) */
    OM_WM_POWER_OATHSTONE, /* +1 Attack per stand and to the Hero, immune to terror (REV) */
    OM_WM_POWER_COUNT
} om_wm_power;

/* A War Wagon's formation (Kislev army lists). */
typedef enum om_wm_formation {
    OM_WM_FORMATION_NONE = 0, /* not a War Wagon */
    OM_WM_FORMATION_COLUMN,   /* in the open; Revolution: retreats rather than destroyed */
    OM_WM_FORMATION_LAAGER,   /* defended, no flank or rear, holds when it loses a round,
                                 never moved by drive backs (confused on a 6) */
    OM_WM_FORMATION_COUNT
} om_wm_formation;

/* Names as scenario files write them, by enumeration. */
extern const char *const om_wm_formation_names[]; /* "none", "column", "laager" */
extern const char *const om_wm_aura_names[];  /* [OM_WM_AURA_COUNT] "none", "always", "roll" */
extern const char *const om_wm_power_names[]; /* [OM_WM_POWER_COUNT] "none", "tomb-king", ... */

/* One side of an engagement: its unit plus what the geometry decided. */
typedef struct om_wm_side {
    om_wm_unit unit;          /* the unit's values */
    om_wm_position position;  /* open, defended or fortified */
    uint8_t fighting;         /* stands touching the enemy (<= stands) */
    uint8_t flanked;          /* fighting stands touched on side/rear by an enemy front (-1 each) */
    uint8_t supports;         /* supporting stands, +1 each to the result (infantry only,
                                 Combat > Supporting Troops) */
    uint8_t support_units;    /* other units supplying those supports (retreat divisor,
                                 Combat > Retreats) */
    uint8_t attack_bonus;     /* a joined character's bonus, added to one stand (Combat > Attack
                                 Modifiers, A39), at most OM_WM_MAX_BONUS */
    uint8_t shooting;         /* stands that shoot (volley or stand and shoot) */
    uint8_t extra_shots;      /* shooting Attacks of a joined character (Dragon fire 3,
                                 Djinn 2), at the usual to-hit and save, none of the
                                 unit's own shooting rules (army lists;
                                 rule_effects_fantasy A-14) */
    uint8_t extra_range_cm;   /* their range: volleys at a target_cm beyond it leave
                                 them out (0: any range) */
    bool charging;            /* charged this turn: charge bonus in round 1 (Combat > Attack
                                 Modifiers) */
    bool advancing;           /* advanced into this engagement in the Combat phase (Combat >
                                 Advance): no charge bonus, but an enemy it touches with
                                 stand_and_shoot shoots at it as at a charger */
    bool confused;            /* -1 Attack per stand, cannot support (Confusion > Confused Units) */
    bool stand_and_shoot;     /* shoots at the charging (or advancing) enemy before round 1
                                 (Shooting > Shooting at Charging Enemy; Combat > Advance) */
    bool shoots_first;        /* shot at the enemy in its own previous turn (Shooting > Driving
                                 Back Enemies): the charged side at the charger (confusion stops
                                 the charge), or the charger at its target */
    om_wm_pursue pursue;      /* policy when it wins a round */
    om_wm_behind behind;      /* what lies behind it */
    uint8_t behind_cm;        /* how far behind (cm) */
    uint8_t behind_stands;    /* stands whose retreat path it blocks (<= stands) */
    uint8_t rear_supports;    /* of `supports`, those from behind (phalanx and skirmish
                                 infantry cannot use them; maniple dice come from them) */
    uint8_t side_strikers;    /* fighting stands striking to a side or rear edge (phalanx) */
    bool long_base;           /* shock cavalry based on the long edge (Ancients) */
    bool dense_terrain;       /* in woods, villages, marsh or steep hills (shieldwall) */
    uint8_t line_stands;      /* enemy stands in this side's line of fire (cannon bounce,
                                 bolt-thrower skewer): 1..3, 0 meaning 1 */
    uint8_t target_cm;        /* distance to the target of its volleys, for shots that
                                 depend on range (0: the longest range band) */
    bool blind_fire;          /* its volley is shot blind at a target it cannot see: 6s to hit
                                 (stone throwers, Trebuchet; Artillery & Machines > Artillery) */
    bool evade;               /* skirmishers charged evade after shooting: no round is
                                 fought, their hits drive the charger back (Ancients) */
    om_wm_formation formation; /* a War Wagon's formation; only its wagon stand fights
                                  and shoots (fighting, shooting 1) */
    bool beside_laager;       /* Kislev infantry touching a laagered wagon: defended
                                 against shooting and in the first round (army list) */
    bool shugenja;            /* a Shugenja within 20cm: +1 to its Daemonic Instability
                                 rolls (Nippon list) */
    om_wm_magic magic;        /* the unit's magic item, if any */
    bool pushed;              /* a Screaming Bell touching pushing Skaven infantry: it may
                                 pursue and fall back (army list) */
    bool no_pursue;           /* a spell forbids it to pursue or advance, even when it
                                 must (army lists: Dominion; magic.h) */
    om_wm_aura aura;          /* protection from terror from outside the unit */
    om_wm_power power;        /* a once-a-battle power used in turn power_turn */
    uint8_t power_turn;       /* the engagement's turn of that power (1 = the charge's) */
} om_wm_side;

/* What an engagement simulates. */
typedef enum om_wm_kind {
    OM_WM_KIND_COMBAT = 0, /* optional stand and shoot, then the first combat round */
    OM_WM_KIND_VOLLEY,     /* side A shoots at side B in the Shooting phase */
    OM_WM_KIND_ENGAGEMENT, /* the whole fight: rounds, pursuits and turns to the end */
    OM_WM_KIND_COUNT
} om_wm_kind;

/*
 * Interpretations of ambiguous rules (the digests' ambiguities), each a named
 * option with the digest's recommended default (see options.c and `oddsmaster
 * list --options`). Zero-initialised values are the defaults.
 */
typedef struct om_wm_options {
    bool last_ditch_per_stand;     /* A3: each stand at 0 rolls a die (default: one per unit) */
    bool infantry_pursues_cavalry; /* A6: infantry may pursue cavalry/chariots (default: never) */
    bool defended_after_retreat;   /* A8: a retreated unit keeps its position (default: lost) */
    bool result_cap_ignores_carried; /* A21: cap counted hits at full capacity (default: remaining) */
    uint8_t max_turns;             /* turns an unresolved engagement may last (0: 10) */
} om_wm_options;

/* Named switches and tables where the rule sets differ (the Warmaster 1.1 Rules
 * Update and Warmaster Ancients against Revolution). */
typedef struct om_wm_ruleset {
    om_wm_ruleset_id id;        /* which rule set */
    const char *name;           /* identifier in scenario files */
    const char *title;          /* human title */
    const char *short_title;    /* its name in a sentence: "Warmaster Ancients" */
    uint8_t charge_bonus[OM_WM_TROOP_COUNT]; /* Attacks added per charging stand vs open enemy */
    uint8_t to_hit[OM_WM_POSITION_COUNT];    /* score to hit infantry/artillery by position */
    bool supports_after_casualties; /* D5: WM11 counts supports after stands are removed */
    bool retreat_divisor_engaged_only; /* D6/A10: WM11 divides by engaged units only */
    bool confused_units_support;  /* WMA: confusion does not stop supports (Confused Units) */
    bool drive_back_discount_infantry_only; /* WMA: only infantry ignores hits (Driving Back) */
    bool bonus_after_stand_floor; /* WMA A5: commander bonus added after the stand's 0 floor */
    bool retreat_off_table_rolls; /* Warmaster Ancients, Movement > Units Moving off Table:
                                     retreating off the table rolls D6 - stands lost */
    bool impassable_halt_confuses; /* Warmaster Ancients, Confusion > When do Units Become
                                      Confused? (2): driven back into impassable: confused */
    bool badly_hurt_when_engaged; /* WM11 lists: a monster becomes badly hurt at the end
                                     of a Combat phase even while still engaged */
    bool wagon_column_retreats;   /* REV list: a War Wagon column forced to retreat does,
                                     instead of being destroyed as artillery is */
    bool laager_shelter_needs_charge; /* WM11 list: Kislev infantry beside a laager is
                                     defended in combat only when charged */
    bool shoot_at_advancers;      /* a unit advanced upon shoots at the advancing unit as
                                     at a charger (Warmaster Revolution and Warmaster
                                     Ancients, Combat > Advance; 1.1: fixed reading
                                     advance_shooting) */
    bool magic_items;             /* its armies carry magic items (Magic > Magic Items;
                                     not WMA) */
    bool characters_shoot;        /* a character's mount or companion may shoot with the
                                     unit it joins (rule_effects_fantasy;
                                     not WMA) */
    bool oathstone;               /* the Dwarfs' Oathstone is a power (REV list) */
    bool caractacus;              /* Caractacus may lead the Britons (WMA list) */
    uint8_t bolt_line_stands;     /* most stands a bolt thrower's bolt strikes (Artillery &
                                     Machines > Artillery, D4: 2 in REV, a Bone Thrower's 3 in
                                     WM11) */
    double deploy_apart_cm;       /* the armies' fronts as they deploy, this far apart
                                     (Battlefields > Table Size and Deployment Areas: 80cm;
                                     Warmaster Ancients, The Battlefield > Deployment: at
                                     least 90cm, 45cm from the centre line) */
} om_wm_ruleset;

/* Look a rule set up by name; NULL if unknown. */
const om_wm_ruleset *om_wm_ruleset_find(const char *name);

/* The traits special rule `sp` gives a unit under rule set `rs` (its row for
 * that rule set, else its common traits; rs NULL: the common traits). */
const om_wm_traits *om_wm_special_traits(const om_wm_special *sp, const om_wm_ruleset *rs);

/* Whether trait record t is what a character (or its mount) with rule `sp`
 * passes to the unit it joins under rule set rs, in *out: terror, an extra
 * die charging, armour one better in combat and a re-roll pass on (Generals,
 * Wizards & Heroes > Joining a Unit; Ancients army lists), a big monster's
 * badly hurt stays with it (a rider has no Hits to lose). False, with *out
 * empty, for a rule that gives the unit nothing or something a joined
 * character cannot give (then not modelled). */
bool om_wm_join_traits(const om_wm_special *sp, const om_wm_ruleset *rs, om_wm_traits *out);

/*
 * om_wm_unit_add_rule: unit u carries the modelled special rule `sp` under
 * rule set `rs`: its traits merge into u->traits (om_wm_traits_merge) and it
 * is recorded once in u->rule. Errors (u unchanged): OM_EINVAL if the rule
 * disagrees with the unit's other rules about a one-of-several trait ("special
 * rule 'helblaster' disagrees with the unit's other rules on shooter:
 * helblaster against cannon"), or if the unit already records
 * OM_WM_UNIT_RULES_MAX rules. Pure apart from the error slot; thread-safe.
 */
om_status om_wm_unit_add_rule(om_wm_unit *u, const om_wm_ruleset *rs, const om_wm_special *sp);

/*
 * om_wm_unit_add_unmodelled: record rule `id` in u->unmodelled (comma
 * separated, each id once): a rule the engine does not model, reported with
 * every run. Error: OM_EINVAL if it does not fit ("too many special rules to
 * record as not modelled"), u unchanged.
 */
om_status om_wm_unit_add_unmodelled(om_wm_unit *u, const char *id);

/* Whether rule `id` is among u's rules recorded as not modelled by the
 * engagement engine (om_wm_unit_add_unmodelled). Pure. */
bool om_wm_unit_unmodelled_has(const om_wm_unit *u, const char *id);

/*
 * om_wm_side_join: a character or a mount of the army lists joins side s under
 * rule set rs, with its Attacks bonus `attacks` and its special-rule ids
 * ids[0..n): the bonus is added to s->attack_bonus (Generals, Wizards & Heroes
 * > Characters in Combat); a rule om_wm_join_traits passes on is added to the unit (recorded
 * as joined); Dragon fire or a Djinn set s->extra_shots and s->extra_range_cm,
 * the most Attacks of those joining; a rule modelled through side keys or by
 * default changes nothing here; every other rule is recorded as not modelled.
 * Call it for the character, then for its mount. Errors: those of
 * om_wm_unit_add_rule and om_wm_unit_add_unmodelled.
 */
om_status om_wm_side_join(om_wm_side *s, const om_wm_ruleset *rs, unsigned attacks,
                          char *const *ids, size_t n);

/* Whether the army list `army_id` ("skaven") counts as Chaos or Undead, whom
 * Witch Hunter Zealots hate. */
bool om_wm_army_chaos_or_undead(const char *army_id);

/*
 * om_wm_side_caractacus: side s is Britons Chariots of an army led by
 * Caractacus, no chariot unit of it destroyed yet (Warmaster Ancients, Britons
 * army list > Special Rules): they cause terror unless the enemy's army
 * includes Chariots, which it does if its unit is chariots or if
 * `enemy_army_has_chariots` (its army list has a chariot unit; the caller
 * looks it up). Errors: OM_EINVAL if the rule set has no Caractacus or the
 * unit is not chariots ("Caractacus leads Britons Chariots in Warmaster
 * Ancients (this unit is cavalry in warmaster-revolution)").
 */
om_status om_wm_side_caractacus(om_wm_side *s, const om_wm_side *enemy, const om_wm_ruleset *rs,
                                bool enemy_army_has_chariots);

/* The formation of a unit when the scenario names none: a War Wagon
 * (artillery) is in column, any other unit has none (Kislev lists). */
om_wm_formation om_wm_formation_default(const om_wm_unit *u);

/* Stands that fight and shoot when the scenario does not say: all of them,
 * or a War Wagon's one wagon stand (Kislev lists). */
unsigned om_wm_active_stands_default(const om_wm_unit *u);

/* The rule set with this id. */
const om_wm_ruleset *om_wm_ruleset_get(om_wm_ruleset_id id);

/* The range of a shooting unit whose values give none: the common bow range
 * (Warmaster Revolution, Range: "30cm"). */
#define OM_WM_DEFAULT_RANGE_CM 30u

/*
 * om_wm_side_init: side `s` of an engagement for unit `u` as the rules take it
 * when nothing else is said: in the open, every stand fighting and shooting
 * (a War Wagon's wagon stand only, in column), not charging, no supports, no
 * character, no item, pursuing whenever allowed, open ground behind, one stand
 * in a line of fire. Scenario files and matrix cells start from it.
 */
void om_wm_side_init(om_wm_side *s, const om_wm_unit *u);

/* Full-pace move of a troop type in cm (Movement > Movement Chart). */
unsigned om_wm_troop_pace(om_wm_troop troop);

/* Name of a troop type as written in scenario files ("infantry", ...). */
const char *om_wm_troop_name(om_wm_troop troop);
extern const char *const om_wm_troop_names[];    /* [OM_WM_TROOP_COUNT] "infantry", ... */
extern const char *const om_wm_position_names[]; /* [OM_WM_POSITION_COUNT] "open", ... */

/* Name of a position ("open", "defended", "fortified"). */
const char *om_wm_position_name(om_wm_position position);

/* Turns an unresolved engagement lasts when options.max_turns is 0. */
#define OM_WM_DEFAULT_MAX_TURNS 10u

/* The words scenario files and result files use for the engine's choices,
 * indexed by the enumeration (ruleset.c). */
#define OM_WM_PURSUE_COUNT 3
extern const char *const om_wm_kind_names[];   /* [OM_WM_KIND_COUNT] "combat", ... */
extern const char *const om_wm_pursue_names[]; /* [OM_WM_PURSUE_COUNT] "always", ... */
extern const char *const om_wm_behind_names[]; /* [OM_WM_BEHIND_COUNT] "open", ... */

/* One interpretation of an ambiguous rule (options.c): a switch of om_wm_options,
 * or a fixed reading that the engine implements (a row of a registry,
 * options.h). */
typedef om_option om_wm_option;

/* Offset marking a fixed reading (not a field of om_wm_options). */
#define OM_WM_OPTION_FIXED OM_OPTION_FIXED

/* The largest max_turns a scenario may set. */
#define OM_WM_MAX_TURNS_LIMIT 100u

/* The registry of the engagement's readings (options.c). */
extern const om_option_table om_wm_option_registry;

/* Number of options and fixed readings, the i-th, and lookup by name. */
size_t om_wm_option_count(void);
const om_wm_option *om_wm_option_at(size_t i);
const om_wm_option *om_wm_option_find(const char *name);

/* Set option `name` from its text ("true"/"false", or a number for max_turns).
 * Errors: OM_ENOTFOUND (unknown name), OM_EINVAL (fixed reading or bad value). */
om_status om_wm_option_set(om_wm_options *o, const char *name, const char *value);

/* The value of `opt` in `o` as text ("true", "false", "10", or "fixed"). */
const char *om_wm_option_value(const om_wm_options *o, const om_wm_option *opt, char *buf,
                               size_t size);

/* A complete engagement to simulate: what, under which rules, between whom. */
typedef struct om_wm_engagement {
    const om_wm_ruleset *rules; /* rule set (static storage) */
    om_wm_kind kind;            /* first combat round, volley, or whole engagement */
    om_wm_side side[2];         /* side[0] is A, side[1] is B */
    om_wm_options options;      /* interpretations of ambiguous rules */
} om_wm_engagement;

/* Sides and the winner code of an outcome. */
enum { OM_WM_SIDE_A = 0, OM_WM_SIDE_B = 1, OM_WM_DRAW = 2, OM_WM_NO_CONTEST = 3 };

/* The drive-back distance recorded for a unit that its drive back took off the
 * table (routed beyond its full pace, or over the table edge,
 * Shooting > Driving Back Enemies and Movement > Units Which Move off the
 * Table): further than any distance a unit that stays is driven back, so that
 * P(drive back >= k) counts it for every k, and never a roll of dice it did
 * not survive. */
#define OM_WM_LEFT_TABLE_CM 255u

/*
 * The result of one trial. Hits and stands are per unit (index = side). Fields a
 * kind does not produce stay 0. Small integer types keep blocks compact.
 */
typedef struct om_wm_outcome {
    uint8_t winner;           /* combat: round 1; engagement: the whole fight (OM_WM_SIDE_A,
                                 OM_WM_SIDE_B, OM_WM_DRAW, OM_WM_NO_CONTEST if unresolved
                                 or no charge); volley: NO_CONTEST */
    uint8_t round1_winner;    /* winner of the first combat round (engagement) */
    uint8_t result[2];        /* round 1 result of each side (hits counted + shooting + supports) */
    uint8_t hits_on[2];       /* hits each unit suffered after saves, all sources */
    uint8_t shot_hits_on[2];  /* of those, hits from shooting */
    uint8_t stands_lost[2];   /* stands each unit lost (all of them if destroyed or routed) */
    uint8_t retreat_cm;       /* the round 1 loser's retreat distance in cm (0: none) */
    uint8_t retreated_cm[2];  /* total distance each unit retreated (engagement) */
    uint8_t fall_back_cm[2];  /* after a draw, how far each unit fell back (0: it stood) */
    uint8_t rounds;           /* combat rounds fought */
    uint8_t turns;            /* turns the engagement lasted (1 if resolved in the first) */
    uint8_t charged;          /* 1 if the charge went in (not stopped by shooting first) */
    uint8_t drive_back_cm;    /* distance the shot unit was driven back (volley, shoots_first),
                                 OM_WM_LEFT_TABLE_CM if the drive back took it off the table
                                 (routed, or over the table edge) */
    uint8_t confused[2];      /* 1 if the unit ended confused (never a destroyed or routed one) */
    uint8_t routed[2];        /* 1 if the unit was routed by a drive back (then destroyed) */
    uint8_t destroyed[2];     /* 1 if the unit was destroyed (any cause) */
    uint8_t hurt[2];          /* 1 if the unit (a big monster) became badly hurt */
} om_wm_outcome;

/*
 * The state of one unit in an engagement: what changes as its dice fall.
 * Each trial of om_wm_resolve starts from the prepared state of both units;
 * a caller that fights several engagements with the same units (a whole
 * turn) owns one state per unit, starts it with om_wm_unit_state_start (or
 * om_wm_multi_unit_state_start) and passes the units engaged to
 * om_wm_resolve_units or om_wm_multi_resolve, which carry them on. Hits
 * carried and the stands left stay with the unit; `pursuit`, `shot` and
 * `retreated` belong to one engagement: om_wm_resolve_units starts them at 0,
 * om_wm_multi_resolve reads them (an unresolved combat's pursuit bonus and
 * last retreat, hits shot at the charge before the call) and clears them
 * when the unit's engagement is over.
 */
typedef struct om_wm_unit_state {
    unsigned stands;       /* stands left */
    unsigned carried;      /* hits carried (fewer than its Hits) */
    unsigned behind_cm;    /* distance left to what is behind it */
    unsigned pursuit;      /* pursuit bonus per stand in the coming round (0: none) */
    unsigned shot;         /* hits it scored by shooting at the charge, counted in
                              round 1 (Shooting > Shooting at Charging Enemy) */
    bool confused;         /* confused now */
    bool in_open;          /* in the open: never defended, or lost its position
                              (Combat > Defended & Fortified Troops) */
    bool retreated;        /* retreated in the previous round (warband -1) */
    bool regains_position; /* in the open until the turn ends only (option A8) */
    bool left_table;       /* retreated off the table and survived (Warmaster Ancients,
                              Movement > Units Moving off Table) */
    bool hurt;             /* a big monster badly hurt: half its Hits and Attacks */
    bool fearless;         /* immune to terror now by an aura (Bell, Anvil, Shrine) */
    bool reduced;          /* its Flame Cannon shoots 1D6 from now on (misfire 3) */
} om_wm_unit_state;

/*
 * The dice tests of one unit attacking another, prepared before the trials:
 * to hit and to save in combat and in shooting, each with the alias table of
 * its binomial (om_dice_test).
 */
typedef struct om_wm_pair_tests {
    om_dice_test melee[7];          /* in combat: [0] against the enemy as declared, [1] in
                                       the open, [2] as declared with its round 1
                                       shieldwall save, [3] and [4] as [0] and [1] against
                                       its Banner of Shielding (while it has lost no
                                       stand), [5] against it defended (pikes in the first
                                       round), [6] the same with its Banner of Shielding */
    om_dice_test shoot;             /* a volley at it */
    om_dice_test shoot_charger;     /* shooting at its charge */
    om_dice_test shoot_charger_worn; /* the same once its Banner of Shielding no longer
                                        works (Magic > Magic Items) */
    om_dice_test breath[3];         /* a joined character's shooting (extra_shots): [0] a
                                       volley, [1] at a charger, [2] at a charger whose
                                       Banner of Shielding no longer works */
} om_wm_pair_tests;

/*
 * A prepared engagement: the engagement plus the read-only dice tables its trials
 * need. Built once per run, shared by all threads, never modified while trials run.
 */
typedef struct om_wm_prepared {
    om_wm_engagement e;           /* copy of the engagement */
    om_wm_pair_tests tests[2];    /* side i attacking or shooting at the other side */
    uint8_t combat_hits[2];       /* side i's Hits per stand in combat (+1 with a Banner of
                                     Fortitude, Magic > Magic Items) */
    om_wm_side hurt[2];           /* side i once badly hurt: Hits and Attacks halved,
                                     Shots halved rounded up (army lists) */
    uint8_t hurt_hits[2];         /* side i's Hits per stand in combat once badly hurt */
    uint8_t lost_at[2][256];      /* stands removed from side i by h carried hits in combat:
                                     h / combat_hits */
    uint8_t left_at[2][256];      /* hits carried after that removal: h % combat_hits */
    uint8_t round1_dice[2][16];   /* side i's round 1 attack dice by its stands left */
    om_binom_table *tables[32];   /* owned tables behind the tests above */
    struct om_wm_duel *duel;      /* the two units as the combat engine sees an
                                     engagement of any number of units, one a side, and
                                     the fight state every trial copies before its first
                                     die (combat.c) */
    struct om_wm_round1 *round1;  /* the first round tabulated by hit counts, or NULL
                                     (combat.c; used by the fast dice only) */
} om_wm_prepared;

/* Where and why an engagement failed its check (check.h): the dotted path of
 * the offending field, e.g. "a.unit.stands", and what is wrong. */
typedef om_check_failure om_wm_check_failure;

/*
 * om_wm_engagement_check: validate an engagement (values in range, supports only
 * for infantry, stand and shoot only by a shooting unit charged by the enemy...).
 * Returns OM_OK, or OM_EINVAL after filling `why` (if not NULL) with the dotted
 * field path as written in scenario files and the reason, and raising an error
 * "field 'PATH': REASON". Scenario loaders map PATH to a file line.
 */
om_status om_wm_engagement_check(const om_wm_engagement *e, om_wm_check_failure *why);

/*
 * om_wm_prepare_alloc: check `e` and build its dice tables. On success *out owns
 * the tables; free with om_wm_prepared_free. Errors: OM_EINVAL, OM_ENOMEM.
 */
om_status om_wm_prepare_alloc(const om_wm_engagement *e, om_wm_prepared **out);

/* Free a prepared engagement (NULL allowed). */
void om_wm_prepared_free(om_wm_prepared *p);

/*
 * om_wm_resolve: simulate one trial of the prepared engagement with dice `d` and
 * write the outcome. Pure apart from advancing `d`; thread-safe for distinct `d`.
 */
void om_wm_resolve(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out);

/* A trial of no class (om_wm_resolve_classes). */
#define OM_WM_NO_CLASS 0xFFFFu

/* Most classes a prepared engagement has: beyond, it has none (counting a
 * block of trials by class pays only while classes are few). */
#define OM_WM_CLASSES_MAX 4096u

/*
 * om_wm_classes: the classes of the prepared engagement's trials: trials
 * whose whole outcome is one of a few known when it is prepared, class k's
 * outcome (*outcomes)[k] for k < *n (*n = 0: no classes). An engagement of
 * the first round only whose round comes from its table has one per pair of
 * hit counts; a trial whose aftermath rolls dice is of no class. The
 * outcomes belong to p. Pure; thread-safe.
 */
void om_wm_classes(const om_wm_prepared *p, const om_wm_outcome **outcomes, size_t *n);

/*
 * om_wm_resolve_classes: n trials of om_wm_resolve into out[0..n), and each
 * trial's class (om_wm_classes) into cls[i], or OM_WM_NO_CLASS. The outcome
 * of a trial of a class is written only when `class_outcomes` (its class
 * says it all); any other trial's always is. The same dice as n calls of
 * om_wm_resolve: the same outcomes. Pure apart from advancing `d`;
 * thread-safe for distinct `d` and buffers.
 */
void om_wm_resolve_classes(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out,
                           uint16_t *cls, bool class_outcomes, size_t n);

/*
 * om_wm_resolve_classes2: om_wm_resolve_classes of two sets of trials, n[j]
 * trials with dice d[j] into out[j] and cls[j] (j = 0, 1), at once: the
 * same outcomes, classes and dice as the two calls one after the other, the
 * two generators' steps interleaved trial by trial where trials are drawn
 * from the first round's table (each step is a chain of multiplications the
 * processor overlaps with the other's). Pure apart from advancing d[0] and
 * d[1], which must be distinct; thread-safe for distinct dice and buffers.
 */
void om_wm_resolve_classes2(const om_wm_prepared *p, om_dice *const d[2],
                            om_wm_outcome *const out[2], uint16_t *const cls[2],
                            bool class_outcomes, const size_t n[2]);

/*
 * om_wm_unit_state_start: the state of side s's unit (0: A, 1: B) of
 * engagement e before the engagement begins: its stands, no hits carried, its
 * declared confusion, in the open unless its position (or a laager) shelters
 * it, immune to terror if its aura always makes it so. Pure; thread-safe.
 */
void om_wm_unit_state_start(const om_wm_engagement *e, int s, om_wm_unit_state *u);

/*
 * om_wm_resolve_units: simulate one trial of the prepared engagement between
 * units in states *a (side A) and *b (side B), owned by the caller, and
 * write the outcome; both states are updated to the units' states after it.
 * Stands lost in the outcome count from the states' stands at the start. A
 * state equal to om_wm_unit_state_start gives the same law as om_wm_resolve
 * (which also uses tables prepared for that start). Pure apart from advancing
 * `d` and the states; thread-safe for distinct `d` and states.
 */
void om_wm_resolve_units(const om_wm_prepared *p, om_dice *d, om_wm_unit_state *a,
                         om_wm_unit_state *b, om_wm_outcome *out);

/* --- Engagements of several units a side (engine/warmaster/MULTICOMBAT.md) --- */

/* Largest character bonus to a unit's Attacks the engine takes (+2 a hero,
 * +2 a monstrous mount, +1 magic: under 6), all the characters joined
 * together. */
#define OM_WM_MAX_BONUS 6

/*
 * Most units of one engagement: as many as a table holds (table.h,
 * OM_WM_TABLE_MAX_UNITS, which asserts it). Units linked by contacts and
 * supports are one engagement (Combat > Combat Engagement), and a line of
 * units in contact, each touching the next, links every unit on a table into
 * one: no geometry caps an engagement below the table's units. A side has at
 * least one unit, so the other at most all but one.
 */
#define OM_WM_UNITS_MAX 128
#define OM_WM_SIDE_UNITS_MAX (OM_WM_UNITS_MAX - 1)
/* Most stands a unit of an engagement has (the engagement check's limit). */
#define OM_WM_UNIT_STANDS_MAX 12
/* Most contacts (stands of one unit fighting one enemy unit) and support links
 * between the units of one engagement. Every stand strikes one enemy (Combat >
 * Attacks) and supports one friend at most (Combat > Supporting Troops), and
 * a contact or a link holds one stand at least: there are no more of either
 * than stands in the engagement. */
#define OM_WM_CONTACTS_MAX (OM_WM_UNITS_MAX * OM_WM_UNIT_STANDS_MAX)
#define OM_WM_SUPPORTS_MAX (OM_WM_UNITS_MAX * OM_WM_UNIT_STANDS_MAX)
/* No unit: a pursuit target left to the engine, a unit fighting nobody. */
#define OM_WM_NO_UNIT 255u

/* How far an engagement of several units is followed. */
typedef enum om_wm_span {
    OM_WM_SPAN_ROUND = 0, /* its first round only (shooting at the charge, then round 1) */
    OM_WM_SPAN_PHASE,     /* one Combat phase: a round, and a second if a winner pursues;
                             a combat still going on after it is unresolved and carried to
                             the next turn by the caller (Combat > Pursuit; Unresolved Combat) */
    OM_WM_SPAN_END,       /* to its end, turn after turn, as kind engagement */
    OM_WM_SPAN_COUNT
} om_wm_span;

/* Stands of one unit fighting one enemy unit (Combat > Attacks): every stand
 * touching an enemy puts all its Attacks on one enemy unit. A unit touching
 * two enemies has two contacts; a unit touched but striking another has none
 * with it. */
typedef struct om_wm_contact {
    uint8_t unit;          /* index of the unit whose stands fight */
    uint8_t enemy;         /* index of the enemy unit they fight */
    uint8_t stands;        /* its stands fighting that enemy (1 or more) */
    uint8_t flanked;       /* of those, with that enemy's front on their side or rear edge
                              (-1 Attack each, first round only, Combat > Attack Modifiers) */
    uint8_t side_strikers; /* of the flanked, striking to a side or rear edge (a phalanx
                              strikes there with base Attack 0) */
} om_wm_contact;

/* Stands of one unit supporting a friendly unit's fighting stands
 * (Combat > Supporting Troops): exactly behind or beside them, not touching an
 * enemy. The unit supporting is part of the engagement: it shares the result,
 * retreats with the losers and counts in their retreat divisor (not in 1.1),
 * and it keeps its side in the fight while it lives. A unit's supports by its
 * own stands are its side's `supports` (support_units 0), never a link to
 * itself. */
typedef struct om_wm_support {
    uint8_t unit;      /* index of the supporting unit (infantry) */
    uint8_t supported; /* index of the friendly infantry unit it supports */
    uint8_t stands;    /* supporting stands: +1 each to the side's result */
    uint8_t rear;      /* of those, from behind (do not count for a phalanx or pikemen
                          supported, nor from skirmishers or pikemen) */
} om_wm_support;

/* One unit of an engagement of several. */
typedef struct om_wm_multi_unit {
    const om_wm_side *side; /* its values and settings, as for a two-unit engagement;
                               owned by the caller, read by om_wm_multi_prepare only.
                               Its fighting, flanked and side_strikers are not read (its
                               contacts say them); supports with support_units 0 are its
                               own stands supporting it, with support_units > 0 stands of
                               units the engagement does not model */
    uint8_t army;           /* OM_WM_SIDE_A or OM_WM_SIDE_B */
    uint8_t pursues;        /* the enemy unit it pursues when its side wins a round, if
                               that enemy retreats and it may pursue it (a new enemy: a
                               unit it did not fight); OM_WM_NO_UNIT: the first enemy it
                               fought that retreats */
} om_wm_multi_unit;

/*
 * An engagement of several units a side (Combat > Combat Engagement): units,
 * who fights whom and who supports whom, as the table decided. Units are
 * indexed 0..n_units-1 in unit[]; the engine treats them in index order
 * wherever order matters (dice, retreats, pursuits), so a caller that lists
 * side A's units first gets side A's dice first.
 */
typedef struct om_wm_multi {
    const om_wm_ruleset *rules; /* rule set (static storage) */
    om_wm_options options;      /* interpretations of ambiguous rules */
    om_wm_span span;            /* how far it is followed */
    uint8_t rounds_before;      /* rounds it fought in earlier turns (0: it starts now with
                                   the charges; above 0 an unresolved combat goes on, and
                                   a unit with charging set charged into it this turn,
                                   A7) */
    uint8_t turn;               /* the engagement's turn this call fights in (1, or 0: the
                                   charge's; for power_turn and the outcome's turns) */
    uint8_t n_units;            /* units, 2 .. OM_WM_UNITS_MAX, 1 .. OM_WM_SIDE_UNITS_MAX a side */
    uint16_t n_contacts;        /* contacts, 1 .. OM_WM_CONTACTS_MAX */
    uint16_t n_supports;        /* support links, 0 .. OM_WM_SUPPORTS_MAX */
    om_wm_multi_unit unit[OM_WM_UNITS_MAX];
    om_wm_contact contact[OM_WM_CONTACTS_MAX];
    om_wm_support support[OM_WM_SUPPORTS_MAX];
} om_wm_multi;

/* What an engagement of several units did to one of them. */
typedef struct om_wm_unit_result {
    uint8_t stands_lost;  /* stands it lost, from its state's stands at the start */
    uint8_t carried;      /* hits it carries at the end, short of a stand (its state's) */
    uint8_t hits_on;      /* hits it suffered after saves, all sources */
    uint8_t shot_hits_on; /* of those, hits from shooting */
    uint8_t retreated_cm; /* distance it retreated in all (its share of each lost round) */
    uint8_t fall_back_cm; /* after a draw, how far it fell back (0: it stood, or could not) */
    uint8_t pursued;      /* rounds after which it pursued */
    uint8_t followed_cm;  /* distance it followed the enemies it pursued, all rounds (the
                             retreats it pursued: a table moves it that far after them) */
    uint8_t followed;     /* the enemy it pursued last, or OM_WM_NO_UNIT if it pursued none */
    uint8_t confused;     /* 1 if it ended confused (never a destroyed or routed unit) */
    uint8_t routed;       /* 1 if a drive back routed it (then it is destroyed too) */
    uint8_t destroyed;    /* 1 if it was destroyed (any cause) */
    uint8_t hurt;         /* 1 if it (a big monster) became badly hurt */
    uint8_t left_table;   /* 1 if it retreated off the table and survived (Ancients) */
    uint8_t engaged;      /* 1 if it is still in the combat: an unresolved one goes on */
    uint8_t foe;          /* engaged: the enemy it fights next, or OM_WM_NO_UNIT (it
                             supports, or fights the enemies of its contacts) */
} om_wm_unit_result;

/* The result of one engagement of several units. */
typedef struct om_wm_multi_outcome {
    om_wm_outcome sides;  /* the engagement between the two sides: winner (of the
                             engagement for spans phase and end, of the first round for
                             span round; none while unresolved), round1_winner and
                             result (the call's first round), retreat_cm (the losers'
                             distance in it), rounds and turns of this call, charged;
                             per side: hits_on, shot_hits_on and stands_lost summed
                             over its units, retreated_cm and fall_back_cm the most
                             any unit moved, confused, routed, destroyed and hurt the
                             number of its units that were */
    uint8_t unresolved;   /* 1 if the combat goes on in the next turn (span phase) */
    uint8_t all_destroyed[2]; /* 1 if every unit of the side is destroyed: the winners
                                 may advance (Combat > Advance: a table moves them, the
                                 engine does not) */
    om_wm_unit_result unit[OM_WM_UNITS_MAX]; /* by unit index; entries beyond the
                                                 engagement's units are not written */
} om_wm_multi_outcome;

/*
 * om_wm_multi_check: validate an engagement of several units: counts in
 * range, every unit taking part (a contact or a support), contacts between
 * enemies in the engagement with no more stands than the unit has, supports
 * between friendly infantry by stands that do not fight, each unit's own
 * values as om_wm_engagement_check checks them. Returns OM_OK, or OM_EINVAL
 * after filling `why` (if not NULL) with the dotted field path
 * ("contact.2.enemy", "unit.1.unit.stands", "support.0.stands") and the
 * reason, and raising an error "field 'PATH': REASON". Pure apart from the
 * error slot; thread-safe.
 */
om_status om_wm_multi_check(const om_wm_multi *m, om_wm_check_failure *why);

/* The dice tables of every to-hit and save score (opaque): built once, shared
 * read-only by any number of engagements and threads. */
typedef struct om_wm_dice_kit om_wm_dice_kit;

/* om_wm_dice_kit_alloc: build the kit (a few hundred kilobytes). Free with
 * om_wm_dice_kit_free (NULL allowed). Errors: OM_ENOMEM. */
om_status om_wm_dice_kit_alloc(om_wm_dice_kit **out);
void om_wm_dice_kit_free(om_wm_dice_kit *k);

/* An engagement of several units prepared for its trials (opaque, about 40
 * kilobytes): allocated once, prepared again for every engagement. */
typedef struct om_wm_multi_prepared om_wm_multi_prepared;

/* om_wm_multi_prepared_alloc: room for one prepared engagement; free with
 * om_wm_multi_prepared_free (NULL allowed). Errors: OM_ENOMEM. */
om_status om_wm_multi_prepared_alloc(om_wm_multi_prepared **out);
void om_wm_multi_prepared_free(om_wm_multi_prepared *mp);

/*
 * om_wm_multi_prepare: check `m` (om_wm_multi_check) and prepare it in *mp
 * with the dice tables of `kit`, allocating nothing: a copy of every unit's
 * side (m and the sides it points to may change afterwards), the tests of
 * every pair that can fight (the contacts, both ways, and the pursuits the
 * units declare). `kit` must outlive *mp's use. Errors: OM_EINVAL (as
 * om_wm_multi_check). Not thread-safe on one *mp.
 */
om_status om_wm_multi_prepare(const om_wm_dice_kit *kit, const om_wm_multi *m,
                              om_wm_multi_prepared *mp, om_wm_check_failure *why);

/*
 * om_wm_multi_unit_state_start: the state of unit u of engagement m before
 * it begins (om_wm_unit_state_start for a unit of several: sheltering beside
 * a laager in 1.1 only when an enemy touching it charges). Pure; thread-safe.
 */
void om_wm_multi_unit_state_start(const om_wm_multi *m, unsigned u, om_wm_unit_state *s);

/*
 * om_wm_multi_resolve: one trial of the prepared engagement between units in
 * states *units[0..n_units) (by unit index), owned by the caller, which are
 * updated to the units' states after it: stands, hits carried (the caller
 * discards the odd hits of units no longer engaged at the end of its Combat
 * phase, Combat > Unresolved Combat), confusion, position, and for units of an
 * unresolved combat the pursuit bonus and the retreat of the last round (zero
 * for the others). A state's `shot` holds hits its unit scored shooting at its
 * chargers before this call (counted in the call's first round), besides the
 * stand and shoot of the units declaring it. Writes *out. Pure apart from
 * advancing `d` and the states; thread-safe for distinct `d`, states and
 * outcomes.
 */
void om_wm_multi_resolve(const om_wm_multi_prepared *mp, om_dice *d,
                         om_wm_unit_state *const *units, om_wm_multi_outcome *out);

/*
 * om_wm_multi_of_engagement: the engagement of several units that a
 * two-unit engagement e is, one unit a side (unit 0 side A, unit 1 side B,
 * contacts A's stands against B then B's against A, span round for kind
 * combat and end for kind engagement); its units point to e's sides, so e
 * must outlive *m. Errors: OM_EINVAL for a volley (no contact).
 */
om_status om_wm_multi_of_engagement(const om_wm_engagement *e, om_wm_multi *m);

/* --- Rule arithmetic, exposed for the worked-example tests. --- */

/* Score needed to hit `target` (Shooting > Scores to Hit, Combat > How to
 * Calculate Damage): the rule set's table by position; only infantry and
 * artillery are ever defended or fortified. */
unsigned om_wm_to_hit_score(const om_wm_ruleset *r, const om_wm_side *target);

/* The position that counts for `target` (Shooting > Scores to Hit,
 * Combat > Defended & Fortified Troops): its own, open for troops that are
 * never defended, defended for a unit that always counts as such. */
om_wm_position om_wm_effective_position(const om_wm_side *target);

/* Shooting Attacks of side `me` with `stands` stands left: per stand (plus
 * bounce or skewer stands, or by range band), times its shooting stands still
 * there; at a charger a cannon fires grapeshot (Artillery &
 * Machines > Artillery). Machines that roll their Attacks
 * (om_wm_shooter_rolls_attacks) add theirs when they shoot. */
unsigned om_wm_shots(const om_wm_side *me, unsigned stands, bool at_charger);

/* Whether a shooter rolls its own number of Attacks each time it shoots,
 * whatever its Shots (rockets, Flame Cannon, 1.1 Warp Lightning Cannon). */
static inline bool om_wm_shooter_rolls_attacks(const om_wm_traits *t)
{
    return t->shooter == OM_WM_SHOOTER_ROCKET || t->shooter == OM_WM_SHOOTER_FLAME_CANNON ||
           t->shooter == OM_WM_SHOOTER_WARP_LIGHTNING;
}

/* Whether a unit can shoot: Shots in its stat line, or a rule that gives it
 * dice of its own (om_wm_shooter_rolls_attacks). */
static inline bool om_wm_unit_shoots(const om_wm_unit *u)
{
    return u->shots > 0 || om_wm_shooter_rolls_attacks(&u->traits);
}

/* Score that saves a hit on `target` (Shooting > Armour): its armour, or 7 (no
 * save) if it has none or the attack allows none. */
unsigned om_wm_save_score(const om_wm_unit *target, bool save_allowed);

/*
 * om_wm_attack_dice: dice rolled by `me` against `foe` in a combat round
 * (Combat > Attack Modifiers): per stand Attacks + charge bonus (round 1,
 * charging, foe in the open) - terror - confused - 1 on flanked stands, each
 * stand floored at 0 (A4); the character bonus goes to the best stand (A39); a
 * unit with fighting stands always rolls at least one die (last-ditch die, A3).
 */
unsigned om_wm_attack_dice(const om_wm_ruleset *r, const om_wm_side *me, const om_wm_side *foe,
                           unsigned fighting, unsigned flanked, unsigned round);

/* What decides a side's attack dice in one round, besides the two sides. */
typedef struct om_wm_round_case {
    unsigned fighting;         /* stands fighting */
    unsigned flanked;          /* of those, with an enemy front on their side or rear */
    unsigned pursuit;          /* pursuit bonus per stand (0: not pursuing) */
    unsigned round;            /* round of the engagement, 1 = the charge */
    bool confused;             /* confused now */
    bool retreated_last;       /* retreated in the previous round (warband) */
    bool last_ditch_per_stand; /* option A3 reading B */
    bool fearless;             /* immune to terror this round from outside (aura, power) */
    bool empowered;            /* a once-a-battle power adds +1 Attack per stand this round */
    unsigned side_strikers;    /* of the flanked, stands striking to a side or rear edge
                                  (a phalanx strikes there with base Attack 0) */
} om_wm_round_case;

/* om_wm_attack_dice_case: the dice of `me` against `foe` in the round described
 * by `c`, with every modifier and special rule (what the resolver uses). */
unsigned om_wm_attack_dice_case(const om_wm_ruleset *r, const om_wm_side *me,
                                const om_wm_side *foe, const om_wm_round_case *c);

/* Retreat distance in cm (Combat > Retreats): ceil(difference / losing units),
 * at least 1. */
unsigned om_wm_retreat_cm(unsigned winner_result, unsigned loser_result, unsigned losing_units);

/* Pursuit bonus (Combat > Attack Modifiers, A37): +1, and +1 for each full 3cm
 * the enemy retreated. */
unsigned om_wm_pursuit_bonus(unsigned retreat_cm);

/* Victory points lost by a unit of `points` that started with `stands` stands
 * and lost `lost` (Warmaster Revolution, End of the Battle > Victory Points;
 * Warmaster Ancients, End of the Battle, the same rule): destroyed: its full
 * points; a unit of 3 or more stands reduced to 1: half, rounded up to the
 * nearest 5 (W23: 110 -> 55, 65 -> 35); otherwise 0. */
unsigned om_wm_victory_points(unsigned points, unsigned stands, unsigned lost);

/* Victory points an engagement cost a unit of `points` and full strength `size`
 * that started it with `stands` (<= size) and lost `lost` of them: the victory
 * points of its state after, less those of its state before. */
unsigned om_wm_victory_points_lost(unsigned points, unsigned size, unsigned stands,
                                   unsigned lost);

/* Hits carried at the end of a phase from which a unit is badly hurt (army
 * lists: 3-5 of 6 in the 1.1 lists, 4-5 in Revolution's, 6-9 of 10 for the
 * Stegadon in both), or 0 if it never is. */
unsigned om_wm_hurt_from(const om_wm_unit *u);

/* Drive-back dice after `hits` shooting hits (Shooting > Driving Back Enemies):
 * the first hit is ignored for a defended unit, the first two for a fortified one.
 */
unsigned om_wm_drive_back_dice(unsigned hits, om_wm_position position);

/* Drive-back dice of a unit under the rule set and its special rules
 * (Shooting > Driving Back Enemies; Ancients: the discount is for infantry
 * only, a warband rolls one die fewer before it has lost a stand and one more
 * after, fanatics are never driven back). `lost_any` tells whether the unit
 * has lost a stand. */
unsigned om_wm_unit_drive_back_dice(const om_wm_ruleset *r, const om_wm_side *target,
                                    unsigned hits, bool lost_any);

/*
 * om_wm_record_hits: add `hits` to a unit's carried hits and remove a stand for
 * each full `hits_per_stand` (Shooting > Removing Casualties, Combat > How to
 * Calculate Damage); returns the stands removed. `stands` and `carried` are
 * updated; a destroyed unit keeps no carried hits.
 */
unsigned om_wm_record_hits(unsigned *stands, unsigned *carried, unsigned hits_per_stand,
                           unsigned hits);

#endif /* OM_WM_H */
