/*
 * chart.c: the drawing of the charts (chart.h), the one place cairo is used
 * (each external library is reached through one module only). Charts are drawn on a small canvas with two backends chosen
 * once per chart (function pointers at that boundary only): cairo for PNG and
 * PDF, and a hand-written SVG writer that keeps every text as a <text>
 * element, selectable and searchable (cairo's SVG surface draws glyphs as
 * outlines). Both measure text with cairo's toy font API, so layouts agree.
 * Every length is a multiple of the base font size f, which follows the
 * chart's size; labels are measured and shrunk, or cut short with an ellipsis,
 * rather than allowed to overlap.
 */
#include <cairo-pdf.h>
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

/* Smallest label font, as a share of f, before labels are cut short. */
#define LABEL_FONT_MIN 0.55

/* Colours (0xRRGGBB). */
#define INK 0x1f2328u        /* main text and whiskers */
#define INK_SOFT 0x4a4f55u   /* subtitle, axis titles */
#define INK_FAINT 0x6a6f75u  /* footer, tick labels */
#define GRID 0xe3e6eau       /* grid lines */
#define BAR_EQUAL 0x8fb3dfu  /* dist: P(= k) bars */
#define BAR_EQUAL_TEXT 0x3d6da8u /* dist: P(= k) values, a darker shade of the bars */
#define LINE_LEAST 0xc8501eu /* dist: P(>= k) line */
#define EMPTY_CELL 0xeeeeeeu /* heatmap: a cell not run */

const uint32_t om_chart_series_colour[OM_CHART_MAX_SERIES] = {
    0x0072b2u, 0xe69f00u, 0x009e73u, 0xcc79a7u, 0x56b4e9u, 0xd55e00u, 0xf0e442u, 0x000000u};

/* Half a turn (M_PI is not in strict C17). */
static const double pi = 3.14159265358979323846;

/* Widths within this many points of each other are equal (text measured
 * twice at one font size may differ in the last bits). */
#define TEXT_WIDTH_SLACK 1e-6

/* "…" in UTF-8, appended to text cut short. */
static const char ellipsis[] = "\xe2\x80\xa6";

/* A rectangle: left, top, right, bottom. */
typedef om_chart_box box;

/* ---------------------------------------------------------------- canvas */

typedef struct canvas canvas;

/* What a backend draws, in the current colour. */
typedef struct canvas_ops {
    void (*rect)(canvas *cv, double x, double y, double w, double h);
    /* A polyline of n points xy[2i], xy[2i+1]; dash 0 is solid. */
    void (*line)(canvas *cv, const double *xy, size_t n, double width, double dash);
    void (*circle)(canvas *cv, double x, double y, double r);
    /* Text with its baseline starting at (x, y), turned by `angle` radians. */
    void (*text)(canvas *cv, double x, double y, double angle, const char *s);
    /* A rectangle shaded upwards through `n` colours, evenly spaced. */
    void (*gradient)(canvas *cv, double x, double y, double w, double h, const uint32_t *stops,
                     size_t n);
    /* A closed polygon of n points xy[2i], xy[2i+1], filled. */
    void (*polygon)(canvas *cv, const double *xy, size_t n);
} canvas_ops;

struct canvas {
    const canvas_ops *ops; /* the backend */
    cairo_t *cr;           /* draws (cairo backend) and measures text (both) */
    uint32_t colour;       /* current colour */
    double font_size;      /* current font */
    bool bold;
    FILE *svg;             /* SVG backend: where the elements go */
    unsigned gradients;    /* SVG backend: gradients defined so far */
};

static void set_colour(canvas *cv, uint32_t rgb)
{
    cv->colour = rgb;
}

static void set_font(canvas *cv, double size, bool bold)
{
    cv->font_size = size;
    cv->bold = bold;
    cairo_select_font_face(cv->cr, FONT_FACE, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cv->cr, size);
}

static double text_width(canvas *cv, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cv->cr, s, &e);
    return e.x_advance;
}

static void font_metrics(canvas *cv, double *ascent, double *descent)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cv->cr, &fe);
    *ascent = fe.ascent;
    *descent = fe.descent;
}

static void line2(canvas *cv, double x0, double y0, double x1, double y1, double width)
{
    double xy[4] = {x0, y0, x1, y1};
    cv->ops->line(cv, xy, 2, width, 0.0);
}

/* Draw `s` at baseline (x, y): align 0 left edge at x, 0.5 centred, 1 right; turned by angle. */
static void show_turned(canvas *cv, double x, double y, const char *s, double align,
                        double angle)
{
    double w = align * text_width(cv, s);
    cv->ops->text(cv, x - w * cos(angle), y - w * sin(angle), angle, s);
}

static void show(canvas *cv, double x, double y, const char *s, double align)
{
    show_turned(cv, x, y, s, align, 0.0);
}

/* cairo backend. */
static void cairo_source(canvas *cv)
{
    uint32_t c = cv->colour;
    cairo_set_source_rgb(cv->cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                         (c & 0xff) / 255.0);
}

static void cairo_rect(canvas *cv, double x, double y, double w, double h)
{
    cairo_source(cv);
    cairo_rectangle(cv->cr, x, y, w, h);
    cairo_fill(cv->cr);
}

static void cairo_line(canvas *cv, const double *xy, size_t n, double width, double dash)
{
    double d[2] = {dash, 0.7 * dash};
    cairo_source(cv);
    cairo_set_line_width(cv->cr, width);
    cairo_set_dash(cv->cr, d, dash > 0 ? 2 : 0, 0);
    for (size_t i = 0; i < n; i++)
        (i == 0 ? cairo_move_to : cairo_line_to)(cv->cr, xy[2 * i], xy[2 * i + 1]);
    cairo_stroke(cv->cr);
    cairo_set_dash(cv->cr, NULL, 0, 0);
}

static void cairo_circle(canvas *cv, double x, double y, double r)
{
    cairo_source(cv);
    cairo_new_sub_path(cv->cr);
    cairo_arc(cv->cr, x, y, r, 0, 2 * pi);
    cairo_fill(cv->cr);
}

static void cairo_text(canvas *cv, double x, double y, double angle, const char *s)
{
    cairo_source(cv);
    cairo_save(cv->cr);
    cairo_translate(cv->cr, x, y);
    cairo_rotate(cv->cr, angle);
    cairo_move_to(cv->cr, 0, 0);
    cairo_show_text(cv->cr, s);
    cairo_restore(cv->cr);
}

static void cairo_gradient(canvas *cv, double x, double y, double w, double h,
                           const uint32_t *stops, size_t n)
{
    cairo_pattern_t *pat = cairo_pattern_create_linear(0, y + h, 0, y);
    for (size_t i = 0; i < n; i++)
        cairo_pattern_add_color_stop_rgb(pat, (double)i / (double)(n - 1),
                                          ((stops[i] >> 16) & 0xff) / 255.0,
                                          ((stops[i] >> 8) & 0xff) / 255.0,
                                          (stops[i] & 0xff) / 255.0);
    cairo_rectangle(cv->cr, x, y, w, h);
    cairo_set_source(cv->cr, pat);
    cairo_fill(cv->cr);
    cairo_pattern_destroy(pat);
}

static void cairo_polygon(canvas *cv, const double *xy, size_t n)
{
    cairo_source(cv);
    for (size_t i = 0; i < n; i++)
        (i == 0 ? cairo_move_to : cairo_line_to)(cv->cr, xy[2 * i], xy[2 * i + 1]);
    cairo_close_path(cv->cr);
    cairo_fill(cv->cr);
}

static const canvas_ops cairo_ops = {cairo_rect, cairo_line, cairo_circle, cairo_text,
                                     cairo_gradient, cairo_polygon};

/* SVG backend. */

/* Write `s` XML-escaped. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s != '\0'; s++)
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out); break;
        }
}

static void svg_rect(canvas *cv, double x, double y, double w, double h)
{
    fprintf(cv->svg, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                     "fill=\"#%06x\"/>\n", x, y, w, h, cv->colour);
}

static void svg_line(canvas *cv, const double *xy, size_t n, double width, double dash)
{
    fprintf(cv->svg, "<polyline fill=\"none\" stroke=\"#%06x\" stroke-width=\"%.2f\"",
            cv->colour, width);
    if (dash > 0)
        fprintf(cv->svg, " stroke-dasharray=\"%.2f %.2f\"", dash, 0.7 * dash);
    fputs(" points=\"", cv->svg);
    for (size_t i = 0; i < n; i++)
        fprintf(cv->svg, "%s%.2f,%.2f", i > 0 ? " " : "", xy[2 * i], xy[2 * i + 1]);
    fputs("\"/>\n", cv->svg);
}

static void svg_circle(canvas *cv, double x, double y, double r)
{
    fprintf(cv->svg, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#%06x\"/>\n", x, y, r,
            cv->colour);
}

static void svg_text(canvas *cv, double x, double y, double angle, const char *s)
{
    fprintf(cv->svg, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\"%s fill=\"#%06x\"", x, y,
            cv->font_size, cv->bold ? " font-weight=\"bold\"" : "", cv->colour);
    if (angle != 0.0)
        fprintf(cv->svg, " transform=\"rotate(%.2f %.2f %.2f)\"", angle * 180.0 / pi, x, y);
    fputc('>', cv->svg);
    xml_text(cv->svg, s);
    fputs("</text>\n", cv->svg);
}

static void svg_gradient(canvas *cv, double x, double y, double w, double h,
                         const uint32_t *stops, size_t n)
{
    unsigned id = cv->gradients++;
    fprintf(cv->svg, "<defs><linearGradient id=\"g%u\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">", id);
    for (size_t i = 0; i < n; i++)
        fprintf(cv->svg, "<stop offset=\"%.4f\" stop-color=\"#%06x\"/>",
                (double)i / (double)(n - 1), stops[i]);
    fprintf(cv->svg, "</linearGradient></defs>\n<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                     "height=\"%.2f\" fill=\"url(#g%u)\"/>\n", x, y, w, h, id);
}

static void svg_polygon(canvas *cv, const double *xy, size_t n)
{
    fputs("<polygon points=\"", cv->svg);
    for (size_t i = 0; i < n; i++)
        fprintf(cv->svg, "%s%.2f,%.2f", i > 0 ? " " : "", xy[2 * i], xy[2 * i + 1]);
    fprintf(cv->svg, "\" fill=\"#%06x\"/>\n", cv->colour);
}

static const canvas_ops svg_ops = {svg_rect, svg_line, svg_circle, svg_text, svg_gradient,
                                   svg_polygon};

/* ------------------------------------------------------------------ text */

