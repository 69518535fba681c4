/*
 * cli.h: the command line of the oddsmaster program, in one place.
 *
 * Every subcommand is one om_cli_command: its name, its help text, a table of
 * its options (each with its kind of value, its limits, where it is stored and
 * one line of help) and the function that does the work. One parser
 * (om_cli_parse, cli.c) reads every command's options from its table, checks
 * each value against the option's limits with a message naming the option,
 * answers --help (generated from the table and the command's own text) and
 * --version, and hands the command a filled argument struct; main.c holds the
 * table of commands. Errors are printed once, to stderr, as
 * "oddsmaster NAME: error: MESSAGE", and every outcome maps to a documented
 * exit code (docs/manual.md, "Exit codes").
 */
#ifndef OM_CLI_H
#define OM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

/* Documented exit codes (docs/manual.md, "Exit codes"). */
enum {
    OM_EXIT_OK = 0,       /* success */
    OM_EXIT_USAGE = 1,    /* bad command line: unknown option, missing or bad value */
    OM_EXIT_INPUT = 2,    /* bad input file: malformed, unknown name, impossible value */
    OM_EXIT_IO = 3,       /* cannot read or write a file; corrupt result file */
    OM_EXIT_INTERNAL = 4, /* out of memory or an unexpected failure */
    OM_EXIT_INTERRUPTED = 5 /* stopped by a signal: a resumable .partial file was written */
};

/* What an option's value is, and how it is stored in the command's arguments. */
typedef enum om_cli_value {
    OM_CLI_FLAG = 0, /* no value: sets a bool to true */
    OM_CLI_U64,      /* a decimal integer in [min, max]: uint64_t */
    OM_CLI_REAL,     /* a number strictly between lo and hi: double */
    OM_CLI_TEXT,     /* any non-empty text: const char * (into argv) */
    OM_CLI_CHOICE,   /* one word of `choices`: unsigned, its index */
    OM_CLI_TEXTS     /* text, repeatable: appended to an om_cli_texts */
} om_cli_value;

/*
 * What an option's value or an operand names, for shell completion (the
 * script `oddsmaster --generate complete-bash` writes from the command table):
 * the words a shell offers at TAB. OM_CLI_CHOICE values offer their choices
 * whatever this says. Names come from `oddsmaster --names` (names.c), which
 * asks the game interface, in the context of the command's first operand.
 */
typedef enum om_cli_complete {
    OM_CLI_COMPLETE_NONE = 0,   /* free text or a number: nothing to offer */
    OM_CLI_COMPLETE_FILE,       /* a file name (pattern: the names offered, e.g. "*.h5") */
    OM_CLI_COMPLETE_DIR,        /* a directory */
    OM_CLI_COMPLETE_LISTING,    /* RULESET[/NAME[/NAME]] of `oddsmaster list` */
    OM_CLI_COMPLETE_RULESET,    /* a rule set of any game */
    OM_CLI_COMPLETE_UNITS,      /* a matrix's comma-separated units of the rule set that
                                   is the first operand */
    OM_CLI_COMPLETE_SITUATION,  /* a situation of the first operand (a rule set or a
                                   matrix file), or of any game */
    OM_CLI_COMPLETE_KIND,       /* a kind a matrix of the first operand's rule set runs */
    OM_CLI_COMPLETE_ARMY,       /* an army (its id) of the first operand, a matrix file */
    OM_CLI_COMPLETE_FIELD,      /* a field of the first operand (a result file or a
                                   scenario; none: the embedded default) */
    OM_CLI_COMPLETE_ARMYLIST    /* an army list: a list file (pattern as for a file) or
                                   the name of an example list of any game */
} om_cli_complete;

/* How the shell completes a value or an operand. */
typedef struct om_cli_hint {
    om_cli_complete what; /* what it names */
    const char *pattern;  /* OM_CLI_COMPLETE_FILE: a glob of the files offered ("*.h5";
                             NULL: any); directories are offered too */
    const char *extra;    /* words offered besides the names (e.g. "all", "-"), or NULL */
} om_cli_hint;

/* Most values a repeatable option keeps. */
#define OM_CLI_TEXTS_MAX 64

/* The values of a repeatable option, in the order given. */
typedef struct om_cli_texts {
    size_t count;                        /* values given */
    const char *value[OM_CLI_TEXTS_MAX]; /* each value (into argv) */
} om_cli_texts;

