/*
 * test_mutation.c: a seeded mutation test of the scenario loaders. Every file
 * of the corpus (corpus.h), good and bad, is mutated MUTANTS times: lines
 * deleted, duplicated or swapped, keys swapped or moved to other levels,
 * numbers made extreme (-1, 0, 255, 256, 65536, 1e308, ...), words changed,
 * values made huge, nested deep or turned into lists, mappings and aliases,
 * bytes flipped, NUL bytes and binary junk inserted, the text cut short. Each
 * mutant is loaded through the real loader (om_scenario_load_text) and must
 * either load and run a few trials through its game, or be refused with a
 * status the command line reports as a bad input file (exit 2) and a message
 * "FILE:LINE: field 'PATH': REASON" whose reason is this program's own words.
 * Mutants of the good files load about one time in five, so the trials run
 * on extreme values too.
 *
 * A crash, a sanitizer report (the sanitizer build runs this too), a mutant
 * that takes longer than MUTANT_SECONDS, a leak, or a message of another form
 * fails the test and prints the seed, the file, the mutant's number, the
 * operators applied and the mutant itself (also written to
 * $TMPDIR/om_mutant_failed.yaml), so that it can be replayed: mutant K of a
 * file is the same for the same seed whatever ran before it.
 *
 * The environment can ask for more: OM_MUTATION_SEED (default MUTATION_SEED)
 * and OM_MUTANTS (mutants per file, default MUTANTS, or MUTANTS_SANITIZED in
 * the sanitizer build); OM_MUTATION_VERBOSE prints every refusal's message,
 * to read them; OM_MUTANT=FILE:K replays mutant K of FILE (as a report names
 * it) alone, printing it and writing it to $TMPDIR/om_mutant_failed.yaml.
 *
 * The defaults keep each build under about a minute on the 2-core CI machine
 * while other tests run beside it (measured: 41 s plain, 71 s sanitized,
 * 18 s and 26 s of CPU; a WHFB7 file takes tens of milliseconds to load,
 * several times that under the sanitizers). What longer searches found (a duplicate key reported at
 * its second occurrence, a 100 kB value quoted whole in a message, a value's
 * newline breaking a message in two, libcyaml's own words) is fixed, each with
 * a file of tests/data/corpus/GAME/bad that test_corpus.c checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "corpus.h"
#include "game.h"

/* The default seed, and mutants per file: a load takes about 5 times as
 * long in the sanitizer build, which runs the first MUTANTS_SANITIZED of the
 * same mutants (see above). */
#define MUTATION_SEED UINT64_C(19)
#define MUTANTS 70
#define MUTANTS_SANITIZED 20

/* Longest a mutant may take to load and run (seconds): a load takes
 * milliseconds, so only a hang comes near it, even in the sanitizer build on
 * a loaded machine. */
#define MUTANT_SECONDS 20
#define SECONDS_TEXT "20"

/* Mutants a file below which the tally of loads and refusals is not
 * checked (too few to expect both). */
#define TALLY_MIN 20

/* Trials run of a mutant that loads. */
#define MUTANT_TRIALS 16

/* Most operators applied to one mutant, and the room for a mutant: the
 * largest corpus file is a few kilobytes, a huge value 100 kB. */
#define OPS_MAX 3
#define HUGE_VALUE (100 * 1024)
#define MUTANT_CAP (256 * 1024)

/* Lines of a file the operators address. */
#define LINES_MAX 512

/* ---------------------------------------------------------------------------
 * A generator of its own (splitmix64): the test must not depend on the
 * engine's streams, and mutant k of file f is generated from (seed, f, k).
 */
typedef struct gen {
    uint64_t s;
} gen;

static uint64_t gen_next(gen *g)
{
    uint64_t z = (g->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A number in [0, n) (n > 0); the bias of the modulo is immaterial here. */
static size_t gen_below(gen *g, size_t n) { return (size_t)(gen_next(g) % n); }

/* FNV-1a of a string: the file's part of a mutant's seed. */
static uint64_t hash_name(const char *s)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001B3);
    return h;
}

