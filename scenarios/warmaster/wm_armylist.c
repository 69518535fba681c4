/*
 * wm_armylist.c: army list files of Warmaster (wm_armylist.h): an army chosen
 * from one of the army lists (army.h, scenarios/armies/), loaded the way
 * every file of scenarios/ is (yaml_int.h: a libyaml walk checks the shape,
 * libcyaml maps it onto strings, the strings are converted by hand, every
 * failure one message "FILE:LINE: field 'PATH': REASON"), checked against
 * the rules for choosing an army, and turned into a plain struct of units
 * with their stat lines and characters with their mounts and items.
 *
 * LIST FILE FORMAT (schema "oddsmaster-wm-list/1"; scenarios/lists/warmaster/)
 *
 *   schema: oddsmaster-wm-list/1    required
 *   ruleset: warmaster-revolution   required: warmaster-1.1,
 *                                   warmaster-revolution or warmaster-ancients
 *   army: empire                    required: an army of the rule set
 *                                   (oddsmaster list RULESET)
 *   name: Empire battle line        required: the list's name
 *   points: 2000                    required: the points limit, the army's
 *                                   size (1..100000)
 *   notes: ...                      optional: free text
 *   units:                          required, at least one entry:
 *     - unit: halberdiers           required: a unit of the army (not a
 *                                   character, mount or upgrade)
 *       count: 4                    optional: how many (1..99, default 1)
 *       upgrades: [handgunners]     optional: upgrades of the army each of
 *                                   these units takes
 *       magic_item: battle-banner   optional: its magic item (count 1 only)
 *   characters:                     optional:
 *     - character: general          required: a general, hero or wizard
 *       mount: griffon              optional: a mount of the army it may ride
 *       upgrades: [scipio]          optional: upgrades of the army it takes
 *       magic_item: orb-of-majesty  optional: its magic item
 *
 * THE CHECKS, as the rulebooks state them:
 *   - Points: "Armies can have fewer points than the value indicated but
 *     cannot have more" (Warmaster Ancients, The Armies > Picking the Army;
 *     the same in every Warmaster game).
 *   - Min/Max: each unit and character of the list at least min and at most
 *     max times per full 1,000 points of the agreed army size (Warmaster
 *     Rules Update, P127 Units/Characters, for 1.1 and the Revolution lists;
 *     Warmaster Ancients, The Armies > Picking the Army, which also ignores
 *     the minimums below 1,000 points); the army data's whole-army limits
 *     (army_min, army_max: the General's exactly one, a War Altar's at most
 *     one) replace them where given. Upgrades and mounts are counted against
 *     their maximum the same way.
 *   - Magic items (Warmaster Revolution, Magic Items; the 1.1 rulebook,
 *     not among the sources, has the same list, as the Rules Update's
 *     corrections to it show): a unit of infantry, cavalry or chariots or a
 *     character may have one item (one `magic_item` key: one each by
 *     construction), never a monster, artillery or machine; standards go to
 *     units only, devices to the characters they name (or those the list
 *     allows them: magic_item_upgrades); "a specific item may only appear in
 *     an army once". Warmaster Ancients has no magic items.
 *   - Upgrades and mounts: those the army data links to the unit or character
 *     (`upgrades` of its entry); an army whose data links none (Warmaster
 *     Ancients) takes an upgrade on a unit of its type, a General's upgrade
 *     on the General, a mount on a character.
 *
 * What the checks leave out is in docs/rules-coverage.md ("Army list
 * files").
 */
#include "wm_armylist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wm_spells.h"
#include "yaml_int.h"

/* The common magic items, Warmaster Revolution, Magic Items (Magic Standards,
 * Magic Weapons, Devices of Power): names, costs and who may carry them as
 * printed. */
