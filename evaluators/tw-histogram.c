/* tw-histogram.c: histograms with exact statistics, fed one value at a time
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-histogram.h"

#include <tw-huge-array.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A grid of auto bins never needs more doublings than the exponent range of a double. */
#define MAX_DOUBLINGS 2200

struct _TwHistogram {
  GObject           parent_instance;

  TwHistogramScale  scale;
  gboolean          automatic;
  char             *unit;

  /* Bins live in u-space: u = value (linear) or log10 (value) (log). Fixed: [u_lo,
   * u_lo + n·width], the top edge inclusive. Auto: [u_lo, u_lo + n·width) with width a
   * power of two that doubles when a value falls outside (see auto_double()), so
   * growing merges bin pairs exactly and the bins depend only on the values and their
   * order, not on when one looks. */
  guint             n_bins;
  guint64          *bins;
  double            u_lo;
  double            width;
  /* auto: the grid in the form the insert path uses (see auto_set_grid ()) */
  double            u_hi;         /* u_lo + width · n_bins */
  double            inv_width;    /* 1 / width, exact: width is a power of two */
  gboolean          has_range;    /* auto: set by the first value */
  guint64           underflow;
  guint64           overflow;

  /* Exact statistics over every value, inside the range or not. */
  TwHugeArray       values;       /* double, in arrival order then sorted lazily */
  gsize             n_sorted;     /* values[0, n_sorted) are sorted */
  double            min;
  double            max;
  double            sum;          /* Neumaier-compensated */
  double            sum_comp;
  guint64           generation;
};

G_DEFINE_FINAL_TYPE (TwHistogram, tw_histogram, G_TYPE_OBJECT)

static void
tw_histogram_finalize (GObject *object)
{
  TwHistogram *self = TW_HISTOGRAM (object);

  g_clear_pointer (&self->bins, g_free);
  tw_huge_array_clear (&self->values);
  g_clear_pointer (&self->unit, g_free);

  G_OBJECT_CLASS (tw_histogram_parent_class)->finalize (object);
}

static void
tw_histogram_class_init (TwHistogramClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_histogram_finalize;
}

static void
tw_histogram_init (TwHistogram *self)
{
  tw_huge_array_init (&self->values, sizeof (double));
  self->unit = g_strdup ("ns");
  self->min = INFINITY;
  self->max = -INFINITY;
}

/**
 * tw_histogram_new_fixed:
 * @min: lower edge of the first bin (> 0 for %TW_HISTOGRAM_SCALE_LOG)
 * @max: upper edge of the last bin, inclusive (> @min)
 * @n_bins: number of bins, ≥ 1
 *
 * Values below @min count as underflow, above @max as overflow (log scale: values ≤ 0
 * are underflow); the statistics still include them.
 *
 * Returns: (transfer full): a histogram with fixed bins
 */
TwHistogram *
tw_histogram_new_fixed (double           min,
                        double           max,
                        guint            n_bins,
                        TwHistogramScale scale)
{
  TwHistogram *self;

  g_return_val_if_fail (n_bins >= 1, NULL);
  g_return_val_if_fail (isfinite (min) && isfinite (max) && max > min, NULL);
  g_return_val_if_fail (scale != TW_HISTOGRAM_SCALE_LOG || min > 0, NULL);

  self = g_object_new (TW_TYPE_HISTOGRAM, NULL);
  self->scale = scale;
  self->n_bins = n_bins;
  self->bins = g_new0 (guint64, n_bins);
  self->u_lo = scale == TW_HISTOGRAM_SCALE_LOG ? log10 (min) : min;
  self->width = ((scale == TW_HISTOGRAM_SCALE_LOG ? log10 (max) : max) - self->u_lo) / n_bins;
  self->has_range = TRUE;
  return self;
}

/**
 * tw_histogram_new_auto:
 * @n_bins: number of bins (rounded up to an even number, ≥ 2)
 *
 * The range follows the data: the first value fixes a fine grid around itself, and a
 * later value outside the range doubles the bin width towards it (merging neighbouring
 * bins, never re-reading the values) until it fits. Bin widths are powers of two (of
 * ns for linear scale, of decades for log scale). Log scale: values ≤ 0 count as
 * underflow.
 *
 * Returns: (transfer full): a histogram with automatic bins
 */