/*
 * Copy `s` into buf so that it fits `width` in the current font: whole if it
 * fits, else cut at a UTF-8 character boundary and ended with an ellipsis.
 */
static void cut_to_width(canvas *cv, const char *s, double width, char *buf, size_t size)
{
    size_t len;
    /* A label measured to set `width` must fit it again: allow for the last
     * bit of rounding between two measures at the same size. */
    width += TEXT_WIDTH_SLACK;
    snprintf(buf, size, "%s", s);
    if (text_width(cv, buf) <= width)
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
        if (text_width(cv, buf) <= width)
            return;
    }
    snprintf(buf, size, "%s", width >= text_width(cv, ellipsis) ? ellipsis : "");
}

/*
 * Set the font to the largest size from `size` down to `min_size` (in 5% steps)
 * at which `s` fits `width`, then cut `s` to fit at that size into buf.
 * Returns the size chosen.
 */
static double fit_text(canvas *cv, const char *s, bool bold, double size, double min_size,
                       double width, char *buf, size_t bufsize)
{
    set_font(cv, size, bold);
    while (size > min_size && text_width(cv, s) > width) {
        size = fmax(min_size, size * 0.95);
        set_font(cv, size, bold);
    }
    cut_to_width(cv, s, width, buf, bufsize);
    return size;
}

