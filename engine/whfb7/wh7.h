/*
 * wh7.h: the Warhammer Fantasy Battles 7th edition rules engine as pure
 * functions over plain structs (module prefix om_wh7_).
 *
 * The engine sees no table geometry, only what geometry decides: a combat is a
 * declared contact description (models in base contact, the face of each unit
 * the enemy touches, who charged, high ground, what lies behind a fleeing unit),
 * never coordinates. Units are models in ranks and files with the nine
 * characteristics, equipment from the rulebook's weapon table and typed special
 * rules; the rules that change dice are data (const tables in tables.c,
 * equipment.c, traits.c, magic.c), never copies of code. README.md in this
 * directory lists what is modelled and each simplification next to the rule it
 * bends. Rules are cited as "WHFB 7th edition, Section > Subsection".
 *
 * Use: fill an om_wh7_combat, check it (om_wh7_check), prepare it once
 * (om_wh7_prepare_alloc: read-only tables shared by threads), then call
 * om_wh7_resolve once per trial with the trial's dice; each call writes one
 * flat om_wh7_outcome of small unsigned integers.
 */
#ifndef OM_WH7_H
#define OM_WH7_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "dice.h"
#include "options.h"
#include "status.h"

/* ---------------------------------------------------------------------------
 * Profiles and the basic tables
 * ------------------------------------------------------------------------- */

/* Largest value of a characteristic (WHFB 7th edition, Characteristics). */
#define OM_WH7_CHAR_MAX 10u

/* A characteristic profile (WHFB 7th edition, Characteristics > Profiles). A
 * printed '-' is 0 (Characteristics of 0). */
typedef struct om_wh7_profile {
    char name[48]; /* the profile's name, e.g. "Swordsman" */
    uint8_t m;     /* Movement in inches */
    uint8_t ws;    /* Weapon Skill */
    uint8_t bs;    /* Ballistic Skill */
    uint8_t s;     /* Strength */
    uint8_t t;     /* Toughness */
    uint8_t w;     /* Wounds */
    uint8_t i;     /* Initiative */
    uint8_t a;     /* Attacks */
    uint8_t ld;    /* Leadership */
} om_wh7_profile;

/* Score that never succeeds: a D6 requirement of 7 or more in the close combat
 * and to-wound tables ("N", or no save). */
#define OM_WH7_NEVER 7u

/*
 * om_wh7_cc_to_hit: the D6 score an attacker of Weapon Skill `ws_attacker`
 * needs to hit a defender of `ws_defender` in close combat (WHFB 7th edition,
 * Close Combat > Hitting the Enemy, the To Hit chart), unmodified: 3, 4 or 5;
 * 1 (automatic) against WS 0 (Characteristics > Characteristics of 0).
 * Values above 10 are read as 10. Pure, thread-safe.
 */
unsigned om_wh7_cc_to_hit(unsigned ws_attacker, unsigned ws_defender);

/*
 * om_wh7_to_wound: the D6 score Strength `s` needs to wound Toughness `t`
 * (WHFB 7th edition, Shooting > Rolling to Wound and Close Combat > Wounding
 * the Enemy, one chart): 2..6, or OM_WH7_NEVER for "N". S 0 never wounds;
 * values above 10 are read as 10. Pure, thread-safe.
 */
unsigned om_wh7_to_wound(unsigned s, unsigned t);

/*
 * om_wh7_bs_to_hit: the unmodified shooting requirement of Ballistic Skill bs
 * (WHFB 7th edition, Shooting > Rolling to Hit): 7 - BS, so BS 1 needs 6 and
 * BS 6 needs 1 (still a 2+ once a natural 1 misses). BS 0 cannot shoot
 * (returns 10, which never hits).
 */
int om_wh7_bs_to_hit(unsigned bs);

/*
 * om_wh7_shoot_hit_probability: P(one shot hits) for a modified requirement
 * `required` (7 - BS - modifiers; WHFB 7th edition, Shooting > To Hit
 * Modifiers and the 7+ rule): r <= 2 is 5/6 (a natural 1 always misses),
 * 3..6 is (7 - r)/6, 7, 8 and 9 need a 6 and then 4+, 5+ or 6 on a second die
 * (1/12, 1/18, 1/36), 10 or more cannot hit. Exact in double precision.
 */
double om_wh7_shoot_hit_probability(int required);

/* P(D6 >= need) for need 1..7 (1: always, 7 or more: never); the exact
 * fraction (7 - need) / 6 in double precision. */
double om_wh7_p_at_least(unsigned need);

/*
 * om_wh7_save_need: the D6 score that saves, from an unmodified save `save`
 * (1 = 1+, 2 = 2+, ..., 7 or more = none) worsened by `worsen` (the Strength
 * modifier plus armour piercing and the like; negative improves it): the sum,
 * with a natural 1 always failing, so never below 2; OM_WH7_NEVER when worse
 * than 6+ (WHFB 7th edition, Shooting > Armour Save Modifiers, Maximum Save;
 * digest ambiguity A3). A save of 0 or less means "no save" and stays 7.
 */
unsigned om_wh7_save_need(unsigned save, int worsen);

/* The save modifier of a hit of Strength s: max(0, s - 3) (WHFB 7th edition,
 * Shooting > Armour Save Modifiers). */
unsigned om_wh7_strength_save_modifier(unsigned s);

/*
 * om_wh7_ld_pass_probability: P(2D6 <= ld), a Leadership test (WHFB 7th
 * edition, Characteristics > Leadership Tests): the count of the 36 outcomes
 * over 36, 0 for ld < 2 and 1 for ld >= 12.
 */
double om_wh7_ld_pass_probability(int ld);

/* Ways two D6 sum to `total` (0 outside 2..12): 1, 2, ..., 6, ..., 1. */
unsigned om_wh7_2d6_ways(int total);

/* ---------------------------------------------------------------------------
 * One die's path through a close combat blow or a shot: the dice chain
 * ------------------------------------------------------------------------- */

/* Re-rolls of to-hit dice (WHFB 7th edition, Dice > Re-rolls: no die is
 * re-rolled more than once, whatever grants it). */
typedef enum om_wh7_reroll {
    OM_WH7_REROLL_NONE = 0,
    OM_WH7_REROLL_ONES,   /* re-roll rolls of 1 (Lore of Heavens, Portent of Far) */
    OM_WH7_REROLL_MISSES  /* re-roll every failed roll (Psychology > Hatred) */
} om_wh7_reroll;

/*
 * The dice of one attack, from the roll to hit to the last save. Every die of
 * a chain is independent of every other attack's dice, which is what lets the
 * resolver draw how many of n attacks end in each outcome as one binomial.
 */
typedef struct om_wh7_chain {
    uint8_t hit;            /* score to hit: 1 automatic, 2..6, 7/8/9 a 6 then 4+/5+/6
                               on a second die (shooting's 7+ rule), 10 or more never */
    uint8_t reroll_hit;     /* om_wh7_reroll applied to the to-hit die */
    bool poison;            /* a natural 6 to hit wounds automatically (Special Rules >
                               Poisoned Attacks; never with the 7+ rule) */
    uint8_t wound;          /* score to wound 2..6 (1: automatic), 7 never */
    uint8_t reroll_wound;   /* om_wh7_reroll applied to the to-wound die (ones only) */
    bool killing_blow;      /* a natural 6 to wound slays: no armour, no regeneration
                               (Special Rules > Killing Blow) */
    uint8_t armour;         /* armour save score 2..6, 7 none */
    uint8_t ward;           /* ward save score 2..6, 7 none (never modified) */
    uint8_t regen;          /* regeneration save score (4), 7 none or not allowed */
} om_wh7_chain;