/* ---------------------------------------------------------------------------
 * The mutant being tried, for the reports of a crash, a sanitizer or a hang,
 * which come through a signal or the sanitizers' death callback: the one
 * mutable state of this test, written before each load, read only there.
 */
static struct {
    char head[1024];      /* "seed S, FILE, mutant K: operators" */
    const char *text;     /* the mutant */
    size_t len;           /* its length */
    char dump[256];       /* where the failure report writes it */
} current;

/* Write the current mutant's description and text to stderr and to the dump
 * file. Async-signal-safe: write(2) and open(2) only. */
static void report_current(const char *why)
{
    static const char tail[] = "\n--- the mutant (first 4096 bytes; all of it in the file "
                               "above) ---\n";
    int fd;
    if (write(STDERR_FILENO, why, strlen(why)) < 0 ||
        write(STDERR_FILENO, current.head, strlen(current.head)) < 0)
        return;
    fd = open(current.dump, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, current.text, current.len) < 0)
            (void)0;
        close(fd);
        if (write(STDERR_FILENO, "\nwritten to ", 12) < 0 ||
            write(STDERR_FILENO, current.dump, strlen(current.dump)) < 0)
            return;
    }
    if (write(STDERR_FILENO, tail, sizeof tail - 1) < 0 ||
        write(STDERR_FILENO, current.text, current.len < 4096 ? current.len : 4096) < 0)
        return;
    (void)!write(STDERR_FILENO, "\n", 1);
}

static void on_signal(int sig)
{
    report_current(sig == SIGALRM ? "\nmutation: a mutant hangs (over " SECONDS_TEXT
                                    " seconds): "
                                  : "\nmutation: a mutant crashes the loader: ");
    signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
    raise(sig == SIGALRM ? SIGABRT : sig);
}

static void on_sanitizer_death(void) { report_current("\nmutation: a sanitizer stops at: "); }

/* The sanitizers' hooks, present in the sanitizer build only. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

/* Install the reports: the death callback of the sanitizers (which handle
 * bad accesses themselves and then die), or signal handlers without them. */
static void install_reports(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(current.dump, sizeof current.dump, "%s/om_mutant_failed.yaml",
             tmp && tmp[0] ? tmp : "/tmp");
    signal(SIGALRM, on_signal);
    if (__sanitizer_set_death_callback) {
        __sanitizer_set_death_callback(on_sanitizer_death);
        return;
    }
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    signal(SIGILL, on_signal);
    signal(SIGABRT, on_signal);
}

/* ---------------------------------------------------------------------------
 * The text being mutated.
 */
typedef struct text {
    char *b;   /* bytes (not NUL-terminated: a mutant may hold NUL bytes) */
    size_t n;  /* length */
} text;

/* Replace bytes [at, at + del) of t with `ins` (n bytes), within MUTANT_CAP. */
static void splice(text *t, size_t at, size_t del, const char *ins, size_t n)
{
    if (at > t->n)
        at = t->n;
    if (del > t->n - at)
        del = t->n - at;
    if (t->n - del + n > MUTANT_CAP)
        return;
    memmove(t->b + at + n, t->b + at + del, t->n - at - del);
    memcpy(t->b + at, ins, n);
    t->n = t->n - del + n;
}

/* The starts of t's lines into starts[0..*n) (the end of the text after). */
static void lines_of(const text *t, size_t *starts, size_t *n)
{
    *n = 0;
    starts[(*n)++] = 0;
    for (size_t i = 0; i < t->n && *n < LINES_MAX; i++)
        if (t->b[i] == '\n' && i + 1 < t->n)
            starts[(*n)++] = i + 1;
    starts[*n] = t->n;
}

/* Line k of t: its start and length with its newline. */
static void line_span(const size_t *starts, size_t k, size_t *at, size_t *len)
{
    *at = starts[k];
    *len = starts[k + 1] - starts[k];
}

/* Values a line may hold: after "key: ", after "[" or ", " in a flow list or
 * mapping, after "- ". */
#define LINE_VALUES_MAX 32

