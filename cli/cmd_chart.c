/*
 * cmd_chart.c: `oddsmaster chart`, odds, distribution and heat-map charts as
 * PNG, SVG or PDF with a CSV of the plotted data beside them (analysis/chart.h).
 */
#include <stddef.h>
#include <stdio.h>

#include "chart.h"
#include "cli.h"

/* The arguments of `chart`. */
typedef struct chart_args {
    unsigned kind;         /* om_chart_kind */
    const char *output;    /* the chart file */
    const char *field;     /* dist: the field */
    const char *situation; /* heatmap: the situation */
    uint64_t width;        /* 0: the kind's default */
    uint64_t height;       /* 0: the kind's default */
    double confidence;     /* of the intervals */
    bool force;            /* replace an existing data CSV */
} chart_args;

/* In om_chart_kind order. */
static const char *const kind_names[] = {"odds", "dist", "heatmap", "fair", NULL};

static const om_cli_option chart_options[] = {
    {.name = "kind", .letter = 'k', .value = OM_CLI_CHOICE, .offset = offsetof(chart_args, kind),
     .metavar = "KIND", .choices = kind_names,
     .help = "odds, dist, heatmap or fair (required)"},
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT,
     .offset = offsetof(chart_args, output), .metavar = "OUT",
     .complete = {OM_CLI_COMPLETE_FILE, "*.png|*.svg|*.pdf", NULL},
     .help = "output file: .png, .svg or .pdf (required)"},
    {.name = "field", .letter = 'F', .value = OM_CLI_TEXT, .offset = offsetof(chart_args, field),
     .metavar = "NAME", .complete = {OM_CLI_COMPLETE_FIELD, NULL, NULL},
     .help = "dist: the count field to draw"},
    {.name = "situation", .letter = 's', .value = OM_CLI_TEXT,
     .offset = offsetof(chart_args, situation), .metavar = "NAME",
     .complete = {OM_CLI_COMPLETE_SITUATION, NULL, "all"},
     .help = "heatmap, fair: the situation, or all"},
    {.name = "width", .letter = 'W', .value = OM_CLI_U64, .offset = offsetof(chart_args, width),
     .metavar = "W", .min = OM_CHART_MIN_SIZE, .max = OM_CHART_MAX_SIZE,
     .help = "width in pixels (PNG) or points (SVG, PDF)"},
    {.name = "height", .letter = 'H', .value = OM_CLI_U64,
     .offset = offsetof(chart_args, height), .metavar = "H", .min = OM_CHART_MIN_SIZE,
     .max = OM_CHART_MAX_SIZE,
     .help = "height, likewise (defaults: odds 1200 x 600, dist\n1200 x 700, heatmap 1200 x 1000)"},
    {.name = "confidence", .letter = 'c', .value = OM_CLI_REAL,
     .offset = offsetof(chart_args, confidence), .metavar = "C", .lo = 0.0, .hi = 1.0,
     .help = "confidence of the intervals, 0 < C < 1 (default 0.95)"},
    {.name = "force", .value = OM_CLI_FLAG, .offset = offsetof(chart_args, force),
     .help = "replace an existing OUT.csv (the plotted data)"},
};

static const chart_args chart_defaults = {0};

static int chart_run(const om_cli_args *args)
{
    const chart_args *a = args->values;
    om_chart_options opt = {.kind = (om_chart_kind)a->kind, .field = a->field,
                            .situation = a->situation, .width = (unsigned)a->width,
                            .height = (unsigned)a->height, .confidence = a->confidence,
                            .force = a->force};
    om_chart_format format;
    om_status st;

    if (!om_cli_given(&om_cli_chart, args, "kind"))
        return om_cli_usage_error("chart", "missing --kind (odds, dist, heatmap or fair)");
    if (a->output == NULL)
        return om_cli_usage_error("chart", "missing the output file (-o OUT.png|svg|pdf)");
    if (om_chart_format_from_path(a->output, &format) != OM_OK) {
        om_error_clear();
        return om_cli_usage_error("chart", "the output '%s' must end in .png, .svg or .pdf",
                                  a->output);
    }
    if (opt.field != NULL && opt.kind != OM_CHART_DIST)
        return om_cli_usage_error("chart", "--field applies to --kind dist only");
    if (opt.situation != NULL && opt.kind != OM_CHART_HEATMAP && opt.kind != OM_CHART_FAIR)
        return om_cli_usage_error("chart", "--situation applies to --kind heatmap and fair only");
    if (args->n_operands > 1 && opt.kind != OM_CHART_ODDS)
        return om_cli_usage_error("chart", "several input files make series of --kind odds "
                                  "only; --kind %s takes one file", kind_names[opt.kind]);
    st = om_chart_files((const char *const *)args->operands, (size_t)args->n_operands,
                        a->output, &opt);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("chart", st);
}