/* What one attack's dice end in. */
typedef enum om_wh7_blow {
    OM_WH7_BLOW_NONE = 0, /* missed, failed to wound, or saved */
    OM_WH7_BLOW_WOUND,    /* an unsaved wound (multiplied by the damage rules) */
    OM_WH7_BLOW_SLAY      /* an unsaved killing blow: the model is slain outright */
} om_wh7_blow;

/* What the to-hit step of a chain ends in. */
typedef enum om_wh7_hit {
    OM_WH7_HIT_MISS = 0, /* missed */
    OM_WH7_HIT_HIT,      /* hit: roll to wound */
    OM_WH7_HIT_POISON    /* a poisoned natural 6: wounds automatically */
} om_wh7_hit;

/* om_wh7_hit_probability: P(each om_wh7_hit) of the to-hit step of chain `c`
 * (re-rolls included), exactly, into p[3]. Pure. */
void om_wh7_hit_probability(const om_wh7_chain *c, double p[3]);

/* om_wh7_hit_roll: roll the to-hit step of chain `c` die by die (a second die
 * for the 7+ rule, one re-roll). Thread-safe on distinct d. */
om_wh7_hit om_wh7_hit_roll(om_dice *d, const om_wh7_chain *c);

/*
 * om_wh7_chain_probability: the exact per-attack probabilities of an unsaved
 * wound (*p_wound) and of an unsaved killing blow (*p_slay) along chain `c`,
 * by enumerating the faces of every die (re-rolls included). Pure, thread-safe.
 */
void om_wh7_chain_probability(const om_wh7_chain *c, double *p_wound, double *p_slay);

/*
 * om_wh7_chain_roll: roll one attack's dice along `c` one die at a time with
 * the dice source `d` (each die through om_dice_roll_d6, so the plain baseline
 * rolls it with GSL) and return its om_wh7_blow. Thread-safe on distinct d.
 */
om_wh7_blow om_wh7_chain_roll(om_dice *d, const om_wh7_chain *c);

/* ---------------------------------------------------------------------------
 * Troop types, equipment and special rules
 * ------------------------------------------------------------------------- */

/* Troop types, as far as the dice care (WHFB 7th edition, Units > Unit Types;
 * Unit Strength > Unit Strength Chart). Chariots are not modelled. */
typedef enum om_wh7_troop {
    OM_WH7_INFANTRY = 0,        /* man-sized on foot, 20/25mm base: unit strength 1 */
    OM_WH7_MONSTROUS_INFANTRY,  /* up to Ogre-sized on foot, 40/50mm base (swarms too): 3 */
    OM_WH7_CAVALRY,             /* a rider on a mount, 25x50mm base: 2 */
    OM_WH7_MONSTER,             /* larger than Ogre-sized: its starting Wounds */
    OM_WH7_WAR_MACHINE,         /* a machine and its crew (the crew is the unit) */
    OM_WH7_TROOP_COUNT
} om_wh7_troop;

/* Close combat weapons (WHFB 7th edition, Weapons > List of Weapons > Close
 * Combat Weapons). What each does is the const table of equipment.c. */
typedef enum om_wh7_weapon {
    OM_WH7_WEAPON_HAND = 0,      /* hand weapon (the default of every model) */
    OM_WH7_WEAPON_TWO_HAND,      /* an additional hand weapon: two hand weapons */
    OM_WH7_WEAPON_GREAT,         /* great weapon */
    OM_WH7_WEAPON_FLAIL,         /* flail */
    OM_WH7_WEAPON_MORNING_STAR,  /* morning star */
    OM_WH7_WEAPON_HALBERD,       /* halberd */
    OM_WH7_WEAPON_SPEAR,         /* spear (infantry or mounted) */
    OM_WH7_WEAPON_LANCE,         /* lance (mounted only) */
    OM_WH7_WEAPON_PISTOL,        /* pistol in hand-to-hand: a hand weapon */
    OM_WH7_WEAPON_BRACE_OF_PISTOLS, /* two or more pistols: two hand weapons */
    OM_WH7_WEAPON_COUNT
} om_wh7_weapon;

/* Missile weapons (WHFB 7th edition, Weapons > Missile Weapons). */
typedef enum om_wh7_missile {
    OM_WH7_MISSILE_NONE = 0,
    OM_WH7_MISSILE_SHORTBOW,
    OM_WH7_MISSILE_BOW,
    OM_WH7_MISSILE_LONGBOW,
    OM_WH7_MISSILE_CROSSBOW,
    OM_WH7_MISSILE_REPEATER_CROSSBOW,
    OM_WH7_MISSILE_SLING,
    OM_WH7_MISSILE_JAVELIN,
    OM_WH7_MISSILE_THROWING_STARS,
    OM_WH7_MISSILE_THROWING_AXES,
    OM_WH7_MISSILE_HANDGUN,
    OM_WH7_MISSILE_PISTOL,
    OM_WH7_MISSILE_BRACE_OF_PISTOLS,
    OM_WH7_MISSILE_COUNT
} om_wh7_missile;

/* Body armour (WHFB 7th edition, Shooting > Taking Armour Saves). */
typedef enum om_wh7_armour {
    OM_WH7_ARMOUR_NONE = 0,
    OM_WH7_ARMOUR_LIGHT,  /* 6+ */
    OM_WH7_ARMOUR_HEAVY,  /* 5+ */
    OM_WH7_ARMOUR_COUNT
} om_wh7_armour;

/* Common magic weapons (WHFB 7th edition, Magic Items > Common Magic Items).
 * A magic weapon replaces the model's close combat weapon (Magic Weapons). */
typedef enum om_wh7_magic_weapon {
    OM_WH7_MAGIC_WEAPON_NONE = 0,
    OM_WH7_MAGIC_WEAPON_STRIKING,     /* +1 to hit */
    OM_WH7_MAGIC_WEAPON_BATTLE,       /* +1 Attack */
    OM_WH7_MAGIC_WEAPON_MIGHT,        /* +1 Strength */
    OM_WH7_MAGIC_WEAPON_BITING_BLADE, /* extra -1 to the enemy's armour save */
    OM_WH7_MAGIC_WEAPON_COUNT
} om_wh7_magic_weapon;

/* What a model carries. Zero is a hand weapon, no armour, no save. */
typedef struct om_wh7_equipment {
    om_wh7_weapon weapon;      /* the close combat weapon it fights with */
    om_wh7_missile missile;    /* its missile weapon */
    om_wh7_armour armour;      /* body armour */
    bool shield;               /* a shield: +1 save; +1 more in close combat on foot
                                  with a hand weapon against the front (parry) */
    bool enchanted_shield;     /* the Enchanted Shield: a shield saving 5+ (one better) */
    bool barding;              /* the mount is barded: +1 save, -1 Movement */
    uint8_t scaly_skin;        /* a scaly skin save (6 = 6+), stacking with armour; 0 none */
    uint8_t ward;              /* a ward save (Talisman of Protection 6 = 6+); 0 none */
    int8_t save_bonus;         /* any further armour save improvement (magic armour) */
    om_wh7_magic_weapon magic_weapon; /* a common magic weapon, or none */
} om_wh7_equipment;

/* A save a scenario writes (scaly skin, ward, a ward against missiles, a
 * caster's ward): 2+ to 6+ (Shooting > Taking Armour Saves: a natural 1 always
 * fails, so no save is better than 2+); 0 is none. */