static const om_wm_item items[] = {
    {.id = "battle-banner", .name = "Battle Banner", .kind = OM_WM_ITEM_STANDARD,
     .bearer = OM_WM_BEARER_UNIT, .points = 50, .magic = OM_WM_MAGIC_BATTLE_BANNER},
    {.id = "banner-of-shielding", .name = "Banner of Shielding", .kind = OM_WM_ITEM_STANDARD,
     .bearer = OM_WM_BEARER_UNIT, .points = 50, .magic = OM_WM_MAGIC_SHIELDING},
    {.id = "banner-of-fortitude", .name = "Banner of Fortitude", .kind = OM_WM_ITEM_STANDARD,
     .bearer = OM_WM_BEARER_UNIT, .points = 50, .magic = OM_WM_MAGIC_FORTITUDE},
    {.id = "banner-of-steadfastness", .name = "Banner of Steadfastness",
     .kind = OM_WM_ITEM_STANDARD, .bearer = OM_WM_BEARER_UNIT, .points = 30,
     .magic = OM_WM_MAGIC_STEADFASTNESS},
    {.id = "banner-of-fortune", .name = "Banner of Fortune", .kind = OM_WM_ITEM_STANDARD,
     .bearer = OM_WM_BEARER_UNIT, .points = 20, .magic = OM_WM_MAGIC_NONE},
    {.id = "sword-of-destruction", .name = "Sword of Destruction", .kind = OM_WM_ITEM_WEAPON,
     .bearer = OM_WM_BEARER_UNIT_OR_CHARACTER, .points = 10, .magic = OM_WM_MAGIC_DESTRUCTION},
    {.id = "sword-of-fate", .name = "Sword of Fate", .kind = OM_WM_ITEM_WEAPON,
     .bearer = OM_WM_BEARER_UNIT_OR_CHARACTER, .points = 5, .magic = OM_WM_MAGIC_FATE},
    {.id = "sword-of-cleaving", .name = "Sword of Cleaving", .kind = OM_WM_ITEM_WEAPON,
     .bearer = OM_WM_BEARER_UNIT_OR_CHARACTER, .points = 10, .magic = OM_WM_MAGIC_CLEAVING},
    {.id = "sword-of-might", .name = "Sword of Might", .kind = OM_WM_ITEM_WEAPON,
     .bearer = OM_WM_BEARER_UNIT_OR_CHARACTER, .points = 10, .magic = OM_WM_MAGIC_MIGHT},
    {.id = "crown-of-command", .name = "Crown of Command", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_GENERAL, .points = 100, .magic = OM_WM_MAGIC_NONE},
    {.id = "helm-of-dominion", .name = "Helm of Dominion", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_GENERAL, .points = 50, .magic = OM_WM_MAGIC_NONE},
    {.id = "orb-of-majesty", .name = "Orb of Majesty", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_GENERAL, .points = 30, .magic = OM_WM_MAGIC_NONE},
    {.id = "ring-of-magic", .name = "Ring of Magic", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_WIZARD, .points = 30, .magic = OM_WM_MAGIC_NONE},
    {.id = "staff-of-spellbinding", .name = "Staff of Spellbinding", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_WIZARD_OR_RUNESMITH, .points = 30, .magic = OM_WM_MAGIC_NONE},
    {.id = "sceptre-of-sovereignty", .name = "Sceptre of Sovereignty",
     .kind = OM_WM_ITEM_DEVICE, .bearer = OM_WM_BEARER_GENERAL, .points = 30,
     .magic = OM_WM_MAGIC_NONE},
    {.id = "scroll-of-dispelling", .name = "Scroll of Dispelling", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_WIZARD_OR_RUNESMITH, .points = 20, .magic = OM_WM_MAGIC_NONE},
    {.id = "wand-of-power", .name = "Wand of Power", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_WIZARD, .points = 10, .magic = OM_WM_MAGIC_NONE},
    {.id = "rod-of-repetition", .name = "Rod of Repetition", .kind = OM_WM_ITEM_DEVICE,
     .bearer = OM_WM_BEARER_WIZARD, .points = 10, .magic = OM_WM_MAGIC_NONE},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Longest text of an entry's limits in a message ("min/max 0/1 per 1,000
 * points: 0 to 2 in a 2000-point army"), and of the listing's heading and
 * footer. */
#define LIMITS_TEXT_MAX 160
#define LISTING_TEXT_MAX 512

/* Most rule sets with army lists named in a message (there are three). */
#define RULESETS_MAX 8

/* Where the rules cited by the messages are. */
#define ITEMS_RULE "Warmaster Revolution, Magic Items"
#define POINTS_RULE                                                                            \
    "an army may have fewer points than its size but never more: Warmaster Ancients, The "     \
    "Armies > Picking the Army"

size_t om_wm_item_count(void) { return N(items); }

const om_wm_item *om_wm_item_at(size_t i) { return i < N(items) ? &items[i] : NULL; }

const om_wm_item *om_wm_item_find(const char *id)
{
    for (size_t i = 0; id && i < N(items); i++)
        if (strcmp(items[i].id, id) == 0)
            return &items[i];
    return NULL;
}

static const char *const bearer_names[OM_WM_BEARER_COUNT] = {
    [OM_WM_BEARER_UNIT] = "a unit of infantry, cavalry or chariots",
    [OM_WM_BEARER_UNIT_OR_CHARACTER] = "a unit of infantry, cavalry or chariots, or a character",
    [OM_WM_BEARER_GENERAL] = "the General",
    [OM_WM_BEARER_WIZARD] = "a Wizard",
    [OM_WM_BEARER_WIZARD_OR_RUNESMITH] = "a Wizard or a Dwarf Runesmith",
};

const char *om_wm_item_bearer_name(om_wm_item_bearer b)
{
    return (unsigned)b < OM_WM_BEARER_COUNT ? bearer_names[b] : "";
}

/* The rule of min/max for entry e in a rule set, cited in messages: the
 * army data's limit for the whole army, or the rule of full 1,000s. */
static const char *minmax_rule(const char *ruleset, const om_army_unit *e)
{
    if (strcmp(ruleset, "warmaster-ancients") == 0)
        return "Warmaster Ancients, The Armies > Picking the Army";
    if (e->army_min || e->army_max)
        return "the army list's limit for the whole army";
    return "Warmaster Rules Update, P127 Units/Characters: Min/Max per full 1,000 points";
}

/* ---------------------------------------------------------------------------
 * The raw document.
 */

typedef struct raw_unit {
    char *unit, *count, *magic_item;
    char **upgrades;
    unsigned upgrades_count;
} raw_unit;

typedef struct raw_character {
    char *character, *mount, *magic_item;
    char **upgrades;
    unsigned upgrades_count;
} raw_character;

typedef struct raw_list {
    char *schema, *ruleset, *army, *name, *points, *notes;
    raw_unit *units;
    unsigned units_count;
    raw_character *characters;
    unsigned characters_count;
} raw_list;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, flags, type, member) \
    CYAML_FIELD_STRING_PTR(key, flags, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_value_t string_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t unit_fields[] = {
    STR("unit", REQ, raw_unit, unit),
    STR("count", OPT, raw_unit, count),
    CYAML_FIELD_SEQUENCE("upgrades", OPT, raw_unit, upgrades, &string_entry, 0,
                         OM_WM_ARMYLIST_UPGRADES_MAX),
    STR("magic_item", OPT, raw_unit, magic_item),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t unit_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_unit, unit_fields),
};

static const cyaml_schema_field_t character_fields[] = {
    STR("character", REQ, raw_character, character),
    STR("mount", OPT, raw_character, mount),
    CYAML_FIELD_SEQUENCE("upgrades", OPT, raw_character, upgrades, &string_entry, 0,
                         OM_WM_ARMYLIST_UPGRADES_MAX),
    STR("magic_item", OPT, raw_character, magic_item),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t character_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_character, character_fields),
};

static const cyaml_schema_field_t list_fields[] = {
    STR("schema", REQ, raw_list, schema),
    STR("ruleset", REQ, raw_list, ruleset),
    STR("army", REQ, raw_list, army),
    STR("name", REQ, raw_list, name),
    STR("points", REQ, raw_list, points),
    STR("notes", OPT, raw_list, notes),
    CYAML_FIELD_SEQUENCE("units", REQ, raw_list, units, &unit_entry, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("characters", OPT, raw_list, characters, &character_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t list_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_list, list_fields),
};

#undef STR
#undef REQ
#undef OPT

static const char *const int_keys[] = {"points", "count", NULL};
static const char *const bool_keys[] = {NULL};

static const om_yaml_doc list_doc = {
    .schema = OM_WM_ARMYLIST_SCHEMA,
    .what = "an army list file",
    .keys = "schema, ruleset, army, name, points, units",
    .top = &list_schema,
    .int_keys = int_keys,
    .bool_keys = bool_keys,
    .list_expects = "a list of upgrade ids",
    .entry_expects = "an upgrade id",
    .value_max = OM_YAML_SCALAR_MAX,
};

/* ---------------------------------------------------------------------------
 * Conversion.
 */

/* How often one entry of the army's list is taken, and where it last was. */
typedef struct tally {
    unsigned n;
    char path[OM_YAML_PATH_MAX]; /* the file's entry that took it last */
    const char *leaf;            /* its key there */
} tally;

/* What a conversion works with. */
typedef struct conv {
    const om_yaml_ctx *c;
    const om_army *army;
    const om_wm_ruleset *rs;
    om_wm_armylist *l;
    bool ancients;
    tally *units;    /* one per army->units */
    tally *upgrades; /* one per army->upgrades */
    const om_wm_item *item_used[N(items)]; /* items taken so far */
    char item_path[N(items)][OM_YAML_PATH_MAX]; /* where */
} conv;

/* The index of `id` among n entries, or -1. */
static int index_of(const om_army_unit *e, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].id, id) == 0)
            return (int)i;
    return -1;
}

