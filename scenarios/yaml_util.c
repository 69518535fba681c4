/*
 * yaml_util.c: the YAML reading machinery shared by the scenario loader
 * (load.c) and the army data loader (army.c), declared in yaml_int.h: the
 * document walker that checks a document's shape and finds the line of a key
 * path, the "FILE:LINE: field 'PATH': REASON" error builder, "did you mean"
 * suggestions, strict integer and boolean conversion, and a libcyaml load
 * whose log is captured and turned into one such message. With load.c and
 * army.c this is the only code that uses libcyaml and libyaml.
 */
#include "game.h"
#include "yaml_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * The document walker.
 */

/* Copy at most cap-1 bytes of src and terminate; returns false if truncated. */
static bool copy_trunc(char *dst, size_t cap, const char *src, size_t len)
{
    size_t n = len < cap ? len : cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return n == len;
}

/* Does the path to the node now starting at depth d (frames 0..d-1 each
 * giving one component) equal the first d components of the target? */
static bool walk_path_matches(const om_yaml_walk *w, size_t d)
{
    if (d > w->ncomps)
        return false;
    for (size_t i = 0; i < d; i++) {
        const om_yaml_walk_frame *f = &w->frames[i];
        if (f->is_map) {
            if (!f->has_key || f->key[0] == '\0' || strcmp(f->key, w->comps[i]) != 0)
                return false;
        } else {
            char idx[24];
            snprintf(idx, sizeof idx, "[%ld]", f->entry);
            if (strcmp(idx, w->comps[i]) != 0)
                return false;
        }
    }
    return true;
}

/* The key path in effect at `line`, for syntax errors. libyaml scans ahead,
 * so a key whose value has not begun yet counts only if it is on that line:
 * a bad line after "type: cavalry" is in the unit, not in "type". */
static void walk_current_path(const om_yaml_walk *w, size_t line, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t i = 0; i < w->depth; i++) {
        const om_yaml_walk_frame *f = &w->frames[i];
        size_t used = strlen(out);
        if (!f->is_map) {
            /* An entry of a sequence of mappings: "units[3]". */
            if (used > 0 && f->entry >= 0 && i + 1 < w->depth)
                snprintf(out + used, cap - used, "[%ld]", f->entry);
            continue;
        }
        if (!f->has_key || f->want_key)
            continue;
        if (i + 1 == w->depth && f->key_line != line)
            continue;
        snprintf(out + used, cap - used, "%s%s", used ? "." : "", f->key);
    }
    if (out[0] == '\0')
        snprintf(out, cap, "%s", OM_YAML_PATH_DOCUMENT);
}