#define OM_WH7_SAVE_BEST 2u
#define OM_WH7_SAVE_WORST 6u
/* Best save improvement a model's magic armour may add (save_bonus, -6..6). */
#define OM_WH7_MAX_SAVE_BONUS 6

/* Special rules a model can have (WHFB 7th edition, Special Rules; Psychology;
 * the army-book rules of the WHFB 7th edition Warhammer Armies books named in
 * traits.c), as bits of om_wh7_rules. traits.c maps names to bits. */
typedef uint64_t om_wh7_rules;
#define OM_WH7_RULE_ASF              (UINT64_C(1) << 0)  /* always strikes first */
#define OM_WH7_RULE_KILLING_BLOW     (UINT64_C(1) << 1)  /* 6 to wound slays (US <= 2) */
#define OM_WH7_RULE_POISON           (UINT64_C(1) << 2)  /* 6 to hit wounds, close combat */
#define OM_WH7_RULE_POISON_SHOTS     (UINT64_C(1) << 3)  /* 6 to hit wounds, shooting */
#define OM_WH7_RULE_REGENERATION     (UINT64_C(1) << 4)  /* 4+ save after armour and ward */
#define OM_WH7_RULE_ARMOUR_PIERCING  (UINT64_C(1) << 5)  /* its blows: extra -1 to saves */
#define OM_WH7_RULE_FLAMING          (UINT64_C(1) << 6)  /* flaming attacks */
#define OM_WH7_RULE_FRENZY           (UINT64_C(1) << 7)  /* +1 Attack, must pursue, ItP */
#define OM_WH7_RULE_HATRED           (UINT64_C(1) << 8)  /* hates the enemy of the combat */
#define OM_WH7_RULE_FEAR             (UINT64_C(1) << 9)  /* causes fear */
#define OM_WH7_RULE_TERROR           (UINT64_C(1) << 10) /* causes terror (and fear) */
#define OM_WH7_RULE_STUBBORN         (UINT64_C(1) << 11) /* break tests on unmodified Ld */
#define OM_WH7_RULE_UNBREAKABLE      (UINT64_C(1) << 12) /* passes every break test */
#define OM_WH7_RULE_ITP              (UINT64_C(1) << 13) /* immune to psychology */
#define OM_WH7_RULE_STUPIDITY        (UINT64_C(1) << 14) /* tests for stupidity */
#define OM_WH7_RULE_SKIRMISHERS      (UINT64_C(1) << 15) /* no rank bonus, -1 to be shot */
#define OM_WH7_RULE_LARGE_TARGET     (UINT64_C(1) << 16) /* +1 to be shot */
#define OM_WH7_RULE_FLAMMABLE        (UINT64_C(1) << 17) /* double wounds from flaming attacks */
#define OM_WH7_RULE_ETHEREAL         (UINT64_C(1) << 18) /* only magical attacks harm it */
#define OM_WH7_RULE_UNDEAD           (UINT64_C(1) << 19) /* crumbles instead of breaking */
#define OM_WH7_RULE_SWARM            (UINT64_C(1) << 20) /* unbreakable swarm: extra wounds */
#define OM_WH7_RULE_MAGICAL_ATTACKS  (UINT64_C(1) << 21) /* its attacks are magical */
#define OM_WH7_RULE_FAST_CAVALRY     (UINT64_C(1) << 22) /* no rank bonus */
#define OM_WH7_RULE_FLYER            (UINT64_C(1) << 23) /* flees and pursues 3D6 */
#define OM_WH7_RULE_SCOUTS           (UINT64_C(1) << 24) /* deployment only: no dice effect */
#define OM_WH7_RULE_IMMUNE_POISON    (UINT64_C(1) << 25) /* poisoned attacks need a wound roll */

/* Damage of each unsaved wound (WHFB 7th edition, Shooting > Hits Inflicting
 * Multiple Wounds). */
typedef enum om_wh7_damage {
    OM_WH7_DAMAGE_ONE = 0, /* one wound */
    OM_WH7_DAMAGE_D3,      /* D3 wounds */
    OM_WH7_DAMAGE_D6,      /* D6 wounds */
    OM_WH7_DAMAGE_TWO,     /* 2 wounds */
    OM_WH7_DAMAGE_THREE,   /* 3 wounds */
    OM_WH7_DAMAGE_COUNT
} om_wh7_damage;

/* A model's special rules: flags plus the typed values some rules carry. */
typedef struct om_wh7_traits {
    om_wh7_rules rules;         /* OM_WH7_RULE_* bits */
    om_wh7_damage damage;       /* wounds per unsaved wound of its close combat blows */
    uint8_t magic_resistance;   /* 0..3: extra dispel dice against spells at it */
} om_wh7_traits;

/* Most magic resistance a model may have (Special Rules > Magic Resistance (1-3)). */
#define OM_WH7_MAX_MAGIC_RESISTANCE 3u

/* A special rule the engine implements (traits.c), for scenario loaders and
 * `oddsmaster list --rules`. */
typedef struct om_wh7_special {
    const char *id;      /* rule id in scenario files, e.g. "killing-blow" */
    om_wh7_rules flag;   /* the bit it sets */
    const char *effect;  /* one sentence: what the engine does with it */
    const char *section; /* where the rule is written */
} om_wh7_special;

/* The rule with this id (NULL if the engine does not know it); how many there
 * are and the i-th (NULL past the end). */
const om_wh7_special *om_wh7_special_find(const char *id);
size_t om_wh7_special_count(void);
const om_wh7_special *om_wh7_special_at(size_t i);

/* What a close combat weapon does, foot or mounted (equipment.c). */
typedef struct om_wh7_weapon_rules {
    int8_t strength;            /* Strength bonus, always */
    int8_t strength_charging;   /* further Strength bonus in the turn the model charged */
    int8_t strength_first_turn; /* further Strength bonus in the first turn of a combat */
    uint8_t extra_attacks;      /* Attacks added (two hand weapons on foot) */
    uint8_t ranks;              /* ranks that fight with it (2: spears on foot; 1 otherwise) */
    bool strikes_last;          /* strikes last, except in the turn the model charged */
    bool parry;                 /* with a shield on foot: +1 save in combat to the front */
    bool allowed;               /* the model can use it this way (lances need a mount) */
} om_wh7_weapon_rules;

/* One row of the close combat weapon table. */
typedef struct om_wh7_weapon_entry {
    const char *id;              /* scenario id, e.g. "great-weapon" */
    const char *name;            /* the rulebook's name */
    bool two_handed;             /* requires two hands: no shield, no second weapon */
    om_wh7_weapon_rules foot;    /* used on foot */
    om_wh7_weapon_rules mounted; /* used by cavalry, monster or chariot riders */
    const char *section;         /* rulebook section */
} om_wh7_weapon_entry;

/* The table row of weapon w (NULL if out of range), and lookup by id. */
const om_wh7_weapon_entry *om_wh7_weapon_get(om_wh7_weapon w);
const om_wh7_weapon_entry *om_wh7_weapon_find(const char *id);

/* One row of the missile weapon table (equipment.c). */
typedef struct om_wh7_missile_entry {
    const char *id;          /* scenario id, e.g. "crossbow" */
    const char *name;        /* the rulebook's name */
    uint8_t range_in;        /* maximum range in inches */
    uint8_t strength;        /* Strength of its hits (0: the user's) */
    int8_t strength_bonus;   /* added to the user's Strength (throwing axes +1) */
    uint8_t shots;           /* multiple shots (1: one shot) */
    uint8_t multiple_within_in; /* the multiple shots only within this range (sling 9") */
    bool armour_piercing;    /* extra -1 to armour saves */
    bool move_or_fire;       /* cannot shoot after moving */
    bool no_range_move_penalty; /* thrown weapons and pistols: no long range or moving -1 */
    bool always_stand_and_shoot; /* pistols */
    const char *section;     /* rulebook section */
} om_wh7_missile_entry;

