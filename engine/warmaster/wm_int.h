/*
 * wm_int.h: private interface between the files of the Warmaster engine.
 */
#ifndef OM_WM_INT_H
#define OM_WM_INT_H

#include <assert.h>

#include "wm.h"

/* Saturate a count into an outcome's uint8 field (values past 255 only arise in
 * drive-back sums of units that rout, where the exact figure does not matter). */
static inline uint8_t om_wm_sat8(unsigned v) { return v > 255u ? 255u : (uint8_t)v; }

/* Whether pikemen count as defended against `charger` in `round` (army list):
 * in the first round, against cavalry or chariots charging them, when not in
 * dense terrain; they are otherwise in the open. */
static inline bool om_wm_pikes_hold(const om_wm_side *pikes, const om_wm_side *charger,
                                    unsigned round)
{
    return round == 1 && pikes->unit.traits.pikes && charger->charging &&
           (charger->unit.troop == OM_WM_CAVALRY || charger->unit.troop == OM_WM_CHARIOT) &&
           pikes->position == OM_WM_OPEN && !pikes->dense_terrain && pikes->flanked == 0;
}

/* Whether a unit's item that lasts "until the unit loses a stand" still works:
 * it has all its starting stands and started at full strength (Magic > Magic
 * Items). */
static inline bool om_wm_magic_intact(const om_wm_side *me, unsigned stands)
{
    return stands == me->unit.stands && om_wm_unit_size(&me->unit) == me->unit.stands;
}

/* Shooting hits on `target` after its Banner of Steadfastness, which ignores one
 * a turn while it works (Magic > Magic Items). */
static inline unsigned om_wm_steadfast(const om_wm_side *target, unsigned stands, unsigned hits)
{
    if (target->magic == OM_WM_MAGIC_STEADFASTNESS && hits > 0 &&
        om_wm_magic_intact(target, stands))
        return hits - 1;
    return hits;
}

/* Armour saves rolled for `hits` hits through the save score of `t` (7: no
 * save, no dice). */
static inline unsigned om_wm_saves(om_dice *d, const om_dice_test *t, unsigned hits)
{
    return t->save >= 7 ? 0u : om_dice_roll_count(d, hits, t->save);
}

/* What one shooting did, besides its hits on the target. */
typedef struct om_wm_fire {
    unsigned hits;      /* unsaved hits on the target */
    unsigned self_hits; /* hits the shooter scored on itself (1.1 Warp Lightning Cannon) */
    unsigned exploded;  /* machines of the shooter destroyed (misfire charts) */
    bool confused;      /* the shooter is confused (Revolution Warp Lightning Cannon) */
    bool reduced;       /* in and out: the Flame Cannon shoots 1D6 from now on */
} om_wm_fire;

/*
 * om_wm_fire_at: a unit fighting now as `me` (its values, or those of it badly
 * hurt), with `stands` stands left, shoots at `target` through the tests `t`
 * of its shooting at it: a volley, or at its charge (`at_charger`; the target
 * has `target_stands` left, for its Banner of Shielding; Magic > Magic Items).
 * Its Attacks (om_wm_shots, the misfire charts of the army lists) and a joined
 * character's breath, through the prepared to-hit and save (Shooting > Scores
 * to Hit, Armour; Shooting at Charging Enemy). r->reduced is read and kept.
 */
void om_wm_fire_at(const om_wm_pair_tests *t, const om_wm_side *target, om_dice *d,
                   const om_wm_side *me, unsigned stands, bool at_charger,
                   unsigned target_stands, om_wm_fire *r);

/* om_wm_fire_cost: what shooting `r` cost its shooter `me`, which has *stands
 * stands (army lists): machines blown up and hits on itself take stands
 * (their odd hits go at the phase's end); hurt by its own lightning, it is
 * confused on a 6 like any unit the 1.1 Warp Lightning Cannon hurts. Updates
 * *stands; returns whether the shooter is now confused. */
bool om_wm_fire_cost(om_dice *d, const om_wm_unit *me, const om_wm_fire *r, unsigned *stands);

