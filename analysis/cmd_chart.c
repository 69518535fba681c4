/*
 * cmd_chart.c: `oddsmaster chart`, odds, distribution and heat-map charts as
 * PNG, SVG or PDF with a CSV of the plotted data beside them (chart.h).
 * Follows the subcommand conventions of cli.h: getopt_long, --help on stdout
 * with exit 0, errors once on stderr, documented exit codes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "cli.h"

/* Name of the subcommand in messages. */
static const char cmd_name[] = "chart";

static void print_help(FILE *out)
{
    fprintf(out,
            "Usage: oddsmaster chart FILE.h5 --kind odds|dist|heatmap -o OUT.png|OUT.svg|OUT.pdf\n"
            "                        [--field NAME] [--situation NAME|all]\n"
            "                        [--width W] [--height H] [--confidence C]\n"
            "\n"
            "Draw a chart for a blog post or a forum: PNG, SVG or PDF by the extension of\n"
            "OUT, and beside it OUT.csv with exactly the numbers plotted.\n"
            "\n"
            "Kinds:\n"
            "  odds      (a run file from 'oddsmaster run') bars of P(A wins), P(draw),\n"
            "            P(B wins), and P(no result) if any, with Wilson interval\n"
            "            whiskers and a dashed 50%% line\n"
            "  dist      (a run file) bars of P(= k) and a line of P(>= k) with intervals\n"
            "            for one count field: --field NAME (default " OM_CHART_DEFAULT_FIELD
            ";\n"
            "            see 'oddsmaster summary' for the fields of a file)\n"
            "  heatmap   (a matrix file from 'oddsmaster matrix') P(row unit wins) for\n"
            "            every pair, red (column wins) to blue (row wins) through white at\n"
            "            50%%, the value in each cell; --situation NAME picks one\n"
            "            situation, 'all' (default) pools them\n"
            "\n"
            "Options:\n"
            "  -k, --kind KIND        odds, dist or heatmap (required)\n"
            "  -o, --output OUT       output file: .png, .svg or .pdf (required)\n"
            "  -F, --field NAME       dist: the count field to draw\n"
            "  -s, --situation NAME   heatmap: the situation, or all\n"
            "  -W, --width W          width in pixels (PNG) or points (SVG, PDF), %u to %u\n"
            "  -H, --height H         height, likewise (defaults: odds 1200 x 600, dist\n"
            "                         1200 x 700, heatmap 1200 x 1000)\n"
            "  -c, --confidence C     confidence of the intervals, 0 < C < 1 (default 0.95)\n"
            "  -h, --help             show this help and exit\n"
            "\n"
            "Every chart says what was simulated in its title and subtitle (units, rule\n"
            "set, situation or kind, trials) and ends with a manifest line, 'oddsmaster\n"
            "VERSION · RULESET · data VERSION · seed S · N trials · FILE', from which it\n"
            "can be regenerated exactly. Files are written under temporary names and\n"
            "renamed when complete.\n"
            "\n"
            "Exit status:\n"
            "  0  success\n"
            "  1  bad command line (unknown option or kind, missing --kind or -o, an\n"
            "     extension other than .png/.svg/.pdf, a bad size or confidence)\n"
            "  2  the chart does not fit the file: no such field or situation, or an\n"
            "     odds chart of a run without a winner (a volley)\n"
            "  3  a file cannot be read or written, or the input is not the valid run\n"
            "     or matrix file the kind needs\n"
            "  4  out of memory or an unexpected failure\n",
            OM_CHART_MIN_SIZE, OM_CHART_MAX_SIZE);
}

/* Parse a width or height option. */
static int parse_size(const char *option, const char *text, unsigned *out)
{
    unsigned long long v;
    int rc = om_cli_parse_u64(cmd_name, option, text, &v);
    if (rc != 0)
        return rc;
    if (v < OM_CHART_MIN_SIZE || v > OM_CHART_MAX_SIZE)
        return om_cli_usage_error(cmd_name, "%s must be %u to %u, got %llu", option,
                                  OM_CHART_MIN_SIZE, OM_CHART_MAX_SIZE, v);
    *out = (unsigned)v;
    return 0;
}

int om_cmd_chart(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"kind", required_argument, NULL, 'k'},
        {"output", required_argument, NULL, 'o'},
        {"field", required_argument, NULL, 'F'},
        {"situation", required_argument, NULL, 's'},
        {"width", required_argument, NULL, 'W'},
        {"height", required_argument, NULL, 'H'},
        {"confidence", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    om_chart_options opt = {0};
    om_chart_format format;
    const char *kind = NULL, *output = NULL;
    om_status st;
    int c, rc;

    /* See cmd_summary.c: reinitialise getopt, report every error ourselves. */
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":k:o:F:s:W:H:c:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': kind = optarg; break;
        case 'o': output = optarg; break;
        case 'F': opt.field = optarg; break;
        case 's': opt.situation = optarg; break;
        case 'W':
            if ((rc = parse_size("--width", optarg, &opt.width)) != 0)
                return rc;
            break;
        case 'H':
            if ((rc = parse_size("--height", optarg, &opt.height)) != 0)
                return rc;
            break;
        case 'c':
            if ((rc = om_cli_parse_confidence(cmd_name, "--confidence", optarg,
                                              &opt.confidence)) != 0)
                return rc;
            break;
        case 'h':
            print_help(stdout);
            return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
        default:
            return om_cli_getopt_error(cmd_name, c, argv);
        }
    }
    if ((rc = om_cli_one_operand(cmd_name, argc, argv, "the input file (FILE.h5)")) != 0)
        return rc;
    if (kind == NULL)
        return om_cli_usage_error(cmd_name, "missing --kind (odds, dist or heatmap)");
    if (om_chart_kind_parse(kind, &opt.kind) != OM_OK) {
        om_error_clear();
        return om_cli_usage_error(cmd_name, "--kind must be odds, dist or heatmap, got '%s'",
                                  kind);
    }
    if (output == NULL)
        return om_cli_usage_error(cmd_name, "missing the output file (-o OUT.png|svg|pdf)");
    if (om_chart_format_from_path(output, &format) != OM_OK) {
        om_error_clear();
        return om_cli_usage_error(cmd_name, "the output '%s' must end in .png, .svg or .pdf",
                                  output);
    }
    if (opt.field != NULL && opt.kind != OM_CHART_DIST)
        return om_cli_usage_error(cmd_name, "--field applies to --kind dist only");
    if (opt.situation != NULL && opt.kind != OM_CHART_HEATMAP)
        return om_cli_usage_error(cmd_name, "--situation applies to --kind heatmap only");
    st = om_chart_file(argv[optind], output, &opt);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(cmd_name, st);
}
