/*
 * wm.h: the Warmaster family rules engine (Warmaster 1.1, Warmaster Revolution,
 * Warmaster Ancients) as pure functions over plain structs.
 *
 * The engine sees no table geometry, only what geometry decides (shared DESIGN.md):
 * an engagement is a declared contact description (stands fighting, stands with
 * an enemy on their flank or rear, supports, position, who charged). Rule-set
 * differences are data in om_wm_ruleset, never copies of code.
 * Sections cited are those of the mechanics digest ../shared/rules/warmaster.md
 * and of the seeds it quotes.
 */
#ifndef OM_WM_H
#define OM_WM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dice.h"
#include "status.h"
#include "wm_traits.h"

/* Troop types (digest 1.3). */
typedef enum om_wm_troop {
    OM_WM_INFANTRY = 0,
    OM_WM_CAVALRY,
    OM_WM_CHARIOT,
    OM_WM_MONSTER,
    OM_WM_ARTILLERY,
    OM_WM_MACHINE,
    OM_WM_TROOP_COUNT
} om_wm_troop;

/* A unit's position (digest 6.15): decides the score needed to hit it. */
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

/* Special rules a unit can carry, as bits of an om_wm_rules (the army data names
 * them; engine/warmaster/special.c maps names to bits). */
typedef uint64_t om_wm_rules;
#define OM_WM_RULE_TERROR       (UINT64_C(1) << 0) /* enemies in contact fight at -1 (6.4) */
#define OM_WM_RULE_SHOTS_NO_SAVE (UINT64_C(1) << 1) /* its shooting allows no armour save (5.3) */
/* Warmaster Ancients special rules (warmaster-ancients.md 14; seed 001 SPECIAL RULES). */
#define OM_WM_RULE_WARBAND      (UINT64_C(1) << 2)  /* +1 pursuing, -1 after retreating; drive-back dice +-1 */
#define OM_WM_RULE_SHOCK        (UINT64_C(1) << 3)  /* long-based: +1 per stand charging or pursuing */
#define OM_WM_RULE_CHARGE_PLUS1 (UINT64_C(1) << 4)  /* +1 more Attack charging in the open */
#define OM_WM_RULE_SCYTHED      (UINT64_C(1) << 5)  /* +1 more charging; one round then removed; confuses */
#define OM_WM_RULE_SHIELDWALL   (UINT64_C(1) << 6)  /* armour 1 better in round 1 when charged */
#define OM_WM_RULE_PHALANX      (UINT64_C(1) << 7)  /* base Attack 0 striking to flank/rear; no rear support */
#define OM_WM_RULE_LEGION       (UINT64_C(1) << 8)  /* round 1: +1 result per front-fighting stand */
#define OM_WM_RULE_MANIPLE      (UINT64_C(1) << 9)  /* a 6 per rear-supporting maniple stand saves a hit */
#define OM_WM_RULE_IGNORES_TERROR (UINT64_C(1) << 10) /* not affected by enemy terror */
#define OM_WM_RULE_NO_STAND_AND_SHOOT (UINT64_C(1) << 11) /* cannot shoot at chargers (heavy artillery) */
#define OM_WM_RULE_HERMANN      (UINT64_C(1) << 12) /* +1 die per unit in round 1 when charging */
#define OM_WM_RULE_SKIRMISH     (UINT64_C(1) << 13) /* skirmish infantry supports only from the side */
/* Behaviours shared by many army-list rules (Warmaster 1.1 and Revolution lists). */
#define OM_WM_RULE_NO_DRIVE_BACK (UINT64_C(1) << 14) /* never driven back by shooting */
#define OM_WM_RULE_MUST_PURSUE  (UINT64_C(1) << 15) /* pursues whenever the rules allow */
#define OM_WM_RULE_DRIVE_BACK_MINUS1 (UINT64_C(1) << 16) /* rolls one drive-back die fewer */
#define OM_WM_RULE_SHOTS_PIERCE (UINT64_C(1) << 17) /* its shots make enemy armour one worse */
#define OM_WM_RULE_SHOTS_PLUS1  (UINT64_C(1) << 18) /* +1 to hit when shooting */
#define OM_WM_RULE_NO_CHARGE_BONUS (UINT64_C(1) << 19) /* gets no charge bonus */
#define OM_WM_RULE_ROUND1_FRONT_PLUS1 (UINT64_C(1) << 20) /* +1 Attack per front stand in round 1 */
#define OM_WM_RULE_PLUS1_VS_MONSTERS (UINT64_C(1) << 21) /* +1 Attack per stand against monsters */
#define OM_WM_RULE_PURSUES_ANY  (UINT64_C(1) << 22) /* may pursue any enemy: cavalry, chariots
                                                     * and flyers too */
