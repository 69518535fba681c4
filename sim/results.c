/*
 * results.c: the table of per-trial outcome fields (see results.h).
 */
#include "results.h"

#include <string.h>

#define F(name, desc, member, type, kinds) \
    {name, desc, offsetof(om_wm_outcome, member), type, kinds}
#define ALL (OM_KIND_MASK_COMBAT | OM_KIND_MASK_VOLLEY | OM_KIND_MASK_ENGAGEMENT)
#define FIGHT (OM_KIND_MASK_COMBAT | OM_KIND_MASK_ENGAGEMENT)
#define ENGAGEMENT OM_KIND_MASK_ENGAGEMENT
#define VOLLEY OM_KIND_MASK_VOLLEY

const om_field om_results_fields[] = {
    F("winner", "Winner: of the first round (combat runs) or of the whole engagement "
      "(engagement runs): a, b, draw, or none (no contact, or unresolved at the turn limit).",
      winner, OM_FIELD_WINNER, FIGHT),
    F("round1_winner", "Winner of the first combat round: a, b, draw, or none (no contact).",
      round1_winner, OM_FIELD_WINNER, ENGAGEMENT),
    F("result_a", "Combat result of side A in round 1: hits counted, shooting hits at "
      "chargers, supports.", result[0], OM_FIELD_COUNT, FIGHT),
    F("result_b", "Combat result of side B in round 1: hits counted, shooting hits at "
      "chargers, supports.", result[1], OM_FIELD_COUNT, FIGHT),
    F("hits_on_a", "Hits suffered by unit A after armour saves, from all sources.",
      hits_on[0], OM_FIELD_COUNT, FIGHT),
    F("hits_on_b", "Hits suffered by unit B after armour saves, from all sources.",
      hits_on[1], OM_FIELD_COUNT, ALL),
    F("shot_hits_on_a", "Hits suffered by unit A from shooting.", shot_hits_on[0],
      OM_FIELD_COUNT, FIGHT),
    F("shot_hits_on_b", "Hits suffered by unit B from shooting.", shot_hits_on[1],
      OM_FIELD_COUNT, ALL),
    F("stands_lost_a", "Stands lost by unit A (all its stands if destroyed; in a volley, "
      "machines that blew up or shot themselves).", stands_lost[0], OM_FIELD_COUNT, ALL),
    F("stands_lost_b", "Stands lost by unit B (all its stands if destroyed or routed).",
      stands_lost[1], OM_FIELD_COUNT, ALL),
    F("retreat_cm", "Retreat distance of the first round's loser in cm (0 after a draw).",
      retreat_cm, OM_FIELD_COUNT, FIGHT),
    F("retreated_cm_a", "Total distance unit A retreated over the engagement, in cm.",
      retreated_cm[0], OM_FIELD_COUNT, ENGAGEMENT),
    F("retreated_cm_b", "Total distance unit B retreated over the engagement, in cm.",
      retreated_cm[1], OM_FIELD_COUNT, ENGAGEMENT),
    F("fall_back_cm_a", "After a draw, how far unit A fell back, in cm (0: it stood, or "
      "could not).", fall_back_cm[0], OM_FIELD_COUNT, ENGAGEMENT),
    F("fall_back_cm_b", "After a draw, how far unit B fell back, in cm (0: it stood, or "
      "could not).", fall_back_cm[1], OM_FIELD_COUNT, ENGAGEMENT),
    F("rounds", "Combat rounds fought.", rounds, OM_FIELD_COUNT, ENGAGEMENT),
    F("turns", "Turns the engagement lasted (1: resolved in the charge's turn).", turns,
      OM_FIELD_COUNT, ENGAGEMENT),
    F("charged", "1 if the charge made contact (not stopped by shooting first).", charged,
      OM_FIELD_FLAG, FIGHT),
    F("drive_back_cm", "Distance the shot unit was driven back, in cm (volley: unit B; "
      "shooting first: the charger).", drive_back_cm, OM_FIELD_COUNT, ALL),
    F("confused_a", "1 if unit A ended confused (in a volley, by its own shooting).",
      confused[0], OM_FIELD_FLAG, ALL),
    F("confused_b", "1 if unit B ended confused.", confused[1], OM_FIELD_FLAG, ALL),
    F("routed_a", "1 if unit A was routed by a drive back (shot before it charged).",
      routed[0], OM_FIELD_FLAG, FIGHT),
    F("routed_b", "1 if unit B was routed: driven back beyond its full pace.", routed[1],
      OM_FIELD_FLAG, ALL),
    F("destroyed_a", "1 if unit A was destroyed (any cause; in a volley, by its own "
      "shooting).", destroyed[0], OM_FIELD_FLAG, ALL),
    F("destroyed_b", "1 if unit B was destroyed (any cause, including rout).", destroyed[1],
      OM_FIELD_FLAG, ALL),
    F("hurt_a", "1 if unit A, a big monster, ended badly hurt (Hits and Attacks halved).",
      hurt[0], OM_FIELD_FLAG, FIGHT),
    F("hurt_b", "1 if unit B, a big monster, ended badly hurt (Hits and Attacks halved).",
      hurt[1], OM_FIELD_FLAG, ALL),
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
