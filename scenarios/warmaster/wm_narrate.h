/*
 * wm_narrate.h: one Warmaster battle told in English from its event trace
 * (engine/warmaster/trace.h), and its table as a picture for a chart
 * (engine/core/picture.h). The engine records numbers; the words are here.
 */
#ifndef OM_WM_NARRATE_H
#define OM_WM_NARRATE_H

#include <stddef.h>
#include <stdio.h>

#include "picture.h"
#include "status.h"
#include "magic.h"
#include "table.h"
#include "trace.h"

/*
 * om_wm_narrate_print: write the events ev[0..n) of a battle fought on the
 * table `start` (as deployed: the units' and characters' names) to `out`, a
 * heading line for every turn and one line an event (each spell named from
 * `spells`, the battle's spellbook; NULL: by its number), then a note if
 * `dropped` events found no room. side_name[s] names each army. Errors:
 * OM_EIO (a write failed).
 */
om_status om_wm_narrate_print(FILE *out, const om_wm_table *start, const om_wm_spellbook *spells,
                              const char *const side_name[2], const om_wm_event *ev, size_t n,
                              size_t dropped);

/*
 * om_wm_narrate_picture: the picture of table `t` (units at their places and
 * facings, gone ones marked, terrain, the deployment zones of the rule set:
 * `zone` cm from each edge), titled `title`, with each army's name. Pure.
 */
void om_wm_narrate_picture(const om_wm_table *t, const char *const side_name[2], double zone,
                           const char *title, om_picture *pic);

#endif /* OM_WM_NARRATE_H */
