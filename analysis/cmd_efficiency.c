/*
 * cmd_efficiency.c: `oddsmaster efficiency`, the points efficiency of the units
 * of a matchup matrix file as text, CSV, JSON or Markdown (efficiency.h).
 * Follows the subcommand conventions of cli.h: getopt_long, --help on stdout
 * with exit 0, errors once on stderr, documented exit codes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "efficiency.h"
#include "summary.h"

/* Name of the subcommand in messages. */
static const char cmd_name[] = "efficiency";

static void print_help(FILE *out)
{
    fprintf(out,
            "Usage: oddsmaster efficiency FILE.h5 [--situation NAME|all]\n"
            "                             [--format text|csv|json|markdown] [--confidence C]\n"
            "\n"
            "Rate every unit of a matchup matrix file (written by 'oddsmaster matrix':\n"
            "each unit of one list against each unit of another) for value for points.\n"
            "\n"
            "Options:\n"
            "  -s, --situation NAME   analyse one situation of the file; 'all' (default)\n"
            "                         pools every situation\n"
            "  -f, --format FORMAT    text (default), csv, json (schema\n"
            "                         \"" OM_EFFICIENCY_SCHEMA "\") or markdown\n"
            "  -c, --confidence C     confidence of the P(win) intervals, 0 < C < 1\n"
            "                         (default 0.95)\n"
            "  -h, --help             show this help and exit\n"
            "\n"
            "Per unit (rows and columns alike; the field of a row unit is the columns):\n"
            "  P(win)      mean over opponents and situations of the chance of winning,\n"
            "              with a Wilson interval on the pooled trials\n"
            "  kill/100    expected enemy points destroyed per 100 points of its cost\n"
            "  lost        expected own points lost\n"
            "  strength    Bradley-Terry strength (log-odds scale, with standard error)\n"
            "              fitted by maximum likelihood to the whole win matrix; a draw\n"
            "              counts as half a win. A unit that won or lost everything is\n"
            "              reported as not estimable\n"
            "  fair        fair points value: strength is regressed on ln(points) with\n"
            "              one intercept per side, strength = a + b ln(points); the fair\n"
            "              value is the cost at which that line reaches the unit's own\n"
            "              strength, exp((strength - a) / b). Not defined when fewer than\n"
            "              3 units qualify, costs do not vary, or b <= 0\n"
            "  diff        fair value minus printed cost (positive: under-costed)\n"
            "Then the residual matrix, observed minus predicted share of the row unit's\n"
            "score: a cell far from 0 is a matchup the single strength does not explain\n"
            "(rock-paper-scissors). Every form starts or ends with the manifest: program\n"
            "version, rule set, data version, seed and trials, to regenerate the numbers.\n"
            "\n"
            "Exit status:\n"
            "  0  success\n"
            "  1  bad command line (unknown option, bad format or confidence)\n"
            "  2  no situation of that name in the file\n"
            "  3  the file cannot be read, is not HDF5, or is not a valid matrix file;\n"
            "     or the output cannot be written\n"
            "  4  out of memory or an unexpected failure\n");
}

static int parse_format(const char *text, om_efficiency_format *out)
{
    /* In om_efficiency_format order. */
    static const char *const names[] = {"text", "csv", "json", "markdown"};
    for (int i = 0; i < 4; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (om_efficiency_format)i;
            return 0;
        }
    return om_cli_usage_error(cmd_name, "--format must be text, csv, json or markdown, got '%s'",
                              text);
}

/* Read, compute and print; the status of the first failure. */
static om_status run(const char *path, const char *situation, om_efficiency_format format,
                     double confidence)
{
    om_matrix *m = NULL;
    om_efficiency *e = NULL;
    size_t index;
    om_status st;
    if ((st = om_h5m_read(path, &m)) == OM_OK
        && (st = om_efficiency_situation_find(m, situation, &index)) == OM_OK
        && (st = om_efficiency_compute(m, index, confidence, &e)) == OM_OK)
        st = om_efficiency_print(e, format, stdout);
    om_efficiency_free(e);
    om_h5m_matrix_free(m);
    return st;
}

int om_cmd_efficiency(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"situation", required_argument, NULL, 's'},
        {"format", required_argument, NULL, 'f'},
        {"confidence", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    om_efficiency_format format = OM_EFFICIENCY_TEXT;
    double confidence = OM_SUMMARY_CONFIDENCE;
    const char *situation = NULL;
    om_status st;
    int opt, rc;

    /* See cmd_summary.c: reinitialise getopt, report every error ourselves. */
    optind = 0;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":s:f:c:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 's':
            situation = optarg;
            break;
        case 'f':
            if ((rc = parse_format(optarg, &format)) != 0)
                return rc;
            break;
        case 'c':
            rc = om_cli_parse_confidence(cmd_name, "--confidence", optarg, &confidence);
            if (rc != 0)
                return rc;
            break;
        case 'h':
            print_help(stdout);
            return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
        default:
            return om_cli_getopt_error(cmd_name, opt, argv);
        }
    }
    if ((rc = om_cli_one_operand(cmd_name, argc, argv, "the matrix file (FILE.h5)")) != 0)
        return rc;
    st = run(argv[optind], situation, format, confidence);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(cmd_name, st);
}
