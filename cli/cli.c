/*
 * cli.c: the one option parser and help printer of every subcommand, the
 * dispatch of the program, exit codes and error printing (cli.h).
 *
 * The parser builds getopt_long's tables from a command's option table, so
 * every command accepts the same syntax (--name value, --name=value, -n value,
 * -nvalue, "--" to end the options), and checks each value against the
 * option's kind and limits with a message that names the option and what it
 * accepts.
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "om_version.h"
#include "suggest.h"

/* Column at which option help starts in --help. */
#define HELP_COLUMN 25

/* The program's option that writes the man page or the completion script. */
#define GENERATE "--generate"

/* Widest line of --help text that is wrapped here. */
#define HELP_WIDTH 79

/* Long-option codes of --help and --version (past every byte, so they never
 * clash with an option letter), and the base of options without a letter. */
enum { CODE_HELP = 1000, CODE_VERSION = 1001, CODE_OPTION = 1100 };

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

void om_cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "oddsmaster %s: warning: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

bool om_cli_stderr_is_terminal(void) { return isatty(STDERR_FILENO) == 1; }

/* Print "oddsmaster CMD: error: OPTION 'PATH': ..." and return OM_EXIT_IO. */
static int output_error(const char *cmd, const char *option, const char *path, const char *fmt,
                        const char *arg)
{
    fprintf(stderr, "oddsmaster %s: error: %s '%s': ", cmd, option, path);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return OM_EXIT_IO;
}

int om_cli_check_output(const char *cmd, const char *option, const char *path)
{
    struct stat sb;
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (path[0] == '\0')
        return om_cli_usage_error(cmd, "%s needs a file name, got an empty one", option);
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return output_error(cmd, option, path, "is a directory%s; give a file name in it",
                                "");
        if (!S_ISREG(sb.st_mode))
            return output_error(cmd, option, path, "is not a regular file%s (a device, pipe or "
                                "socket); give a file name", "");
        return 0;
    }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return output_error(cmd, option, path, "the directory '%s' does not exist", dir);
    return 0;
}

/* Seconds on a monotonic clock. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void om_cli_progress_start(om_cli_progress *p, const char *cmd, const char *what, bool quiet)
{
    *p = (om_cli_progress){.cmd = cmd, .what = what,
                           .active = !quiet && om_cli_stderr_is_terminal()};
    p->start = p->last = now_seconds();
}

void om_cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
    om_cli_progress *p = ctx;
    double t = now_seconds(), elapsed = t - p->start, rate;
    if (!p->active || (t - p->last < 0.25 && done < total))
        return;
    p->last = t;
    rate = elapsed > 0 ? (double)done / elapsed : 0.0;
    fprintf(stderr, "\r\033[Koddsmaster %s: %llu of %llu %s (%.0f%%), %.3g %s/s", p->cmd,
            (unsigned long long)done, (unsigned long long)total, p->what,
            total ? 100.0 * (double)done / (double)total : 100.0, rate, p->what);
    if (rate > 0 && done < total)
        fprintf(stderr, ", %.0f s left", (double)(total - done) / rate);
    fflush(stderr);
    p->drawn = true;
}

void om_cli_progress_end(om_cli_progress *p)
{
    if (p->drawn)
        fprintf(stderr, "\r\033[K");
    p->drawn = false;
}

/* ---------------------------------------------------------------------------
 * Help.
 */

/* Print `text` with every line after the first indented by `indent` spaces. */
static void print_indented(FILE *out, const char *text, int indent)
{
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n' && p[1] != '\0')
            fprintf(out, "%*s", indent, "");
    }
}

/* One option's line(s) of --help. */
static void print_option(FILE *out, char letter, const char *name, const char *metavar,
                         const char *help)
{
    char left[96];
    int n = snprintf(left, sizeof left, "  %s%c%s--%s%s%s", letter ? "-" : " ",
                     letter ? letter : ' ', letter ? ", " : "  ", name, metavar ? " " : "",
                     metavar ? metavar : "");
    if (n >= HELP_COLUMN - 1)
        fprintf(out, "%s\n%*s", left, HELP_COLUMN, "");
    else
        fprintf(out, "%-*s", HELP_COLUMN, left);
    print_indented(out, help, HELP_COLUMN);
    fputc('\n', out);
}

/* The usage lines: each "oddsmaster ..." line aligned under the first, each
 * continuation line (starting with spaces) as written. */
