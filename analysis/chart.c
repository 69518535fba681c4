/*
 * chart.c: the drawing of the charts (chart.h), the one place cairo is used
 * (STYLE rule 14; ENGINEERING section 6). One routine draws a spec on any
 * cairo surface: image (PNG), SVG or PDF. Every length is a multiple of the
 * base font size f, which follows the chart's size, so a chart keeps its
 * proportions at any size; labels are measured and shrunk or cut short with an
 * ellipsis rather than allowed to overlap.
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_int.h"

/* The font of every text (fonts-dejavu-core), through cairo's toy API. */
#define FONT_FACE "DejaVu Sans"

/*
 * The base font size is the chart's width / 66 or height / 33, whichever is
 * smaller: 18 px on a 1200 x 600 chart, readable when a blog scales it to
 * 700 px wide; never below 8 px.
 */
#define FONT_PER_WIDTH 66.0
#define FONT_PER_HEIGHT 33.0
#define FONT_MIN 8.0

/* Smallest font of the values printed in heat-map cells. */
#define VALUE_FONT_MIN 6.0

/* Colours (0xRRGGBB). */
#define INK 0x1f2328u        /* main text and whiskers */
#define INK_SOFT 0x4a4f55u   /* subtitle, axis titles */
#define INK_FAINT 0x7a7f85u  /* footer, tick labels */
#define GRID 0xe3e6eau       /* grid lines */
#define BAR_EQUAL 0x8fb3dfu  /* dist: P(= k) bars */
#define BAR_EQUAL_TEXT 0x3d6da8u /* dist: P(= k) values, a darker shade of the bars */
#define LINE_LEAST 0xc8501eu /* dist: P(>= k) line */
#define EMPTY_CELL 0xeeeeeeu /* heatmap: a cell not run */

/* Half a turn (M_PI is not in strict C17). */
static const double pi = 3.14159265358979323846;

/* "…" in UTF-8, appended to text cut short. */
static const char ellipsis[] = "\xe2\x80\xa6";

/* A rectangle: left, top, right, bottom. */
typedef struct box {
    double x0, y0, x1, y1;
} box;

/* ------------------------------------------------------------------ text */

static void set_colour(cairo_t *cr, uint32_t rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                         (rgb & 0xff) / 255.0);
}

static void set_font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, FONT_FACE, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static double text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* The ascent and descent of the current font. */
static void font_metrics(cairo_t *cr, double *ascent, double *descent)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    *ascent = fe.ascent;
    *descent = fe.descent;
}

/* Draw `s` with its baseline at y; align 0 = left edge at x, 0.5 = centred, 1 = right. */
static void show(cairo_t *cr, double x, double y, const char *s, double align)
{
    cairo_move_to(cr, x - align * text_width(cr, s), y);
    cairo_show_text(cr, s);
}

/*
 * Copy `s` into buf so that it fits `width` in the current font: whole if it
 * fits, else cut at a UTF-8 character boundary and ended with an ellipsis.
 */
static void cut_to_width(cairo_t *cr, const char *s, double width, char *buf, size_t size)
{
    size_t len;
    snprintf(buf, size, "%s", s);
    if (text_width(cr, buf) <= width)
        return;
    len = strlen(buf);
    while (len > 0) {
        /* Step back over continuation bytes to the start of a character. */
        do
            len--;
        while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80);
        if (len + sizeof ellipsis > size)
            continue;
        memcpy(buf + len, ellipsis, sizeof ellipsis);
        if (text_width(cr, buf) <= width)
            return;
    }
    snprintf(buf, size, "%s", width >= text_width(cr, ellipsis) ? ellipsis : "");
}

/*
 * Set the font to the largest size from `size` down to `min_size` (in 5% steps)
 * at which `s` fits `width`, then cut `s` to fit at that size into buf.
 * Returns the size chosen.
 */
static double fit_text(cairo_t *cr, const char *s, bool bold, double size, double min_size,
                       double width, char *buf, size_t bufsize)
{
    set_font(cr, size, bold);
    while (size > min_size && text_width(cr, s) > width) {
        size = fmax(min_size, size * 0.95);
        set_font(cr, size, bold);
    }
    cut_to_width(cr, s, width, buf, bufsize);
    return size;
}

/* "85.4%", "<0.1%" for a rare event, ">99.9%" for a near certainty. */
static void percent(char *buf, size_t size, double p)
{
    if (p > 0.0 && p < 0.0005)
        snprintf(buf, size, "<0.1%%");
    else if (p < 1.0 && p > 0.9995)
        snprintf(buf, size, ">99.9%%");
    else
        snprintf(buf, size, "%.1f%%", 100.0 * p);
}