/* The largest font size from `size` down to `min_size` at which every label fits `width`. */
static double fit_labels(canvas *cv, char *const *labels, size_t n, double size,
                         double min_size, double width)
{
    double widest = 0;
    set_font(cv, size, false);
    for (size_t i = 0; i < n; i++)
        widest = fmax(widest, text_width(cv, labels[i]));
    if (widest <= width)
        return size;
    return fmax(min_size, size * width / widest);
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
 * Split a " · "-separated text into at most two lines that fit `width`
 * (greedily at separators; the second line is cut short if still too long).
 */
static void split_subtitle(canvas *cv, const char *s, double width, char *l1, char *l2,
                           size_t size)
{
    static const char sep[] = " \xc2\xb7 ";
    const char *cut = NULL, *p = s;
    snprintf(l1, size, "%s", s);
    l2[0] = '\0';
    if (text_width(cv, l1) <= width)
        return;
    while ((p = strstr(p, sep)) != NULL) {
        snprintf(l1, size, "%.*s", (int)(p - s), s);
        if (text_width(cv, l1) > width)
            break;
        cut = p;
        p += strlen(sep);
    }
    if (cut == NULL) {
        cut_to_width(cv, s, width, l1, size);
        return;
    }
    snprintf(l1, size, "%.*s", (int)(cut - s), s);
    cut_to_width(cv, cut + strlen(sep), width, l2, size);
}

/*
 * Split `s` into at most two lines that fit `width`, greedily at spaces (the
 * second line is cut short if still too long).
 */
static void wrap_two(canvas *cv, const char *s, double width, char *l1, char *l2, size_t size)
{
    const char *cut = NULL, *p = s;
    snprintf(l1, size, "%s", s);
    l2[0] = '\0';
    if (text_width(cv, l1) <= width)
        return;
    while ((p = strchr(p, ' ')) != NULL) {
        snprintf(l1, size, "%.*s", (int)(p - s), s);
        if (text_width(cv, l1) > width)
            break;
        cut = p;
        p++;
    }
    if (cut == NULL) {
        cut_to_width(cv, s, width, l1, size);
        return;
    }
    snprintf(l1, size, "%.*s", (int)(cut - s), s);
    cut_to_width(cv, cut + 1, width, l2, size);
}

/*
 * White background, title, subtitle (one or two lines), the spec's note (one
 * or two lines, if any: what the chart leaves out) and the manifest footer
 * (one or two lines) under a hairline. Returns the box left for the plot.
 */
static box draw_frame(canvas *cv, const om_chart_spec *sp, double W, double H, double f)
{
    char line[OM_MANIFEST_MAX], l2[OM_MANIFEST_MAX];
    double m = 1.3 * f, y = m, asc, desc, foot_top;

    set_colour(cv, 0xffffffu);
    cv->ops->rect(cv, 0, 0, W, H);

    set_colour(cv, INK);
    fit_text(cv, sp->title, true, 1.45 * f, 1.0 * f, W - 2 * m, line, sizeof line);
    font_metrics(cv, &asc, &desc);
    show(cv, m, y + asc, line, 0);
    y += asc + desc + 0.25 * f;

    set_colour(cv, INK_SOFT);
    set_font(cv, 0.95 * f, false);
    font_metrics(cv, &asc, &desc);
    split_subtitle(cv, sp->subtitle, W - 2 * m, line, l2, sizeof line);
    show(cv, m, y + asc, line, 0);
    y += asc + desc;
    if (l2[0] != '\0') {
        show(cv, m, y + asc, l2, 0);
        y += asc + desc;
    }

    set_colour(cv, INK_FAINT);
    set_font(cv, 0.72 * f, false);
    font_metrics(cv, &asc, &desc);
    split_subtitle(cv, sp->footer, W - 2 * m, line, l2, sizeof line);
    foot_top = H - 0.8 * m - (l2[0] != '\0' ? 2 : 1) * (asc + desc);
    show(cv, m, foot_top + asc, line, 0);
    if (l2[0] != '\0')
        show(cv, m, foot_top + 2 * asc + desc, l2, 0);
    set_colour(cv, GRID);
    line2(cv, m, foot_top - 0.35 * f, W - m, foot_top - 0.35 * f, fmax(1.0, f / 16));

    if (sp->note[0] != '\0') {
        set_colour(cv, INK_SOFT);
        set_font(cv, 0.78 * f, false);
        font_metrics(cv, &asc, &desc);
        wrap_two(cv, sp->note, W - 2 * m, line, l2, sizeof line);
        foot_top -= 0.6 * f + (l2[0] != '\0' ? 2 : 1) * (asc + desc);
        show(cv, m, foot_top + asc, line, 0);
        if (l2[0] != '\0')
            show(cv, m, foot_top + 2 * asc + desc, l2, 0);
    }

    return (box){m, y + 0.9 * f, W - m, foot_top - 0.9 * f};
}

/* Horizontal whisker from x_lo to x_hi at height y, with end caps of half-height `cap`. */
static void whisker_h(canvas *cv, double x_lo, double x_hi, double y, double cap, double width)
{
    line2(cv, x_lo, y, x_hi, y, width);
    line2(cv, x_lo, y - cap, x_lo, y + cap, width);
    line2(cv, x_hi, y - cap, x_hi, y + cap, width);
}

/* Vertical whisker from y_lo to y_hi at x, with end caps of half-width `cap`. */
static void whisker_v(canvas *cv, double x, double y_lo, double y_hi, double cap, double width)
{
    line2(cv, x, y_lo, x, y_hi, width);
    line2(cv, x - cap, y_lo, x + cap, y_lo, width);
    line2(cv, x - cap, y_hi, x + cap, y_hi, width);
}

/* A legend swatch and its text; returns the x after the text. */
static double legend_entry(canvas *cv, double x, double x_max, double baseline, uint32_t rgb,
                           const char *s, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double asc, desc;
    font_metrics(cv, &asc, &desc);
    set_colour(cv, rgb);
    cv->ops->rect(cv, x, baseline - 0.8 * asc, 0.9 * f, 0.8 * asc);
    x += 1.3 * f;
    cut_to_width(cv, s, fmax(0.0, x_max - x), buf, sizeof buf);
    set_colour(cv, INK_SOFT);
    show(cv, x, baseline, buf, 0);
    return x + text_width(cv, buf);
}

/* ------------------------------------------------------------------ odds */

/*
 * Odds of one or more result files: for each outcome a group of bars, one per
 * file in its series colour (one file: the outcome colours), with Wilson
 * whiskers, the value at the bar's end and a dashed 50% line.
 */
static void draw_odds(canvas *cv, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double lab_w = 0, val_w, asc, desc, bx0, bx1, top, bottom, gh, bh, x, legend_h = 0;
    double thin = fmax(1.0, f / 16), bold = fmax(1.2, f / 9);
    bool series = sp->n_series > 1;

    /* Series legend on top, wrapped over as many lines as needed. */
    if (series) {
        double lx = b.x0, ly;
        set_font(cv, 0.85 * f, false);
        font_metrics(cv, &asc, &desc);
        ly = b.y0 + asc;
        for (size_t s = 0; s < sp->n_series; s++) {
            double need = 1.3 * f + text_width(cv, sp->series[s]) + 1.2 * f;
            if (lx > b.x0 && lx + need > b.x1) {
                lx = b.x0;
                ly += asc + desc + 0.3 * f;
            }
            lx = legend_entry(cv, lx, b.x1, ly, om_chart_series_colour[s], sp->series[s], f)
                 + 1.2 * f;
        }
        legend_h = ly + desc + 0.6 * f - b.y0;
    }

    /* Label column: the widest outcome label, at most 30% of the width. */
    set_font(cv, f, false);
    for (size_t i = 0; i < sp->n_bars; i++)
        lab_w = fmax(lab_w, text_width(cv, sp->outcome[i]));
    lab_w = fmin(lab_w, 0.3 * (b.x1 - b.x0));
    set_font(cv, 0.9 * f, true);
    val_w = text_width(cv, "100.0%") + 0.8 * f;
    set_font(cv, 0.72 * f, false);
    val_w += text_width(cv, " [99.9\xe2\x80\x93" "100.0]");
    bx0 = b.x0 + lab_w + 0.8 * f;
    bx1 = b.x1 - val_w;

    /* Tick labels on top, the axis title at the bottom. */
    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    top = b.y0 + legend_h + asc + desc + 0.6 * f;
    bottom = b.y1 - 2.0 * f;
    for (int t = 0; t <= 4; t++) {
        double tx = bx0 + t * 0.25 * (bx1 - bx0);
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        set_font(cv, 0.8 * f, t == 2);
        set_colour(cv, t == 2 ? INK : INK_FAINT);
        show(cv, tx, b.y0 + legend_h + asc, buf, 0.5);
        if (t != 2) {
            set_colour(cv, GRID);
            line2(cv, tx, top - 0.3 * f, tx, bottom, thin);
        }
    }

    gh = (bottom - top) / (double)sp->n_bars;
    bh = fmin(0.75 * gh / (double)sp->n_series, 3.2 * f);
    for (size_t i = 0; i < sp->n_bars; i++) {
        double gy = top + (i + 0.5) * gh, y0 = gy - 0.5 * bh * (double)sp->n_series;
        set_colour(cv, INK);
        set_font(cv, f, false);
        font_metrics(cv, &asc, &desc);
        cut_to_width(cv, sp->outcome[i], lab_w, buf, sizeof buf);
        show(cv, bx0 - 0.6 * f, gy + (asc - desc) / 2, buf, 1);
        for (size_t s = 0; s < sp->n_series; s++) {
            const om_chart_bar *bar = &sp->bars[s][i];
            double cy = y0 + (s + 0.5) * bh, w = bx1 - bx0, h = series ? 0.86 * bh : bh;
            double x_end = bx0 + bar->p * w, x_hi = bx0 + bar->hi * w;
            set_colour(cv, series ? om_chart_series_colour[s] : bar->colour);
            cv->ops->rect(cv, bx0, cy - h / 2, bar->p * w, h);
            set_colour(cv, INK);
            whisker_h(cv, bx0 + bar->lo * w, x_hi, cy, 0.28 * h, bold);
            set_font(cv, series ? fmin(0.9 * f, 0.8 * bh) : 0.9 * f, true);
            font_metrics(cv, &asc, &desc);
            percent(buf, sizeof buf, bar->p);
            x = fmax(x_end, x_hi) + 0.45 * f;
            show(cv, x, cy + (asc - desc) / 2, buf, 0);
            x += text_width(cv, buf);
            set_font(cv, series ? fmin(0.72 * f, 0.65 * bh) : 0.72 * f, false);
            set_colour(cv, INK_FAINT);
            snprintf(buf, sizeof buf, " [%.1f\xe2\x80\x93%.1f]", 100.0 * bar->lo,
                     100.0 * bar->hi);
            show(cv, x, cy + (asc - desc) / 2, buf, 0);
        }
    }

    /* The axis and the 50% line, dashed, over the bars. */
    set_colour(cv, INK);
    line2(cv, bx0, top - 0.3 * f, bx0, bottom, fmax(1.0, f / 12));
    {
        double xy[4] = {(bx0 + bx1) / 2, top - 0.3 * f, (bx0 + bx1) / 2, bottom};
        cv->ops->line(cv, xy, 2, fmax(1.0, f / 12), 0.5 * f);
    }
    set_colour(cv, INK_SOFT);
    fit_text(cv, sp->x_title, false, 0.85 * f, 0.6 * f, b.x1 - bx0, buf, sizeof buf);
    font_metrics(cv, &asc, &desc);
    show(cv, (bx0 + bx1) / 2, b.y1 - desc, buf, 0.5);
}

/* ----------------------------------------------------------------- flags */

/*
 * Height of a flags chart, in base font sizes f: the frame (title, two
 * subtitle lines, a note, the footer and margins) and the plot's tick labels
 * and axis title, then one row per bar.
 */
#define FLAGS_FRAME_F 15.0
#define FLAGS_ROW_F 1.9

unsigned om_chart_flags_height(unsigned width, size_t n)
{
    double f = fmax(FONT_MIN, (double)width / FONT_PER_WIDTH);
    double h = ceil(f * (FLAGS_FRAME_F + FLAGS_ROW_F * (double)n));
    /* At least half the width, so that the base font follows the width. */
    h = fmax(h, ceil((double)width * FONT_PER_HEIGHT / FONT_PER_WIDTH));
    return h > (double)UINT32_MAX ? UINT32_MAX : (unsigned)h;
}

/*
 * A horizontal bar chart of probabilities: one row per item of the array,
 * top to bottom, its full label right-aligned in a column on the left (the
 * font shrinks so that the widest fits, and only below LABEL_FONT_MIN is a
 * label cut short), its bar from 0 to p with the interval as a whisker, and
 * "p [lo-hi]" beyond the whisker; percent ticks on top, a dashed 50% line.
 * Whatever made the items (the flag fields of a run, per-unit fields) draws
 * alike.
 */
static void draw_items(canvas *cv, const om_chart_item *items, size_t n, const char *x_title,
                       box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double lab_w = 0, lab_f, val_w, asc, desc, bx0, bx1, top, bottom, pitch, bh, x;
    double max_lab = 0.55 * (b.x1 - b.x0), thin = fmax(1.0, f / 16), bold = fmax(1.2, f / 9);

    if (n == 0)
        return;
    /* Label column: the widest label at 0.85 f, or a smaller font if it is too wide. */
    lab_f = 0.85 * f;
    set_font(cv, lab_f, false);
    for (size_t i = 0; i < n; i++)
        lab_w = fmax(lab_w, text_width(cv, items[i].label));
    if (lab_w > max_lab) {
        lab_f = fmax(LABEL_FONT_MIN * f, lab_f * max_lab / lab_w);
        lab_w = max_lab;
    }
    set_font(cv, 0.8 * f, true);
    val_w = text_width(cv, "100.0%") + 0.8 * f;
    set_font(cv, 0.65 * f, false);
    val_w += text_width(cv, " [99.9\xe2\x80\x93" "100.0]");
    bx0 = b.x0 + lab_w + 0.8 * f;
    bx1 = b.x1 - val_w;

    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    top = b.y0 + asc + desc + 0.6 * f;
    bottom = b.y1 - 2.0 * f;
    for (int t = 0; t <= 4; t++) {
        double tx = bx0 + t * 0.25 * (bx1 - bx0);
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        set_font(cv, 0.8 * f, t == 2);
        set_colour(cv, t == 2 ? INK : INK_FAINT);
        show(cv, tx, b.y0 + asc, buf, 0.5);
        if (t != 2) {
            set_colour(cv, GRID);
            line2(cv, tx, top - 0.3 * f, tx, bottom, thin);
        }
    }

    pitch = (bottom - top) / (double)n;
    bh = fmin(0.66 * pitch, 1.3 * f);
    for (size_t i = 0; i < n; i++) {
        const om_chart_item *it = &items[i];
        double cy = top + (i + 0.5) * pitch, w = bx1 - bx0;
        double x_hi = bx0 + it->hi * w;
        /* A faint band every other row guides the eye from label to bar. */
        if (i % 2 == 1) {
            set_colour(cv, 0xf4f6f8u);
            cv->ops->rect(cv, b.x0, cy - pitch / 2, b.x1 - b.x0, pitch);
        }
        set_colour(cv, INK);
        set_font(cv, lab_f, false);
        font_metrics(cv, &asc, &desc);
        cut_to_width(cv, it->label, lab_w, buf, sizeof buf);
        show(cv, bx0 - 0.6 * f, cy + (asc - desc) / 2, buf, 1);
        set_colour(cv, OM_CHART_COLOUR_A);
        cv->ops->rect(cv, bx0, cy - bh / 2, it->p * w, bh);
        set_colour(cv, INK);
        whisker_h(cv, bx0 + it->lo * w, x_hi, cy, 0.3 * bh, bold);
        set_font(cv, 0.8 * f, true);
        font_metrics(cv, &asc, &desc);
        percent(buf, sizeof buf, it->p);
        x = fmax(bx0 + it->p * w, x_hi) + 0.45 * f;
        show(cv, x, cy + (asc - desc) / 2, buf, 0);
        x += text_width(cv, buf);
        set_font(cv, 0.65 * f, false);
        set_colour(cv, INK_FAINT);
        /* A rare event's interval at two decimals, so that it does not read [0.0-0.0]. */
        snprintf(buf, sizeof buf, it->hi < 0.01 ? " [%.2f\xe2\x80\x93%.2f]"
                                                : " [%.1f\xe2\x80\x93%.1f]",
                 100.0 * it->lo, 100.0 * it->hi);
        show(cv, x, cy + (asc - desc) / 2, buf, 0);
    }

    set_colour(cv, INK);
    line2(cv, bx0, top - 0.3 * f, bx0, bottom, fmax(1.0, f / 12));
    {
        double xy[4] = {(bx0 + bx1) / 2, top - 0.3 * f, (bx0 + bx1) / 2, bottom};
        cv->ops->line(cv, xy, 2, fmax(1.0, f / 12), 0.5 * f);
    }
    set_colour(cv, INK_SOFT);
    fit_text(cv, x_title, false, 0.85 * f, 0.6 * f, b.x1 - bx0, buf, sizeof buf);
    font_metrics(cv, &asc, &desc);
    show(cv, (bx0 + bx1) / 2, b.y1 - desc, buf, 0.5);
}

/* ------------------------------------------------------------------ dist */

/* The value of a dist chart's k-th bar, as text. */
static void k_label(const om_chart_spec *sp, size_t k, char *buf, size_t size)
{
    snprintf(buf, size, "%u", sp->k_values != NULL ? sp->k_values[k] : (unsigned)k);
}

static void draw_dist(canvas *cv, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double asc, desc, x, px0, px1, py0, py1, bw, rows_h, ge_w, k_w = 0, marker, cap;
    double thin = fmax(1.0, f / 16);
    size_t n = sp->n_k, step;
    bool rows;

    /* Legend. */
    set_font(cv, 0.85 * f, false);
    font_metrics(cv, &asc, &desc);
    x = legend_entry(cv, b.x0, b.x1, b.y0 + asc, BAR_EQUAL, "P(= k): exactly k", f) + 1.6 * f;
    set_colour(cv, LINE_LEAST);
    line2(cv, x, b.y0 + asc - 0.3 * f, x + 1.6 * f, b.y0 + asc - 0.3 * f, fmax(1.5, f / 7));
    cv->ops->circle(cv, x + 0.8 * f, b.y0 + asc - 0.3 * f, 0.25 * f);
    snprintf(buf, sizeof buf, "P(\xe2\x89\xa5 k): at least k, with %g%% Wilson interval",
             100.0 * sp->confidence);
    {
        char cut[OM_CHART_TEXT_MAX];
        cut_to_width(cv, buf, fmax(0.0, b.x1 - x - 2.0 * f), cut, sizeof cut);
        set_colour(cv, INK_SOFT);
        show(cv, x + 2.0 * f, b.y0 + asc, cut, 0);
    }

    /* Layout: y tick labels and title on the left, k and P(>=k) rows under the plot. */
    set_font(cv, 0.8 * f, false);
    ge_w = text_width(cv, "P(\xe2\x89\xa5k)");
    px0 = b.x0 + 1.5 * f + fmax(text_width(cv, "100%"), ge_w) + 0.5 * f;
    px1 = b.x1 - 0.5 * f;
    bw = (px1 - px0) / (double)n;
    for (size_t k = 0; k < n; k++) {
        k_label(sp, k, buf, sizeof buf);
        k_w = fmax(k_w, text_width(cv, buf));
    }
    set_font(cv, 0.7 * f, false);
    rows = bw >= text_width(cv, "100.0%") + 0.3 * f;
    rows_h = 1.4 * f + 1.4 * f + (rows ? 2.4 * f : 0);
    py0 = b.y0 + asc + desc + 1.2 * f;
    py1 = b.y1 - rows_h;

    /* Grid and y axis. */
    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    for (int t = 0; t <= 4; t++) {
        double y = py1 - t * 0.25 * (py1 - py0);
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        set_colour(cv, INK_FAINT);
        show(cv, px0 - 0.4 * f, y + (asc - desc) / 2, buf, 1);
        set_colour(cv, t == 0 ? INK : GRID);
        line2(cv, px0, y, px1, y, thin);
    }
    set_colour(cv, INK_SOFT);
    set_font(cv, 0.85 * f, false);
    font_metrics(cv, &asc, &desc);
    show_turned(cv, b.x0 + asc, (py0 + py1) / 2, "probability", 0.5, -pi / 2);

    /* Bars of P(= k): one rectangle each. */
    set_colour(cv, BAR_EQUAL);
    for (size_t k = 0; k < n; k++) {
        double h = sp->p_equal[k] * (py1 - py0);
        cv->ops->rect(cv, px0 + (k + 0.16) * bw, py1 - h, 0.68 * bw, h);
    }

    /* P(>= k): whiskers, line, markers. */
    marker = fmax(1.5, fmin(0.24 * f, 0.22 * bw));
    cap = fmin(0.3 * f, 0.2 * bw);
    set_colour(cv, LINE_LEAST);
    for (size_t k = 0; k < n; k++)
        whisker_v(cv, px0 + (k + 0.5) * bw, py1 - sp->lo[k] * (py1 - py0),
                  py1 - sp->hi[k] * (py1 - py0), cap, fmax(1.0, f / 12));
    {
        double *xy = malloc(2 * n * sizeof *xy);
        if (xy != NULL) {
            for (size_t k = 0; k < n; k++) {
                xy[2 * k] = px0 + (k + 0.5) * bw;
                xy[2 * k + 1] = py1 - sp->p_least[k] * (py1 - py0);
            }
            cv->ops->line(cv, xy, n, fmax(1.5, f / 7), 0.0);
            free(xy);
        }
    }
    for (size_t k = 0; k < n; k++)
        cv->ops->circle(cv, px0 + (k + 0.5) * bw, py1 - sp->p_least[k] * (py1 - py0), marker);

    /* k labels every `step` values, so that they never touch; value rows if room. */
    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    step = (size_t)ceil((k_w + 0.6 * f) / bw);
    step = step < 1 ? 1 : step;
    for (size_t k = 0; k < n; k += step) {
        k_label(sp, k, buf, sizeof buf);
        set_colour(cv, INK);
        show(cv, px0 + (k + 0.5) * bw, py1 + 0.3 * f + asc, buf, 0.5);
    }
    for (int row = 0; rows && row < 2; row++) {
        const double *p = row == 0 ? sp->p_equal : sp->p_least;
        double y = py1 + (1.4 + 1.2 * row) * f + asc;
        set_font(cv, 0.8 * f, false);
        set_colour(cv, row == 0 ? BAR_EQUAL_TEXT : LINE_LEAST);
        show(cv, px0 - 0.4 * f, y, row == 0 ? "P(=k)" : "P(\xe2\x89\xa5k)", 1);
        set_font(cv, 0.7 * f, false);
        for (size_t k = 0; k < n; k++) {
            percent(buf, sizeof buf, p[k]);
            show(cv, px0 + (k + 0.5) * bw, y, buf, 0.5);
        }
    }
    set_colour(cv, INK_SOFT);
    fit_text(cv, sp->x_title, false, 0.85 * f, 0.6 * f, px1 - px0, buf, sizeof buf);
    font_metrics(cv, &asc, &desc);
    show(cv, (px0 + px1) / 2, b.y1 - desc, buf, 0.5);
}

/* --------------------------------------------------------------- heatmap */

/*
 * cividis (Nuñez, Anderton and Renslow, PLoS ONE 13(7) 2018), sampled at 9
 * even steps: lightness rises monotonically from dark blue to yellow, so the
 * scale reads the same in grey and for every kind of colour vision.
 */
static const uint32_t cividis[9] = {0x00204du, 0x143a6du, 0x414d6bu, 0x666970u, 0x7c7b78u,
                                    0x958f78u, 0xb5a672u, 0xd6bd64u, 0xfee838u};
#define CIVIDIS_STOPS (sizeof cividis / sizeof cividis[0])

uint32_t om_chart_score_colour(double p)
{
    double t = fmin(1.0, fmax(0.0, p)) * (double)(CIVIDIS_STOPS - 1);
    size_t i = t >= (double)(CIVIDIS_STOPS - 1) ? CIVIDIS_STOPS - 2 : (size_t)t;
    double u = t - (double)i;
    uint32_t out = 0;
    for (int c = 0; c < 3; c++) {
        int shift = 16 - 8 * c;
        double a = (cividis[i] >> shift) & 0xff, z = (cividis[i + 1] >> shift) & 0xff;
        out |= (uint32_t)lround(a + u * (z - a)) << shift;
    }
    return out;
}

/* Relative luminance (ITU-R BT.709) of a colour, 0 to 1. */
static double luminance(uint32_t rgb)
{
    return (0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff)
            + 0.0722 * (rgb & 0xff)) / 255.0;
}

