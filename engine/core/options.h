/*
 * options.h: registries of the readings of ambiguous rules, for any game and
 * any phase. A registry is a table of rows: a switch is a member of the game's
 * own options struct (a bool, or a small count such as a round limit) that a
 * scenario sets by name under `options:`; a fixed reading is what the engine
 * does, listed so that every choice is visible (`oddsmaster list --options`)
 * and recorded with every run. Zero is always the recommended reading, so a
 * zeroed options struct is the default. Each game keeps its table and its
 * options struct; finding, setting, and printing values are shared here.
 */
#ifndef OM_OPTIONS_H
#define OM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

/* Offset marking a fixed reading (not a member of the options struct). */
#define OM_OPTION_FIXED ((size_t)-1)

/* One reading of an ambiguous rule. */
typedef struct om_option {
    const char *name;          /* key under `options:` in scenario files */
    const char *ambiguity;     /* the digest's ambiguity id ("A6"), a reading of the
                                  abstraction ("R3"), or "-" */
    const char *section;       /* the rule it reads: rulebook and section */
    const char *question;      /* what is ambiguous */
    const char *default_value; /* the recommended reading, the default */
    const char *other_value;   /* the other reading ("-" for a fixed one) */
    size_t offset;             /* member of the options struct, or OM_OPTION_FIXED */
    unsigned max;              /* 0: a bool switch; else a uint8_t count 0..max */
} om_option;

/* A registry: its rows, and what it covers, for listings ("the Command phase"). */
typedef struct om_option_table {
    const char *what;       /* e.g. "engagements" */
    const om_option *rows;  /* the readings, switches first */
    size_t count;           /* entries of rows */
} om_option_table;

/* Whether `opt` is a switch (else a fixed reading). */
static inline bool om_option_is_switch(const om_option *opt)
{
    return opt->offset != OM_OPTION_FIXED;
}

/* The row of table t named `name`, or NULL. */
const om_option *om_option_find(const om_option_table *t, const char *name);

/*
 * om_option_set: set switch `name` of table t in `options` (the table's
 * options struct) from its text: "true" or "false" for a bool, a decimal
 * count 0..max for a count. Errors: OM_ENOTFOUND (no such name), OM_EINVAL (a
 * fixed reading, or a value of the wrong kind or out of range), each message
 * naming the option.
 */
om_status om_option_set(const om_option_table *t, void *options, const char *name,
                        const char *value);

/* The value of `opt` in `options` as text: "true", "false", a count written
 * into buf (of `size` bytes), or "fixed". */
const char *om_option_value(const om_option *opt, const void *options, char *buf, size_t size);

#endif /* OM_OPTIONS_H */
