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
 * it has all its starting stands and started at full strength (10.3). */
static inline bool om_wm_magic_intact(const om_wm_side *me, unsigned stands)
{
    return stands == me->unit.stands && om_wm_unit_size(&me->unit) == me->unit.stands;
}

/* Shooting hits on `target` after its Banner of Steadfastness, which ignores one
 * a turn while it works (10.3). */
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
 * om_wm_fire_at: side `shooter`, fighting now as `me` (its values, or those of
 * it badly hurt), with `stands` stands left, shoots at the other side: a
 * volley, or at its charge (`at_charger`; the target has `target_stands`
 * left, for its Banner of Shielding, 10.3). Its Attacks (om_wm_shots, the
 * misfire charts of the army lists) and a joined character's breath, through
 * the prepared to-hit and save (5.2-5.3, 5.7). r->reduced is read and kept.
 */
void om_wm_fire_at(const om_wm_prepared *p, om_dice *d, int shooter, const om_wm_side *me,
                   unsigned stands, bool at_charger, unsigned target_stands, om_wm_fire *r);

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
    bool off_table;         /* driven off the table for good (3.8) */
    bool hurt;              /* a big monster left badly hurt (army lists) */
    om_wm_fire fire;        /* the shooting itself; set fire.reduced before the call */
} om_wm_volley_result;

/* Side `shooter`, as `me` with `shooters` stands left, shoots a
 * Shooting-phase volley at the other side, which has `stands` stands: hits,
 * stand removal, drive back (5.2-5.5) and badly hurt monsters. */
void om_wm_volley_at(const om_wm_prepared *p, om_dice *d, int shooter, const om_wm_side *me,
                     unsigned shooters, unsigned stands, om_wm_volley_result *v);

/*
 * The state of one trial's fight: each field of om_wm_unit_state for side A
 * and side B ([0] and [1], side by side so that a side's value is one indexed
 * load in the hot path), and the engagement's own. om_wm_prepared.start
 * holds the one every trial of om_wm_resolve copies.
 */
typedef struct om_wm_fight {
    unsigned stands[2];      /* om_wm_unit_state.stands of each side, and so on */
    unsigned carried[2];
    unsigned behind_cm[2];
    unsigned pursuit[2];
    unsigned shot[2];
    bool confused[2];
    bool in_open[2];
    bool retreated[2];
    bool regains_position[2];
    bool left_table[2];
    bool hurt[2];
    bool fearless[2];
    bool reduced[2];
    bool faded;              /* the charger faded away before charging: no contest */
    bool fresh;              /* the units started as prepared (om_wm_prepared.start), so
                                the tables of the first round apply */
    bool round1_drawn;       /* fresh, and om_wm_prepared.round1 is made: the first
                                round is drawn from it */
    unsigned turn;           /* turn of the engagement, 1 = the charge's */
} om_wm_fight;

/* Side s of fight f takes the unit state *u. */
static inline void om_wm_fight_set_unit(om_wm_fight *f, int s, const om_wm_unit_state *u)
{
    f->stands[s] = u->stands;
    f->carried[s] = u->carried;
    f->behind_cm[s] = u->behind_cm;
    f->pursuit[s] = u->pursuit;
    f->shot[s] = u->shot;
    f->confused[s] = u->confused;
    f->in_open[s] = u->in_open;
    f->retreated[s] = u->retreated;
    f->regains_position[s] = u->regains_position;
    f->left_table[s] = u->left_table;
    f->hurt[s] = u->hurt;
    f->fearless[s] = u->fearless;
    f->reduced[s] = u->reduced;
}

/* The unit state of side s of fight f, in *u. */
static inline void om_wm_fight_get_unit(const om_wm_fight *f, int s, om_wm_unit_state *u)
{
    u->stands = f->stands[s];
    u->carried = f->carried[s];
    u->behind_cm = f->behind_cm[s];
    u->pursuit = f->pursuit[s];
    u->shot = f->shot[s];
    u->confused = f->confused[s];
    u->in_open = f->in_open[s];
    u->retreated = f->retreated[s];
    u->regains_position = f->regains_position[s];
    u->left_table = f->left_table[s];
    u->hurt = f->hurt[s];
    u->fearless = f->fearless[s];
    u->reduced = f->reduced[s];
}

/* A fight state from the caller's unit states: not fresh, turn 1, and the
 * engagement's own values (pursuit, shooting hits, retreated) at 0. */
void om_wm_fight_of_units(const om_wm_unit_state *a, const om_wm_unit_state *b, om_wm_fight *f);

/* Side A, with f->stands[0], shoots at side B, with f->stands[1], in the
 * Shooting phase, with drive back (5.5); both units' states are updated. */
void om_wm_volley(const om_wm_prepared *p, om_dice *d, om_wm_fight *f, om_wm_outcome *o);

/* Bits of om_wm_prepared.in_play. */
#define OM_WM_PLAY_SHIELDWALL (1u << 0) /* a side has shieldwall */
#define OM_WM_PLAY_MANIPLE    (1u << 1) /* a side has maniple support dice */
#define OM_WM_PLAY_LEGION     (1u << 2) /* a side is a legion */
#define OM_WM_PLAY_SCYTHED    (1u << 3) /* a side is scythed chariots */
#define OM_WM_PLAY_SHOOTING   (1u << 4) /* shooting before contact (first, or at chargers) */
#define OM_WM_PLAY_STAGED     (1u << 5) /* a magic weapon re-rolls dice: hits by stages */
#define OM_WM_PLAY_EXTRA_STRIKE (1u << 6) /* a side strikes again after winning round 1's hits */
#define OM_WM_PLAY_AURA_ROLL  (1u << 7) /* a side's immunity to terror is rolled each turn */
#define OM_WM_PLAY_TURN_START (1u << 8) /* something happens at the start of a side's turn */
#define OM_WM_PLAY_EVADE      (1u << 9) /* a side evades the charge */
#define OM_WM_PLAY_BESIDE_LAAGER (1u << 10) /* a side shelters beside a laager */

/* Fill p->round1_dice and p->in_play from the engagement (om_wm_prepare_alloc). */
om_status om_wm_combat_prepare(om_wm_prepared *p);

/* Free what om_wm_combat_prepare allocated (om_wm_prepared_free). */
void om_wm_combat_release(om_wm_prepared *p);

/* Shooting before contact, then the first combat round or, for the engagement
 * kind, every round to the end (5.5, 5.7, 6.3-6.14), from fight state *f,
 * which is carried on. */
void om_wm_combat(const om_wm_prepared *p, om_dice *d, om_wm_fight *f, om_wm_outcome *o);

#endif /* OM_WM_INT_H */