/* Height of the key of blank cells under the grid, in base font sizes. */
#define BLANK_KEY_F 1.9

/* Sizes of the heatmap's parts, found by measuring the labels. */
typedef struct heat_layout {
    double row_f, col_f; /* label font sizes */
    double row_w;        /* width of the row label column */
    bool vertical;       /* column labels run upwards */
    double col_h;        /* height of the column label band */
    double cs;           /* cell size */
    double legend_w;     /* width of the legend block at the right */
} heat_layout;

static heat_layout heat_measure(canvas *cv, const om_chart_spec *sp, box b, double f)
{
    heat_layout L = {0};
    double asc, desc, avail_w, avail_h, widest = 0, max_row_w = 0.32 * (b.x1 - b.x0);
    L.row_f = fit_labels(cv, sp->row_labels, sp->rows, 0.85 * f, LABEL_FONT_MIN * f, max_row_w);
    set_font(cv, L.row_f, false);
    for (size_t r = 0; r < sp->rows; r++)
        L.row_w = fmax(L.row_w, text_width(cv, sp->row_labels[r]));
    L.row_w = fmin(L.row_w, max_row_w);
    set_font(cv, 0.8 * f, false);
    L.legend_w = 1.5 * f + 1.1 * f + 0.4 * f + text_width(cv, "100%") + 1.8 * f;
    avail_w = (b.x1 - b.x0) - (1.6 * f + L.row_w + 0.5 * f) - L.legend_w;
    /* Cell size if labels were horizontal, then whether they fit across a cell. */
    L.col_f = 0.85 * f;
    set_font(cv, L.col_f, false);
    font_metrics(cv, &asc, &desc);
    for (size_t c = 0; c < sp->cols; c++)
        widest = fmax(widest, text_width(cv, sp->col_labels[c]));
    L.cs = fmin(avail_w / (double)sp->cols,
                ((b.y1 - b.y0) - 1.7 * f - (asc + desc + 0.4 * f) - 0.6 * f
                 - (sp->blank_key[0] != '\0' ? BLANK_KEY_F * f : 0.0)) / (double)sp->rows);
    L.vertical = widest + 0.4 * f > L.cs;
    if (L.vertical) {
        double band = 0.3 * (b.y1 - b.y0);
        L.col_f = fit_labels(cv, sp->col_labels, sp->cols, 0.85 * f, LABEL_FONT_MIN * f, band);
        set_font(cv, L.col_f, false);
        widest = 0;
        for (size_t c = 0; c < sp->cols; c++)
            widest = fmax(widest, text_width(cv, sp->col_labels[c]));
        L.col_h = fmin(widest, band) + 0.5 * f;
    } else {
        L.col_h = asc + desc + 0.4 * f;
    }
    avail_h = (b.y1 - b.y0) - 1.7 * f - L.col_h - 0.6 * f
              - (sp->blank_key[0] != '\0' ? BLANK_KEY_F * f : 0.0);
    L.cs = fmin(avail_w / (double)sp->cols, avail_h / (double)sp->rows);
    /* Labels no taller than 80% of a cell; the row column measured at its final size. */
    L.row_f = fmin(L.row_f, L.cs / 1.25);
    L.col_f = fmin(L.col_f, L.cs / 1.25);
    set_font(cv, L.row_f, false);
    L.row_w = 0;
    for (size_t r = 0; r < sp->rows; r++)
        L.row_w = fmax(L.row_w, text_width(cv, sp->row_labels[r]));
    L.row_w = fmin(L.row_w, max_row_w);
    return L;
}

/* The colour legend: a vertical gradient bar with ticks, its title turned beside it. */
static void heat_legend(canvas *cv, const om_chart_spec *sp, double x, double gy0,
                        double grid_h, double f)
{
    char buf[32];
    double h = fmin(grid_h, 14 * f), y0 = gy0 + (grid_h - h) / 2, w = 1.1 * f, asc, desc;
    cv->ops->gradient(cv, x, y0, w, h, cividis, CIVIDIS_STOPS);
    set_colour(cv, INK_FAINT);
    {
        double xy[10] = {x, y0, x + w, y0, x + w, y0 + h, x, y0 + h, x, y0};
        cv->ops->line(cv, xy, 5, fmax(1.0, f / 16), 0.0);
    }
    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    for (int t = 0; t <= 4; t++) {
        double y = y0 + h - t * 0.25 * h;
        line2(cv, x + w, y, x + w + 0.3 * f, y, fmax(1.0, f / 16));
        snprintf(buf, sizeof buf, "%d%%", 25 * t);
        show(cv, x + w + 0.4 * f, y + (asc - desc) / 2, buf, 0);
    }
    set_colour(cv, INK_SOFT);
    set_font(cv, 0.85 * f, false);
    font_metrics(cv, &asc, &desc);
    show_turned(cv, x + w + 0.4 * f + text_width(cv, "100%") + 0.6 * f + asc,
                y0 + h / 2, sp->x_title, 0.5, pi / 2);
}