/* What a volley did to its target. */
typedef struct om_wm_volley_result {
    unsigned hits;          /* unsaved hits */
    unsigned stands_lost;   /* stands removed by them */
    unsigned drive_back_cm; /* drive-back distance (0 if destroyed) */
    bool confused;          /* a drive-back die showed 6 */
    bool routed;            /* driven back beyond its full pace */
    bool off_table;         /* driven off the table for good (Movement > Units Which Move off the
                               Table) */
    bool hurt;              /* a big monster left badly hurt (army lists) */
    om_wm_fire fire;        /* the shooting itself; set fire.reduced before the call */
} om_wm_volley_result;

/* A unit fighting now as `me`, with `shooters` stands left, shoots a
 * Shooting-phase volley at `target`, which has `stands` stands, through the
 * tests `t` of its shooting at it: hits, stand removal, drive back
 * (Shooting > How to Calculate Casualties; Driving Back Enemies) and badly
 * hurt monsters. */
void om_wm_volley_at(const om_wm_ruleset *rules, const om_wm_pair_tests *t,
                     const om_wm_side *target, om_dice *d, const om_wm_side *me,
                     unsigned shooters, unsigned stands, om_wm_volley_result *v);

/*
 * om_wm_drive_back_at: the end of a Shooting phase for `target` (Warmaster
 * Revolution, Shooting > Driving Back Enemies; Shooting at a Glance >
 * Disregard Odd Hits), which started it with `stands` stands and has `left`
 * stands and `carried` odd hits after v->hits hits (all its shooters', after
 * saves; v->stands_lost already set): its drive back through the rule set's
 * and its own rules and those of the unit driving it back (`driver`, the
 * closest that shot at it: the 1.1 Warp Lightning Cannon drives nobody back,
 * the Skull Chukka confuses on a 4+), confusion, rout, what lies behind it
 * (target->behind and behind_cm), and a big monster badly hurt. Sets
 * drive_back_cm, confused, routed, off_table and hurt (and stands_lost of a
 * Trebuchet destroyed); rolls only the dice those need. om_wm_volley_at is one
 * shooter's volley and this.
 */
void om_wm_drive_back_at(const om_wm_ruleset *rules, om_dice *d, const om_wm_side *target,
                         const om_wm_traits *driver, unsigned stands, unsigned left,
                         unsigned carried, om_wm_volley_result *v);

/* The tests of one pair, in the order om_wm_pair_test_at numbers them: the 7
 * melee tests, the volley, at a charger, at a charger worn, 3 breaths. */
#define OM_WM_PAIR_TESTS 13u

/* The to-hit and save scores of a unit attacking and shooting at another, by
 * the numbering of om_wm_pair_test_at. */
typedef struct om_wm_pair_scores {
    uint8_t to_hit[OM_WM_PAIR_TESTS]; /* score to hit */
    uint8_t save[OM_WM_PAIR_TESTS];   /* score that saves (7: none) */
    unsigned n;                       /* tests needed: all, or without the 3 breaths of a
                                         joined character when it has none */
} om_wm_pair_scores;

/* The scores of `me` attacking and shooting at `foe` under rule set r
 * (Shooting > Scores to Hit, Armour; Combat > How to Calculate Damage; the
 * army lists' shooting rules; a joined character's breath,
 * rule_effects_fantasy A-14; shieldwall, pikes and the Banner of Shielding in
 * reserve). Pure. */
void om_wm_pair_scores_of(const om_wm_ruleset *r, const om_wm_side *me, const om_wm_side *foe,
                          om_wm_pair_scores *sc);

/* The i-th test of *t (0 <= i < OM_WM_PAIR_TESTS). */
om_dice_test *om_wm_pair_test_at(om_wm_pair_tests *t, unsigned i);

/* The tests of `me` attacking and shooting at `foe` under rule set r
 * (om_wm_pair_scores_of), through the shared tables of `kit`: what a
 * multi-unit engagement prepares for each pair, and a turn's Shooting phase
 * for each shooter and target. No allocation; thread-safe. */
void om_wm_dice_kit_pair_tests(const om_wm_dice_kit *kit, const om_wm_ruleset *r,
                               const om_wm_side *me, const om_wm_side *foe,
                               om_wm_pair_tests *t);

/* The kit's test of Attacks hitting on `to_hit` and saved on `save` (7:
 * none): a spell's shooting Attacks (magic.c). No allocation; thread-safe. */
void om_wm_dice_kit_test(const om_wm_dice_kit *kit, unsigned to_hit, unsigned save,
                         om_dice_test *t);

/* `me` once badly hurt: Hits and Attacks halved, Shots halved rounded up
 * (army lists), in *hurt. */