/* What a name of the file must be. */
typedef enum want {
    WANT_TROOP = 0, /* a unit of the `units` section that fights */
    WANT_CHARACTER, /* a general, hero or wizard */
    WANT_MOUNT,     /* an upgrade of type mount */
    WANT_UPGRADE    /* any other upgrade */
} want;

static const char *const want_names[] = {"unit", "character", "mount", "upgrade"};

static bool wanted(const om_army_unit *e, want w)
{
    switch (w) {
    case WANT_TROOP: return !e->is_upgrade && !om_army_type_is_character(e->type);
    case WANT_CHARACTER: return !e->is_upgrade && om_army_type_is_character(e->type);
    case WANT_MOUNT: return e->is_upgrade && e->type == OM_ARMY_MOUNT;
    case WANT_UPGRADE: return e->is_upgrade && e->type != OM_ARMY_MOUNT;
    }
    return false;
}

/* An id the army does not have as a `w`: OM_ENOTFOUND with the nearest id of
 * that kind, or OM_EINVAL when it names something of another kind. */
static om_status fail_unknown(const conv *v, const char *path, const char *leaf, const char *id,
                              want w)
{
    const om_army *a = v->army;
    const char **names = calloc(a->units_count + a->upgrades_count + 1, sizeof *names);
    const char *best;
    size_t n = 0;
    int up;
    om_status st;
    if (names == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", v->c->source);
    for (size_t i = 0; i < a->units_count; i++) {
        if (wanted(&a->units[i], w))
            names[n++] = a->units[i].id;
        else if (strcmp(a->units[i].id, id) == 0 && w <= WANT_CHARACTER) {
            free(names);
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, leaf,
                                   "'%s' is a %s of %s, not a %s: list it under '%s'", id,
                                   want_names[w == WANT_TROOP ? WANT_CHARACTER : WANT_TROOP],
                                   a->name, want_names[w],
                                   w == WANT_TROOP ? "characters" : "units");
        }
    }
    for (size_t i = 0; i < a->upgrades_count; i++)
        if (wanted(&a->upgrades[i], w))
            names[n++] = a->upgrades[i].id;
    best = om_suggest(id, names, n);
    free(names);
    if (best == NULL && w <= WANT_CHARACTER && (up = index_of(a->upgrades, a->upgrades_count, id)) >= 0) {
        const bool mount = a->upgrades[up].type == OM_ARMY_MOUNT;
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, leaf,
                               "'%s' is an upgrade of %s: give it with '%s' to the %s that "
                               "takes it", id, a->name, mount ? "mount" : "upgrades",
                               mount ? "character" : "unit or character");
    }
    st = om_yaml_fail_at(v->c, OM_ENOTFOUND, 0, path, leaf,
                         "unknown %s '%s' of %s/%s%s%s%s (oddsmaster list %s/%s)", want_names[w],
                         id, v->l->ruleset, a->id, best ? "; did you mean '" : "",
                         best ? best : "", best ? "'?" : "", v->l->ruleset, a->id);
    return st;
}

/* The limits of entry e in this army: *lo and *hi (0: none), and their text
 * for messages. */
static void limits_of(const conv *v, const om_army_unit *e, unsigned *lo, unsigned *hi,
                      char *text, size_t cap)
{
    const unsigned k = v->l->thousands;
    if (e->army_min || e->army_max) {
        *lo = e->army_min;
        *hi = e->army_max;
        if (*lo && *lo == *hi)
            snprintf(text, cap, "exactly %u in any army", *lo);
        else
            snprintf(text, cap, "at most %u in any army", *hi);
        return;
    }
    /* Below 1,000 points the 1,000-point maximums hold; Warmaster Ancients
     * ignores the minimums there, the Rules Update keeps "the standard
     * Min/Max". */
    *lo = k == 0 ? (v->ancients ? 0 : e->min) : e->min * k;
    *hi = e->max * (k == 0 ? 1 : k);
    if (e->max)
        snprintf(text, cap, "min/max %u/%u per 1,000 points: %u to %u in a %u-point army",
                 e->min, e->max, *lo, *hi, v->l->limit);
    else
        snprintf(text, cap, "min %u per 1,000 points, no max: at least %u in a %u-point army",
                 e->min, *lo, v->l->limit);
}

/* Count one more of entry e (a units-section entry when upgrade is false)
 * for the file's entry at path (key leaf), and check its maximum. */
static om_status count_one(conv *v, const om_army_unit *e, bool upgrade, const char *path,
                           const char *leaf)
{
    const om_army *a = v->army;
    tally *t = upgrade ? &v->upgrades[e - a->upgrades] : &v->units[e - a->units];
    unsigned lo, hi;
    char text[LIMITS_TEXT_MAX];
    t->n++;
    snprintf(t->path, sizeof t->path, "%s", path);
    t->leaf = leaf;
    limits_of(v, e, &lo, &hi, text, sizeof text);
    (void)lo;
    if (hi && t->n > hi)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, leaf,
                               "%u %s: more than %s allows (%s; %s)", t->n, e->name, a->name,
                               text, minmax_rule(v->l->ruleset, e));
    return OM_OK;
}

/* The magic item `id` for the entry e (a unit of `count` when not
 * `character`) at path: known, allowed to it, not taken before. */