static void draw_heatmap(canvas *cv, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    heat_layout L = heat_measure(cv, sp, b, f);
    double asc, desc, gx0, gy0, grid_w, grid_h, block_w, vf, sf;

    grid_w = L.cs * (double)sp->cols;
    grid_h = L.cs * (double)sp->rows;
    block_w = 1.6 * f + L.row_w + 0.5 * f + grid_w + L.legend_w;
    gx0 = b.x0 + fmax(0.0, (b.x1 - b.x0 - block_w) / 2) + 1.6 * f + L.row_w + 0.5 * f;
    gy0 = b.y0 + 1.7 * f + L.col_h;

    /* Column list title above, row list title turned on the left. */
    set_colour(cv, INK);
    fit_text(cv, sp->col_title, true, 0.95 * f, 0.6 * f, fmax(grid_w, 10 * f), buf, sizeof buf);
    font_metrics(cv, &asc, &desc);
    show(cv, gx0 + grid_w / 2, b.y0 + asc, buf, 0.5);
    fit_text(cv, sp->row_title, true, 0.95 * f, 0.6 * f, fmax(grid_h, 10 * f), buf, sizeof buf);
    font_metrics(cv, &asc, &desc);
    show_turned(cv, gx0 - L.row_w - 0.5 * f - 1.6 * f + asc, gy0 + grid_h / 2, buf, 0.5, -pi / 2);

    /* Labels, at their fitted sizes; cut short only below the smallest size. */
    set_colour(cv, INK);
    set_font(cv, L.row_f, false);
    font_metrics(cv, &asc, &desc);
    for (size_t r = 0; r < sp->rows; r++) {
        cut_to_width(cv, sp->row_labels[r], L.row_w, buf, sizeof buf);
        show(cv, gx0 - 0.4 * f, gy0 + (r + 0.5) * L.cs + (asc - desc) / 2, buf, 1);
    }
    set_font(cv, L.col_f, false);
    font_metrics(cv, &asc, &desc);
    for (size_t c = 0; c < sp->cols; c++) {
        double cx = gx0 + (c + 0.5) * L.cs;
        if (L.vertical) {
            cut_to_width(cv, sp->col_labels[c], L.col_h - 0.5 * f, buf, sizeof buf);
            show_turned(cv, cx + (asc - desc) / 2, gy0 - 0.4 * f, buf, 0, -pi / 2);
        } else {
            cut_to_width(cv, sp->col_labels[c], L.cs - 0.2 * f, buf, sizeof buf);
            show(cv, cx, gy0 - 0.4 * f - desc, buf, 0.5);
        }
    }

    /* Cells: expected score as colour and value; win/draw/lose under it when room. */
    vf = fmin(0.85 * f, 0.28 * L.cs);
    sf = 0.62 * vf;
    for (size_t r = 0; r < sp->rows; r++)
        for (size_t c = 0; c < sp->cols; c++) {
            size_t i = r * sp->cols + c;
            double v = sp->value[i], x = gx0 + c * L.cs, y = gy0 + r * L.cs;
            uint32_t rgb = isfinite(v) ? om_chart_score_colour(v) : EMPTY_CELL;
            bool dark = luminance(rgb) < 0.5, two;
            set_colour(cv, rgb);
            cv->ops->rect(cv, x, y, L.cs, L.cs);
            if (vf < VALUE_FONT_MIN)
                continue;
            set_font(cv, vf, true);
            font_metrics(cv, &asc, &desc);
            if (isfinite(v))
                snprintf(buf, sizeof buf, "%.0f%%", 100.0 * v);
            else
                snprintf(buf, sizeof buf, "\xe2\x80\x93");
            two = isfinite(v) && sf >= VALUE_FONT_MIN;
            set_colour(cv, dark ? 0xffffffu : isfinite(v) ? INK : INK_FAINT);
            if (text_width(cv, buf) <= 0.9 * L.cs)
                show(cv, x + L.cs / 2, y + L.cs / 2 + (two ? -0.1 * L.cs : 0) + (asc - desc) / 2,
                     buf, 0.5);
            if (two) {
                snprintf(buf, sizeof buf, "%.0f\xc2\xb7%.0f\xc2\xb7%.0f", 100.0 * sp->p_win[i],
                         100.0 * sp->p_draw[i], 100.0 * sp->p_lose[i]);
                set_font(cv, sf, false);
                font_metrics(cv, &asc, &desc);
                if (text_width(cv, buf) <= 0.92 * L.cs)
                    show(cv, x + L.cs / 2, y + 0.8 * L.cs, buf, 0.5);
            }
        }
    set_colour(cv, 0xffffffu);
    for (size_t i = 1; i < sp->cols; i++)
        line2(cv, gx0 + i * L.cs, gy0, gx0 + i * L.cs, gy0 + grid_h, fmax(1.0, 0.03 * L.cs));
    for (size_t i = 1; i < sp->rows; i++)
        line2(cv, gx0, gy0 + i * L.cs, gx0 + grid_w, gy0 + i * L.cs, fmax(1.0, 0.03 * L.cs));

    heat_legend(cv, sp, gx0 + grid_w + 1.5 * f, gy0, grid_h, f);

    /* The key of the blank cells: a blank swatch with its dash, and what it means. */
    if (sp->blank_key[0] != '\0') {
        double sw = 1.3 * f, ky = gy0 + grid_h + 0.5 * f;
        set_colour(cv, EMPTY_CELL);
        cv->ops->rect(cv, gx0, ky, sw, sw);
        set_font(cv, 0.8 * f, true);
        font_metrics(cv, &asc, &desc);
        set_colour(cv, INK_FAINT);
        show(cv, gx0 + sw / 2, ky + sw / 2 + (asc - desc) / 2, "\xe2\x80\x93", 0.5);
        set_font(cv, 0.8 * f, false);
        font_metrics(cv, &asc, &desc);
        set_colour(cv, INK_SOFT);
        cut_to_width(cv, sp->blank_key, fmax(0.0, b.x1 - gx0 - sw - 0.5 * f), buf, sizeof buf);
        show(cv, gx0 + sw + 0.5 * f, ky + sw / 2 + (asc - desc) / 2, buf, 0);
    }
}

/* ------------------------------------------------------------------ fair */

