/*
 * wm_spells.h: the spells of the fantasy Warmaster armies as the engine casts
 * them: for each spell of each army list of Warmaster 1.1 and Warmaster
 * Revolution (the army data's `spells`, which give its casting value and
 * range), its mechanism and parameters (engine/warmaster/magic.h), or a
 * sentence saying why it is not modelled. The table is data: designated
 * initialisers, one row per spell (a row without a rule set or army serves
 * every list whose spell has that id). Warmaster Ancients has no magic.
 *
 * Everything here is thread-safe: const tables, no global mutable state.
 */
#ifndef OM_WM_SPELLS_H
#define OM_WM_SPELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "magic.h"
#include "regalia.h"
#include "status.h"
#include "turn.h"
#include "wm_armylist.h"

/* How one spell of the army lists is cast. */
typedef struct om_wm_spell_rule {
    const char *ruleset;       /* "warmaster-1.1", "warmaster-revolution", or NULL: both */
    const char *army;          /* the army id, or NULL: every army with the spell */
    const char *id;            /* the spell's id in the army data ("death-bolt") */
    om_wm_spell_effect effect; /* its mechanism (OM_WM_SPELL_NOT_MODELLED: none) */
    uint8_t attacks;           /* the mechanism's Attacks (magic.h om_wm_spell) */
    bool d3, no_save, drive_back, sight, per_stand, all_in_range, own_unit,
        with_characters, with_caster; /* the mechanism's parameters (om_wm_spell) */
    uint16_t lasting;          /* LASTING: the OM_WM_LASTING_* kinds it sets (table.h) */
    uint8_t amount;            /* LASTING: its Command penalty or save score; `phase`
                                  ARMOUR: the best armour it gives */
    uint16_t phase;            /* COMBAT, BOOST: the OM_WM_LASTING_PHASE kinds it sets
                                  for this turn's Combat phase only */
    bool aura, unengaged;      /* LASTING: around the Wizard; unengaged units only */
    uint8_t troops;            /* OM_WM_SPELL_TROOP bits of the troop types it may
                                  affect, or 0: any */
    const char *only;          /* unit ids of its own army it may affect, separated by
                                  spaces, or NULL: any */
    const char *not_on;        /* unit ids of its own army it may not affect, or NULL */
    const char *model;         /* how it is modelled and what is left out, or why it
                                  is not modelled: one sentence */
} om_wm_spell_rule;

/* Number of rows, the i-th (NULL past the end). */
size_t om_wm_spell_rule_count(void);
const om_wm_spell_rule *om_wm_spell_rule_at(size_t i);

/* The row for spell `id` of army `army` under rule set `ruleset`: the row
 * naming both first, else the row naming the spell alone; NULL if none. */
const om_wm_spell_rule *om_wm_spell_rule_find(const char *ruleset, const char *army,
                                              const char *id);

/* Whether special rule `id` gives a character anti-magic (Dwarf lists,
 * Runesmith; Nippon, Shugenja). Pure. */
bool om_wm_spells_anti_magic_rule(const char *id);

/* The Wizards' magic device (magic.h, OM_WM_DEVICE_*) magic item `id` is
 * ("ring-of-magic", "wand-of-power", "rod-of-repetition",
 * "scroll-of-dispelling", "staff-of-spellbinding"), or 0 if it is none of
 * them. A battle plays these; it names a character's other items as not
 * modelled. Pure; thread-safe. */
unsigned om_wm_spells_device_of_item(const char *id);

/* The General's device of power (regalia.h, OM_WM_REGALIA_*) magic item `id`
 * is ("crown-of-command", "helm-of-dominion", "orb-of-majesty",
 * "sceptre-of-sovereignty"), or 0 if it is none of them. Pure; thread-safe. */
unsigned om_wm_spells_regalia_of_item(const char *id);

/* Whether a battle plays character magic item `id`: a Wizard's device
 * (om_wm_spells_device_of_item) or a General's (om_wm_spells_regalia_of_item).
 * A battle names a character's other items as not modelled. Pure;
 * thread-safe. */
bool om_wm_spells_character_item_played(const char *id);

/*
 * om_wm_spells_setup: side `side`'s magic in `turn` from its list `l`, whose
 * unit i stands on the table at index index[i] and whose characters were
 * appended from index `first_character` on: the army's spells (casting value
 * and range from the army data, mechanism from the table), every Wizard
 * knowing them all, units barred from a spell by `only`/`not_on`, anti-magic
 * for characters with the Runesmith or Shugenja rule. Errors: OM_ENOTFOUND
 * (the army data cannot be loaded), OM_EINVAL (an army spell without a row in
 * the table, or more spells than OM_WM_SPELLS_MAX), each naming the army and
 * the spell. No trial state is touched.
 */
om_status om_wm_spells_setup(const om_wm_armylist *l, unsigned side, const unsigned *index,
                             unsigned first_character, om_wm_turn *turn);

#endif /* OM_WM_SPELLS_H */
