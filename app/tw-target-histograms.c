/* tw-target-histograms.c: the latest histogram of each evaluation a target's monitor runs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tracewb-cli monitor --lttng --metric/--automaton/--plugin` on a target sends its
 * evaluation's histogram every second while it changes (`tracewb:histogram`); the
 * LTTng decoding stores each snapshot as a row of `histogram:<evaluation>` (count, min,
 * max, mean, low, width, bins as text, and the target's hostname; arg: the monitor's pid).
 * One histogram per target, monitor and evaluation: two targets' monitors may share a
 * pid (pid namespaces, or chance), and their results never mix. This section of the Sensors tab shows the
 * newest row of each evaluation as the histogram views draw theirs (TwHistogramPainter
 * on a TwHistogramSnapshot made from the bins): what the target computed, not a
 * histogram rebuilt here from its measurements. Riegel, *A Generalized Approach to
 * Runtime Monitoring for Real-Time Systems*, §3.5: the evaluation runs where the data
 * is, and only its result crosses the network.
 *
 * The store is read without a lock (one writer, readers see published rows: see
 * tw-live-session.c); each refresh reads only the rows stored since the last one.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tw-target-histograms.h"

#define PREFIX     "histogram:"
#define PLOT_W     360
#define PLOT_H     180

typedef struct {
  char                *evaluation;
  const char          *host;         /* the target's hostname (interned), "" if unknown */
  guint32              monitor;      /* the pid of the target's monitor that runs it */
  guint64              time;         /* of the snapshot shown */
  TwHistogramSnapshot *snapshot;
  char                *summary;
  GtkWidget           *card;
  GtkWidget           *title;
  GtkWidget           *summary_label;
  GtkWidget           *plot;
  TwTargetHistograms  *owner;
} Evaluation;

struct _TwTargetHistograms
{
  GtkWidget           parent_instance;

  GtkWidget          *box;
  GtkWidget          *cards;
  TwHistogramPainter *painter;
  TwTrace            *trace;
  guint64             scanned;       /* rows read so far */
  GArray             *is_snapshot;   /* gboolean by type id, for the types seen so far */
  guint               n_snapshot_types;
  GHashTable         *slots;         /* "type/monitor/host" → index in @evaluations + 1 */
  GPtrArray          *evaluations;   /* Evaluation, in the order they appeared */
};

G_DEFINE_FINAL_TYPE (TwTargetHistograms, tw_target_histograms, GTK_TYPE_WIDGET)

static void
evaluation_free (gpointer data)
{
  Evaluation *e = data;

  g_free (e->evaluation);
  g_free (e->summary);
  tw_histogram_snapshot_free (e->snapshot);
  g_free (e);
}

static void
draw_plot (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        data)
{
  Evaluation *e = data;
  TwPalette palette;

  tw_palette_init_from_widget (&palette, GTK_WIDGET (area));
  tw_histogram_painter_draw (e->owner->painter, cr, e->snapshot, width, height, &palette);
}

/* "tA: <evaluation>", as the timeline and the Sensors rows name a target's tasks; the
 * monitor's pid when the trace did not name its target */
static void
set_title (Evaluation *e)
{
  g_autofree char *text = NULL, *tooltip = NULL;

  if (e->host[0])
    {
      text = g_strdup_printf (_("%s: %s"), e->host, e->evaluation);
      tooltip = g_strdup_printf (_("%s on %s (monitor %u)"), e->evaluation, e->host, e->monitor);
    }
  else
    text = g_strdup_printf (_("%s — monitor %u"), e->evaluation, e->monitor);
  gtk_label_set_text (GTK_LABEL (e->title), text);
  gtk_widget_set_tooltip_text (e->title, tooltip ? tooltip : text);
}

