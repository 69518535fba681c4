/*
 * suggest.c: the one "did you mean" of the program (suggest.h): an edit
 * distance, and the choice of the nearest known name, which the command
 * line, the scenario loaders and the readers of result files all call, so a
 * misspelt name gets the same kind of answer wherever it is typed.
 */
#include "suggest.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* Longest string om_suggest_distance compares; longer ones are "far". Unit and
 * rule ids are at most 40 bytes. */
#define EDIT_LEN_MAX 64

/* Names shorter than this must start with the right letter to be suggested:
 * two edits turn most four-letter words into others ("fear" into "bear"). */
#define SUGGEST_SHORT_LEN 6

size_t om_suggest_distance(const char *a, const char *b, size_t cap)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t prev[EDIT_LEN_MAX + 1], cur[EDIT_LEN_MAX + 1];
    if (la > EDIT_LEN_MAX || lb > EDIT_LEN_MAX || (la > lb ? la - lb : lb - la) > cap)
        return cap + 1;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb] <= cap ? prev[lb] : cap + 1;
}

/* Lower-case `s` with spaces and underscores as dashes, the way ids are
 * written ("Black Orcs" -> "black-orcs"); false if it does not fit. */
static bool normalise_id(const char *s, char *out, size_t cap)
{
    size_t n = strlen(s);
    if (n >= cap)
        return false;
    for (size_t i = 0; i <= n; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[i] = ch == ' ' || ch == '_' ? '-' : (char)tolower(ch);
    }
    return true;
}

/* Is `a` the dash-separated beginning of `b` ("orcs" of "orcs-goblins")? */
static bool is_word_prefix(const char *a, const char *b)
{
    size_t n = strlen(a);
    return n > 0 && strncmp(a, b, n) == 0 && b[n] == '-';
}

const char *om_suggest(const char *name, const char *const *names, size_t n)
{
    char want[EDIT_LEN_MAX + 1], have[EDIT_LEN_MAX + 1];
    const char *best = NULL;
    size_t best_d, cap;

    if (!normalise_id(name, want, sizeof want))
        return NULL;
    /* A quarter of the letters wrong still reads as the same name. */
    cap = strlen(want) / 4 > OM_SUGGEST_DISTANCE_MIN ? strlen(want) / 4 : OM_SUGGEST_DISTANCE_MIN;
    best_d = cap + 1;
    for (size_t i = 0; i < n; i++) {
        if (!names[i] || !normalise_id(names[i], have, sizeof have))
            continue;
        if (strlen(want) < SUGGEST_SHORT_LEN && want[0] != have[0])
            continue;
        size_t d = strcmp(want, have) == 0 ? 0 : om_suggest_distance(want, have, cap);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    if (best)
        return best;
    for (size_t i = 0; i < n; i++) {
        if (!names[i] || !normalise_id(names[i], have, sizeof have))
            continue;
        if (is_word_prefix(have, want) || is_word_prefix(want, have))
            return names[i];
    }
    return NULL;
}
