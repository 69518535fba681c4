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