/* Record a problem; the first one wins. */
static void walk_fail(om_yaml_walk *w, om_status status, size_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void walk_fail(om_yaml_walk *w, om_status status, size_t line, const char *fmt, ...)
{
    va_list ap;
    if (w->status != OM_OK)
        return;
    w->status = status;
    w->err_line = line;
    walk_current_path(w, line, w->err_path, sizeof w->err_path);
    va_start(ap, fmt);
    vsnprintf(w->reason, sizeof w->reason, fmt, ap);
    va_end(ap);
}

/* The node now starting at depth d matches the target path: remember its
 * line, and whether it is the target itself. The first occurrence of the
 * target is the one a reader of the document uses (libcyaml stops at a
 * duplicate key), so a second one is only noted. */
static void walk_note_match(om_yaml_walk *w, size_t d, size_t line)
{
    if (w->found && d == w->ncomps && walk_path_matches(w, d)) {
        if (w->again_line == 0)
            w->again_line = line;
        return;
    }
    if (walk_path_matches(w, d) && d >= w->line_depth) {
        w->line = line;
        w->line_depth = d;
        if (d == w->ncomps) {
            w->found = true;
            w->value_pending = true;
        }
    }
}

/* A node (scalar, alias, mapping or sequence) starts at `line`. Returns true
 * if the node is a mapping key (then it is complete: keys are scalars). */
static bool walk_node_begin(om_yaml_walk *w, const yaml_event_t *ev, size_t line)
{
    const bool scalar = ev->type == YAML_SCALAR_EVENT;
    const char *sval = scalar ? (const char *)ev->data.scalar.value : "";
    const size_t slen = scalar ? ev->data.scalar.length : 0;
    const size_t d = w->depth;

    if (d == 0) {
        w->root_type = ev->type;
        w->root_line = line;
        copy_trunc(w->root_scalar, sizeof w->root_scalar, sval, slen);
        w->line = line;
        w->line_depth = 0;
        w->found = w->ncomps == 0;
        return false;
    }

    om_yaml_walk_frame *top = &w->frames[d - 1];
    if (top->is_map && top->want_key) {
        if (!scalar) {
            walk_fail(w, OM_EPARSE, line,
                      "a key must be a plain name, not a list, mapping or alias");
            return true;
        }
        if (!copy_trunc(top->key, sizeof top->key, sval, slen))
            top->key[0] = '\0';
        top->has_key = true;
        top->want_key = false;
        top->key_line = line;
        walk_note_match(w, d, line);
        if (d == 1 && strcmp(top->key, "schema") == 0) {
            w->has_schema = true;
            w->schema_line = line;
            w->schema_pending = true;
        }
        return true;
    }

    /* A value: of the key just read, or an entry of a sequence. */
    if (!top->is_map) {
        top->entry++;
        walk_note_match(w, d, line);
    }
    if (w->value_pending) {
        w->value_pending = false;
        w->value_type = ev->type;
        copy_trunc(w->value, sizeof w->value, sval, slen);
    }
    if (w->schema_pending) {
        w->schema_pending = false;
        w->schema_scalar = scalar;
        copy_trunc(w->schema, sizeof w->schema, sval, slen);
    }
    return false;
}

/* The node at the top of the stack (or a scalar just begun) is complete. */
static void walk_node_end(om_yaml_walk *w)
{
    if (w->depth > 0) {
        om_yaml_walk_frame *top = &w->frames[w->depth - 1];
        if (top->is_map && !top->want_key)
            top->want_key = true;
    }
}

/* A node begins with anchor `name` (NULL: none); returns its index, or -1.
 * A name defined again names the later node, as in YAML. */
static int walk_anchor_begin(om_yaml_walk *w, const unsigned char *name, bool open, size_t line)
{
    om_yaml_walk_anchor *a;
    if (name == NULL)
        return -1;
    if (w->n_anchors == OM_YAML_ANCHORS_MAX) {
        walk_fail(w, OM_EPARSE, line, "more than %d anchors (&name)", OM_YAML_ANCHORS_MAX);
        return -1;
    }
    a = &w->anchors[w->n_anchors];
    if (!copy_trunc(a->name, sizeof a->name, (const char *)name, strlen((const char *)name)))
        a->name[0] = '\0';
    a->nodes = 1;
    a->open = open;
    return (int)w->n_anchors++;
}

/* An alias (*name): count the values it stands for, refusing an alias inside
 * its own anchor and more than OM_YAML_ALIAS_NODES_MAX values in all. An
 * unknown name is libcyaml's to report. */
static void walk_alias(om_yaml_walk *w, const unsigned char *name, size_t line)
{
    for (size_t i = w->n_anchors; i-- > 0;) {
        const om_yaml_walk_anchor *a = &w->anchors[i];
        if (a->name[0] == '\0' || strcmp(a->name, (const char *)name) != 0)
            continue;
        if (a->open) {
            walk_fail(w, OM_EPARSE, line, "the alias '*%s' is inside the value of its own "
                      "anchor '&%s'", a->name, a->name);
            return;
        }
        w->nodes += a->nodes;
        w->alias_nodes += a->nodes;
        if (w->alias_nodes > OM_YAML_ALIAS_NODES_MAX)
            walk_fail(w, OM_EPARSE, line, "the aliases (*name) stand for more than %d values "
                      "in all; an alias repeats the whole value of its anchor",
                      OM_YAML_ALIAS_NODES_MAX);
        return;
    }
    w->nodes++;
}

/* 1-based line of byte `offset` of text, for reader errors (which carry an
 * offset but no mark). */
static size_t line_of_offset(const char *text, size_t len, size_t offset)
{
    size_t line = 1;
    for (size_t i = 0; i < offset && i < len; i++)
        line += text[i] == '\n';
    return line;
}

/* Turn a libyaml parser failure into the walk's problem. */
static void walk_parser_error(om_yaml_walk *w, const yaml_parser_t *p, const char *text,
                              size_t len)
{
    if (p->error == YAML_MEMORY_ERROR) {
        walk_fail(w, OM_ENOMEM, 1, "out of memory while parsing");
        return;
    }
    if (p->error == YAML_READER_ERROR) {
        walk_fail(w, OM_EPARSE, line_of_offset(text, len, p->problem_offset),
                  "invalid YAML: %s (byte %zu)",
                  p->problem ? p->problem : "unreadable text", p->problem_offset);
        return;
    }
    const size_t line = p->problem_mark.line + 1;
    const size_t col = p->problem_mark.column + 1;
    const size_t at = p->problem_mark.index;
    const char c = at < len ? text[at] : '\0';
    if (c == '\t') {
        walk_fail(w, OM_EPARSE, line,
                  "tab character at column %zu: YAML does not allow tabs for "
                  "indentation; indent with spaces", col);
    } else if (c == '-' && (at + 1 >= len || text[at + 1] == ' ' ||
                            text[at + 1] == '\n' || text[at + 1] == '\r')) {
        walk_fail(w, OM_EPARSE, line,
                  "invalid YAML at column %zu: %s (a lone '-' starts a list; "
                  "to write the value '-', quote it: \"-\")",
                  col, p->problem ? p->problem : "syntax error");
    } else if (at >= len && p->context) {
        /* At the end of the file: point at the construct left open. */
        walk_fail(w, OM_EPARSE, (size_t)p->context_mark.line + 1,
                  "invalid YAML: %s before the end of the file (%s at column %zu)",
                  p->problem ? p->problem : "syntax error", p->context,
                  (size_t)p->context_mark.column + 1);
    } else if (p->context) {
        walk_fail(w, OM_EPARSE, line,
                  "invalid YAML at column %zu: %s (%s at line %zu)", col,
                  p->problem ? p->problem : "syntax error", p->context,
                  (size_t)p->context_mark.line + 1);
    } else {
        walk_fail(w, OM_EPARSE, line, "invalid YAML at column %zu: %s", col,
                  p->problem ? p->problem : "syntax error");
    }
}

/* Split `path` ("units[3].attacks") into w->comps ("units", "[3]",
 * "attacks"), then append `leaf` whole. */
static void walk_split_path(om_yaml_walk *w, const char *path, const char *leaf)
{
    size_t n = 0;
    char *save = NULL;

    /* A '[' starts a component of its own: write a '.' before it. */
    for (const char *p = path; *p && n + 2 < sizeof w->comp_buf; p++) {
        if (*p == '[' && n > 0 && w->comp_buf[n - 1] != '.')
            w->comp_buf[n++] = '.';
        w->comp_buf[n++] = *p;
    }
    w->comp_buf[n] = '\0';
    for (char *c = strtok_r(w->comp_buf, ".", &save); c && w->ncomps < OM_YAML_WALK_DEPTH_MAX;
         c = strtok_r(NULL, ".", &save))
        w->comps[w->ncomps++] = c;
    if (leaf && w->ncomps < OM_YAML_WALK_DEPTH_MAX)
        w->comps[w->ncomps++] = leaf;
}

/*
 * om_yaml_walk_run: see yaml_int.h. Thread-safe: all state is in *w and in
 * the parser on the stack.
 */
void om_yaml_walk_run(om_yaml_walk *w, const char *text, size_t len, const char *path,
                      const char *leaf)
{
    yaml_parser_t parser;
    bool done = false;

    memset(w, 0, sizeof *w);
    w->line = 1;
    if (path)
        walk_split_path(w, path, leaf);
    if (!yaml_parser_initialize(&parser)) {
        w->status = OM_ENOMEM;
        snprintf(w->reason, sizeof w->reason, "out of memory");
        return;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done && w->status == OM_OK) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            walk_parser_error(w, &parser, text, len);
            break;
        }
        const size_t line = ev.start_mark.line + 1;
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++w->documents > 1)
                walk_fail(w, OM_EPARSE, line,
                          "a file holds one YAML document, but a second one starts "
                          "here ('---')");
            break;
        case YAML_SCALAR_EVENT:
            w->nodes++;
            (void)walk_anchor_begin(w, ev.data.scalar.anchor, false, line);
            if (ev.data.scalar.length > w->longest) {
                w->longest = ev.data.scalar.length;
                w->longest_line = line;
                walk_current_path(w, line, w->longest_path, sizeof w->longest_path);
            }
            if (!walk_node_begin(w, &ev, line))
                walk_node_end(w);
            break;
        case YAML_ALIAS_EVENT:
            walk_alias(w, ev.data.alias.anchor, line);
            if (w->status == OM_OK && !walk_node_begin(w, &ev, line))
                walk_node_end(w);
            break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
            (void)walk_node_begin(w, &ev, line);
            if (w->status != OM_OK)
                break;
            if (w->depth == OM_YAML_WALK_DEPTH_MAX) {
                walk_fail(w, OM_EPARSE, line, "nested more than %d levels deep",
                          OM_YAML_WALK_DEPTH_MAX);
                break;
            }
            w->frames[w->depth] = (om_yaml_walk_frame){
                .is_map = ev.type == YAML_MAPPING_START_EVENT,
                .want_key = true,
                .entry = -1,
                .nodes_before = w->nodes,
                .anchor = walk_anchor_begin(w, ev.type == YAML_MAPPING_START_EVENT
                                                   ? ev.data.mapping_start.anchor
                                                   : ev.data.sequence_start.anchor,
                                            true, line),
            };
            w->nodes++;
            w->depth++;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            if (ALWAYS(w->depth > 0)) {
                const om_yaml_walk_frame *f = &w->frames[--w->depth];
                if (f->anchor >= 0) {
                    w->anchors[f->anchor].nodes = w->nodes - f->nodes_before;
                    w->anchors[f->anchor].open = false;
                }
            }
            walk_node_end(w);
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
}