/* A value of the line at [at, at + len), chosen by g among those on it: its
 * start and length, or false if the line has none. */
static bool value_span(gen *g, const text *t, size_t at, size_t len, size_t *v, size_t *vlen)
{
    size_t starts[LINE_VALUES_MAX], ends[LINE_VALUES_MAX], n = 0, end = at + len;
    for (size_t i = at; i < end && t->b[i] != '\n' && t->b[i] != '#' && n < LINE_VALUES_MAX;
         i++) {
        size_t s, e;
        const bool after = (t->b[i] == ':' || t->b[i] == ',' || t->b[i] == '-') && i + 1 < end &&
                           t->b[i + 1] == ' ';
        if (!after && t->b[i] != '[')
            continue;
        s = i + 1;
        while (s < end && (t->b[s] == ' ' || t->b[s] == '['))
            s++;
        e = s;
        while (e < end && t->b[e] != '\n' && t->b[e] != '#' && t->b[e] != ',' && t->b[e] != '}' &&
               t->b[e] != ']' && t->b[e] != '{' && t->b[e] != '[' &&
               !(t->b[e] == ':' && e + 1 < end && t->b[e + 1] == ' '))
            e++;
        while (e > s && t->b[e - 1] == ' ')
            e--;
        if (e > s && (e >= end || t->b[e] != ':')) {
            starts[n] = s;
            ends[n++] = e;
        }
    }
    if (n == 0)
        return false;
    n = gen_below(g, n);
    *v = starts[n];
    *vlen = ends[n] - starts[n];
    return true;
}

/* The key of a "key: value" line (after its indentation and any "- "). */
static bool key_span(const text *t, size_t at, size_t len, size_t *k, size_t *klen)
{
    size_t i = at, end = at + len;
    while (i < end && (t->b[i] == ' ' || t->b[i] == '-'))
        i++;
    *k = i;
    while (i < end && t->b[i] != ':' && t->b[i] != '\n' && t->b[i] != ' ')
        i++;
    *klen = i - *k;
    return i < end && t->b[i] == ':' && *klen > 0;
}

/* Values that stress conversions and bounds. */
static const char *const extremes[] = {
    "-1", "0", "1", "2", "255", "256", "65535", "65536", "4294967296",
    "99999999999999999999999", "-99999999999999999999999", "1e308", "-1e308", "1e-308",
    "1e309", ".inf", "-.inf", ".nan", "0x10", "010", "+3", "1.5", "-0", "\"\"", "''", "~",
    "null", "true", "false", "yes", "\"-\"", "[]", "{}", "[1, 2]", "{a: 1}", "*nowhere",
    "&anchor 3", "!!binary AAAA", "'quoted'", "\"\\u0000\"", "\"\\t\"", "|\n  block\n",
    ">-\n  folded\n", "é", "\xe2\x80\xae", "7+", "1+", "0+", "-3", "D6", "D3",
};