const om_wh7_missile_entry *om_wh7_missile_get(om_wh7_missile m);
const om_wh7_missile_entry *om_wh7_missile_find(const char *id);

/* Names in scenario files, by enumeration. */
extern const char *const om_wh7_troop_names[];    /* [OM_WH7_TROOP_COUNT] */
extern const char *const om_wh7_armour_names[];   /* [OM_WH7_ARMOUR_COUNT] */
extern const char *const om_wh7_magic_weapon_names[]; /* [OM_WH7_MAGIC_WEAPON_COUNT] */
extern const char *const om_wh7_damage_names[];   /* [OM_WH7_DAMAGE_COUNT] */

/* ---------------------------------------------------------------------------
 * Units, characters and the combat description
 * ------------------------------------------------------------------------- */

/* Largest unit: rank-and-file models fit the outcome's uint8 counters. */
#define OM_WH7_MAX_MODELS 250u
/* Characters that may join one unit. */
#define OM_WH7_MAX_CHARACTERS 2u

/* A mount, fighting with its own profile (WHFB 7th edition, Close Combat >
 * Which Models Fight?; Monsters > Monstrous Mounts in Combat). Its Toughness
 * and Wounds are ignored: blows and shots at the model hit the rider. */
typedef struct om_wh7_mount {
    om_wh7_profile profile;  /* name empty: no mount */
    om_wh7_traits traits;    /* its rules (attack rules are its own; psychology rules
                                are the whole model's: Characters > Mounts' Psychology) */
} om_wh7_mount;

/* A character joining the unit (WHFB 7th edition, Characters). He stands in
 * the front rank and fights; enemies strike him only in a challenge or when no
 * rank-and-file model is left (see README.md). */
typedef struct om_wh7_character {
    om_wh7_profile profile;     /* the character's profile (name required) */
    om_wh7_equipment equipment; /* what he carries */
    om_wh7_traits traits;       /* his rules */
    om_wh7_mount mount;         /* his steed or monstrous mount, if any */
    uint8_t unit_strength;      /* 0: 1 on foot, 2 on a steed, the mount's Wounds + 1
                                   on a monstrous mount (Unit Strength Chart) */
    uint8_t wounds_lost;        /* wounds lost before this fight */
    bool general;               /* the army General: the unit uses his Ld */
    bool battle_standard;       /* the Battle Standard Bearer (Generals & Battle Standards) */
    uint8_t wizard_level;       /* 0: not a wizard; 1..4 */
} om_wh7_character;

/* Highest wizard level (The Magic Phase > Wizards). */
#define OM_WH7_MAX_WIZARD_LEVEL 4u
/* Largest unit strength of one model accepted (a monster's Wounds). */
#define OM_WH7_MAX_MODEL_US 20u

/* A unit: its rank and file, command group and joined characters. */
typedef struct om_wh7_unit {
    om_wh7_troop troop;         /* troop type */
    om_wh7_profile profile;     /* the rank and file (cavalry: the rider) */
    om_wh7_equipment equipment; /* what the rank and file carry */
    om_wh7_traits traits;       /* the rank and file's rules */
    om_wh7_mount mount;         /* the mount of cavalry, if it has one */
    uint8_t models;             /* rank-and-file models at the start, command included */
    uint8_t files;              /* models in each full rank (front rank width) */
    uint8_t wounds_lost;        /* wounds already carried by one model of a multi-Wound unit */
    bool champion;              /* one model is a champion: +1 Attack (Command Groups) */
    bool standard;              /* one model is a standard bearer */
    bool musician;              /* one model is a musician */
    bool war_banner;            /* the standard is a War Banner: +1 combat result */
    uint8_t unit_strength;      /* per model; 0: by troop type (Unit Strength Chart) */
    uint16_t points;            /* the unit's points value (scenario or list file) */
    uint8_t characters;         /* characters joined, 0..OM_WH7_MAX_CHARACTERS */
    om_wh7_character character[OM_WH7_MAX_CHARACTERS];
} om_wh7_unit;

/* The face of a unit that the enemy touches. */
typedef enum om_wh7_arc {
    OM_WH7_ARC_FRONT = 0,
    OM_WH7_ARC_FLANK,
    OM_WH7_ARC_REAR,
    OM_WH7_ARC_COUNT
} om_wh7_arc;

/* What a winner does when the enemy breaks (WHFB 7th edition, Close Combat >
 * Flee & Pursue > Declare Pursuit Intentions). */
typedef enum om_wh7_pursue {
    OM_WH7_PURSUE_ALWAYS = 0, /* pursue (the normal rule) */
    OM_WH7_PURSUE_RESTRAIN,   /* try to hold: a Leadership test (automatic when defending
                                 an obstacle; impossible with Frenzy or Hatred) */
    OM_WH7_PURSUE_COUNT
} om_wh7_pursue;

/* The charged unit's charge response (WHFB 7th edition, Movement > Declaring
 * Charge Responses). */
typedef enum om_wh7_response {
    OM_WH7_RESPONSE_HOLD = 0,
    OM_WH7_RESPONSE_STAND_AND_SHOOT,
    OM_WH7_RESPONSE_FLEE,
    OM_WH7_RESPONSE_COUNT
} om_wh7_response;

/* Cover a unit is in against shots (WHFB 7th edition, Shooting > Cover). */
typedef enum om_wh7_cover {
    OM_WH7_COVER_NONE = 0,
    OM_WH7_COVER_SOFT,   /* hedges, crops, inside woods: -1 to hit */
    OM_WH7_COVER_HARD,   /* walls, buildings, rocks: -2 to hit */
    OM_WH7_COVER_COUNT
} om_wh7_cover;

/* War machines (WHFB 7th edition, War Machines): what a war-machine unit
 * fires. The table of warmachine.c gives each one's Strength, damage and
 * misfire chart. */
typedef enum om_wh7_machine {
    OM_WH7_MACHINE_NONE = 0,
    OM_WH7_MACHINE_CANNON,        /* guess range, bounce, S10, no save, D3 wounds */
    OM_WH7_MACHINE_GREAT_CANNON,  /* the same with D6 wounds (digest A33) */
    OM_WH7_MACHINE_GRAPESHOT,     /* a cannon's flame template: artillery-die S, armour piercing */
    OM_WH7_MACHINE_STONE_THROWER, /* guess range, 3" template, scatter, S4 (centre S8), D6 */
    OM_WH7_MACHINE_BOLT_THROWER,  /* crew BS to hit, S6 through ranks, no save, D3 */
    OM_WH7_MACHINE_COUNT
} om_wh7_machine;

/* One row of the war machine table (warmachine.c). */
typedef struct om_wh7_machine_entry {
    const char *id;          /* scenario id, e.g. "great-cannon" */
    const char *name;        /* the rulebook's name */
    uint8_t range_in;        /* maximum range in inches */
    uint8_t strength;        /* Strength of its hits (grapeshot: 0, the artillery die) */
    uint8_t centre_strength; /* Strength of the hit under the template's centre (stone
                                thrower: 8); 0 none */
    om_wh7_damage damage;    /* wounds of each unsaved wound */
    bool no_armour_save;     /* its hits allow no armour save (ward saves only) */
    bool armour_piercing;    /* extra -1 to armour saves */
    uint8_t misfire_chart;   /* 0: cannon chart, 1: stone thrower chart */
    const char *section;     /* rulebook section */
} om_wh7_machine_entry;

