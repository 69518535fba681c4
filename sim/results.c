/*
 * results.c: the table of per-trial outcome fields (see results.h).
 */
#include "results.h"

#include <string.h>

#define F(name, desc, member, type, kinds) \
    {name, desc, offsetof(om_wm_outcome, member), type, kinds}
#define BOTH (OM_KIND_MASK_COMBAT | OM_KIND_MASK_VOLLEY)
#define COMBAT OM_KIND_MASK_COMBAT
#define VOLLEY OM_KIND_MASK_VOLLEY

const om_field om_results_fields[] = {
    F("winner", "Winner of the first combat round: a, b or draw.", winner, OM_FIELD_WINNER, COMBAT),
    F("result_a", "Combat result of side A: hits counted, shooting hits at chargers, supports.", result[0], OM_FIELD_COUNT, COMBAT),
    F("result_b", "Combat result of side B: hits counted, shooting hits at chargers, supports.", result[1], OM_FIELD_COUNT, COMBAT),
    F("hits_on_a", "Hits suffered by unit A after armour saves, from all sources.", hits_on[0], OM_FIELD_COUNT, COMBAT),
    F("hits_on_b", "Hits suffered by unit B after armour saves, from all sources.", hits_on[1], OM_FIELD_COUNT, BOTH),
    F("shot_hits_on_a", "Hits suffered by unit A from shooting (stand and shoot).", shot_hits_on[0], OM_FIELD_COUNT, COMBAT),
    F("shot_hits_on_b", "Hits suffered by unit B from shooting.", shot_hits_on[1], OM_FIELD_COUNT, BOTH),
    F("stands_lost_a", "Stands lost by unit A (all its stands if destroyed).", stands_lost[0], OM_FIELD_COUNT, COMBAT),
    F("stands_lost_b", "Stands lost by unit B (all its stands if destroyed or routed).", stands_lost[1], OM_FIELD_COUNT, BOTH),
    F("retreat_cm", "Retreat distance of the round's loser in cm (0 after a draw).", retreat_cm, OM_FIELD_COUNT, COMBAT),
    F("drive_back_cm", "Distance unit B is driven back by shooting, in cm.", drive_back_cm, OM_FIELD_COUNT, VOLLEY),
    F("confused_b", "1 if unit B is confused by a drive-back six.", confused[1], OM_FIELD_FLAG, VOLLEY),
    F("routed_b", "1 if unit B is routed: drive back beyond its full pace.", routed[1], OM_FIELD_FLAG, VOLLEY),
    F("destroyed_a", "1 if unit A was destroyed.", destroyed[0], OM_FIELD_FLAG, COMBAT),
    F("destroyed_b", "1 if unit B was destroyed (including by rout).", destroyed[1], OM_FIELD_FLAG, BOTH),
};

const size_t om_results_field_count = sizeof om_results_fields / sizeof om_results_fields[0];

const char *const om_results_winner_names[4] = {"a", "b", "draw", "none"};

const om_field *om_results_field_find(const char *name)
{
    for (size_t i = 0; i < om_results_field_count; i++)
        if (strcmp(om_results_fields[i].name, name) == 0)
            return &om_results_fields[i];
    return NULL;
}