#define OM_WM_RULE_FLY          (UINT64_C(1) << 23) /* flyer: non-flyers cannot pursue it */
#define OM_WM_RULE_PURSUABLE    (UINT64_C(1) << 24) /* a flyer that non-flyers may still pursue */
#define OM_WM_RULE_NO_SUPPORT   (UINT64_C(1) << 25) /* can neither support nor be supported */
#define OM_WM_RULE_REGENERATE   (UINT64_C(1) << 26) /* regenerates one outstanding hit each round */
#define OM_WM_RULE_COUNTS_DEFENDED (UINT64_C(1) << 27) /* always counts as defended (Steam Tank) */
#define OM_WM_RULE_HITS_ON_4    (UINT64_C(1) << 28) /* its combat attacks hit on 4+ whatever the cover */
#define OM_WM_RULE_CANNON       (UINT64_C(1) << 29) /* volleys: no save, cover one step lower; at
                                              chargers: grapeshot, 2 Attacks, saves allowed */
#define OM_WM_RULE_LINE_FIRE    (UINT64_C(1) << 30) /* +1 shooting Attack per extra target stand in
                                              its line of fire (bounce, skewer) */
#define OM_WM_RULE_RAMPAGE      (UINT64_C(1) << 31) /* elephants: retreating, the enemy in contact
                                                       is confused on a 6, destroyed if it was */
#define OM_WM_RULE_ARMOUR_PLUS1_MELEE (UINT64_C(1) << 32) /* armour one better in combat */
#define OM_WM_RULE_REROLL_ONE_PER_TURN (UINT64_C(1) << 33) /* re-roll one missed attack die
                                                               in the first round of each turn */
#define OM_WM_RULE_NEVER_CONFUSED (UINT64_C(1) << 34) /* cannot become confused */
#define OM_WM_RULE_BONUS_D6_OR_D3 (UINT64_C(1) << 35) /* +D6 attack dice charging or pursuing,
                                                          +D3 otherwise (Pump Wagon) */
#define OM_WM_RULE_BONUS_D6_CHARGING (UINT64_C(1) << 36) /* +D6 attack dice charging in the
                                                             open, round 1 (Doom Wheel) */
#define OM_WM_RULE_DRIVE_BACK_CONFUSE_4 (UINT64_C(1) << 37) /* the drive backs of its shots
                                                               confuse on a 4+ (Skull Chukka) */
#define OM_WM_RULE_PIKES        (UINT64_C(1) << 38) /* defended in round 1 against charging
                                                       cavalry or chariots; side supports only */
#define OM_WM_RULE_PURSUES_MOUNTED (UINT64_C(1) << 40) /* infantry that may pursue cavalry
                                                        * and chariots (not flyers) */
#define OM_WM_RULE_REGENERATE_ROUND (UINT64_C(1) << 39) /* regenerates one hit suffered in
                                                            the round, if alive (War Hydra) */
#define OM_WM_RULE_DEFENDED_ONLY_IN_DENSE (UINT64_C(1) << 41) /* never defended or
                                                        * fortified outside dense terrain */
#define OM_WM_RULE_EXTRA_STRIKE_ROUND1 (UINT64_C(1) << 42) /* more hits than suffered in
                                                        * round 1: +1 Attack per fighting
                                                        * stand, before the result */
#define OM_WM_RULE_NO_CHARACTER (UINT64_C(1) << 43) /* no character joins, no magic item */
#define OM_WM_RULE_BADLY_HURT   (UINT64_C(1) << 44) /* a one-stand monster left with more
                                                     * than half its Hits in hits at a
                                                     * phase's end is badly hurt: hits
                                                     * discarded, Hits and Attacks halved */
