/*
 * manifest.c: the reproducibility line of tables and charts (manifest.h):
 * program version, rule set, data version, seed and trials on every output,
 * so that any table or chart can be reproduced from what it prints.
 */
#include "manifest.h"

#include <stdio.h>
#include <string.h>

void om_manifest_from_matrix(const om_matrix *m, om_manifest *out)
{
    uint64_t total = 0;
    size_t n = m->info.n_situations * m->info.n_rows * m->info.n_cols;
    for (size_t k = 0; k < n; k++)
        total += m->cells[k].trials;
    *out = (om_manifest){
        .program_version = m->info.program_version,
        .ruleset = m->info.ruleset,
        .data_version = m->info.data_version,
        .has_seed = true,
        .seed = m->info.seed,
        .trials = total,
        .per_cell = true,
        .trials_per_cell = m->info.trials_per_cell,
        .target_halfwidth = m->info.target_halfwidth,
        .file = m->path,
    };
}

void om_manifest_count(uint64_t n, char buf[OM_MANIFEST_COUNT_MAX])
{
    char digits[24];
    size_t len, out = 0;
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    len = strlen(digits);
    for (size_t i = 0; i < len; i++) {
        /* A comma before every group of three digits counted from the right. */
        if (i > 0 && (len - i) % 3 == 0)
            buf[out++] = ',';
        buf[out++] = digits[i];
    }
    buf[out] = '\0';
}

void om_manifest_trials(const om_manifest *mf, char *buf, size_t size)
{
    char n[OM_MANIFEST_COUNT_MAX];
    if (mf->per_cell && mf->trials_per_cell > 0) {
        om_manifest_count(mf->trials_per_cell, n);
        snprintf(buf, size, "%s trials per cell", n);
    } else if (mf->per_cell) {
        om_manifest_count(mf->trials, n);
        snprintf(buf, size, "adaptive to \xc2\xb1%g per cell, %s trials", mf->target_halfwidth,
                 n);
    } else {
        om_manifest_count(mf->trials, n);
        snprintf(buf, size, "%s trials", n);
    }
}

/* Append " · TEXT" (or TEXT at the start) to buf. */
static void append(char *buf, size_t size, const char *text)
{
    size_t len = strlen(buf);
    if (len + 1 < size)
        snprintf(buf + len, size - len, "%s%s", len > 0 ? " \xc2\xb7 " : "", text);
}

void om_manifest_line(const om_manifest *mf, char *buf, size_t size)
{
    char part[OM_MANIFEST_MAX];
    if (size == 0)
        return;
    buf[0] = '\0';
    snprintf(part, sizeof part, "oddsmaster %s",
             mf->program_version != NULL && mf->program_version[0] != '\0'
                 ? mf->program_version : "(version unknown)");
    append(buf, size, part);
    if (mf->ruleset != NULL && mf->ruleset[0] != '\0')
        append(buf, size, mf->ruleset);
    if (mf->data_version != NULL && mf->data_version[0] != '\0') {
        snprintf(part, sizeof part, "data %s", mf->data_version);
        append(buf, size, part);
    }
    if (mf->has_seed)
        snprintf(part, sizeof part, "seed %llu", (unsigned long long)mf->seed);
    else
        snprintf(part, sizeof part, "seed unknown");
    append(buf, size, part);
    om_manifest_trials(mf, part, sizeof part);
    append(buf, size, part);
    if (mf->file != NULL && mf->file[0] != '\0')
        append(buf, size, mf->file);
}
