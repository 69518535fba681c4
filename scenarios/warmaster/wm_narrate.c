/*
 * wm_narrate.c: the words of a Warmaster battle (wm_narrate.h). Each record of
 * the engine's trace becomes one line: the order tests with the score needed
 * and the dice (Command > Giving an Order), initiative moves, charges,
 * shooting and its drive backs (Shooting), combats and what each unit did
 * after them (Combat), the withdrawal checks (End of the Battle > Withdraw)
 * and the verdict. The table becomes a picture for analysis/chart.c.
 */
#include "wm_narrate.h"

#include <stdarg.h>
#include <string.h>

#include "battle.h"
#include "command.h"
#include "regalia.h"

/* The victory-point and break-point values clipped by the trace to this mean
 * "no limit" (an army with no unit that counts toward its break point). */
#define NO_BREAK_POINT INT16_MAX

static const char *const side_letter[2] = {"A", "B"};

/* Why a battle ended, in words (om_wm_battle_end). */
static const char *const end_words[OM_WM_END_COUNT] = {
    [OM_WM_END_LENGTH] = "its length",
    [OM_WM_END_BREAK] = "an army at its break point",
    [OM_WM_END_GENERAL] = "a General slain",
    [OM_WM_END_SCENARIO] = "a player's scenario points",
};

/* Longest name of a unit as a line gives it, with its number. */
#define LABEL_MAX 48

/* The printer's state: its stream, whether a write failed, each unit's name
 * as the lines give it (numbered when a side has several of that name, in
 * table order: "Orc Warriors 2"), and each army's losses last told. */
typedef struct printer {
    FILE *out;
    bool failed;
    const om_wm_spellbook *spells; /* the battle's spells, or NULL */
    char label[OM_WM_TABLE_MAX_UNITS][LABEL_MAX];
    int told_lost[2];
} printer;

/* The name of unit u as the lines give it, or "?" for none. */
static const char *unit_name(const printer *p, const om_wm_table *t, int u)
{
    return u >= 0 && (unsigned)u < t->units ? p->label[u] : "?";
}

/* Number the units of a side that share a name. */
static void label_units(printer *p, const om_wm_table *t)
{
    for (unsigned u = 0; u < t->units; u++) {
        unsigned same = 0, nth = 0;
        for (unsigned v = 0; v < t->units; v++)
            if (t->unit[v].side == t->unit[u].side &&
                strcmp(t->unit[v].name, t->unit[u].name) == 0) {
                same++;
                nth += v <= u;
            }
        if (same > 1)
            snprintf(p->label[u], LABEL_MAX, "%.40s %u", t->unit[u].name, nth);
        else
            snprintf(p->label[u], LABEL_MAX, "%.40s", t->unit[u].name);
    }
}

/* The side letter of unit u. */
static const char *unit_side(const om_wm_table *t, int u)
{
    return u >= 0 && (unsigned)u < t->units ? side_letter[t->unit[u].side & 1u] : "?";
}

/* The name of character c, or "?" for none. */
static const char *character_name(const om_wm_table *t, int c)
{
    return c >= 0 && (unsigned)c < t->characters ? t->character[c].name : "?";
}


static void say(printer *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void say(printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(p->out, fmt, ap) < 0)
        p->failed = true;
    va_end(ap);
}

/* A unit as a line names it: "Orc Warriors (B)". */
#define UNIT_FMT "%s (%s)"
#define UNIT_ARGS(t, u) unit_name(p, t, u), unit_side(t, u)

/* "s" unless n is 1. */
static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

static const char *winner_words(int w)
{
    switch (w) {
    case 0: return "side A wins";
    case 1: return "side B wins";
    case 2: return "a draw";
    default: return "unresolved: the combat goes on next turn";
    }
}

static void tell_order(printer *p, const om_wm_table *t, const om_wm_event *e)
{
    const int roll = e->dice[0] + e->dice[1];
    say(p, "  order %d from %s to " UNIT_FMT "%s: needs %d or less, rolled %d+%d=%d: %s\n",
        e->v[0], character_name(t, e->target), UNIT_ARGS(t, e->unit),
        e->v[2] > 1 ? " and its brigade" : "", e->v[1], e->dice[0], e->dice[1], roll,
        (e->flags & OM_WM_EVF_PASSED) ? "passed"
        : (e->flags & OM_WM_EVF_BLUNDER) ? "BLUNDER"
                                            : "failed");
}

