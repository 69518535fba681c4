/*
 * generate.c: the man page and the bash completion script of the program,
 * written from the same table of commands that prints --help (cli.h,
 * om_cli_generate), so that neither can drift from the options the parser
 * takes: `oddsmaster --generate man` and `oddsmaster --generate
 * complete-bash`, which the build runs to make oddsmaster.1 and the
 * completion file that `meson install` installs.
 *
 * The man page is roff for the man macros: each command's usage, its text
 * (lines that begin with spaces kept as they are, the rest filled), its
 * options from the table, and its exit status. Everything typed is escaped,
 * so that no text of a help can be read as a request.
 *
 * The completion script knows each command's options, which take a value,
 * the words of each choice, and what each value and operand names (the
 * table's om_cli_hint); the names of rule sets, armies, units, situations,
 * kinds and fields it asks of `oddsmaster --names` (names.c) as it completes,
 * through the same program the user typed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "om_version.h"

/* Spaces "Usage: " puts before the first usage line in --help, which the
 * continuation lines of a usage are aligned to. */
#define USAGE_INDENT 7

/* ---------------------------------------------------------------------------
 * roff
 */

/* The code point of the UTF-8 sequence at *p (advanced past it); a byte
 * that starts no valid sequence is taken as itself. */
static uint32_t utf8_next(const unsigned char **p)
{
    const unsigned char *s = *p;
    uint32_t c = s[0];
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (more == 0) {
        *p = s + 1;
        return c;
    }
    c &= 0x3Fu >> more;
    for (int i = 1; i <= more; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p = s + 1;
            return s[0];
        }
        c = c << 6 | (s[i] & 0x3Fu);
    }
    *p = s + more + 1;
    return c;
}

/* Write len bytes of `text` (one line, no newline) as roff text: a backslash
 * as \e, a hyphen-minus as \- (so that options read and copy as typed), any
 * other character past ASCII as \[uXXXX] (whatever the locale), and a
 * leading '.' or '\'' guarded by \&, so that it is never a request. */
static void roff_text(FILE *out, const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    if (len > 0 && (text[0] == '.' || text[0] == '\''))
        fputs("\\&", out);
    while (p < end) {
        if (*p >= 0x80) {
            fprintf(out, "\\[u%04X]", (unsigned)utf8_next(&p));
            continue;
        }
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else
            fputc(*p, out);
        p++;
    }
}

/* Write a NUL-terminated string as roff text (roff_text). */
static void roff_str(FILE *out, const char *text)
{
    roff_text(out, text, strlen(text));
}

/*
 * Write a help text of several lines as roff: lines that begin with a space
 * (tables, examples, aligned lists) as they are, in no-fill mode; the other
 * lines filled into paragraphs; a blank line between paragraphs.
 */
static void roff_block(FILE *out, const char *text)
{
    bool verbatim = false, paragraph = false;
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len == 0) {
            paragraph = true;
        } else if (line[0] == ' ') {
            if (paragraph || !verbatim)
                fputs(paragraph ? ".PP\n.nf\n" : ".nf\n", out);
            paragraph = false;
            verbatim = true;
            roff_text(out, line, len);
            fputc('\n', out);
        } else {
            if (verbatim)
                fputs(".fi\n", out);
            if (paragraph)
                fputs(".PP\n", out);
            verbatim = paragraph = false;
            roff_text(out, line, len);
            fputc('\n', out);
        }
        line += len + (line[len] == '\n');
        if (paragraph && verbatim) {
            fputs(".fi\n", out);
            verbatim = false;
        }
    }
    if (verbatim)
        fputs(".fi\n", out);
}

/* A command's usage lines, in no-fill mode, aligned as --help aligns them. */
static void roff_usage(FILE *out, const char *usage)
{
    fputs(".nf\n", out);
    for (const char *line = usage; *line;) {
        size_t len = strcspn(line, "\n"), skip = 0;
        /* A continuation line is aligned after "Usage: ", which is not here. */
        while (line[0] == ' ' && skip < USAGE_INDENT && line[skip] == ' ')
            skip++;
        roff_text(out, line + skip, len - skip);
        fputc('\n', out);
        line += len + (line[len] == '\n');
    }
    fputs(".fi\n", out);
}

/* One option as a tagged paragraph: its forms in bold, its value in italics,
 * its help filled below. */
