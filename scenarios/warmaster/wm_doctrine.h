/*
 * wm_doctrine.h: doctrine files of Warmaster battles (schema
 * oddsmaster-doctrine/1): how a side plays, as the weights of the candidate
 * orders a doctrine scores each turn (engine/warmaster/doctrine.h), what it
 * maximises, and why (docs/scenario-format.md, "Doctrine files"). The named
 * doctrines (default, aggressive, cautious, shoot-and-hold) are files of
 * scenarios/doctrines/warmaster compiled into the program: their weights are
 * written there and nowhere else. A battle's `doctrine:` names one of them
 * or gives a file's path.
 *
 * Everything here is thread-safe: no global mutable state.
 */
#ifndef OM_WM_DOCTRINE_FILE_H
#define OM_WM_DOCTRINE_FILE_H

#include <stddef.h>

#include "doctrine.h"
#include "status.h"

/* Schema identifier of a doctrine file. */
#define OM_WM_DOCTRINE_SCHEMA "oddsmaster-doctrine/1"

/* Longest summary a doctrine file keeps, with its NUL. */
#define OM_WM_DOCTRINE_SUMMARY_MAX 256

/* Most doctrines compiled in. */
#define OM_WM_DOCTRINE_NAMED_MAX 16

/* A doctrine as a file gives it: the engine's weights and a summary. */
typedef struct om_wm_doctrine_file {
    om_wm_doctrine doctrine;                   /* the weights; its name the file's `name` */
    char summary[OM_WM_DOCTRINE_SUMMARY_MAX];  /* one sentence saying how it plays */
} om_wm_doctrine_file;

/*
 * om_wm_doctrine_parse: read the doctrine file `text` (`len` bytes), named
 * `source` in messages, into *out. Errors (raised "SOURCE:LINE: field 'PATH':
 * REASON"): OM_EPARSE (not YAML, wrong schema, unknown key with the nearest
 * known one suggested, a value that is not a number or true/false), OM_EINVAL
 * (a weight out of its range, the bounds of doctrine.h), OM_ENOTFOUND (an
 * unknown aim, with did-you-mean), OM_ENOMEM. Thread-safe.
 */
om_status om_wm_doctrine_parse(const char *source, const char *text, size_t len,
                               om_wm_doctrine_file *out);

/* Number of doctrines compiled in, and the name of the i-th (NULL past the
 * end), in the order of their files ("default" is one of them). */
size_t om_wm_doctrine_named_count(void);
const char *om_wm_doctrine_named_at(size_t i);

/*
 * om_wm_doctrine_named: the compiled-in doctrine called `name` into *out.
 * Errors: OM_ENOTFOUND (no such doctrine; the message suggests the nearest
 * name), or the errors of om_wm_doctrine_parse for a file that fails (a
 * defect, which the tests rule out). Thread-safe.
 */
om_status om_wm_doctrine_named(const char *name, om_wm_doctrine_file *out);

#endif /* OM_WM_DOCTRINE_FILE_H */
