/*
 * magic.h: Warmaster magic in the Shooting phase (Warmaster Revolution, Magic
 * > Spells; Casting Spells; the Warmaster 1.1 Rules Update, P72 – Casting
 * Spells; P73-74 – Spells): each Wizard of the moving side casts one spell of
 * his army's list, a D6 against its casting value (a 1 always fails, a 6
 * always works), an enemy Dwarf Runesmith or Shugenja within 50cm may
 * anti-magic it on a 4+, a unit is affected by the same spell at most once a
 * turn, and the spell's effect is one of a few typed mechanisms with
 * parameters: data, not code per spell. Warmaster Ancients has no magic.
 *
 * A spell is a value (om_wm_spell): its casting value and range from the army
 * list, its mechanism and parameters from the table of spell effects the
 * scenarios keep (scenarios/warmaster/wm_spells.c). A side's spells and each
 * Wizard's share of them are an om_wm_spellbook inside the turn (turn.h),
 * checked when the turn is prepared; a trial only reads them. The state one
 * turn's magic leaves (spells already cast on each unit, the Attacks it adds
 * in this turn's Combat phase, the hits it adds to the Shooting phase's
 * removal of stands and drive backs) is an om_wm_magic_turn in the turn's
 * workspace: no allocation, no formatting. An effect that lasts into the
 * enemy's turn (OM_WM_SPELL_LASTING: -1 Command, no initiative, no charge or
 * pursuit, half pace, defended, a save, -1 to hit by shooting, no drive back)
 * is kept on the table itself (om_wm_table_unit.lasting, a character's
 * aura), so that it goes with the table from turn to turn; the rules read it
 * through the om_wm_lasting_* functions below where they act (the Command
 * test, initiative and charges in command.c, paces in table.c, cover, saves,
 * to-hit and pursuit where turn.c builds a unit's side), and the turn ends it
 * as the caster's side starts its next turn. Sections cited are Warmaster
 * Revolution's unless another rulebook is named.
 */
#ifndef OM_WM_MAGIC_H
#define OM_WM_MAGIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command.h"
#include "dice.h"
#include "table.h"
#include "trace.h"
#include "wm.h"

/* Most spells in one army's list: every fantasy list of 1.1 and Revolution
 * has four (the army lists' Spells), room for a few more. */
#define OM_WM_SPELLS_MAX 8
/* Longest spell id kept, with its NUL ("mazdamundi-s-revenge"). */
#define OM_WM_SPELL_ID_MAX 32
/* The reach of an anti-magic character: an enemy Wizard within 50cm of him
 * (Dwarf army lists, Runesmith; Nippon, Shugenja). */
#define OM_WM_ANTI_MAGIC_CM 50.0
/* The D6 score that anti-magics a spell (the same lists: "4, 5 or 6"). */
#define OM_WM_ANTI_MAGIC_SCORE 4u
/* Most shooting Attacks or Attacks a spell may give (Plague's six is the most
 * in the lists). */
#define OM_WM_SPELL_ATTACKS_MAX 12u