/* ---------------------------------------------------------------------------
 * Error messages and suggestions.
 */

size_t om_yaml_locate(const om_yaml_ctx *c, const char *path, const char *leaf)
{
    om_yaml_walk w;
    om_yaml_walk_run(&w, c->text, c->len, path, leaf);
    return w.line;
}

/* Write the control characters of s (a value quoted in a message, a key) as
 * escapes, a newline as backslash and n, in place within cap bytes, so that a
 * message stays one line. */
static void escape_controls(char *s, size_t cap)
{
    char out[OM_YAML_REASON_MAX];
    size_t n = 0;
    bool changed = false;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < sizeof out; p++) {
        if (*p >= 0x20 && *p != 0x7F) {
            out[n++] = (char)*p;
            continue;
        }
        changed = true;
        if (*p == '\n' || *p == '\t' || *p == '\r') {
            out[n++] = '\\';
            out[n++] = *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r';
        } else {
            n += (size_t)snprintf(out + n, sizeof out - n, "\\x%02X", *p);
        }
    }
    out[n] = '\0';
    if (changed)
        snprintf(s, cap, "%s", out);
}

om_status om_yaml_fail_at(const om_yaml_ctx *c, om_status code, size_t line, const char *path,
                          const char *leaf, const char *fmt, ...)
{
    char reason[OM_YAML_REASON_MAX];
    char shown[OM_YAML_PATH_MAX];
    va_list ap;
    const bool has_path = path && path[0];
    const bool has_leaf = leaf && leaf[0];

    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (has_path || has_leaf)
        snprintf(shown, sizeof shown, "%s%s%s", has_path ? path : "",
                 has_path && has_leaf ? "." : "", has_leaf ? leaf : "");
    else
        snprintf(shown, sizeof shown, "%s", OM_YAML_PATH_DOCUMENT);
    escape_controls(reason, sizeof reason);
    escape_controls(shown, sizeof shown);
    if (line == 0)
        line = om_yaml_locate(c, has_path ? path : "", has_leaf ? leaf : NULL);
    return OM_ERROR(code, "%s:%zu: field '%s': %s", c->source, line, shown, reason);
}

void om_yaml_join_names(char *buf, size_t cap, const char *const *names, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
    }
}

/* ---------------------------------------------------------------------------
 * Conversion of raw strings.
 */

int om_yaml_parse_integer(const char *s, long long *out)
{
    const char *p = s;
    char *end;
    if (*p == '+' || *p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return -1;
    errno = 0;
    *out = strtoll(s, &end, 10);
    if (errno == ERANGE)
        return -2;
    return *end == '\0' ? 0 : -1;
}

om_status om_yaml_conv_int(const om_yaml_ctx *c, const char *prefix, const char *key,
                           const char *s, unsigned max, unsigned dflt, unsigned *out)
{
    long long v = 0;
    *out = dflt;
    if (!s)
        return OM_OK;
    switch (om_yaml_parse_integer(s, &v)) {
    case -1:
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "expected an integer, got '%s'",
                               s);
    case -2:
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "%s is out of range (0..%u)", s,
                               max);
    default:
        break;
    }
    if (v < 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key,
                               "must not be negative (got %lld)", v);
    if (v > (long long)max)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "%lld is too large (at most %u)",
                               v, max);
    *out = (unsigned)v;
    return OM_OK;
}

om_status om_yaml_conv_u8(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *s, unsigned dflt, uint8_t *out)
{
    unsigned v = 0;
    om_status st = om_yaml_conv_int(c, prefix, key, s, UINT8_MAX, dflt, &v);
    *out = (uint8_t)v;
    return st;
}

