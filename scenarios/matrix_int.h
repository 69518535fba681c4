/*
 * matrix_int.h: what every game's matchup matrix (wm_matrix.c, wh7_matrix.c)
 * shares: the growing list of the units a matrix rates, and a cell's scenario
 * text. A cell's text is written to the matrix file so that `oddsmaster run`
 * of it with the cell's seed reproduces the cell; the games share its
 * preamble (comments, schema, title) and the growing-string helpers, and each
 * writes its own sides.
 */
#ifndef OM_MATRIX_INT_H
#define OM_MATRIX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* Append printf output to the string *buf of *len bytes (NUL-terminated,
 * NULL when empty), growing it; false when out of memory (*buf is then still
 * the caller's to free). */
bool om_cell_appendf(char **buf, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * om_cell_preamble: start a cell's text: comments naming the row and column
 * units, the situation and the seed, how to reproduce it, and why it is
 * outside the rating when `cannot` (OM_GAME_ROW_CANNOT and/or
 * OM_GAME_COL_CANNOT) says so; then "schema:", "title:" (quoted), "ruleset:"
 * and "kind:", and the readings settings[0..n) as an "options:" mapping
 * (none: no mapping). False when out of memory.
 */
bool om_cell_preamble(char **buf, size_t *len, const om_game_unit *row, const om_game_unit *col,
                      const char *situation, uint64_t seed, unsigned cannot, const char *title,
                      const char *ruleset, const char *kind, const om_game_setting *settings,
                      size_t n);

/*
 * om_cell_settings_apply: set the readings settings[0..n) of game g (checked
 * by om_game_settings_parse) in `options`, the options struct of `table`,
 * the registry whose switches a cell of `kind` reads (through om_option_set,
 * as a scenario's options: sets them). Errors: OM_EINVAL for a switch of
 * another registry of g ("--option KEY=VALUE: 'KEY' is a reading of WHAT,
 * which a matrix of KIND cells does not read"), or one om_option_set
 * refuses.
 */
om_status om_cell_settings_apply(const om_game *g, const char *kind, const om_option_table *table,
                                 void *options, const om_game_setting *settings, size_t n);

/* The units of a matrix being listed (game.h's `units` hook fills one). */
typedef struct om_unit_list {
    om_game_unit *units; /* the units, owned by the caller */
    size_t n, cap;       /* used, allocated */
} om_unit_list;

/*
 * om_unit_list_add: append a unit of this id, all else zero, and point *out
 * at it for the game to fill. Errors: OM_EINVAL when a unit of this id is
 * already listed ("ID is listed twice"), OM_ENOMEM; the list is then as it was.
 */
om_status om_unit_list_add(om_unit_list *l, const char *id, om_game_unit **out);

#endif /* OM_MATRIX_INT_H */