/* The mechanisms of the spells this engine models. */
typedef enum om_wm_spell_effect {
    OM_WM_SPELL_NOT_MODELLED = 0, /* the effect is not modelled: never cast */
    OM_WM_SPELL_MISSILE,  /* shooting Attacks at one unengaged enemy unit in range
                             (Death Bolt: 3, no save, driven back as by shooting) */
    OM_WM_SPELL_BURST,    /* shooting Attacks at every unengaged enemy unit within
                             range of the Wizard (Storm of Stone: D3 each) */
    OM_WM_SPELL_BOOST,    /* Attacks added to friendly units engaged in combat in
                             this turn's Combat phase (Waaagh!: +1 a stand; Light of
                             Battle: +1 a unit, every unit in range) */
    OM_WM_SPELL_WEAKEN,   /* Attacks taken from enemy units engaged in combat in this
                             turn's Combat phase (Chill: -1 a stand) */
    OM_WM_SPELL_SHATTER,  /* a D6 above the target's Hits destroys one of its stands
                             (Freeze), never a drive back */
    OM_WM_SPELL_LASTING,  /* an effect on one unit (or, with `aura`, around the
                             Wizard) that lasts into the enemy's turn and ends as the
                             caster's next turn starts: the OM_WM_LASTING_* kinds of
                             table.h, read where each rule acts (Eerie Mist: -1
                             Command and no initiative; Dominion: no charge, pursuit
                             or advance; Mists of Albion: defended) */
    OM_WM_SPELL_VOLLEY,   /* a friendly unengaged unit that shoots (not artillery, by
                             `troops`) shoots `attacks` more times this Shooting phase,
                             each at `amount` worse to hit (Heaven's Fire: once more,
                             -1), seen or not */
    OM_WM_SPELL_MOVE,     /* one friendly unit in range, seen or not, moves once as if
                             ordered in the Command phase, by its own plan
                             (om_wm_command_move_as_ordered), alone, after the casting
                             (Voice of Command); its joined characters stay where they
                             are and leave it */
    OM_WM_SPELL_COMBAT,   /* one friendly unit engaged in combat in range, seen or not,
                             takes the `phase` kinds for this turn's Combat phase only
                             (Word of Fear: it causes terror; Shield of the Old Ones:
                             armour one better, at best `amount`) */
    OM_WM_SPELL_PUSH,     /* one unengaged enemy unit in range, seen or not, is driven
                             back `attacks` D6 cm straight toward its own table edge
                             (side 0's at y 0, side 1's at the table's depth) as by
                             shooting (the defended discount, confusion on a 6, what
                             lies behind), but never routed (Gerroff!!!) */
    OM_WM_SPELL_EFFECT_COUNT
} om_wm_spell_effect;

/* Names of the mechanisms ("not-modelled", "missile", ...). */
extern const char *const om_wm_spell_effect_names[OM_WM_SPELL_EFFECT_COUNT];

/* One spell as the engine casts it. */
typedef struct om_wm_spell {
    char id[OM_WM_SPELL_ID_MAX]; /* the army list's id ("death-bolt") */
    uint8_t cast;                /* the D6 score that casts it, 2..6 (army lists) */
    uint8_t range_cm;            /* its range from the Wizard's base, 1..255 (any with
                                    `own_unit` or not modelled) */
    om_wm_spell_effect effect;   /* its mechanism */
    uint8_t attacks;             /* MISSILE, BURST: shooting Attacks at each unit it
                                    hits (with `d3`: that many D3 rolled); BOOST,
                                    WEAKEN: Attacks added or taken; PUSH: the D6
                                    of the drive back */
    bool d3;                     /* `attacks` counts D3 rolled, not Attacks */
    bool no_save;                /* armour has no effect (all targets count as having
                                    no armour) */
    bool drive_back;             /* its hits drive the unit back as shooting does; else
                                    they only remove stands */
    bool sight;                  /* the Wizard must see the target (else "regardless of
                                    whether the Wizard can see it or not") */
    bool per_stand;              /* BOOST, WEAKEN: to every stand (else to the unit) */
    bool all_in_range;           /* BOOST, LASTING: every eligible unit within range, not
                                    one (Tranquility of Heaven) */
    bool own_unit;               /* only on the unit the Wizard has joined (no range) */
    bool with_characters;        /* BOOST: each character joined to the unit gains the
                                    Attacks too ("including characters") */
    bool with_caster;            /* MOVE with `own_unit`: the Wizard moves with his unit
                                    and stays joined to it (Wings in the Jungle) */
    uint16_t lasting;            /* LASTING: the OM_WM_LASTING_* kinds it sets, all
                                    hostile (on an enemy unit) or all friendly */
    uint8_t amount;              /* LASTING: the Command penalty (COMMAND) or the save
                                    score (SAVE); VOLLEY: the to-hit penalty of the
                                    volleys it adds; `phase` ARMOUR: the best armour
                                    it gives */
    uint16_t phase;              /* COMBAT, BOOST: OM_WM_LASTING_PHASE kinds it sets on
                                    its target for this turn's Combat phase only
                                    (Monster Bear!: terror; Ferocity of Tigers: immune
                                    to terror) */
    bool aura;                   /* LASTING: cast on the Wizard himself, it falls on every
                                    enemy unit within range as each order is given
                                    (Anger of the Gods); COMMAND only */
    bool unengaged;              /* LASTING: only on a unit not engaged (Tree Singing) */
    uint8_t troops;              /* bit t: only on units of troop type t (om_wm_troop;
                                    Traitor Kin: cavalry, chariots, monsters); 0: any */
} om_wm_spell;