/* A nice step for about `n` ticks over `range`: 1, 2 or 5 times a power of ten. */
static double nice_step(double range, double n)
{
    double raw = range / n, p = pow(10.0, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* Whether boxes a and b overlap (touching edges do not). */
static bool box_overlap(box a, box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Whether box a overlaps any of the n boxes in `placed`. */
static bool overlaps(box a, const box *placed, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (box_overlap(a, placed[i]))
            return true;
    return false;
}

/* Whether the segment (x0, y0)-(x1, y1) passes through the inside of box b
 * (Liang-Barsky clipping). */
static bool segment_hits(double x0, double y0, double x1, double y1, box b)
{
    double t0 = 0.0, t1 = 1.0, dx = x1 - x0, dy = y1 - y0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 - b.x0, b.x1 - x0, y0 - b.y0, b.y1 - y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0.0) {
            if (q[i] <= 0.0)
                return false;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = fmax(t0, t);
        else
            t1 = fmin(t1, t);
        if (t0 >= t1)
            return false;
    }
    return true;
}

/* The point of box b closest to (x, y). */
static void closest_point(box b, double x, double y, double *px, double *py)
{
    *px = fmin(fmax(x, b.x0), b.x1);
    *py = fmin(fmax(y, b.y0), b.y1);
}

/* Directions tried around a marker, nearest reading first: right, left, above,
 * below, then the four corners (as multiples of the label's size: see below). */
static const double place_dir[8][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1},
                                       {1, -1}, {1, 1}, {-1, -1}, {-1, 1}};

/* What is placed so far: the labels' boxes and the leader lines (their two ends). */
typedef struct placement {
    box area;               /* where labels may go */
    const box *obstacles;   /* what they may not cover */
    size_t n_obstacles;
    box *placed;            /* [n_placed] boxes of the labels placed */
    size_t n_placed;
    double *lines;          /* [4 * n_lines] leader lines: x0, y0, x1, y1 */
    size_t n_lines;
} placement;

/* Place label l with a box w wide: the first free place, nearest first (see
 * om_chart_place_labels); whether one was found. */
static bool place_one(placement *pl, om_chart_label *l, double w, double gap, double reach)
{
    const double step = fmax(l->h, gap);
    /* Ring 0 touches the marker; further rings step out by a text height. */
    for (double d = gap; d <= fmax(gap, reach) + 1e-9; d += step)
        for (int k = 0; k < 8; k++) {
            const double dx = place_dir[k][0], dy = place_dir[k][1];
            /* The box's edge nearest the marker lies at distance d from it. */
            const double x0 = dx > 0 ? l->ax + d : dx < 0 ? l->ax - d - w : l->ax - w / 2;
            const double y0 = dy > 0 ? l->ay + d : dy < 0 ? l->ay - d - l->h : l->ay - l->h / 2;
            const box a = {x0, y0, x0 + w, y0 + l->h};
            const bool leader = d > gap;
            double ex = 0, ey = 0;
            bool ok = a.x0 >= pl->area.x0 && a.x1 <= pl->area.x1 && a.y0 >= pl->area.y0
                      && a.y1 <= pl->area.y1 && !overlaps(a, pl->obstacles, pl->n_obstacles)
                      && !overlaps(a, pl->placed, pl->n_placed);
            /* No leader line drawn earlier may cross this box... */
            for (size_t j = 0; j < pl->n_lines && ok; j++)
                ok = !segment_hits(pl->lines[4 * j], pl->lines[4 * j + 1],
                                   pl->lines[4 * j + 2], pl->lines[4 * j + 3], a);
            /* ...nor this one's cross a label already placed. */
            if (ok && leader) {
                closest_point(a, l->ax, l->ay, &ex, &ey);
                for (size_t j = 0; j < pl->n_placed && ok; j++)
                    ok = !segment_hits(l->ax, l->ay, ex, ey, pl->placed[j]);
            }
            if (!ok)
                continue;
            l->placed = true;
            l->leader = leader;
            l->x0 = a.x0;
            l->y0 = a.y0;
            pl->placed[pl->n_placed++] = a;
            if (leader) {
                double *e = &pl->lines[4 * pl->n_lines++];
                e[0] = l->ax;
                e[1] = l->ay;
                e[2] = ex;
                e[3] = ey;
            }
            return true;
        }
    return false;
}

om_status om_chart_place_labels(om_chart_box area, const om_chart_box *obstacles,
                                size_t n_obstacles, om_chart_label *labels, size_t n,
                                double gap, double reach)
{
    placement pl = {.area = area, .obstacles = obstacles, .n_obstacles = n_obstacles};
    pl.placed = malloc((n + 1) * sizeof *pl.placed);
    pl.lines = malloc((4 * n + 1) * sizeof *pl.lines);
    for (size_t i = 0; i < n; i++) {
        labels[i].placed = labels[i].leader = labels[i].alt = false;
    }
    if (pl.placed == NULL || pl.lines == NULL) {
        free(pl.placed);
        free(pl.lines);
        return OM_ERROR(OM_ENOMEM, "out of memory placing the labels");
    }
    /* Every label at its own width first, then the short form of those left. */
    for (size_t i = 0; i < n; i++)
        (void)place_one(&pl, &labels[i], labels[i].w, gap, reach);
    for (size_t i = 0; i < n; i++)
        if (!labels[i].placed && labels[i].w_alt > 0)
            labels[i].alt = place_one(&pl, &labels[i], labels[i].w_alt, gap, reach);
    free(pl.placed);
    free(pl.lines);
    return OM_OK;
}

/*
 * Fair points against printed cost: one marker per unit (circles for rows,
 * squares for columns, the two groups in blue and orange) with its interval
 * as a vertical bar, the line fair = cost dashed, names placed where they do
 * not overlap other names or the plot's edge.
 */
static void draw_fair(canvas *cv, const om_chart_spec *sp, box b, double f)
{
    char buf[OM_CHART_TEXT_MAX];
    double asc, desc, px0, px1, py0, py1, hi = 0, step, lf, x;
    /* Obstacles for the names: a marker and an interval bar per unit. */
    box *placed = malloc((2 * sp->n_points + 1) * sizeof *placed);
    size_t n_placed = 0;
    double key_baseline;
    static const uint32_t colour[2] = {0x0072b2u, 0xe69f00u};

    if (placed == NULL)
        return;
    /* The axes fit the costs and fair values; longer interval bars run off the top. */
    for (size_t i = 0; i < sp->n_points; i++)
        hi = fmax(hi, fmax(sp->px[i], sp->py[i]));
    hi = hi > 0 ? hi * 1.15 : 100;
    step = nice_step(hi, 6);
    hi = ceil(hi / step) * step;

    /* Legend. */
    set_font(cv, 0.85 * f, false);
    font_metrics(cv, &asc, &desc);
    x = b.x0;
    for (int g = 0; g < 2; g++)
        if (sp->groups[g][0] != '\0')
            x = legend_entry(cv, x, b.x1, b.y0 + asc, colour[g], sp->groups[g], f) + 1.5 * f;
    set_colour(cv, INK_SOFT);
    snprintf(buf, sizeof buf, "bars: %g%% intervals; dashed: fair = cost", 100.0 * sp->confidence);
    {
        char cut[OM_CHART_TEXT_MAX];
        cut_to_width(cv, buf, fmax(0.0, b.x1 - x), cut, sizeof cut);
        show(cv, x, b.y0 + asc, cut, 0);
    }

    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    snprintf(buf, sizeof buf, "%.0f", hi);
    px0 = b.x0 + 1.6 * f + text_width(cv, buf) + 0.6 * f;
    px1 = b.x1 - 0.5 * f;
    /* A line under the legend for the key of names shown as numbers. */
    key_baseline = b.y0 + 2.3 * f;
    py0 = b.y0 + 3.3 * f;
    py1 = b.y1 - 2.6 * f;
    for (double t = 0; t <= hi + 1e-9; t += step) {
        double tx = px0 + t / hi * (px1 - px0), ty = py1 - t / hi * (py1 - py0);
        set_colour(cv, t == 0 ? INK : GRID);
        line2(cv, px0, ty, px1, ty, fmax(1.0, f / 16));
        line2(cv, tx, py0, tx, py1, fmax(1.0, f / 16));
        snprintf(buf, sizeof buf, "%.0f", t);
        set_colour(cv, INK_FAINT);
        show(cv, px0 - 0.4 * f, ty + (asc - desc) / 2, buf, 1);
        show(cv, tx, py1 + 0.3 * f + asc, buf, 0.5);
    }
    set_colour(cv, INK_SOFT);
    {
        double xy[4] = {px0, py1, px1, py0};
        cv->ops->line(cv, xy, 2, fmax(1.0, f / 12), 0.5 * f);
    }
    set_font(cv, 0.85 * f, false);
    font_metrics(cv, &asc, &desc);
    show(cv, (px0 + px1) / 2, b.y1 - desc, sp->x_title, 0.5);
    show_turned(cv, b.x0 + asc, (py0 + py1) / 2, "fair points", 0.5, -pi / 2);

    /* Markers and interval bars; each is an obstacle for the names. */
    for (size_t i = 0; i < sp->n_points; i++) {
        double cx = px0 + sp->px[i] / hi * (px1 - px0), cy = py1 - sp->py[i] / hi * (py1 - py0);
        double r = 0.32 * f, cap = 0.25 * f;
        set_colour(cv, colour[sp->group[i] != 0]);
        if (isfinite(sp->py_lo[i]) && isfinite(sp->py_hi[i])) {
            double y_lo = py1 - sp->py_lo[i] / hi * (py1 - py0), y_hi;
            if (sp->py_hi[i] <= hi) {
                y_hi = py1 - sp->py_hi[i] / hi * (py1 - py0);
                whisker_v(cv, cx, y_lo, y_hi, cap, fmax(1.0, f / 10));
            } else {
                /* Off the top: the bar ends in an open arrowhead at the edge. */
                double xy[6] = {cx - 0.3 * f, py0 + 0.45 * f, cx, py0, cx + 0.3 * f,
                                py0 + 0.45 * f};
                y_hi = py0;
                cap = 0.3 * f;
                line2(cv, cx, y_lo, cx, py0, fmax(1.0, f / 10));
                line2(cv, cx - 0.25 * f, y_lo, cx + 0.25 * f, y_lo, fmax(1.0, f / 10));
                cv->ops->line(cv, xy, 3, fmax(1.0, f / 10), 0.0);
            }
            placed[n_placed++] = (box){cx - cap, fmin(y_hi, y_lo) - f / 20, cx + cap,
                                       fmax(y_hi, y_lo) + f / 20};
        }
        if (sp->group[i] == 0)
            cv->ops->circle(cv, cx, cy, r);
        else
            cv->ops->rect(cv, cx - r, cy - r, 2 * r, 2 * r);
        placed[n_placed++] = (box){cx - r, cy - r, cx + r, cy + r};
    }
    /*
     * Names, at a font that shrinks with crowding, where they cover no name,
     * marker or interval bar (om_chart_place_labels): beside the marker, else
     * further away with a leader line, else as a bold number explained in the
     * key line under the legend; a name with no room even as a number is
     * named in that line too, so that every unit on the chart is named.
     */
    lf = fmax(LABEL_FONT_MIN * f, fmin(0.75 * f, 0.75 * f * 20.0 / fmax(20.0, (double)sp->n_points)));
    {
        om_chart_label *lab = calloc(sp->n_points + 1, sizeof *lab);
        char key[OM_CHART_TEXT_MAX] = "", lost[OM_CHART_TEXT_MAX] = "", num[16];
        size_t n_key = 0, klen = 0, llen = 0;
        double nasc, ndesc;
        if (lab != NULL) {
            set_font(cv, lf, false);
            font_metrics(cv, &asc, &desc);
            for (size_t i = 0; i < sp->n_points; i++) {
                lab[i].ax = px0 + sp->px[i] / hi * (px1 - px0);
                lab[i].ay = py1 - sp->py[i] / hi * (py1 - py0);
                lab[i].w = text_width(cv, sp->point_labels[i]);
                lab[i].h = asc + desc;
            }
            /* The short form: the widest number a key can give, in bold. */
            set_font(cv, lf, true);
            snprintf(num, sizeof num, "%zu", sp->n_points);
            for (size_t i = 0; i < sp->n_points; i++)
                lab[i].w_alt = text_width(cv, num);
            (void)om_chart_place_labels((box){px0, py0, px1, py1}, placed, n_placed, lab,
                                        sp->n_points, 0.45 * f, 4.0 * f);
        }
        for (size_t i = 0; lab != NULL && i < sp->n_points; i++) {
            const om_chart_label *l = &lab[i];
            const char *text = sp->point_labels[i];
            if (!l->placed) {
                llen += (size_t)snprintf(lost + llen, llen < sizeof lost ? sizeof lost - llen : 0,
                                         "%s%s", llen > 0 ? ", " : "", text);
                continue;
            }
            if (l->alt) {
                snprintf(num, sizeof num, "%zu", ++n_key);
                klen += (size_t)snprintf(key + klen, klen < sizeof key ? sizeof key - klen : 0,
                                         "%s%zu %s", n_key > 1 ? " \xc2\xb7 " : "", n_key, text);
                text = num;
            }
            set_font(cv, lf, l->alt);
            font_metrics(cv, &nasc, &ndesc);
            if (l->leader) {
                double ex = fmin(fmax(l->ax, l->x0), l->x0 + (l->alt ? l->w_alt : l->w));
                double ey = fmin(fmax(l->ay, l->y0), l->y0 + l->h);
                set_colour(cv, INK_FAINT);
                line2(cv, l->ax, l->ay, ex, ey, fmax(0.8, f / 18));
            }
            /* The page's white under the name hides grid and reference lines, never
             * a marker or a bar: the box covers none. */
            set_colour(cv, 0xffffffu);
            cv->ops->rect(cv, l->x0, l->y0, l->alt ? l->w_alt : l->w, l->h);
            set_colour(cv, INK);
            show(cv, l->x0, l->y0 + nasc, text, 0);
        }
        if (llen > 0)
            klen += (size_t)snprintf(key + klen, klen < sizeof key ? sizeof key - klen : 0,
                                     "%sno room to name: %s", klen > 0 ? " \xc2\xb7 " : "",
                                     lost);
        if (klen > 0) {
            char cut[OM_CHART_TEXT_MAX];
            set_font(cv, 0.75 * f, false);
            cut_to_width(cv, key, b.x1 - b.x0, cut, sizeof cut);
            set_colour(cv, INK_SOFT);
            show(cv, b.x0, key_baseline, cut, 0);
        }
        free(lab);
    }
    free(placed);
}

/* ---------------------------------------------------------------- points */

/*
 * Each unit's victory points a battle: one row per unit, top to bottom, its
 * label right-aligned on the left as a flags chart's, two bars from 0, the
 * points it scored (side A's colour) over those it gave up (side B's), each
 * with its interval as a whisker and its mean beyond; ticks at a nice step on
 * top, a legend above them, a rule between side A's rows and side B's.
 */
static void draw_unit_points(canvas *cv, const om_chart_spec *sp, box b, double f)
{
    static const uint32_t colour[2] = {OM_CHART_COLOUR_A, OM_CHART_COLOUR_B};
    static const char *const what[2] = {"scored", "given up"};
    char buf[OM_CHART_TEXT_MAX];
    double lab_w = 0, lab_f, val_w, asc, desc, bx0, bx1, top, bottom, pitch, bh, x, x_max = 0;
    double max_lab = 0.5 * (b.x1 - b.x0), thin = fmax(1.0, f / 16), bold = fmax(1.2, f / 9);
    const size_t n = sp->n_units;

    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 2; j++)
            x_max = fmax(x_max, fmax(sp->unit_points[i].hi[j], sp->unit_points[i].mean[j]));
    const double step = nice_step(fmax(x_max, 1.0), 5);
    x_max = step * ceil(fmax(x_max, 1.0) / step);

    /* Legend, then the label column as a flags chart's. */
    set_font(cv, 0.85 * f, false);
    font_metrics(cv, &asc, &desc);
    x = b.x0;
    for (int j = 0; j < 2; j++)
        x = legend_entry(cv, x, b.x1, b.y0 + asc, colour[j], what[j], f) + 1.6 * f;
    const double legend_h = asc + desc + 0.5 * f;
    lab_f = 0.85 * f;
    set_font(cv, lab_f, false);
    for (size_t i = 0; i < n; i++)
        lab_w = fmax(lab_w, text_width(cv, sp->unit_points[i].label));
    if (lab_w > max_lab) {
        lab_f = fmax(LABEL_FONT_MIN * f, lab_f * max_lab / lab_w);
        lab_w = max_lab;
    }
    set_font(cv, 0.7 * f, true);
    snprintf(buf, sizeof buf, "%.1f", x_max);
    val_w = text_width(cv, buf) + 0.8 * f;
    bx0 = b.x0 + lab_w + 0.8 * f;
    bx1 = b.x1 - val_w;

    set_font(cv, 0.8 * f, false);
    font_metrics(cv, &asc, &desc);
    top = b.y0 + legend_h + asc + desc + 0.6 * f;
    bottom = b.y1 - 2.0 * f;
    for (double t = 0; t <= x_max + step / 2; t += step) {
        const double tx = bx0 + t / x_max * (bx1 - bx0);
        snprintf(buf, sizeof buf, "%g", t);
        set_colour(cv, INK_FAINT);
        show(cv, tx, b.y0 + legend_h + asc, buf, 0.5);
        if (t > 0) {
            set_colour(cv, GRID);
            line2(cv, tx, top - 0.3 * f, tx, bottom, thin);
        }
    }

    pitch = (bottom - top) / (double)n;
    bh = fmin(0.36 * pitch, 0.7 * f);
    for (size_t i = 0; i < n; i++) {
        const om_chart_unit_points *p = &sp->unit_points[i];
        const double cy = top + (i + 0.5) * pitch, w = bx1 - bx0;
        if (i % 2 == 1) {
            set_colour(cv, 0xf4f6f8u);
            cv->ops->rect(cv, b.x0, cy - pitch / 2, b.x1 - b.x0, pitch);
        }
        if (i > 0 && p->side != sp->unit_points[i - 1].side) {
            set_colour(cv, INK_SOFT);
            line2(cv, b.x0, cy - pitch / 2, b.x1, cy - pitch / 2, thin);
        }
        set_colour(cv, INK);
        set_font(cv, lab_f, false);
        font_metrics(cv, &asc, &desc);
        cut_to_width(cv, p->label, lab_w, buf, sizeof buf);
        show(cv, bx0 - 0.6 * f, cy + (asc - desc) / 2, buf, 1);
        for (int j = 0; j < 2; j++) {
            const double y = cy + (j == 0 ? -0.55 : 0.55) * bh;
            const double x_hi = bx0 + p->hi[j] / x_max * w;
            set_colour(cv, colour[j]);
            cv->ops->rect(cv, bx0, y - bh / 2, p->mean[j] / x_max * w, bh);
            set_colour(cv, INK);
            whisker_h(cv, bx0 + p->lo[j] / x_max * w, x_hi, y, 0.3 * bh, bold);
            set_font(cv, 0.7 * f, j == 0);
            font_metrics(cv, &asc, &desc);
            snprintf(buf, sizeof buf, "%.1f", p->mean[j]);
            show(cv, fmax(bx0 + p->mean[j] / x_max * w, x_hi) + 0.35 * f,
                 y + (asc - desc) / 2, buf, 0);
        }
    }

    set_colour(cv, INK);
    line2(cv, bx0, top - 0.3 * f, bx0, bottom, fmax(1.0, f / 12));
    set_colour(cv, INK_SOFT);
    fit_text(cv, sp->x_title, false, 0.85 * f, 0.6 * f, b.x1 - bx0, buf, sizeof buf);
    font_metrics(cv, &asc, &desc);
    show(cv, (bx0 + bx1) / 2, b.y1 - desc, buf, 0.5);
}

