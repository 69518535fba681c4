/*
 * main.c: the oddsmaster program: git-style dispatch to subcommands.
 *
 *   oddsmaster run [SCENARIO] [-o FILE.h5] ...   simulate, write an HDF5 result file
 *   oddsmaster summary FILE.h5 [--format ...]    probabilities and distributions
 *   oddsmaster list [RULESET[/ARMY]] [--rules]   the embedded army lists and rules
 *   oddsmaster matrix RULESET ROWS COLS -o F.h5  matchup matrix of two lists
 *   oddsmaster efficiency FILE.h5 [--format ...] points efficiency of a matrix file
 *   oddsmaster chart FILE.h5 --kind K -o OUT     odds, distribution, heat-map charts
 * Each subcommand has --help. Exit codes are documented in cli.h and the README.
 */
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "om_version.h"

typedef struct om_command {
    const char *name;                 /* subcommand name */
    int (*fn)(int argc, char **argv); /* its entry point */
    const char *summary;              /* one line for the command list */
} om_command;

static const om_command om_commands[] = {
    {"run", om_cmd_run, "simulate a scenario many times and write an HDF5 result file"},
    {"summary", om_cmd_summary, "print win/draw/lose odds and distributions from a result file"},
    {"list", om_cmd_list, "show the army lists: rule sets, armies, units, special rules"},
    {"matrix", om_cmd_matrix, "run every unit of one list against every unit of another"},
    {"efficiency", om_cmd_efficiency, "rate the units of a matrix file: P(win), points, strength"},
    {"chart", om_cmd_chart, "draw an odds, distribution or heat-map chart (PNG, SVG, PDF)"},
};

static void print_help(FILE *out)
{
    fprintf(out,
            "oddsmaster %s: what are the odds? Monte Carlo odds for tabletop battles.\n\n"
            "Usage: oddsmaster COMMAND [OPTIONS]\n"
            "       oddsmaster COMMAND --help\n\n"
            "Commands:\n", OM_VERSION);
    for (size_t i = 0; i < sizeof om_commands / sizeof om_commands[0]; i++)
        fprintf(out, "  %-10s %s\n", om_commands[i].name, om_commands[i].summary);
    fprintf(out,
            "\nOptions:\n"
            "  -h, --help     show this help\n"
            "  --version      show the program version\n\n"
            "Quick start:\n"
            "  oddsmaster run -o knights.h5     # the embedded default scenario, 1e6 trials\n"
            "  oddsmaster summary knights.h5 --format json\n"
            "  oddsmaster list warmaster-revolution/empire   # units to name with from:\n\n"
            "Exit codes: 0 success, 1 bad command line, 2 bad input file, 3 file I/O or\n"
            "corrupt result file, 4 internal error.\n");
}

int main(int argc, char **argv)
{
    /* Library code reports GSL failures through status codes, never aborts. */
    gsl_set_error_handler_off();
    if (argc < 2) {
        print_help(stderr);
        return OM_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        if (strcmp(argv[1], "help") == 0 && argc > 2) {
            char *sub[] = {argv[2], "--help", NULL};
            for (size_t i = 0; i < sizeof om_commands / sizeof om_commands[0]; i++)
                if (strcmp(argv[2], om_commands[i].name) == 0)
                    return om_commands[i].fn(2, sub);
        }
        print_help(stdout);
        return OM_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("oddsmaster %s\n", OM_VERSION);
        return OM_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof om_commands / sizeof om_commands[0]; i++)
        if (strcmp(argv[1], om_commands[i].name) == 0)
            return om_commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "oddsmaster: error: unknown command '%s'\n\n", argv[1]);
    print_help(stderr);
    return OM_EXIT_USAGE;
}