void om_wm_side_hurt(const om_wm_side *me, om_wm_side *hurt);

/* The drive-back distance a unit removed by its drive back records: it left
 * the table (routed beyond its pace, or driven off the table edge). */
static inline uint8_t om_wm_drive_back_recorded(const om_wm_volley_result *v)
{
    return v->routed || v->off_table ? OM_WM_LEFT_TABLE_CM : om_wm_sat8(v->drive_back_cm);
}

/* --- The combat engine (combat.c): an engagement of any number of units. --- */

/* One unit of an engagement as the combat engine sees it, prepared. */
typedef struct om_wm_unit_prep {
    const om_wm_side *side;   /* as declared; its fighting, flanked and side_strikers are
                                 the sums over its contacts */
    const om_wm_side *hurt;   /* the same once badly hurt (Hits and Attacks halved) */
    const uint8_t *lost_at;   /* stands removed by h hits carried (256 entries), or NULL:
                                 worked out by division */
    const uint8_t *left_at;   /* hits carried after that removal, or NULL */
    uint8_t army;             /* OM_WM_SIDE_A or OM_WM_SIDE_B */
    uint8_t combat_hits;      /* Hits per stand in combat (Banner of Fortitude: +1) */
    uint8_t hurt_hits;        /* the same once badly hurt */
    uint8_t pursues;          /* the enemy it pursues first, or OM_WM_NO_UNIT */
    uint16_t last_contact;    /* index of its last contact (it takes the stands it
                                 regains), or OM_WM_NO_UNIT if it has none */
    bool touches;             /* some contact joins it to an enemy (1.1 retreat divisor) */
} om_wm_unit_prep;

/* One contact as the engine sees it: the declared contact and its tests. */
typedef struct om_wm_contact_prep {
    om_wm_contact c;                /* as declared */
    const om_wm_pair_tests *tests;  /* c.unit attacking c.enemy */
    const uint8_t *round1_dice;     /* c.unit's first-round dice by its stands left, or
                                       NULL (worked out) */
} om_wm_contact_prep;

/* No pair: two units that never fight each other (every byte 0xff, so a
 * memset sets it). */
#define OM_WM_NO_PAIR UINT16_MAX
/* No contact: a unit that has none. */
#define OM_WM_NO_CONTACT UINT16_MAX

/*
 * An engagement prepared for the combat engine: the units, their contacts and
 * supports, the tests of every pair that can fight and what is in play.
 * Read-only while trials run.
 */
typedef struct om_wm_engine {
    const om_wm_ruleset *rules;      /* rule set */
    om_wm_options options;           /* interpretations of ambiguous rules */
    om_wm_span span;                 /* first round, one Combat phase, or to the end */
    unsigned n_units;                /* units, both sides */
    unsigned n_contacts;             /* declared contacts */
    unsigned n_supports;             /* support links between modelled units */
    unsigned army_units[2];          /* units of each side */
    uint8_t army_unit[2][OM_WM_SIDE_UNITS_MAX]; /* their indices, in order */
    const om_wm_unit_prep *unit;     /* [n_units] */
    const om_wm_side *side[OM_WM_UNITS_MAX]; /* unit[u].side, at hand */
    const om_wm_contact_prep *contact; /* [n_contacts] */
    const om_wm_support *support;    /* [n_supports] */
    const om_wm_pair_tests *tests;   /* the tests of the pairs below */
    uint16_t pair[OM_WM_UNITS_MAX][OM_WM_UNITS_MAX]; /* [u][e]: index in tests of u
                                       attacking e, or OM_WM_NO_PAIR; only the rows and
                                       columns of the n_units are set */
    unsigned divisor[2];             /* each side's retreat divisor when no unit can leave
                                        the combat before it loses (one unit a side), or 0:
                                        counted each time */
    int charger;                     /* the side that charges, or -1 */
    int advancer;                    /* with no charger, the side whose units advanced
                                        into the engagement (Combat > Advance), or -1 */
    unsigned rounds_before;          /* rounds fought in earlier turns */
    uint32_t in_play;                /* OM_WM_PLAY_* bits */
    const struct om_wm_later *later; /* a duel's tables of the rounds after the first
                                        (om_wm_duel), or NULL */
    const struct om_wm_round1 *after_shot; /* a duel's first-round tables of the states
                                        the shooting at the charge leaves, by the hits
                                        it scored, or NULL */
    unsigned n_after_shot;           /* entries of after_shot */
} om_wm_engine;

