/*
 * cmd_battle.c: `oddsmaster battle LIST_A LIST_B`: two army lists fought
 * against each other many times, written to an HDF5 result file and
 * summarised. The game of the lists turns the command line into the text of
 * a scenario file of kind battle (game.h, the battles group's battle_text),
 * which is then loaded and run exactly as `oddsmaster run` runs a file
 * (om_cli_run_scenario, cmd_run.c): the same seed gives the same file as
 * `run` of that scenario, on any number of threads, with the same progress
 * line, Ctrl-C and --resume. Nothing here names a game.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game.h"
#include "run.h"

#define CMD "battle"
/* Default number of battles: a 95% interval half-width of at most 0.01 on
 * any probability (1.96 * sqrt(0.25 / 1e4) = 0.0098), in about twenty
 * seconds a core for two 2,000-point armies. */
#define OM_BATTLE_DEFAULT_BATTLES 10000ULL
/* Default master seed: battles are reproducible unless a seed is chosen. */
#define OM_BATTLE_DEFAULT_SEED 1ULL
/* Largest number of battles accepted (days of work already). */
#define OM_BATTLE_MAX_BATTLES 10000000000ULL
/* Most OpenMP threads a run may ask for. */
#define OM_BATTLE_MAX_THREADS 1024
/* Most turns a fixed length may ask for; the game checks its own bound. */
#define OM_BATTLE_MAX_TURNS 255

/* The name a battle's scenario has in messages and in its result file. */
#define OM_BATTLE_SOURCE "<battle>"

/* The arguments of `battle`. */
typedef struct battle_args {
    const char *output;      /* result file */
    uint64_t battles;        /* battles */
    uint64_t seed;           /* master seed */
    uint64_t threads;        /* OpenMP threads (0: all cores) */
    double halfwidth;        /* target precision (0: none) */
    const char *target;      /* its field */
    const char *doctrine[2]; /* each side's doctrine */
    const char *length;      /* the length method */
    uint64_t turns;          /* turns of a fixed length */
    const char *first;       /* who takes the first turn */
    const char *terrain;     /* how the terrain is laid out */
    const char *deployment;  /* how the armies set up */
    const char *title;       /* the battle's title */
    const char *scenario;    /* the scenario fought */
    const char *scenario_version; /* its version */
    const char *resume;      /* an interrupted run's .partial file */
    bool quiet;              /* no progress line or notes */
} battle_args;