static void print_usage(FILE *out, const char *usage)
{
    fputs("Usage: ", out);
    for (const char *p = usage; *p; p++) {
        fputc(*p, out);
        if (*p == '\n' && p[1] != ' ')
            fputs("       ", out);
    }
}

void om_cli_print_help(const om_cli_command *cmd, FILE *out)
{
    print_usage(out, cmd->usage);
    fprintf(out, "\n\n%s\n\nOptions:\n", cmd->about);
    for (size_t i = 0; i < cmd->n_options; i++) {
        const om_cli_option *o = &cmd->options[i];
        print_option(out, o->letter, o->name, o->metavar, o->help);
    }
    print_option(out, 'h', "help", NULL, "show this help and exit");
    print_option(out, 0, "version", NULL, "show the program version and exit");
    if (cmd->more)
        fprintf(out, "\n%s\n", cmd->more);
    fprintf(out, "\nExit status:\n  0  success\n  1  bad command line (unknown option, missing "
                 "or bad value)\n%s", cmd->exits ? cmd->exits : "");
}

/* ---------------------------------------------------------------------------
 * Values.
 */

/* Parse a decimal integer of option `o` into *out within its limits. */
static int parse_u64(const char *cmd, const om_cli_option *o, const char *text, uint64_t *out)
{
    char *end = NULL;
    unsigned long long v;
    bool digits = text[0] != '\0' && text[0] != '-' && text[0] != '+';
    errno = 0;
    v = digits ? strtoull(text, &end, 10) : 0;
    if (!digits || errno != 0 || end == text || *end != '\0' || v < o->min || v > o->max) {
        if (o->max == UINT64_MAX)
            return om_cli_usage_error(cmd, "--%s needs an integer of at least %llu, got '%s'",
                                      o->name, (unsigned long long)o->min, text);
        return om_cli_usage_error(cmd, "--%s needs an integer from %llu to %llu, got '%s'",
                                  o->name, (unsigned long long)o->min,
                                  (unsigned long long)o->max, text);
    }
    *out = v;
    return 0;
}

/* Parse a number of option `o`, strictly between its limits. */
static int parse_real(const char *cmd, const om_cli_option *o, const char *text, double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || !(v > o->lo && v < o->hi))
        return om_cli_usage_error(cmd, "--%s needs a number between %g and %g, got '%s'",
                                  o->name, o->lo, o->hi, text);
    *out = v;
    return 0;
}

/* Parse one of the option's words into its index; a word that is none of
 * them is a usage error naming them all and the nearest. */
static int parse_choice(const char *cmd, const om_cli_option *o, const char *text,
                        unsigned *out)
{
    char known[256] = "";
    const char *best;
    size_t n = 0;
    for (unsigned i = 0; o->choices[i]; i++, n++) {
        if (strcmp(text, o->choices[i]) == 0) {
            *out = i;
            return 0;
        }
        if (strlen(known) + strlen(o->choices[i]) + 3 < sizeof known) {
            strcat(known, i ? (o->choices[i + 1] ? ", " : " or ") : "");
            strcat(known, o->choices[i]);
        }
    }
    best = om_suggest(text, o->choices, n);
    return om_cli_usage_error(cmd, "--%s must be %s, got '%s'%s%s%s", o->name, known, text,
                              best ? "; did you mean '" : "", best ? best : "",
                              best ? "'?" : "");
}

/* Store the value of option `o` (text `arg`, NULL for a flag) into `values`. */
static int store(const char *cmd, const om_cli_option *o, const char *arg, char *values)
{
    void *at = values + o->offset;
    switch (o->value) {
    case OM_CLI_FLAG: *(bool *)at = true; return 0;
    case OM_CLI_U64: return parse_u64(cmd, o, arg, at);
    case OM_CLI_REAL: return parse_real(cmd, o, arg, at);
    case OM_CLI_CHOICE: return parse_choice(cmd, o, arg, at);
    case OM_CLI_TEXT:
        if (arg[0] == '\0')
            return om_cli_usage_error(cmd, "--%s needs a value, got an empty one", o->name);
        *(const char **)at = arg;
        return 0;
    case OM_CLI_TEXTS: {
        om_cli_texts *t = at;
        if (arg[0] == '\0')
            return om_cli_usage_error(cmd, "--%s needs a value, got an empty one", o->name);
        if (t->count == OM_CLI_TEXTS_MAX)
            return om_cli_usage_error(cmd, "--%s may be given at most %d times", o->name,
                                      OM_CLI_TEXTS_MAX);
        t->value[t->count++] = arg;
        return 0;
    }
    }
    return om_cli_usage_error(cmd, "--%s: unknown kind of value", o->name);
}