static void roff_option(FILE *out, char letter, const char *name, const char *metavar,
                        const char *help)
{
    fputs(".TP\n", out);
    if (letter)
        fprintf(out, "\\fB\\-%c\\fR, ", letter);
    fputs("\\fB\\-\\-", out);
    roff_str(out, name);
    fputs("\\fR", out);
    if (metavar) {
        fputs(" \\fI", out);
        roff_str(out, metavar);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    for (const char *line = help; *line;) {
        size_t len = strcspn(line, "\n"), lead = strspn(line, " ");
        if (lead > len)
            lead = len;
        roff_text(out, line + lead, len - lead);
        fputc('\n', out);
        line += len + (line[len] == '\n');
    }
}

static void man_command(FILE *out, const om_cli_command *cmd)
{
    fputs(".SH \"", out);
    roff_str(out, "oddsmaster ");
    roff_str(out, cmd->name);
    fputs("\"\n", out);
    roff_str(out, cmd->summary);
    fputs(".\n.SS Usage\n", out);
    roff_usage(out, cmd->usage);
    fputs(".SS Description\n", out);
    roff_block(out, cmd->about);
    fputs(".SS Options\n", out);
    for (size_t i = 0; i < cmd->n_options; i++) {
        const om_cli_option *o = &cmd->options[i];
        roff_option(out, o->letter, o->name, o->metavar, o->help);
    }
    roff_option(out, 'h', "help", NULL, "show this help and exit");
    roff_option(out, 0, "version", NULL, "show the program version and exit");
    if (cmd->more) {
        fputs(".SS Details\n", out);
        roff_block(out, cmd->more);
    }
    fputs(".SS \"Exit status\"\n", out);
    roff_block(out, "  0  success\n  1  bad command line (unknown option, missing or bad value)");
    if (cmd->exits)
        roff_block(out, cmd->exits);
}

static void man_page(FILE *out, const om_cli_command *const *commands, size_t n)
{
    fputs(".\\\" oddsmaster(1), written by 'oddsmaster --generate man' from the program's\n"
          ".\\\" table of commands, as its --help is: edit cli/, not this file.\n", out);
    fputs(".TH ODDSMASTER 1 \"\" \"oddsmaster ", out);
    roff_str(out, OM_VERSION);
    fputs("\" \"User Commands\"\n.nh\n.SH NAME\noddsmaster \\- ", out);
    roff_str(out, om_cli_tagline);
    fputs("\n.SH SYNOPSIS\n.nf\n\\fBoddsmaster\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n"
          "\\fBoddsmaster\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n"
          "\\fBoddsmaster\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n"
          "\\fBoddsmaster\\fR \\fB\\-\\-generate\\fR \\fBman\\fR|\\fBcomplete\\-bash\\fR\n"
          ".fi\n", out);
    fputs(".SH DESCRIPTION\n\\fBoddsmaster\\fR simulates tabletop battles (the Warmaster "
          "family and Warhammer Fantasy Battles 7th edition) many times over, writes every "
          "trial to an HDF5 result file, and turns the results into probabilities with "
          "intervals, matchup matrices, fair points and charts. The same seed gives the same "
          "results, bit for bit, on any number of threads.\n.PP\n"
          "Each command has its own options, after its name; \\fBoddsmaster \\fICOMMAND\\fB "
          "\\-\\-help\\fR prints them as this page does.\n", out);
    for (size_t i = 0; i < n; i++) {
        fputs(".TP\n\\fB", out);
        roff_str(out, commands[i]->name);
        fputs("\\fR\n", out);
        roff_str(out, commands[i]->summary);
        fputc('\n', out);
    }
    fputs(".SH OPTIONS\nBefore any command:\n", out);
    roff_option(out, 'h', "help", NULL, "show the program's help and exit");
    roff_option(out, 0, "version", NULL, "show the program version and exit");
    roff_option(out, 0, "generate", "man|complete-bash",
                "write this man page, or the bash completion script, to standard output");
    for (size_t i = 0; i < n; i++)
        man_command(out, commands[i]);
    fputs(".SH \"EXIT STATUS\"\n", out);
    for (size_t i = 0; i < OM_CLI_EXIT_DOCS; i++) {
        fprintf(out, ".TP\n\\fB%d\\fR\n", om_cli_exit_docs[i].code);
        roff_str(out, om_cli_exit_docs[i].text);
        fputc('\n', out);
    }
    fputs(".SH EXAMPLES\n.nf\n", out);
    for (const char *line = om_cli_quick_start; *line;) {
        size_t len = strcspn(line, "\n");
        roff_text(out, line, len);
        fputc('\n', out);
        line += len + (line[len] == '\n');
    }
    fputs(".fi\n", out);
    fputs(".SH \"SEE ALSO\"\nThe manual, \\fIdocs/manual.md\\fR, and the scenario file "
          "reference, \\fIdocs/scenario\\-format.md\\fR, in the source of oddsmaster.\n", out);
}

/* ---------------------------------------------------------------------------
 * bash completion
 */

/* Whether a word of the table may be written inside single quotes in the
 * script (the words are the table's own: no quote ever, but a script must
 * not be broken by one). */
static bool quotable(const char *s)
{
    return s == NULL || strchr(s, '\'') == NULL;
}

/* The bash words that complete a value or an operand `h` (with the
 * option's choices `choices`, or NULL): a call of a function of the script. */
static void bash_hint(FILE *out, const om_cli_hint *h, const char *const *choices)
{
    const char *extra = h->extra && quotable(h->extra) ? h->extra : "";
    if (choices != NULL) {
        fputs("_oddsmaster_words '", out);
        for (size_t i = 0; choices[i]; i++)
            if (quotable(choices[i]))
                fprintf(out, "%s%s", i ? " " : "", choices[i]);
        fputs("'", out);
        return;
    }
    switch (h->what) {
    case OM_CLI_COMPLETE_FILE:
        fprintf(out, "_oddsmaster_files '%s' '%s'",
                h->pattern && quotable(h->pattern) ? h->pattern : "", extra);
        return;
    case OM_CLI_COMPLETE_DIR: fputs("_oddsmaster_dirs", out); return;
    case OM_CLI_COMPLETE_LISTING: fputs("_oddsmaster_listing", out); return;
    case OM_CLI_COMPLETE_RULESET:
        fprintf(out, "_oddsmaster_words \"$(_oddsmaster_names rulesets) %s\"", extra);
        return;
    case OM_CLI_COMPLETE_UNITS: fputs("_oddsmaster_units \"$first\"", out); return;
    case OM_CLI_COMPLETE_SITUATION:
        fprintf(out, "_oddsmaster_words \"$(_oddsmaster_names situations \"$first\") %s\"",
                extra);
        return;
    case OM_CLI_COMPLETE_KIND:
        fprintf(out, "_oddsmaster_words \"$(_oddsmaster_names kinds \"$first\") %s\"", extra);
        return;
    case OM_CLI_COMPLETE_ARMY:
        fprintf(out, "_oddsmaster_words \"$(_oddsmaster_names armies \"$first\") %s\"", extra);
        return;
    case OM_CLI_COMPLETE_FIELD:
        fprintf(out, "_oddsmaster_words \"$(_oddsmaster_names fields \"$first\") %s\"", extra);
        return;
    case OM_CLI_COMPLETE_ARMYLIST:
        fprintf(out, "_oddsmaster_files '%s' \"$(_oddsmaster_names examples) %s\"",
                h->pattern && quotable(h->pattern) ? h->pattern : "", extra);
        return;
    case OM_CLI_COMPLETE_NONE: break;
    }
    fputs("COMPREPLY=()", out);
}

/* The script's fixed part: the helpers each completion calls. */
static const char bash_helpers[] =
    "# The program to ask for names: the one being completed (COMP_WORDS[0], a\n"
    "# leading ~ expanded), or oddsmaster on the PATH.\n"
    "_oddsmaster_names()\n"
    "{\n"
    "    local om=${COMP_WORDS[0]/#\\~/$HOME}\n"
    "    command -v \"$om\" >/dev/null 2>&1 || om=oddsmaster\n"
    "    \"$om\" --names \"$@\" 2>/dev/null\n"
    "}\n"
    "\n"
    "# _oddsmaster_words WORDS: those of WORDS that begin with the word typed.\n"
    "_oddsmaster_words()\n"
    "{\n"
    "    local IFS=$' \\t\\n'\n"
    "    COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n"
    "}\n"
    "\n"
    "# _oddsmaster_files PATTERNS EXTRA: the files matching one of PATTERNS\n"
    "# ('*.h5|*.partial'; empty: any file), the directories, and the words EXTRA.\n"
    "_oddsmaster_files()\n"
    "{\n"
    "    local IFS=$'\\n' p\n"
    "    COMPREPLY=()\n"
    "    if [[ -z $1 ]]; then\n"
    "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "    else\n"
    "        local -a pats\n"
    "        IFS='|' read -r -a pats <<<\"$1\"\n"
    "        for p in \"${pats[@]}\"; do\n"
    "            COMPREPLY+=($(compgen -f -X \"!$p\" -- \"$cur\"))\n"
    "        done\n"
    "        COMPREPLY+=($(compgen -d -- \"$cur\"))\n"
    "    fi\n"
    "    IFS=$' \\t\\n'\n"
    "    COMPREPLY+=($(compgen -W \"$2\" -- \"$cur\"))\n"
    "    compopt -o filenames 2>/dev/null\n"
    "}\n"
    "\n"
    "_oddsmaster_dirs()\n"
    "{\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(compgen -d -- \"$cur\"))\n"
    "    compopt -o filenames 2>/dev/null\n"
    "}\n"
    "\n"
    "# RULESET[/NAME[/NAME]] of oddsmaster list: a name with names under it ends\n"
    "# in '/', and no space follows, so that TAB goes on below it.\n"
    "_oddsmaster_listing()\n"
    "{\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(_oddsmaster_names listing \"$cur\"))\n"
    "    [[ ${COMPREPLY[*]} == */* ]] && compopt -o nospace 2>/dev/null\n"
    "    return 0\n"
    "}\n"
    "\n"
    "# A matrix's units of the rule set RULESET, comma-separated: no space after\n"
    "# one, so that ',' or '/' may follow.\n"
    "_oddsmaster_units()\n"
    "{\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(_oddsmaster_names units \"$1\" \"$cur\"))\n"
    "    compopt -o nospace 2>/dev/null\n"
    "    return 0\n"
    "}\n";

/* The case arm "CMD --name"|"CMD -l" of option o. */
static void bash_option_pattern(FILE *out, const om_cli_command *cmd, const om_cli_option *o)
{
    fprintf(out, "    \"%s --%s\"", cmd->name, o->name);
    if (o->letter)
        fprintf(out, "|\"%s -%c\"", cmd->name, o->letter);
}

static void bash_script(FILE *out, const om_cli_command *const *commands, size_t n)
{
    fprintf(out, "# bash completion of oddsmaster                          -*- shell-script -*-\n"
                 "# Written by 'oddsmaster --generate complete-bash' (oddsmaster %s) from the\n"
                 "# program's table of commands, as its --help is: edit cli/, not this file.\n"
                 "# Install it in bash-completion's completions directory, or source it.\n\n",
            OM_VERSION);
    fputs(bash_helpers, out);

    /* Which options take a value (so that a value is not counted as an operand). */
    fputs("\n# _oddsmaster_takes_value CMD OPTION: whether OPTION of CMD takes a value.\n"
          "_oddsmaster_takes_value()\n{\n    case \"$1 $2\" in\n", out);
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < commands[c]->n_options; i++)
            if (commands[c]->options[i].value != OM_CLI_FLAG) {
                bash_option_pattern(out, commands[c], &commands[c]->options[i]);
                fputs(") return 0 ;;\n", out);
            }
    fputs("    esac\n    return 1\n}\n", out);

    /* The value of each option. */
    fputs("\n# _oddsmaster_value CMD OPTION: complete the value of OPTION ($first: the first\n"
          "# operand, the context of names).\n"
          "_oddsmaster_value()\n{\n    case \"$1 $2\" in\n", out);
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < commands[c]->n_options; i++) {
            const om_cli_option *o = &commands[c]->options[i];
            if (o->value == OM_CLI_FLAG)
                continue;
            bash_option_pattern(out, commands[c], o);
            fputs(") ", out);
            bash_hint(out, &o->complete, o->value == OM_CLI_CHOICE ? o->choices : NULL);
            fputs(" ;;\n", out);
        }
    fputs("    *) COMPREPLY=() ;;\n    esac\n}\n", out);

    /* The operands. */
    fputs("\n# _oddsmaster_operand CMD INDEX: complete operand INDEX (from 0) of CMD.\n"
          "_oddsmaster_operand()\n{\n    case \"$1 $2\" in\n", out);
    for (size_t c = 0; c < n; c++) {
        const om_cli_command *cmd = commands[c];
        for (int i = 0; i < OM_CLI_OPERAND_HINTS && i < cmd->max_operands; i++) {
            if (cmd->operand[i].what == OM_CLI_COMPLETE_NONE)
                continue;
            fprintf(out, "    \"%s %d\"", cmd->name, i);
            /* Operands past the last hint complete as the last. */
            for (int k = i + 1; i == OM_CLI_OPERAND_HINTS - 1 && k < cmd->max_operands; k++)
                fprintf(out, "|\"%s %d\"", cmd->name, k);
            fputs(") ", out);
            bash_hint(out, &cmd->operand[i], NULL);
            fputs(" ;;\n", out);
        }
    }
    fputs("    *) COMPREPLY=() ;;\n    esac\n}\n", out);

    /* The options of each command. */
    fputs("\n# _oddsmaster_options CMD: the options of CMD.\n"
          "_oddsmaster_options()\n{\n    case $1 in\n", out);
    for (size_t c = 0; c < n; c++) {
        fprintf(out, "    %s) echo '", commands[c]->name);
        for (size_t i = 0; i < commands[c]->n_options; i++)
            fprintf(out, "--%s ", commands[c]->options[i].name);
        fputs("--help --version' ;;\n", out);
    }
    fputs("    esac\n}\n", out);

    fputs("\n_oddsmaster()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev='' cmd='' first='' opt=''\n"
          "    local i word operands=0 options_end=0\n"
          "    COMPREPLY=()\n"
          "    # --name=VALUE: bash splits it at '=' (COMP_WORDBREAKS).\n"
          "    if ((COMP_CWORD > 1)); then prev=${COMP_WORDS[COMP_CWORD - 1]}; fi\n"
          "    if [[ $cur == = ]]; then\n"
          "        opt=$prev cur=''\n"
          "    elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then\n"
          "        opt=${COMP_WORDS[COMP_CWORD - 2]}\n"
          "    fi\n"
          "    if ((COMP_CWORD == 1)); then\n"
          "        if [[ $cur == -* ]]; then\n"
          "            _oddsmaster_words '--help --version --generate'\n"
          "        else\n"
          "            _oddsmaster_words '", out);
    for (size_t c = 0; c < n; c++)
        fprintf(out, "%s%s", c ? " " : "", commands[c]->name);
    fputs(" help'\n"
          "        fi\n"
          "        return 0\n"
          "    fi\n"
          "    cmd=${COMP_WORDS[1]}\n"
          "    case $cmd in\n"
          "    --generate) { ((COMP_CWORD == 2)) || [[ -n $opt ]]; } &&\n"
          "        _oddsmaster_words 'man complete-bash'\n"
          "        return 0 ;;\n"
          "    help) ((COMP_CWORD == 2)) && _oddsmaster_words '", out);
    for (size_t c = 0; c < n; c++)
        fprintf(out, "%s%s", c ? " " : "", commands[c]->name);
    fputs("'\n"
          "        return 0 ;;\n"
          "    esac\n"
          "    # The words before the one completed: options, their values, operands.\n"
          "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
          "        word=${COMP_WORDS[i]}\n"
          "        if ((options_end == 0)) && [[ $word == -- ]]; then\n"
          "            options_end=1\n"
          "        elif ((options_end == 0)) && [[ $word == -?* ]]; then\n"
          "            if [[ ${COMP_WORDS[i + 1]} == = ]]; then\n"
          "                ((i += 2))\n"
          "            elif _oddsmaster_takes_value \"$cmd\" \"$word\"; then\n"
          "                ((i++))\n"
          "            fi\n"
          "        elif [[ $word != = ]]; then\n"
          "            ((operands == 0)) && first=$word\n"
          "            ((operands++))\n"
          "        fi\n"
          "    done\n"
          "    if [[ -z $opt && $options_end == 0 ]] && _oddsmaster_takes_value \"$cmd\" \"$prev\"; then\n"
          "        opt=$prev\n"
          "    fi\n"
          "    if [[ -n $opt ]]; then\n"
          "        _oddsmaster_value \"$cmd\" \"$opt\"\n"
          "    elif ((options_end == 0)) && [[ $cur == -* ]]; then\n"
          "        _oddsmaster_words \"$(_oddsmaster_options \"$cmd\")\"\n"
          "    else\n"
          "        _oddsmaster_operand \"$cmd\" \"$operands\"\n"
          "    fi\n"
          "    return 0\n"
          "}\n"
          "\n"
          "complete -F _oddsmaster oddsmaster\n", out);
}

int om_cli_generate(const om_cli_command *const *commands, size_t n, const char *what,
                    FILE *out)
{
    if (strcmp(what, "man") == 0)
        man_page(out, commands, n);
    else if (strcmp(what, "complete-bash") == 0)
        bash_script(out, commands, n);
    else {
        fprintf(stderr, "oddsmaster: error: --generate takes man or complete-bash, got '%s'\n"
                        "Try 'oddsmaster --help'.\n", what);
        return OM_EXIT_USAGE;
    }
    return fflush(out) == 0 && !ferror(out) ? OM_EXIT_OK : OM_EXIT_IO;
}
