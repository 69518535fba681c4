/*
 * cell_text_int.h: the scenario text of a matchup matrix's cell, for every
 * game's matrix (wm_matrix.c, wh7_matrix.c). A cell's text is written to the
 * matrix file so that `oddsmaster run` of it with the cell's seed reproduces
 * the cell; the games share its preamble (comments, schema, title) and the
 * growing-string helpers, and each writes its own sides.
 */
#ifndef OM_CELL_TEXT_INT_H
#define OM_CELL_TEXT_INT_H

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

/* Append `text` as a YAML double-quoted scalar (names may hold ':' or
 * quotes); false when out of memory. */
bool om_cell_append_quoted(char **buf, size_t *len, const char *text);

/*
 * om_cell_preamble: start a cell's text: comments naming the row and column
 * units, the situation and the seed, how to reproduce it, and why it is
 * outside the rating when `cannot` (OM_GAME_ROW_CANNOT and/or
 * OM_GAME_COL_CANNOT) says so; then "schema:", "title:" (quoted), "ruleset:"
 * and "kind:". False when out of memory.
 */
bool om_cell_preamble(char **buf, size_t *len, const om_game_unit *row, const om_game_unit *col,
                      const char *situation, uint64_t seed, unsigned cannot, const char *title,
                      const char *ruleset, const char *kind);

#endif /* OM_CELL_TEXT_INT_H */