const om_wh7_machine_entry *om_wh7_machine_get(om_wh7_machine m);
const om_wh7_machine_entry *om_wh7_machine_find(const char *id);

/* Modifiers on a unit in this combat from spells and the like (the dice
 * effects of augments and hexes, magic.c): added to every model of the unit,
 * characters and mounts included. Zero changes nothing. */
typedef struct om_wh7_modifiers {
    int8_t to_hit;       /* added to its close combat rolls to hit (Transmutation of Lead -1) */
    int8_t to_wound;     /* added to its rolls to wound (Transmutation of Lead -1) */
    int8_t armour;       /* added to its armour save's score: +1 is one worse */
    int8_t attacks;      /* added to its Attacks */
    int8_t strength;     /* added to its Strength */
    int8_t toughness;    /* added to its Toughness */
    uint8_t ws;          /* its Weapon Skill becomes this (Dazzling Brightness: 1); 0 unchanged */
    bool reroll_ones;    /* re-roll 1s to hit and to wound (Portent of Far) */
    int8_t leadership;   /* added to its Leadership for tests (Doom & Darkness -3; not for
                            units immune to psychology) */
    bool halve_flee;     /* its flee and pursuit rolls are halved (Mistress of the Marsh) */
    bool mounts_idle;    /* its creatures do not attack: mounts, and monsters and swarms
                            themselves (The Beast Cowers) */
    uint8_t missile_ward; /* a ward save against missiles, normal and magic (Celestial
                             Shield: 4); 0 none */
    bool soaked;         /* it shoots at -1, -2 with armour piercing weapons (The Rain Lord) */
} om_wh7_modifiers;

/* Largest spell modifier accepted, either way (The Bear's Anger: +3 Attacks). */
#define OM_WH7_MAX_MOD 5

/* One side of a combat: its unit and what the geometry decided. */
typedef struct om_wh7_side {
    om_wh7_unit unit;          /* the unit */
    bool charging;             /* it charged this turn */
    om_wh7_arc arc;            /* the face of this unit the enemy touches */
    uint8_t contact;           /* models of this unit in base contact with the enemy
                                  (0: min(its width on that face, the enemy's front
                                  width + 2), equal bases corner to corner) */
    bool high_ground;          /* it fights from higher ground (+1 result) */
    bool moved;                /* it moved this turn without charging (spears fight
                                  one rank fewer; shooting at -1) */
    bool defended_obstacle;    /* it defends an obstacle: its charger gets no charge
                                  bonus; it pursues only if it wishes */
    uint8_t general_ld;        /* Ld of the army General within 12" of the unit and
                                  not in it (0: none) */
    bool battle_standard_near; /* the Battle Standard Bearer is within 12" (not in the
                                  unit): failed break tests are re-rolled */
    om_wh7_pursue pursue;      /* what it does when the enemy breaks */
    om_wh7_response response;  /* its charge response when charged */
    uint8_t gap_in;            /* inches between the units when the charge was declared
                                  (a fleeing charged unit is caught if the charger's
                                  charge move reaches gap + flee roll; digest A8) */
    uint8_t flee_blocked_in;   /* a flight of this many inches or more meets a
                                  non-fleeing enemy of unit strength 5+, impassable
                                  terrain or the table edge: the unit is destroyed
                                  (0: open ground) */
    uint8_t friend_ld;         /* Ld of a friendly unit within 6" that takes a panic
                                  test when this unit breaks or is destroyed (0: none) */
    om_wh7_modifiers mods;     /* spells on the unit for this combat */
    /* Shooting, by the unit (volleys, stand & shoot) and at it. */
    uint8_t shooters;          /* models that shoot (0: the front rank, one more rank
                                  when on a hill; Shooting > Who May Shoot) */
    bool on_hill;              /* it shoots from a hill: one more rank shoots */
    bool long_range;           /* its target is beyond half its weapon's range */
    bool multiple_shots;       /* it fires all its multiple shots, each at -1 */
    om_wh7_cover cover;        /* the cover it is in against shots at it */
    uint8_t target_in;         /* inches from it to its target's front (war machines;
                                  the sling's 9") */
    om_wh7_machine machine;    /* what a war-machine unit fires */
    uint8_t guess_in;          /* a cannon's or stone thrower's declared distance */
    uint8_t template_models;   /* models wholly under a flame template it places
                                  (grapeshot); the scenario counts them */
    uint8_t template_partial;  /* models partly under it (hit on 4+) */
    uint8_t base_width_mm;     /* its models' base width (0: by troop type) */
    uint8_t base_depth_mm;     /* its models' base depth (0: by troop type) */
} om_wh7_side;

/* What a combat description simulates. */
typedef enum om_wh7_kind {
    OM_WH7_KIND_COMBAT = 0,  /* charge responses, the first round, break test, flee and pursue */
    OM_WH7_KIND_ENGAGEMENT,  /* the same, then further rounds to a break or the round limit */
    OM_WH7_KIND_VOLLEY,      /* side A shoots at side B (missiles or a war machine), panic */
    OM_WH7_KIND_MAGIC,       /* side A's wizard casts a spell at side B, against dispels */
    OM_WH7_KIND_COUNT
} om_wh7_kind;

/*
 * Readings of the rules the digest lists as ambiguous (A1 to A33), each a
 * named option whose zero value is the recommended default (options.c and
 * `oddsmaster list --options` list them with their ambiguity ids).
 */
typedef struct om_wh7_options {
    bool cc_hit_unclamped;        /* A1: modified close combat rolls to hit are not clamped
                                     to 2..6 (default: clamped) */
    bool wound_mod_unclamped;     /* A2: modified rolls to wound are not clamped (default:
                                     clamped to 2..6, N stays N) */
    bool shield_with_two_handed;  /* A4: a slung shield still counts in close combat
                                     (default: it does not) */
    bool multiwound_no_pool;      /* A5: multiple wounds on a multi-Wound unit are capped
                                     at the wounded model's remaining Wounds, without
                                     pooling (default: pooled, the Ogre example) */
    bool killing_blow_one_wound;  /* A26: a killing blow on a multi-Wound model is one
                                     unsaveable wound (default: the model is slain) */
    bool rank_width_after_blows;  /* A24: the five-wide requirement of the rank bonus is
                                     judged after the blows (default: at the start) */
    bool no_multiple_stand_and_shoot; /* A27: stand & shoot fires a single shot (default:
                                     multiple shots allowed, with both penalties) */
    bool no_move_or_fire_stand_and_shoot; /* A28: move-or-fire weapons cannot stand and
                                     shoot (default: they can) */
    uint8_t max_rounds;           /* rounds an engagement lasts at most (0: 6) */
} om_wh7_options;

/* The eight lores of the rulebook (WHFB 7th edition, The Lores of Magic). */
typedef enum om_wh7_lore {
    OM_WH7_LORE_FIRE = 0, OM_WH7_LORE_METAL, OM_WH7_LORE_SHADOW, OM_WH7_LORE_BEASTS,
    OM_WH7_LORE_HEAVENS, OM_WH7_LORE_LIGHT, OM_WH7_LORE_LIFE, OM_WH7_LORE_DEATH,
    OM_WH7_LORE_COUNT
} om_wh7_lore;