TwHistogram *
tw_histogram_new_auto (guint            n_bins,
                       TwHistogramScale scale)
{
  TwHistogram *self = g_object_new (TW_TYPE_HISTOGRAM, NULL);

  self->scale = scale;
  self->automatic = TRUE;
  self->n_bins = MAX (2, n_bins + (n_bins & 1));
  self->bins = g_new0 (guint64, self->n_bins);
  return self;
}

/**
 * tw_histogram_set_unit:
 * @unit: "ns" (values are durations, formatted with a unit that fits) or any label
 */
void
tw_histogram_set_unit (TwHistogram *self,
                       const char  *unit)
{
  g_return_if_fail (TW_IS_HISTOGRAM (self));
  g_free (self->unit);
  self->unit = g_strdup (unit ? unit : "");
}

/**
 * tw_histogram_get_unit:
 *
 * Returns: (transfer none): the unit of the values ("ns" for durations)
 */
const char *
tw_histogram_get_unit (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NULL);
  return self->unit;
}

/**
 * tw_histogram_get_scale:
 *
 * Returns: linear or log bins
 */
TwHistogramScale
tw_histogram_get_scale (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), TW_HISTOGRAM_SCALE_LINEAR);
  return self->scale;
}

/**
 * tw_histogram_is_auto:
 *
 * Returns: whether the range follows the data
 */
gboolean
tw_histogram_is_auto (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), FALSE);
  return self->automatic;
}

/* Bins of auto histograms have power-of-two widths, so x / width and x · (1 / width)
 * are the same correctly rounded number: the insert path multiplies instead of
 * dividing (a division's latency is most of an insert). A width whose reciprocal
 * is not a finite nonzero double keeps the division. */
static void
auto_set_grid (TwHistogram *self)
{
  double inv = 1.0 / self->width;

  self->u_hi = self->u_lo + self->width * self->n_bins;
  self->inv_width = isfinite (inv) && inv != 0 && frexp (self->width, &(int) { 0 }) == 0.5
                    ? inv : 0;
}

static void
auto_start (TwHistogram *self,
            double       u)
{
  double target = self->scale == TW_HISTOGRAM_SCALE_LOG
                  ? 1.0 / 16.0 : fabs (u) / self->n_bins;
  int exponent;

  /* The first value sits in a grid fine enough to resolve ~1/n of its magnitude. */
  if (target > 0 && isfinite (target))
    {
      frexp (target, &exponent);
      self->width = ldexp (1.0, MAX (exponent - 1, -1000));
    }
  else
    self->width = 1.0;
  self->u_lo = floor (u / (self->width * self->n_bins)) * self->width * self->n_bins;
  self->has_range = TRUE;
  auto_set_grid (self);
}

/* Doubles the bin width so that the range grows towards @u; the old bins become one
 * half of the new ones, merged in pairs, so no value is re-read and counts stay exact.
 * While the range and @u lie on one side of zero the new range is the aligned block of
 * twice the size (so non-negative data ends up in a range starting at 0); a range that
 * has to straddle zero grows towards @u instead. */
static void
auto_double (TwHistogram *self,
             double       u)
{
  double span = self->width * self->n_bins;
  double hi = self->u_lo + span;
  guint half = self->n_bins / 2;
  guint offset;
  guint64 *merged;
  double new_lo;

  if ((self->u_lo >= 0 && u >= 0) || (hi <= 0 && u < 0))
    new_lo = floor (self->u_lo / (2 * span)) * 2 * span;
  else
    new_lo = u < self->u_lo ? self->u_lo - span : self->u_lo;
  offset = new_lo < self->u_lo ? half : 0;

  merged = g_new0 (guint64, self->n_bins);
  for (guint i = 0; i < half; i++)
    merged[offset + i] = self->bins[2 * i] + self->bins[2 * i + 1];
  g_free (self->bins);
  self->bins = merged;
  self->u_lo = new_lo;
  self->width *= 2;
  auto_set_grid (self);
}