/* ----------------------------------------------------------------- frame */

/*
 * Split a " · "-separated subtitle into at most two lines that fit `width`
 * (greedily at separators; the second line is cut short if still too long).
 */
static void split_subtitle(cairo_t *cr, const char *s, double width, char *l1, char *l2,
                           size_t size)
{
    static const char sep[] = " \xc2\xb7 ";
    const char *cut = NULL, *p = s;
    snprintf(l1, size, "%s", s);
    l2[0] = '\0';
    if (text_width(cr, l1) <= width)
        return;
    /* The last separator before which the text still fits on line 1. */
    while ((p = strstr(p, sep)) != NULL) {
        snprintf(l1, size, "%.*s", (int)(p - s), s);
        if (text_width(cr, l1) > width)
            break;
        cut = p;
        p += strlen(sep);
    }
    if (cut == NULL) {
        cut_to_width(cr, s, width, l1, size);
        return;
    }
    snprintf(l1, size, "%.*s", (int)(cut - s), s);
    cut_to_width(cr, cut + strlen(sep), width, l2, size);
}

/*
 * White background, title, subtitle (one or two lines) and the manifest footer
 * under a hairline. Returns the box left for the plot.
 */
static box draw_frame(cairo_t *cr, const om_chart_spec *sp, double W, double H, double f)
{
    char line[OM_MANIFEST_MAX], l2[OM_MANIFEST_MAX];
    double m = 1.3 * f, y = m, asc, desc, foot_top;

    set_colour(cr, 0xffffffu);
    cairo_paint(cr);

    set_colour(cr, INK);
    fit_text(cr, sp->title, true, 1.45 * f, 1.0 * f, W - 2 * m, line, sizeof line);
    font_metrics(cr, &asc, &desc);
    show(cr, m, y + asc, line, 0);
    y += asc + desc + 0.25 * f;

    set_colour(cr, INK_SOFT);
    set_font(cr, 0.95 * f, false);
    font_metrics(cr, &asc, &desc);
    split_subtitle(cr, sp->subtitle, W - 2 * m, line, l2, sizeof line);
    show(cr, m, y + asc, line, 0);
    y += asc + desc;
    if (l2[0] != '\0') {
        show(cr, m, y + asc, l2, 0);
        y += asc + desc;
    }

    set_colour(cr, INK_FAINT);
    fit_text(cr, sp->footer, false, 0.72 * f, 0.55 * f, W - 2 * m, line, sizeof line);
    font_metrics(cr, &asc, &desc);
    foot_top = H - 0.8 * m - asc - desc;
    show(cr, m, H - 0.8 * m - desc, line, 0);
    set_colour(cr, GRID);
    cairo_set_line_width(cr, fmax(1.0, f / 16));
    cairo_move_to(cr, m, foot_top - 0.35 * f);
    cairo_line_to(cr, W - m, foot_top - 0.35 * f);
    cairo_stroke(cr);

    return (box){m, y + 0.9 * f, W - m, foot_top - 0.9 * f};
}

/* Horizontal whisker from x_lo to x_hi at height y, with end caps of half-height `cap`. */
static void whisker_h(cairo_t *cr, double x_lo, double x_hi, double y, double cap)
{
    cairo_move_to(cr, x_lo, y);
    cairo_line_to(cr, x_hi, y);
    cairo_move_to(cr, x_lo, y - cap);
    cairo_line_to(cr, x_lo, y + cap);
    cairo_move_to(cr, x_hi, y - cap);
    cairo_line_to(cr, x_hi, y + cap);
    cairo_stroke(cr);
}

/* Vertical whisker from y_lo to y_hi at x, with end caps of half-width `cap`. */
static void whisker_v(cairo_t *cr, double x, double y_lo, double y_hi, double cap)
{
    cairo_move_to(cr, x, y_lo);
    cairo_line_to(cr, x, y_hi);
    cairo_move_to(cr, x - cap, y_lo);
    cairo_line_to(cr, x + cap, y_lo);
    cairo_move_to(cr, x - cap, y_hi);
    cairo_line_to(cr, x + cap, y_hi);
    cairo_stroke(cr);
}

/* ------------------------------------------------------------------ odds */

