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
} chart_args;

/* In om_chart_kind order. */
static const char *const kind_names[] = {"odds", "dist", "heatmap", NULL};

static const om_cli_option chart_options[] = {
    {.name = "kind", .letter = 'k', .value = OM_CLI_CHOICE, .offset = offsetof(chart_args, kind),
     .metavar = "KIND", .choices = kind_names, .help = "odds, dist or heatmap (required)"},
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT,
     .offset = offsetof(chart_args, output), .metavar = "OUT",
     .help = "output file: .png, .svg or .pdf (required)"},
    {.name = "field", .letter = 'F', .value = OM_CLI_TEXT, .offset = offsetof(chart_args, field),
     .metavar = "NAME", .help = "dist: the count field to draw"},
    {.name = "situation", .letter = 's', .value = OM_CLI_TEXT,
     .offset = offsetof(chart_args, situation), .metavar = "NAME",
     .help = "heatmap: the situation, or all"},
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
};

static const chart_args chart_defaults = {0};

static int chart_run(const om_cli_args *args)
{
    const chart_args *a = args->values;
    om_chart_options opt = {.kind = (om_chart_kind)a->kind, .field = a->field,
                            .situation = a->situation, .width = (unsigned)a->width,
                            .height = (unsigned)a->height, .confidence = a->confidence};
    om_chart_format format;
    om_status st;

    if (!om_cli_given(&om_cli_chart, args, "kind"))
        return om_cli_usage_error("chart", "missing --kind (odds, dist or heatmap)");
    if (a->output == NULL)
        return om_cli_usage_error("chart", "missing the output file (-o OUT.png|svg|pdf)");
    if (om_chart_format_from_path(a->output, &format) != OM_OK) {
        om_error_clear();
        return om_cli_usage_error("chart", "the output '%s' must end in .png, .svg or .pdf",
                                  a->output);
    }
    if (opt.field != NULL && opt.kind != OM_CHART_DIST)
        return om_cli_usage_error("chart", "--field applies to --kind dist only");
    if (opt.situation != NULL && opt.kind != OM_CHART_HEATMAP)
        return om_cli_usage_error("chart", "--situation applies to --kind heatmap only");
    st = om_chart_file(args->operands[0], a->output, &opt);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("chart", st);
}

const om_cli_command om_cli_chart = {
    .name = "chart",
    .summary = "draw an odds, distribution or heat-map chart (PNG, SVG, PDF)",
    .usage = "oddsmaster chart FILE.h5 --kind odds|dist|heatmap -o OUT.png|OUT.svg|OUT.pdf\n"
             "                        [--field NAME] [--situation NAME|all]\n"
             "                        [--width W] [--height H] [--confidence C]",
    .about =
        "Draw a chart for a blog post or a forum: PNG, SVG or PDF by the extension of\n"
        "OUT, and beside it OUT.csv with exactly the numbers plotted.",
    .more =
        "Kinds:\n"
        "  odds      (a run file from 'oddsmaster run') bars of P(A wins), P(draw),\n"
        "            P(B wins), and P(no result) if any, with Wilson interval\n"
        "            whiskers and a dashed 50% line\n"
        "  dist      (a run file) bars of P(= k) and a line of P(>= k) with intervals\n"
        "            for one count field: --field NAME (default " OM_CHART_DEFAULT_FIELD ";\n"
        "            see 'oddsmaster summary' for the fields of a file)\n"
        "  heatmap   (a matrix file from 'oddsmaster matrix') P(row unit wins) for\n"
        "            every pair, red (column wins) to blue (row wins) through white at\n"
        "            50%, the value in each cell; --situation NAME picks one\n"
        "            situation, 'all' (default) pools them\n"
        "\n"
        "Every chart says what was simulated in its title and subtitle (units, rule\n"
        "set, situation or kind, trials) and ends with a manifest line, 'oddsmaster\n"
        "VERSION · RULESET · data VERSION · seed S · N trials · FILE', from which it\n"
        "can be regenerated exactly. Files are written under temporary names and\n"
        "renamed when complete.",
    .exits =
        "  2  the chart does not fit the file: no such field or situation, or an\n"
        "     odds chart of a run without a winner (a volley)\n"
        "  3  a file cannot be read or written, or the input is not the valid run\n"
        "     or matrix file the kind needs\n"
        "  4  out of memory or an unexpected failure\n",
    .options = chart_options,
    .n_options = sizeof chart_options / sizeof chart_options[0],
    .values_size = sizeof(chart_args),
    .defaults = &chart_defaults,
    .min_operands = 1,
    .max_operands = 1,
    .operands = "the input file (FILE.h5)",
    .run = chart_run,
};