bool om_yaml_parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES",
                                       "on", "On", "ON" };
    static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO",
                                      "off", "Off", "OFF" };
    _Static_assert(sizeof yes == sizeof no, "as many true as false spellings");
    *out = false;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcmp(s, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcmp(s, no[i]) == 0)
            return true;
    }
    return false;
}

om_status om_yaml_conv_bool(const om_yaml_ctx *c, const char *prefix, const char *key,
                            const char *s, bool *out)
{
    *out = false;
    if (!s || om_yaml_parse_bool(s, out))
        return OM_OK;
    return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "expected true or false, got '%s'",
                           s);
}

/* The length of the UTF-8 sequence starting at s[0..n), or 0 if it is not one
 * (an overlong form, a surrogate, beyond U+10FFFF, or cut short). */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        need = 1;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        need = 2;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        need = 3;
    else
        return 0;
    /* The second byte's range excludes overlong forms, surrogates and code
     * points beyond U+10FFFF (RFC 3629, section 4). */
    if (s[0] == 0xE0)
        lo = 0xA0;
    else if (s[0] == 0xED)
        hi = 0x9F;
    else if (s[0] == 0xF0)
        lo = 0x90;
    else if (s[0] == 0xF4)
        hi = 0x8F;
    if (n < need + 1 || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i <= need; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return need + 1;
}

om_status om_yaml_check_text(const om_yaml_ctx *c)
{
    const unsigned char *s = (const unsigned char *)c->text;
    size_t line = 1, column = 1;
    if (c->len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF)))
        return om_yaml_fail_at(c, OM_EPARSE, 1, NULL, NULL, "the file is %s text; save it as "
                               "UTF-8", c->len >= 4 && s[2] == 0 && s[3] == 0 ? "UTF-32"
                                                                             : "UTF-16");
    if (c->len >= 4 && s[0] == 0 && s[1] == 0 && s[2] == 0xFE && s[3] == 0xFF)
        return om_yaml_fail_at(c, OM_EPARSE, 1, NULL, NULL, "the file is UTF-32 text; save it "
                               "as UTF-8");
    for (size_t i = 0; i < c->len;) {
        const unsigned char b = s[i];
        size_t n;
        if (b == 0)
            return om_yaml_fail_at(c, OM_EPARSE, line, NULL, NULL, "the file is not text: it "
                                   "holds a NUL byte (line %zu, column %zu); a scenario is YAML "
                                   "text in UTF-8", line, column);
        if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F)
            return om_yaml_fail_at(c, OM_EPARSE, line, NULL, NULL, "the file is not text: a "
                                   "control character (byte 0x%02X) at line %zu, column %zu",
                                   b, line, column);
        if ((n = utf8_sequence(s + i, c->len - i)) == 0)
            return om_yaml_fail_at(c, OM_EPARSE, line, NULL, NULL, "the file is not text in "
                                   "UTF-8: byte 0x%02X at line %zu, column %zu begins no UTF-8 "
                                   "character (save the file as UTF-8)", b, line, column);
        if (b == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        i += n;
    }
    return OM_OK;
}

char *om_yaml_dup(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

om_status om_yaml_read_stream(FILE *f, const char *name, char **out, size_t *out_len)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;

    *out = NULL;
    *out_len = 0;
    for (;;) {
        if (len + 1 >= cap) {
            /* Grow geometrically; scenario files are a few hundred bytes. */
            size_t ncap = cap ? 2 * cap : 4096;
            char *nbuf = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nbuf) {
                free(buf);
                return OM_ERROR(OM_ENOMEM, "%s: out of memory reading the file", name);
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                free(buf);
                return OM_ERROR(OM_EIO, "%s: cannot read: %s", name, strerror(e ? e : EIO));
            }
            break;
        }
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return OM_OK;
}

om_status om_yaml_read_file(const char *path, char **out, size_t *out_len)
{
    FILE *f;
    om_status st;

    *out = NULL;
    *out_len = 0;
    f = fopen(path, "rb");
    if (!f)
        return OM_ERROR(OM_EIO, "%s: cannot read: %s", path, strerror(errno));
    st = om_yaml_read_stream(f, path, out, out_len);
    fclose(f);
    return st;
}

/* ---------------------------------------------------------------------------
 * libcyaml log capture. libcyaml logs an error line ("Load: Unexpected key:
 * atacks"), then "Load: Backtrace:" and one line per open node, innermost
 * first: "  in mapping field 'unit' (line: 4, column: 5)" for a mapping whose
 * current field is 'unit', "  in mapping (line: ...)" for one with no current
 * field, "  in sequence entry '2' (line: ...)" for the second entry (1-based).
 * So every mapping line but the innermost names the key leading down to the
 * failing mapping, and the innermost names the field being loaded there (or,
 * after the mapping's end, the last one loaded). The logged line numbers point
 * at event ends, so only the names are used; lines come from the walker.
 */

#define CY_BACKTRACE_MAX 16

typedef struct cy_frame {
    bool is_entry;   /* sequence entry (else mapping) */
    char field[64];  /* mapping: its current field ("" if none) */
    unsigned entry;  /* sequence entry: its number, 1-based */
} cy_frame;

typedef struct cy_log {
    char message[OM_YAML_REASON_MAX]; /* the first error message, "Load: " removed */
    bool in_backtrace;                /* the backtrace has begun */
    cy_frame frames[CY_BACKTRACE_MAX]; /* backtrace, innermost first */
    size_t nframes;                   /* frames recorded */
} cy_log;