static Evaluation *
add_evaluation (TwTargetHistograms *self,
                const char         *name,
                const char         *host,
                guint32             monitor)
{
  Evaluation *e = g_new0 (Evaluation, 1);

  e->owner = self;
  e->host = host;
  e->monitor = monitor;
  e->evaluation = g_strdup (name);
  e->card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  e->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (e->title), 0);
  /* evaluation names are long (a metric with its two events): wrapped, never cut */
  gtk_label_set_wrap (GTK_LABEL (e->title), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (e->title), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (e->title), 40);
  gtk_widget_set_size_request (e->title, PLOT_W, -1);
  gtk_widget_add_css_class (e->title, "heading");
  set_title (e);
  e->summary_label = gtk_label_new ("");
  gtk_label_set_xalign (GTK_LABEL (e->summary_label), 0);
  gtk_widget_add_css_class (e->summary_label, "dim-label");
  e->plot = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (e->plot), PLOT_W);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (e->plot), PLOT_H);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (e->plot), draw_plot, e, NULL);
  gtk_box_append (GTK_BOX (e->card), e->title);
  gtk_box_append (GTK_BOX (e->card), e->summary_label);
  gtk_box_append (GTK_BOX (e->card), e->plot);
  gtk_box_append (GTK_BOX (self->cards), e->card);
  g_ptr_array_add (self->evaluations, e);
  gtk_widget_set_visible (self->box, TRUE);
  return e;
}

/* Notes which of the types added since the last call are snapshot types.
 *
 * Returns: whether the store has any: a local session has none, and then no row is read */
static gboolean
classify_types (TwTargetHistograms *self)
{
  guint n_types = tw_trace_get_n_event_types (self->trace);

  for (guint t = self->is_snapshot->len; t < n_types; t++)
    {
      const TwEventType *info = tw_trace_get_event_type (self->trace, t);
      gboolean snapshot = info && g_str_has_prefix (info->name, PREFIX)
                          && tw_event_type_lookup_field (info, "bins") >= 0;

      g_array_append_val (self->is_snapshot, snapshot);
      self->n_snapshot_types += snapshot;
    }
  return self->n_snapshot_types > 0;
}

/* The target a snapshot row names ("" when its trace did not say), interned. */
static const char *
host_of_snapshot (TwTrace       *trace,
                  const TwEvent *event)
{
  TwValue v;
  const char *host = tw_trace_get_event_field (trace, event, "host", &v) ? tw_trace_get_string (trace, v.str)
                                                                       : NULL;

  return g_intern_string (host ? host : "");
}

/* Which evaluation a snapshot row is: one per target, monitor (its pid, the row's arg)
 * and evaluation name, so that two targets whose monitors share a pid stay apart. */
static guint
slot_of_snapshot (TwTargetHistograms *self,
                  const TwEvent      *event)
{
  const char *host = host_of_snapshot (self->trace, event);
  g_autofree char *key = g_strdup_printf ("%u/%u/%s", event->type, event->arg, host);
  gpointer found = g_hash_table_lookup (self->slots, key);

  if (found == NULL)
    {
      add_evaluation (self, tw_trace_get_event_type (self->trace, event->type)->name + strlen (PREFIX), host,
                      event->arg);
      found = GUINT_TO_POINTER (self->evaluations->len);
      g_hash_table_insert (self->slots, g_steal_pointer (&key), found);
    }
  return GPOINTER_TO_UINT (found) - 1;
}

static guint64
field_u64 (TwTrace       *trace,
           const TwEvent *event,
           const char    *name)
{
  TwValue v;

  return tw_trace_get_event_field (trace, event, name, &v) ? v.u : 0;
}

static double
field_f64 (TwTrace       *trace,
           const TwEvent *event,
           const char    *name)
{
  TwValue v;

  return tw_trace_get_event_field (trace, event, name, &v) ? v.f : NAN;
}