static const om_cli_option battle_options[] = {
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT,
     .offset = offsetof(battle_args, output), .metavar = "FILE.h5",
     .complete = {OM_CLI_COMPLETE_FILE, "*.h5", NULL},
     .help = "result file (required); created only when the\nbattles end"},
    {.name = "battles", .letter = 'n', .value = OM_CLI_U64,
     .offset = offsetof(battle_args, battles), .metavar = "N", .min = 1,
     .max = OM_BATTLE_MAX_BATTLES,
     .help = "number of battles (default 10000; with --halfwidth,\nthe most)"},
    {.name = "seed", .letter = 's', .value = OM_CLI_U64, .offset = offsetof(battle_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "master seed, 0 to 2^64-1 (default 1). The same seed\ngives bit-identical "
             "results with any thread count"},
    {.name = "threads", .letter = 't', .value = OM_CLI_U64,
     .offset = offsetof(battle_args, threads), .metavar = "T", .min = 0,
     .max = OM_BATTLE_MAX_THREADS, .help = "OpenMP threads (default: all cores)"},
    {.name = "halfwidth", .value = OM_CLI_REAL, .offset = offsetof(battle_args, halfwidth),
     .metavar = "H", .lo = 0.0, .hi = 0.5,
     .help = "stop, at the end of a block of 1024 battles, once\nthe 95% interval of every "
             "P(win), P(draw), P(lose)\nis narrower than +-H (--battles is then the most)"},
    {.name = "target", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, target),
     .metavar = "FIELD",
     .help = "with --halfwidth: watch this field's probabilities\ninstead (P(FIELD >= k) for "
             "every k); a field of\neach unit as FIELD@UNIT (destroyed@a_knights)"},
    {.name = "doctrine-a", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, doctrine[0]),
     .metavar = "NAME", .help = "side A's doctrine, a named one or a doctrine file\n(a path, "
                                "or a name ending in .yaml); default:\nthe game's default "
                                "(oddsmaster list --keys names\nthem)"},
    {.name = "doctrine-b", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, doctrine[1]),
     .metavar = "NAME", .help = "side B's doctrine"},
    {.name = "length", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, length),
     .metavar = "METHOD",
     .help = "how long the battle lasts, a method of the rule\nset (Warmaster: d6-6-7-8, "
             "rolled-from-6, d6-5-6-7,\nrolled-from-5, fixed with --turns; default the first)"},
    {.name = "turns", .value = OM_CLI_U64, .offset = offsetof(battle_args, turns),
     .metavar = "N", .min = 1, .max = OM_BATTLE_MAX_TURNS,
     .help = "a battle of N turns (--length fixed)"},
    {.name = "first", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, first),
     .metavar = "roll|a|b", .help = "who takes the first turn (default: roll for it)"},
    {.name = "terrain", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, terrain),
     .metavar = "METHOD",
     .help = "terrain laid out for each battle by a method of\nthe rule set (Warmaster: "
             "dice-for-edges,\nsymmetrical, random: Ancients' random set-up;\ndefault none)"},
    {.name = "deployment", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, deployment),
     .metavar = "METHOD",
     .help = "how the armies set up (Warmaster: lines, alternate,\none-side-first, scouting; "
             "default lines), its\nroll drawn for each battle"},
    {.name = "scenario", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, scenario),
     .metavar = "NAME",
     .help = "the scenario fought (Warmaster: take-and-hold,\nbattle-for-the-tower; default "
             "none): scenario\nvictory points then decide the battle"},
    {.name = "scenario-version", .value = OM_CLI_TEXT,
     .offset = offsetof(battle_args, scenario_version), .metavar = "VERSION",
     .help = "with --scenario: revolution (scored at the end;\ndefault) or battlefields "
             "(each turn from the\nthird, first to 10)"},
    {.name = "title", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, title),
     .metavar = "TEXT", .help = "the battle's title (default: LIST_A's name against\nLIST_B's)"},
    {.name = "resume", .value = OM_CLI_TEXT, .offset = offsetof(battle_args, resume),
     .metavar = "FILE.h5.partial", .complete = {OM_CLI_COMPLETE_FILE, "*.partial", NULL},
     .help = "continue battles a signal interrupted, from their\n.partial file; the finished "
             "file is the one the\nwhole run would have written"},
    {.name = "quiet", .letter = 'q', .value = OM_CLI_FLAG, .offset = offsetof(battle_args, quiet),
     .help = "no progress line or notes on standard error; the\nodds still go to standard "
             "output"},
};

static const battle_args battle_defaults = {.battles = OM_BATTLE_DEFAULT_BATTLES,
                                            .seed = OM_BATTLE_DEFAULT_SEED};

/* The option checks that need more than one option or operand. */
static int check_options(const om_cli_args *args, const battle_args *a)
{
    if (a->target != NULL && a->halfwidth == 0.0)
        return om_cli_usage_error(CMD, "--target FIELD goes with --halfwidth H");
    if (a->resume != NULL) {
        for (size_t i = 0; i < om_cli_battle.n_options; i++) {
            const char *name = om_cli_battle.options[i].name;
            if (args->given[i] && strcmp(name, "resume") != 0 && strcmp(name, "threads") != 0 &&
                strcmp(name, "quiet") != 0)
                return om_cli_usage_error(CMD, "--resume continues the battles as they were "
                                          "asked for: give it no --%s", name);
        }
        if (args->n_operands != 0)
            return om_cli_usage_error(CMD, "--resume continues the battles of its file: give "
                                      "it no lists");
        return 0;
    }
    if (args->n_operands != 2)
        return om_cli_usage_error(CMD, "give two army lists, LIST_A and LIST_B (example "
                                  "lists or list files)");
    if (a->output == NULL)
        return om_cli_usage_error(CMD, "give the result file with -o FILE.h5");
    return om_cli_check_output(CMD, "-o/--output", a->output);
}

static int battle_run(const om_cli_args *args)
{
    const battle_args *a = args->values;
    om_game_battle_spec spec = {
        .list_word = {"LIST_A", "LIST_B"},
        .doctrine = {a->doctrine[0], a->doctrine[1]},
        .doctrine_word = {"--doctrine-a", "--doctrine-b"},
        .length = a->length, .turns = (unsigned)a->turns, .first = a->first,
        .terrain = a->terrain, .deployment = a->deployment, .title = a->title,
        .scenario = a->scenario, .scenario_version = a->scenario_version};
    om_run_request req = {.command_line = args->command_line, .trials = a->battles,
                          .seed = a->seed, .threads = (unsigned)a->threads, .path = a->output,
                          .halfwidth = a->halfwidth, .target = a->target,
                          .seed_given = om_cli_given(&om_cli_battle, args, "seed"),
                          .trials_given = om_cli_given(&om_cli_battle, args, "battles")};
    om_scenario *sc = NULL;
    char *text = NULL;
    om_status st = OM_OK;
    int rc;

    if ((rc = check_options(args, a)) != 0)
        return rc;
    if (a->resume == NULL) {
        spec.list[0] = args->operands[0];
        spec.list[1] = args->operands[1];
        if ((st = om_game_battle_text(&spec, &text)) == OM_OK)
            st = om_scenario_load_text(OM_BATTLE_SOURCE, text, strlen(text), &sc);
        free(text);
        if (st != OM_OK)
            return om_cli_fail(CMD, st);
    }
    rc = om_cli_run_scenario(CMD, "battles", sc, a->resume, &req, a->quiet);
    om_scenario_free(sc);
    return rc;
}