static void
bin_value (TwHistogram *self,
           double       value)
{
  double u;
  double pos;

  if (self->scale == TW_HISTOGRAM_SCALE_LOG)
    {
      if (!(value > 0))
        {
          self->underflow++;
          return;
        }
      u = log10 (value);
    }
  else
    u = value;

  if (!isfinite (u))
    {
      if (u < 0)
        self->underflow++;
      else
        self->overflow++;
      return;
    }

  if (self->automatic)
    {
      guint doublings = 0;

      if (!self->has_range)
        auto_start (self, u);
      while (u < self->u_lo || u >= self->u_hi)
        {
          if (++doublings > MAX_DOUBLINGS)
            {
              if (u < self->u_lo)
                self->underflow++;
              else
                self->overflow++;
              return;
            }
          auto_double (self, u);
        }
      pos = self->inv_width != 0 ? (u - self->u_lo) * self->inv_width
                                 : (u - self->u_lo) / self->width;
      self->bins[MIN ((guint) pos, self->n_bins - 1)]++;
      return;
    }

  pos = (u - self->u_lo) / self->width;
  if (pos < 0)
    self->underflow++;
  else if (pos > self->n_bins)
    self->overflow++;
  else
    self->bins[MIN ((guint) pos, self->n_bins - 1)]++; /* the top edge is inclusive */
}

/**
 * tw_histogram_insert:
 * @value: a finite value (a NaN is refused)
 *
 * Adds one value: O(1) amortised (auto bins may merge once in a while), so a live view
 * can insert as measurements arrive.
 */
void
tw_histogram_insert (TwHistogram *self,
                     double       value)
{
  double t;

  g_return_if_fail (TW_IS_HISTOGRAM (self));
  g_return_if_fail (!isnan (value));

  *(double *) tw_huge_array_push (&self->values) = value;
  if (value < self->min)
    self->min = value;
  if (value > self->max)
    self->max = value;
  t = self->sum + value;
  if (fabs (self->sum) >= fabs (value))
    self->sum_comp += (self->sum - t) + value;
  else
    self->sum_comp += (value - t) + self->sum;
  self->sum = t;
  bin_value (self, value);
  self->generation++;
}

/**
 * tw_histogram_insert_many:
 * @values: (array length=n_values): values in order
 *
 * Same as inserting them one by one.
 */
void
tw_histogram_insert_many (TwHistogram  *self,
                          const double *values,
                          gsize         n_values)
{
  for (gsize i = 0; i < n_values; i++)
    tw_histogram_insert (self, values[i]);
}

/**
 * tw_histogram_clear:
 *
 * Drops every value; an auto histogram forgets its range.
 */
void
tw_histogram_clear (TwHistogram *self)
{
  g_return_if_fail (TW_IS_HISTOGRAM (self));

  memset (self->bins, 0, self->n_bins * sizeof (guint64));
  self->values.len = 0;
  self->n_sorted = 0;
  self->underflow = self->overflow = 0;
  self->min = INFINITY;
  self->max = -INFINITY;
  self->sum = self->sum_comp = 0;
  if (self->automatic)
    self->has_range = FALSE;
  self->generation++;
}

/**
 * tw_histogram_get_generation:
 *
 * Returns: a number that changes whenever the content changes (views poll it)
 */
guint64
tw_histogram_get_generation (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), 0);
  return self->generation;
}

/**
 * tw_histogram_get_count:
 *
 * Returns: the number of values inserted, inside the range or not
 */
guint64
tw_histogram_get_count (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), 0);
  return self->values.len;
}

/**
 * tw_histogram_get_min:
 *
 * Returns: the smallest value, NaN when empty
 */
double
tw_histogram_get_min (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NAN);
  return self->values.len ? self->min : NAN;
}

/**
 * tw_histogram_get_max:
 *
 * Returns: the largest value, NaN when empty
 */
double
tw_histogram_get_max (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NAN);
  return self->values.len ? self->max : NAN;
}

/**
 * tw_histogram_get_sum:
 *
 * Returns: the sum of the values, with compensated summation (exact for integer
 *   values whose sum stays below 2^53, e.g. nanosecond lengths up to ~104 days)
 */
double
tw_histogram_get_sum (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NAN);
  return self->sum + self->sum_comp;
}

/**
 * tw_histogram_get_mean:
 *
 * Returns: sum / count, NaN when empty
 */
double
tw_histogram_get_mean (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NAN);
  return self->values.len ? tw_histogram_get_sum (self) / self->values.len : NAN;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
ensure_sorted (TwHistogram *self)
{
  double *v = (double *) (gpointer) self->values.data;
  gsize n = self->values.len;
  gsize k = self->n_sorted;
  double *merged;
  gsize i = 0, j = k, o = 0;

  if (k == n)
    return;

  /* Live use queries between inserts: sort only the new tail and merge it. */
  qsort (v + k, n - k, sizeof (double), compare_double);
  if (k > 0)
    {
      merged = g_new (double, n);
      while (i < k && j < n)
        merged[o++] = v[j] < v[i] ? v[j++] : v[i++];
      while (i < k)
        merged[o++] = v[i++];
      while (j < n)
        merged[o++] = v[j++];
      memcpy (v, merged, n * sizeof (double));
      g_free (merged);
    }
  self->n_sorted = n;
}