static void tell_shot(printer *p, const om_wm_table *t, const om_wm_event *e)
{
    if (e->v[0] == 0 && e->flags == 0) {
        say(p, "  " UNIT_FMT " is not hurt\n", UNIT_ARGS(t, e->unit));
        return;
    }
    if (e->flags & OM_WM_EVF_DESTROYED) {
        say(p, "  " UNIT_FMT " takes %d hit%s and is destroyed\n", UNIT_ARGS(t, e->unit),
            e->v[0], plural(e->v[0]));
        return;
    }
    say(p, "  " UNIT_FMT " takes %d hit%s: %d stand%s removed, driven back %dcm%s\n",
        UNIT_ARGS(t, e->unit), e->v[0], plural(e->v[0]), e->v[1], plural(e->v[1]), e->v[2],
        (e->flags & OM_WM_EVF_CONFUSED) ? ", confused" : "");
}

static void tell_combat_unit(printer *p, const om_wm_table *t, const om_wm_event *e)
{
    say(p, "    " UNIT_FMT ": %d stand%s lost", UNIT_ARGS(t, e->unit), e->v[0], plural(e->v[0]));
    if (e->flags & OM_WM_EVF_DESTROYED)
        say(p, ", destroyed");
    else {
        if (e->v[1] > 0)
            say(p, ", retreated %dcm", e->v[1]);
        if (e->v[2] > 0)
            say(p, ", fell back %dcm", e->v[2]);
        if (e->v[3] > 0)
            say(p, ", pursued");
        if (e->flags & OM_WM_EVF_CONFUSED)
            say(p, ", confused");
        if (e->flags & OM_WM_EVF_UNRESOLVED)
            say(p, ", still engaged");
    }
    say(p, "\n");
}

static void tell_withdrawal(printer *p, const om_wm_event *e, const char *const side_name[2])
{
    const unsigned s = e->side & 1u;
    /* An army's losses are told when they change, and when it withdraws. */
    if (e->v[0] == p->told_lost[s] && !(e->flags & OM_WM_EVF_WITHDRAWS))
        return;
    p->told_lost[s] = e->v[0];
    /* Losses count in half units (a unit reduced to one stand counts half). */
    say(p, "  %s (%s) has lost %g unit%s", side_name[s], side_letter[s], e->v[0] / 2.0,
        e->v[0] == 2 ? "" : "s");
    if (e->v[1] >= NO_BREAK_POINT)
        say(p, "; it has no break point");
    else
        say(p, "; it withdraws at %g", e->v[1] / 2.0);
    if (e->flags & OM_WM_EVF_GENERAL_SLAIN)
        say(p, ". Its General is slain: it WITHDRAWS\n");
    else if (e->flags & OM_WM_EVF_WITHDRAWS)
        say(p, ". It WITHDRAWS\n");
    else
        say(p, "\n");
}

/* A General's device of power acting (regalia.h): what it did to the order. */
static void tell_regalia(printer *p, const om_wm_table *t, const om_wm_event *e)
{
    const char *name = om_wm_regalia_name((unsigned)e->v[0]);
    const int roll = e->dice[0] + e->dice[1];
    switch (e->v[0]) {
    case OM_WM_REGALIA_HELM:
        say(p, "  %s wears the %s this turn: +1 Command\n", character_name(t, e->target), name);
        break;
    case OM_WM_REGALIA_CROWN:
        if (e->v[3])
            say(p, "  the %s ceases to work\n", name);
        else
            say(p, "  %s uses the %s: his first order against %d, no penalties\n",
                character_name(t, e->target), name, e->v[2]);
        break;
    case OM_WM_REGALIA_SCEPTRE:
        say(p, "  %s's %s ignores the double 6 of %s: the order passes\n",
            character_name(t, e->target), name, character_name(t, e->v[1]));
        break;
    case OM_WM_REGALIA_ORB:
        say(p, "  %s re-rolls with the %s: needs %d or less, rolled %d+%d=%d: %s\n",
            character_name(t, e->target), name, e->v[2], e->dice[0], e->dice[1], roll,
            (e->flags & OM_WM_EVF_PASSED) ? "passed" : "failed");
        break;
    default:
        say(p, "  (a device of power %d)\n", e->v[0]);
        break;
    }
}

