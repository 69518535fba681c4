/*
 * wm_game_int.h: private interface between the files that make Warmaster a
 * game of the game interface (wm_game.c, wm_matrix.c, wm_listing.c).
 */
#ifndef OM_WM_GAME_INT_H
#define OM_WM_GAME_INT_H

#include "game.h"
#include "wm.h"

/* The Warmaster game (wm_game.c) and its rule sets (NULL-terminated). */
extern const om_game om_game_warmaster;
#define OM_WM_GAME_RULESETS 3
extern const char *const om_wm_game_rulesets[OM_WM_GAME_RULESETS + 1];

/* Its kinds of scenario file (NULL-terminated): the engine's kinds
 * (om_wm_kind_names, in om_wm_kind order), then `turn`, read by the loader of
 * whole turns. The game's kind table (om_game_warmaster.kinds) and every list
 * of kinds shown to people (`list`, `list --keys`, the message of an unknown
 * kind) come from it. */
#define OM_WM_GAME_KINDS (OM_WM_KIND_COUNT + 2)
extern const char *const om_wm_game_kind_names[OM_WM_GAME_KINDS + 1];

/* Matchup matrices (wm_matrix.c): the situations, the kinds a matrix runs,
 * and the game's units and cell functions (game.h documents them). */
#define OM_WM_MATRIX_SITUATIONS 6
extern const om_game_situation om_wm_matrix_situations_table[OM_WM_MATRIX_SITUATIONS];
extern const char *const om_wm_matrix_kinds[];
om_status om_wm_matrix_units(const char *ruleset, const char *spec, om_game_unit **units,
                             size_t *n);
void om_wm_matrix_units_free(om_game_unit *units, size_t n);
om_status om_wm_matrix_cell(const char *ruleset, const char *kind, size_t sit,
                            const om_game_unit *row, const om_game_unit *col,
                            const om_game_setting *settings, size_t n_settings,
                            uint64_t seed, om_scenario **out, unsigned *cannot);

/* `oddsmaster list` of the Warmaster rule sets (wm_listing.c; the
 * catalogue's `list`, game.h documents it). */
om_status om_wm_game_list(const char *ruleset, const char *what, bool rules,
                          om_game_listing **out);

/* The doctrines of Warmaster battles: the named ones compiled in (`text`
 * NULL) or one doctrine file (wm_listing.c; the battles group's
 * `doctrines`, game.h documents it). */
om_status om_wm_doctrine_listing(const char *source, const char *text, size_t len,
                                 om_game_listing **out);

/* The names under a Warmaster rule set's RULESET/WHAT (wm_listing.c; the
 * catalogue's `names`, game.h documents it). */
om_status om_wm_game_names(const char *ruleset, const char *what, om_game_name_fn each,
                           void *ctx);

/* The scenario text of a battle asked for on the command line
 * (wm_battle_spec.c; the battles group's battle_text, game.h). */
om_status om_wm_battle_text(const om_game_battle_spec *spec, char **text);

/*
 * om_wm_battle_unmodelled: what battle `b` does not model, unit by unit: the
 * special rules of each unit the engine does not model (its unmodelled
 * list), a unit's magic item without a modelled effect, a character's bonus
 * Attacks to the unit it joins, its magic item (but a Wizard's casting device
 * or a General's device of power, om_wm_spells_character_item_played) and
 * its special rules but those
 * a battle plays (om_wm_battle_character_rule_played; wm_battle_spec.c). Into
 * *warnings one line a unit or character,
 * "NAME (ID): not modelled: RULE, RULE\n" (NULL: none), and into the JSON
 * object *provenance_json (replaced) the members "not_modelled" (an object:
 * each such unit's id to the array of its rules) and "warnings" (the lines,
 * an array, empty when none). Errors: OM_ENOMEM.
 */
struct om_wm_battle_scenario;
om_status om_wm_battle_unmodelled(const struct om_wm_battle_scenario *b, char **warnings,
                                  char **provenance_json);

#endif /* OM_WM_GAME_INT_H */
