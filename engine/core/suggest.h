/*
 * suggest.h: "did you mean" for every name a user types: subcommands,
 * options and their words on the command line; rule sets, armies, units,
 * keys and rules in scenario files; fields and situations of result files.
 * One function decides what is near, so that every message suggests alike.
 */
#ifndef OM_SUGGEST_H
#define OM_SUGGEST_H

#include <stddef.h>

/* Largest edit distance at which a short name still earns a suggestion: two
 * catch a dropped, doubled or swapped letter ("atacks", "stnads", "rn"). */
#define OM_SUGGEST_DISTANCE_MIN 2

/*
 * om_suggest_distance: the Levenshtein distance between a and b, capped: cap + 1
 * for anything larger (and for strings longer than 64 bytes). Pure,
 * thread-safe.
 */
size_t om_suggest_distance(const char *a, const char *b, size_t cap);

/*
 * om_suggest: the entry of names[0..n) (NULL entries skipped) that the
 * misspelt `name` most likely meant, or NULL if none is close: the same word
 * in another case (spaces and underscores read as dashes), else the nearest
 * within an edit distance of max(OM_SUGGEST_DISTANCE_MIN, strlen(name) / 4)
 * (a name under 6 letters only among those with its first letter), else a
 * name that is the dash-separated beginning of `name` or begins with it
 * ("orcs-goblins" -> "orcs"). Ties go to the earliest entry. The result
 * points into `names`. Pure, thread-safe.
 */
const char *om_suggest(const char *name, const char *const *names, size_t n);

#endif /* OM_SUGGEST_H */