#define OM_WM_RULE_HURT_FROM_HALF (UINT64_C(1) << 45) /* with BADLY_HURT: from exactly
                                                     * half its Hits already (1.1 lists) */
#define OM_WM_RULE_ATTACK_PLUS1 (UINT64_C(1) << 46) /* +1 Attack per stand in every round
                                                     * (Grail Pilgrims) */
#define OM_WM_RULE_ZEALOT       (UINT64_C(1) << 47) /* against a unit.chaos_or_undead: +1
                                                     * Attack per stand in round 1, must
                                                     * pursue */
#define OM_WM_RULE_SALAMANDER_AT_CHARGERS (UINT64_C(1) << 48) /* with SALAMANDER: its
                                                     * extra shot at chargers too (REV) */
#define OM_WM_RULE_DESTROYED_IF_RETREATS (UINT64_C(1) << 49) /* destroyed when forced to
                                                     * retreat, as artillery is */
#define OM_WM_RULE_IMMOBILE     (UINT64_C(1) << 50) /* neither pursues nor falls back unless
                                                     * side.pushed (Screaming Bell) */
#define OM_WM_RULE_INSTABILITY  (UINT64_C(1) << 51) /* Daemonic Instability: a D6 at the
                                                     * start of its own turns once it has
                                                     * lost a stand (Temple Daemons) */
#define OM_WM_RULE_REPEATER     (UINT64_C(1) << 52) /* repeating crossbows: 2 shots a stand
                                                     * within 15cm, 1 beyond and at chargers */
#define OM_WM_RULE_HELBLASTER   (UINT64_C(1) << 53) /* 8/4/2 shots within 10/20/30cm, 8 at
                                                     * chargers; 3 ones misfire, 4 explode */
#define OM_WM_RULE_ROCKET       (UINT64_C(1) << 54) /* D6 shots a machine; a 1 rolls on the
                                                     * rocket misfire chart (saves allowed) */
#define OM_WM_RULE_FLAME        (UINT64_C(1) << 55) /* 2D6 shots a machine; a double rolls on
                                                     * the Flame Cannon misfire chart */
#define OM_WM_RULE_DOUBLE_ONES_CONFUSE (UINT64_C(1) << 56) /* two 1s to hit in one shooting
                                                     * confuse the shooter (REV Warp
                                                     * Lightning Cannon) */
#define OM_WM_RULE_WARP_LIGHTNING (UINT64_C(1) << 57) /* D6 shots, a 1 turns D6 on itself;
                                                     * no drive back, a 6 confuses its
                                                     * target (1.1 Warp Lightning Cannon) */
#define OM_WM_RULE_COVER_ONE_LOWER (UINT64_C(1) << 58) /* its volleys count fortified as
                                                     * defended, defended as open */
#define OM_WM_RULE_STATIC       (UINT64_C(1) << 59) /* not moved by drive backs nor confused
                                                     * by them; destroyed past 10cm (REV) or
                                                     * by any 6 (1.1): the Trebuchet */
#define OM_WM_RULE_STATIC_SIX   (UINT64_C(1) << 60) /* with STATIC: destroyed by any 6 of its
                                                     * drive-back dice instead (1.1) */
#define OM_WM_RULE_BLIND_GATE   (UINT64_C(1) << 61) /* shooting blind: a D6 of 6 first, then
                                                     * the usual to-hit (1.1 Trebuchet) */
#define OM_WM_RULE_STAMPEDE     (UINT64_C(1) << 62) /* stampedes instead of being confused:
                                                     * no -1, must pursue (Araby Elephants) */
#define OM_WM_RULE_SALAMANDER   (UINT64_C(1) << 63) /* one stand shoots 2 where the others
                                                     * shoot 1, kept to the last (Skinks
                                                     * with a Salamander) */
/* Rules that make a unit shoot with dice of its own, whatever its Shots. */
#define OM_WM_RULE_RANDOM_SHOTS (OM_WM_RULE_ROCKET | OM_WM_RULE_FLAME | OM_WM_RULE_WARP_LIGHTNING)
/* No bit: a rule that changes nothing the engine does not do by default. */
#define OM_WM_RULE_NONE UINT64_C(0)
/* Fanatics (Ancients) = immune to terror, never driven back, must pursue. */
#define OM_WM_RULE_FANATICS (OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | \
                             OM_WM_RULE_MUST_PURSUE)

