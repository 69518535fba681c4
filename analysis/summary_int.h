/*
 * summary_int.h: the parts of a summary summary.c leaves to
 * summary_battle.c: what a file's layout declares beyond its fields' own
 * laws (the score margin, the units whose loss went with the outcome) and
 * the lines its scenario names as left out, read and printed.
 */
#ifndef OM_SUMMARY_INT_H
#define OM_SUMMARY_INT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "summary.h"

/*
 * om_summary_fill_declared: fill s->margin, s->unit_lost_field, s->deciders
 * and s->warnings from the file (its root attributes score_field_a/b,
 * unit_lost_field and options_json, and its rows); s's fields, units and
 * confidence are set. What the file does not declare is left empty; a
 * declared field the file lacks is left unknown. Errors: OM_EHDF5 (a row
 * that cannot be read), OM_ENOMEM.
 */
om_status om_summary_fill_declared(om_h5_reader *r, om_summary *s);

/* Whether unit field `name` of the file is a part of a two-byte unit value
 * the file declares (unit_given_field, unit_scored_field, or the high byte of
 * either, OM_LAYOUT_HIGH_SUFFIX): shown by om_summary_text_unit_points, not
 * as a unit field of its own. Errors: OM_EHDF5 (an attribute unreadable),
 * OM_ENOMEM. */
om_status om_summary_unit_field_declared(om_h5_reader *r, const char *name, bool *out);

/* Free what om_summary_fill_declared set in s. */
void om_summary_free_declared(om_summary *s);

/* The text of those parts: the margin after the outcome, the units that
 * decided and the lines left out at the end. */
void om_summary_text_margin(const om_summary *s, FILE *out, const char *ci);
void om_summary_text_deciders(const om_summary *s, FILE *out, const char *ci);
void om_summary_text_unit_points(const om_summary *s, FILE *out, const char *ci);
void om_summary_text_warnings(const om_summary *s, FILE *out);

/* Add them to the JSON object `root` as "margin", "decided_by", "unit_points"
 * and "not_modelled" (null where unknown). Returns 0, or -1 when memory ran out. */
int om_summary_json_declared(const om_summary *s, json_t *root);

#endif /* OM_SUMMARY_INT_H */
