/*
 * options.c: the interpretations of ambiguous rules, as named options.
 *
 * The digests list ambiguities with a recommended reading (warmaster.md 17,
 * warmaster-ancients.md 21). Each one that changes an engagement is here: the
 * switchable ones are fields of om_wm_options (scenario key `options:`), the
 * others are fixed readings the engine implements, listed so that every choice
 * is visible in `oddsmaster list --options` and recorded with every run.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wm.h"

/* Switchable options first, in om_wm_options order; then fixed readings. */
static const om_wm_option om_wm_option_table[] = {
    {"last_ditch_per_stand", "A3", "6.4 The Last Ditch Dice",
     "When modifiers reduce attacks to 0, does the unit roll one die, or each stand?",
     "false: the unit rolls one die if its total is 0 (\"a unit always rolls one Attack "
     "dice\")", "true: every stand at 0 rolls one die",
     offsetof(om_wm_options, last_ditch_per_stand)},
    {"infantry_pursues_cavalry", "A6", "6.11 Which units can pursue",
     "May infantry pursue retreating cavalry or chariots?",
     "false: never (the at-a-glance rule; the abstraction cannot tell front edges)",
     "true: yes (reading B: only front-edge contact is barred)",
     offsetof(om_wm_options, infantry_pursues_cavalry)},
    {"defended_after_retreat", "A8", "6.15 Loss of status",
     "Does a unit that retreated keep its defended or fortified position?",
     "false: it is lost for good (\"always loses the advantage of its position\")",
     "true: it regains it from the next turn (in the open for the rest of the turn)",
     offsetof(om_wm_options, defended_after_retreat)},
    {"result_cap_ignores_carried", "A21", "6.6 Combat results",
     "Is the cap on hits counted in the result the remaining capacity or the full one?",
     "false: remaining capacity (stands x Hits - hits already carried)",
     "true: full capacity, ignoring carried hits",
     offsetof(om_wm_options, result_cap_ignores_carried)},
    {"max_turns", "-", "6.14 Unresolved combat",
     "How many turns may an unresolved engagement go on before it is called off?",
     "0: 10 turns", "1..100 turns", offsetof(om_wm_options, max_turns)},
    /* Fixed readings (offset OM_WM_OPTION_FIXED). */
    {"stand_floor", "A4", "6.4", "Are negative stands subtracted from the unit total?",
     "fixed: each stand is floored at 0", "-", OM_WM_OPTION_FIXED},
    {"charge_into_unresolved", "A7", "6.4",
     "Does a unit charging into an unresolved engagement get the charge bonus?",
     "fixed: not modelled (engagements are between two units)", "-", OM_WM_OPTION_FIXED},
    {"mixed_cover", "A9", "6.15", "Mixed defended and open stands in combat",
     "fixed: one position per unit", "-", OM_WM_OPTION_FIXED},
    {"retreat_divisor", "A10/D6", "6.9",
     "Which units divide the retreat distance?",
     "fixed per rule set: all losing units (Revolution, Ancients), engaged ones (1.1)", "-",
     OM_WM_OPTION_FIXED},
    {"both_destroyed", "A18", "6.6", "Both sides destroyed in the same round",
     "fixed: a draw", "-", OM_WM_OPTION_FIXED},
    {"survivor_wins", "A19", "6.6", "One side destroyed although it scored more",
     "fixed: the survivor wins", "-", OM_WM_OPTION_FIXED},
    {"drive_back_dice_confuse", "A24", "5.5", "Which dice can confuse in a drive back?",
     "fixed: only the dice rolled after the defended/fortified discount", "-",
     OM_WM_OPTION_FIXED},
    {"draw_fall_back", "A32", "6.13",
     "Fallers still touching after a draw: fight on now or next turn?",
     "fixed: the engagement ends in a draw (fall-back geometry is not modelled)", "-",
     OM_WM_OPTION_FIXED},
    {"support_timing", "A33/D5", "6.7",
     "Do supports count before or after casualties?",
     "fixed per rule set: before (Revolution, Ancients), after (1.1)", "-",
     OM_WM_OPTION_FIXED},
    {"pursuit_bonus_short", "A37", "6.4", "Pursuit bonus when the enemy retreated under 3cm",
     "fixed: +1 + floor(cm/3)", "-", OM_WM_OPTION_FIXED},
    {"supporter_retreat", "A38", "6.9", "Retreat distance of supporting units",
     "fixed: the same as the unit they support", "-", OM_WM_OPTION_FIXED},
    {"character_bonus_stand", "A39", "6.4",
     "Which stand gets a character's bonus?",
     "fixed: the best stand (unflanked if any), before that stand's modifiers", "-",
     OM_WM_OPTION_FIXED},
    {"shock_vs_defended", "WMA A24", "WMA 14 Shock",
     "Does long-based shock cavalry get its +1 against defended enemies?",
     "fixed: yes (only the ordinary charge bonus is denied)", "-", OM_WM_OPTION_FIXED},
    {"maniple_same_unit", "WMA A9", "WMA 14 Maniple",
     "Do a maniple unit's own rear stands give maniple dice?",
     "fixed: no, only stands of another maniple unit (support_units > 0)", "-",
     OM_WM_OPTION_FIXED},
};

#define OM_WM_OPTION_COUNT (sizeof om_wm_option_table / sizeof om_wm_option_table[0])

size_t om_wm_option_count(void) { return OM_WM_OPTION_COUNT; }

const om_wm_option *om_wm_option_at(size_t i)
{
    return i < OM_WM_OPTION_COUNT ? &om_wm_option_table[i] : NULL;
}

const om_wm_option *om_wm_option_find(const char *name)
{
    for (size_t i = 0; i < OM_WM_OPTION_COUNT; i++)
        if (strcmp(om_wm_option_table[i].name, name) == 0)
            return &om_wm_option_table[i];
    return NULL;
}

om_status om_wm_option_set(om_wm_options *o, const char *name, const char *value)
{
    const om_wm_option *opt = om_wm_option_find(name);
    char *end = NULL;
    long v;
    if (opt == NULL || opt->offset == OM_WM_OPTION_FIXED)
        return OM_ERROR(opt ? OM_EINVAL : OM_ENOTFOUND,
                        opt ? "option '%s' is a fixed reading, not a switch"
                            : "unknown option '%s' (see oddsmaster list --options)", name);
    if (strcmp(name, "max_turns") == 0) {
        v = strtol(value, &end, 10);
        if (end == value || *end != '\0' || v < 0 || v > 100)
            return OM_ERROR(OM_EINVAL, "option 'max_turns' must be 0 to 100 (got '%s')", value);
        o->max_turns = (uint8_t)v;
        return OM_OK;
    }
    if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
        return OM_ERROR(OM_EINVAL, "option '%s' must be true or false (got '%s')", name, value);
    *(bool *)((char *)o + opt->offset) = strcmp(value, "true") == 0;
    return OM_OK;
}

const char *om_wm_option_value(const om_wm_options *o, const om_wm_option *opt, char *buf,
                               size_t size)
{
    if (opt->offset == OM_WM_OPTION_FIXED)
        return "fixed";
    if (strcmp(opt->name, "max_turns") == 0) {
        snprintf(buf, size, "%u", (unsigned)o->max_turns);
        return buf;
    }
    return *(const bool *)((const char *)o + opt->offset) ? "true" : "false";
}