static om_status conv_item(conv *v, const char *path, const char *id, const om_army_unit *e,
                           bool character, unsigned count, const om_wm_item **out)
{
    const char *names[N(items)], *best;
    const om_wm_item *it = om_wm_item_find(id);
    bool listed = false, ok;
    *out = NULL;
    if (strcmp(v->army->magic_items, "allowed") != 0)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "magic_item",
                               "the %s army of %s has no magic items%s", v->army->name,
                               v->l->ruleset,
                               v->ancients ? " (Warmaster Ancients has none)" : "");
    if (it == NULL) {
        for (size_t i = 0; i < N(items); i++)
            names[i] = items[i].id;
        best = om_suggest(id, names, N(items));
        return om_yaml_fail_at(v->c, OM_ENOTFOUND, 0, path, "magic_item",
                               "unknown magic item '%s'%s%s%s (the items of %s)", id,
                               best ? "; did you mean '" : "", best ? best : "",
                               best ? "'?" : "", ITEMS_RULE);
    }
    for (size_t i = 0; i < e->magic_item_upgrades_count; i++)
        listed = listed || strcmp(e->magic_item_upgrades[i], id) == 0;
    if (!character) {
        ok = (it->bearer == OM_WM_BEARER_UNIT || it->bearer == OM_WM_BEARER_UNIT_OR_CHARACTER) &&
             (e->type == OM_ARMY_INFANTRY || e->type == OM_ARMY_CAVALRY ||
              e->type == OM_ARMY_CHARIOT);
        if (ok && e->notes && strstr(e->notes, "noMagic: true"))
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "magic_item",
                                   "%s may not have a magic item (its list: noMagic)", e->name);
    } else {
        switch (it->bearer) {
        case OM_WM_BEARER_UNIT: ok = false; break;
        case OM_WM_BEARER_UNIT_OR_CHARACTER: ok = true; break;
        case OM_WM_BEARER_GENERAL: ok = e->type == OM_ARMY_GENERAL; break;
        case OM_WM_BEARER_WIZARD:
        case OM_WM_BEARER_WIZARD_OR_RUNESMITH: ok = e->type == OM_ARMY_WIZARD; break;
        default: ok = false; break;
        }
        ok = ok || listed;
    }
    if (!ok)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "magic_item",
                               "%s (%s) cannot have the %s: it is for %s only%s (%s)",
                               e->name, om_army_type_name(e->type), it->name,
                               om_wm_item_bearer_name(it->bearer),
                               character ? ""
                                         : "; magic items cannot be given to monsters or "
                                           "war machines",
                               ITEMS_RULE);
    if (count > 1)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "magic_item",
                               "%u units cannot all have the %s: each item may appear in an "
                               "army once (%s); give the unit that carries it an entry of its "
                               "own", count, it->name, ITEMS_RULE);
    for (size_t i = 0; i < N(items); i++)
        if (v->item_used[i] == it)
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "magic_item",
                                   "the %s is already taken by %s (line %zu): a specific item "
                                   "may only appear in an army once (%s)", it->name,
                                   v->item_path[i],
                                   om_yaml_locate(v->c, v->item_path[i], "magic_item"),
                                   ITEMS_RULE);
    for (size_t i = 0; i < N(items); i++)
        if (v->item_used[i] == NULL) {
            v->item_used[i] = it;
            snprintf(v->item_path[i], sizeof v->item_path[i], "%s", path);
            break;
        }
    *out = it;
    return OM_OK;
}

/* Is upgrade u linked to any entry of the army (its `upgrades`)? */
static bool linked(const om_army *a, const om_army_unit *u)
{
    for (size_t i = 0; i < a->units_count + a->upgrades_count; i++) {
        const om_army_unit *e = i < a->units_count ? &a->units[i] : &a->upgrades[i - a->units_count];
        for (size_t k = 0; k < e->upgrades_count; k++)
            if (strcmp(e->upgrades[k], u->id) == 0)
                return true;
    }
    return false;
}

/* May entry e take upgrade u (a mount or any other)? */
static bool may_take(const om_army *a, const om_army_unit *e, const om_army_unit *u)
{
    for (size_t k = 0; k < e->upgrades_count; k++)
        if (strcmp(e->upgrades[k], u->id) == 0)
            return true;
    if (linked(a, u))
        return false;
    /* The army's data links no entry to this upgrade (Warmaster Ancients
     * prints upgrades under the list, each saying what it upgrades): by
     * type. */
    if (u->type == OM_ARMY_MOUNT || u->type == OM_ARMY_HERO || u->type == OM_ARMY_WIZARD)
        return om_army_type_is_character(e->type);
    if (u->type == OM_ARMY_GENERAL)
        return e->type == OM_ARMY_GENERAL;
    if (u->type == OM_ARMY_SPECIAL)
        return true;
    return u->type == e->type;
}

/* The upgrades ids[0..n) of entry e at path into taken[] (and *points);
 * `stat` (if not NULL) gets the last one that has a stat line of its own. */
static om_status conv_upgrades(conv *v, const char *path, char *const *ids, unsigned n,
                               const om_army_unit *e, unsigned count,
                               char taken[][OM_WM_ARMYLIST_ID_MAX], unsigned *n_taken,
                               long *points, const om_army_unit **stat)
{
    const om_army *a = v->army;
    char at[OM_YAML_PATH_MAX + sizeof ".upgrades"];
    om_status st;
    for (unsigned i = 0; i < n; i++) {
        int k = index_of(a->upgrades, a->upgrades_count, ids[i]);
        const om_army_unit *u;
        snprintf(at, sizeof at, "%s.upgrades", path);
        if (k < 0 || !wanted(&a->upgrades[k], WANT_UPGRADE)) {
            if (k >= 0)
                return om_yaml_fail_at(v->c, OM_EINVAL, 0, at, NULL,
                                       "'%s' is a mount: give it to a character with 'mount:'",
                                       ids[i]);
            return fail_unknown(v, at, NULL, ids[i], WANT_UPGRADE);
        }
        u = &a->upgrades[k];
        for (unsigned j = 0; j < i; j++)
            if (strcmp(ids[j], ids[i]) == 0)
                return om_yaml_fail_at(v->c, OM_EINVAL, 0, at, NULL,
                                       "upgrade '%s' is given twice", ids[i]);
        if (!may_take(a, e, u)) {
            char known[OM_YAML_REASON_MAX / 2] = "none";
            if (e->upgrades_count)
                om_yaml_join_names(known, sizeof known, (const char *const *)e->upgrades,
                                   e->upgrades_count);
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, at, NULL,
                                   "%s cannot take the upgrade %s (its upgrades: %s)", e->name,
                                   u->name, known);
        }
        if (strlen(u->id) >= OM_WM_ARMYLIST_ID_MAX)
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, at, NULL, "id '%s' is too long", u->id);
        for (unsigned c = 0; c < count; c++)
            if ((st = count_one(v, u, true, at, NULL)))
                return st;
        snprintf(taken[(*n_taken)++], OM_WM_ARMYLIST_ID_MAX, "%s", u->id);
        *points += u->points;
        if (stat && u->hits > 0 && u->size > 0)
            *stat = u;
    }
    return OM_OK;
}