/* How the engine models a special rule of its registry. */
typedef enum om_wm_special_how {
    OM_WM_BY_TRAITS = 0,  /* by the traits it gives the unit that has it */
    OM_WM_BY_SIDE_KEYS,   /* declared with side keys (caractacus, aura, power) */
    OM_WM_BY_DEFAULT      /* it changes nothing the engine does not do anyway */
} om_wm_special_how;

/* A special rule the engine implements (special.c): one row of the registry. */
typedef struct om_wm_special {
    const char *id;      /* rule id as used in army data and scenarios, e.g. "terror" */
    om_wm_rules flag;    /* the OM_WM_RULE_* bits it sets on a unit */
    om_wm_traits traits; /* what it makes a unit do, under every rule set not in `in` */
    const om_wm_traits *in[OM_WM_RULES_COUNT]; /* what it makes a unit do under one rule
                                                  set whose army list words it otherwise,
                                                  or NULL: `traits` */
    om_wm_special_how how; /* traits, side keys, or nothing to do */
    uint8_t joined_shots;  /* shooting Attacks a character with the rule (or riding a
                              mount with it) adds to the unit it joins */
    uint8_t joined_range_cm; /* their range in cm */
    const char *effect;  /* one sentence: what the engine does with it */
    const char *section; /* rulebook or digest section it implements */
} om_wm_special;

/* The implemented special rule with this id, or NULL if the engine does not
 * model it (the caller then records it as not modelled). */
const om_wm_special *om_wm_special_find(const char *id);

/* Number of implemented special rules, and the i-th (NULL past the end). */
size_t om_wm_special_count(void);
const om_wm_special *om_wm_special_at(size_t i);

/* One unit's values (digest 1.1). Every stand of a unit has the same values. */
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
    om_wm_rules rules;   /* OM_WM_RULE_* bits */
    bool chaos_or_undead; /* from a Chaos or Undead army list, hated by Zealots */
    char unmodelled[192]; /* comma-separated ids of its special rules the engine does not
                             model yet (reported with every run, never dropped) */
} om_wm_unit;

/* Stands of the unit at full strength (its size, or its stands when size is 0). */
static inline unsigned om_wm_unit_size(const om_wm_unit *u)
{
    return u->size ? u->size : u->stands;
}

/* The winner's choice after a won round (6.10): pursue when allowed, or not. */
typedef enum om_wm_pursue {
    OM_WM_PURSUE_ALWAYS = 0, /* pursue whenever the rules allow (the common play) */
    OM_WM_PURSUE_NEVER,      /* always stand (or fall back): the combat ends */
    OM_WM_PURSUE_WHEN_AHEAD  /* pursue while it has at least as many stands as the loser */
} om_wm_pursue;

/* What lies behind a unit, in the direction it would retreat (6.9, 3.8, 7.3). */
typedef enum om_wm_behind {
    OM_WM_BEHIND_OPEN = 0,      /* open ground: retreats are never blocked */
    OM_WM_BEHIND_IMPASSABLE,    /* impassable terrain: blocked stands are destroyed */
    OM_WM_BEHIND_ENEMY,         /* an enemy unit: blocked stands are destroyed */
    OM_WM_BEHIND_UNYIELDING,    /* engaged or unyielding friends: blocked stands destroyed */
    OM_WM_BEHIND_FRIENDS,       /* friends that make way: the retreater tests confusion (6) */
    OM_WM_BEHIND_TABLE_EDGE,    /* the table edge: retreating off it destroys the unit */
    OM_WM_BEHIND_COUNT
} om_wm_behind;