/* Spells in a lore. */
#define OM_WH7_SPELLS_PER_LORE 6u

/* What a spell's dice do, as far as the engine models it. */
typedef enum om_wh7_spell_kind {
    OM_WH7_SPELL_DAMAGE = 0,  /* hits on the target (magic missiles and other damage) */
    OM_WH7_SPELL_AUGMENT,     /* modifiers or rules on a friendly unit */
    OM_WH7_SPELL_HEX,         /* modifiers on an enemy unit */
    OM_WH7_SPELL_OTHER,       /* movement, healing, items, several turns: cast or not only */
    OM_WH7_SPELL_KIND_COUNT
} om_wh7_spell_kind;

/* Damage spells whose hits are not plain dice of hits (magic.c). */
typedef enum om_wh7_spell_special {
    OM_WH7_SPECIAL_NONE = 0,
    OM_WH7_SPECIAL_CONFLAGRATION, /* D6 hits, then while the caster's D6 beats the opponent's
                                     add the caster's die (digest A17) */
    OM_WH7_SPECIAL_LINE,          /* one hit on the model of each rank on an 18" line */
    OM_WH7_SPECIAL_THROUGH_RANKS, /* like a bolt thrower: S-1 each rank while it slays */
    OM_WH7_SPECIAL_PIT,           /* a 3" template; each model under it takes an
                                     Initiative test or is removed */
    OM_WH7_SPECIAL_BURNING_IRON,  /* hits of Strength by the model's save, no armour save */
    OM_WH7_SPECIAL_FRONT_RANK,    /* one hit on every front-rank model */
    OM_WH7_SPECIAL_COUNT
} om_wh7_spell_special;

/* One spell of the lores, its dice effect as data (magic.c). */
typedef struct om_wh7_spell {
    const char *id;            /* scenario id, e.g. "fireball" */
    const char *name;          /* the rulebook's name */
    om_wh7_lore lore;          /* its lore */
    uint8_t number;            /* 1..6 in the lore */
    uint8_t casting_value;     /* the casting value; 0 when illegible (digest A15) */
    bool remains_in_play;      /* remains in play */
    bool magic_missile;        /* a magic missile (hits automatically; missile wards) */
    om_wh7_spell_kind kind;    /* what its dice do */
    uint8_t hit_dice;          /* hits: this many D6 ... */
    uint8_t hits_fixed;        /* ... plus this many (a fixed count) */
    uint8_t strength;          /* Strength of its hits (0: they wound automatically) */
    uint8_t strength_undead;   /* Strength against Undead (Lore of Light); 0 the same */
    bool flaming;              /* flaming hits */
    bool no_armour;            /* no armour save */
    om_wh7_spell_special special; /* hits that are not plain dice */
    om_wh7_modifiers mods;     /* an augment's or hex's modifiers */
    om_wh7_rules grant;        /* rules it gives (Shades of Death: Fear, Terror over Fear) */
    const char *effect;        /* one sentence; "not modelled: ..." for what is not */
    bool feature_bonus;        /* +1 Strength when the target is in the feature it names
                                  (Master of the Wood, Master of Stone) */
} om_wh7_spell;

/* The spell `number` (1..6) of `lore`, or NULL; lookup by id; how many and the
 * i-th (NULL past the end). */
const om_wh7_spell *om_wh7_spell_get(om_wh7_lore lore, unsigned number);
const om_wh7_spell *om_wh7_spell_find(const char *id);
size_t om_wh7_spell_count(void);
const om_wh7_spell *om_wh7_spell_at(size_t i);

/*
 * om_wh7_spell_apply: put the dice effect of augment or hex `sp` on `side`
 * for a combat (its modifiers added, its rules given). Returns OM_OK, or
 * OM_EUNSUPPORTED for a spell with no effect on a unit's dice (damage spells
 * are cast with the magic kind; the others are not modelled).
 */
om_status om_wh7_spell_apply(const om_wh7_spell *sp, om_wh7_side *side);

/* A casting attempt (the magic kind): side A's wizard at side B. */
typedef struct om_wh7_magic {
    om_wh7_lore lore;          /* the spell's lore */
    uint8_t spell;             /* its number 1..6 */
    uint8_t casting_value;     /* 0: the spell table's (needed where it is illegible, A15) */
    uint8_t level;             /* the caster's wizard level 1..4 */
    uint8_t dice;              /* power dice rolled: 1..level + 1, 2 more with a Power Stone */
    bool power_stone;          /* a Power Stone is used */
    uint8_t cast_bonus;        /* added to the casting result */
    uint8_t dispel_dice;       /* dice the opponent rolls to dispel (0: no attempt) */
    uint8_t dispel_bonus;      /* added to the dispel result (Staff of Sorcery: 1) */
    bool dispel_scroll;        /* the opponent reads a Dispel Scroll */
    bool in_feature;           /* the target stands in the wood, hill or ruin the spell
                                  names (Master of the Wood, Master of Stone: +1 S) */
    om_wh7_profile caster;     /* the wizard, for the hits of a miscast */
    uint8_t caster_ward;       /* his ward save (0: none) */
    uint8_t caster_contacts;   /* models of side A in base contact with him (miscast hits) */
} om_wh7_magic;

/* Power dice a Power Stone adds beyond a wizard's level + 1, the casting
 * values of the lores, and the most dice and bonus a roll of the magic phase
 * may have here (The Magic Phase). */
#define OM_WH7_POWER_STONE_DICE 2u
#define OM_WH7_MIN_CV 3u
#define OM_WH7_MAX_CV 15u
#define OM_WH7_MAX_MAGIC_DICE 20u
#define OM_WH7_MAX_MAGIC_BONUS 10u

/* What a casting roll is (WHFB 7th edition, Casting Spells; Irresistible
 * Force & Miscast). */
typedef enum om_wh7_cast {
    OM_WH7_CAST_FAIL = 0,      /* not cast */
    OM_WH7_CAST_CAST,          /* cast, can be dispelled */
    OM_WH7_CAST_IRRESISTIBLE,  /* two or more 6s: cast, cannot be dispelled */
    OM_WH7_CAST_MISCAST        /* two or more 1s: fails (a miscast beats irresistible force) */
} om_wh7_cast;

/* The result of casting dice faces[0..n-1] + bonus against casting value cv:
 * a miscast on two 1s, else irresistible on two 6s, else cast if the total is
 * at least cv and more than 2. Pure. */
om_wh7_cast om_wh7_cast_result(const unsigned *faces, unsigned n, unsigned bonus, unsigned cv);

/* Whether a dispel with faces[0..n-1] + bonus stops a spell cast with
 * `total` (WHFB 7th edition, Dispelling; Double 1s & 6s): two 1s fail, else
 * two 6s succeed, else the dispel total must equal or beat the casting total
 * (digest A12). Pure. */
bool om_wh7_dispel_holds(const unsigned *faces, unsigned n, unsigned bonus, unsigned total);

/* The exact probabilities of casting with n dice (1..7) + bonus against cv:
 * p[om_wh7_cast], by enumerating the 6^n faces. Pure. */
void om_wh7_cast_probabilities(unsigned n, unsigned bonus, unsigned cv, double p[4]);

/* One reading of an ambiguous rule (options.c): a switch of om_wh7_options,
 * or a fixed reading the engine implements (a row of a registry, options.h). */
typedef om_option om_wh7_option;

/* Offset marking a fixed reading. */
#define OM_WH7_OPTION_FIXED OM_OPTION_FIXED