static void draw_odds(cairo_t *cr, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double lab_w = 0, val_w, asc, desc, bx0, bx1, top, bottom, rh, bh, x;

    /* Label column: the widest label, at most 40% of the width. */
    set_font(cr, f, false);
    for (size_t i = 0; i < sp->n_bars; i++)
        lab_w = fmax(lab_w, text_width(cr, sp->bars[i].label));
    lab_w = fmin(lab_w, 0.4 * (b.x1 - b.x0));
    /* Room right of the bars for "100.0%" and its interval " [99.9-100.0]". */
    set_font(cr, 0.9 * f, true);
    val_w = text_width(cr, "100.0%") + 0.8 * f;
    set_font(cr, 0.72 * f, false);
    val_w += text_width(cr, " [99.9\xe2\x80\x93" "100.0]");
    bx0 = b.x0 + lab_w + 0.8 * f;
    bx1 = b.x1 - val_w;

    /* Tick labels on top, the axis title at the bottom. */
    set_font(cr, 0.8 * f, false);
    font_metrics(cr, &asc, &desc);
    top = b.y0 + asc + desc + 0.6 * f;
    bottom = b.y1 - 2.0 * f;
    cairo_set_line_width(cr, fmax(1.0, f / 16));
    for (int t = 0; t <= 4; t++) {
        double x = bx0 + t * 0.25 * (bx1 - bx0);
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        set_font(cr, 0.8 * f, t == 2);
        set_colour(cr, t == 2 ? INK : INK_FAINT);
        show(cr, x, b.y0 + asc, buf, 0.5);
        if (t != 2) {
            set_colour(cr, GRID);
            cairo_move_to(cr, x, top - 0.3 * f);
            cairo_line_to(cr, x, bottom);
            cairo_stroke(cr);
        }
    }

    rh = (bottom - top) / (double)sp->n_bars;
    bh = fmin(0.62 * rh, 3.2 * f);
    for (size_t i = 0; i < sp->n_bars; i++) {
        const om_chart_bar *bar = &sp->bars[i];
        double cy = top + (i + 0.5) * rh, w = bx1 - bx0;
        double x_end = bx0 + bar->p * w, x_hi = bx0 + bar->hi * w;
        set_colour(cr, bar->colour);
        cairo_rectangle(cr, bx0, cy - bh / 2, bar->p * w, bh);
        cairo_fill(cr);
        set_colour(cr, INK);
        cairo_set_line_width(cr, fmax(1.2, f / 9));
        whisker_h(cr, bx0 + bar->lo * w, x_hi, cy, 0.28 * bh);

        set_font(cr, f, false);
        font_metrics(cr, &asc, &desc);
        cut_to_width(cr, bar->label, lab_w, buf, sizeof buf);
        show(cr, bx0 - 0.6 * f, cy + (asc - desc) / 2, buf, 1);
        set_font(cr, 0.9 * f, true);
        font_metrics(cr, &asc, &desc);
        percent(buf, sizeof buf, bar->p);
        x = fmax(x_end, x_hi) + 0.45 * f;
        show(cr, x, cy + (asc - desc) / 2, buf, 0);
        x += text_width(cr, buf);
        set_font(cr, 0.72 * f, false);
        set_colour(cr, INK_FAINT);
        snprintf(buf, sizeof buf, " [%.1f\xe2\x80\x93%.1f]", 100.0 * bar->lo, 100.0 * bar->hi);
        show(cr, x, cy + (asc - desc) / 2, buf, 0);
    }

    /* The axis and the 50% line, dashed, over the bars. */
    set_colour(cr, INK);
    cairo_set_line_width(cr, fmax(1.0, f / 12));
    cairo_move_to(cr, bx0, top - 0.3 * f);
    cairo_line_to(cr, bx0, bottom);
    cairo_stroke(cr);
    {
        double dash[2] = {0.5 * f, 0.35 * f}, x = (bx0 + bx1) / 2;
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, x, top - 0.3 * f);
        cairo_line_to(cr, x, bottom);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }

    set_colour(cr, INK_SOFT);
    fit_text(cr, sp->x_title, false, 0.85 * f, 0.6 * f, b.x1 - bx0, buf, sizeof buf);
    font_metrics(cr, &asc, &desc);
    show(cr, (bx0 + bx1) / 2, b.y1 - desc, buf, 0.5);
}

/* ------------------------------------------------------------------ dist */

/*
 * A legend entry's text after the swatch the caller drew, cut short to end
 * before x_max; returns the x where the text ends.
 */
