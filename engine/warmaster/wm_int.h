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

/* Unsaved hits scored by side `shooter` shooting at the other side (5.2-5.3). */
unsigned om_wm_shoot(const om_wm_prepared *p, om_dice *d, int shooter);

/* Side A shoots at side B in the Shooting phase, with drive back (5.5). */
void om_wm_volley(const om_wm_prepared *p, om_dice *d, om_wm_outcome *o);

/* Stand and shoot, then the first combat round (5.7, 6.3-6.9). */
void om_wm_combat(const om_wm_prepared *p, om_dice *d, om_wm_outcome *o);

#endif /* OM_WM_INT_H */
