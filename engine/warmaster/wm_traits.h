/*
 * wm_traits.h: what a unit's special rules make it do, as typed traits.
 *
 * The army lists name special rules by id; the engine's registry (special.c)
 * maps each id, under each rule set, to an om_wm_traits record: named flags
 * for the behaviours many rules share ("causes terror", "never driven back"),
 * signed modifiers ("+1 Attack charging", "armour one worse against its
 * shots") and enumerations where a unit is one of several kinds (its kind of
 * shooter, its bonus dice, when it is badly hurt). A unit's traits are those
 * of all its rules merged (om_wm_traits_merge). The engine reads the traits
 * only, never rule ids, so a new rule is one row of the registry plus, if no
 * trait says it yet, one new trait and its mechanism.
 *
 * Every trait is one byte (bool, int8_t or uint8_t) so that the descriptor
 * table (traits.c) can read, merge, compare and print any of them by offset:
 * the provenance written to result files and `oddsmaster list --rules` come
 * from it, not from per-trait code.
 */
#ifndef OM_WM_TRAITS_H
#define OM_WM_TRAITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a unit's shooting dice come from, when not simply its Shots per
 * shooting stand (army lists; Warmaster Revolution,
 * Artillery & Machines > Artillery). */
typedef enum om_wm_shooter {
    OM_WM_SHOOTER_PLAIN = 0,     /* its Shots per shooting stand */
    OM_WM_SHOOTER_CANNON,        /* volleys without save, cover one lower; at chargers grapeshot:
                                    2 Attacks a stand, saves allowed
                                    (Artillery & Machines > Artillery) */
    OM_WM_SHOOTER_REPEATER,      /* repeating crossbows: 2 a stand within 15cm, 1 beyond
                                    and at chargers */
    OM_WM_SHOOTER_HELBLASTER,    /* 8, 4 or 2 a gun by range band, 8 at chargers; three
                                    1s misfire, four explode */
    OM_WM_SHOOTER_ROCKET,        /* D6 a machine; a 1 rolls the rocket misfire chart */
    OM_WM_SHOOTER_FLAME_CANNON,  /* 2D6 a machine; a double rolls its misfire chart */
    OM_WM_SHOOTER_WARP_LIGHTNING, /* D6 a machine, a 1 turning D6 on itself; drives no
                                    one back, a unit it hurts is confused on a 6 (1.1) */
    OM_WM_SHOOTER_SALAMANDER,    /* one stand shoots 2 where the others shoot 1, and is
                                    the last its owner removes (Skinks) */
    OM_WM_SHOOTER_COUNT
} om_wm_shooter;

/* Random attack dice a war machine adds in combat (army lists). */
typedef enum om_wm_bonus_dice {
    OM_WM_BONUS_DICE_NONE = 0,
    OM_WM_BONUS_D6_OR_D3,     /* +D6 in a round it charges or pursues, +D3 otherwise
                                 (Pump Wagon) */
    OM_WM_BONUS_D6_CHARGING,  /* +D6 charging an enemy in the open, round 1 (Doom Wheel) */
    OM_WM_BONUS_DICE_COUNT
} om_wm_bonus_dice;

/* When a one-stand big monster becomes badly hurt: the hits it carries at the
 * end of a phase, against its Hits (army lists, P18). */
typedef enum om_wm_hurt {
    OM_WM_NEVER_HURT = 0,
    OM_WM_HURT_ABOVE_HALF, /* more than half its Hits (Revolution lists; the Stegadon) */
    OM_WM_HURT_FROM_HALF,  /* half its Hits or more (1.1 lists) */
    OM_WM_HURT_COUNT
} om_wm_hurt;

/* Which retreating enemies a unit may pursue beyond what its troop type may
 * (Combat > Pursuit). */
typedef enum om_wm_pursuit {
    OM_WM_PURSUES_AS_ITS_TYPE = 0, /* as its troop type may */
    OM_WM_PURSUES_MOUNTED,         /* infantry that may pursue cavalry and chariots */
    OM_WM_PURSUES_ANY,             /* any enemy: cavalry, chariots and flyers too */
    OM_WM_PURSUIT_COUNT
} om_wm_pursuit;

/* Hits a unit regenerates in each combat round (army lists). */
typedef enum om_wm_regeneration {
    OM_WM_NO_REGENERATION = 0,
    OM_WM_REGENERATES_CARRIED, /* one outstanding hit after whole stands are removed (Trolls) */
    OM_WM_REGENERATES_SUFFERED, /* one hit suffered in the round, if alive (War Hydra) */
    OM_WM_REGENERATION_COUNT
} om_wm_regeneration;

/* What position a unit counts as having, besides the one declared
 * (Shooting > Scores to Hit; Combat > Defended & Fortified Troops). */