/* A Wizard's cast: the spell, its target, the die and what came of it. */
static void tell_spell(printer *p, const om_wm_table *t, const om_wm_event *e)
{
    const unsigned side = e->target >= 0 && (unsigned)e->target < t->characters
                              ? t->character[e->target].side : 0u;
    char spell[48], how[96] = "";
    const char *outcome = (e->v[3] & OM_WM_DEVICE_SCROLL) ? " by a Scroll of Dispelling"
                          : (e->v[3] & OM_WM_DEVICE_STAFF) ? ", and he is spellbound by a Staff "
                                                             "of Spellbinding"
                                                           : "";
    bool aura = false; /* cast on the Wizard himself (magic.h) */
    if (p->spells != NULL && e->v[0] >= 0 && e->v[0] < p->spells->n[side]) {
        snprintf(spell, sizeof spell, "%s", p->spells->spell[side][e->v[0]].id);
        aura = p->spells->spell[side][e->v[0]].aura;
    } else
        snprintf(spell, sizeof spell, "spell %d", e->v[0]);
    /* The Wizards' devices (magic.h): what the roll was, and what came of it. */
    if (e->v[3] & OM_WM_DEVICE_ROD)
        snprintf(how + strlen(how), sizeof how - strlen(how), "Rod of Repetition, ");
    if (e->v[3] & OM_WM_DEVICE_RING)
        snprintf(how + strlen(how), sizeof how - strlen(how), "Ring of Magic: no roll");
    else
        snprintf(how + strlen(how), sizeof how - strlen(how), "rolled %d%s%s", e->dice[0],
                 (e->v[3] & OM_WM_DEVICE_WAND) ? " +1 (Wand of Power)" : "",
                 e->dice[1] > 0 ? " -1 (spellbound)" : "");
    if (e->unit >= 0)
        say(p, "  %s casts %s at " UNIT_FMT ": needs %d+, %s: %s%s\n",
            character_name(t, e->target), spell, UNIT_ARGS(t, e->unit), e->v[1], how,
            !(e->flags & OM_WM_EVF_PASSED) ? "fails" : e->v[2] ? "cast, and dispelled"
                                                                : "cast",
            outcome);
    else
        say(p, "  %s casts %s %s: needs %d+, %s: %s%s\n",
            character_name(t, e->target), spell,
            aura ? "around himself (enemy units in range)" : "on every unit in range", e->v[1],
            how,
            !(e->flags & OM_WM_EVF_PASSED) ? "fails" : e->v[2] ? "cast, and dispelled"
                                                                : "cast",
            outcome);
}

/* The roll of a deployment drawn for this battle, and what it decided. */
static void tell_deployment(printer *p, const char *const side_name[2], const om_wm_event *e)
{
    const unsigned s = e->side & 1u;
    switch ((om_wm_deployment)e->v[0]) {
    case OM_WM_DEPLOY_ALTERNATE:
        say(p, "Deployment (one unit at a time): side %s (%s) places the first unit.\n",
            side_letter[s], side_name[s]);
        break;
    case OM_WM_DEPLOY_ONE_SIDE_FIRST:
        say(p, "Deployment (one side first): side %s (%s) loses the roll-off and deploys "
            "its whole army first.\n", side_letter[s], side_name[s]);
        break;
    case OM_WM_DEPLOY_SCOUTING:
        say(p, "Deployment (scouting): A %d against B %d; side %s (%s) wins, chooses its "
            "table edge and places its scouts first.\n", e->v[1], e->v[2], side_letter[s],
            side_name[s]);
        break;
    default:
        say(p, "Deployment: side %s (%s) is favoured.\n", side_letter[s], side_name[s]);
        break;
    }
}