const om_cli_command om_cli_chart = {
    .name = "chart",
    .summary = "draw an odds, distribution or heat-map chart (PNG, SVG, PDF)",
    .usage = "oddsmaster chart FILE.h5... --kind odds|dist|heatmap|fair -o OUT.png|svg|pdf\n"
             "                        [--field NAME] [--situation NAME|all]\n"
             "                        [--width W] [--height H] [--confidence C] [--force]",
    .about =
        "Draw a chart for a blog post or a forum: PNG, SVG or PDF by the extension of\n"
        "OUT, and beside it OUT.csv (chart.png.csv) with exactly the numbers plotted;\n"
        "an existing OUT.csv is not replaced without --force.",
    .more =
        "Kinds:\n"
        "  odds      (run files from 'oddsmaster run') bars of P(A wins), P(draw),\n"
        "            P(B wins), and P(no result) if any, with Wilson interval\n"
        "            whiskers and a dashed 50% line; several files are compared as\n"
        "            series (up to 8): chart a.h5 b.h5 c.h5 --kind odds -o cmp.png\n"
        "  dist      (a run file) bars of P(= k) and a line of P(>= k) with intervals\n"
        "            for one count field: --field NAME (default: the field deciding\n"
        "            side B's victory points, " OM_CHART_DEFAULT_FIELD " or lost_b; see\n"
        "            'oddsmaster summary' for the fields of a file)\n"
        "  heatmap   (a matrix file from 'oddsmaster matrix') the row unit's expected\n"
        "            score (win 1, draw 1/2) for every pair on the cividis scale,\n"
        "            readable in grey and by colour-blind readers, with win, draw\n"
        "            and lose percentages in each cell; --situation NAME picks one\n"
        "            situation, 'all' (default) pools them\n"
        "  fair      (a matrix file) each unit's fair points against its printed\n"
        "            cost, with interval bars (see 'oddsmaster efficiency')\n"
        "\n"
        "Every chart says what was simulated in its title and subtitle (units, rule\n"
        "set, situation or kind, trials) and ends with a manifest line, 'oddsmaster\n"
        "VERSION · RULESET · data VERSION · seed S · N trials · FILE', from which it\n"
        "can be regenerated exactly. SVG keeps its text as text. Files are written\n"
        "under temporary names and renamed when complete.",
    .exits =
        "  2  the chart does not fit the file: no such field or situation, an\n"
        "     odds chart of a run without a winner (a volley), or OUT.csv exists\n"
        "  3  a file cannot be read or written (a full disk: with the system's\n"
        "     reason), or the input is not the valid run or matrix file the kind\n"
        "     needs (damaged: a checksum that does not match, the run's\n"
        "     attributes edited; of an older schema)\n"
        "  4  out of memory or an unexpected failure\n",
    .options = chart_options,
    .n_options = sizeof chart_options / sizeof chart_options[0],
    .values_size = sizeof(chart_args),
    .defaults = &chart_defaults,
    .min_operands = 1,
    .max_operands = 8,
    .operands = "the input file (FILE.h5)",
    .operand = {{OM_CLI_COMPLETE_FILE, "*.h5|*.partial", NULL},
                {OM_CLI_COMPLETE_FILE, "*.h5|*.partial", NULL},
                {OM_CLI_COMPLETE_FILE, "*.h5|*.partial", NULL}},
    .run = chart_run,
};