/* Stand counts the tables of a duel cover: every count a unit can have (at
 * most 12 stands, and up to its full size again with Daemonic Instability). */
#define OM_WM_STAND_COUNTS 16u

/* Pursuit bonuses the table of later rounds' attack dice covers (a pursuit
 * bonus is 1 + a third of the retreat: 15 takes a retreat of 42cm or more);
 * dice with a larger bonus are worked out. */
#define OM_WM_LATER_PURSUITS 16u

/* Bits of a unit's state that change its attack dice after the first round,
 * indexing om_wm_later.dice: badly hurt, confused, retreated in the round
 * before, immune to terror, empowered by its Tomb King or Oathstone. */
#define OM_WM_LATER_HURT      1u
#define OM_WM_LATER_CONFUSED  2u
#define OM_WM_LATER_RETREATED 4u
#define OM_WM_LATER_FEARLESS  8u
#define OM_WM_LATER_EMPOWERED 16u
#define OM_WM_LATER_STATES    32u

/* Bits of a winner's state that decide whether it may pursue in a duel,
 * indexing om_wm_later.pursues: in the open, confused, at least as many
 * stands as the loser. */
#define OM_WM_PURSUE_IN_OPEN  1u
#define OM_WM_PURSUE_CONFUSED 2u
#define OM_WM_PURSUE_AHEAD    4u

/*
 * What a duel's rounds after the first look up instead of working out, each
 * filled when the engagement is prepared by the very functions a trial would
 * call (compute_dice, may_pursue) on every state the table covers: after the
 * first round a duel's blows are always its whole unit against the other,
 * frontally, so a unit's attack dice depend only on its state's bits above,
 * its pursuit bonus and its stands; and whether a winner may pursue only on
 * the bits of OM_WM_PURSUE_*.
 */
typedef struct om_wm_later {
    uint8_t dice[2][OM_WM_LATER_STATES][OM_WM_LATER_PURSUITS][OM_WM_STAND_COUNTS];
    /* [unit][state bits][pursuit bonus][stands]: its attack dice in a round after the first */
    uint8_t pursues[2];              /* [winner]: bit i set when it may pursue with the
                                        OM_WM_PURSUE_* bits i */
} om_wm_later;

/*
 * One unit in a trial's fight: its om_wm_unit_state, field for field (in
 * bytes: a unit has at most 12 stands, carries fewer hits than its Hits, and
 * sums past 255 saturate), and what the engagement did to it, recorded in
 * the outcome at the end. 32 bytes, so that fighters are indexed by a shift
 * and two are copied in two vector moves.
 */
typedef struct om_wm_fighter {
    _Alignas(32) uint8_t stands; /* om_wm_unit_state.stands, and so on */
    uint8_t carried;
    uint8_t behind_cm;
    uint8_t pursuit;
    uint8_t shot;             /* saturating */
    bool confused;
    bool in_open;
    bool retreated;
    bool regains_position;
    bool left_table;
    bool hurt;
    bool fearless;
    bool reduced;
    uint8_t hits_on;          /* hits it suffered after saves, all sources (saturating) */
    uint8_t shot_hits_on;     /* of those, from shooting (saturating) */
    uint8_t retreated_cm;     /* distance it retreated, all rounds (saturating) */
    uint8_t fall_back_cm;     /* how far it fell back after a draw */
    uint8_t first_stands;     /* its stands when the engagement started */
    uint8_t pursued;          /* rounds after which it pursued */
    uint8_t foe;              /* after a pursuit, the enemy it fights, or OM_WM_NO_UNIT */
    bool routed;              /* routed by a drive back before contact */
    bool in_combat;           /* still in the engagement: fighting or supporting */
    uint8_t followed_cm;      /* distance it followed the enemies it pursued, all rounds
                                 (saturating) */
    uint8_t followed;         /* followed_cm above 0: the enemy it pursued last */
    uint8_t zero[8];         /* always 0: every byte of a fighter is a member, so two
                                 fighters compare as bytes (om_wm_fighter_set zeroes it,
                                 copies keep it) */
} om_wm_fighter;

_Static_assert(sizeof(om_wm_fighter) == 32, "a fighter is indexed by a shift");