/* The largest max_rounds a scenario may set. */
#define OM_WH7_MAX_ROUNDS_LIMIT 100u

/* The registry of WHFB7's readings (options.c). */
extern const om_option_table om_wh7_option_registry;

/* Number of options and fixed readings, the i-th (NULL past the end), lookup. */
size_t om_wh7_option_count(void);
const om_wh7_option *om_wh7_option_at(size_t i);
const om_wh7_option *om_wh7_option_find(const char *name);

/* om_wh7_option_set: set switch `name` from text ("true"/"false", or a number
 * for max_rounds). Errors: OM_ENOTFOUND (unknown name), OM_EINVAL (a fixed
 * reading or a bad value). */
om_status om_wh7_option_set(om_wh7_options *o, const char *name, const char *value);

/* The value of `opt` in `o` as text ("true", "false", "6", or "fixed"); buf
 * holds numbers. */
const char *om_wh7_option_value(const om_wh7_options *o, const om_wh7_option *opt, char *buf,
                                size_t size);

/* A complete combat to simulate. */
typedef struct om_wh7_combat {
    om_wh7_kind kind;          /* what to simulate */
    om_wh7_side side[2];       /* side[0] is A, side[1] is B */
    bool challenge;            /* the sides fight a challenge whenever both have a
                                  character or champion in contact */
    om_wh7_options options;    /* readings of ambiguous rules */
    om_wh7_magic magic;        /* the casting attempt of the magic kind */
} om_wh7_combat;

/* Winner codes, the same as Warmaster's (OM_WM_SIDE_A ...). */
enum { OM_WH7_SIDE_A = 0, OM_WH7_SIDE_B = 1, OM_WH7_DRAW = 2, OM_WH7_NO_CONTEST = 3 };

/*
 * The result of one trial: small unsigned integers, per side where indexed
 * [2] (index = side). Fields a kind does not produce stay 0.
 */
typedef struct om_wh7_outcome {
    uint8_t winner;             /* combat: the first round's; engagement: the fight's
                                   (A, B, DRAW if it lasted the round limit, NO_CONTEST
                                   if no blow was struck) */
    uint8_t round1_winner;      /* winner of the first round */
    uint8_t rounds;             /* rounds fought */
    uint8_t charged;            /* 1 if the charge reached combat */
    uint8_t result[2];          /* combat result score of the first round */
    uint16_t wounds[2];         /* unsaved wounds each side suffered in all */
    uint8_t slain[2];           /* models each side lost to wounds (characters included) */
    uint8_t characters_slain[2]; /* of those, characters */
    uint8_t broke[2];           /* 1 if the unit failed a break test */
    uint8_t fled[2];            /* 1 if it fled (broke, panicked or fled a charge) and
                                   was not destroyed */
    uint8_t destroyed[2];       /* 1 if the unit was destroyed (wiped out, caught, or its
                                   flight blocked) */
    uint8_t caught[2];          /* 1 if it was destroyed fleeing (caught or blocked) */
    uint8_t panicked[2];        /* 1 if it failed a panic test */
    uint8_t feared[2];          /* 1 if it failed a fear or terror test */
    uint8_t stupid[2];          /* 1 if it failed a stupidity test */
    uint8_t pursued[2];         /* 1 if it pursued a fleeing enemy */
    uint8_t friend_panicked[2]; /* 1 if the friendly unit near it failed a panic test */
    uint16_t hits[2];           /* shooting hits each side suffered (volley, stand & shoot) */
    uint8_t misfire;            /* the war machine's misfire chart roll 1..6 (0: none) */
    uint8_t on_target;          /* a stone thrower's shot landed where it aimed (1) */
    uint8_t cast;               /* the spell was cast (1) */
    uint8_t irresistible;       /* ...with irresistible force (1) */
    uint8_t dispelled;          /* ...and dispelled (1) */
    uint8_t miscast;            /* the miscast table's 2D6 (0: no miscast) */
    uint8_t cast_total;         /* the casting result */
    uint8_t caster_wounds;      /* wounds the caster suffered from a miscast */
    uint8_t caster_slain;       /* the caster was slain or removed (1) */
    uint8_t challenge;          /* 1 if a challenge was fought */
} om_wh7_outcome;

/* One field of om_wh7_outcome, for writers of result files. */
typedef struct om_wh7_outcome_field {
    const char *name;        /* dataset name, e.g. "slain" */
    size_t offset;           /* offsetof(om_wh7_outcome, ...) */
    uint8_t bytes;           /* size of one element: 1 or 2 */
    uint8_t count;           /* 1, or 2 for per-side fields */
    const char *description; /* one sentence */
} om_wh7_outcome_field;

/* Number of outcome fields and the i-th (NULL past the end). */
size_t om_wh7_outcome_field_count(void);
const om_wh7_outcome_field *om_wh7_outcome_field_at(size_t i);

/* Where and why a combat failed its check (check.h): the dotted path as
 * written in scenario files, e.g. "a.unit.files", and what is wrong. */
typedef om_check_failure om_wh7_check_failure;

/*
 * om_wh7_check: validate a combat description (characteristics in range,
 * equipment a model can use together, ranks no wider than the unit, contacts
 * and options possible). Returns OM_OK, or OM_EINVAL after filling `why` (if
 * not NULL) with the dotted field path and the reason and raising the error
 * "field 'PATH': REASON"; OM_EUNSUPPORTED for a valid request the engine does
 * not model. Loaders map PATH to a file and line. Pure, thread-safe.
 */
om_status om_wh7_check(const om_wh7_combat *c, om_wh7_check_failure *why);

/* A prepared combat: read-only tables built once, shared by threads (the
 * layout is private: wh7_int.h). */
typedef struct om_wh7_prepared om_wh7_prepared;

/*
 * om_wh7_prepare_alloc: check `c` (om_wh7_check) and build everything its
 * trials read: effective profiles, the dice chain of every attacker against
 * every target and its binomial alias tables, strike orders. On success *out
 * owns the result; free it with om_wh7_prepared_free. Errors: those of
 * om_wh7_check, OM_ENOMEM. Not thread-safe during the call; the result is.
 */
om_status om_wh7_prepare_alloc(const om_wh7_combat *c, om_wh7_prepared **out);

/* Free a prepared combat (NULL allowed). */
void om_wh7_prepared_free(om_wh7_prepared *p);

/* The combat a prepared combat was built from (a copy it owns). */
const om_wh7_combat *om_wh7_prepared_combat(const om_wh7_prepared *p);

/*
 * om_wh7_resolve: simulate one trial of `p` with dice `d` and write `out`
 * (zeroed first). Allocates nothing; pure apart from advancing `d`;
 * thread-safe for distinct `d` and `out`.
 */
void om_wh7_resolve(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *out);

/* om_wh7_resolve_block: n trials into out[0..n-1] (the driver's inner loop). */
void om_wh7_resolve_block(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *out, size_t n);

/* Names in scenario and result files, by enumeration. */
extern const char *const om_wh7_kind_names[];     /* [OM_WH7_KIND_COUNT] */
extern const char *const om_wh7_arc_names[];      /* [OM_WH7_ARC_COUNT] */
extern const char *const om_wh7_pursue_names[];   /* [OM_WH7_PURSUE_COUNT] */
extern const char *const om_wh7_response_names[]; /* [OM_WH7_RESPONSE_COUNT] */
extern const char *const om_wh7_cover_names[];    /* [OM_WH7_COVER_COUNT] */
extern const char *const om_wh7_lore_names[];     /* [OM_WH7_LORE_COUNT] */