/* libcyaml's log callback: keep the first error and its backtrace. */
static void cy_log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
    cy_log *log = ctx;
    char line[OM_YAML_REASON_MAX];
    const char *text = line;
    cy_frame f = { 0 };

    if (level < CYAML_LOG_ERROR)
        return;
    vsnprintf(line, sizeof line, fmt, args);
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(text, "Load: ", 6) == 0)
        text += 6;
    if (!log->in_backtrace) {
        if (strcmp(text, "Backtrace:") == 0)
            log->in_backtrace = true;
        else if (log->message[0] == '\0')
            snprintf(log->message, sizeof log->message, "%s", text);
        return;
    }
    if (log->nframes == CY_BACKTRACE_MAX)
        return;
    if (sscanf(text, "  in mapping field '%63[^']'", f.field) == 1 ||
        strncmp(text, "  in mapping (", 14) == 0) {
        log->frames[log->nframes++] = f;
    } else if (sscanf(text, "  in sequence entry '%u'", &f.entry) == 1) {
        f.is_entry = true;
        log->frames[log->nframes++] = f;
    }
}

const cyaml_schema_field_t *om_yaml_field_find(const cyaml_schema_field_t *fields,
                                               const char *key)
{
    for (const cyaml_schema_field_t *f = fields; f->key; f++)
        if (strcmp(f->key, key) == 0)
            return f;
    return NULL;
}

om_status om_yaml_fail_unknown_key(const om_yaml_ctx *c, const char *path,
                                   const cyaml_schema_field_t *fields, const char *key)
{
    const char *best;
    const char *names[OM_YAML_KEYS_MAX];
    size_t n = 0;
    char known[OM_YAML_REASON_MAX / 2];

    for (const cyaml_schema_field_t *f = fields; f->key; f++)
        if (n < sizeof names / sizeof names[0])
            names[n++] = f->key;
    best = om_suggest(key, names, n);
    if (best)
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s'; did you mean '%s'?", key, best);
    om_yaml_join_names(known, sizeof known, names, n);
    return om_yaml_fail_at(c, OM_EPARSE, 0, path, key, "unknown key '%s'; known keys: %s",
                           key, known);
}