/* Build a value nested `depth` levels deep, as lists or mappings. */
static size_t nested(char *out, size_t cap, size_t depth, bool lists)
{
    size_t n = 0;
    for (size_t i = 0; i < depth && n + 4 < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s", lists ? "[" : "{a: ");
    n += (size_t)snprintf(out + n, cap - n, "1");
    for (size_t i = 0; i < depth && n + 2 < cap; i++)
        out[n++] = lists ? ']' : '}';
    return n;
}

/* Every key and word the games know, for swaps and moves between levels. */
typedef struct words {
    const char *w[2048];
    size_t n;
} words;

static void words_of_games(words *ws)
{
    static om_game_key keys[512];
    ws->n = 0;
    for (size_t g = 0; g < om_game_count; g++) {
        size_t n = om_games[g]->catalogue->keys(keys, sizeof keys / sizeof keys[0]);
        for (size_t i = 0; i < n && ws->n + 1 < sizeof ws->w / sizeof ws->w[0]; i++) {
            ws->w[ws->n++] = keys[i].name;
            for (size_t v = 0; v < keys[i].n_values && ws->n < sizeof ws->w / sizeof ws->w[0];
                 v++)
                ws->w[ws->n++] = keys[i].values[v];
        }
    }
}

/* Apply one operator chosen by g to t; append its name to `ops`. */
static void mutate_once(gen *g, text *t, const words *ws, char *ops, size_t cap)
{
    static char buf[HUGE_VALUE + 64];
    size_t starts[LINES_MAX + 1], nlines, a, alen, b, blen, v, vlen;
    const size_t op = gen_below(g, 20);
    const char *name = "";
    lines_of(t, starts, &nlines);
    line_span(starts, gen_below(g, nlines), &a, &alen);
    line_span(starts, gen_below(g, nlines), &b, &blen);
    switch (op) {
    case 0: /* delete a line */
        name = "delete-line";
        splice(t, a, alen, "", 0);
        break;
    case 1: /* duplicate a line, or move a copy elsewhere (duplicate keys) */
        name = "duplicate-line";
        memcpy(buf, t->b + a, alen);
        splice(t, gen_below(g, 2) ? a : b, 0, buf, alen);
        break;
    case 2: /* swap two lines */
        name = "swap-lines";
        if (a > b) {
            size_t x = a, xl = alen;
            a = b, alen = blen, b = x, blen = xl;
        }
        if (a + alen <= b) {
            memcpy(buf, t->b + b, blen);
            memcpy(buf + blen, t->b + a, alen);
            splice(t, b, blen, buf + blen, alen);
            splice(t, a, alen, buf, blen);
        }
        break;
    case 3: { /* swap the keys of two lines */
        size_t k1, k1l, k2, k2l;
        name = "swap-keys";
        if (key_span(t, a, alen, &k1, &k1l) && key_span(t, b, blen, &k2, &k2l) && k1 != k2) {
            char first[128], second[128];
            if (k1l >= sizeof first || k2l >= sizeof second)
                break;
            memcpy(first, t->b + k1, k1l);
            memcpy(second, t->b + k2, k2l);
            if (k1 > k2) {
                splice(t, k1, k1l, second, k2l);
                splice(t, k2, k2l, first, k1l);
            } else {
                splice(t, k2, k2l, first, k1l);
                splice(t, k1, k1l, second, k2l);
            }
        }
        break;
    }
    case 4:
    case 5: { /* an extreme value */
        const char *x = extremes[gen_below(g, sizeof extremes / sizeof extremes[0])];
        name = "extreme-value";
        if (value_span(g, t, a, alen, &v, &vlen))
            splice(t, v, vlen, x, strlen(x));
        break;
    }
    case 6: { /* a number off by one */
        name = "number-step";
        if (value_span(g, t, a, alen, &v, &vlen) && t->b[v] >= '0' && t->b[v] <= '9') {
            long long n = strtoll(t->b + v, NULL, 10) + (gen_below(g, 2) ? 1 : -1);
            int w = snprintf(buf, 32, "%lld", n);
            size_t d = 0;
            while (d < vlen && t->b[v + d] >= '0' && t->b[v + d] <= '9')
                d++;
            splice(t, v, d, buf, (size_t)w);
        }
        break;
    }
    case 7: { /* a huge value */
        const size_t n = 1 + gen_below(g, HUGE_VALUE);
        const char fill = "aZ9_-. "[gen_below(g, 7)];
        name = "huge-value";
        memset(buf, fill, n);
        if (value_span(g, t, a, alen, &v, &vlen))
            splice(t, v, vlen, buf, n);
        break;
    }
    case 8: /* flip a bit */
        name = "flip-bit";
        if (t->n > 0)
            t->b[gen_below(g, t->n)] ^= (char)(1u << gen_below(g, 8));
        break;
    case 9: /* a NUL byte */
        name = "nul-byte";
        splice(t, gen_below(g, t->n + 1), 0, "", 1);
        break;
    case 10: /* cut the text short */
        name = "truncate";
        t->n = gen_below(g, t->n + 1);
        break;
    case 11: { /* binary junk */
        const size_t n = 1 + gen_below(g, 32);
        name = "binary-junk";
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)gen_below(g, 256);
        splice(t, gen_below(g, t->n + 1), 0, buf, n);
        break;
    }
    case 12: { /* deep nesting */
        const size_t depth = 1 + gen_below(g, 300);
        name = "deep-nesting";
        if (value_span(g, t, a, alen, &v, &vlen))
            splice(t, v, vlen, buf, nested(buf, sizeof buf, depth, gen_below(g, 2)));
        break;
    }
    case 13:
    case 14: { /* a known key on a new line, at some indentation (keys of other levels) */
        const char *k = ws->w[gen_below(g, ws->n)], *x = ws->w[gen_below(g, ws->n)];
        const int indent = 2 * (int)gen_below(g, 5);
        int w = snprintf(buf, 256, "%*s%s: %s\n", indent, "", k, x);
        name = "insert-key";
        splice(t, a, 0, buf, (size_t)w);
        break;
    }
    case 15: { /* a known word as a value */
        const char *x = ws->w[gen_below(g, ws->n)];
        name = "swap-word";
        if (value_span(g, t, a, alen, &v, &vlen))
            splice(t, v, vlen, x, strlen(x));
        break;
    }
    case 16: { /* change a line's indentation */
        name = "indent";
        if (gen_below(g, 2) && alen > 0 && t->b[a] == ' ')
            splice(t, a, 1 + gen_below(g, 2), "", 0);
        else
            splice(t, a, 0, "\t  ", 1 + gen_below(g, 3));
        break;
    }
    case 17: { /* copy a block of lines elsewhere */
        size_t from = a, to = b > a ? b : a + alen;
        name = "duplicate-block";
        if (to - from < sizeof buf) {
            memcpy(buf, t->b + from, to - from);
            splice(t, starts[gen_below(g, nlines + 1)], 0, buf, to - from);
        }
        break;
    }
    case 18: { /* a value from another line */
        size_t w2, w2l;
        name = "swap-values";
        if (value_span(g, t, a, alen, &v, &vlen) && value_span(g, t, b, blen, &w2, &w2l) &&
            w2l < sizeof buf) {
            memcpy(buf, t->b + w2, w2l);
            splice(t, v, vlen, buf, w2l);
        }
        break;
    }
    default: { /* an anchor and aliases to it (libcyaml replays them) */
        name = "alias";
        if (value_span(g, t, a, alen, &v, &vlen) && vlen + 16 < 256) {
            int w = snprintf(buf, 256, "&x %.*s", (int)vlen, t->b + v);
            splice(t, v, vlen, buf, (size_t)w);
            if (value_span(g, t, b, blen, &v, &vlen) && b > a)
                splice(t, v, vlen, "*x", 2);
        }
        break;
    }
    }
    snprintf(ops + strlen(ops), cap - strlen(ops), "%s%s", ops[0] ? ", " : "", name);
}

/* libcyaml's own messages, which must never reach a user untranslated; and
 * the fallback that frames them, which no schema here should reach. */
static const char *const raw_messages[] = {
    "Excessive entries", "Insufficient entries", "Invalid INT", "Invalid UINT",
    "Invalid FLOAT", "Invalid ENUM", "Expecting ", "Failed writing", "Mapping field already",
    "Missing required mapping", "No anchor found", "STRING length", "Unexpected key",
    "Unknown bit", "Unknown flag", "Value too big", "libyaml:", "the YAML reader says",
    "(null)",
};

/* Fail the test for the current mutant, with everything to replay it. */
static void fail_current(const char *fmt, ...)
{
    char why[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    report_current("\nmutation: ");
    cr_assert_fail("%s\n%s (replay: OM_MUTATION_SEED and the mutant above)", why,
                   current.head);
}

/* Mutants loaded and refused, for the log: a test whose mutants all load, or
 * all fail at the same early step, tests little. */
typedef struct tally {
    size_t loaded, refused;
    bool verbose; /* print every refusal (OM_MUTATION_VERBOSE set) */
} tally;

/* Load one mutant: run it, or check its refusal. */
static void load_mutant(const text *t, tally *n)
{
    om_scenario *sc = NULL;
    om_status st;
    st = om_scenario_load_text("mutant.yaml", t->b, t->n, &sc);
    if (st == OM_OK) {
        if (sc == NULL)
            fail_current("loaded, but no scenario");
        else
            corpus_run(sc, 1, MUTANT_TRIALS);
        n->loaded++;
    } else {
        const char *msg = om_error_message();
        n->refused++;
        if (n->verbose)
            fprintf(stderr, "%s\n  -> %s\n", current.head, msg);
        const char *problem = corpus_message_problem(msg, "mutant.yaml", t->b, t->n);
        if (sc != NULL)
            fail_current("refused, but a scenario was returned");
        /* A battle's list named by a path that cannot be read is an I/O
         * error by design (exit 3: test_cli_battle.sh): a mutant of a battle
         * file may turn a list's name into such a path. */
        if (!corpus_is_input_error(st) &&
            !(st == OM_EIO && strstr(msg, "cannot read the list file") != NULL))
            fail_current("status %d (%s) is not a bad input file: %s", st, om_status_name(st),
                         msg);
        if (problem)
            fail_current("the message\n  %s\nis not FILE:LINE: field 'PATH': REASON: %s", msg,
                         problem);
        for (size_t i = 0; i < sizeof raw_messages / sizeof raw_messages[0]; i++)
            if (strstr(msg, raw_messages[i]) != NULL)
                fail_current("the message\n  %s\nis libcyaml's, not this program's", msg);
    }
    om_scenario_free(sc);
}

/* Try one mutant: load it, under the alarm. In the sanitizer build, whose
 * allocator counts the bytes in use, a mutant after which more are in use
 * leaks; it is tried once more, so that a first use of something that stays
 * allocated (none is known) is not taken for a leak. */
static void try_mutant(const text *t, tally *n)
{
    size_t before = 0, after = 0;
    current.text = t->b;
    current.len = t->n;
    alarm(MUTANT_SECONDS);
    for (int attempt = 0; attempt < 2; attempt++) {
        if (__sanitizer_get_current_allocated_bytes)
            before = __sanitizer_get_current_allocated_bytes();
        load_mutant(t, n);
        if (__sanitizer_get_current_allocated_bytes)
            after = __sanitizer_get_current_allocated_bytes();
        if (after <= before)
            break;
        if (attempt == 1)
            fail_current("a leak: %zu bytes more in use after the mutant was loaded and freed",
                         after - before);
    }
    alarm(0);
}

/* Mutants [first, last) of the file at `path`, whose text is base[0..n). */
static void mutants(const char *path, const char *base, size_t n, uint64_t seed, size_t first,
                    size_t last, const words *ws, tally *counts)
{
    static char buf[MUTANT_CAP];
    for (size_t k = first; k < last; k++) {
        gen g = {seed ^ hash_name(path + strlen(CORPUS_DIR)) ^ (UINT64_C(0x632BE59BD9B4E019) * (k + 1))};
        text t = {buf, n < MUTANT_CAP ? n : MUTANT_CAP};
        char ops[256] = "";
        /* One operator half the time, so that many mutants still load. */
        const size_t nops = gen_below(&g, 2) ? 1 : 1 + gen_below(&g, OPS_MAX);
        memcpy(buf, base, t.n);
        for (size_t i = 0; i < nops; i++)
            mutate_once(&g, &t, ws, ops, sizeof ops);
        snprintf(current.head, sizeof current.head, "seed %llu, %s, mutant %zu: %s",
                 (unsigned long long)seed, path + strlen(CORPUS_DIR) + 1, k, ops);
        try_mutant(&t, counts);
    }
}

/* An environment variable as a count, or `dflt`. */
static uint64_t env_count(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long v;
    if (s == NULL || s[0] == '\0')
        return dflt;
    errno = 0;
    v = strtoull(s, &end, 0);
    cr_assert(errno == 0 && *end == '\0', "%s=%s is not a number", name, s);
    return v;
}

/* OM_MUTANT=FILE:K (FILE as the reports name it, e.g. warmaster/turn/x.yaml)
 * replays mutant K of that file alone: whether `path` is that file, and
 * the one mutant as [*first, *last). */
static bool replay_this(const char *only, const char *path, size_t *first, size_t *last)
{
    const char *colon = strrchr(only, ':');
    const char *rel = path + strlen(CORPUS_DIR) + 1;
    if (colon == NULL || (size_t)(colon - only) != strlen(rel) ||
        strncmp(only, rel, strlen(rel)) != 0)
        return false;
    *first = (size_t)strtoull(colon + 1, NULL, 10);
    *last = *first + 1;
    return true;
}

/* Mutate every file of tests/data/corpus/GAME/FOLDER. */
static void mutate_folder(const char *game, const char *folder)
{
    static words ws;
    char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX], names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
    const uint64_t seed = env_count("OM_MUTATION_SEED", MUTATION_SEED);
    const size_t count = (size_t)env_count(
        "OM_MUTANTS", __sanitizer_set_death_callback ? MUTANTS_SANITIZED : MUTANTS);
    const char *only = getenv("OM_MUTANT");
    size_t n = 0;
    tally counts = {0, 0, only != NULL || getenv("OM_MUTATION_VERBOSE") != NULL};
    install_reports();
    words_of_games(&ws);
    corpus_join(sub, sizeof sub, CORPUS_DIR, game);
    corpus_join(dir, sizeof dir, sub, folder);
    corpus_list(dir, ".yaml", names, &n);
    cr_assert_gt(n, 0u, "no corpus files in %s", dir);
    if (only && strncmp(only, dir + strlen(CORPUS_DIR) + 1, strlen(game) + strlen(folder) + 1))
        return;
    cr_log_info("mutation: seed %llu, %zu mutants of each of %zu files of %s/%s",
                (unsigned long long)seed, count, n, game, folder);
    for (size_t i = 0; i < n; i++) {
        char path[CORPUS_PATH_MAX];
        size_t len = 0, first = 0, last = count;
        char *base;
        corpus_join(path, sizeof path, dir, names[i]);
        if (only && !replay_this(only, path, &first, &last))
            continue;
        base = corpus_slurp(path, &len);
        mutants(path, base, len, seed, first, last, &ws, &counts);
        if (only)
            report_current("mutation: replayed ");
        free(base);
    }
    cr_log_info("mutation: %s/%s: %zu mutants loaded and ran, %zu were refused", game, folder,
                counts.loaded, counts.refused);
    if (only)
        return;
    /* Mutants of good files both load and fail; those of bad files mostly
     * fail. A folder where none loads, or none fails, of a few dozen mutants
     * a file is a broken test. */
    if (count < TALLY_MIN)
        return;
    cr_expect_gt(counts.refused, 0u, "%s/%s: no mutant was refused", game, folder);
    if (strcmp(folder, CORPUS_BAD) != 0)
        cr_expect_gt(counts.loaded, 0u, "%s/%s: no mutant loaded", game, folder);
}

/* One test per folder of the corpus, so that a failure names its folder and
 * each stays well within Criterion's timeout. */
#define FOLDER_TEST(game, folder, fn)                                                            \
    Test(mutation, fn, .timeout = 600) { mutate_folder(game, folder); }

FOLDER_TEST("warmaster", "combat", warmaster_combat)
FOLDER_TEST("warmaster", "volley", warmaster_volley)
FOLDER_TEST("warmaster", "engagement", warmaster_engagement)
FOLDER_TEST("warmaster", "turn", warmaster_turn)
FOLDER_TEST("warmaster", "bad", warmaster_bad)
FOLDER_TEST("whfb7", "combat", whfb7_combat)
FOLDER_TEST("whfb7", "volley", whfb7_volley)
FOLDER_TEST("whfb7", "engagement", whfb7_engagement)
FOLDER_TEST("whfb7", "magic", whfb7_magic)
FOLDER_TEST("whfb7", "bad", whfb7_bad)