typedef enum om_wm_cover {
    OM_WM_COVER_AS_DECLARED = 0,
    OM_WM_COVER_ALWAYS_DEFENDED,  /* counts as defended in the open (Steam Tank) */
    OM_WM_COVER_ONLY_IN_DENSE,    /* never defended outside dense terrain (Revolution Bears) */
    OM_WM_COVER_COUNT
} om_wm_cover;

/* A war machine that drive backs do not move (the Trebuchet, A-21): what its
 * drive-back dice do instead. */
typedef enum om_wm_static_machine {
    OM_WM_NOT_STATIC = 0,
    OM_WM_STATIC_LOST_PAST_10CM, /* destroyed by a drive back of more than 10cm (Revolution) */
    OM_WM_STATIC_LOST_ON_A_SIX,  /* destroyed by any 6 among its drive-back dice (1.1) */
    OM_WM_STATIC_MACHINE_COUNT
} om_wm_static_machine;

/*
 * The traits of a unit: what its special rules make it do. All zero is a unit
 * with no special rule. Grouped by the phase that reads them.
 */
typedef struct om_wm_traits {
    /* Combat: attack dice (Combat > Attack Modifiers). */
    bool terror;            /* enemy stands in contact fight at -1 Attack */
    bool ignores_terror;    /* not affected by enemy terror */
    bool no_charge_bonus;   /* never gets the charge bonus */
    int8_t charge_bonus_delta; /* added to the charge bonus charging an enemy in the open */
    int8_t attack_delta;    /* Attacks per stand in every round (Grail Pilgrims) */
    int8_t attack_delta_vs_monsters; /* Attacks per stand against monsters */
    int8_t round1_front_attack_delta; /* Attacks per stand fighting to its front in the
                                         first round */
    int8_t charge_dice_delta; /* attack dice per unit in the first round when it charges,
                                 even against defended enemies (Hermann) */
    uint8_t bonus_dice;     /* om_wm_bonus_dice: random attack dice of a machine */
    bool hates_chaos_undead; /* against a unit of a Chaos or Undead army list: +1 Attack
                                per stand in the first round, and must pursue (Zealots) */
    bool rerolls_a_miss;    /* re-rolls one missed attack die in each turn's first round */
    bool extra_strike_round1; /* more hits than suffered in round 1: one more Attack per
                                 fighting stand before the result (1.1 Bears) */
    /* Combat: hits and saves (Combat > How to Calculate Damage). */
    uint8_t melee_hit_score; /* its attacks hit on this score whatever the cover (0: the
                                rule set's table) */
    int8_t save_delta_melee; /* added to its own save score in combat (-1: one better) */
    uint8_t regeneration;   /* om_wm_regeneration */
    uint8_t cover;          /* om_wm_cover */
    /* Combat: results and supports (Combat > Combat Results, Supporting
     * Troops). */
    bool no_support;        /* can neither support nor be supported */
    bool side_supports_only; /* its rear supports do not count (phalanx, skirmishers,
                                pikemen) */
    /* Shooting (Shooting > Scores to Hit, Armour; Shooting > Shooting at
     * Charging Enemy; Artillery & Machines > Artillery). */
    uint8_t shooter;        /* om_wm_shooter: where its shooting dice come from */
    bool shots_no_save;     /* its shooting allows no armour save */
    int8_t shots_save_delta; /* added to the target's save against its shots (+1: one worse) */
    int8_t shots_to_hit_delta; /* added to its to-hit score when shooting (-1: +1 to hit) */
    bool shots_cover_one_lower; /* its volleys count fortified as defended, defended as open */
    bool line_fire;         /* +1 Attack per further target stand in its line of fire */
    bool no_stand_and_shoot; /* cannot shoot at chargers */
    bool blind_fire_needs_six; /* shooting blind, a D6 of 6 first (1.1 Trebuchet) */
    bool double_ones_confuse; /* two 1s to hit in one shooting confuse it (Revolution Warp
                                 Lightning Cannon) */
    bool salamander_shoots_chargers; /* with OM_WM_SHOOTER_SALAMANDER: its extra shot at
                                        chargers too (Revolution) */
    /* Drive backs (Shooting > Driving Back Enemies). */
    bool no_drive_back;     /* never driven back by shooting */
    int8_t drive_back_dice_delta; /* added to its drive-back dice (-1: Bushido) */
    uint8_t drive_back_confuses_on; /* the drive backs of its shots confuse on this score
                                       or more, each die read (0: the usual 6) */
    uint8_t static_machine; /* om_wm_static_machine */
    /* Confusion (Confusion > Confused Units). */
    bool never_confused;    /* cannot become confused */
    bool stampedes;         /* whatever would confuse it makes it stampede: no -1, must
                               pursue (Araby Elephants) */
    /* Retreats and pursuit (Combat > Retreats; Aftermath; Pursuit). */
    bool must_pursue;       /* pursues whenever the rules allow */
    uint8_t pursuit;        /* om_wm_pursuit: which enemies it may pursue */
    bool flies;             /* a flyer: non-flyers cannot pursue it */
    bool pursued_by_non_flyers; /* with flies: non-flyers may still pursue it */
    bool immobile;          /* neither pursues nor falls back unless pushed (Screaming Bell) */
    bool destroyed_if_retreats; /* destroyed when forced to retreat, as artillery is */
    bool rampage;           /* retreating, it confuses the enemy in contact on a 6, or
                               destroys it if it was confused (Ancients elephants) */
    /* Warmaster Ancients formations and troops (Warmaster Ancients, Special
     * Rules). */
    bool warband;           /* +1 pursuing, -1 after retreating; drive backs by losses */
    bool shock;             /* on a long base: +1 Attack per stand charging or pursuing */
    bool scythed;           /* fights one round, then is removed; confuses a loser it hit */
    bool shieldwall;        /* armour one better in the first round when charged */
    bool phalanx;           /* stands striking to a side or rear have base Attack 0 */
    bool legion;            /* first round: +1 result per stand fighting to its front */
    bool maniple;           /* a 6 per rear-supporting maniple stand saves a hit */
    bool skirmish;          /* skirmishers: may evade a charge after shooting */
    bool pikes;             /* defended in the first round against charging cavalry or
                               chariots, never in dense terrain or fortified */
    /* The unit itself. */
    bool no_character;      /* no character joins it and it takes no magic item */
    uint8_t hurt;           /* om_wm_hurt: when a big monster is badly hurt */
    bool daemonic_instability; /* a D6 at the start of its own turns once it has lost a
                                  stand (Temple Daemons) */
    bool war_wagon;         /* a War Wagon: column or laager formation, only its wagon
                               stand fights and shoots (Kislev lists) */
} om_wm_traits;

