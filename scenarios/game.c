/*
 * game.c: the registry of game families and what every game shares (game.h):
 * choosing the game of a scenario text by its rule set, loading and freeing
 * scenarios, preparing them for trials.
 */
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "yaml_int.h"

/* The game families (wm_game.c, ...). */
extern const om_game om_game_warmaster;

const om_game *const om_games[] = {&om_game_warmaster};
const size_t om_game_count = sizeof om_games / sizeof om_games[0];

/* Generated at build time from default.yaml by embed_text.py (meson.build). */
extern const char om_scenario_default_yaml[];

const om_game *om_game_for_ruleset(const char *ruleset)
{
    for (size_t g = 0; g < om_game_count; g++)
        for (const char *const *r = om_games[g]->rulesets; *r; r++)
            if (strcmp(*r, ruleset) == 0)
                return om_games[g];
    return NULL;
}

/* The game of a scenario text: the one owning its top-level `ruleset` value,
 * else the first game (whose loader then reports the missing or unknown rule
 * set, or the malformed text, in its own words). */
static const om_game *game_of_text(const char *text, size_t len)
{
    om_yaml_walk w;
    const om_game *g = NULL;
    om_yaml_walk_run(&w, text, len, "", "ruleset");
    if (w.found)
        g = om_game_for_ruleset(w.value);
    return g ? g : om_games[0];
}

om_status om_scenario_load_text(const char *source, const char *text, size_t len,
                                om_scenario **out)
{
    om_scenario *sc;
    om_status st;

    *out = NULL;
    sc = calloc(1, sizeof *sc);
    if (sc == NULL || (sc->source = strdup(source ? source : "<text>")) == NULL ||
        (sc->text = om_yaml_dup(text, len)) == NULL) {
        om_scenario_free(sc);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source ? source : "<text>");
    }
    sc->game = game_of_text(text, len);
    if ((st = sc->game->load(sc)) != OM_OK) {
        om_scenario_free(sc);
        return st;
    }
    *out = sc;
    return OM_OK;
}

om_status om_scenario_load_file(const char *path, om_scenario **out)
{
    char *text = NULL;
    size_t len = 0;
    om_status st;
    *out = NULL;
    if ((st = om_yaml_read_file(path, &text, &len)) != OM_OK)
        return st;
    st = om_scenario_load_text(path, text, len, out);
    free(text);
    return st;
}

om_status om_scenario_load_default(om_scenario **out)
{
    return om_scenario_load_text(OM_SCENARIO_DEFAULT_NAME, om_scenario_default_yaml,
                                 strlen(om_scenario_default_yaml), out);
}

void om_scenario_free(om_scenario *sc)
{
    if (sc == NULL)
        return;
    if (sc->game != NULL && sc->setup != NULL)
        sc->game->setup_free(sc->setup);
    free(sc->warnings);
    free(sc->provenance_json);
    free(sc->title);
    free(sc->text);
    free(sc->source);
    free(sc);
}

om_status om_trials_prepare(const om_scenario *sc, om_trials *out)
{
    memset(out, 0, sizeof *out);
    out->game = sc->game;
    return sc->game->prepare(sc, out);
}

void om_trials_release(om_trials *t)
{
    if (t != NULL && t->game != NULL && t->prepared != NULL)
        t->game->release(t);
    if (t != NULL)
        t->prepared = NULL;
}