/* The Wizards' magic devices that act on casting and dispelling (Warmaster
 * Revolution, Magic Items > Devices of Power; the Warmaster 1.1 Rules
 * Update, P77), bits of om_wm_spellbook.devices (carried) and of
 * om_wm_table_character.spent (used, for the rest of the battle). */
typedef enum om_wm_device {
    OM_WM_DEVICE_RING = 1u << 0,   /* Ring of Magic: once a battle, a spell cast without
                                      its roll (Wizard) */
    OM_WM_DEVICE_WAND = 1u << 1,   /* Wand of Power: once a battle, +1 to a casting roll,
                                      decided before it (Wizard) */
    OM_WM_DEVICE_ROD = 1u << 2,    /* Rod of Repetition: once a battle, another spell after a
                                      roll that works, dispelled or not (Wizard) */
    OM_WM_DEVICE_SCROLL = 1u << 3, /* Scroll of Dispelling: once a battle, an enemy spell
                                      that works is made to fail (Wizard or Runesmith) */
    OM_WM_DEVICE_STAFF = 1u << 4   /* Staff of Spellbinding: an enemy Wizard failing his
                                      roll is spellbound on a 4+ (-1 to his casting rolls
                                      for the rest of the battle); spent once it works
                                      (Wizard or Runesmith) */
} om_wm_device;
#define OM_WM_DEVICES_ALL 0x1fu
/* Devices only a Wizard may carry (the rest: a Wizard or a Runesmith). */
#define OM_WM_DEVICES_WIZARD (OM_WM_DEVICE_RING | OM_WM_DEVICE_WAND | OM_WM_DEVICE_ROD)
/* The D6 score that spellbinds (Staff of Spellbinding: "on the D6 roll of a 4+"). */
#define OM_WM_SPELLBIND_SCORE 4u

/* A side's magic: its army's spells and who casts or anti-magics them. */
typedef struct om_wm_spellbook {
    uint8_t n[2];                                /* spells of each side's army */
    om_wm_spell spell[2][OM_WM_SPELLS_MAX];      /* [side][k] */
    om_wm_unit_set barred[2][OM_WM_SPELLS_MAX];  /* u in [s][k]: side s's spell k cannot
                                                    affect unit u (Waaagh!: greenskins only) */
    uint8_t knows[OM_WM_TABLE_MAX_CHARACTERS];   /* bit k: the character (a Wizard)
                                                    may cast his side's spell k */
    bool anti_magic[OM_WM_TABLE_MAX_CHARACTERS]; /* the character may anti-magic enemy
                                                    spells (Runesmith, Shugenja) */
    uint8_t devices[OM_WM_TABLE_MAX_CHARACTERS]; /* OM_WM_DEVICE_* the character carries */
} om_wm_spellbook;