/* The saturating count acc with v added. A value, not a store through a
 * uint8_t pointer: a character type may alias anything, so such a store
 * would make the compiler reload every pointer of the fight after it. */
static inline uint8_t om_wm_sum8(uint8_t acc, unsigned v) { return om_wm_sat8(acc + v); }

/*
 * The state of one trial's fight: the units' fighters and the engagement's
 * own state. om_wm_prepared's start holds the one every trial of om_wm_resolve
 * copies.
 */
typedef struct om_wm_fight {
    om_wm_fighter *u;         /* the units, as many as the engine's */
    bool faded;               /* the charger faded away before charging: no contest */
    bool fresh;               /* the units started as prepared, so the tables of the
                                 first round apply */
    const struct om_wm_round1 *round1; /* fresh, and the first round is tabulated: its
                                 table, the start's or the one of the state the shooting
                                 at the charge left; or NULL: rolled */
    bool retreats_marked;     /* a fighter may have `retreated` set, to clear after the
                                 next round */
    int round1_entry;         /* round1 set: the entry of the table already drawn for
                                 this trial, or -1 (drawn when fought) */
    unsigned turn;            /* turn of the engagement, 1 = the charge's */
} om_wm_fight;

/* Unit u of fight f takes the unit state *s; what the engagement did to it
 * starts at nothing. */
void om_wm_fighter_set(om_wm_fighter *u, const om_wm_unit_state *s);

/* The unit state of fighter *u, in *s. */
void om_wm_fighter_get(const om_wm_fighter *u, om_wm_unit_state *s);

/* The two units of a prepared engagement as the combat engine sees them:
 * one unit a side, side A's unit 0 and side B's unit 1 (om_wm_prepared). */
typedef struct om_wm_duel {
    om_wm_engine g;           /* the engagement */
    om_wm_unit_prep unit[2];  /* its units */
    om_wm_contact_prep contact[2]; /* A's stands fighting B, B's fighting A */
    om_wm_fighter start[2];   /* both units before the first die */
    om_wm_fight start_fight;  /* the fight every trial starts from (its u is set per trial) */
    om_wm_later later;        /* the tables of its rounds after the first */
    struct om_wm_round1 *after_shot; /* g.after_shot, owned (NULL if none) */
    unsigned n_classes;       /* classes of its trials (om_wm_classes), or 0 */
} om_wm_duel;

/* What the fight did to p's two units, fighters u, in outcome *o (zeroed):
 * stands lost since they started it (none for a unit that regained stands
 * by Daemonic Instability), hits, retreats and fall backs, and the units'
 * end states, consistent with each other: a destroyed (or routed) unit is
 * neither confused nor badly hurt. Fields nothing in play can set stay 0. */
void om_wm_duel_record(const om_wm_prepared *p, const om_wm_fighter u[2], om_wm_outcome *o);

/* One trial of p's two units from the prepared start (its first round, and
 * the whole trial, may come from tables), written to *out, or only its class
 * returned (om_wm_resolve_classes). */
unsigned om_wm_duel_resolve(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out,
                            bool class_outcome);

/* One trial of p's two units from fighters u, written to *out; the fighters
 * are carried on. */
void om_wm_duel_fight(const om_wm_prepared *p, om_dice *d, om_wm_fighter u[2],
                      om_wm_outcome *out);

/* Side A, fighter a, shoots at side B, fighter b, in the Shooting phase, with
 * drive back (Shooting > Driving Back Enemies); both fighters are updated, the
 * outcome written. */
void om_wm_volley(const om_wm_prepared *p, om_dice *d, om_wm_fighter *a, om_wm_fighter *b,
                  om_wm_outcome *o);