static double legend_text(cairo_t *cr, double x, double x_max, double baseline, const char *s)
{
    char buf[OM_CHART_TEXT_MAX];
    cut_to_width(cr, s, fmax(0.0, x_max - x), buf, sizeof buf);
    set_colour(cr, INK_SOFT);
    show(cr, x, baseline, buf, 0);
    return x + text_width(cr, buf);
}

static void draw_dist(cairo_t *cr, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double asc, desc, x, px0, px1, py0, py1, bw, rows_h, ge_w, k_w = 0, marker;
    size_t n = sp->n_k, step;
    bool rows;

    /* Legend. */
    set_font(cr, 0.85 * f, false);
    font_metrics(cr, &asc, &desc);
    set_colour(cr, BAR_EQUAL);
    cairo_rectangle(cr, b.x0, b.y0 + asc - 0.75 * f, 0.9 * f, 0.9 * f);
    cairo_fill(cr);
    x = legend_text(cr, b.x0 + 1.3 * f, b.x1, b.y0 + asc, "P(= k): exactly k") + 1.6 * f;
    set_colour(cr, LINE_LEAST);
    cairo_set_line_width(cr, fmax(1.5, f / 7));
    cairo_move_to(cr, x, b.y0 + asc - 0.3 * f);
    cairo_line_to(cr, x + 1.6 * f, b.y0 + asc - 0.3 * f);
    cairo_stroke(cr);
    cairo_arc(cr, x + 0.8 * f, b.y0 + asc - 0.3 * f, 0.25 * f, 0, 2 * pi);
    cairo_fill(cr);
    snprintf(buf, sizeof buf, "P(\xe2\x89\xa5 k): at least k, with %g%% Wilson interval",
             100.0 * sp->confidence);
    legend_text(cr, x + 2.0 * f, b.x1, b.y0 + asc, buf);

    /* Layout: y tick labels and title on the left, k and P(>=k) rows under the plot. */
    set_font(cr, 0.8 * f, false);
    ge_w = text_width(cr, "P(\xe2\x89\xa5k)");
    px0 = b.x0 + 1.5 * f + fmax(text_width(cr, "100%"), ge_w) + 0.5 * f;
    px1 = b.x1 - 0.5 * f;
    bw = (px1 - px0) / (double)n;
    for (size_t k = 0; k < n; k++) {
        snprintf(buf, sizeof buf, "%zu", k);
        k_w = fmax(k_w, text_width(cr, buf));
    }
    set_font(cr, 0.7 * f, false);
    /* The rows of values under the axis only when every value fits its band. */
    rows = bw >= text_width(cr, "100.0%") + 0.3 * f;
    rows_h = 1.4 * f + 1.4 * f + (rows ? 2.4 * f : 0);
    py0 = b.y0 + asc + desc + 1.2 * f;
    py1 = b.y1 - rows_h;

    /* Grid and y axis. */
    set_font(cr, 0.8 * f, false);
    font_metrics(cr, &asc, &desc);
    cairo_set_line_width(cr, fmax(1.0, f / 16));
    for (int t = 0; t <= 4; t++) {
        double y = py1 - t * 0.25 * (py1 - py0);
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        set_colour(cr, INK_FAINT);
        show(cr, px0 - 0.4 * f, y + (asc - desc) / 2, buf, 1);
        set_colour(cr, t == 0 ? INK : GRID);
        cairo_move_to(cr, px0, y);
        cairo_line_to(cr, px1, y);
        cairo_stroke(cr);
    }
    cairo_save(cr);
    set_colour(cr, INK_SOFT);
    set_font(cr, 0.85 * f, false);
    font_metrics(cr, &asc, &desc);
    cairo_translate(cr, b.x0 + asc, (py0 + py1) / 2);
    cairo_rotate(cr, -pi / 2);
    show(cr, 0, 0, "probability", 0.5);
    cairo_restore(cr);

    /* Bars of P(= k); their values are printed in a row under the axis. */
    set_colour(cr, BAR_EQUAL);
    for (size_t k = 0; k < n; k++) {
        double h = sp->p_equal[k] * (py1 - py0);
        /* One fill per bar: an SVG then holds one path per bar, as tests count them. */
        cairo_rectangle(cr, px0 + (k + 0.16) * bw, py1 - h, 0.68 * bw, h);
        cairo_fill(cr);
    }

    /* P(>= k): whiskers, line, markers. */
    marker = fmax(1.5, fmin(0.24 * f, 0.22 * bw));
    set_colour(cr, LINE_LEAST);
    cairo_set_line_width(cr, fmax(1.0, f / 12));
    for (size_t k = 0; k < n; k++)
        whisker_v(cr, px0 + (k + 0.5) * bw, py1 - sp->lo[k] * (py1 - py0),
                  py1 - sp->hi[k] * (py1 - py0), fmin(0.3 * f, 0.2 * bw));
    cairo_set_line_width(cr, fmax(1.5, f / 7));
    for (size_t k = 0; k < n; k++) {
        double cx = px0 + (k + 0.5) * bw, y = py1 - sp->p_least[k] * (py1 - py0);
        if (k == 0)
            cairo_move_to(cr, cx, y);
        else
            cairo_line_to(cr, cx, y);
    }
    cairo_stroke(cr);
    for (size_t k = 0; k < n; k++) {
        cairo_arc(cr, px0 + (k + 0.5) * bw, py1 - sp->p_least[k] * (py1 - py0), marker, 0,
                  2 * pi);
        cairo_fill(cr);
    }

    /* k labels every `step` values, so that they never touch; value rows if room. */
    set_font(cr, 0.8 * f, false);
    font_metrics(cr, &asc, &desc);
    step = (size_t)ceil((k_w + 0.6 * f) / bw);
    step = step < 1 ? 1 : step;
    for (size_t k = 0; k < n; k += step) {
        snprintf(buf, sizeof buf, "%zu", k);
        set_colour(cr, INK);
        show(cr, px0 + (k + 0.5) * bw, py1 + 0.3 * f + asc, buf, 0.5);
    }
    for (int row = 0; rows && row < 2; row++) {
        const double *p = row == 0 ? sp->p_equal : sp->p_least;
        double y = py1 + (1.4 + 1.2 * row) * f + asc;
        set_font(cr, 0.8 * f, false);
        set_colour(cr, row == 0 ? BAR_EQUAL_TEXT : LINE_LEAST);
        show(cr, px0 - 0.4 * f, y, row == 0 ? "P(=k)" : "P(\xe2\x89\xa5k)", 1);
        set_font(cr, 0.7 * f, false);
        for (size_t k = 0; k < n; k++) {
            percent(buf, sizeof buf, p[k]);
            show(cr, px0 + (k + 0.5) * bw, y, buf, 0.5);
        }
    }
    set_colour(cr, INK_SOFT);
    fit_text(cr, sp->x_title, false, 0.85 * f, 0.6 * f, px1 - px0, buf, sizeof buf);
    font_metrics(cr, &asc, &desc);
    show(cr, (px0 + px1) / 2, b.y1 - desc, buf, 0.5);
}