/* A magic standard or weapon with a dice effect in an engagement (warmaster.md
 * 10.3; Warmaster 1.1 and Revolution). The simulated engagement is taken to be
 * the unit's first, for the items that say "first combat engagement". */
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
    uint8_t supports;         /* supporting stands, +1 each to the result (infantry only, 6.7) */
    uint8_t support_units;    /* other units supplying those supports (retreat divisor, 6.9) */
    uint8_t attack_bonus;     /* a joined character's bonus, added to one stand (6.4, A39) */
    uint8_t shooting;         /* stands that shoot (volley or stand and shoot) */
    uint8_t extra_shots;      /* shooting Attacks of a joined character (Dragon fire 3,
                                 Djinn 2), at the usual to-hit and save, none of the
                                 unit's own shooting rules (army lists, A-14) */
    uint8_t extra_range_cm;   /* their range: volleys at a target_cm beyond it leave
                                 them out (0: any range) */
    bool charging;            /* charged this turn: charge bonus in round 1 (6.4) */
    bool confused;            /* -1 Attack per stand, cannot support (7.2) */
    bool stand_and_shoot;     /* shoots at the charging enemy before round 1 (5.7) */
    bool shoots_first;        /* shot at the enemy in its own previous turn (5.5): the
                                 charged side at the charger (confusion stops the
                                 charge), or the charger at its target */
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
    bool blind_fire;          /* its volley is shot blind at a target it cannot see:
                                 6s to hit (stone throwers, Trebuchet; 5.10) */
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
 * Interpretations of ambiguous rules (digest section 17), each a named option
 * with the digest's recommended default (see options.c and `oddsmaster list
 * --options`). Zero-initialised values are the defaults.
 */
typedef struct om_wm_options {
    bool last_ditch_per_stand;     /* A3: each stand at 0 rolls a die (default: one per unit) */
    bool infantry_pursues_cavalry; /* A6: infantry may pursue cavalry/chariots (default: never) */
    bool defended_after_retreat;   /* A8: a retreated unit keeps its position (default: lost) */
    bool result_cap_ignores_carried; /* A21: cap counted hits at full capacity (default: remaining) */
    uint8_t max_turns;             /* turns an unresolved engagement may last (0: 10) */
} om_wm_options;

/* Named switches and tables where the rule sets differ (digest 15, Ancients). */
typedef struct om_wm_ruleset {
    om_wm_ruleset_id id;        /* which rule set */
    const char *name;           /* identifier in scenario files */
    const char *title;          /* human title */
    uint8_t charge_bonus[OM_WM_TROOP_COUNT]; /* Attacks added per charging stand vs open enemy */
    uint8_t to_hit[OM_WM_POSITION_COUNT];    /* score to hit infantry/artillery by position */
    bool supports_after_casualties; /* D5: WM11 counts supports after stands are removed */
    bool retreat_divisor_engaged_only; /* D6/A10: WM11 divides by engaged units only */
    bool confused_units_support;  /* WMA: confusion does not stop supports (seed 001 l.2282) */
    bool drive_back_discount_infantry_only; /* WMA: only infantry ignores hits (l.1349) */
    bool bonus_after_stand_floor; /* WMA A5: commander bonus added after the stand's 0 floor */
    bool retreat_off_table_rolls; /* WMA 5.5: retreating off the table rolls D6 - stands lost */
    bool impassable_halt_confuses; /* WMA 9.1 #2: driven back into impassable: confused */
    bool badly_hurt_when_engaged; /* WM11 lists: a monster becomes badly hurt at the end
                                     of a Combat phase even while still engaged */
    bool wagon_column_retreats;   /* REV list: a War Wagon column forced to retreat does,
                                     instead of being destroyed as artillery is */
} om_wm_ruleset;

/* Look a rule set up by name; NULL if unknown. */
const om_wm_ruleset *om_wm_ruleset_find(const char *name);

/* The OM_WM_RULE_* bits special rule `sp` sets under rule set `rs` (the same
 * id can mean less in one rule set's army list than in another's; rs NULL:
 * all of them). */
om_wm_rules om_wm_special_flags(const om_wm_special *sp, const om_wm_ruleset *rs);

/* The traits special rule `sp` gives a unit under rule set `rs` (its row for
 * that rule set, else its common traits; rs NULL: the common traits). */
const om_wm_traits *om_wm_special_traits(const om_wm_special *sp, const om_wm_ruleset *rs);

/* Shooting Attacks a character with rule `sp` (or riding a mount with it) adds
 * to the unit it joins: Dragon fire, the Djinn (army lists, A-14, A-15); 0 for
 * the other rules. */
unsigned om_wm_special_joined_shots(const om_wm_special *sp);

/* Their range in cm: Dragon fire 20, the Djinn 30; 0 for other rules. */
unsigned om_wm_special_joined_range(const om_wm_special *sp);

/* The rule set with this id. */
const om_wm_ruleset *om_wm_ruleset_get(om_wm_ruleset_id id);

/* Full-pace move of a troop type in cm (digest 1.3 movement chart). */
unsigned om_wm_troop_pace(om_wm_troop troop);

/* Name of a troop type as written in scenario files ("infantry", ...). */
const char *om_wm_troop_name(om_wm_troop troop);

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
 * or a fixed reading that the engine implements. */
typedef struct om_wm_option {
    const char *name;          /* key under `options:` in scenario files */
    const char *ambiguity;     /* the digest's ambiguity id, e.g. "A6" */
    const char *section;       /* digest section */
    const char *question;      /* what is ambiguous */
    const char *default_value; /* the recommended reading, the default */
    const char *other_value;   /* the other reading ("-" for fixed ones) */
    size_t offset;             /* field in om_wm_options, or OM_WM_OPTION_FIXED */
} om_wm_option;

/* Offset marking a fixed reading (not a field of om_wm_options). */
#define OM_WM_OPTION_FIXED ((size_t)-1)

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
    uint8_t drive_back_cm;    /* distance the shot unit was driven back (volley, shoots_first) */
    uint8_t confused[2];      /* 1 if the unit ended confused */
    uint8_t routed[2];        /* 1 if the unit was routed by a drive back */
    uint8_t destroyed[2];     /* 1 if the unit was destroyed (any cause) */
    uint8_t hurt[2];          /* 1 if the unit (a big monster) became badly hurt */
} om_wm_outcome;

/*
 * A prepared engagement: the engagement plus the read-only dice tables its trials
 * need. Built once per run, shared by all threads, never modified while trials run.
 */
typedef struct om_wm_prepared {
    om_wm_engagement e;           /* copy of the engagement */
    om_dice_test shoot[2];        /* side i shooting at the other side (a volley) */
    om_dice_test shoot_charger[2]; /* side i shooting at the other side's charge */
    om_dice_test shoot_charger_worn[2]; /* the same once the charger's Banner of
                                         * Shielding no longer works (10.3) */
    om_dice_test breath[2][3];    /* side i's joined character shooting (extra_shots): [0]
                                     a volley, [1] at a charger, [2] at a charger whose
                                     Banner of Shielding no longer works */
    om_dice_test melee[2][7];     /* side i fighting the other: [0] as declared, [1] in the
                                     open, [2] as declared with its round 1 shieldwall save,
                                     [3] and [4] as [0] and [1] against its Banner of
                                     Shielding (while it has lost no stand), [5] against it
                                     defended (pikes in the first round), [6] the same
                                     with its Banner of Shielding */
    uint8_t combat_hits[2];       /* side i's Hits per stand in combat (+1 with a Banner of
                                     Fortitude, 10.3) */
    om_wm_side hurt[2];           /* side i once badly hurt: Hits and Attacks halved,
                                     Shots halved rounded up (army lists) */
    uint8_t hurt_hits[2];         /* side i's Hits per stand in combat once badly hurt */
    uint8_t lost_at[2][256];      /* stands removed from side i by h carried hits in combat:
                                     h / combat_hits */
    uint8_t left_at[2][256];      /* hits carried after that removal: h % combat_hits */
    uint8_t round1_dice[2][16];   /* side i's round 1 attack dice by its stands left */
    uint32_t in_play;             /* OM_WM_PLAY_* bits: rules and situations present, so
                                     trials skip the checks of everything absent */
    om_binom_table *tables[32];   /* owned tables behind the tests above */
    struct om_wm_fight *start;    /* a trial's fight state before its first die, copied
                                     by every trial (combat.c) */
    struct om_wm_round1 *round1;  /* the first round tabulated by hit counts, or NULL
                                     (combat.c; used by the fast dice only) */
} om_wm_prepared;

/* Where and why an engagement failed its check. */
typedef struct om_wm_check_failure {
    char field[64];   /* dotted path of the offending field, e.g. "a.unit.stands" */
    char reason[256]; /* what is wrong, e.g. "must be 1..12 (got 0)" */
} om_wm_check_failure;

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

/* --- Rule arithmetic, exposed for the worked-example tests. --- */

/* Score needed to hit `target` (5.2, 6.5): the rule set's table by position;
 * only infantry and artillery are ever defended or fortified. */
unsigned om_wm_to_hit_score(const om_wm_ruleset *r, const om_wm_side *target);

/* The position that counts for `target` (5.2, 6.15): its own, open for troops
 * that are never defended, defended for a unit that always counts as such. */
om_wm_position om_wm_effective_position(const om_wm_side *target);

/* Shooting Attacks of side `me` with `stands` stands left: per stand (plus
 * bounce or skewer stands, or by range band), times its shooting stands still
 * there; at a charger a cannon fires grapeshot (5.10). Machines that roll
 * their Attacks (OM_WM_RULE_RANDOM_SHOTS) add theirs when they shoot. */
unsigned om_wm_shots(const om_wm_side *me, unsigned stands, bool at_charger);

/* Whether a unit can shoot: Shots in its stat line, or a rule that gives it
 * dice of its own (rockets, Flame Cannon, 1.1 Warp Lightning Cannon). */
static inline bool om_wm_unit_shoots(const om_wm_unit *u)
{
    return u->shots > 0 || (u->rules & OM_WM_RULE_RANDOM_SHOTS) != 0;
}

/* Score that saves a hit on `target` (5.3): its armour, or 7 (no save) if it has
 * none or the attack allows none. */
unsigned om_wm_save_score(const om_wm_unit *target, bool save_allowed);

/*
 * om_wm_attack_dice: dice rolled by `me` against `foe` in a combat round (6.4):
 * per stand Attacks + charge bonus (round 1, charging, foe in the open) - terror
 * - confused - 1 on flanked stands, each stand floored at 0 (A4); the character
 * bonus goes to the best stand (A39); a unit with fighting stands always rolls at
 * least one die (last-ditch die, A3).
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
} om_wm_round_case;

/* om_wm_attack_dice_case: the dice of `me` against `foe` in the round described
 * by `c`, with every modifier and special rule (what the resolver uses). */
unsigned om_wm_attack_dice_case(const om_wm_ruleset *r, const om_wm_side *me,
                                const om_wm_side *foe, const om_wm_round_case *c);

/* Retreat distance in cm (6.9): ceil(difference / losing units), at least 1. */
unsigned om_wm_retreat_cm(unsigned winner_result, unsigned loser_result, unsigned losing_units);

/* Pursuit bonus (6.4, A37): +1, and +1 for each full 3cm the enemy retreated. */
unsigned om_wm_pursuit_bonus(unsigned retreat_cm);

/* Victory points lost by a unit of `points` that started with `stands` stands
 * and lost `lost` (warmaster.md 11.3; warmaster-ancients.md 11, the same rule):
 * destroyed: its full points; a unit of 3 or more stands reduced to 1: half,
 * rounded up to the nearest 5 (W23: 110 -> 55, 65 -> 35); otherwise 0. */
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

/* Drive-back dice after `hits` shooting hits (5.5): the first hit is ignored for a
 * defended unit, the first two for a fortified one. */
unsigned om_wm_drive_back_dice(unsigned hits, om_wm_position position);

/* Drive-back dice of a unit under the rule set and its special rules (5.5;
 * Ancients: the discount is for infantry only, a warband rolls one die fewer
 * before it has lost a stand and one more after, fanatics are never driven
 * back). `lost_any` tells whether the unit has lost a stand. */
unsigned om_wm_unit_drive_back_dice(const om_wm_ruleset *r, const om_wm_side *target,
                                    unsigned hits, bool lost_any);

/*
 * om_wm_record_hits: add `hits` to a unit's carried hits and remove a stand for
 * each full `hits_per_stand` (5.4, 6.5); returns the stands removed. `stands` and
 * `carried` are updated; a destroyed unit keeps no carried hits.
 */
unsigned om_wm_record_hits(unsigned *stands, unsigned *carried, unsigned hits_per_stand,
                           unsigned hits);

#endif /* OM_WM_H */