/**
 * tw_histogram_get_percentile:
 * @percent: in [0, 100]
 *
 * Exact, by the nearest-rank method over every inserted value: the smallest value v
 * such that at least @percent % of the values are ≤ v, i.e. the value of rank
 * ⌈percent/100 · count⌉ (rank 1 for 0 %) in sorted order. Values are kept, so this
 * never interpolates between bins.
 *
 * Returns: the percentile, NaN when empty
 */
double
tw_histogram_get_percentile (TwHistogram *self,
                             double       percent)
{
  gsize n;
  double rank;
  gsize r;

  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NAN);
  g_return_val_if_fail (percent >= 0 && percent <= 100, NAN);

  n = self->values.len;
  if (n == 0)
    return NAN;
  ensure_sorted (self);
  /* Round away the binary noise of percent/100·n (99.9 % of 1000 is rank 999). */
  rank = ceil (percent / 100.0 * n - 1e-9);
  r = (gsize) CLAMP (rank, 1.0, (double) n);
  return TW_HUGE_ARRAY_AT (&self->values, double, r - 1);
}

/**
 * tw_histogram_get_n_bins:
 *
 * Returns: the number of bins
 */
guint
tw_histogram_get_n_bins (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), 0);
  return self->n_bins;
}

static double
from_u (TwHistogram *self,
        double       u)
{
  return self->scale == TW_HISTOGRAM_SCALE_LOG ? pow (10.0, u) : u;
}

/**
 * tw_histogram_get_bin:
 * @lower: (out) (optional): the bin's lower edge (inclusive)
 * @upper: (out) (optional): the bin's upper edge (exclusive; inclusive for the last
 *   fixed bin)
 *
 * Returns: the number of values in the bin (edges are NaN for an auto histogram with
 *   no value yet)
 */
guint64
tw_histogram_get_bin (TwHistogram *self,
                      guint        bin,
                      double      *lower,
                      double      *upper)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), 0);
  g_return_val_if_fail (bin < self->n_bins, 0);

  if (lower)
    *lower = self->has_range ? from_u (self, self->u_lo + bin * self->width) : NAN;
  if (upper)
    *upper = self->has_range ? from_u (self, self->u_lo + (bin + 1) * self->width) : NAN;
  return self->bins[bin];
}

/**
 * tw_histogram_get_range:
 * @lower: (out) (optional): lower edge of the first bin
 * @upper: (out) (optional): upper edge of the last bin
 *
 * Returns: %FALSE for an auto histogram that has no value yet
 */
gboolean
tw_histogram_get_range (TwHistogram *self,
                        double      *lower,
                        double      *upper)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), FALSE);

  if (lower)
    *lower = self->has_range ? from_u (self, self->u_lo) : NAN;
  if (upper)
    *upper = self->has_range ? from_u (self, self->u_lo + self->n_bins * self->width) : NAN;
  return self->has_range;
}

/**
 * tw_histogram_get_underflow:
 *
 * Returns: values below the range (log scale: also values ≤ 0)
 */
guint64
tw_histogram_get_underflow (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), 0);
  return self->underflow;
}

/**
 * tw_histogram_get_overflow:
 *
 * Returns: values above the range
 */
guint64
tw_histogram_get_overflow (TwHistogram *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM (self), 0);
  return self->overflow;
}

/**
 * tw_histogram_format_value:
 *
 * Returns: (transfer full): @value with the histogram's unit; nanosecond values get
 *   the unit that keeps 3–4 significant digits (ns, µs, ms, s)
 */
char *
tw_histogram_format_value (TwHistogram *self,
                           double       value)
{
  double a = fabs (value);

  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NULL);

  if (isnan (value))
    return g_strdup ("-");
  if (g_strcmp0 (self->unit, "ns") != 0)
    return g_strdup_printf ("%.6g%s%s", value, self->unit[0] ? " " : "", self->unit);
  if (a >= 1e9)
    return g_strdup_printf ("%.4g s", value / 1e9);
  if (a >= 1e6)
    return g_strdup_printf ("%.4g ms", value / 1e6);
  if (a >= 1e3)
    return g_strdup_printf ("%.4g µs", value / 1e3);
  return g_strdup_printf ("%.4g ns", value);
}

