/*
 * wh7_int.h: private interface between the files of the WHFB 7th edition
 * engine: the layout of a prepared combat and of a trial's state.
 *
 * A prepared combat holds, for each side, its attacking parts (rank and file,
 * their mounts, the champion, each character and mount) and the models a
 * blow can land on (targets), with the dice chain and binomial alias tables
 * of every part against every target in every kind of round. A trial copies
 * nothing but a few counters (wh7_state) and reads the rest.
 */
#ifndef OM_WH7_INT_H
#define OM_WH7_INT_H

#include <assert.h>

#include "enumerate.h"
#include "wh7.h"

/* The attacking parts of a side, in a fixed order. */
enum wh7_part {
    WH7_PART_RF = 0,      /* the rank and file (cavalry: the riders) */
    WH7_PART_RF_MOUNT,    /* their mounts */
    WH7_PART_CHAMP,       /* the champion */
    WH7_PART_CHAMP_MOUNT, /* his mount */
    WH7_PART_CHAR0,       /* character 0 */
    WH7_PART_CHAR0_MOUNT, /* his mount */
    WH7_PART_CHAR1,       /* character 1 */
    WH7_PART_CHAR1_MOUNT, /* his mount */
    WH7_PARTS
};

/* The models of a side a blow can land on (mounts are never struck: blows at
 * a mounted model strike the rider, Close Combat > Cavalry; Monsters). */
enum wh7_target {
    WH7_TARGET_RF = 0, /* the rank and file */
    WH7_TARGET_CHAMP,  /* the champion */
    WH7_TARGET_CHAR0,  /* character 0 */
    WH7_TARGET_CHAR1,  /* character 1 */
    WH7_TARGETS
};

/* Kinds of round for the dice chains. */
enum wh7_variant {
    WH7_ROUND_FIRST = 0,    /* the first turn of the combat (charge bonuses, flails,
                               Hatred) */
    WH7_ROUND_FIRST_FEARFUL, /* the same for a side that failed its Fear test when
                               charged: only natural 6s hit Fear-causing models */
    WH7_ROUND_LATER,        /* any later turn */
    WH7_VARIANTS
};

/* Kinds of round for the strike order (charging only counts in the first). */
enum wh7_phase { WH7_PHASE_FIRST = 0, WH7_PHASE_LATER, WH7_PHASES };

/* One part's blows against one target in one kind of round. */
typedef struct wh7_attack {
    om_wh7_chain chain;   /* the dice of one blow */
    double p_wound;       /* P(an unsaved wound) per blow */
    double p_slay;        /* P(an unsaved killing blow) per blow */
    const om_binom_table *any;  /* Bin(n, p_wound + p_slay), NULL when that is 0 */
    const om_binom_table *slay; /* Bin(k, p_slay / (p_wound + p_slay)): which of the k
                                   are killing blows, NULL when they need not be told
                                   apart (one-Wound targets) or p_slay is 0 */
    uint8_t damage;       /* om_wh7_damage of each unsaved wound */
    bool doubled;         /* flaming blows on a Flammable target: wounds doubled */
} wh7_attack;

/* One attacking part of a side. */
typedef struct wh7_part_info {
    bool present;                   /* the side has this part */
    bool frenzy;                    /* +1 Attack while the side is frenzied */
    uint8_t attacks[WH7_VARIANTS];  /* Attacks per model, Frenzy aside */
    uint8_t key[WH7_PHASES];        /* strike order key: lower strikes first */
    uint8_t max_dice;               /* the most blows it can ever roll in a round */
    wh7_attack vs[WH7_TARGETS][WH7_VARIANTS]; /* against each enemy target */
} wh7_part_info;

/* One target of a side: what the enemy needs to know to strike it. */
typedef struct wh7_target_info {
    bool present;       /* the side has this model or these models */
    uint8_t w;          /* Wounds on its profile */
    uint8_t start_w;    /* a single model's Wounds left at the start */
    uint8_t us;         /* unit strength of one such model */
    bool causes_fear;   /* it causes Fear or Terror */
    bool flammable;     /* it takes double wounds from flaming attacks */
} wh7_target_info;