/* The snapshot in @event becomes what @e shows. */
static void
take_snapshot (TwTargetHistograms *self,
               Evaluation         *e,
               const TwEvent      *event)
{
  g_autoptr(GArray) bins = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *min = NULL, *max = NULL, *mean = NULL, *count = NULL;
  const char *text = "";
  TwValue v;

  if (tw_trace_get_event_field (self->trace, event, "bins", &v))
    text = tw_trace_get_string (self->trace, v.str);
  /* "n n n …": untrusted as any decoded field, so parsed with care */
  for (const char *p = text ? text : ""; *p;)
    {
      char *end = NULL;
      guint64 n = g_ascii_strtoull (p, &end, 10);

      if (end == p)
        break;
      g_array_append_val (bins, n);
      p = end;
      while (*p == ' ')
        p++;
    }
  tw_histogram_snapshot_free (e->snapshot);
  e->snapshot = tw_histogram_snapshot_new_from_bins ((const guint64 *) bins->data, bins->len,
                                                     field_f64 (self->trace, event, "low"),
                                                     field_f64 (self->trace, event, "width"),
                                                     field_u64 (self->trace, event, "count"),
                                                     field_f64 (self->trace, event, "min"),
                                                     field_f64 (self->trace, event, "max"),
                                                     field_f64 (self->trace, event, "mean"), "ns");
  e->time = event->time;
  min = tw_histogram_painter_format_value (e->snapshot, e->snapshot->min);
  max = tw_histogram_painter_format_value (e->snapshot, e->snapshot->max);
  mean = tw_histogram_painter_format_value (e->snapshot, e->snapshot->mean);
  g_free (e->summary);
  /* the count formatted apart: no 64-bit format in a translated message */
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, e->snapshot->count);
  e->summary = g_strdup_printf (_("%s values in %u bins: min %s, mean %s, max %s"),
                                count, bins->len, min, mean, max);
  gtk_label_set_text (GTK_LABEL (e->summary_label), e->summary);
  gtk_widget_queue_draw (e->plot);
}

/**
 * tw_target_histograms_refresh:
 *
 * Reads the rows stored since the last call and shows each evaluation's newest
 * snapshot.
 */
void
tw_target_histograms_refresh (TwTargetHistograms *self)
{
  g_autoptr(GPtrArray) newest = NULL;
  guint64 n;

  g_return_if_fail (TW_IS_TARGET_HISTOGRAMS (self));
  if (self->trace == NULL)
    return;
  /* the rows first: their types are published before them */
  n = tw_trace_get_n_events (self->trace);
  if (n == self->scanned)
    return;
  if (!classify_types (self))
    {
      self->scanned = n;
      return;
    }
  /* only the newest row of each evaluation is drawn; the type column is read chunk by
   * chunk, the rest of a row only for snapshots (the live window refreshes this at up
   * to 30 Hz while the store takes hundreds of thousands of rows a second) */
  newest = g_ptr_array_new_with_free_func (g_free);
  for (guint64 i = self->scanned; i < n;)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, (guint) (i >> TW_CHUNK_SHIFT));
      guint64 base = i & ~(guint64) TW_CHUNK_MASK;
      guint end = (guint) MIN ((guint64) TW_CHUNK_SIZE, n - base);

      for (guint j = (guint) (i - base); j < end; j++)
        {
          guint16 type = chunk->type[j];
          TwEvent event;
          guint slot;

          if (type >= self->is_snapshot->len || !g_array_index (self->is_snapshot, gboolean, type))
            continue;
          tw_trace_get_event (self->trace, base + j, &event);
          slot = slot_of_snapshot (self, &event);
          if (slot >= newest->len)
            g_ptr_array_set_size (newest, slot + 1);
          if (newest->pdata[slot] == NULL)
            newest->pdata[slot] = g_memdup2 (&event, sizeof event);
          else if (event.time >= ((TwEvent *) newest->pdata[slot])->time)
            *(TwEvent *) newest->pdata[slot] = event;
        }
      i = base + end;
    }
  self->scanned = n;
  for (guint slot = 0; slot < newest->len; slot++)
    {
      Evaluation *e = g_ptr_array_index (self->evaluations, slot);
      const TwEvent *event = newest->pdata[slot];

      /* a late row (stored after a newer one) does not replace what is shown */
      if (event && (e->snapshot == NULL || event->time >= e->time))
        take_snapshot (self, e, event);
    }
}

/**
 * tw_target_histograms_set_trace:
 * @trace: (nullable): the live session's store
 */
void
tw_target_histograms_set_trace (TwTargetHistograms *self,
                                TwTrace            *trace)
{
  GtkWidget *child;

  g_return_if_fail (TW_IS_TARGET_HISTOGRAMS (self));
  while ((child = gtk_widget_get_first_child (self->cards)))
    gtk_box_remove (GTK_BOX (self->cards), child);
  g_ptr_array_set_size (self->evaluations, 0);
  g_array_set_size (self->is_snapshot, 0);
  self->n_snapshot_types = 0;
  g_hash_table_remove_all (self->slots);
  self->scanned = 0;
  g_set_object (&self->trace, trace);
  gtk_widget_set_visible (self->box, FALSE);
  tw_target_histograms_refresh (self);
}