/* Is key one of the NULL-terminated keys? */
static bool key_in(const char *const *keys, const char *key)
{
    for (size_t i = 0; keys && keys[i]; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

/* What a value of schema `v` is, for "expected X" messages: a mapping, a
 * list of a fixed length, a list of mappings, or (a list of) single values,
 * which the document describes (`list`, `single`). */
static void value_expects(const cyaml_schema_value_t *v, const char *list, const char *single,
                          char *out, size_t cap)
{
    if (v->type == CYAML_MAPPING)
        snprintf(out, cap, "a mapping of keys (indented 'key: value' lines)");
    else if (v->type == CYAML_SEQUENCE_FIXED)
        snprintf(out, cap, "a list of exactly %u values, e.g. [x, y]", (unsigned)v->sequence.max);
    else if (v->type == CYAML_SEQUENCE && v->sequence.entry->type == CYAML_MAPPING)
        snprintf(out, cap, "a list of mappings (each entry '- key: value')");
    else if (v->type == CYAML_SEQUENCE && v->sequence.entry->type == CYAML_SEQUENCE_FIXED)
        snprintf(out, cap, "a list of lists of %u values, e.g. [[x, y], [x, y]]",
                 (unsigned)v->sequence.entry->sequence.max);
    else if (v->type == CYAML_SEQUENCE)
        snprintf(out, cap, "%s", list);
    else
        snprintf(out, cap, "%s", single);
}

/* What the field `f` expects, for "expected X" messages. */
static void field_expects(const om_yaml_doc *d, const cyaml_schema_field_t *f, char *out,
                          size_t cap)
{
    const char *single = key_in(d->int_keys, f->key)    ? "an integer"
                         : key_in(d->bool_keys, f->key) ? "true or false"
                                                         : "a single value (a name or word)";
    value_expects(&f->value, d->list_expects, single, out, cap);
}

/* What an entry of the list field `f` expects. */
static void entry_expects(const om_yaml_doc *d, const cyaml_schema_field_t *f, char *out,
                          size_t cap)
{
    if (f->value.type == CYAML_SEQUENCE_FIXED)
        snprintf(out, cap, "a single value (a number)");
    else
        value_expects(f->value.sequence.entry, d->list_expects, d->entry_expects, out, cap);
}

/* The list whose length libcyaml refused (`lists` entry frames were open at
 * the error: 1, the value of field `leaf` itself; 2, entry `entry` of it):
 * its schema, or NULL. */
static const cyaml_schema_value_t *refused_list(const cyaml_schema_field_t *leaf, size_t lists)
{
    if (leaf == NULL)
        return NULL;
    if (lists == 1 && (leaf->value.type == CYAML_SEQUENCE ||
                       leaf->value.type == CYAML_SEQUENCE_FIXED))
        return &leaf->value;
    if (lists == 2 && leaf->value.type == CYAML_SEQUENCE &&
        leaf->value.sequence.entry->type == CYAML_SEQUENCE_FIXED)
        return leaf->value.sequence.entry;
    return NULL;
}

/* Describe the value at path.leaf as found in the document: "a list", "a
 * mapping", "'3'" or "nothing"; *line is its line. */
static void describe_value(const om_yaml_ctx *c, const char *path, const char *leaf,
                           char *out, size_t cap, size_t *line)
{
    om_yaml_walk w;
    om_yaml_walk_run(&w, c->text, c->len, path, leaf);
    *line = w.line;
    if (!w.found)
        snprintf(out, cap, "something else");
    else if (w.value_type == YAML_SEQUENCE_START_EVENT)
        snprintf(out, cap, "a list");
    else if (w.value_type == YAML_MAPPING_START_EVENT)
        snprintf(out, cap, "a mapping");
    else if (w.value_type == YAML_ALIAS_EVENT)
        snprintf(out, cap, "an alias");
    else if (w.value[0] == '\0')
        snprintf(out, cap, "nothing");
    else
        snprintf(out, cap, "'%s'", w.value);
}

/* If s starts with prefix, the rest of s; else NULL. */
static const char *after_prefix(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* Append ".key" (or "key" at the start) to path. */
static void path_append(char *path, size_t cap, const char *key)
{
    size_t used = strlen(path);
    snprintf(path + used, cap - used, "%s%s", used ? "." : "", key);
}


/* Report the unknown key `key` of the mapping at `path` (schema `fields`) of
 * a document `d`: the document's own message for a key of another place
 * (d->unknown_key), else that it is an option of one of d->options written
 * outside `options:`, else the nearest known key (om_yaml_fail_unknown_key). */
static om_status fail_unexpected_key(const om_yaml_ctx *c, const om_yaml_doc *d,
                                     const char *path, const cyaml_schema_field_t *fields,
                                     const char *key)
{
    om_status st = d->unknown_key ? d->unknown_key(c, path, fields, key) : OM_OK;
    if (st != OM_OK)
        return st;
    for (const om_option_table *const *t = d->options; t && *t; t++)
        if (om_option_find(*t, key))
            return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                                   "unknown key '%s'%s%s; it is an option: put it under the "
                                   "top-level 'options:'", key, path[0] ? " in " : "", path);
    return om_yaml_fail_unknown_key(c, path, fields, key);
}
/* Turn a failed cyaml_load_data into one message. */
static om_status fail_cyaml(const om_yaml_ctx *c, const om_yaml_doc *d, cyaml_err_t err,
                            const cy_log *log)
{
    char path[OM_YAML_PATH_MAX] = "";
    const cyaml_schema_field_t *fields = d->top->mapping.fields;
    const cyaml_schema_field_t *leaf = NULL;
    bool entry_pending = false;
    unsigned entry = 0;
    const char *m = log->message;
    const char *arg;

    if (err == CYAML_ERR_OOM)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory while loading", c->source);

    /* The innermost mapping frame is the failing mapping; the frames outside
     * it give its path, followed through the schema: a mapping field leads
     * into its mapping, a field holding a sequence of mappings into the entry
     * the next frame names ("units[3]"). */
    size_t inner = 0;
    while (inner < log->nframes && log->frames[inner].is_entry)
        entry = log->frames[inner++].entry;
    for (size_t i = log->nframes; i-- > inner + 1;) {
        const cy_frame *f = &log->frames[i];
        if (f->is_entry) {
            size_t used = strlen(path);
            if (!entry_pending || f->entry == 0)
                break;
            snprintf(path + used, sizeof path - used, "[%u]", f->entry - 1);
            entry_pending = false;
            continue;
        }
        const cyaml_schema_field_t *sf = entry_pending ? NULL : om_yaml_field_find(fields, f->field);
        if (!sf)
            break;
        if (sf->value.type == CYAML_MAPPING) {
            fields = sf->value.mapping.fields;
        } else if (sf->value.type == CYAML_SEQUENCE &&
                   sf->value.sequence.entry->type == CYAML_MAPPING) {
            fields = sf->value.sequence.entry->mapping.fields;
            entry_pending = true;
        } else {
            break;
        }
        path_append(path, sizeof path, sf->key);
    }
    if (inner < log->nframes)
        leaf = om_yaml_field_find(fields, log->frames[inner].field);

    if ((arg = after_prefix(m, "Unexpected key: ")))
        return fail_unexpected_key(c, d, path, fields, arg);
    if ((arg = after_prefix(m, "Missing required mapping field: ")))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, arg, "required key '%s' is missing",
                               arg);
    if ((arg = after_prefix(m, "Mapping field already seen: "))) {
        om_yaml_walk w;
        om_yaml_walk_run(&w, c->text, c->len, path, arg);
        return om_yaml_fail_at(c, OM_EPARSE, w.again_line ? w.again_line : w.line, path, arg,
                               "duplicate key '%s' (first given at line %zu)", arg, w.line);
    }
    if (after_prefix(m, "Expecting ")) {
        char got[80], want[OM_YAML_REASON_MAX / 2], leaf_path[OM_YAML_PATH_MAX];
        size_t line;
        if (leaf && entry > 0) {
            char idx[24];
            snprintf(leaf_path, sizeof leaf_path, "%s%s%s", path, path[0] ? "." : "",
                     leaf->key);
            snprintf(idx, sizeof idx, "[%u]", entry - 1);
            describe_value(c, leaf_path, idx, got, sizeof got, &line);
            entry_expects(d, leaf, want, sizeof want);
            return om_yaml_fail_at(c, OM_EPARSE, line, leaf_path, NULL,
                                   "entry %u: expected %s, got %s", entry, want, got);
        }
        if (leaf) {
            describe_value(c, path, leaf->key, got, sizeof got, &line);
            field_expects(d, leaf, want, sizeof want);
            return om_yaml_fail_at(c, OM_EPARSE, line, path, leaf->key, "expected %s, got %s",
                                   want, got);
        }
    }
    {
        /* A list of the wrong length: "Excessive entries (2 max) in
         * sequence." or "Insufficient entries (1 of 2 min) in sequence." */
        const cyaml_schema_value_t *list = refused_list(leaf, inner);
        unsigned have = 0, limit = 0;
        const bool more = sscanf(m, "Excessive entries (%u max)", &limit) == 1;
        const bool fewer = !more && sscanf(m, "Insufficient entries (%u of %u min)", &have,
                                           &limit) == 2;
        if (list && (more || fewer)) {
            char got[40], where[32] = "";
            const bool fixed = list->type == CYAML_SEQUENCE_FIXED;
            if (inner == 2)
                snprintf(where, sizeof where, "entry %u: ", entry);
            if (more)
                snprintf(got, sizeof got, "more");
            else
                snprintf(got, sizeof got, "%u", have);
            return om_yaml_fail_at(c, OM_EPARSE, 0, path, leaf->key,
                                   "%sexpected %s%u values%s, got %s", where,
                                   fixed ? "a list of exactly " : more ? "at most " : "at least ",
                                   limit, fixed && limit == 2 ? " ([x, y])" : "", got);
        }
    }
    if ((arg = after_prefix(m, "No anchor found for alias: '"))) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "'"), arg);
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, leaf ? leaf->key : NULL,
                               "unknown alias '*%s': no anchor '&%s' is set before it", name,
                               name);
    }
    /* Anything else libcyaml reports (none of the schemas here should meet
     * one): its words, said to be the reader's. */
    return om_yaml_fail_at(c, OM_EPARSE, 0, path, leaf ? leaf->key : NULL,
                           "this value cannot be read (the YAML reader says: %s)",
                           m[0] ? m : cyaml_strerror(err));
}

