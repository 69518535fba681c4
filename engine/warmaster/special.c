/*
 * special.c: the registry of special rules the engine implements.
 *
 * Army data names special rules by id (scenarios/armies/special-rules.yaml).
 * This table is the single source of truth for which of them the engine
 * models: an id found here sets its flag on the unit; an id not found is
 * carried as "not modelled" and reported, never silently dropped.
 */
#include <string.h>

#include "wm.h"

static const om_wm_special om_wm_specials[] = {
    {"terror", OM_WM_RULE_TERROR,
     "enemy stands in contact fight at -1 Attack unless they also cause terror", "6.4"},
    {"shots-no-save", OM_WM_RULE_SHOTS_NO_SAVE,
     "its shooting allows no armour save (cannon, stone thrower, bolt thrower)", "5.3"},
    {"warband", OM_WM_RULE_WARBAND,
     "+1 Attack per stand pursuing, -1 in the round after retreating; one drive-back die "
     "fewer before losing a stand, one more after", "WMA 14 Warband; seed 001 l.4633"},
    {"shock", OM_WM_RULE_SHOCK,
     "based on the long edge (side key long_base): +1 Attack per stand charging or pursuing, "
     "even against defended enemies (A24)", "WMA 14 Shock; seed 001 l.4586"},
    {"heavy-chariots", OM_WM_RULE_HEAVY_CHARIOT,
     "+1 more Attack per stand charging enemy in the open (+2 in all)", "seed 001 l.4524"},
    {"scythed-chariots", OM_WM_RULE_SCYTHED,
     "+2 charging in the open; fights one round and is then removed as destroyed; a unit "
     "retreating from it after suffering a hit is confused", "seed 001 l.4563-4573"},
    {"shieldwall", OM_WM_RULE_SHIELDWALL,
     "armour one better in the first round when charged, unless fortified or in dense "
     "terrain", "seed 001 l.4575-4579"},
    {"phalanx", OM_WM_RULE_PHALANX,
     "stands striking to a side or rear edge have base Attack 0; rear supports do not count",
     "seed 001 l.4550-4561"},
    {"legion", OM_WM_RULE_LEGION,
     "first round: +1 to the result per stand fighting to its front with no enemy on its "
     "side or rear", "seed 001 l.4526-4530"},
    {"maniple", OM_WM_RULE_MANIPLE,
     "after armour, a D6 per rear-supporting stand of another maniple unit; each 6 saves a "
     "hit", "seed 001 l.4546-4548"},
    {"fanatics", OM_WM_RULE_FANATICS,
     "immune to terror, never driven back by shooting, must pursue when allowed",
     "seed 001 l.4501-4507"},
    {"heavy-artillery", OM_WM_RULE_NO_STAND_AND_SHOOT | OM_WM_RULE_SHOTS_NO_SAVE,
     "shooting allows no armour save; cannot shoot at chargers", "seed 001 l.4513-4515"},
    {"light-artillery", OM_WM_RULE_SHOTS_NO_SAVE,
     "shooting allows no armour save; may shoot at chargers (its piercing of 3 stands is "
     "not modelled)", "seed 001 l.4536-4544"},
    {"hermann", OM_WM_RULE_HERMANN,
     "one extra Attack die per unit in the first round when it charges, even against "
     "defended enemies", "seed 001 l.3882"},
    {"skirmish", OM_WM_RULE_SKIRMISH,
     "skirmish infantry supports only from the side: its rear supports do not count "
     "(evading is not modelled yet)", "seed 001 l.1780-1782, l.4606"},
};

const om_wm_special *om_wm_special_find(const char *id)
{
    for (size_t i = 0; i < sizeof om_wm_specials / sizeof om_wm_specials[0]; i++)
        if (strcmp(om_wm_specials[i].id, id) == 0)
            return &om_wm_specials[i];
    return NULL;
}

size_t om_wm_special_count(void) { return sizeof om_wm_specials / sizeof om_wm_specials[0]; }

const om_wm_special *om_wm_special_at(size_t i)
{
    return i < om_wm_special_count() ? &om_wm_specials[i] : NULL;
}