/* --------------------------------------------------------------- heatmap */

/*
 * The diverging scale: red (the column unit wins) through near-white at 50% to
 * blue (the row unit wins); ColorBrewer's RdBu stops, interpolated in sRGB.
 */
static const uint32_t scale_stops[5] = {0xb2182bu, 0xef8a62u, 0xf7f7f7u, 0x67a9cfu, 0x2166acu};

static void scale_rgb(double p, double rgb[3])
{
    double t = fmin(1.0, fmax(0.0, p)) * 4.0;
    int i = t >= 4.0 ? 3 : (int)t;
    double u = t - i;
    for (int c = 0; c < 3; c++) {
        int shift = 16 - 8 * c;
        double a = ((scale_stops[i] >> shift) & 0xff) / 255.0;
        double z = ((scale_stops[i + 1] >> shift) & 0xff) / 255.0;
        rgb[c] = a + u * (z - a);
    }
}

/* Sizes of the heatmap's parts, found by measuring the labels. */
typedef struct heat_layout {
    double lf;        /* label font size */
    double row_w;     /* width of the row label column */
    bool vertical;    /* column labels run upwards */
    double col_h;     /* height of the column label band */
    double cs;        /* cell size */
    double legend_w;  /* width of the legend block at the right */
} heat_layout;