/* Deepest nesting of a schema that schema_strides_agree follows; the
 * scenario schemas nest at most 6 values deep (turn, a, units, [i], plan,
 * goal). */
#define SCHEMA_DEPTH_MAX 16

/*
 * Does libcyaml free every sequence of the schema `v` at the stride it loads
 * it with? libcyaml 1.3.1 places the entries of a sequence `data_size` of the
 * sequence's schema apart when it loads them, but steps through them by the
 * entry schema's `data_size` (a pointer's size for a pointer entry) when it
 * frees them, both in cyaml_free and in its own clean-up of a load that fails.
 * The two agree for every entry but one kind: a fixed-length sequence stored
 * inline (a list of points [[x, y], ...] read into char *[n][2]), whose entry
 * schema gives the size of one element, not of the entry. Freed at that
 * stride, every element but the first and last is freed twice. Such entries
 * must be pointers (CYAML_FLAG_POINTER on the entry schema), whose stride is a
 * pointer's size both ways.
 */
static bool schema_strides_agree(const cyaml_schema_value_t *v, unsigned depth)
{
    if (depth > SCHEMA_DEPTH_MAX)
        return true;
    if (v->type == CYAML_MAPPING) {
        for (const cyaml_schema_field_t *f = v->mapping.fields; f->key; f++)
            if (!schema_strides_agree(&f->value, depth + 1))
                return false;
        return true;
    }
    if (v->type == CYAML_SEQUENCE || v->type == CYAML_SEQUENCE_FIXED) {
        const cyaml_schema_value_t *e = v->sequence.entry;
        const size_t free_stride = e->flags & CYAML_FLAG_POINTER ? sizeof(void *) : e->data_size;
        return free_stride == v->data_size && schema_strides_agree(e, depth + 1);
    }
    return true;
}

om_status om_yaml_load(const om_yaml_ctx *c, const om_yaml_doc *d, void **out)
{
    cy_log log;
    const cyaml_config_t cfg = {
        .log_fn = cy_log_fn,
        .log_ctx = &log,
        .mem_fn = cyaml_mem,
        .log_level = CYAML_LOG_WARNING,
        .flags = CYAML_CFG_DEFAULT,
    };
    om_yaml_walk w;
    cyaml_err_t err;
    om_status st;

    *out = NULL;
    memset(&log, 0, sizeof log);
    if ((st = om_yaml_check_text(c)) != OM_OK)
        return st;
    if (NEVER(!schema_strides_agree(d->top, 0)))
        return OM_ERROR(OM_EUNSUPPORTED, "%s: cannot read %s: its schema holds a list of "
                        "fixed-length lists that libcyaml cannot free (a defect of this "
                        "program)", c->source, d->what);
    om_yaml_walk_run(&w, c->text, c->len, NULL, NULL);
    if (w.status == OM_ENOMEM)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory while parsing", c->source);
    if (w.status != OM_OK)
        return om_yaml_fail_at(c, w.status, w.err_line, w.err_path, NULL, "%s", w.reason);
    if (d->value_max > 0 && w.longest > d->value_max)
        return om_yaml_fail_at(c, OM_EPARSE, w.longest_line, w.longest_path, NULL,
                               "a value of %zu bytes; a value is at most %zu (a title, a name, "
                               "a word or a number)", w.longest, d->value_max);
    if (w.root_type == 0 ||
        (w.root_type == YAML_SCALAR_EVENT &&
         (w.root_scalar[0] == '\0' || strcmp(w.root_scalar, "~") == 0 ||
          strcmp(w.root_scalar, "null") == 0)))
        return om_yaml_fail_at(c, OM_EPARSE, w.root_type ? w.root_line : 1, NULL, NULL,
                               "the file is empty; %s needs at least the keys %s", d->what,
                               d->keys);
    if (w.root_type != YAML_MAPPING_START_EVENT)
        return om_yaml_fail_at(c, OM_EPARSE, w.root_line, NULL, NULL,
                               "the document must be a mapping of keys (%s), not %s", d->keys,
                               w.root_type == YAML_SEQUENCE_START_EVENT ? "a list"
                                                                        : "a single value");
    if (!w.has_schema)
        return om_yaml_fail_at(c, OM_EPARSE, w.root_line, NULL, "schema",
                               "required key 'schema' is missing (%s starts with "
                               "'schema: %s')", d->what, d->schema);
    if (w.schema_scalar && strcmp(w.schema, d->schema) != 0)
        return om_yaml_fail_at(c, OM_EPARSE, w.schema_line, NULL, "schema",
                               "unsupported schema '%s'; this version reads '%s'", w.schema,
                               d->schema);

    err = cyaml_load_data((const uint8_t *)c->text, c->len, &cfg, d->top, (cyaml_data_t **)out,
                          NULL);
    if (err != CYAML_OK) {
        *out = NULL;
        return fail_cyaml(c, d, err, &log);
    }
    if (NEVER(*out == NULL))
        return om_yaml_fail_at(c, OM_EPARSE, 1, NULL, NULL, "the document is empty");
    return OM_OK;
}

void om_yaml_free(const om_yaml_doc *d, void *data)
{
    const cyaml_config_t cfg = {
        .log_fn = NULL,
        .mem_fn = cyaml_mem,
        .log_level = CYAML_LOG_ERROR,
        .flags = CYAML_CFG_DEFAULT,
    };
    if (data)
        cyaml_free(&cfg, d->top, data, 0);
}