/* One option of a command. */
typedef struct om_cli_option {
    const char *name;      /* long name without the dashes, e.g. "trials" */
    char letter;           /* short option letter, 0 for none */
    om_cli_value value;    /* kind of value */
    size_t offset;         /* where the value goes in the command's argument struct */
    const char *metavar;   /* the value in the help, e.g. "N" (NULL for a flag) */
    const char *help;      /* its help: one or more lines joined by '\n' */
    uint64_t min, max;     /* OM_CLI_U64: accepted range, both included */
    double lo, hi;         /* OM_CLI_REAL: accepted range, both excluded */
    const char *const *choices; /* OM_CLI_CHOICE: the words, NULL-terminated */
    om_cli_hint complete;  /* what the value names, for shell completion */
} om_cli_option;

/* Most options one command may have. */
#define OM_CLI_OPTIONS_MAX 32

/* The parsed command line of a command. */
typedef struct om_cli_args {
    void *values;                    /* the command's argument struct, filled */
    bool given[OM_CLI_OPTIONS_MAX];  /* given[i]: option i of the table was given */
    int n_operands;                  /* operands after the options */
    char **operands;                 /* the operands (into argv) */
    char *command_line;              /* "oddsmaster CMD ARGS..." for provenance (owned) */
} om_cli_args;

/* Operands of a command whose completion is described one by one. */
#define OM_CLI_OPERAND_HINTS 3

/* A subcommand. */
typedef struct om_cli_command {
    const char *name;         /* e.g. "run" */
    const char *summary;      /* one line for `oddsmaster --help` */
    const char *usage;        /* the usage line(s), each starting "oddsmaster NAME" */
    const char *about;        /* what it does: paragraphs printed after the usage */
    const char *more;         /* printed after the options: outputs, examples (or NULL) */
    const char *exits;        /* "Exit status:" lines specific to the command */
    const om_cli_option *options; /* its options (--help and --version are added) */
    size_t n_options;         /* entries of options */
    size_t values_size;       /* size of its argument struct */
    const void *defaults;     /* the argument struct before any option (values_size bytes) */
    int min_operands, max_operands; /* operands accepted */
    const char *operands;     /* what the operands are, for "missing ..." messages */
    om_cli_hint operand[OM_CLI_OPERAND_HINTS]; /* what operand i names, for shell
                                 completion; operands past the last use the last */
    int (*run)(const om_cli_args *args); /* does the work; returns an exit code */
} om_cli_command;

/* Most subcommands the program may have. */
#define OM_CLI_COMMANDS_MAX 32

/*
 * om_cli_main: the program: dispatch argv[1] to the command of that name in
 * `commands`, parse its options, run it. Handles `oddsmaster`, `--help`,
 * `help CMD` and `--version`. Returns the exit code.
 */
int om_cli_main(const om_cli_command *const *commands, size_t n, int argc, char **argv);

/*
 * om_cli_parse: parse argv (argv[0] is the command name) by cmd's option
 * table into args (whose `values` must point to values_size bytes). Returns
 * -1 when the command should run, or an exit code when parsing ended it:
 * OM_EXIT_OK after printing --help or --version, OM_EXIT_USAGE after printing
 * a usage error. On -1, free args with om_cli_args_release.
 */
int om_cli_parse(const om_cli_command *cmd, int argc, char **argv, om_cli_args *args);

/* Free what om_cli_parse allocated in args (not args->values). */
void om_cli_args_release(om_cli_args *args);

/* Whether option `name` of cmd was given on the command line. */
bool om_cli_given(const om_cli_command *cmd, const om_cli_args *args, const char *name);

/* Print cmd's help (usage, about, options generated from its table, more,
 * exit status) to `out`. */
void om_cli_print_help(const om_cli_command *cmd, FILE *out);

/* One documented exit code of the program and what it means, one line. */
typedef struct om_cli_exit_doc {
    int code;          /* OM_EXIT_* */
    const char *brief; /* a few words, for --help ("bad input file") */
    const char *text;  /* a sentence, for the man page */
} om_cli_exit_doc;

/* Every documented exit code, in order; OM_CLI_EXIT_DOCS entries. */
#define OM_CLI_EXIT_DOCS 6
extern const om_cli_exit_doc om_cli_exit_docs[OM_CLI_EXIT_DOCS];

/* What `oddsmaster --help` and the man page say of the program: its one-line
 * description (no full stop) and the three commands of its quick start. */
extern const char om_cli_tagline[];
extern const char om_cli_quick_start[];

