/* tw-extreme-value.h: how sure is a worst case: an extreme-value tail fitted to lengths
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * TwTailFit:
 *
 * Measurement-based probabilistic timing analysis in its simplest form: the lengths, in
 * the order they were measured, are cut into blocks of @block_size; a Gumbel
 * distribution is fitted to the blocks' maxima (probability-weighted moments); the value
 * a single measurement exceeds with a given probability follows from it. An estimate,
 * worth what its checks say: @fit_p_value (Kolmogorov–Smirnov of the maxima against the
 * fitted distribution) and @independence_p_value (Wald–Wolfowitz runs above and below
 * the median: the method assumes measurements independent of each other).
 */
typedef struct {
  guint  block_size;
  guint  n_blocks;
  double location;              /* μ of the Gumbel distribution of block maxima, ns */
  double scale;                 /* β > 0, ns */
  double observed_max;          /* ns */
  double fit_p_value;
  double independence_p_value;
} TwTailFit;

#define TW_TAIL_FIT_MIN_BLOCKS 20

typedef enum {
  TW_TAIL_FIT_ERROR_TOO_FEW,     /* fewer than TW_TAIL_FIT_MIN_BLOCKS blocks */
  TW_TAIL_FIT_ERROR_DEGENERATE,  /* every block has the same maximum */
} TwTailFitError;

#define TW_TAIL_FIT_ERROR (tw_tail_fit_error_quark ())
GQuark   tw_tail_fit_error_quark   (void);

gboolean tw_tail_fit_compute       (const double  *lengths,
                                    gsize          n_lengths,
                                    guint          block_size,
                                    TwTailFit     *fit,
                                    GError       **error);
double   tw_tail_fit_exceeded_with (const TwTailFit *fit,
                                    double           probability);

G_END_DECLS