/* ---------------------------------------------------------------------------
 * Mappings whose keys no fixed schema knows (the scenario's `options:`).
 */

/* What a node starting with `ev` is, for "got X" messages. */
static void describe_node(const yaml_event_t *ev, char *out, size_t cap)
{
    char value[48];
    switch (ev->type) {
    case YAML_SEQUENCE_START_EVENT: snprintf(out, cap, "a list"); break;
    case YAML_MAPPING_START_EVENT: snprintf(out, cap, "a mapping"); break;
    case YAML_ALIAS_EVENT: snprintf(out, cap, "an alias"); break;
    default:
        copy_trunc(value, sizeof value, (const char *)ev->data.scalar.value,
                   ev->data.scalar.length);
        if (value[0] == '\0')
            snprintf(out, cap, "nothing");
        else
            snprintf(out, cap, "'%s'", value);
        break;
    }
}

/* Is the scalar `ev` YAML's null ("", "~" or "null")? */
static bool scalar_is_null(const yaml_event_t *ev)
{
    const char *v = (const char *)ev->data.scalar.value;
    return ev->data.scalar.length == 0 || strcmp(v, "~") == 0 || strcmp(v, "null") == 0;
}

/*
 * om_yaml_scalar_map: see yaml_int.h. A second libyaml event walk, reading
 * only depth 1 (the root mapping's keys and values, to the end, so that a
 * second `key` is found) and depth 2 inside the value of `key`. Thread-safe:
 * the parser is on the stack.
 */
om_status om_yaml_scalar_map(const om_yaml_ctx *c, const char *key, const char *expects,
                             om_yaml_pair *pairs, size_t cap, size_t *n)
{
    yaml_parser_t parser;
    size_t depth = 0;         /* collections open */
    bool root_key = true;     /* depth 1: the next node is a key of the root */
    bool at_key = false;      /* depth 1: the next node is the value of `key` */
    bool in_map = false;      /* inside the mapping that value is (depth 2) */
    bool entry_key = true;    /* in that mapping: the next node is a key */
    size_t key_line = 0;      /* line of `key` once seen (a second one is an error) */
    bool done = false;
    om_status st = OM_OK;
    char got[80];

    *n = 0;
    if (!yaml_parser_initialize(&parser))
        return OM_ERROR(OM_ENOMEM, "%s: out of memory while parsing", c->source);
    yaml_parser_set_input_string(&parser, (const unsigned char *)c->text, c->len);
    while (!done && st == OM_OK) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            /* om_yaml_load has walked the same text without a problem. */
            if (NEVER(true))
                st = om_yaml_fail_at(c, OM_EPARSE, 0, key, NULL, "invalid YAML");
            break;
        }
        const bool opens = ev.type == YAML_MAPPING_START_EVENT ||
                           ev.type == YAML_SEQUENCE_START_EVENT;
        const bool node = opens || ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT;
        const size_t line = ev.start_mark.line + 1;

        if (node && in_map && depth == 2) {
            om_yaml_pair *p = &pairs[*n];
            if (entry_key && *n == cap) {
                st = om_yaml_fail_at(c, OM_EPARSE, line, key, NULL,
                                     "more than %zu entries; each name may appear once", cap);
            } else if (entry_key) {
                /* Keys are scalars: om_yaml_load's walk rejects anything else. */
                if (ALWAYS(ev.type == YAML_SCALAR_EVENT))
                    copy_trunc(p->key, sizeof p->key, (const char *)ev.data.scalar.value,
                               ev.data.scalar.length);
                p->line = line;
                entry_key = false;
            } else if (ev.type != YAML_SCALAR_EVENT) {
                describe_node(&ev, got, sizeof got);
                st = om_yaml_fail_at(c, OM_EPARSE, p->line, key, p->key,
                                     "expected a single value, got %s", got);
            } else if (!copy_trunc(p->value, sizeof p->value,
                                   (const char *)ev.data.scalar.value, ev.data.scalar.length)) {
                /* Cut short, "000...05" would read as 0. */
                st = om_yaml_fail_at(c, OM_EPARSE, p->line, key, p->key,
                                     "a value of %zu bytes; an option's value is a word or a "
                                     "number of at most %d", ev.data.scalar.length,
                                     OM_YAML_PAIR_MAX - 1);
            } else {
                (*n)++;
                entry_key = true;
            }
        } else if (node && depth == 1 && root_key) {
            at_key = ev.type == YAML_SCALAR_EVENT &&
                     strcmp((const char *)ev.data.scalar.value, key) == 0;
            root_key = false;
            /* libcyaml skips the key it is told to ignore, duplicates too. */
            if (at_key && key_line > 0)
                st = om_yaml_fail_at(c, OM_EPARSE, line, NULL, key,
                                     "duplicate key '%s' (first given at line %zu)", key,
                                     key_line);
            if (at_key)
                key_line = line;
        } else if (node && depth == 1) {
            root_key = true;
            if (at_key && ev.type == YAML_MAPPING_START_EVENT) {
                in_map = true;
            } else if (at_key && !(ev.type == YAML_SCALAR_EVENT && scalar_is_null(&ev))) {
                describe_node(&ev, got, sizeof got);
                st = om_yaml_fail_at(c, OM_EPARSE, 0, NULL, key, "expected %s, got %s",
                                     expects, got);
            }
            at_key = false;
        }

        if (opens) {
            depth++;
        } else if (ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT) {
            if (ALWAYS(depth > 0))
                depth--;
            if (in_map && depth == 1)
                in_map = false;
        } else if (ev.type == YAML_STREAM_END_EVENT) {
            done = true;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return st;
}

om_status om_yaml_read_path(const char **path, char **buf, size_t *len)
{
    if (strcmp(*path, OM_SCENARIO_STDIN_PATH) == 0) {
        *path = OM_SCENARIO_STDIN_NAME;
        return om_yaml_read_stream(stdin, *path, buf, len);
    }
    return om_yaml_read_file(*path, buf, len);
}