/* The kinds of value a trait holds. */
typedef enum om_wm_trait_kind {
    OM_WM_TRAIT_FLAG = 0, /* bool: the behaviour applies or not */
    OM_WM_TRAIT_DELTA,    /* int8_t: added to a value of the rules (0: none) */
    OM_WM_TRAIT_SCORE,    /* uint8_t: a dice score replacing the rules' (0: the rules') */
    OM_WM_TRAIT_ENUM      /* uint8_t: one of the names in `values` (0: the default) */
} om_wm_trait_kind;

/* The description of one field of om_wm_traits (traits.c). */
typedef struct om_wm_trait {
    const char *name;          /* the field's name, as in result files: "terror" */
    om_wm_trait_kind kind;     /* how its byte is read */
    size_t offset;             /* offsetof(om_wm_traits, field) */
    const char *const *values; /* OM_WM_TRAIT_ENUM: value names, by value; else NULL */
    unsigned n_values;         /* entries in values */
    const char *meaning;       /* one line: what the engine does with it */
} om_wm_trait;

/* Number of traits, and the i-th in om_wm_traits order (NULL past the end).
 * Thread-safe (static storage). */
size_t om_wm_trait_count(void);
const om_wm_trait *om_wm_trait_at(size_t i);

/* The trait named `name`, or NULL. */
const om_wm_trait *om_wm_trait_find(const char *name);

/* The value of trait `d` in `t`: 0/1 for a flag, the signed delta, the score,
 * or the enumeration's value. */
int om_wm_trait_get(const om_wm_traits *t, const om_wm_trait *d);

/* The name of an enumeration trait's value `v` ("cannon"), or NULL for
 * another kind of trait or a value out of range. */
const char *om_wm_trait_value_name(const om_wm_trait *d, int v);

/* Whether `t` has no trait set (a unit with no special rule). */
bool om_wm_traits_empty(const om_wm_traits *t);

/* Whether `a` and `b` set the same traits to the same values. */
bool om_wm_traits_equal(const om_wm_traits *a, const om_wm_traits *b);

/*
 * om_wm_traits_merge: add the traits of one more rule, `add`, to `into`:
 * flags are or-ed; of two modifiers the larger in size counts (the same
 * modifier from two rules does not stack: a unit that is heavy chariots and
 * scythed chariots charges at +1 more, not +2); a score or enumeration set
 * by both must agree. Returns true; on a disagreement returns false, leaves
 * `into` unchanged and, if `conflict` is not NULL, sets *conflict to the
 * trait. Pure; thread-safe.
 */
bool om_wm_traits_merge(om_wm_traits *into, const om_wm_traits *add,
                        const om_wm_trait **conflict);

/*
 * om_wm_traits_format: the traits set in `t` as one line of text, in
 * om_wm_traits order: flags by name, modifiers signed ("charge_bonus_delta
 * +1"), scores and enumerations by value ("shooter helblaster"), separated by
 * ", "; "none" if no trait is set. Writes at most `cap` bytes including the
 * NUL (truncating); returns the length the whole text needs, as snprintf.
 */
size_t om_wm_traits_format(const om_wm_traits *t, char *buf, size_t cap);

#endif /* OM_WM_TRAITS_H */