/* Right-aligns @label in @width characters (not bytes: "µs" is two bytes). */
static void
append_padded (GString    *out,
               const char *label,
               guint       width)
{
  glong chars = g_utf8_strlen (label, -1);

  for (glong i = chars; i < (glong) width; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, label);
}

static void
append_line (GString    *out,
             const char *label,
             guint64     count,
             guint64     top,
             guint       bar_width)
{
  guint len = top ? (guint) ((count * (guint64) bar_width + top - 1) / top) : 0;

  append_padded (out, label, 26);
  g_string_append (out, " |");
  for (guint i = 0; i < bar_width; i++)
    g_string_append_c (out, i < len ? '#' : ' ');
  g_string_append_printf (out, " %" G_GUINT64_FORMAT "\n", count);
}

/**
 * tw_histogram_format_text:
 * @bar_width: characters of the longest bar
 *
 * The text-mode display (after GRTMon's, Riegel 2005 §3.5): a statistics header (count,
 * min, mean, max, p50, p90, p99, p99.9), then one line per bin from the first to the
 * last non-empty one: range, a bar scaled to the fullest bin, count; underflow and
 * overflow lines when they hold values.
 *
 * Returns: (transfer full): the text, lines ending in "\n"
 */
char *
tw_histogram_format_text (TwHistogram *self,
                          guint        bar_width)
{
  GString *out;
  guint first = G_MAXUINT, last = 0;
  guint64 top = MAX (self->underflow, self->overflow);
  static const double pcts[] = { 50, 90, 99, 99.9 };
  static const char *const pct_names[] = { "p50", "p90", "p99", "p99.9" };

  g_return_val_if_fail (TW_IS_HISTOGRAM (self), NULL);

  out = g_string_new (NULL);
  {
    g_autofree char *mn = tw_histogram_format_value (self, tw_histogram_get_min (self));
    g_autofree char *mean = tw_histogram_format_value (self, tw_histogram_get_mean (self));
    g_autofree char *mx = tw_histogram_format_value (self, tw_histogram_get_max (self));

    g_string_append_printf (out, "count %" G_GUINT64_FORMAT "  min %s  mean %s  max %s\n",
                            tw_histogram_get_count (self), mn, mean, mx);
  }
  for (guint p = 0; p < G_N_ELEMENTS (pcts); p++)
    {
      g_autofree char *v = tw_histogram_format_value (self,
                                                      tw_histogram_get_percentile (self, pcts[p]));

      g_string_append_printf (out, "%s%s %s", p ? "  " : "", pct_names[p], v);
    }
  g_string_append_c (out, '\n');

  for (guint b = 0; b < self->n_bins; b++)
    if (self->bins[b] > 0)
      {
        first = MIN (first, b);
        last = b;
        top = MAX (top, self->bins[b]);
      }

  if (self->underflow > 0)
    {
      double lo;
      g_autofree char *edge = NULL;
      g_autofree char *label = NULL;

      tw_histogram_get_range (self, &lo, NULL);
      edge = self->has_range ? tw_histogram_format_value (self, lo) : g_strdup ("range");
      label = g_strdup_printf ("< %s", edge);
      append_line (out, label, self->underflow, top, bar_width);
    }
  for (guint b = first; first != G_MAXUINT && b <= last; b++)
    {
      double lo, hi;
      guint64 count = tw_histogram_get_bin (self, b, &lo, &hi);
      g_autofree char *l = tw_histogram_format_value (self, lo);
      g_autofree char *h = tw_histogram_format_value (self, hi);
      gboolean closed = !self->automatic && b == self->n_bins - 1;
      g_autoptr(GString) label = g_string_new ("[");

      append_padded (label, l, 10);
      g_string_append (label, ", ");
      append_padded (label, h, 10);
      g_string_append_c (label, closed ? ']' : ')');
      append_line (out, label->str, count, top, bar_width);
    }
  if (self->overflow > 0)
    {
      double hi;
      g_autofree char *edge = NULL;
      g_autofree char *label = NULL;

      tw_histogram_get_range (self, NULL, &hi);
      edge = self->has_range ? tw_histogram_format_value (self, hi) : g_strdup ("range");
      label = g_strdup_printf ("> %s", edge);
      append_line (out, label, self->overflow, top, bar_width);
    }
  return g_string_free (out, FALSE);
}