/* Break test differences tabulated for the fast dice (larger ones roll). */
#define WH7_DIFFS 32u

/* One in 2^32, the unit of the fast dice's probabilities. */
#define WH7_P32_ONE (UINT64_C(1) << 32)

/* An event of probability p32 / 2^32 from one 64-bit draw (fast dice). */
static inline bool wh7_chance(om_rng *r, uint64_t p32)
{
    return (om_pcg64_next(r) >> 32) < p32;
}

/* What a side's trials read besides the parts and targets. */
typedef struct wh7_side_info {
    wh7_part_info part[WH7_PARTS];       /* attackers */
    wh7_target_info target[WH7_TARGETS]; /* models that can be struck */
    om_wh7_rules rules;      /* rules of the unit as a whole (rank and file, mounts and
                                characters: Characters > Mounts' Psychology) */
    uint8_t rf_start;        /* rank-and-file models at the start, champion excluded */
    uint8_t model_us;        /* unit strength of one rank-and-file model */
    uint8_t characters;      /* characters joined */
    uint8_t files;           /* models per rank */
    uint8_t contact;         /* models in base contact */
    uint8_t rank_depth;      /* ranks that fight with the weapon (spears 2) */
    uint8_t ld;              /* best Leadership for tests (unit, characters, General) */
    uint8_t stubborn_ld;     /* Leadership a Stubborn unit may break on unmodified; 0 */
    uint8_t flee_dice;       /* D6s of its flee and pursuit rolls */
    uint8_t charge_in;       /* its charge move in inches (twice its Movement) */
    bool frenzied;           /* frenzied at the start (any of its models) */
    om_wh7_rules unit_rules; /* rules of its rank and file and their mounts: whether the
                                unit is immune to psychology (a character's immunity
                                does not pass to the unit: Characters > Psychology) */
    /* Exact probabilities for the fast dice, as fractions of 2^32 (the
     * precision of the alias tables): a break test holding at the start's
     * Leadership by [automatic][re-roll][difference], and this side fleeing
     * from the enemy: P(destroyed: caught or its flight blocked) by [pursued]. */
    uint64_t hold32[2][2][WH7_DIFFS];
    uint64_t fate32[2];
    double fate[2];          /* the same P(destroyed) by [pursued], unrounded: an
                                enumerated flight's law (exact.h) */
    uint8_t ranks_by_models[OM_WH7_MAX_MODELS + OM_WH7_MAX_CHARACTERS + 1u]; /* the rank
                                bonus of its formation by models alive */
} wh7_side_info;

/* Kinds of volley a side may shoot. */
enum wh7_volley_kind {
    WH7_VOLLEY_PHASE = 0, /* in the shooting phase */
    WH7_VOLLEY_STAND,     /* a stand & shoot at a charger */
    WH7_VOLLEYS
};

/* Strengths a war machine's hit can have (grapeshot: the artillery die 2..10;
 * bolt throwers S6 down to S1; stone throwers S4 and the centre's S8). */
#define WH7_MACHINE_STRENGTHS 11u

/* One side's prepared shooting at the other. */
typedef struct wh7_volley {
    bool present;                       /* the side shoots this way */
    unsigned shots;                     /* shots of all its shooters */
    om_wh7_chain hit;                   /* the to-hit step of one shot */
    double p_hit, p_poison;             /* P(a plain hit), P(a poisoned 6) per shot */
    const om_binom_table *hits;         /* Bin(shots, p_hit + p_poison) */
    const om_binom_table *poisoned;     /* Bin(h, p_poison / (p_hit + p_poison)) */
    wh7_attack on[WH7_TARGETS];         /* a plain hit on each target: wound, saves */
    wh7_attack on_poisoned[WH7_TARGETS]; /* a poisoned hit: saves only */
} wh7_volley;

/* One side's prepared war machine: a hit of each Strength on the enemy's rank
 * and file (no to-hit step; the bolt thrower's is in `aim`). */