/* Copy id into a fixed field, refusing one too long. */
static om_status copy_id(const conv *v, const char *path, const char *leaf, const char *id,
                         char *out)
{
    if (strlen(id) >= OM_WM_ARMYLIST_ID_MAX)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, leaf, "'%s' is longer than %d bytes",
                               id, OM_WM_ARMYLIST_ID_MAX - 1);
    memcpy(out, id, strlen(id) + 1);
    return OM_OK;
}

/* Entry i of `units` into the list's units. */
static om_status conv_unit(conv *v, unsigned i, const raw_unit *r)
{
    const om_army *a = v->army;
    char path[OM_YAML_PATH_MAX];
    om_wm_armylist_unit proto;
    const om_army_unit *e, *stat = NULL;
    const om_wm_item *it = NULL;
    unsigned count = 1;
    long points;
    int k;
    om_status st;

    snprintf(path, sizeof path, "units[%u]", i);
    memset(&proto, 0, sizeof proto);
    k = index_of(a->units, a->units_count, r->unit);
    if (k < 0 || !wanted(&a->units[k], WANT_TROOP))
        return fail_unknown(v, path, "unit", r->unit, WANT_TROOP);
    e = &a->units[k];
    if ((st = om_yaml_conv_int(v->c, path, "count", r->count, OM_WM_ARMYLIST_COUNT_MAX, 1,
                               &count)))
        return st;
    if (count == 0)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "count",
                               "must be at least 1 (leave the entry out for none)");
    points = e->points;
    if ((st = copy_id(v, path, "unit", e->id, proto.id)) ||
        (st = conv_upgrades(v, path, r->upgrades, r->upgrades_count, e, count, proto.upgrades,
                            &proto.n_upgrades, &points, &stat)))
        return st;
    if (r->magic_item) {
        if ((st = conv_item(v, path, r->magic_item, e, false, count, &it)))
            return st;
        snprintf(proto.item, sizeof proto.item, "%s", it->id);
        proto.magic = it->magic;
        points += it->points;
    }
    /* An upgrade printed with a stat line of its own (Crossbowmen to
     * Handgunners, a Spartan Bodyguard) replaces the unit's values. */
    {
        om_army_unit line = *e;
        if (stat) {
            line.attacks = stat->attacks;
            line.shots = stat->shots;
            line.range_cm = stat->range_cm;
            line.hits = stat->hits;
            line.save = stat->save;
            line.size = stat->size;
            line.rules = stat->rules;
            line.rules_count = stat->rules_count;
        }
        if ((st = om_army_unit_to_wm(&line, v->rs, &proto.unit)))
            return om_yaml_fail_at(v->c, st, 0, path, "unit", "%s", om_error_message());
    }
    if (points < 0 || points > UINT16_MAX)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "unit", "costs %ld points", points);
    proto.type = e->type;
    proto.points = (unsigned)points;
    proto.unit.points = (uint16_t)points;
    proto.entry = i;
    proto.line = om_yaml_locate(v->c, path, "unit");
    for (unsigned c = 0; c < count; c++) {
        if ((st = count_one(v, e, false, path, r->count ? "count" : "unit")))
            return st;
        v->l->units[v->l->n_units++] = proto;
        v->l->points += proto.points;
    }
    return OM_OK;
}

/* Add the rules of army entry `from` to character ch's, each once. */
static om_status add_character_rules(const conv *v, const char *path, const om_army_unit *from,
                                     om_wm_armylist_character *ch)
{
    for (size_t j = 0; j < from->rules_count; j++) {
        bool known = false;
        for (unsigned k = 0; k < ch->n_rules && !known; k++)
            known = strcmp(ch->rules[k], from->rules[j]) == 0;
        if (known)
            continue;
        if (ch->n_rules == OM_WM_ARMYLIST_CHARACTER_RULES_MAX ||
            strlen(from->rules[j]) >= OM_WM_ARMYLIST_ID_MAX)
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "character", "%s carries more "
                                   "special rules than a character may (%d) or one too long",
                                   ch->name, OM_WM_ARMYLIST_CHARACTER_RULES_MAX);
        snprintf(ch->rules[ch->n_rules++], OM_WM_ARMYLIST_ID_MAX, "%s", from->rules[j]);
    }
    return OM_OK;
}

/* Character ch's special rules: its entry's `e`, its mount's (id `mount`, or
 * NULL) and its upgrades', so that a battle plays or names each of them. */
static om_status character_rules(const conv *v, const char *path, const om_army_unit *e,
                                 const char *mount, om_wm_armylist_character *ch)
{
    const om_army *a = v->army;
    om_status st = add_character_rules(v, path, e, ch);
    int k;
    if (st == OM_OK && mount != NULL && (k = index_of(a->upgrades, a->upgrades_count, mount)) >= 0)
        st = add_character_rules(v, path, &a->upgrades[k], ch);
    for (unsigned i = 0; st == OM_OK && i < ch->n_upgrades; i++)
        if ((k = index_of(a->upgrades, a->upgrades_count, ch->upgrades[i])) >= 0)
            st = add_character_rules(v, path, &a->upgrades[k], ch);
    return st;
}

