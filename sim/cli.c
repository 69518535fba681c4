/*
 * cli.c: exit codes and error printing shared by the subcommands (cli.h).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int om_cli_exit_code(om_status st)
{
    switch (st) {
    case OM_OK: return OM_EXIT_OK;
    case OM_EINVAL:
    case OM_EPARSE:
    case OM_ENOTFOUND:
    case OM_EUNSUPPORTED: return OM_EXIT_INPUT;
    case OM_EIO:
    case OM_EHDF5: return OM_EXIT_IO;
    case OM_ENOMEM: return OM_EXIT_INTERNAL;
    }
    return OM_EXIT_INTERNAL;
}

int om_cli_fail(const char *cmd, om_status st)
{
    fprintf(stderr, "oddsmaster %s: error: %s\n", cmd,
            om_error_message()[0] ? om_error_message() : om_status_name(st));
    return om_cli_exit_code(st);
}

int om_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "oddsmaster %s: error: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'oddsmaster %s --help'.\n", cmd);
    return OM_EXIT_USAGE;
}

int om_cli_parse_u64(const char *cmd, const char *option, const char *text,
                     unsigned long long *out)
{
    char *end = NULL;
    unsigned long long v;
    if (text == NULL || *text == '\0' || *text == '-' || *text == '+')
        return om_cli_usage_error(cmd, "%s needs a non-negative integer, got '%s'", option,
                                  text ? text : "");
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
        return om_cli_usage_error(cmd, "%s needs a non-negative integer, got '%s'", option, text);
    *out = v;
    return 0;
}

int om_cli_parse_confidence(const char *cmd, const char *option, const char *text,
                            double *out)
{
    char *end = NULL;
    double c = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(c) || !(c > 0.0 && c < 1.0))
        return om_cli_usage_error(cmd, "%s needs a number between 0 and 1, got '%s'", option,
                                  text);
    *out = c;
    return 0;
}

int om_cli_getopt_error(const char *cmd, int opt, char **argv)
{
    if (opt == ':')
        return om_cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    if (optopt != 0)
        return om_cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return om_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int om_cli_one_operand(const char *cmd, int argc, char **argv, const char *what)
{
    if (optind >= argc)
        return om_cli_usage_error(cmd, "missing %s", what);
    if (optind + 1 < argc)
        return om_cli_usage_error(cmd, "unexpected argument '%s' after the file",
                                  argv[optind + 1]);
    return 0;
}

char *om_cli_command_line(int argc, char **argv)
{
    size_t len = sizeof "oddsmaster";
    char *s;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    if ((s = malloc(len)) == NULL)
        return NULL;
    strcpy(s, "oddsmaster");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}
