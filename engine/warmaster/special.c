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