guint
tw_target_histograms_get_n (TwTargetHistograms *self)
{
  g_return_val_if_fail (TW_IS_TARGET_HISTOGRAMS (self), 0);
  return self->evaluations->len;
}

/**
 * tw_target_histograms_get_snapshot:
 * @evaluation: (out) (optional): its name, as the target's monitor calls it
 *
 * Returns: (transfer none) (nullable): the snapshot shown for evaluation @index
 */
const TwHistogramSnapshot *
tw_target_histograms_get_snapshot (TwTargetHistograms  *self,
                                   guint                index,
                                   const char         **evaluation)
{
  Evaluation *e;

  g_return_val_if_fail (TW_IS_TARGET_HISTOGRAMS (self), NULL);
  g_return_val_if_fail (index < self->evaluations->len, NULL);
  e = g_ptr_array_index (self->evaluations, index);
  if (evaluation)
    *evaluation = e->evaluation;
  return e->snapshot;
}

/**
 * tw_target_histograms_get_title:
 *
 * Returns: the title above evaluation @index's histogram
 */
const char *
tw_target_histograms_get_title (TwTargetHistograms *self,
                                guint               index)
{
  g_return_val_if_fail (TW_IS_TARGET_HISTOGRAMS (self), NULL);
  g_return_val_if_fail (index < self->evaluations->len, NULL);
  return gtk_label_get_text (GTK_LABEL (((Evaluation *) g_ptr_array_index (self->evaluations, index))->title));
}

/**
 * tw_target_histograms_get_summary:
 *
 * Returns: the line of statistics shown above evaluation @index's histogram
 */
const char *
tw_target_histograms_get_summary (TwTargetHistograms *self,
                                  guint               index)
{
  g_return_val_if_fail (TW_IS_TARGET_HISTOGRAMS (self), NULL);
  g_return_val_if_fail (index < self->evaluations->len, NULL);
  return gtk_label_get_text (GTK_LABEL (((Evaluation *) g_ptr_array_index (self->evaluations, index))->summary_label));
}

static void
tw_target_histograms_dispose (GObject *object)
{
  TwTargetHistograms *self = TW_TARGET_HISTOGRAMS (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->trace);
  g_clear_object (&self->painter);
  G_OBJECT_CLASS (tw_target_histograms_parent_class)->dispose (object);
}

static void
tw_target_histograms_finalize (GObject *object)
{
  TwTargetHistograms *self = TW_TARGET_HISTOGRAMS (object);

  g_ptr_array_unref (self->evaluations);
  g_array_unref (self->is_snapshot);
  g_hash_table_unref (self->slots);
  G_OBJECT_CLASS (tw_target_histograms_parent_class)->finalize (object);
}

static void
tw_target_histograms_class_init (TwTargetHistogramsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_target_histograms_dispose;
  object_class->finalize = tw_target_histograms_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
tw_target_histograms_init (TwTargetHistograms *self)
{
  GtkWidget *heading, *scroller;

  self->painter = tw_histogram_painter_new ();
  self->evaluations = g_ptr_array_new_with_free_func (evaluation_free);
  self->is_snapshot = g_array_new (FALSE, FALSE, sizeof (gboolean));
  self->slots = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  heading = gtk_label_new (_("Evaluations on the targets (their latest histograms)"));
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  self->cards = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->cards);
  gtk_box_append (GTK_BOX (self->box), heading);
  gtk_box_append (GTK_BOX (self->box), scroller);
  /* nothing to show until a target sends a histogram */
  gtk_widget_set_visible (self->box, FALSE);
}

/**
 * tw_target_histograms_new:
 *
 * Returns: (transfer full): an empty section, hidden until a snapshot arrives
 */
GtkWidget *
tw_target_histograms_new (void)
{
  return g_object_new (TW_TYPE_TARGET_HISTOGRAMS, NULL);
}