typedef struct wh7_machine {
    bool present;
    om_wh7_chain aim;                     /* a bolt thrower's roll to hit */
    wh7_attack at[WH7_MACHINE_STRENGTHS]; /* a hit of Strength s on the rank and file */
    unsigned ranks;                       /* ranks (files from the flank) along its line */
    double rank_depth_in;                 /* depth of one of those ranks in inches */
    double base_w_in, base_d_in;          /* the target's bases, across and along the line */
} wh7_machine;

/* The prepared casting attempt (the magic kind). */
typedef struct wh7_spellcast {
    const om_wh7_spell *sp;          /* the spell */
    unsigned cv;                     /* its casting value */
    unsigned iron_strength;          /* the Burning Iron's Strength on the rank and file */
    wh7_attack on[WH7_TARGETS][WH7_MACHINE_STRENGTHS]; /* its hits by Strength */
    wh7_attack contact_s10, contact_s6; /* miscast hits on models touching the caster */
} wh7_spellcast;

/* Kinds of round of the round tables (rounds.c): the first with nobody, A or
 * B fearful (Fear: 6s to hit), and later rounds. */
enum wh7_rt_vset {
    WH7_RT_FIRST = 0, WH7_RT_FIRST_A_FEARFUL, WH7_RT_FIRST_B_FEARFUL, WH7_RT_LATER, WH7_RT_VSETS
};

/* An outcome of a tabulated round decoded: kills on A in the high byte,
 * kills on B in the low one. */
#define WH7_RT_KILL_BITS 8u
#define WH7_RT_KILL_MASK 0xffu

/* One tabulated round: the joint distribution of (kills on A, kills on B). */
typedef struct wh7_rt_entry {
    om_alias *alias;      /* over ka * (kmax[1] + 1) + kb; NULL: not tabulated */
    uint16_t *kills;      /* outcome i decoded: ka << WH7_RT_KILL_BITS | kb */
    uint16_t kmax[2];     /* most kills on A and on B */
} wh7_rt_entry;

/* The round tables of a prepared combat (rounds.c). */
typedef struct wh7_round_table {
    bool present;         /* the combat is tabulated */
    unsigned fmax[2];     /* most rank-and-file fighters of each side */
    unsigned keys;        /* (fmax[0] + 1) * (fmax[1] + 1) */
    wh7_rt_entry *entry;  /* [vset][tie][frenzy bits][fighters of A][fighters of B] */
} wh7_round_table;

/* The entry of a round. */
static inline size_t wh7_rt_index(const wh7_round_table *rt, unsigned vset, unsigned tie,
                                  unsigned fz, unsigned fa, unsigned fb)
{
    return (((size_t)vset * 2u + tie) * 4u + fz) * rt->keys + (size_t)fa * (rt->fmax[1] + 1u) + fb;
}

/* The chain variant of side s in a kind of round of the tables. */
unsigned om_wh7_rt_variant(unsigned vset, int s);

/* Build (or leave absent) the round tables of p; free them. */
om_status om_wh7_rounds_prepare(om_wh7_prepared *p);
void om_wh7_rounds_release(om_wh7_prepared *p);

/* Largest number of alias tables a prepared combat owns: two per part, target
 * and round kind, for both sides; shooting's per side, volley kind and target;
 * a machine's per Strength. */
#define WH7_MAX_TABLES (2u * WH7_PARTS * WH7_TARGETS * WH7_VARIANTS * 2u + \
                        2u * WH7_VOLLEYS * (2u + 4u * WH7_TARGETS) + \
                        2u * WH7_MACHINE_STRENGTHS * 2u + \
                        2u * (WH7_TARGETS * WH7_MACHINE_STRENGTHS + 2u))

/* Entries of a strike order: every part of both sides. */
#define WH7_ORDER_MAX (2u * WH7_PARTS)