/* What one turn's magic has done so far, kept in the turn's workspace. */
typedef struct om_wm_magic_turn {
    om_wm_unit_set affected[OM_WM_SPELLS_MAX];    /* u in [k]: unit u was affected by the
                                                     moving side's spell k this turn
                                                     (the same-spell limit) */
    int8_t stand_attacks[OM_WM_TABLE_MAX_UNITS];  /* Attacks added to (taken from) every
                                                     stand in this Combat phase */
    uint8_t unit_attacks[OM_WM_TABLE_MAX_UNITS];  /* Attacks added to the unit */
    uint8_t hits[OM_WM_TABLE_MAX_UNITS];          /* unsaved hits that drive back */
    uint8_t quiet_hits[OM_WM_TABLE_MAX_UNITS];    /* unsaved hits that do not */
    uint8_t volleys[OM_WM_TABLE_MAX_UNITS];       /* volleys added to the unit's own
                                                     this Shooting phase (VOLLEY) */
    uint8_t volley_penalty[OM_WM_TABLE_MAX_UNITS]; /* ...each that much worse to hit */
    om_wm_unit_set moves;                         /* units a spell moves as if ordered,
                                                     once the Wizards have cast (MOVE) */
    int8_t mover[OM_WM_TABLE_MAX_UNITS];          /* MOVE `with_caster`: the Wizard who
                                                     moves with unit u, or -1 */
    const om_wm_command_setup *setup;             /* the turn's plans, which MOVE
                                                     follows (NULL: no MOVE target) */
    int8_t driver[OM_WM_TABLE_MAX_UNITS];         /* the unit of the closest Wizard that
                                                     drove it back by a spell, or -1 */
    uint16_t phase[OM_WM_TABLE_MAX_UNITS];        /* OM_WM_LASTING_PHASE kinds on the unit
                                                     for this Combat phase (om_wm_spell.phase) */
    uint8_t phase_armour[OM_WM_TABLE_MAX_UNITS];  /* with ARMOUR: the best armour it gives */
    int8_t engaged[OM_WM_TABLE_MAX_UNITS];        /* within the phase: unit u touches an
                                                     enemy (1), not (0), not yet asked (-1) */
    uint8_t cast;                                 /* spells the side tried to cast (a
                                                     second by a Rod of Repetition too) */
    uint8_t worked;                               /* of those, cast and not dispelled */
    uint8_t dispelled;                            /* cast but anti-magicked */
} om_wm_magic_turn;

/* The bit of troop type `troop` in om_wm_spell.troops. */
#define OM_WM_SPELL_TROOP(troop) ((uint8_t)(1u << (unsigned)(troop)))

/* The chance that one D6 casts a spell of casting value `cast`: a 1 always
 * fails and a 6 always works (Casting Spells), so 1/6 to 5/6. Pure. */
double om_wm_spell_cast_chance(unsigned cast);

/* Whether a D6 of `face` casts a spell of casting value `cast` (a 1 always
 * fails, a 6 always works). Pure. */
bool om_wm_spell_casts(unsigned face, unsigned cast);

/* The same with `modifier` added to the die (Wand of Power +1, spellbound
 * -1): "regardless of any modifier, a dice roll of 1 always fails and a roll
 * of 6 always succeeds" (Casting Spells). Pure. */
bool om_wm_spell_casts_modified(unsigned face, unsigned cast, int modifier);


/*
 * om_wm_spellbook_check: a turn's spellbook against its table: at most
 * OM_WM_SPELLS_MAX spells a side, each with a casting value of 2 to 6, a
 * range of 1cm or more, a known mechanism and at most OM_WM_SPELL_ATTACKS_MAX
 * Attacks; spells known only by Wizards and only of their own side's list;
 * devices only of the OM_WM_DEVICE_* kinds, carried by characters on the table
 * (a Ring, Wand or Rod by a Wizard; a Scroll or Staff by a Wizard or an
 * anti-magic character); none under Warmaster Ancients (`rules`, which has
 * no magic). Returns OM_OK,
 * or OM_EINVAL after filling `why` (if not NULL) with the path
 * ("magic.spells[1][2].cast", "magic.knows[3]") and the reason, raising
 * "field 'PATH': REASON". Pure apart from the error slot.
 */
om_status om_wm_spellbook_check(const om_wm_spellbook *b, const om_wm_table *t,
                                om_wm_ruleset_id rules, om_wm_check_failure *why);

/* Whether side `side` of the spellbook has any Wizard who knows a modelled
 * spell (else its magic step rolls nothing). Pure. */
bool om_wm_spellbook_active(const om_wm_spellbook *b, const om_wm_table *t, unsigned side);

/* om_wm_magic_turn_clear: the state of a turn's magic before its Shooting
 * phase, for the `units` units of the table. */
void om_wm_magic_turn_clear(om_wm_magic_turn *m, unsigned units);