/* Entry i of `characters` into the list's characters. */
static om_status conv_character(conv *v, unsigned i, const raw_character *r)
{
    const om_army *a = v->army;
    char path[OM_YAML_PATH_MAX];
    om_wm_armylist_character *ch = &v->l->characters[v->l->n_characters];
    const om_army_unit *e;
    const om_wm_item *it = NULL;
    long points;
    int k;
    om_status st;

    snprintf(path, sizeof path, "characters[%u]", i);
    memset(ch, 0, sizeof *ch);
    k = index_of(a->units, a->units_count, r->character);
    if (k < 0 || !wanted(&a->units[k], WANT_CHARACTER))
        return fail_unknown(v, path, "character", r->character, WANT_CHARACTER);
    e = &a->units[k];
    points = e->points;
    ch->attacks = e->attacks;
    if ((st = copy_id(v, path, "character", e->id, ch->id)))
        return st;
    snprintf(ch->name, sizeof ch->name, "%s", e->name);
    if (r->mount) {
        int m = index_of(a->upgrades, a->upgrades_count, r->mount);
        const om_army_unit *mount;
        if (m < 0 || !wanted(&a->upgrades[m], WANT_MOUNT))
            return fail_unknown(v, path, "mount", r->mount, WANT_MOUNT);
        mount = &a->upgrades[m];
        if (!may_take(a, e, mount))
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "mount",
                                   "%s cannot ride a %s (%s)", e->name, mount->name,
                                   e->upgrades_count ? "not among its upgrades"
                                                     : "it takes no mount");
        if ((st = count_one(v, mount, true, path, "mount")) ||
            (st = copy_id(v, path, "mount", mount->id, ch->mount)))
            return st;
        points += mount->points;
        ch->attacks += mount->attacks;
        for (size_t j = 0; j < mount->rules_count; j++) {
            const om_wm_special *rule = om_wm_special_find(mount->rules[j]);
            ch->flying = ch->flying || (rule != NULL && rule->traits.flies);
        }
    }
    if ((st = conv_upgrades(v, path, r->upgrades, r->upgrades_count, e, 1, ch->upgrades,
                            &ch->n_upgrades, &points, NULL)))
        return st;
    if ((st = character_rules(v, path, e, r->mount, ch)))
        return st;
    /* A historical character taken as an upgrade (Leonidas, the Homeric
     * Hero) fights with his own Attack bonus in place of the plain
     * character's, a mount's still added (Warmaster Ancients, Army Lists,
     * e.g. Greek: "Leonidas ... +3"; Commanders > Commanders in Combat). */
    for (unsigned j = 0; j < ch->n_upgrades; j++) {
        int u = index_of(a->upgrades, a->upgrades_count, ch->upgrades[j]);
        if (u >= 0 && om_army_type_is_character(a->upgrades[u].type))
            ch->attacks = ch->attacks - e->attacks + a->upgrades[u].attacks;
    }
    if (r->magic_item) {
        if ((st = conv_item(v, path, r->magic_item, e, true, 1, &it)))
            return st;
        snprintf(ch->item, sizeof ch->item, "%s", it->id);
        points += it->points;
    }
    if ((st = count_one(v, e, false, path, "character")))
        return st;
    if (points < 0)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "character", "costs %ld points",
                               points);
    ch->type = e->type;
    ch->kind = om_army_character_kind(e->type, e->source_type);
    ch->command = e->command;
    ch->points = (unsigned)points;
    ch->entry = i;
    ch->line = om_yaml_locate(v->c, path, "character");
    v->l->n_characters++;
    v->l->points += ch->points;
    return OM_OK;
}

/* The minimums, once every entry is counted: a unit or character the army
 * must have more of. */
static om_status check_minimums(const conv *v)
{
    const om_army *a = v->army;
    for (size_t i = 0; i < a->units_count; i++) {
        const om_army_unit *e = &a->units[i];
        unsigned lo, hi;
        char text[LIMITS_TEXT_MAX];
        limits_of(v, e, &lo, &hi, text, sizeof text);
        if (v->units[i].n < lo) {
            const bool ch = om_army_type_is_character(e->type);
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, NULL, ch ? "characters" : "units",
                                   "%u %s: fewer than %s needs (%s; %s)", v->units[i].n,
                                   e->name, a->name, text, minmax_rule(v->l->ruleset, e));
        }
    }
    return OM_OK;
}

/* The raw list into v->l. */
static om_status conv_list(conv *v, const raw_list *r)
{
    om_wm_armylist *l = v->l;
    size_t total = 0;
    om_status st;

    for (unsigned i = 0; i < r->units_count; i++) {
        unsigned n = 1;
        if (r->units[i].count) {
            char path[OM_YAML_PATH_MAX];
            snprintf(path, sizeof path, "units[%u]", i);
            if ((st = om_yaml_conv_int(v->c, path, "count", r->units[i].count,
                                       OM_WM_ARMYLIST_COUNT_MAX, 1, &n)))
                return st;
        }
        total += n;
    }
    l->units = calloc(total ? total : 1, sizeof *l->units);
    l->characters = calloc(r->characters_count ? r->characters_count : 1, sizeof *l->characters);
    v->units = calloc(v->army->units_count + 1, sizeof *v->units);
    v->upgrades = calloc(v->army->upgrades_count + 1, sizeof *v->upgrades);
    if (!l->units || !l->characters || !v->units || !v->upgrades)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", v->c->source);
    for (unsigned i = 0; i < r->units_count; i++)
        if ((st = conv_unit(v, i, &r->units[i])))
            return st;
    for (unsigned i = 0; i < r->characters_count; i++)
        if ((st = conv_character(v, i, &r->characters[i])))
            return st;
    if (l->points > l->limit)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, NULL, "points",
                               "the units and characters cost %u points, %u over the limit "
                               "of %u (%s)", l->points, l->points - l->limit, l->limit,
                               POINTS_RULE);
    return check_minimums(v);
}

/* The rule set (with a suggestion) and army of the list. */
static om_status open_army(const om_yaml_ctx *c, const raw_list *r, om_army **army)
{
    const om_army_ruleset *rs = om_army_ruleset_find(r->ruleset);
    om_status st;
    *army = NULL;
    if (rs == NULL) {
        const char *names[RULESETS_MAX], *best;
        size_t n = 0;
        char known[OM_YAML_REASON_MAX / 2];
        for (size_t i = 0; i < om_army_ruleset_count() && n < N(names); i++)
            names[n++] = om_army_ruleset_at(i)->id;
        best = om_suggest(r->ruleset, names, n);
        om_yaml_join_names(known, sizeof known, names, n);
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, NULL, "ruleset",
                               "unknown rule set '%s'%s%s%s; army lists exist for: %s",
                               r->ruleset, best ? "; did you mean '" : "", best ? best : "",
                               best ? "'?" : "", known);
    }
    if ((st = om_army_load(r->ruleset, r->army, army)))
        return om_yaml_fail_at(c, st, 0, NULL, "army", "%s", om_error_message());
    return OM_OK;
}

