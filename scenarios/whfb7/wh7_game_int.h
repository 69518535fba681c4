/*
 * wh7_game_int.h: private interface between the files that make Warhammer
 * Fantasy Battles 7th edition a game of the game interface (game.h):
 * wh7_game.c (the descriptor, fields and victory points), wh7_matrix.c
 * (matchup matrices), wh7_listing.c (`oddsmaster list whfb7`) and
 * wh7_provenance.c (what result files record).
 */
#ifndef OM_WH7_GAME_INT_H
#define OM_WH7_GAME_INT_H

#include "game.h"
#include "wh7_scenario.h"

/* The WHFB 7th edition game (wh7_game.c). */
extern const om_game om_game_whfb7;

/* Matchup matrices (wh7_matrix.c): the situations, the kinds a matrix runs,
 * and the game's units and cell functions (game.h documents them). */
#define OM_WH7_MATRIX_SITUATIONS 4
extern const om_game_situation om_wh7_matrix_situations_table[OM_WH7_MATRIX_SITUATIONS];
extern const char *const om_wh7_matrix_kinds[];
om_status om_wh7_matrix_units(const char *ruleset, const char *spec, om_game_unit **units,
                              size_t *n);
void om_wh7_matrix_units_free(om_game_unit *units, size_t n);
om_status om_wh7_matrix_cell(const char *ruleset, const char *kind, size_t sit,
                             const om_game_unit *row, const om_game_unit *col,
                             const om_game_setting *settings, size_t n_settings,
                             uint64_t seed, om_scenario **out, unsigned *cannot);

/*
 * om_wh7_game_setup: make *sc (source, text and title set by the caller or
 * to be set from ws) the game's scenario of `ws`, which it takes over: rule
 * set, kind, provenance and warnings. On error ws is freed with the
 * scenario. Errors: OM_ENOMEM.
 */
om_status om_wh7_game_setup(om_scenario *sc, om_wh7_scenario *ws);

/* `oddsmaster list whfb7[/WHAT]` (wh7_listing.c; game.h's `list`). */
om_status om_wh7_game_list(const char *ruleset, const char *what, bool rules,
                           om_game_listing **out);

/* The names under whfb7/WHAT (wh7_listing.c; the catalogue's `names`, game.h
 * documents it). */
om_status om_wh7_game_names(const char *ruleset, const char *what, om_game_name_fn each,
                            void *ctx);

/*
 * om_wh7_provenance_json: every value of scenario `s` as resolved (defaults
 * included), its kind, both sides, the casting attempt and every reading of
 * the engine's option registry (switches with their value, fixed readings
 * with their text), as one JSON object in *out (malloc, the caller's).
 * Errors: OM_ENOMEM.
 */
om_status om_wh7_provenance_json(const om_wh7_scenario *s, char **out);

#endif /* OM_WH7_GAME_INT_H */
