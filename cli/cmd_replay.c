/*
 * cmd_replay.c: `oddsmaster replay`, one battle of a result file told turn by
 * turn (sim/replay.h: the battle played again on the run's own dice and
 * checked against its row), and the battlefield drawn at a chosen turn
 * (analysis/chart.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart.h"
#include "cli.h"
#include "replay.h"

/* The arguments of `replay`. */
typedef struct replay_args {
    uint64_t battle;    /* the battle (0-based row of the file) */
    bool typical;       /* the typical battle instead */
    uint64_t turn;      /* with chart: the battle turn whose end is drawn (0: as deployed) */
    const char *chart;  /* the battlefield chart, or NULL */
    uint64_t width;     /* its width (0: OM_CHART_PICTURE_WIDTH) */
} replay_args;

/* The latest battle turn --turn takes: a battle has at most 255 (a byte). */
#define TURN_MAX 255u

static const om_cli_option replay_options[] = {
    {.name = "battle", .letter = 'b', .value = OM_CLI_U64,
     .offset = offsetof(replay_args, battle), .metavar = "K", .min = 0, .max = UINT64_MAX,
     .help = "the battle to tell: its row in the file, 0 to\nTRIALS-1"},
    {.name = "typical", .value = OM_CLI_FLAG, .offset = offsetof(replay_args, typical),
     .help = "tell the typical battle instead: the one whose\nvictory-point margin (A - B) "
             "is the median of\nthe file's (the lower median; ties: the lowest\nrow)"},
    {.name = "turn", .letter = 't', .value = OM_CLI_U64, .offset = offsetof(replay_args, turn),
     .metavar = "T", .min = 0, .max = TURN_MAX,
     .help = "with --chart: draw the table at the end of battle\nturn T (0, the default: as "
             "deployed; past the\nlast turn: as the battle ended)"},
    {.name = "chart", .letter = 'o', .value = OM_CLI_TEXT, .offset = offsetof(replay_args, chart),
     .metavar = "OUT", .complete = {OM_CLI_COMPLETE_FILE, "*.png|*.svg|*.pdf", NULL},
     .help = "draw the battlefield to OUT: .png, .svg or .pdf"},
    {.name = "width", .letter = 'W', .value = OM_CLI_U64, .offset = offsetof(replay_args, width),
     .metavar = "W", .min = OM_CHART_MIN_SIZE, .max = OM_CHART_MAX_SIZE,
     .help = "the chart's width in pixels or points (default\n1400; the height follows the "
             "table)"},
};

static const replay_args replay_defaults = {0};

static int replay_run(const om_cli_args *args)
{
    const replay_args *a = args->values;
    const bool battle = om_cli_given(&om_cli_replay, args, "battle");
    om_picture *pic = NULL;
    om_replay_request rq = {.path = args->operands[0], .typical = a->typical,
                            .trial = a->battle, .picture_turn = (unsigned)a->turn,
                            .out = stdout};
    om_replay_report rep;
    om_chart_format format;
    om_status st;
    int code;

    if (battle == a->typical)
        return om_cli_usage_error("replay", "give one of --battle K and --typical");
    if (om_cli_given(&om_cli_replay, args, "turn") && a->chart == NULL)
        return om_cli_usage_error("replay", "--turn chooses the turn the chart draws: give "
                                  "--chart OUT too");
    if (a->chart != NULL) {
        if (om_chart_format_from_path(a->chart, &format) != OM_OK) {
            om_error_clear();
            return om_cli_usage_error("replay", "the chart '%s' must end in .png, .svg or .pdf",
                                      a->chart);
        }
        if ((code = om_cli_check_output("replay", "--chart", a->chart)) != 0)
            return code;
        if ((pic = calloc(1, sizeof *pic)) == NULL)
            return om_cli_fail("replay", OM_ERROR(OM_ENOMEM, "out of memory"));
        rq.picture = pic;
    }
    st = om_replay_file(&rq, &rep);
    if (st == OM_OK && pic != NULL) {
        char title[sizeof pic->title + 32];
        snprintf(title, sizeof title, "Battle %llu, %s",
                 (unsigned long long)rep.trial, pic->title);
        snprintf(pic->title, sizeof pic->title, "%.*s", (int)sizeof pic->title - 1, title);
        st = om_chart_picture_file(pic, a->chart,
                                   a->width ? (unsigned)a->width : OM_CHART_PICTURE_WIDTH);
        if (st == OM_OK)
            fprintf(stderr, "oddsmaster replay: wrote %s\n", a->chart);
    }
    free(pic);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("replay", st);
}

const om_cli_command om_cli_replay = {
    .name = "replay",
    .summary = "tell one battle of a result file turn by turn, and draw its table",
    .usage = "oddsmaster replay FILE.h5 (--battle K | --typical) [--chart OUT.png [--turn T]]",
    .about =
        "Play battle K of a result file of 'kind: battle' again, on the very dice the\n"
        "run gave it (the file keeps the scenario, the seed and how the dice were\n"
        "drawn), and tell it turn by turn: the first turn and the length, each order\n"
        "with the score it needed and the two dice, initiative moves, charges,\n"
        "shooting and drive backs, each combat's hits and result and what every unit\n"
        "in it did, units lost, each army's losses against its break point, and the\n"
        "verdict. The replayed battle's row is checked against the file's, field by\n"
        "field: the story is the battle the file counted. --typical tells the battle\n"
        "whose victory-point margin is the median, chosen before it is told, so the\n"
        "story shown is not a flattering pick. --chart draws the battlefield: the\n"
        "deployment zones, terrain, and each unit at its place and facing, as\n"
        "deployed or at the end of a turn.",
    .more =
        "Example:\n"
        "  oddsmaster run battle.yaml --trials 1000 -o b.h5\n"
        "  oddsmaster replay b.h5 --typical --chart table.png --turn 2",
    .exits =
        "  2  the file is not of a battle, keeps no per-trial rows (--no-rows), K is\n"
        "     not one of its battles, or its dice are the plain baseline's\n"
        "  3  the file cannot be read or is not a valid result file (damaged, edited,\n"
        "     or its row differs from the replayed battle); the chart cannot be\n"
        "     written\n"
        "  4  out of memory or an unexpected failure\n",
    .options = replay_options,
    .n_options = sizeof replay_options / sizeof replay_options[0],
    .values_size = sizeof(replay_args),
    .defaults = &replay_defaults,
    .min_operands = 1,
    .max_operands = 1,
    .operands = "the result file (FILE.h5)",
    .operand = {{OM_CLI_COMPLETE_FILE, "*.h5", NULL}},
    .run = replay_run,
};