/* ---------------------------------------------------------------------------
 * Parsing.
 */

/* "oddsmaster ARGV..." as one new string, for the provenance of the files a
 * command writes; NULL when out of memory. */
static char *command_line(int argc, char **argv)
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

/* The usage error for an unknown long option `arg` ("--trails" or
 * "--trails=10") of cmd: the options it abbreviates when it could be several
 * (getopt_long takes an unambiguous beginning), else the nearest option. */
static int unknown_long_option(const om_cli_command *cmd, const char *arg)
{
    const char *names[OM_CLI_OPTIONS_MAX + 2], *best;
    char name[64], could[512] = "";
    size_t n = 0, len, matches = 0;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
    len = strlen(name);
    for (size_t i = 0; i < cmd->n_options && n < OM_CLI_OPTIONS_MAX; i++)
        names[n++] = cmd->options[i].name;
    names[n++] = "help";
    names[n++] = "version";
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return om_cli_usage_error(cmd->name, "option '--%s' takes no value, got '%s'", name,
                                      arg);
    for (size_t i = 0; len > 0 && i < n; i++)
        if (strncmp(names[i], name, len) == 0) {
            size_t used = strlen(could);
            snprintf(could + used, sizeof could - used, "%s--%s", matches++ ? ", " : "",
                     names[i]);
        }
    if (matches > 1)
        return om_cli_usage_error(cmd->name, "option '--%s' is ambiguous: it could be %s", name,
                                  could);
    if ((best = om_suggest(name, names, n)) != NULL)
        return om_cli_usage_error(cmd->name, "unknown option '--%s'; did you mean '--%s'?", name,
                                  best);
    return om_cli_usage_error(cmd->name, "unknown option '--%s'", name);
}

/* The usage error for what getopt_long returned for an unknown option or a
 * missing value. */
static int getopt_error(const om_cli_command *cmd, int code, char **argv)
{
    const char *arg = argv[optind - 1];
    if (code == ':')
        return om_cli_usage_error(cmd->name, "option '%s' needs a value", arg);
    if (optopt != 0 && optopt < CODE_HELP)
        return om_cli_usage_error(cmd->name, "unknown option '-%c'", optopt);
    if (strncmp(arg, "--", 2) == 0)
        return unknown_long_option(cmd, arg);
    return om_cli_usage_error(cmd->name, "unknown option '%s'", arg);
}

