/*
 * matrix_common.c: what every game's matchup matrix shares: the list of the
 * units it rates and a cell's scenario text (see matrix_int.h).
 */
#include "matrix_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

om_status om_unit_list_add(om_unit_list *l, const char *id, om_game_unit **out)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->units[i].id, id) == 0)
            return OM_ERROR(OM_EINVAL, "%s is listed twice", id);
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        om_game_unit *grown = realloc(l->units, cap * sizeof *grown);
        if (grown == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory listing units");
        l->units = grown;
        l->cap = cap;
    }
    *out = &l->units[l->n++];
    memset(*out, 0, sizeof **out);
    snprintf((*out)->id, sizeof (*out)->id, "%s", id);
    return OM_OK;
}

bool om_cell_appendf(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *grown;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (grown = realloc(*buf, *len + (size_t)n + 1)) == NULL)
        return false;
    *buf = grown;
    va_start(ap, fmt);
    vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
    return true;
}

/* Append `text` as a YAML double-quoted scalar (names may hold ':' or
 * quotes); false when out of memory. */
static bool append_quoted(char **buf, size_t *len, const char *text)
{
    bool ok = om_cell_appendf(buf, len, "\"");
    for (const char *p = text; ok && *p; p++)
        ok = (*p == '"' || *p == '\\') ? om_cell_appendf(buf, len, "\\%c", *p)
                                       : om_cell_appendf(buf, len, "%c", *p);
    return ok && om_cell_appendf(buf, len, "\"");
}

bool om_cell_preamble(char **buf, size_t *len, const om_game_unit *row, const om_game_unit *col,
                      const char *situation, uint64_t seed, unsigned cannot, const char *title,
                      const char *ruleset, const char *kind, const om_game_setting *settings,
                      size_t n)
{
    bool ok = om_cell_appendf(buf, len,
                              "# Matrix cell: %s vs %s, situation %s; seed %llu.\n"
                              "# Reproduce: oddsmaster run THIS_FILE --seed %llu --trials <the "
                              "cell's trials>, with --trial-streams if the matrix had them\n",
                              row->id, col->id, situation, (unsigned long long)seed,
                              (unsigned long long)seed);
    if (ok && cannot)
        ok = om_cell_appendf(buf, len, "# Outside the rating: the %s unit has no part in this "
                             "situation.\n", cannot == OM_GAME_ROW_CANNOT ? "row"
                             : cannot == OM_GAME_COL_CANNOT ? "column" : "row and the column");
    ok = ok && om_cell_appendf(buf, len, "schema: oddsmaster-scenario/1\ntitle: ") &&
         append_quoted(buf, len, title) &&
         om_cell_appendf(buf, len, "\nruleset: %s\nkind: %s\n", ruleset, kind);
    if (ok && n > 0)
        ok = om_cell_appendf(buf, len, "options:\n");
    for (size_t i = 0; ok && i < n; i++)
        ok = om_cell_appendf(buf, len, "  %s: %s\n", settings[i].key, settings[i].value);
    return ok;
}

om_status om_cell_settings_apply(const om_game *g, const char *kind, const om_option_table *table,
                                 void *options, const om_game_setting *settings, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const om_game_setting *s = &settings[i];
        if (om_option_find(table, s->key) == NULL) {
            const char *what = "another part of the game";
            for (const om_option_table *const *t = g->catalogue->option_tables; t && *t; t++)
                if (om_option_find(*t, s->key) != NULL)
                    what = (*t)->what;
            return OM_ERROR(OM_EINVAL, "--option %s=%s: '%s' is a reading of %s, which a matrix "
                            "of %s cells does not read (oddsmaster list --options)", s->key,
                            s->value, s->key, what, kind);
        }
        if (om_option_set(table, options, s->key, s->value) != OM_OK)
            return OM_ERROR(OM_EINVAL, "--option %s=%s: %s", s->key, s->value,
                            om_error_message());
    }
    return OM_OK;
}