/* Bits of om_wm_engine.in_play. */
#define OM_WM_PLAY_SHIELDWALL (1u << 0) /* a unit has shieldwall */
#define OM_WM_PLAY_MANIPLE    (1u << 1) /* a unit has maniple support dice */
#define OM_WM_PLAY_LEGION     (1u << 2) /* a unit is a legion */
#define OM_WM_PLAY_SCYTHED    (1u << 3) /* a unit is scythed chariots */
#define OM_WM_PLAY_SHOOTING   (1u << 4) /* shooting before contact (first, or at chargers) */
#define OM_WM_PLAY_STAGED     (1u << 5) /* a magic weapon re-rolls dice: hits by stages */
#define OM_WM_PLAY_EXTRA_STRIKE (1u << 6) /* a unit strikes again after winning round 1's hits */
#define OM_WM_PLAY_AURA_ROLL  (1u << 7) /* a unit's immunity to terror is rolled each turn */
#define OM_WM_PLAY_TURN_START (1u << 8) /* something happens at the start of a side's turn */
#define OM_WM_PLAY_EVADE      (1u << 9) /* a unit evades the charge */
#define OM_WM_PLAY_BESIDE_LAAGER (1u << 10) /* a unit shelters beside a laager */
#define OM_WM_PLAY_RAMPAGE    (1u << 11) /* a unit rampages when it retreats (elephants) */
#define OM_WM_PLAY_HURT       (1u << 12) /* a unit can be badly hurt (big monsters) */
#define OM_WM_PLAY_SUPPORTS   (1u << 13) /* a unit is supported (its own stands, units the
                                            engagement does not model, or links) */

/* The OM_WM_PLAY_* bits of the engine's units and supports (g->unit and
 * g->support set). */
uint32_t om_wm_engine_in_play(const om_wm_engine *g);

/* The side that charges in engine g: the side of its charging units, or -1. */
int om_wm_engine_charger(const om_wm_engine *g);

/* The side that advanced in engine g (Combat > Advance): the side of its
 * advancing units when none charges, or -1. */
int om_wm_engine_advancer(const om_wm_engine *g);

/* The state of a unit declared as `me` before its engagement begins (see
 * om_wm_unit_state_start); `enemy_charges` tells whether an enemy unit it
 * touches charges it. */
void om_wm_unit_state_begin(const om_wm_ruleset *r, const om_wm_side *me, bool enemy_charges,
                            om_wm_unit_state *u);

/* Unit u of engagement m as the engine reads it: its side with fighting,
 * flanked and side_strikers the sums over its contacts. */
void om_wm_multi_side(const om_wm_multi *m, unsigned u, om_wm_side *out);

/*
 * om_wm_multi_build: prepare engagement m in *mp as om_wm_multi_prepare does,
 * for a caller that has made m valid by construction (a turn's Combat phase,
 * whose units' values were checked when the turn was prepared): nothing is
 * checked here (debug builds assert om_wm_multi_check), nothing is formatted,
 * nothing allocated.
 */
void om_wm_multi_build(const om_wm_dice_kit *kit, const om_wm_multi *m, om_wm_multi_prepared *mp);

/*
 * om_wm_prepare_alloc_dice: om_wm_prepare_alloc with the alias tables of its
 * dice tests built for Bin(n,p) up to n_max dice (1 <= n_max <= OM_BINOM_N_MAX)
 * rather than OM_BINOM_N_MAX. Draws of up to n_max dice are those of
 * om_wm_prepare_alloc's tables, word for word; more are drawn in chunks of
 * n_max, so trials of fast dice differ. Dice that enumerate their outcomes
 * (enumerate.h) read only each test's probability, never its tables: an
 * engagement prepared only to be enumerated needs n_max = 1, and its
 * enumerated law is om_wm_prepare_alloc's exactly, at a small part of the
 * cost (the tables are most of a preparation's time). Ownership, errors and
 * thread-safety as om_wm_prepare_alloc's; OM_EINVAL also for n_max out of
 * range.
 */
om_status om_wm_prepare_alloc_dice(const om_wm_engagement *e, unsigned n_max,
                                   om_wm_prepared **out);

/* Build p's duel (the engine of its two units, their start, the first
 * round's dice and table) once its tests are made (om_wm_prepare_alloc). */
om_status om_wm_combat_prepare(om_wm_prepared *p);

/* Free what om_wm_combat_prepare allocated (om_wm_prepared_free). */
void om_wm_combat_release(om_wm_prepared *p);

/*
 * om_wm_combat: the engagement of engine g from fight state *f, which is
 * carried on: shooting before contact, then the first combat round or, for the
 * longer spans, every round of the Combat phase or to the end
 * (Shooting > Driving Back Enemies, Shooting at Charging Enemy, Combat).
 * Engagement-level results go to *o (its per-side arrays are left for the
 * caller to fill from the fighters); *unresolved tells whether the combat goes
 * on in the next turn (span phase).
 */
void om_wm_combat(const om_wm_engine *g, om_dice *d, om_wm_fight *f, om_wm_outcome *o,
                  bool *unresolved);

#endif /* OM_WM_INT_H */