om_status om_wm_armylist_parse(const char *source, const char *text, size_t len,
                               om_wm_armylist **out)
{
    om_yaml_ctx c = {.source = source ? source : "<list>", .text = text ? text : "",
                     .len = text ? len : 0};
    raw_list *raw = NULL;
    om_army *army = NULL;
    conv *v = NULL;
    om_wm_armylist *l;
    om_status st;

    *out = NULL;
    if ((l = calloc(1, sizeof *l)) == NULL || (l->source = strdup(c.source)) == NULL) {
        free(l);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    }
    if ((st = om_yaml_check_text(&c)) == OM_OK && (st = om_yaml_load(&c, &list_doc, (void **)&raw)) == OM_OK &&
        (st = open_army(&c, raw, &army)) == OM_OK) {
        unsigned limit = 0;
        snprintf(l->ruleset, sizeof l->ruleset, "%s", army->ruleset);
        snprintf(l->army, sizeof l->army, "%s", army->id);
        snprintf(l->army_name, sizeof l->army_name, "%s", army->name);
        if ((st = om_yaml_conv_int(&c, NULL, "points", raw->points, OM_WM_ARMYLIST_POINTS_MAX, 0,
                                   &limit)) == OM_OK && limit == 0)
            st = om_yaml_fail_at(&c, OM_EINVAL, 0, NULL, "points",
                                 "the points limit must be at least 1");
        if (st == OM_OK && (l->name = strdup(raw->name)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
        if (st == OM_OK && (v = calloc(1, sizeof *v)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
        if (st == OM_OK) {
            l->limit = limit;
            l->thousands = limit / 1000;
            v->c = &c;
            v->army = army;
            v->rs = om_wm_ruleset_find(army->ruleset);
            v->l = l;
            v->ancients = strcmp(army->ruleset, "warmaster-ancients") == 0;
            st = conv_list(v, raw);
        }
    }
    if (v) {
        free(v->units);
        free(v->upgrades);
        free(v);
    }
    om_army_free(army);
    om_yaml_free(&list_doc, raw);
    if (st != OM_OK) {
        om_wm_armylist_free(l);
        return st;
    }
    *out = l;
    return OM_OK;
}

om_status om_wm_armylist_load_file(const char *path, om_wm_armylist **out)
{
    char *text = NULL;
    size_t len = 0;
    om_status st;
    *out = NULL;
    st = om_yaml_read_path(&path, &text, &len);
    if (st == OM_OK)
        st = om_wm_armylist_parse(path, text, len, out);
    free(text);
    return st;
}

void om_wm_armylist_free(om_wm_armylist *l)
{
    if (l == NULL)
        return;
    free(l->units);
    free(l->characters);
    free(l->name);
    free(l->source);
    free(l);
}

/* ---------------------------------------------------------------------------
 * oddsmaster list FILE
 */

/* Longest cell built here. */
#define CELL_MAX 160

/* buf[0..n) joined by ", " into out. */
static const char *join_ids(const char (*buf)[OM_WM_ARMYLIST_ID_MAX], unsigned n, char *out,
                            size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? ", " : "", buf[i]);
    return out;
}

/* Whether list l carries a magic item a battle does not model: a unit's of
 * no effect in an engagement, a character's but a Wizard's casting device or
 * a General's device of power. */
static bool unmodelled_items(const om_wm_armylist *l)
{
    for (size_t i = 0; i < l->n_units; i++)
        if (l->units[i].item[0] != '\0' && l->units[i].magic == OM_WM_MAGIC_NONE)
            return true;
    for (size_t i = 0; i < l->n_characters; i++)
        if (l->characters[i].item[0] != '\0' &&
            !om_wm_spells_character_item_played(l->characters[i].item))
            return true;
    return false;
}

/* The units table: one row per entry of the file (its units are alike). */
static om_status units_table(om_game_listing *g, const om_wm_armylist *l)
{
    static const char *const cols[] = {"line", "unit", "name", "count", "type", "attacks",
                                       "hits", "armour", "stands", "upgrades", "magic_item",
                                       "each", "points"};
    static const om_game_cell_type types[] = {
        OM_GAME_CELL_INT, OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT, OM_GAME_CELL_INT,
        OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT, OM_GAME_CELL_INT, OM_GAME_CELL_TEXT,
        OM_GAME_CELL_INT, OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT, OM_GAME_CELL_INT,
        OM_GAME_CELL_INT};
    om_game_table *t = NULL;
    om_status st = om_game_listing_table(g, "units", "Units", N(cols), cols, types, &t);
    for (size_t i = 0; st == OM_OK && i < l->n_units;) {
        const om_wm_armylist_unit *u = &l->units[i];
        size_t n = 0;
        char cells[N(cols)][CELL_MAX];
        const char *row[N(cols)];
        while (i + n < l->n_units && l->units[i + n].entry == u->entry)
            n++;
        snprintf(cells[0], CELL_MAX, "%zu", u->line);
        snprintf(cells[1], CELL_MAX, "%s", u->id);
        snprintf(cells[2], CELL_MAX, "%s", u->unit.name);
        snprintf(cells[3], CELL_MAX, "%zu", n);
        snprintf(cells[4], CELL_MAX, "%s", om_army_type_name(u->type));
        if (u->unit.shots)
            snprintf(cells[5], CELL_MAX, "%u/%u", u->unit.attacks, u->unit.shots);
        else
            snprintf(cells[5], CELL_MAX, "%u", u->unit.attacks);
        snprintf(cells[6], CELL_MAX, "%u", u->unit.hits);
        if (u->unit.armour)
            snprintf(cells[7], CELL_MAX, "%u+", u->unit.armour);
        else
            snprintf(cells[7], CELL_MAX, "-");
        snprintf(cells[8], CELL_MAX, "%u", u->unit.stands);
        join_ids(u->upgrades, u->n_upgrades, cells[9], CELL_MAX);
        /* A mark on an item a battle does not model (a standard or weapon of
         * no effect in an engagement, wm_battle_spec.c). */
        snprintf(cells[10], CELL_MAX, "%s%s", u->item,
                 u->item[0] != '\0' && u->magic == OM_WM_MAGIC_NONE ? "*" : "");
        snprintf(cells[11], CELL_MAX, "%u", u->points);
        snprintf(cells[12], CELL_MAX, "%zu", n * u->points);
        for (size_t k = 0; k < N(cols); k++)
            row[k] = cells[k];
        st = om_game_table_row(t, row);
        i += n;
    }
    return st;
}

/* The characters table. */
static om_status characters_table(om_game_listing *g, const om_wm_armylist *l)
{
    static const char *const cols[] = {"line", "character", "name", "type", "command",
                                       "attacks", "mount", "upgrades", "magic_item", "points"};
    static const om_game_cell_type types[] = {
        OM_GAME_CELL_INT, OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT,
        OM_GAME_CELL_INT, OM_GAME_CELL_INT, OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT,
        OM_GAME_CELL_TEXT, OM_GAME_CELL_INT};
    om_game_table *t = NULL;
    om_status st = om_game_listing_table(g, "characters", "Characters", N(cols), cols, types, &t);
    for (size_t i = 0; st == OM_OK && i < l->n_characters; i++) {
        const om_wm_armylist_character *ch = &l->characters[i];
        char cells[N(cols)][CELL_MAX];
        const char *row[N(cols)];
        snprintf(cells[0], CELL_MAX, "%zu", ch->line);
        snprintf(cells[1], CELL_MAX, "%s", ch->id);
        snprintf(cells[2], CELL_MAX, "%s", ch->name);
        snprintf(cells[3], CELL_MAX, "%s", om_army_type_name(ch->type));
        snprintf(cells[4], CELL_MAX, "%u", ch->command);
        snprintf(cells[5], CELL_MAX, "%u", ch->attacks);
        snprintf(cells[6], CELL_MAX, "%s", ch->mount);
        join_ids(ch->upgrades, ch->n_upgrades, cells[7],
                 CELL_MAX);
        /* A battle plays a Wizard's casting devices and a General's devices
         * of power, no other character's item. */
        snprintf(cells[8], CELL_MAX, "%s%s", ch->item,
                 ch->item[0] != '\0' && !om_wm_spells_character_item_played(ch->item) ? "*"
                                                                                    : "");
        snprintf(cells[9], CELL_MAX, "%u", ch->points);
        for (size_t k = 0; k < N(cols); k++)
            row[k] = cells[k];
        st = om_game_table_row(t, row);
    }
    return st;
}

om_status om_wm_armylist_listing(const char *source, const char *text, size_t len,
                                 om_game_listing **out)
{
    om_wm_armylist *l = NULL;
    om_game_listing *g = NULL;
    char heading[LISTING_TEXT_MAX], footer[LISTING_TEXT_MAX];
    om_status st;

    *out = NULL;
    if ((st = om_wm_armylist_parse(source, text, len, &l)))
        return st;
    snprintf(heading, sizeof heading, "%s: %s (%s/%s), %u of %u points\n", l->name,
             l->army_name, l->ruleset, l->army, l->points, l->limit);
    snprintf(footer, sizeof footer,
             "Total: %u points of %u (%u left); %zu units, %zu characters.\n"
             "Checked: points, min/max per %s, one magic item each and each once per army.\n"
             "%s",
             l->points, l->limit, l->limit - l->points, l->n_units, l->n_characters,
             l->thousands ? "full 1,000 points" : "1,000 points (an army under 1,000)",
             unmodelled_items(l) ? "Magic items marked * are not modelled in battles (a battle "
                                   "names them on screen and in its result file).\n"
                                 : "");
    if ((st = om_game_listing_alloc(heading, &g)) == OM_OK && (st = units_table(g, l)) == OM_OK &&
        (l->n_characters == 0 || (st = characters_table(g, l)) == OM_OK))
        st = om_game_listing_footer(g, footer);
    om_wm_armylist_free(l);
    if (st != OM_OK) {
        om_game_listing_free(g);
        return st;
    }
    *out = g;
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * The keys of a list file, for `oddsmaster list --keys` and the corpus test.
 */

static const om_game_key list_keys[] = {
    {.name = "schema", .where = "list", .type = "text", .fallback = "required",
     .help = "exactly " OM_WM_ARMYLIST_SCHEMA},
    {.name = "ruleset", .where = "list", .type = "name", .fallback = "required",
     .help = "warmaster-1.1, warmaster-revolution or warmaster-ancients"},
    {.name = "army", .where = "list", .type = "name", .fallback = "required",
     .help = "an army of the rule set (oddsmaster list RULESET)"},
    {.name = "name", .where = "list", .type = "text", .fallback = "required",
     .help = "the list's name"},
    {.name = "points", .where = "list", .type = "1..100000", .fallback = "required",
     .help = "the points limit: the army's size, which sets min/max"},
    {.name = "notes", .where = "list", .type = "text", .fallback = "none",
     .help = "free text"},
    {.name = "units", .where = "list", .type = "list of mappings", .fallback = "required",
     .help = "the army's units (the list unit keys)"},
    {.name = "characters", .where = "list", .type = "list of mappings", .fallback = "none",
     .help = "its generals, heroes and wizards (the list character keys)"},
    {.name = "unit", .where = "list unit", .type = "name", .fallback = "required",
     .help = "a unit of the army (oddsmaster list RULESET/ARMY)"},
    {.name = "count", .where = "list unit", .type = "1..99", .fallback = "1",
     .help = "how many of it"},
    {.name = "upgrades", .where = "list unit", .type = "list of names", .fallback = "none",
     .help = "upgrades of the army each of them takes"},
    {.name = "magic_item", .where = "list unit", .type = "name", .fallback = "none",
     .help = "its magic item (count 1 only; oddsmaster list FILE names the items)"},
    {.name = "character", .where = "list character", .type = "name", .fallback = "required",
     .help = "a general, hero or wizard of the army"},
    {.name = "mount", .where = "list character", .type = "name", .fallback = "none",
     .help = "a mount of the army it rides"},
    {.name = "upgrades", .where = "list character", .type = "list of names",
     .fallback = "none", .help = "upgrades of the army it takes"},
    {.name = "magic_item", .where = "list character", .type = "name", .fallback = "none",
     .help = "its magic item"},
};

size_t om_wm_armylist_keys(om_game_key *out, size_t cap)
{
    for (size_t i = 0; i < N(list_keys) && i < cap; i++)
        out[i] = list_keys[i];
    return N(list_keys);
}