static heat_layout heat_measure(cairo_t *cr, const om_chart_spec *sp, box b, double f,
                                double lf)
{
    heat_layout L = {.lf = lf};
    double col_w = 0, asc, desc, avail_w, avail_h;
    set_font(cr, lf, false);
    font_metrics(cr, &asc, &desc);
    for (size_t r = 0; r < sp->rows; r++)
        L.row_w = fmax(L.row_w, text_width(cr, sp->row_labels[r]));
    for (size_t c = 0; c < sp->cols; c++)
        col_w = fmax(col_w, text_width(cr, sp->col_labels[c]));
    L.row_w = fmin(L.row_w, 0.28 * (b.x1 - b.x0));
    set_font(cr, 0.8 * f, false);
    L.legend_w = 1.5 * f + 1.1 * f + 0.4 * f + text_width(cr, "100%") + 1.8 * f;
    avail_w = (b.x1 - b.x0) - (1.6 * f + L.row_w + 0.5 * f) - L.legend_w;
    L.vertical = avail_w / (double)sp->cols < col_w + 0.6 * f;
    L.col_h = L.vertical ? fmin(col_w, 0.3 * (b.y1 - b.y0)) + 0.5 * f : asc + desc + 0.4 * f;
    avail_h = (b.y1 - b.y0) - 1.7 * f - L.col_h - 0.6 * f;
    L.cs = fmin(avail_w / (double)sp->cols, avail_h / (double)sp->rows);
    return L;
}