struct om_wh7_prepared {
    om_wh7_combat c;                   /* copy of the combat */
    wh7_side_info side[2];             /* per side */
    /* Strike order by phase and by which side strikes first on a tie: entries
     * are side * WH7_PARTS + part (WHFB 7th edition, Close Combat > Who Strikes
     * First?; Special Rules > Always Strikes First; Weapons > Strikes Last). */
    uint8_t order[WH7_PHASES][2][WH7_ORDER_MAX];
    uint8_t order_len;
    bool tie[WH7_PHASES];              /* a key is shared by the two sides (a roll-off
                                          or last turn's winner decides) */
    unsigned max_rounds;               /* rounds an engagement lasts at most */
    unsigned blow_n_max;               /* n_max of every close combat blow table */
    wh7_volley volley[2][WH7_VOLLEYS]; /* each side's shooting */
    wh7_machine machine[2];            /* each side's war machine */
    wh7_spellcast spell;               /* the magic kind's casting attempt */
    wh7_round_table rounds;            /* whole rounds tabulated for the fast dice */
    om_binom_table *tables[WH7_MAX_TABLES]; /* owned alias tables */
    unsigned n_tables;
};

/* A trial's state of one unit. */
typedef struct wh7_unit_state {
    unsigned rf;          /* rank-and-file models alive, champion excluded */
    unsigned rf_wounds;   /* wounds carried by one rank-and-file model */
    unsigned champ_w;     /* the champion's Wounds left (0: dead or none) */
    unsigned char_w[OM_WH7_MAX_CHARACTERS]; /* each character's Wounds left */
    bool frenzied;        /* still frenzied */
    bool fearful;         /* failed its Fear test when charged (6s only, first round) */
} wh7_unit_state;

/* A trial's state of the fight. */
typedef struct wh7_state {
    wh7_unit_state u[2];
    unsigned wounds[2];   /* unsaved wounds each side suffered */
    unsigned slain[2];    /* models each side lost to wounds */
    unsigned chars_slain[2];
} wh7_state;

/* What one round of combat did. */
typedef struct wh7_round {
    unsigned result[2];   /* combat result score of each side */
    int winner;           /* OM_WH7_SIDE_A, OM_WH7_SIDE_B or OM_WH7_DRAW */
    unsigned diff;        /* the winner's margin */
    bool duel;            /* a challenge was fought */
    unsigned us_start[2]; /* unit strength of each side at the start of the round */
    unsigned alive[2];    /* models of each side alive after the round's blows */
} wh7_round;

/* Saturate a count into a uint8 outcome field. */
static inline uint8_t wh7_sat8(unsigned v) { return v > 255u ? 255u : (uint8_t)v; }

/* Models of a unit alive: rank and file, champion, characters. */
static inline unsigned wh7_models_alive(const wh7_side_info *si, const wh7_unit_state *u)
{
    unsigned n = u->rf + (u->champ_w > 0 ? 1u : 0u);
    for (unsigned i = 0; i < si->characters; i++)
        n += u->char_w[i] > 0 ? 1u : 0u;
    return n;
}

/* Unit strength of a unit alive (Unit Strength Chart, summed per model). */
static inline unsigned wh7_unit_strength(const wh7_side_info *si, const wh7_unit_state *u)
{
    unsigned us = (u->rf + (u->champ_w > 0 ? 1u : 0u)) * si->model_us;
    for (unsigned i = 0; i < si->characters; i++)
        if (u->char_w[i] > 0)
            us += si->target[WH7_TARGET_CHAR0 + i].us;
    return us;
}

/* Whether a unit is wiped out. */
static inline bool wh7_wiped_out(const wh7_side_info *si, const wh7_unit_state *u)
{
    return wh7_models_alive(si, u) == 0;
}

/* Build the parts, targets and strike orders of p->c (prepare.c calls it). */
om_status om_wh7_combat_prepare(om_wh7_prepared *p);

/* One round of close combat: blows in strike order, then the combat result
 * (combat.c). `round` counts from 1; `last_winner` decides ties of the strike
 * order after the first round (OM_WH7_DRAW: a roll-off). */
void om_wh7_fight_round(const om_wh7_prepared *p, om_dice *d, wh7_state *st, unsigned round,
                     int last_winner, wh7_round *r);

/* n wounds with no save of any kind on side s (swarms and Undead that lose:
 * Psychology > Unbreakable Swarms), the rank and file first (combat.c). */
void om_wh7_unsaveable_wounds(const om_wh7_prepared *p, wh7_state *st, int s, unsigned n);