/* One event, a line (two for a combat's heading). */
static void tell(printer *p, const om_wm_table *t, const char *const side_name[2],
                 const om_wm_event *e)
{
    switch ((om_wm_event_kind)e->kind) {
    case OM_WM_EV_BATTLE_START:
        say(p, "The battle lasts at most %d turns. Side %s (%s) takes the first turn.\n",
            e->v[0], side_letter[e->side & 1u], side_name[e->side & 1u]);
        break;
    case OM_WM_EV_TURN_START:
        say(p, "\nTurn %d, side %s (%s)\n", e->turn, side_letter[e->side & 1u],
            side_name[e->side & 1u]);
        break;
    case OM_WM_EV_INITIATIVE:
        say(p, "  " UNIT_FMT " uses its initiative to %s " UNIT_FMT "\n", UNIT_ARGS(t, e->unit),
            e->v[0] == OM_WM_MOVED_CHARGE ? "charge" : "evade", UNIT_ARGS(t, e->target));
        break;
    case OM_WM_EV_ORDER:
        tell_order(p, t, e);
        break;
    case OM_WM_EV_BLUNDER:
        say(p, "  blunder die %d: " UNIT_FMT " %s\n", e->dice[0], UNIT_ARGS(t, e->unit),
            e->v[0] >= 0 && e->v[0] < OM_WM_BLUNDER_COUNT ? om_wm_blunder_names[e->v[0]] : "?");
        break;
    case OM_WM_EV_CHARGE:
        say(p, "  " UNIT_FMT " %s " UNIT_FMT "\n", UNIT_ARGS(t, e->unit),
            e->v[0] == OM_WM_CHARGE_ADVANCE ? "advances on" : "charges", UNIT_ARGS(t, e->target));
        break;
    case OM_WM_EV_SHOOT:
        say(p, "  " UNIT_FMT " shoots at " UNIT_FMT " with %d stand%s: %d hit%s\n",
            UNIT_ARGS(t, e->unit), UNIT_ARGS(t, e->target), e->v[0], plural(e->v[0]), e->v[1],
            plural(e->v[1]));
        break;
    case OM_WM_EV_SHOT_RESULT:
        tell_shot(p, t, e);
        break;
    case OM_WM_EV_COMBAT:
        say(p, "  combat: hits on A %d, on B %d over %d round%s: %s\n", e->v[0], e->v[1],
            e->v[3], plural(e->v[3]), winner_words(e->v[2]));
        break;
    case OM_WM_EV_COMBAT_UNIT:
        tell_combat_unit(p, t, e);
        break;
    case OM_WM_EV_RECOVERED:
        say(p, "  " UNIT_FMT " recovers from confusion\n", UNIT_ARGS(t, e->unit));
        break;
    case OM_WM_EV_CONFUSED:
        say(p, "  " UNIT_FMT " is confused: %s\n", UNIT_ARGS(t, e->unit),
            e->v[0] == OM_WM_CONFUSED_MISFIRE  ? "its shooting misfired"
            : e->v[0] == OM_WM_CONFUSED_EVADED ? "it evaded through friends"
                                               : "an evading unit burst through it");
        break;
    case OM_WM_EV_DESTROYED:
        say(p, "  " UNIT_FMT " is lost\n", UNIT_ARGS(t, e->unit));
        break;
    case OM_WM_EV_WITHDRAWAL:
        tell_withdrawal(p, e, side_name);
        break;
    case OM_WM_EV_END:
        say(p, "\nThe battle ends (%s) after %d turn%s: ",
            e->v[3] >= 0 && e->v[3] < OM_WM_END_COUNT ? end_words[e->v[3]] : "?", e->turn,
            plural(e->turn));
        if (e->side < 2)
            say(p, "side %s (%s) wins, %s victory", side_letter[e->side],
                side_name[e->side],
                e->v[0] >= 0 && e->v[0] < OM_WM_VICTORY_COUNT ? om_wm_victory_names[e->v[0]]
                                                              : "?");
        else
            say(p, "a draw");
        say(p, ". Victory points A %d, B %d.\n", e->v[1], e->v[2]);
        break;
    case OM_WM_EV_SCENARIO: {
        const char *name = e->v[2] >= 0 && e->v[2] < OM_WM_SCENARIO_COUNT
                               ? om_wm_scenario_names[e->v[2]] : "?";
        const bool bf = e->v[3] == OM_WM_SCENARIO_BATTLEFIELDS;
        if (e->v[0] < 0)
            say(p, "The scenario is %s (%s version): scenario points %s decide the battle.\n",
                name, bf ? "Battlefields" : "Revolution",
                bf ? "scored at the end of each player's turn from his third, the first to 10 "
                     "ending it,"
                   : "scored at the end");
        else
            say(p, "Scenario points (%s): A %d, B %d.\n", name, e->v[0], e->v[1]);
        break;
    }
    case OM_WM_EV_SPELL:
        tell_spell(p, t, e);
        break;
    case OM_WM_EV_DEPLOYMENT:
        tell_deployment(p, side_name, e);
        break;
    case OM_WM_EV_REGALIA:
        tell_regalia(p, t, e);
        break;
    case OM_WM_EV_DISPLACED:
        if (e->v[0] >= 0)
            say(p, "  " UNIT_FMT " moves through %s, who joins " UNIT_FMT "\n",
                UNIT_ARGS(t, e->unit), character_name(t, e->target), UNIT_ARGS(t, e->v[0]));
        else
            say(p, "  " UNIT_FMT " moves through %s, who has no friend within 30cm: he is "
                "slain\n", UNIT_ARGS(t, e->unit), character_name(t, e->target));
        break;
    default:
        say(p, "  (an event of kind %d)\n", e->kind);
        break;
    }
}

