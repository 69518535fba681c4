/*
 * cmd_chart.c: `oddsmaster chart`, odds, distribution, yes/no, heat-map,
 * fair-points and units' victory-points charts as PNG, SVG or PDF with a CSV
 * of the plotted data beside them (analysis/chart.h). Without --kind, the kind
 * follows the first file.
 */
#include <stddef.h>
#include <stdio.h>

#include "chart.h"
#include "cli.h"

/* The arguments of `chart`. */
typedef struct chart_args {
    unsigned kind;         /* om_chart_kind */
    const char *output;    /* the chart file */
    om_cli_texts field;    /* dist: the field; flags: the fields or patterns */
    const char *situation; /* heatmap: the situation */
    uint64_t width;        /* 0: the kind's default */
    uint64_t height;       /* 0: the kind's default */
    double confidence;     /* of the intervals */
    bool force;            /* replace an existing data CSV */
} chart_args;

/* In om_chart_kind order. */
static const char *const kind_names[] = {"odds", "dist", "heatmap", "fair", "flags", "points",
                                         NULL};

static const om_cli_option chart_options[] = {
    {.name = "kind", .letter = 'k', .value = OM_CLI_CHOICE, .offset = offsetof(chart_args, kind),
     .metavar = "KIND", .choices = kind_names,
     .help = "odds, dist, heatmap, fair, flags or points (default:\nheatmap of a matrix file; of a run file, odds if it\nhas a winner, else dist of a volley, flags of a turn)"},
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT,
     .offset = offsetof(chart_args, output), .metavar = "OUT",
     .complete = {OM_CLI_COMPLETE_FILE, "*.png|*.svg|*.pdf", NULL},
     .help = "output file: .png, .svg or .pdf (required)"},
    {.name = "field", .letter = 'F', .value = OM_CLI_TEXTS, .offset = offsetof(chart_args, field),
     .metavar = "NAME", .complete = {OM_CLI_COMPLETE_FIELD, NULL, NULL},
     .help = "dist: the count field to draw (a unit's as\nFIELD@UNIT: stands_lost@knights); flags: a yes/no\nfield, a unit's as FIELD@UNIT (charged@knights), or\na pattern ('*@knights'), repeatable, drawn in the\norder given"},
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
     .help = "height, likewise (defaults: odds 1200 x 600, dist\n1200 x 700, heatmap 1200 x 1000, fair 1200 x 900,\nflags and points as high as their rows need)"},
    {.name = "confidence", .letter = 'c', .value = OM_CLI_REAL,
     .offset = offsetof(chart_args, confidence), .metavar = "C", .lo = 0.0, .hi = 1.0,
     .help = "confidence of the intervals, 0 < C < 1 (default 0.95)"},
    {.name = "force", .value = OM_CLI_FLAG, .offset = offsetof(chart_args, force),
     .help = "replace an existing OUT.csv that is not the data\nof an earlier chart (those are replaced anyway)"},
};

static const chart_args chart_defaults = {0};

static int chart_run(const om_cli_args *args)
{
    const chart_args *a = args->values;
    char notes[OM_ERROR_MSG_MAX] = "";
    om_chart_options opt = {.kind = (om_chart_kind)a->kind,
                            .field = a->field.count > 0 ? a->field.value[0] : NULL,
                            .fields = a->field.value, .n_fields = a->field.count,
                            .situation = a->situation, .width = (unsigned)a->width,
                            .height = (unsigned)a->height, .confidence = a->confidence,
                            .force = a->force, .notes = notes, .notes_size = sizeof notes};
    om_chart_format format;
    om_status st;

    if (a->output == NULL)
        return om_cli_usage_error("chart", "missing the output file (-o OUT.png|svg|pdf)");
    if (om_chart_format_from_path(a->output, &format) != OM_OK) {
        om_error_clear();
        return om_cli_usage_error("chart", "the output '%s' must end in .png, .svg or .pdf",
                                  a->output);
    }
    if (!om_cli_given(&om_cli_chart, args, "kind")
        && (st = om_chart_kind_default(args->operands[0], &opt.kind)) != OM_OK)
        return om_cli_fail("chart", st);
    if (a->field.count > 0 && opt.kind != OM_CHART_DIST && opt.kind != OM_CHART_FLAGS)
        return om_cli_usage_error("chart", "--field applies to --kind dist and flags only");
    if (a->field.count > 1 && opt.kind == OM_CHART_DIST)
        return om_cli_usage_error("chart", "--kind dist draws one field; several --field are "
                                  "for --kind flags");
    if (opt.situation != NULL && opt.kind != OM_CHART_HEATMAP && opt.kind != OM_CHART_FAIR)
        return om_cli_usage_error("chart", "--situation applies to --kind heatmap and fair only");
    if (args->n_operands > 1 && opt.kind != OM_CHART_ODDS)
        return om_cli_usage_error("chart", "several input files make series of --kind odds "
                                  "only; --kind %s takes one file", kind_names[opt.kind]);
    st = om_chart_files((const char *const *)args->operands, (size_t)args->n_operands,
                        a->output, &opt);
    if (notes[0] != '\0')
        om_cli_warn("chart", "%s", notes);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("chart", st);
}