/* Remove n models of side s outright whatever their Wounds or saves (Pit of
 * Shades), the rank and file first (combat.c). */
void om_wh7_remove_models(const om_wh7_prepared *p, wh7_state *st, int s, unsigned n);

/* The start state of a trial (combat.c). */
void om_wh7_state_init(const om_wh7_prepared *p, wh7_state *st);

/* Casualty removal shared by blows and shots (combat.c). */
unsigned om_wh7_wound_rank_and_file(const om_wh7_prepared *p, om_dice *d, wh7_unit_state *u,
                                 unsigned w, const wh7_attack *at, unsigned wounds,
                                 unsigned slays, unsigned *kills);
unsigned om_wh7_wound_single(const om_wh7_prepared *p, om_dice *d, unsigned *left, unsigned w,
                          const wh7_attack *at, unsigned wounds, unsigned slays,
                          unsigned *excess);
void om_wh7_roll_blows(om_dice *d, const wh7_attack *at, unsigned n, unsigned *wounds,
                    unsigned *slays);
unsigned *om_wh7_single_wounds(wh7_unit_state *u, unsigned t);
bool om_wh7_single_alive(const wh7_unit_state *u, unsigned t);

/* An alias table of Bin(n, prob), n <= n_max, owned by p and shared with
 * equal ones; NULL when prob is 0 (prepare.c). */
om_status om_wh7_table(om_wh7_prepared *p, double prob, unsigned n_max,
                    const om_binom_table **out);

/* Fill at's probabilities and tables from its chain for up to n_max blows. */
om_status om_wh7_attack_tables(om_wh7_prepared *p, wh7_attack *at, unsigned target_w,
                            unsigned n_max);

/* The dice chain of a hit of Strength `s` from side `from` on target `t` of
 * the other side, outside close combat (shooting, war machines, spells):
 * to wound, armour (none if `no_armour`; worsened by `ap` more), ward,
 * regeneration (not against flaming), a missile ward for missiles; hit = 1
 * (the hit is given). */
om_wh7_chain om_wh7_hit_chain(const om_wh7_prepared *p, int from, unsigned t, unsigned s,
                           bool no_armour, unsigned ap, bool flaming, bool magical,
                           bool missile);

/* --- shooting.c --- */

/* Prepare side s's volleys and war machine (prepare.c calls it). */
om_status om_wh7_shooting_prepare(om_wh7_prepared *p, int s);

/* Side s fires volley `v` at the other side: hits allocated (Characters
 * Inside Units, E31), wounds and casualties. Returns the hits. */
unsigned om_wh7_fire(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                  const wh7_volley *v);

/* n blows of attack `at` on target t of side e, rolled and applied: returns
 * the wounds inflicted and stores the models slain and the wounds beyond a
 * single model's (overkill); st counts the casualties (combat.c). */
unsigned om_wh7_land(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int e, unsigned t,
                  const wh7_attack *at, unsigned n, unsigned *kills, unsigned *excess);

/* Side s broke or was destroyed: its friend within 6" tests for panic if s
 * had unit strength 5 or more (engagement.c). */
void om_wh7_friends_panic(const om_wh7_prepared *p, om_dice *d, int s, unsigned us_at_start,
                       om_wh7_outcome *o);

/* Write a trial's counters into the outcome (engagement.c). */
void om_wh7_finish(const wh7_state *st, om_wh7_outcome *o);

/* The volley kind: side A shoots at side B, then B's panic. */
void om_wh7_resolve_volley(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *o);

/* After shooting or magic, side e that had `start` models tests for panic if
 * it lost a quarter of them (Psychology > Panic, case 1); failing, it flees. */
void om_wh7_casualty_panic(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int e,
                        unsigned start, om_wh7_outcome *o);

/* Side e takes a Panic test (war machine crews never do); failing, it flees
 * (no pursuit; destroyed if its flight is blocked). Sets o's fields. */
void om_wh7_panic_flee(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int e,
                    om_wh7_outcome *o);

/* Share hits among side e's models like shooting (Characters Inside Units,
 * E31) into share[] by target. */