int om_cli_parse(const om_cli_command *cmd, int argc, char **argv, om_cli_args *args)
{
    struct option longopts[OM_CLI_OPTIONS_MAX + 3];
    char shortopts[2 * OM_CLI_OPTIONS_MAX + 4] = ":h";
    size_t ns = strlen(shortopts);
    int code, rc;

    if (cmd->n_options > OM_CLI_OPTIONS_MAX)
        return om_cli_usage_error(cmd->name, "too many options in the command table");
    memcpy(args->values, cmd->defaults, cmd->values_size);
    memset(args->given, 0, sizeof args->given);
    args->command_line = NULL;
    for (size_t i = 0; i < cmd->n_options; i++) {
        const om_cli_option *o = &cmd->options[i];
        int has_arg = o->value == OM_CLI_FLAG ? no_argument : required_argument;
        longopts[i] = (struct option){o->name, has_arg, NULL, (int)(CODE_OPTION + i)};
        if (o->letter) {
            shortopts[ns++] = o->letter;
            if (has_arg == required_argument)
                shortopts[ns++] = ':';
        }
    }
    shortopts[ns] = '\0';
    longopts[cmd->n_options] = (struct option){"help", no_argument, NULL, CODE_HELP};
    longopts[cmd->n_options + 1] = (struct option){"version", no_argument, NULL, CODE_VERSION};
    longopts[cmd->n_options + 2] = (struct option){NULL, 0, NULL, 0};

    /* optind = 0 reinitialises getopt completely (glibc, musl); opterr = 0 and
     * the leading ':' let every error come out once, in the command's format. */
    optind = 0;
    opterr = 0;
    while ((code = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        const om_cli_option *o = NULL;
        size_t i = 0;
        if (code == 'h' || code == CODE_HELP) {
            om_cli_print_help(cmd, stdout);
            return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
        }
        if (code == CODE_VERSION) {
            printf("oddsmaster %s\n", OM_VERSION);
            return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
        }
        if (code >= CODE_OPTION) {
            i = (size_t)(code - CODE_OPTION);
            o = &cmd->options[i];
        } else {
            for (i = 0; i < cmd->n_options; i++)
                if (cmd->options[i].letter == code)
                    break;
            if (i < cmd->n_options)
                o = &cmd->options[i];
        }
        if (o == NULL)
            return getopt_error(cmd, code, argv);
        if ((rc = store(cmd->name, o, optarg, args->values)) != 0)
            return rc;
        args->given[i] = true;
    }
    args->n_operands = argc - optind;
    args->operands = argv + optind;
    if (args->n_operands < cmd->min_operands)
        return om_cli_usage_error(cmd->name, "missing %s", cmd->operands);
    if (args->n_operands > cmd->max_operands)
        return om_cli_usage_error(cmd->name, "unexpected argument '%s'%s",
                                  args->operands[cmd->max_operands],
                                  cmd->max_operands ? " (too many operands)" : "");
    if ((args->command_line = command_line(argc, argv)) == NULL) {
        fprintf(stderr, "oddsmaster %s: error: out of memory\n", cmd->name);
        return OM_EXIT_INTERNAL;
    }
    return -1;
}

void om_cli_args_release(om_cli_args *args)
{
    free(args->command_line);
    args->command_line = NULL;
}

bool om_cli_given(const om_cli_command *cmd, const om_cli_args *args, const char *name)
{
    for (size_t i = 0; i < cmd->n_options; i++)
        if (strcmp(cmd->options[i].name, name) == 0)
            return args->given[i];
    return false;
}

/* ---------------------------------------------------------------------------
 * The program.
 */

const char om_cli_tagline[] = "Monte Carlo odds for tabletop battles";

const char om_cli_quick_start[] =
    "oddsmaster run -o knights.h5     # the embedded default scenario, 1e6 trials\n"
    "oddsmaster summary knights.h5 --format json\n"
    "oddsmaster list warmaster-revolution/empire   # units to name with from:\n";

const om_cli_exit_doc om_cli_exit_docs[OM_CLI_EXIT_DOCS] = {
    {OM_EXIT_OK, "success", "Success."},
    {OM_EXIT_USAGE, "bad command line",
     "Bad command line: an unknown command or option, a missing or bad value."},
    {OM_EXIT_INPUT, "bad input file",
     "Bad input: a malformed scenario, an unknown key, rule set, army, unit, field or "
     "situation, an impossible value."},
    {OM_EXIT_IO, "file I/O or corrupt result file",
     "A file cannot be read or written, or a result file is not a valid oddsmaster file."},
    {OM_EXIT_INTERNAL, "internal error", "Internal error: out of memory, or an unexpected failure."},
    {OM_EXIT_INTERRUPTED, "interrupted by a signal (run: a resumable FILE.h5.partial was kept)",
     "Interrupted by SIGINT or SIGTERM: run keeps the trials done as FILE.h5.partial, which "
     "run --resume finishes."},
};

/* Print the words of `text` (one line) as lines of at most `width` columns. */
static void print_wrapped(FILE *out, const char *text, int width)
{
    int col = 0;
    while (*text) {
        int len = (int)strcspn(text, " ");
        if (col > 0 && col + 1 + len > width) {
            fputc('\n', out);
            col = 0;
        } else if (col > 0) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", len, text);
        col += len;
        text += len;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

static void print_program_help(const om_cli_command *const *commands, size_t n, FILE *out)
{
    char codes[512];
    fprintf(out,
            "oddsmaster %s: what are the odds? %s.\n\n"
            "Usage: oddsmaster COMMAND [OPTIONS]\n"
            "       oddsmaster COMMAND --help\n\n"
            "Commands:\n", OM_VERSION, om_cli_tagline);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(out,
            "\nOptions:\n"
            "  -h, --help     show this help\n"
            "  --version      show the program version\n"
            "  --generate man|complete-bash\n"
            "                 write the man page or the bash completion script\n\n"
            "Quick start:\n");
    fputs("  ", out);
    print_indented(out, om_cli_quick_start, 2);
    strcpy(codes, "Exit codes:");
    for (size_t i = 0; i < OM_CLI_EXIT_DOCS; i++) {
        size_t used = strlen(codes);
        snprintf(codes + used, sizeof codes - used, " %d %s%s", om_cli_exit_docs[i].code,
                 om_cli_exit_docs[i].brief, i + 1 < OM_CLI_EXIT_DOCS ? "," : ".");
    }
    fputc('\n', out);
    print_wrapped(out, codes, HELP_WIDTH);
}

/* The command called `name`, or NULL. */
static const om_cli_command *find_command(const om_cli_command *const *commands, size_t n,
                                          const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return commands[i];
    return NULL;
}

/* "unknown command" with the nearest command, or all of them; OM_EXIT_USAGE. */
static int unknown_command(const om_cli_command *const *commands, size_t n, const char *name)
{
    const char *names[OM_CLI_COMMANDS_MAX], *best;
    char known[256] = "";
    size_t k = 0;
    for (size_t i = 0; i < n && k < OM_CLI_COMMANDS_MAX; i++) {
        size_t used = strlen(known);
        names[k++] = commands[i]->name;
        snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", commands[i]->name);
    }
    if (name[0] == '-') {
        fprintf(stderr, "oddsmaster: error: unknown option '%s'; a command's options follow it "
                "(oddsmaster COMMAND --help)\nTry 'oddsmaster --help'.\n", name);
        return OM_EXIT_USAGE;
    }
    best = om_suggest(name, names, k);
    if (best != NULL)
        fprintf(stderr, "oddsmaster: error: unknown command '%s'; did you mean '%s'?\n", name,
                best);
    else
        fprintf(stderr, "oddsmaster: error: unknown command '%s' (commands: %s)\n", name, known);
    fprintf(stderr, "Try 'oddsmaster --help'.\n");
    return OM_EXIT_USAGE;
}

/* Parse and run one command; its exit code. */
static int run_command(const om_cli_command *cmd, int argc, char **argv)
{
    om_cli_args args = {0};
    void *values = malloc(cmd->values_size ? cmd->values_size : 1);
    int rc;
    if (values == NULL) {
        fprintf(stderr, "oddsmaster %s: error: out of memory\n", cmd->name);
        return OM_EXIT_INTERNAL;
    }
    args.values = values;
    rc = om_cli_parse(cmd, argc, argv, &args);
    if (rc == -1)
        rc = cmd->run(&args);
    om_cli_args_release(&args);
    free(values);
    return rc;
}

int om_cli_main(const om_cli_command *const *commands, size_t n, int argc, char **argv)
{
    /* Library code reports GSL failures through status codes, never aborts. */
    gsl_set_error_handler_off();
    if (argc < 2) {
        print_program_help(commands, n, stderr);
        return OM_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        if (strcmp(argv[1], "help") == 0 && argc > 2) {
            const om_cli_command *cmd = find_command(commands, n, argv[2]);
            if (cmd == NULL)
                return unknown_command(commands, n, argv[2]);
            om_cli_print_help(cmd, stdout);
            return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
        }
        print_program_help(commands, n, stdout);
        return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("oddsmaster %s\n", OM_VERSION);
        return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
    }
    if (strncmp(argv[1], GENERATE, strlen(GENERATE)) == 0 &&
        (argv[1][strlen(GENERATE)] == '\0' || argv[1][strlen(GENERATE)] == '=')) {
        /* --generate WHAT, or --generate=WHAT, and nothing after it. */
        const bool joined = argv[1][strlen(GENERATE)] == '=';
        const char *what = joined ? argv[1] + strlen(GENERATE) + 1 : argc > 2 ? argv[2] : NULL;
        if (what == NULL || argc > (joined ? 2 : 3)) {
            fprintf(stderr, "oddsmaster: error: --generate takes man or complete-bash\n"
                            "Try 'oddsmaster --help'.\n");
            return OM_EXIT_USAGE;
        }
        return om_cli_generate(commands, n, what, stdout);
    }
    if (strcmp(argv[1], "--names") == 0)
        return om_cli_names(argc - 2, argv + 2);
    const om_cli_command *cmd = find_command(commands, n, argv[1]);
    if (cmd == NULL)
        return unknown_command(commands, n, argv[1]);
    return run_command(cmd, argc - 1, argv + 1);
}