const om_cli_command om_cli_chart = {
    .name = "chart",
    .summary = "draw an odds, distribution, yes/no, heat-map, fair or points chart",
    .usage = "oddsmaster chart FILE.h5... -o OUT.png|svg|pdf\n"
             "                        [--kind odds|dist|heatmap|fair|flags|points]\n"
             "                        [--field NAME]... [--situation NAME|all]\n"
             "                        [--width W] [--height H] [--confidence C] [--force]",
    .about =
        "Draw a chart for a blog post or a forum: PNG, SVG or PDF by the extension of\n"
        "OUT, and beside it OUT.csv (chart.png.csv) with exactly the numbers plotted.\n"
        "Drawing again replaces the OUT.csv an earlier chart wrote; any other\n"
        "existing OUT.csv is kept unless --force is given.",
    .more =
        "Kinds (without --kind: heatmap of a matrix file; of a run file, odds if it\n"
        "has a winner, else dist if it records how side B loses victory points (a\n"
        "volley), else flags if it has yes/no fields (a whole turn), else dist):\n"
        "  odds      (run files from 'oddsmaster run') bars of P(A wins), P(draw),\n"
        "            P(B wins), and P(no result) if any, with Wilson interval\n"
        "            whiskers and a dashed 50% line; several files are compared as\n"
        "            series (up to 8): chart a.h5 b.h5 c.h5 --kind odds -o cmp.png;\n"
        "            each series is labelled by what differs between the files'\n"
        "            records (game, rule set, kind, units, options and other\n"
        "            scenario values, else title, seed, trials, file); files that\n"
        "            mix games or kinds are drawn with a warning and a note\n"
        "  dist      (a run file) bars of P(= k) and a line of P(>= k) with intervals\n"
        "            for one count field: --field NAME (default: the field deciding\n"
        "            side B's victory points, stands_lost_b or lost_b; else side B's\n"
        "            victory points, vp_lost_b of a turn; else the first count\n"
        "            field). A two-byte count (victory points) is drawn at the\n"
        "            values that occurred. 'oddsmaster summary' lists the fields\n"
        "  flags     (a run file) one horizontal bar per yes/no field: its\n"
        "            probability with its interval, labelled by the field's\n"
        "            description in full; in file order (a turn: unit by unit),\n"
        "            those never set left out with a note; --field NAME or\n"
        "            --field 'PATTERN' (repeatable) picks fields, in the order given\n"
        "  heatmap   (a matrix file from 'oddsmaster matrix') the row unit's expected\n"
        "            score (win 1, draw 1/2) for every pair on the cividis scale,\n"
        "            readable in grey and by colour-blind readers, with win, draw\n"
        "            and lose percentages in each cell; a key explains the grey\n"
        "            '-' cells; --situation NAME picks one situation, 'all'\n"
        "            (default) pools them\n"
        "  fair      (a matrix file) each unit's fair points against its printed\n"
        "            cost, with interval bars (see 'oddsmaster efficiency'); names\n"
        "            never overlap (moved aside with a leader line, or numbered\n"
        "            with a key), and a footnote names the units not drawn and why\n"
        "  points    (a battle file from 'oddsmaster battle') one row per unit: the\n"
        "            victory points it scored and gave up a battle, means with their\n"
        "            intervals, side A's units first, within a side the best\n"
        "            scorers for their cost first (as 'oddsmaster summary' lists\n"
        "            them); a file without each unit's victory points exits 2\n"
        "\n"
        "Every chart says what was simulated in its title and subtitle (units, rule\n"
        "set, situation or kind, trials) and ends with a manifest line, 'oddsmaster\n"
        "VERSION · RULESET · data VERSION · seed S · N trials · FILE', from which it\n"
        "can be regenerated exactly. SVG keeps its text as text. Files are written\n"
        "under temporary names and renamed when complete.",
    .exits =
        "  2  the chart does not fit the file: no such field or situation, an\n"
        "     odds chart of a run without a winner (a volley), a points chart of\n"
        "     a file that is not a battle's, or OUT.csv exists and is not an\n"
        "     earlier chart's data (without --force)\n"
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