const om_cli_command om_cli_battle = {
    .name = "battle",
    .summary = "fight two army lists against each other many times",
    .usage = "oddsmaster battle LIST_A LIST_B -o FILE.h5 [--battles N] [--seed S]\n"
             "                         [--threads T] [--halfwidth H [--target FIELD]]\n"
             "                         [--doctrine-a NAME] [--doctrine-b NAME]\n"
             "                         [--length METHOD] [--turns N] [--first roll|a|b]\n"
             "                         [--terrain METHOD] [--deployment METHOD]\n"
             "                         [--scenario NAME [--scenario-version VERSION]]\n"
             "                         [--title TEXT] [--quiet]\n"
             "oddsmaster battle --resume FILE.h5.partial [--threads T] [--quiet]",
    .about =
        "Fight army list LIST_A (side A) against LIST_B (side B) N times, whole\n"
        "battles from deployment to their end, write one row per battle (and each\n"
        "unit's fate) and the tallies to an HDF5 file, and print the odds. A list is\n"
        "an example list compiled into the program (revolution-empire-steel-and-shot,\n"
        "revolution-orcs-horde, ...: the files of scenarios/lists/) or a list file\n"
        "(a path, or a name ending in .yaml); both of one rule set.",
    .more =
        "The battle is the scenario file of kind battle with the same lists and keys\n"
        "(docs/manual.md, \"Battles\"): `battle` writes that file's text into the\n"
        "result file, and `oddsmaster run` of it gives the same battles, seed for seed.\n"
        "Per battle the file holds the winner, the victory level, how it ended, the\n"
        "turns, who went first, each side's withdrawal, units lost and victory points\n"
        "(with --scenario, each side's scenario points too: scenario_vp_a, _b);\n"
        "per unit (/units) the stands it lost, whether it was destroyed and the victory\n"
        "points it gave up and scored (vp_given, vp_scored: the low byte, with the high\n"
        "byte in vp_given_hi, vp_scored_hi; the summary shows them joined). The special\n"
        "rules of the lists' units that the engine does not model are recorded in the\n"
        "file and printed with the odds.\n\n"
        "Ctrl-C (SIGINT) or SIGTERM stops at the end of the block under way and keeps\n"
        "what was done as FILE.h5.partial (exit status 5); battle --resume\n"
        "FILE.h5.partial finishes it. On a terminal a progress line shows the battles\n"
        "done, the rate and the time left.\n\n"
        "Example:\n"
        "  oddsmaster battle revolution-empire-steel-and-shot revolution-orcs-horde \\\n"
        "      -o steel-v-horde.h5 --battles 2000",
    .exits =
        "  2  an unknown example list, doctrine, length, terrain or deployment method,\n"
        "     scenario or first side (with the nearest name); a scenario not modelled\n"
        "     yet (defending-the-village, wagon-train); a list file that breaks its army's\n"
        "     rules (its file, line and field); lists of two rule sets; a deployment\n"
        "     that does not fit its zone; a .partial file to resume that is complete\n"
        "     or of another version\n"
        "  3  a list file that cannot be read; cannot write the result file, or read\n"
        "     the file to resume\n"
        "  4  internal error\n"
        "  5  interrupted by a signal: FILE.h5.partial holds the battles done\n",
    .options = battle_options,
    .n_options = sizeof battle_options / sizeof battle_options[0],
    .values_size = sizeof(battle_args),
    .defaults = &battle_defaults,
    .min_operands = 0,
    .max_operands = 2,
    .operands = "the two army lists",
    .operand = {{OM_CLI_COMPLETE_ARMYLIST, "*.yaml|*.yml", NULL},
                {OM_CLI_COMPLETE_ARMYLIST, "*.yaml|*.yml", NULL}},
    .run = battle_run,
};