/*
 * om_cli_generate: write what `oddsmaster --generate WHAT` makes from the
 * table of commands[0..n) to `out`: "man", the man page (roff, section 1);
 * "complete-bash", the bash completion script. Returns an exit code:
 * OM_EXIT_OK, OM_EXIT_USAGE (an unknown WHAT, with a message on stderr) or
 * OM_EXIT_IO (the output could not be written). Not thread-safe (stdio).
 */
int om_cli_generate(const om_cli_command *const *commands, size_t n, const char *what,
                    FILE *out);

/*
 * om_cli_names: `oddsmaster --names TOPIC [ARG...]` (argv[0] is TOPIC): the
 * names the completion script offers, one a line on stdout, from the game
 * interface (names.c). Topics: "listing PREFIX" (the names of `oddsmaster
 * list` that begin with PREFIX, at PREFIX's depth, each with a '/' after it
 * when names lie under it), "rulesets", "units RULESET WORD" (the words a matrix's list
 * of units of RULESET may continue WORD with), "situations [OPERAND]",
 * "kinds [RULESET]", "armies MATRIX" (the ids of its armies), "examples" (the example
 * army lists of every game), "fields [OPERAND]" (OPERAND: a rule set, a result or
 * matrix file, or a scenario; none: every game's, or the embedded default's
 * fields). Prints nothing for what it cannot read. Returns OM_EXIT_OK, or
 * OM_EXIT_USAGE for an unknown topic.
 */
int om_cli_names(int argc, char **argv);

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

/* Print "oddsmaster CMD: warning: MESSAGE" to stderr. */
void om_cli_warn(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Whether standard error is a terminal (progress lines are drawn only there). */
bool om_cli_stderr_is_terminal(void);

/*
 * om_cli_check_output: `path`, given with option `option` ("-o/--output"),
 * must name a regular file or a new file in an existing directory, before any
 * work is done. Prints an error naming the option and what is wrong and
 * returns its exit code: OM_EXIT_USAGE for an empty name, OM_EXIT_IO for a
 * directory, a device or a missing directory; 0 if the path will do.
 */
int om_cli_check_output(const char *cmd, const char *option, const char *path);

/* One updating line on standard error for long work: done, rate, time left. */
typedef struct om_cli_progress {
    const char *cmd;   /* the subcommand, for the line's prefix */
    const char *what;  /* what is counted, plural ("trials", "cells") */
    bool active;       /* standard error is a terminal and the user did not ask quiet */
    double start;      /* when the work started (seconds, monotonic) */
    double last;       /* when the line was last drawn */
    bool drawn;        /* a line is on the screen */
} om_cli_progress;

/* Start a progress line for `cmd` counting `what`; inactive when `quiet` or
 * standard error is not a terminal. */
void om_cli_progress_start(om_cli_progress *p, const char *cmd, const char *what, bool quiet);

/* Redraw the line (at most four times a second, and at the end): a callback of
 * the shape run.h's progress takes, with an om_cli_progress as ctx. */
void om_cli_progress_update(void *ctx, uint64_t done, uint64_t total);

/* Clear the line, if one was drawn. */
void om_cli_progress_end(om_cli_progress *p);

struct om_scenario;
struct om_run_request;

/*
 * om_cli_run_scenario: what `run` and `battle` share once their scenario is
 * loaded: simulate `sc` into the file req->path (or, with `resume` set and
 * `sc` NULL or the scenario the user named, continue the .partial file
 * `resume`), with a progress line counting `what` ("trials", "battles";
 * plural) unless `quiet`, SIGINT and SIGTERM caught
 * for the run's length (a .partial file kept, to resume with `oddsmaster CMD
 * --resume`), then print the notes (unless quiet) and the summary of the
 * file written. Sets req's scenario_text, interrupt and progress; the rest
 * of req is the caller's. Not thread-safe (signal handlers, stdio). Returns
 * an exit code (OM_EXIT_INTERRUPTED for a run a signal stopped), after
 * printing any error as `cmd`'s.
 */
int om_cli_run_scenario(const char *cmd, const char *what, const struct om_scenario *sc,
                        const char *resume, struct om_run_request *req, bool quiet);

/* The subcommands (each in its cmd_NAME.c). */
extern const om_cli_command om_cli_run;
extern const om_cli_command om_cli_summary;
extern const om_cli_command om_cli_list;
extern const om_cli_command om_cli_matrix;
extern const om_cli_command om_cli_efficiency;
extern const om_cli_command om_cli_chart;
extern const om_cli_command om_cli_compare;
extern const om_cli_command om_cli_battle;
extern const om_cli_command om_cli_replay;

#endif /* OM_CLI_H */
