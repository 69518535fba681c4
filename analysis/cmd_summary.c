/*
 * cmd_summary.c: `oddsmaster summary`, the report of a result file as text, JSON
 * or CSV (summary.h). Follows the subcommand conventions of cli.h: getopt_long,
 * --help on stdout with exit 0, errors once on stderr, documented exit codes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "summary.h"

/* Name of the subcommand in messages. */
static const char cmd_name[] = "summary";

static void print_help(FILE *out)
{
    fprintf(out,
            "Usage: oddsmaster summary FILE.h5 [--format text|json|csv] [--confidence C]\n"
            "\n"
            "Summarise a result file written by 'oddsmaster run': the chance that each\n"
            "side wins, draws or loses, and for every per-trial field its mean, standard\n"
            "deviation, full distribution and the chance of at least k, each probability\n"
            "with a Wilson score interval. The file is read in chunks, so any number of\n"
            "trials fits in a few megabytes of memory.\n"
            "\n"
            "Options:\n"
            "  -f, --format FORMAT    text (default): a readable report;\n"
            "                         json: one object, schema \"" OM_SUMMARY_SCHEMA "\";\n"
            "                         csv: one row per field and value\n"
            "  -c, --confidence C     confidence of the intervals, 0 < C < 1 (default 0.95)\n"
            "  -h, --help             show this help and exit\n"
            "\n"
            "Output:\n"
            "  header     file, title, rule set, kind, units and points, trials, seed,\n"
            "             program version\n"
            "  outcome    per side P(win), P(draw), P(lose) with intervals (combat runs)\n"
            "  fields     per count field (hits_on_b, stands_lost_a, retreat_cm, ...):\n"
            "             mean, sd (of the simulated values), P(=k) and P(>=k) for each k\n"
            "             up to the largest value seen, with the interval of P(>=k)\n"
            "  flags      destroyed_b, confused_b, routed_b, ...: P(set) with interval\n"
            "  JSON keys  schema, file, title, ruleset, kind, trials, seed (a string if\n"
            "             above 2^63-1), program_version, units, outcome, fields,\n"
            "             confidence\n"
            "  CSV        columns field,k,p_equal,p_at_least,lo,hi where lo,hi bound\n"
            "             p_at_least; rows win_a, draw_a, lose_a, win_b, draw_b, lose_b\n"
            "             (k = 1) hold the outcome probabilities\n"
            "\n"
            "Exit status:\n"
            "  0  success\n"
            "  1  bad command line (unknown option, bad format or confidence)\n"
            "  3  the file cannot be read, is not HDF5, or is not a valid result file;\n"
            "     or the output cannot be written\n"
            "  4  out of memory or an unexpected failure\n");
}

static int parse_format(const char *text, om_summary_format *out)
{
    /* In om_summary_format order. */
    static const char *const names[] = {"text", "json", "csv"};
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (om_summary_format)i;
            return 0;
        }
    return om_cli_usage_error(cmd_name, "--format must be text, json or csv, got '%s'", text);
}

int om_cmd_summary(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"confidence", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    om_summary_format format = OM_SUMMARY_TEXT;
    double confidence = OM_SUMMARY_CONFIDENCE;
    om_status st;
    int opt, rc;

    /*
     * optind = 0 makes glibc (and musl) reinitialise getopt completely, as main()
     * may have run getopt on its own arguments. A leading ':' reports a missing
     * argument as ':' and opterr = 0 silences getopt's own messages, so every error
     * comes out once in the subcommand's format.
     */
    optind = 0;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":f:c:h", longopts, NULL)) != -1) {
        switch (opt) {
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
    if ((rc = om_cli_one_operand(cmd_name, argc, argv, "the result file (FILE.h5)")) != 0)
        return rc;

    st = om_summary_print_file(argv[optind], format, confidence, stdout);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(cmd_name, st);
}