/* ---------------------------------------------------------------------------
 * Rule arithmetic, exposed for the worked-example tests
 * ------------------------------------------------------------------------- */

/* How a save is taken (WHFB 7th edition, Shooting > Taking Armour Saves;
 * Weapons > Hand Weapons > Fighting with hand weapon and shield). */
typedef struct om_wh7_save_case {
    bool steed;              /* a rider on a mount of 1 Wound: +1 (not monster riders) */
    bool close_combat;       /* against a close combat blow */
    bool from_front;         /* ...struck from the model's front (the parry bonus) */
    om_wh7_weapon weapon;    /* the close combat weapon the model fights with */
    bool mounted;            /* the model is mounted (no parry, two-hand rules) */
    bool slung_shield_counts; /* option A4: a shield slung for a two-handed weapon still
                                 counts in close combat */
} om_wh7_save_case;

/*
 * om_wh7_armour_save: the unmodified armour save of a model with equipment `e`
 * taken as `how` says: light armour 6+, heavy 5+, a scaly skin save (alone,
 * or stacking with armour as one step per point better than 7), then one
 * better each for a shield (the Enchanted Shield two), a steed and barding,
 * save_bonus, and in close combat to the front on foot with a hand weapon and
 * a shield one more (parry). Returns 1..6 (a save of 1+ or better is 1: a
 * natural 1 still fails) or OM_WH7_NEVER for none. Pure.
 */
unsigned om_wh7_armour_save(const om_wh7_equipment *e, const om_wh7_save_case *how);

/* Unit strength of one rank-and-file model of `u` (its unit_strength, else the
 * Unit Strength Chart by troop type: the starting Wounds of a monster). */
unsigned om_wh7_model_unit_strength(const om_wh7_unit *u);

/* Unit strength of character `c` (unit_strength, else 1 on foot, 2 on a steed,
 * the mount's Wounds + 1 on a monstrous mount). */
unsigned om_wh7_character_unit_strength(const om_wh7_character *c);

/*
 * om_wh7_rank_bonus: the extra rank bonus of a formation of `models` models
 * `files` wide (WHFB 7th edition, Close Combat > Combat Result Bonuses > Extra
 * Rank): none unless at least 5 wide; +1 per rank behind the first with at
 * least 5 models, an incomplete rear rank included, at most +3.
 */
unsigned om_wh7_rank_bonus(unsigned models, unsigned files);

/*
 * om_wh7_break_holds: whether a break test roll of `roll` on 2D6 holds
 * (WHFB 7th edition, Close Combat > Break Tests; Insane Courage!; Psychology
 * > Stubborn; Defeated by Fear-causing Enemy): a natural double 1 always
 * holds; an automatic break (Fear) fails otherwise; else it holds if roll +
 * diff <= ld, or, for a Stubborn unit, roll <= stubborn_ld (0: not
 * Stubborn). The resolver decides every break test with this predicate.
 */
bool om_wh7_break_holds(unsigned roll, unsigned ld, unsigned diff, unsigned stubborn_ld,
                        bool automatic);

/* The exact probability that a break test holds (om_wh7_break_holds over the
 * 36 outcomes of 2D6), with a re-roll of a failed test when `reroll` (the
 * Battle Standard). */
double om_wh7_break_pass_probability(unsigned ld, unsigned diff, unsigned stubborn_ld,
                                     bool automatic, bool reroll);

/* How a shot is taken, for om_wh7_shoot_required. */
typedef struct om_wh7_shot_case {
    unsigned bs;            /* the shooter's Ballistic Skill */
    bool moved;             /* the shooter moved this turn */
    bool long_range;        /* beyond half range */
    bool stand_and_shoot;   /* at a charger */
    bool multiple;          /* firing all its multiple shots */
    bool thrown_or_pistol;  /* no moving or long range penalty */
    om_wh7_cover cover;     /* the target's cover */
    bool large_target;      /* the target is a large target */
    bool small_target;      /* a single model of unit strength 1, or skirmishers of
                               unit strength 1 models */
} om_wh7_shot_case;

/* The modified requirement to hit of a shot (WHFB 7th edition, Shooting >
 * To Hit Modifiers): 7 - BS, +1 for each penalty, -1 for a large target; read
 * it with om_wh7_shoot_hit_probability. */
int om_wh7_shoot_required(const om_wh7_shot_case *c);

/* Range bands (WHFB 7th edition, Shooting > Range): short up to half the
 * maximum, long beyond it up to the maximum, out of range past it. */
typedef enum om_wh7_range_band {
    OM_WH7_RANGE_SHORT = 0,
    OM_WH7_RANGE_LONG,
    OM_WH7_RANGE_OUT
} om_wh7_range_band;

/* The band of a target `inches` away for a weapon of range `range_in`. */
om_wh7_range_band om_wh7_range_of(unsigned range_in, unsigned inches);

/* Whether a unit that had `start` models at the start of a phase and lost
 * `lost` of them in it must take a Panic test (WHFB 7th edition, Psychology >
 * Panic: 25% or more; digest A10: models, not wounds). */
bool om_wh7_quarter_lost(unsigned start, unsigned lost);

/*
 * om_wh7_victory_points: victory points a unit worth `points` gives the enemy
 * (WHFB 7th edition, Victory!): all of them if destroyed or fled, half rounded
 * up at half strength or less (`left` of `start` models; a single model
 * counts its Wounds), else none. A unit with no points value counts 100.
 */
unsigned om_wh7_victory_points(unsigned points, unsigned start, unsigned left, bool fled);

/* The artillery die (WHFB 7th edition, Dice > Artillery Dice & Scatter Dice):
 * a D6 face 1..5 reads 2, 4, 6, 8, 10; 6 is a misfire (returned as 0). */
unsigned om_wh7_artillery_face(unsigned d6);

/*
 * om_wh7_cannon_ranks: the ranks a cannonball crosses (WHFB 7th edition, War
 * Machines > Firing a Cannon): `ranks` ranks of depth rank_depth_in behind a
 * front at front_in on the line of fire; the ball lands at first_in and
 * bounces bounce_in further; `stuck` (a misfired bounce) hits only the rank
 * under the landing point.
 */
unsigned om_wh7_cannon_ranks(double front_in, double rank_depth_in, unsigned ranks,
                             double first_in, double bounce_in, bool stuck);

/* Models under a round template (WHFB 7th edition, Templates; Stone Throwers). */
typedef struct om_wh7_template_cover {
    unsigned full;     /* models wholly under it, the centre's excepted: hit */
    unsigned partial;  /* models partly under it, the centre's excepted: hit on 4+ */
    bool centre;       /* a model lies under the centre hole (double Strength) */
} om_wh7_template_cover;

/*
 * om_wh7_round_template: a template of radius_in centred at (cx, cy) over a
 * block of `models` models `files` wide on bases base_w_in x base_d_in, the
 * front rank at front_in along the line (y) and centred across it (x = 0),
 * an incomplete rear rank in the middle. Writes the counts to *out. Pure.
 */
void om_wh7_round_template(unsigned models, unsigned files, double base_w_in, double base_d_in,
                           double front_in, double cx, double cy, double radius_in,
                           om_wh7_template_cover *out);

/* Flee or pursuit dice of a unit of Movement m: 2D6 up to 6", 3D6 above, 3D6
 * for flyers (WHFB 7th edition, Flee & Pursue; Flyers > Fleeing & Pursuing). */
unsigned om_wh7_flee_dice(unsigned m, bool flyer);

#endif /* OM_WH7_H */
