/*
 * cli.h: conventions shared by the subcommands of the oddsmaster program.
 *
 * Each subcommand is `int om_cmd_NAME(int argc, char **argv)` with argv[0] the
 * subcommand name; it parses its own options (getopt_long), prints its --help
 * to stdout with exit 0, and returns a documented exit code. Errors are printed
 * once, to stderr, as "oddsmaster NAME: error: MESSAGE".
 */
#ifndef OM_CLI_H
#define OM_CLI_H

#include "status.h"

/* Documented exit codes (README "Exit codes"). */
enum {
    OM_EXIT_OK = 0,       /* success */
    OM_EXIT_USAGE = 1,    /* bad command line: unknown option, missing argument */
    OM_EXIT_INPUT = 2,    /* bad input file: malformed, unknown name, impossible value */
    OM_EXIT_IO = 3,       /* cannot read or write a file; corrupt result file */
    OM_EXIT_INTERNAL = 4  /* out of memory or an unexpected failure */
};

/* Map a status to its exit code (OM_OK -> 0, EPARSE/EINVAL/ENOTFOUND -> 2, ...). */
int om_cli_exit_code(om_status st);

/* Print "oddsmaster CMD: error: <last error message>" and return om_cli_exit_code(st). */
int om_cli_fail(const char *cmd, om_status st);

/* Print "oddsmaster CMD: error: MESSAGE" and a hint to use --help; return OM_EXIT_USAGE. */
int om_cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Parse a non-negative integer option value; on failure print a usage error
 * naming `option` and return OM_EXIT_USAGE, else store it and return 0.
 */
int om_cli_parse_u64(const char *cmd, const char *option, const char *text,
                     unsigned long long *out);

/*
 * Parse a confidence level: a number strictly between 0 and 1. On failure print
 * a usage error naming `option` and return OM_EXIT_USAGE, else store it and
 * return 0.
 */
int om_cli_parse_confidence(const char *cmd, const char *option, const char *text,
                            double *out);

/*
 * om_cli_getopt_error: the usage error for what getopt_long returned when it was
 * neither an option letter nor -1 (with a leading ':' in the option string and
 * opterr = 0, as the subcommands run it): ':' is an option missing its value,
 * anything else an unknown option. Prints it in the subcommand's format and
 * returns OM_EXIT_USAGE.
 */
int om_cli_getopt_error(const char *cmd, int opt, char **argv);

/*
 * om_cli_one_operand: after the options, exactly one operand must remain at
 * argv[optind]: the input file, described by `what` in the message ("the
 * result file (FILE.h5)"). Returns 0 if so, else prints the usage error and
 * returns OM_EXIT_USAGE.
 */
int om_cli_one_operand(const char *cmd, int argc, char **argv, const char *what);

/*
 * om_cli_command_line: "oddsmaster ARGV..." as one new string (free()), for the
 * provenance of the files a command writes; NULL when out of memory.
 */
char *om_cli_command_line(int argc, char **argv);

/* The subcommands. */
int om_cmd_run(int argc, char **argv);
int om_cmd_summary(int argc, char **argv);
int om_cmd_list(int argc, char **argv);
int om_cmd_matrix(int argc, char **argv);
int om_cmd_efficiency(int argc, char **argv);
int om_cmd_chart(int argc, char **argv);

#endif /* OM_CLI_H */