om_status om_wm_narrate_print(FILE *out, const om_wm_table *start, const om_wm_spellbook *spells,
                              const char *const side_name[2], const om_wm_event *ev, size_t n,
                              size_t dropped)
{
    printer p = {.out = out, .failed = false, .spells = spells};
    label_units(&p, start);
    for (size_t i = 0; i < n; i++)
        tell(&p, start, side_name, &ev[i]);
    if (dropped > 0)
        say(&p, "(%zu more events were not kept)\n", dropped);
    if (p.failed || fflush(out) != 0)
        return OM_ERROR(OM_EIO, "cannot write the narration");
    return OM_OK;
}

void om_wm_narrate_picture(const om_wm_table *t, const char *const side_name[2], double zone,
                           const char *title, om_picture *pic)
{
    memset(pic, 0, sizeof *pic);
    snprintf(pic->title, sizeof pic->title, "%s", title);
    for (unsigned s = 0; s < 2; s++)
        snprintf(pic->side_name[s], sizeof pic->side_name[s], "%s", side_name[s]);
    pic->width = t->width_cm;
    pic->depth = t->depth_cm;
    pic->zone[0] = pic->zone[1] = zone;
    for (unsigned u = 0; u < t->units && pic->n_units < OM_PICTURE_UNITS_MAX; u++) {
        const om_wm_table_unit *un = &t->unit[u];
        om_picture_unit *pu = &pic->unit[pic->n_units++];
        pu->x = un->centre.x;
        pu->y = un->centre.y;
        pu->dx = un->dir.x;
        pu->dy = un->dir.y;
        /* A unit gone has no outline left to measure (no stands). */
        pu->width = un->present ? om_wm_table_unit_width(un) : 0;
        pu->depth = un->present ? om_wm_table_unit_depth(un) : 0;
        pu->side = un->side;
        pu->gone = !un->present;
        pu->confused = un->present && un->confused;
        snprintf(pu->label, sizeof pu->label, "%s", un->name);
    }
    for (unsigned c = 0; c < t->characters && pic->n_characters < OM_PICTURE_CHARACTERS_MAX;
         c++) {
        const om_wm_table_character *ch = &t->character[c];
        om_picture_character *pc = &pic->character[pic->n_characters++];
        /* A character stands with the unit he joined, and is slain with it. */
        pc->x = ch->at.x;
        pc->y = ch->at.y;
        pc->side = ch->side;
        pc->gone = ch->joined >= 0 && !t->unit[ch->joined].present;
        snprintf(pc->label, sizeof pc->label, "%s", ch->name);
    }
    for (unsigned k = 0; k < t->terrain_pieces && pic->n_terrain < OM_PICTURE_TERRAIN_MAX; k++) {
        const om_wm_terrain *tr = &t->terrain[k];
        om_picture_terrain *pt = &pic->terrain[pic->n_terrain++];
        pt->n = (uint8_t)(tr->vertices < OM_PICTURE_VERTICES_MAX ? tr->vertices
                                                                 : OM_PICTURE_VERTICES_MAX);
        for (unsigned i = 0; i < pt->n; i++) {
            pt->x[i] = tr->v[i].x;
            pt->y[i] = tr->v[i].y;
        }
        snprintf(pt->label, sizeof pt->label, "%s",
                 tr->kind < OM_WM_TERRAIN_KIND_COUNT ? om_wm_terrain_names[tr->kind] : "terrain");
    }
}