/* ---------------------------------------------------------------- surfaces */

static void draw(canvas *cv, const om_chart_spec *sp, double W, double H)
{
    double f = fmax(FONT_MIN, fmin(W / FONT_PER_WIDTH, H / FONT_PER_HEIGHT));
    box b = draw_frame(cv, sp, W, H, f);
    switch (sp->kind) {
    case OM_CHART_ODDS: draw_odds(cv, sp, b, f); break;
    case OM_CHART_DIST: draw_dist(cv, sp, b, f); break;
    case OM_CHART_HEATMAP: draw_heatmap(cv, sp, b, f); break;
    case OM_CHART_FAIR: draw_fair(cv, sp, b, f); break;
    case OM_CHART_FLAGS: draw_items(cv, sp->items, sp->n_items, sp->x_title, b, f); break;
    case OM_CHART_POINTS: draw_unit_points(cv, sp, b, f); break;
    }
}

/* Where cairo's stream callback writes, and the system's reason of its
 * first failed write: cairo itself keeps only CAIRO_STATUS_WRITE_ERROR, and
 * errno is long gone by the time its status is asked for. */
typedef struct sink {
    FILE *out;
    int err; /* errno of the first failed write, or 0 */
} sink;

/* cairo's stream callback: write to the sink's FILE. */
static cairo_status_t file_write(void *closure, const unsigned char *data, unsigned int length)
{
    sink *s = closure;
    if (fwrite(data, 1, length, s->out) == length)
        return CAIRO_STATUS_SUCCESS;
    if (s->err == 0)
        s->err = errno != 0 ? errno : EIO;
    return CAIRO_STATUS_WRITE_ERROR;
}

/* Turn a cairo failure into OM_EIO (OM_ENOMEM for memory) with its reason:
 * the system's for a write that failed (`err`, as file_write kept it). */
static om_status cairo_fail(cairo_status_t cs, int err)
{
    return OM_ERROR(cs == CAIRO_STATUS_NO_MEMORY ? OM_ENOMEM : OM_EIO, "%s",
                    cs == CAIRO_STATUS_WRITE_ERROR ? strerror(err != 0 ? err : EIO)
                                                   : cairo_status_to_string(cs));
}

static void draw_picture(canvas *cv, const om_picture *pic, double W, double H);

/* What a document shows: a chart (spec) or a battlefield (pic), W x H. */
typedef struct drawing {
    const om_chart_spec *spec;
    const om_picture *pic;
    unsigned width, height;
} drawing;

static void draw_drawing(canvas *cv, const drawing *dw)
{
    if (dw->spec != NULL)
        draw(cv, dw->spec, dw->width, dw->height);
    else
        draw_picture(cv, dw->pic, dw->width, dw->height);
}

/* The SVG document: a header with the title (and a chart's manifest), then
 * the drawing as elements. */
static om_status render_svg(const drawing *dw, FILE *out)
{
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    canvas cv = {.ops = &svg_ops, .svg = out};
    cairo_status_t cs;
    cv.cr = cairo_create(scratch);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/"
                 "svg\" width=\"%upt\" height=\"%upt\" viewBox=\"0 0 %u %u\" font-family=\""
                 FONT_FACE ", Verdana, sans-serif\">\n<title>", dw->width, dw->height,
            dw->width, dw->height);
    xml_text(out, dw->spec != NULL ? dw->spec->title : dw->pic->title);
    fputs("</title>\n", out);
    if (dw->spec != NULL) {
        fputs("<desc>", out);
        xml_text(out, dw->spec->subtitle);
        fputs(" | ", out);
        xml_text(out, dw->spec->footer);
        fputs("</desc>\n", out);
    }
    draw_drawing(&cv, dw);
    fputs("</svg>\n", out);
    cs = cairo_status(cv.cr);
    cairo_destroy(cv.cr);
    cairo_surface_destroy(scratch);
    if (cs == CAIRO_STATUS_SUCCESS && ferror(out))
        return OM_ERROR(OM_EIO, "%s", strerror(errno != 0 ? errno : EIO));
    return cs == CAIRO_STATUS_SUCCESS ? OM_OK : cairo_fail(cs, 0);
}

/* Paint the drawing on `surface` (a PNG image or a PDF writing to `to`) and
 * finish the document; the surface is consumed. */
static om_status paint(cairo_surface_t *surface, om_chart_format format, sink *to,
                       const drawing *dw)
{
    canvas cv = {.ops = &cairo_ops};
    cairo_status_t cs;
    if ((cs = cairo_surface_status(surface)) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        return cairo_fail(cs, to->err);
    }
    cv.cr = cairo_create(surface);
    draw_drawing(&cv, dw);
    cs = cairo_status(cv.cr);
    cairo_destroy(cv.cr);
    if (cs == CAIRO_STATUS_SUCCESS && format == OM_CHART_PNG)
        cs = cairo_surface_write_to_png_stream(surface, file_write, to);
    cairo_surface_finish(surface);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    return cs == CAIRO_STATUS_SUCCESS ? OM_OK : cairo_fail(cs, to->err);
}

