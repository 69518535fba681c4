/*
 * replay.h: one trial of a result file played again, exactly as the run
 * played it, with its events told (`oddsmaster replay`). A run draws the dice
 * of trial k from its block's stream after the trials before it in the block
 * (run.h), or from its own stream with trial streams; the replay puts the
 * dice where the run had them, has the game tell that trial (the narrate
 * group of game.h), and checks the row it gives against the file's. A
 * typical trial is chosen without looking at the story: the median of the
 * victory-point margin the game's narrate group names, ties to the lowest
 * index.
 */
#ifndef OM_REPLAY_H
#define OM_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "picture.h"
#include "run.h"
#include "status.h"

/*
 * om_run_replay_trial: play trial `trial` of a run of prepared scenario `t`
 * made with `cfg` (its seed, block size and dice scheme; trials, threads and
 * first_block are not read) and tell it to `out`, its row into `row`
 * (t->layout.row_size bytes), the picture at the end of battle turn
 * `picture_turn` into `picture` if not NULL (game.h, narrate). The trials
 * before it in its block are simulated and dropped (at most a block). Errors:
 * OM_EUNSUPPORTED (a game or kind that tells no trial; the plain baseline
 * dice, whose generator is not replayed), OM_ENOMEM, and the game's.
 */
om_status om_run_replay_trial(const om_trials *t, const om_run_config *cfg, uint64_t trial,
                              uint8_t *row, FILE *out, unsigned picture_turn,
                              om_picture *picture);

/* What to replay of a result file. */
typedef struct om_replay_request {
    const char *path;      /* the result file */
    bool typical;          /* the typical trial (om_replay_typical), not `trial` */
    uint64_t trial;        /* the trial (0-based row of the file) unless typical */
    unsigned picture_turn; /* with picture: the battle turn whose end is drawn (0: as
                              deployed) */
    om_picture *picture;   /* where the picture goes, or NULL for none */
    FILE *out;             /* where the story goes */
} om_replay_request;

/* What a replay found. */
typedef struct om_replay_report {
    uint64_t trial;   /* the trial told */
    uint64_t trials;  /* trials in the file */
    int64_t margin;   /* its victory-point margin, A - B */
} om_replay_report;

/*
 * om_replay_file: tell trial rq->trial (or the typical one) of the result
 * file rq->path: its scenario and dice from the file's provenance (scenario
 * text, seed, block size, dice scheme), its row compared field by field with
 * the file's. A heading line names the file and the trial; the story is
 * written only once the row is found to be the file's.
 * Errors: OM_EIO, OM_EHDF5 (unreadable, not a result file, damaged; a row
 * that differs from its replay, which the same program version never gives),
 * OM_EINVAL (a trial out of range, a file without rows, a scenario that is
 * not a battle or whose fields are not the file's), OM_EUNSUPPORTED (the
 * plain baseline dice; a file of another program version whose row differs),
 * OM_ENOMEM, and the scenario loader's.
 */
om_status om_replay_file(const om_replay_request *rq, om_replay_report *report);

/*
 * om_replay_typical: the trial whose victory-point margin vp_a - vp_b is the
 * median of the n margins (the lower median, the ((n - 1) / 2)-th smallest,
 * for even n), the lowest index among trials of that margin. Pure;
 * thread-safe. n >= 1.
 */
uint64_t om_replay_typical(const int32_t *margin, uint64_t n);

#endif /* OM_REPLAY_H */
