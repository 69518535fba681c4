/*
 * picture.h: a battlefield as plain data for a chart: the table's size, the
 * deployment zones, terrain outlines, the units as labelled rectangles at
 * their positions and facings, and the characters, by side. A game fills it from its own table
 * (the Warmaster narrator, scenarios/warmaster/wm_narrate.c); the chart
 * (analysis/chart.c) draws it and knows no game type. Fixed arrays, no
 * allocation: a picture is a value.
 */
#ifndef OM_PICTURE_H
#define OM_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most units, terrain pieces, and corners of a piece a picture holds (a
 * Warmaster table's own limits). */
#define OM_PICTURE_UNITS_MAX 64
#define OM_PICTURE_TERRAIN_MAX 16
#define OM_PICTURE_VERTICES_MAX 8
#define OM_PICTURE_CHARACTERS_MAX 24

/* Longest label, with its NUL. */
#define OM_PICTURE_LABEL_MAX 40

/* A unit: a rectangle centred at (x, y) in cm, its front facing (dx, dy) (a
 * unit vector), `width` along its front and `depth` behind it. */
typedef struct om_picture_unit {
    double x, y;                      /* centre, cm from the table's corner */
    double dx, dy;                    /* the direction its front faces */
    double width, depth;              /* cm */
    uint8_t side;                     /* 0 (A) or 1 (B) */
    bool gone;                        /* destroyed or off the table (not drawn) */
    bool confused;                    /* drawn hatched */
    char label[OM_PICTURE_LABEL_MAX]; /* its name */
} om_picture_unit;

/* A terrain piece: a convex polygon and its kind's name. */
typedef struct om_picture_terrain {
    uint8_t n;                            /* corners, 3..OM_PICTURE_VERTICES_MAX */
    double x[OM_PICTURE_VERTICES_MAX];    /* corners, cm */
    double y[OM_PICTURE_VERTICES_MAX];
    char label[OM_PICTURE_LABEL_MAX];     /* e.g. "wood" */
} om_picture_terrain;

/* A character: a small round base at (x, y), by side. */
typedef struct om_picture_character {
    double x, y;                      /* centre, cm */
    uint8_t side;                     /* 0 (A) or 1 (B) */
    bool gone;                        /* slain (not drawn) */
    char label[OM_PICTURE_LABEL_MAX]; /* e.g. "General" */
} om_picture_character;

/* A battlefield: side A's edge is y = 0, side B's y = depth. */
typedef struct om_picture {
    char title[160];                            /* drawn above the table */
    char side_name[2][OM_PICTURE_LABEL_MAX];    /* each side's army, for the key */
    double width, depth;                        /* the table, cm */
    double zone[2];                             /* each side's deployment zone: from its
                                                   edge to this depth, cm (0: none drawn) */
    size_t n_units;
    om_picture_unit unit[OM_PICTURE_UNITS_MAX];
    size_t n_terrain;
    om_picture_terrain terrain[OM_PICTURE_TERRAIN_MAX];
    size_t n_characters;
    om_picture_character character[OM_PICTURE_CHARACTERS_MAX];
} om_picture;

#endif /* OM_PICTURE_H */