om_status om_chart_render(const om_chart_spec *sp, om_chart_format format, FILE *out)
{
    double W = sp->width, H = sp->height;
    const drawing dw = {.spec = sp, .width = sp->width, .height = sp->height};
    cairo_surface_t *surface = NULL;
    sink to = {.out = out, .err = 0};

    errno = 0;
    if (format == OM_CHART_SVG)
        return render_svg(&dw, out);
    if (format == OM_CHART_PNG) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)sp->width,
                                             (int)sp->height);
    } else {
        surface = cairo_pdf_surface_create_for_stream(file_write, &to, W, H);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
            /* The manifest travels with the document as its keywords. */
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, sp->title);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, sp->subtitle);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, sp->footer);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "oddsmaster");
        }
    }
    return paint(surface, format, &to, &dw);
}

/* ------------------------------------------------------------ battlefield */

/* Colours of the battlefield: the cloth, each side's units and deployment
 * zone (the series' blue and vermilion, told apart in every common kind of
 * colour vision), terrain, gone units. */
#define CLOTH 0xeef2e6u
#define ZONE_TINT_A 0xdbe7f3u
#define ZONE_TINT_B 0xf6e0d3u
#define TERRAIN_FILL 0xb9c9a3u
#define TERRAIN_EDGE 0x6f8a5au
#define GONE_UNIT 0xb0b4b8u
static const uint32_t side_colour[2] = {0x0072b2u, 0xd55e00u};

/* Margins around the table, in font sizes: room for the title above and the
 * key below. */
#define PICTURE_TOP_F 3.4
#define PICTURE_BOTTOM_F 2.6
#define PICTURE_SIDE_F 1.2

/* Units' names: their font as a share of f, and how far beyond its unit's
 * frontage a name may run before it is cut short. */
#define LABEL_SIZE_F 0.55
#define LABEL_WIDTH_SHARE 1.6

/* A character's dot, as a share of f. */
#define CHARACTER_R_F 0.3

unsigned om_chart_picture_height(const om_picture *pic, unsigned width)
{
    const double f = fmax(FONT_MIN, width / FONT_PER_WIDTH);
    const double table_w = width - 2 * PICTURE_SIDE_F * f;
    const double h = table_w * (pic->depth > 0 && pic->width > 0 ? pic->depth / pic->width : 1) +
                     (PICTURE_TOP_F + PICTURE_BOTTOM_F) * f;
    return (unsigned)ceil(h);
}

/* The picture's table drawn on cv, W x H. The table's y = 0 (side A's edge)
 * is at the bottom of the drawing, so that side A looks up the table. */
static void draw_picture(canvas *cv, const om_picture *pic, double W, double H)
{
    const double f = fmax(FONT_MIN, fmin(W / FONT_PER_WIDTH, H / FONT_PER_HEIGHT));
    const double x0 = PICTURE_SIDE_F * f, y0 = PICTURE_TOP_F * f;
    const double tw = W - 2 * PICTURE_SIDE_F * f, th = H - (PICTURE_TOP_F + PICTURE_BOTTOM_F) * f;
    const double k = fmin(tw / pic->width, th / pic->depth);
    char buf[OM_CHART_TEXT_MAX];
    double edge[10];
#define PX(cx) (x0 + (cx) * k)
#define PY(cy) (y0 + (pic->depth - (cy)) * k)

    cv->colour = 0xffffffu;
    cv->ops->rect(cv, 0, 0, W, H);
    set_font(cv, 1.2 * f, true);
    set_colour(cv, INK);
    cut_to_width(cv, pic->title, W - 2 * x0, buf, sizeof buf);
    show(cv, x0, 1.6 * f, buf, 0);
    /* The cloth, the deployment zones along each long edge, and the edge. */
    set_colour(cv, CLOTH);
    cv->ops->rect(cv, PX(0), PY(pic->depth), pic->width * k, pic->depth * k);
    if (pic->zone[0] > 0) {
        set_colour(cv, ZONE_TINT_A);
        cv->ops->rect(cv, PX(0), PY(pic->zone[0]), pic->width * k, pic->zone[0] * k);
    }
    if (pic->zone[1] > 0) {
        set_colour(cv, ZONE_TINT_B);
        cv->ops->rect(cv, PX(0), PY(pic->depth), pic->width * k, pic->zone[1] * k);
    }
    for (size_t i = 0; i < pic->n_terrain; i++) {
        const om_picture_terrain *t = &pic->terrain[i];
        double xy[2 * OM_PICTURE_VERTICES_MAX + 2], cx = 0, cy = 0;
        for (unsigned v = 0; v < t->n; v++) {
            xy[2 * v] = PX(t->x[v]);
            xy[2 * v + 1] = PY(t->y[v]);
            cx += t->x[v] / t->n;
            cy += t->y[v] / t->n;
        }
        set_colour(cv, TERRAIN_FILL);
        cv->ops->polygon(cv, xy, t->n);
        xy[2 * t->n] = xy[0];
        xy[2 * t->n + 1] = xy[1];
        set_colour(cv, TERRAIN_EDGE);
        cv->ops->line(cv, xy, (size_t)t->n + 1, 0.08 * f, 0);
        set_font(cv, 0.6 * f, false);
        show(cv, PX(cx), PY(cy), t->label, 0.5);
    }
    edge[0] = edge[6] = edge[8] = PX(0);
    edge[1] = edge[3] = edge[9] = PY(0);
    edge[2] = edge[4] = PX(pic->width);
    edge[5] = edge[7] = PY(pic->depth);
    set_colour(cv, INK_SOFT);
    cv->ops->line(cv, edge, 5, 0.1 * f, 0);
    /* Units: each a rectangle behind its front edge, a darker line along the
     * front to show its facing, its name beside it. */
    for (size_t i = 0; i < pic->n_units; i++) {
        const om_picture_unit *u = &pic->unit[i];
        const double rx = -u->dy, ry = u->dx; /* along the front */
        const double hw = u->width / 2, hd = u->depth / 2;
        double xy[8], front[4];
        const double cx[4] = {u->x + u->dx * hd - rx * hw, u->x + u->dx * hd + rx * hw,
                              u->x - u->dx * hd + rx * hw, u->x - u->dx * hd - rx * hw};
        const double cy[4] = {u->y + u->dy * hd - ry * hw, u->y + u->dy * hd + ry * hw,
                              u->y - u->dy * hd + ry * hw, u->y - u->dy * hd - ry * hw};
        if (u->gone)
            continue;
        for (unsigned v = 0; v < 4; v++) {
            xy[2 * v] = PX(cx[v]);
            xy[2 * v + 1] = PY(cy[v]);
        }
        set_colour(cv, side_colour[u->side & 1u]);
        cv->ops->polygon(cv, xy, 4);
        /* A white outline tells touching neighbours apart. */
        {
            double ring[10];
            memcpy(ring, xy, sizeof xy);
            ring[8] = xy[0];
            ring[9] = xy[1];
            set_colour(cv, 0xffffffu);
            cv->ops->line(cv, ring, 5, 0.06 * f, 0);
        }
        front[0] = xy[0];
        front[1] = xy[1];
        front[2] = xy[2];
        front[3] = xy[3];
        set_colour(cv, u->confused ? 0xffffffu : INK);
        cv->ops->line(cv, front, 2, 0.18 * f, u->confused ? 0.3 * f : 0);
        /* Its name beside its rear, cut to a little more than its frontage,
         * every other one a line further out so that neighbours' names do
         * not run together. */
        {
            const double size = LABEL_SIZE_F * f, out = u->side == 0 ? 1.0 : -1.0;
            const double reach = hd * k + (i % 2 == 0 ? 1.3 : 2.4) * size;
            set_font(cv, size, false);
            set_colour(cv, INK);
            cut_to_width(cv, u->label, fmax(u->width * k * LABEL_WIDTH_SHARE, 3 * f), buf,
                         sizeof buf);
            show(cv, PX(u->x), PY(u->y) + out * reach + (out > 0 ? 0 : 0.3 * size), buf, 0.5);
        }
    }
    /* Characters: a white-ringed dot of the side's colour, no name (they
     * stand on their units, whose names are drawn). */
    for (size_t i = 0; i < pic->n_characters; i++) {
        const om_picture_character *c = &pic->character[i];
        if (c->gone)
            continue;
        set_colour(cv, 0xffffffu);
        cv->ops->circle(cv, PX(c->x), PY(c->y), CHARACTER_R_F * f + 0.08 * f);
        set_colour(cv, side_colour[c->side & 1u]);
        cv->ops->circle(cv, PX(c->x), PY(c->y), CHARACTER_R_F * f);
    }
    /* The key: each side's colour and army, and what was left out. */
    {
        double x = x0, base = H - 0.9 * f;
        size_t gone = 0;
        for (size_t i = 0; i < pic->n_units; i++)
            gone += pic->unit[i].gone;
        set_font(cv, 0.8 * f, false);
        for (unsigned s = 0; s < 2; s++) {
            set_colour(cv, side_colour[s]);
            cv->ops->rect(cv, x, base - 0.7 * f, 1.2 * f, 0.7 * f);
            set_colour(cv, INK);
            snprintf(buf, sizeof buf, "%s %s (%s edge)", s == 0 ? "A" : "B", pic->side_name[s],
                     s == 0 ? "lower" : "upper");
            show(cv, x + 1.6 * f, base, buf, 0);
            x += 1.6 * f + text_width(cv, buf) + 1.5 * f;
        }
        set_colour(cv, INK_FAINT);
        snprintf(buf, sizeof buf, "%.0f x %.0f cm; dark edge: a unit's front; dot: a "
                 "character%s", pic->width, pic->depth,
                 gone > 0 ? "; units lost are not drawn" : "");
        show(cv, x, base, buf, 0);
    }
#undef PX
#undef PY
}

om_status om_chart_picture_render(const om_picture *pic, om_chart_format format, unsigned width,
                                  FILE *out)
{
    const unsigned height = om_chart_picture_height(pic, width);
    const drawing dw = {.pic = pic, .width = width, .height = height};
    sink to = {.out = out, .err = 0};

    if (pic->width <= 0 || pic->depth <= 0)
        return OM_ERROR(OM_EINVAL, "a battlefield of %g x %g cm cannot be drawn", pic->width,
                        pic->depth);
    errno = 0;
    if (format == OM_CHART_SVG)
        return render_svg(&dw, out);
    return paint(format == OM_CHART_PNG
                     ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width, (int)height)
                     : cairo_pdf_surface_create_for_stream(file_write, &to, width, height),
                 format, &to, &dw);
}
