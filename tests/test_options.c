/*
 * test_options.c: the shared registry of readings of ambiguous rules
 * (engine/core/options.h): lookup, setting a bool and a bounded count through
 * their offsets, refusing fixed readings and bad values, printing values; and
 * that each game's registries keep zero as the recommended reading.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "command.h"
#include "options.h"
#include "turn.h"
#include "wh7.h"
#include "wm.h"

typedef struct demo_options {
    bool alternative;   /* a bool switch */
    uint8_t limit;      /* a count switch, 0..12 */
} demo_options;

static const om_option demo_rows[] = {
    {"alternative", "A1", "Demo > Switch", "Which reading?", "false: the first",
     "true: the other", offsetof(demo_options, alternative), 0},
    {"limit", "-", "Demo > Limit", "How many?", "0: the default", "1..12",
     offsetof(demo_options, limit), 12},
    {"fixed_one", "A2", "Demo > Fixed", "Fixed?", "fixed: yes", "-", OM_OPTION_FIXED, 0},
};
static const om_option_table demo = {"demo", demo_rows, 3};

Test(options, find_set_and_print)
{
    demo_options o = {0};
    char buf[16];
    cr_assert_not_null(om_option_find(&demo, "limit"));
    cr_expect_null(om_option_find(&demo, "limits"));
    cr_expect_str_eq(om_option_value(&demo_rows[0], &o, buf, sizeof buf), "false");
    cr_expect_eq(om_option_set(&demo, &o, "alternative", "true"), OM_OK);
    cr_expect(o.alternative);
    cr_expect_str_eq(om_option_value(&demo_rows[0], &o, buf, sizeof buf), "true");
    cr_expect_eq(om_option_set(&demo, &o, "limit", "12"), OM_OK);
    cr_expect_eq(o.limit, 12);
    cr_expect_str_eq(om_option_value(&demo_rows[1], &o, buf, sizeof buf), "12");
    cr_expect_str_eq(om_option_value(&demo_rows[2], &o, buf, sizeof buf), "fixed");
    cr_expect(!om_option_is_switch(&demo_rows[2]));
}

Test(options, refusals_name_the_option)
{
    demo_options o = {0};
    cr_expect_eq(om_option_set(&demo, &o, "nope", "true"), OM_ENOTFOUND);
    cr_expect(strstr(om_error_message(), "'nope'") != NULL, "%s", om_error_message());
    cr_expect_eq(om_option_set(&demo, &o, "fixed_one", "true"), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "fixed reading") != NULL, "%s", om_error_message());
    cr_expect_eq(om_option_set(&demo, &o, "limit", "13"), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "0 to 12") != NULL, "%s", om_error_message());
    cr_expect_eq(om_option_set(&demo, &o, "limit", "-1"), OM_EINVAL);
    cr_expect_eq(om_option_set(&demo, &o, "limit", "3x"), OM_EINVAL);
    cr_expect_eq(om_option_set(&demo, &o, "alternative", "yes"), OM_EINVAL);
    cr_expect_eq(o.limit, 0, "a refused value changes nothing");
    cr_expect(!o.alternative);
    om_error_clear();
}

/* Every game's registry: names unique, switches first, and a zeroed options
 * struct reads as each switch's recommended reading ("false" or "0"). */
Test(options, every_registry_defaults_to_zero)
{
    const om_option_table *tables[] = {&om_wm_option_registry, &om_wm_command_option_registry,
                                       &om_wm_turn_option_registry, &om_wh7_option_registry};
    unsigned char zero[512] = {0};
    char buf[16];
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        bool fixed_seen = false;
        cr_expect_gt(tables[t]->count, 3u, "%s", tables[t]->what);
        for (size_t i = 0; i < tables[t]->count; i++) {
            const om_option *o = &tables[t]->rows[i];
            for (size_t j = 0; j < i; j++)
                cr_expect_str_neq(o->name, tables[t]->rows[j].name, "%s", tables[t]->what);
            if (!om_option_is_switch(o)) {
                fixed_seen = true;
                continue;
            }
            cr_expect(!fixed_seen, "%s: switch %s after a fixed reading", tables[t]->what,
                      o->name);
            cr_expect_lt(o->offset, sizeof zero);
            cr_expect_str_eq(om_option_value(o, zero, buf, sizeof buf), o->max ? "0" : "false",
                             "%s %s", tables[t]->what, o->name);
        }
    }
}
