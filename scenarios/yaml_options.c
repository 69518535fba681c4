/*
 * yaml_options.c: the `options:` mapping of a scenario file, for every game.
 *
 * A scenario names the engine's switches under `options:` (e.g. `options:
 * {max_turns: 5}`); which names exist is decided by the engine's option
 * registries (engine/core/options.h), not by a libcyaml schema, so the loaders
 * hand the mapping here with the registries that apply and the options
 * structs their switches set. One mechanism for the Warmaster engagement, the
 * Warmaster turn (three registries) and WHFB7: the same checks and messages.
 */
#include "yaml_int.h"

#include <stdio.h>
#include <string.h>

/* Most entries an `options:` mapping may hold, and names all its registries
 * may list. */
#define OPTION_PAIRS_MAX 64
#define OPTION_NAMES_MAX 256

/* The reading a fixed reading's default states, without its "fixed: ". */
static const char *fixed_reading(const om_option *o)
{
    return strncmp(o->default_value, "fixed: ", 7) == 0 ? o->default_value + 7
                                                        : o->default_value;
}

/* Raise "unknown option" for entry p: the nearest name of every registry,
 * else every switch. */
static om_status fail_unknown(const om_yaml_ctx *c, const om_yaml_pair *p,
                              const om_yaml_option_set *sets, size_t n_sets)
{
    const char *names[OPTION_NAMES_MAX], *switches[OPTION_NAMES_MAX], *best;
    size_t n = 0, n_switches = 0;
    char known[OM_YAML_REASON_MAX / 2];
    for (size_t s = 0; s < n_sets; s++)
        for (size_t i = 0; i < sets[s].table->count && n < OPTION_NAMES_MAX; i++) {
            const om_option *o = &sets[s].table->rows[i];
            names[n++] = o->name;
            if (om_option_is_switch(o) && sets[s].options != NULL)
                switches[n_switches++] = o->name;
        }
    best = om_suggest(p->key, names, n);
    if (best)
        return om_yaml_fail_at(c, OM_EPARSE, p->line, "options", p->key,
                               "unknown option '%s'; did you mean '%s'? (oddsmaster list "
                               "--options)", p->key, best);
    om_yaml_join_names(known, sizeof known, switches, n_switches);
    return om_yaml_fail_at(c, OM_EPARSE, p->line, "options", p->key,
                           "unknown option '%s'; the switches are: %s (oddsmaster list "
                           "--options)", p->key, known);
}

/* Entry p, switch `o` of set s: a boolean for a bool switch, an integer for
 * a count, set through the registry (which checks the range). */
static om_status conv_switch(const om_yaml_ctx *c, const om_yaml_pair *p,
                             const om_yaml_option_set *s, const om_option *o)
{
    char text[OM_YAML_PAIR_MAX];
    long long v = 0;
    bool b = false;
    int rc;
    if (o->max == 0) {
        om_status st = om_yaml_conv_bool(c, "options", p->key, p->value, &b);
        if (st != OM_OK)
            return st;
        snprintf(text, sizeof text, "%s", b ? "true" : "false");
    } else if ((rc = om_yaml_parse_integer(p->value, &v)) == -1) {
        return om_yaml_fail_at(c, OM_EPARSE, p->line, "options", p->key,
                               "expected an integer, got '%s'", p->value);
    } else if (rc == 0) {
        snprintf(text, sizeof text, "%lld", v);
    } else {
        /* Beyond any long long: the registry's range check says so. */
        snprintf(text, sizeof text, "%s", p->value);
    }
    if (om_option_set(s->table, s->options, p->key, text) != OM_OK)
        return om_yaml_fail_at(c, om_error_code(), p->line, "options", p->key, "%s",
                               om_error_message());
    return OM_OK;
}

om_status om_yaml_conv_option(const om_yaml_ctx *c, const om_yaml_pair *p,
                              const om_yaml_option_set *sets, size_t n_sets)
{
    for (size_t s = 0; s < n_sets; s++) {
        const om_option *o = om_option_find(sets[s].table, p->key);
        if (o == NULL)
            continue;
        if (!om_option_is_switch(o) || sets[s].options == NULL)
            return om_yaml_fail_at(c, OM_EINVAL, p->line, "options", p->key,
                                   "'%s' is a fixed reading, not a switch: %s (%s; %s); "
                                   "remove it (oddsmaster list --options)", p->key,
                                   fixed_reading(o), o->ambiguity, o->section);
        return conv_switch(c, p, &sets[s], o);
    }
    return fail_unknown(c, p, sets, n_sets);
}

om_status om_yaml_conv_options(const om_yaml_ctx *c, const char *example,
                               const om_yaml_option_set *sets, size_t n_sets)
{
    om_yaml_pair pairs[OPTION_PAIRS_MAX];
    char expects[160];
    size_t n = 0;
    om_status st;
    snprintf(expects, sizeof expects,
             "a mapping of option names to values, e.g. 'options: {%s}' (oddsmaster list "
             "--options)", example);
    st = om_yaml_scalar_map(c, "options", expects, pairs, OPTION_PAIRS_MAX, &n);
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        for (size_t k = 0; k < i; k++)
            if (strcmp(pairs[k].key, pairs[i].key) == 0)
                return om_yaml_fail_at(c, OM_EPARSE, pairs[i].line, "options", pairs[i].key,
                                       "duplicate option '%s' (first given at line %zu)",
                                       pairs[i].key, pairs[k].line);
        st = om_yaml_conv_option(c, &pairs[i], sets, n_sets);
    }
    return st;
}
