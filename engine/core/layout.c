/*
 * layout.c: the names of the winner codes and the field lookup of a layout
 * (layout.h).
 */
#include "layout.h"

#include <string.h>

const char *const om_winner_names[OM_WINNER_CODES] = {"a", "b", "draw", "none"};

int om_layout_find(const om_layout *layout, const char *name)
{
    for (size_t i = 0; i < layout->field_count; i++)
        if (strcmp(layout->fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

size_t om_layout_wide_count(const om_layout *layout)
{
    size_t n = 0;
    for (size_t i = 0; i < layout->field_count; i++)
        n += layout->fields[i].type == OM_FIELD_COUNT16;
    return n;
}