/* The colour legend: a vertical gradient bar with ticks, its title rotated beside it. */
static void heat_legend(cairo_t *cr, const om_chart_spec *sp, double x, double gy0,
                        double grid_h, double f)
{
    char buf[32];
    double h = fmin(grid_h, 14 * f), y0 = gy0 + (grid_h - h) / 2, w = 1.1 * f, asc, desc;
    cairo_pattern_t *pat = cairo_pattern_create_linear(0, y0 + h, 0, y0);
    for (int i = 0; i < 5; i++) {
        uint32_t c = scale_stops[i];
        cairo_pattern_add_color_stop_rgb(pat, i / 4.0, ((c >> 16) & 0xff) / 255.0,
                                         ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
    }
    cairo_rectangle(cr, x, y0, w, h);
    cairo_set_source(cr, pat);
    cairo_fill(cr);
    cairo_pattern_destroy(pat);
    set_colour(cr, INK_FAINT);
    cairo_set_line_width(cr, fmax(1.0, f / 16));
    cairo_rectangle(cr, x, y0, w, h);
    cairo_stroke(cr);
    set_font(cr, 0.8 * f, false);
    font_metrics(cr, &asc, &desc);
    for (int t = 0; t <= 4; t++) {
        double y = y0 + h - t * 0.25 * h;
        cairo_move_to(cr, x + w, y);
        cairo_line_to(cr, x + w + 0.3 * f, y);
        cairo_stroke(cr);
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        show(cr, x + w + 0.4 * f, y + (asc - desc) / 2, buf, 0);
    }
    cairo_save(cr);
    set_colour(cr, INK_SOFT);
    set_font(cr, 0.85 * f, false);
    font_metrics(cr, &asc, &desc);
    cairo_translate(cr, x + w + 0.4 * f + text_width(cr, "100%") + 0.6 * f + asc, y0 + h / 2);
    cairo_rotate(cr, pi / 2);
    show(cr, 0, 0, sp->x_title, 0.5);
    cairo_restore(cr);
}

static void draw_heatmap(cairo_t *cr, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    heat_layout L = heat_measure(cr, sp, b, f, 0.85 * f);
    double asc, desc, gx0, gy0, grid_w, grid_h, block_w, vf;

    /* Dense grids: labels no taller than 80% of a cell, measured again at that size. */
    if (L.cs < 1.25 * L.lf)
        L = heat_measure(cr, sp, b, f, fmax(0.45 * f, L.cs / 1.25));
    grid_w = L.cs * (double)sp->cols;
    grid_h = L.cs * (double)sp->rows;
    /* Centre the block (row title, row labels, grid, legend) across the box. */
    block_w = 1.6 * f + L.row_w + 0.5 * f + grid_w + L.legend_w;
    gx0 = b.x0 + fmax(0.0, (b.x1 - b.x0 - block_w) / 2) + 1.6 * f + L.row_w + 0.5 * f;
    gy0 = b.y0 + 1.7 * f + L.col_h;

    /* Column list title above, row list title rotated on the left. */
    set_colour(cr, INK);
    fit_text(cr, sp->col_title, true, 0.95 * f, 0.6 * f, fmax(grid_w, 10 * f), buf,
             sizeof buf);
    font_metrics(cr, &asc, &desc);
    show(cr, gx0 + grid_w / 2, b.y0 + asc, buf, 0.5);
    cairo_save(cr);
    fit_text(cr, sp->row_title, true, 0.95 * f, 0.6 * f, fmax(grid_h, 10 * f), buf,
             sizeof buf);
    font_metrics(cr, &asc, &desc);
    cairo_translate(cr, gx0 - L.row_w - 0.5 * f - 1.6 * f + asc, gy0 + grid_h / 2);
    cairo_rotate(cr, -pi / 2);
    show(cr, 0, 0, buf, 0.5);
    cairo_restore(cr);

    /* Labels. */
    set_colour(cr, INK);
    set_font(cr, L.lf, false);
    font_metrics(cr, &asc, &desc);
    for (size_t r = 0; r < sp->rows; r++) {
        cut_to_width(cr, sp->row_labels[r], L.row_w, buf, sizeof buf);
        show(cr, gx0 - 0.4 * f, gy0 + (r + 0.5) * L.cs + (asc - desc) / 2, buf, 1);
    }
    for (size_t c = 0; c < sp->cols; c++) {
        double cx = gx0 + (c + 0.5) * L.cs;
        if (L.vertical) {
            cut_to_width(cr, sp->col_labels[c], L.col_h - 0.5 * f, buf, sizeof buf);
            cairo_save(cr);
            cairo_translate(cr, cx + (asc - desc) / 2, gy0 - 0.4 * f);
            cairo_rotate(cr, -pi / 2);
            show(cr, 0, 0, buf, 0);
            cairo_restore(cr);
        } else {
            cut_to_width(cr, sp->col_labels[c], L.cs - 0.3 * f, buf, sizeof buf);
            show(cr, cx, gy0 - 0.4 * f - desc, buf, 0.5);
        }
    }

    /* Cells with their values; white hairlines between them. */
    vf = fmin(0.85 * f, 0.3 * L.cs);
    set_font(cr, vf, true);
    font_metrics(cr, &asc, &desc);
    for (size_t r = 0; r < sp->rows; r++)
        for (size_t c = 0; c < sp->cols; c++) {
            double v = sp->value[r * sp->cols + c], x = gx0 + c * L.cs, y = gy0 + r * L.cs;
            double rgb[3] = {((EMPTY_CELL >> 16) & 0xff) / 255.0,
                             ((EMPTY_CELL >> 8) & 0xff) / 255.0, (EMPTY_CELL & 0xff) / 255.0};
            bool dark;
            if (isfinite(v))
                scale_rgb(v, rgb);
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            cairo_rectangle(cr, x, y, L.cs, L.cs);
            cairo_fill(cr);
            /* Relative luminance (ITU-R BT.709) picks white or black text. */
            dark = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 0.5;
            if (isfinite(v))
                snprintf(buf, sizeof buf, "%.0f%%", 100.0 * v);
            else
                snprintf(buf, sizeof buf, "\xe2\x80\x93");
            /* No value in cells too small for legible text (under 6 px or points). */
            if (vf >= VALUE_FONT_MIN && text_width(cr, buf) <= 0.88 * L.cs) {
                set_colour(cr, dark ? 0xffffffu : isfinite(v) ? INK : INK_FAINT);
                show(cr, x + L.cs / 2, y + L.cs / 2 + (asc - desc) / 2, buf, 0.5);
            }
        }
    set_colour(cr, 0xffffffu);
    cairo_set_line_width(cr, fmax(1.0, 0.04 * L.cs));
    for (size_t i = 1; i < sp->cols; i++) {
        cairo_move_to(cr, gx0 + i * L.cs, gy0);
        cairo_line_to(cr, gx0 + i * L.cs, gy0 + grid_h);
    }
    for (size_t i = 1; i < sp->rows; i++) {
        cairo_move_to(cr, gx0, gy0 + i * L.cs);
        cairo_line_to(cr, gx0 + grid_w, gy0 + i * L.cs);
    }
    cairo_stroke(cr);

    heat_legend(cr, sp, gx0 + grid_w + 1.5 * f, gy0, grid_h, f);
}

/* ---------------------------------------------------------------- surfaces */

/* Draw the whole chart on `cr` of size W x H. */
static void draw(cairo_t *cr, const om_chart_spec *sp, double W, double H)
{
    double f = fmax(FONT_MIN, fmin(W / FONT_PER_WIDTH, H / FONT_PER_HEIGHT));
    box b = draw_frame(cr, sp, W, H, f);
    switch (sp->kind) {
    case OM_CHART_ODDS: draw_odds(cr, sp, b, f); break;
    case OM_CHART_DIST: draw_dist(cr, sp, b, f); break;
    case OM_CHART_HEATMAP: draw_heatmap(cr, sp, b, f); break;
    }
}

/* A growable byte buffer receiving cairo's SVG stream. */
typedef struct membuf {
    char *data;  /* bytes */
    size_t len;  /* used */
    size_t cap;  /* allocated */
    bool failed; /* an allocation failed */
} membuf;

static cairo_status_t membuf_write(void *closure, const unsigned char *data, unsigned int length)
{
    membuf *m = closure;
    if (m->len + length > m->cap) {
        size_t cap = m->cap > 0 ? m->cap : 65536;
        char *p;
        while (cap < m->len + length)
            cap *= 2;
        if ((p = realloc(m->data, cap)) == NULL) {
            m->failed = true;
            return CAIRO_STATUS_NO_MEMORY;
        }
        m->data = p;
        m->cap = cap;
    }
    memcpy(m->data + m->len, data, length);
    m->len += length;
    return CAIRO_STATUS_SUCCESS;
}

/* Write `s` XML-escaped. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s != '\0'; s++)
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        default: fputc(*s, out); break;
        }
}

/*
 * Write cairo's SVG to `path` with a <title> (the chart title) and a <desc>
 * (subtitle and manifest) inserted after the opening <svg ...> tag: screen
 * readers and search engines read them, and the manifest travels with the file.
 */
static om_status svg_write(const membuf *m, const om_chart_spec *sp, const char *path)
{
    const char *svg = NULL, *end;
    FILE *out;
    int failed;
    for (size_t i = 0; i + 4 <= m->len && svg == NULL; i++)
        if (memcmp(m->data + i, "<svg", 4) == 0)
            svg = m->data + i;
    end = svg != NULL ? memchr(svg, '>', (size_t)(m->data + m->len - svg)) : NULL;
    if (end == NULL)
        return OM_ERROR(OM_EIO, "cairo wrote no <svg> element");
    if ((out = fopen(path, "wb")) == NULL)
        return OM_ERROR(OM_EIO, "%s", strerror(errno));
    errno = 0;
    fwrite(m->data, 1, (size_t)(end + 1 - m->data), out);
    fputs("\n<title>", out);
    xml_text(out, sp->title);
    fputs("</title>\n<desc>", out);
    xml_text(out, sp->subtitle);
    fputs(" | ", out);
    xml_text(out, sp->footer);
    fputs("</desc>", out);
    fwrite(end + 1, 1, (size_t)(m->data + m->len - (end + 1)), out);
    failed = ferror(out);
    if (fclose(out) != 0 || failed)
        return OM_ERROR(OM_EIO, "%s", errno != 0 ? strerror(errno) : "write error");
    return OM_OK;
}

/* Turn a cairo failure into OM_EIO (OM_ENOMEM for memory) with cairo's reason. */
static om_status cairo_fail(cairo_status_t cs)
{
    return OM_ERROR(cs == CAIRO_STATUS_NO_MEMORY ? OM_ENOMEM : OM_EIO, "cairo: %s",
                    cairo_status_to_string(cs));
}

om_status om_chart_render(const om_chart_spec *sp, om_chart_format format, const char *path)
{
    double W = sp->width, H = sp->height;
    membuf svg = {0};
    cairo_surface_t *surface = NULL;
    cairo_status_t cs;
    cairo_t *cr;
    om_status st = OM_OK;

    switch (format) {
    case OM_CHART_PNG:
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)sp->width,
                                             (int)sp->height);
        break;
    case OM_CHART_SVG:
        surface = cairo_svg_surface_create_for_stream(membuf_write, &svg, W, H);
        break;
    case OM_CHART_PDF:
        surface = cairo_pdf_surface_create(path, W, H);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
            /* The manifest travels with the document as its keywords. */
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, sp->title);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, sp->subtitle);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, sp->footer);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "oddsmaster");
        }
        break;
    }
    if ((cs = cairo_surface_status(surface)) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        free(svg.data);
        return cairo_fail(cs);
    }
    cr = cairo_create(surface);
    draw(cr, sp, W, H);
    cs = cairo_status(cr);
    cairo_destroy(cr);
    if (cs == CAIRO_STATUS_SUCCESS && format == OM_CHART_PNG)
        cs = cairo_surface_write_to_png(surface, path);
    cairo_surface_finish(surface);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (cs != CAIRO_STATUS_SUCCESS)
        st = cairo_fail(cs);
    else if (svg.failed)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    else if (format == OM_CHART_SVG)
        st = svg_write(&svg, sp, path);
    free(svg.data);
    return st;
}