void om_wh7_allocate(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int e,
                  unsigned hits, unsigned share[WH7_TARGETS]);

/* --- warmachine.c --- */

/* Prepare side s's war machine: its hits of every Strength on the enemy's
 * rank and file, its aim, the target's geometry. */
om_status om_wh7_machine_prepare(om_wh7_prepared *p, int s);

/* Side e's base width and depth in inches (declared, else by troop type). */
void om_wh7_base_in(const om_wh7_prepared *p, int e, double *w, double *d);

/* --- magic.c --- */

/* Prepare the magic kind's casting attempt (the spell's hits by Strength). */
om_status om_wh7_magic_prepare(om_wh7_prepared *p);

/* The magic kind: cast, dispel, miscast, the spell's damage and panic. */
void om_wh7_resolve_magic(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *o);

/* Side s's war machine fires at the other side (cannon, grapeshot, stone
 * thrower, bolt thrower; misfires). Returns the hits. */
unsigned om_wh7_machine_fire(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                          om_wh7_outcome *o);

/* --- psychology.c --- */

/* A plain Leadership test: 2D6 <= ld (no Insane Courage: digest A29). */
bool om_wh7_ld_test(om_dice *d, unsigned ld);

/* The best Leadership side s tests on now: its rank and file while any are
 * left, its living characters, the General nearby. */
unsigned om_wh7_leadership(const om_wh7_prepared *p, const wh7_state *st, int s);

/* Whether side s is immune to psychology now (ItP, Unbreakable, Undead, or
 * still frenzied). */
bool om_wh7_psychology_immune(const om_wh7_prepared *p, const wh7_state *st, int s);

/* A Panic test of side s: true if failed (immune units pass). */
bool om_wh7_panic_test(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int s);

/* Side `loser` takes its break test after losing by `diff` to `winner`'s
 * unit (WHFB 7th edition, Close Combat > Break Tests; Insane Courage!;
 * Psychology > Stubborn, Unbreakable, Defeated by Fear-causing Enemy; Generals
 * & Battle Standards). Returns true if it breaks. */
bool om_wh7_break_test(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int loser,
                    unsigned diff);

/* Whether side s's unit causes Fear (Terror counts), for the tests of
 * Psychology > Fear and Defeated by Fear-causing Enemy: its rank and file,
 * or its characters once no rank and file are left. */
bool om_wh7_causes_fear(const om_wh7_prepared *p, const wh7_state *st, int s);
bool om_wh7_causes_terror(const om_wh7_prepared *p, const wh7_state *st, int s);

/* A Fear test (terror: a Terror test) of side s against the enemy: true if
 * failed; immune units pass (Psychology > Fear & Terror Immunity). */
bool om_wh7_fear_test(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int s,
                   bool terror);

/* Fill the break test probabilities of side s (psychology.c). */
void om_wh7_psychology_prepare(om_wh7_prepared *p, int s);

/* --- pursuit.c --- */

/* Fill the flight probabilities of side s (pursuit.c). */
void om_wh7_pursuit_prepare(om_wh7_prepared *p, int s);

/* The flee roll of side s (2D6 or 3D6 by its Movement). */
unsigned om_wh7_flee_roll(const om_wh7_prepared *p, om_dice *d, int s);

/* Side `loser` broke from the combat won by the other: it flees and the winner
 * pursues or not (Close Combat > Flee & Pursue). Sets o->pursued, o->caught,
 * o->fled, o->destroyed for the loser. */
void om_wh7_flee_and_pursue(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int loser,
                         om_wh7_outcome *o);

/* Side s flees as its charge response from the charger (Movement > Flee;
 * Caught!): caught if the charge move reaches gap + flee roll (digest A8).
 * Sets o->fled or o->caught and o->destroyed; returns true if caught. */
bool om_wh7_flee_from_charge(const om_wh7_prepared *p, om_dice *d, int s, om_wh7_outcome *o);

/* --- the combat and engagement kinds (engagement.c) --- */
void om_wh7_resolve_combat(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *o);

#endif /* OM_WH7_INT_H */