/*
 * om_wm_magic_phase: the moving side `side`'s spells in its Shooting phase on
 * table t, with the spellbook, rule set and units' values of `turn` (turn.h).
 * Each Wizard of the side (character index order) whose unit is on the table
 * casts at most one spell (two with his Rod of Repetition): of the spells he
 * knows and their eligible targets not yet affected by that spell this turn,
 * the one of the best expected effect (magic.c, "The casting policy"); a D6
 * casts it (less 1 if he is spellbound; his Ring of Magic or Wand of Power
 * as the policy spends them); a failed roll may see him spellbound by an
 * enemy Staff of Spellbinding; an enemy anti-magic character within
 * OM_WM_ANTI_MAGIC_CM tries once to dispel it, and an enemy Scroll of
 * Dispelling may make it fail; the devices spent are marked on the table's
 * characters (`spent`, `spellbound`) for the rest of the battle; a spell
 * that works is resolved: shooting hits through the kit's
 * tests of the usual to-hit and save (om_wm_to_hit_score, om_wm_save_score)
 * added to m->hits or m->quiet_hits for the phase's end, Attacks to
 * m->stand_attacks / m->unit_attacks, a stand shattered removed from t at
 * once. Each cast is recorded in `trace` (OM_WM_EV_SPELL; NULL: none). No
 * allocation; pure apart from d, t, m and trace.
 */
struct om_wm_turn;
void om_wm_magic_phase(const struct om_wm_turn *turn, const om_wm_dice_kit *kit, om_wm_table *t,
                       unsigned side, om_dice *d, om_wm_magic_turn *m, om_wm_trace *trace);

/* ---- Lasting effects: where the rules read them ---- */

/* om_wm_lasting_expire: the start of side `side`'s turn: the lasting effects
 * its own spells set end (OM_WM_LASTING_FRIENDLY on its units,
 * OM_WM_LASTING_HOSTILE on the enemy's, the auras of its characters). */
void om_wm_lasting_expire(om_wm_table *t, unsigned side);

/* om_wm_lasting_command: the Command penalty of lasting spells on an order
 * to the `n` units `u` (one unit or a brigade) as the table stands: of the
 * units, the largest of its own penalty (Eerie Mist) plus the largest aura of
 * an enemy character within reach of it (Anger of the Gods, measured as the
 * order is given). Pure. */
unsigned om_wm_lasting_command(const om_wm_table *t, const unsigned *u, unsigned n);

/* Whether unit u may use its initiative, and whether it may charge (also:
 * pursue or advance), under the lasting spells on it. Pure. */
bool om_wm_lasting_initiative(const om_wm_table *t, unsigned u);
bool om_wm_lasting_may_charge(const om_wm_table *t, unsigned u);

/* om_wm_lasting_side: unit u's side `s`, its position already set from the
 * table, as the lasting spells on it change it: defended in the open (or
 * fortified if defended already, Sanctuary), a better save (Mork Save Uz!),
 * no pursuit (Dominion), never driven back (Tooth Cracker), causing terror
 * (Twilight Host), immune to terror (Tranquility of Heaven). Pure apart
 * from `s`. */
void om_wm_lasting_side(const om_wm_table *t, unsigned u, om_wm_side *s);

/* om_wm_magic_combat_side: unit u's side `s` in this turn's Combat phase, as
 * the phase's spells (m->phase) change it: it causes terror, it is immune to
 * terror, its armour is one better (none becoming 6+) unless it is at the
 * spell's best already, its combat bonus counted (Shield of the Old Ones:
 * "If the unit's Armour value is already 4+, or another bonus brings it to
 * 4+, this spell has no effect"). Pure apart from `s`. */
void om_wm_magic_combat_side(const om_wm_magic_turn *m, unsigned u, om_wm_side *s);

/* om_wm_lasting_to_hit: the score a shooter needs to hit unit u, `to_hit`
 * before the lasting spells on it: one worse under Aerial Shield (never worse
 * than 6). Pure. */
unsigned om_wm_lasting_to_hit(const om_wm_table *t, unsigned u, unsigned to_hit);

/* om_wm_lasting_moved: unit u moved (a drive back, a retreat): the effects
 * that last only until it moves end (Mists of Albion: "or until the target
 * unit moves in any way"). */
void om_wm_lasting_moved(om_wm_table *t, unsigned u);

#endif /* OM_WM_MAGIC_H */
