/*
 * main.c: the oddsmaster program: the table of its subcommands, dispatched
 * git-style by om_cli_main (cli.c).
 *
 *   oddsmaster run [SCENARIO] [-o FILE.h5] ...   simulate, write an HDF5 result file
 *   oddsmaster summary FILE.h5 [--format ...]    probabilities and distributions
 *   oddsmaster list [RULESET[/ARMY]] [--rules]   the embedded army lists and rules
 *   oddsmaster matrix RULESET ROWS COLS -o F.h5  matchup matrix of two lists
 *   oddsmaster efficiency FILE.h5 [--format ...] points efficiency of a matrix file
 *   oddsmaster chart FILE.h5 --kind K -o OUT     odds, distribution, heat-map charts
 *   oddsmaster compare A.h5 B.h5 [--format ...]  two runs or matrices side by side
 *   oddsmaster battle LIST_A LIST_B -o B.h5 ...  two army lists fought many times
 *   oddsmaster replay FILE.h5 --battle K         one battle told, its table drawn
 * Each subcommand has --help and --version. Exit codes are documented in cli.h
 * and in docs/manual.md.
 */
#include "cli.h"

/* Every subcommand, in the order `oddsmaster --help` lists them. */
static const om_cli_command *const om_commands[] = {
    &om_cli_run, &om_cli_battle, &om_cli_summary, &om_cli_list, &om_cli_matrix, &om_cli_efficiency,
    &om_cli_chart, &om_cli_compare, &om_cli_replay,
};

int main(int argc, char **argv)
{
    return om_cli_main(om_commands, sizeof om_commands / sizeof om_commands[0], argc, argv);
}
