/* tw-sensors-pane.c: the sources of a live session: sensors, kernel buffer, samplers, with their counts
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A grid (tw-sensors-pane.ui), one row per monitor source in the order the monitor found them (indexes never
 * change, so rows are only ever appended); the window refreshes it on the session's
 * ::updated. A handful of sources at 30 Hz: labels are cheaper than a list model.
 *
 * A sensor on an LTTng target (read there by `tracewb-cli monitor --lttng`) gets a row
 * of its own like a local sensor's, its task named with its host: the counts are what
 * the target's monitor counted at the ring (its counts events), not what crossed the
 * network, so they read as a local sensor's would on that machine. Their rows follow
 * in the order the sensors appeared, found again by host, monitor and name.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <tw-widgets.h>

#include "tw-recorded-sensors.h"
#include "tw-sensors-pane.h"
#include "tw-stream-check.h"
#include "tw-target-histograms.h"


typedef struct {
  GtkWidget *check;
  GtkWidget *labels[TW_SENSORS_N_COLUMNS];   /* [ATTACHED] is NULL: the check */
  gulong     toggled_handler;
  gboolean   remote;                          /* a target's sensor, not a monitor source */
  /* a target's sensor: its monitor's counts events seen so far, and when the newest
   * was first shown (monotonic µs) */
  guint64    n_counts;
  gint64     counts_shown_us;
} Row;

struct _TwSensorsPane
{
  GtkWidget      parent_instance;

  TwLiveSession *session;
  GtkWidget     *scroller;      /* the template's child: unparented at dispose */
  GtkWidget     *box;
  GtkWidget     *dir_label;
  GtkWidget     *notes_label;
  GtkWidget     *error_label;
  GtkWidget     *grid;
  GtkWidget     *histograms;    /* TwTargetHistograms, below the grid */
  GPtrArray     *rows;          /* Row */
  guint          n_source_rows;
  GHashTable    *remote_rows;   /* "host/monitor/task@sensor" → index in @rows + 1 */
  GCancellable  *reading;       /* a recording's sensors being counted and checked */
};

G_DEFINE_FINAL_TYPE (TwSensorsPane, tw_sensors_pane, GTK_TYPE_WIDGET)

static void
toggled_cb (GtkCheckButton *check,
            TwSensorsPane  *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "tw-source"));
  g_autoptr (GError) error = NULL;

  if (self->session == NULL)
    return;
  /* an empty label would still take a line between the directory and the table */
  if (!tw_live_session_set_source_attached (self->session, index,
                                            gtk_check_button_get_active (check), &error))
    gtk_label_set_text (GTK_LABEL (self->error_label), error->message);
  gtk_widget_set_visible (self->error_label, error != NULL);
  tw_sensors_pane_refresh (self);
}

/* Text to copy: selectable with the mouse, but no stop of the keyboard focus. A tab
 * opened while the focus was in another tab gets it on its first stop, and a selectable
 * label taking it comes up all selected. */
static void
make_copyable (GtkWidget *label)
{
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
}

/* A row below the others: for monitor source @index, or (@remote) a target's sensor. */
static Row *
add_row (TwSensorsPane *self,
         gboolean       remote,
         guint          index)
{
  Row *row = g_new0 (Row, 1);
  int y = (int) self->rows->len + 1;

  row->remote = remote;
  row->check = gtk_check_button_new ();
  if (remote)
    {
      /* the target's monitor reads it; nothing here can stop that */
      gtk_widget_set_sensitive (row->check, FALSE);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (row->check), TRUE);
      gtk_widget_set_tooltip_text (row->check, _("Read on the target by its monitor"));
    }
  else
    {
      gtk_widget_set_tooltip_text (row->check, _("Read this sensor (detached sensors are not read)"));
      g_object_set_data (G_OBJECT (row->check), "tw-source", GUINT_TO_POINTER (index));
      row->toggled_handler = g_signal_connect (row->check, "toggled", G_CALLBACK (toggled_cb), self);
    }
  gtk_grid_attach (GTK_GRID (self->grid), row->check, 0, y, 1, 1);
  for (int c = 1; c < TW_SENSORS_N_COLUMNS; c++)
    {
      GtkWidget *label = gtk_label_new ("");

      gtk_label_set_xalign (GTK_LABEL (label),
                            c == TW_SENSORS_COLUMN_RATE || c == TW_SENSORS_COLUMN_RECEIVED
                            || c == TW_SENSORS_COLUMN_MISSED || c == TW_SENSORS_COLUMN_TORN ? 1.0 : 0.0);
      if (c == TW_SENSORS_COLUMN_SCHEMA || c == TW_SENSORS_COLUMN_STREAM)
        {
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
          /* a target sensor's stream check reads whole: "3 lost, 1 duplicate, 1 restart" */
          gtk_label_set_max_width_chars (GTK_LABEL (label), c == TW_SENSORS_COLUMN_STREAM ? 40 : 28);
        }
      /* the last column takes the room left and wraps: why a source failed or a
       * connection ended is read whole, not cut at 28 characters */
      if (c == TW_SENSORS_COLUMN_STATE)
        {
          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
          gtk_widget_set_hexpand (label, TRUE);
        }
      if (c == TW_SENSORS_COLUMN_SCHEMA)
        make_copyable (label);
      row->labels[c] = label;
      gtk_grid_attach (GTK_GRID (self->grid), label, c, y, 1, 1);
    }
  g_ptr_array_add (self->rows, row);
  return row;
}

static void
set_text (GtkWidget  *label,
          const char *text)
{
  /* skipping equal texts keeps the 30 Hz refresh from relayouting the grid */
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
}

static void
set_tooltip (GtkWidget  *widget,
             const char *text)
{
  /* Setting a tooltip asks the display where the pointer is (an X round trip, a
   * millisecond or more on a busy machine); three per row at the refresh rate held the
   * live window's frames back. Equal texts are skipped (GTK stores "" as no tooltip). */
  const char *old = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (old, text && *text ? text : NULL) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

/* Appends @message, its %s the count @n, to the list in @list (after @separator). */
static void
append_counted (GString    *list,
                const char *separator,
                const char *message,
                guint64     n)
{
  g_autoptr(GString) item = g_string_new (message);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);

  /* the count formatted apart: no 64-bit format in a translated message, and a
   * translated message is no format string */
  g_string_replace (item, "%s", count, 1);
  if (list->len)
    g_string_append (list, separator);
  g_string_append (list, item->str);
}

/* Appends the count @n, said short (@brief) to @text and whole (@whole) to @why, each a
 * message with one %s for the count. Nothing when @n is 0. */
static void
append_count (GString    *text,
              GString    *why,
              guint64     n,
              const char *brief,
              const char *whole)
{
  if (n == 0)
    return;
  append_counted (text, ", ", brief, n);
  append_counted (why, "; ", whole, n);
}

/* A count for ngettext(), which takes an unsigned long. */
static gulong
plural (guint64 n)
{
  return (gulong) MIN (n, G_MAXULONG);
}

/* The check of a declared stream, as a local sensor's Stream column says it; with the
 * count of @violations when known (a recording's, checked whole). */
static void
append_declared (GString            *text,
                 GString            *why,
                 TwLiveStreamStatus  status,
                 const char         *detail,
                 guint64             violations)
{
  switch (status)
    {
    case TW_LIVE_STREAM_OK:
      g_string_append (text, _("OK"));
      g_string_append (why, _("its arrivals fit the stream it declared"));
      break;
    case TW_LIVE_STREAM_BROKEN:
      g_string_append_printf (text, _("broken: %s"), detail);
      g_string_append_printf (why, _("an arrival broke the stream it declared: %s"), detail);
      if (violations)
        {
          const char *counted = ngettext ("(%s violation)", "(%s violations)", plural (violations));

          /* in the tooltip too: a narrow column cuts the text's end */
          append_counted (text, " ", counted, violations);
          append_counted (why, " ", counted, violations);
        }
      break;
    case TW_LIVE_STREAM_INVALID:
      g_string_append_printf (text, _("invalid: %s"), detail);
      g_string_append_printf (why, _("the stream it declared is not valid: %s"), detail);
      break;
    case TW_LIVE_STREAM_NONE:
    default:
      break;
    }
}

/* What a sensor declared, said in @why: "T 10 ms, D 0 ns, …". */
static void
append_declared_stream (GString                   *why,
                        const TwStreamDeclaration *declared)
{
  const double values[] = { declared->period_ns, declared->min_distance_ns, declared->earliness_ns,
                            declared->monitor_period_ns, declared->deadline_ns };
  const char *const names[] = { "T", "D", "τ", "T_M", "d" };

  g_string_append_printf (why, " (");
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *value = tw_time_text_format_duration ((guint64) llround (values[i]));

      g_string_append_printf (why, "%s%s %s", i ? ", " : "", names[i], value);
    }
  g_string_append_c (why, ')');
}

/* The stream check of a target's sensor (docs/remote.md): its arrivals against the
 * stream it declared, if it did, and what its monitor sent against what arrived; short
 * for the column ("OK, 3 lost, 1 duplicate, 1 restart"), and said whole in @tooltip. */
static char *
describe_remote_stream (const TwLttngRemoteSensor  *rs,
                        TwLiveStreamStatus          status,
                        const char                 *detail,
                        char                      **tooltip)
{
  GString *text = g_string_new (NULL), *why = g_string_new (NULL);

  TwStreamDeclaration declared = tw_stream_declaration_of_target (rs);

  append_declared (text, why, status, detail, 0);
  if (status != TW_LIVE_STREAM_NONE)
    append_declared_stream (why, &declared);
  append_count (text, why, rs->lost, ngettext ("%s lost", "%s lost", plural (rs->lost)),
                ngettext ("%s element the monitor sent never arrived (LTTng discarded it)",
                          "%s elements the monitor sent never arrived (LTTng discarded them)", plural (rs->lost)));
  append_count (text, why, rs->duplicates, ngettext ("%s duplicate", "%s duplicates", plural (rs->duplicates)),
                ngettext ("%s element arrived twice (stored once)", "%s elements arrived twice (stored once)",
                          plural (rs->duplicates)));
  append_count (text, why, rs->restarts, ngettext ("%s restart", "%s restarts", plural (rs->restarts)),
                ngettext ("its positions went back %s time: its monitor started over",
                          "its positions went back %s times: its monitor started over", plural (rs->restarts)));
  if (rs->lost + rs->duplicates + rs->restarts == 0)
    {
      if (status == TW_LIVE_STREAM_NONE)
        g_string_append (text, _("continuous"));
      else
        g_string_append (why, "; ");
      g_string_append (why, _("every element its monitor sent arrived, once, in order"));
    }
  *tooltip = g_string_free (why, FALSE);
  return g_string_free (text, FALSE);
}

/* How long the monitor of @rs (shown in @row) has been silent, in s: its counts come
 * every second while it runs. Timed from when the row first showed its newest counts,
 * not when they reached the process: a window that lags (a loaded machine draws a burst
 * late) still shows the monitor's last rate before saying it is gone. */
static double
remote_silence (Row                       *row,
                const TwLttngRemoteSensor *rs)
{
  gint64 now = g_get_monotonic_time ();

  if (rs->n_counts != row->n_counts || row->counts_shown_us == 0)
    {
      row->n_counts = rs->n_counts;
      row->counts_shown_us = now;
    }
  return (double) (now - row->counts_shown_us) / G_USEC_PER_SEC;
}

/* Where a target's sensor is read, and whether its monitor is still heard. */
static char *
describe_remote_state (const TwLttngRemoteSensor *rs,
                       double                     silent_s)
{
  if (!rs->connected)
    return g_strdup_printf (_("on %s (monitor %u): not connected"), rs->host, rs->monitor);
  if (!rs->have_counts)
    return g_strdup_printf (_("on %s, waiting for its monitor's counts"), rs->host);
  if (silent_s > TW_LTTNG_SENSOR_QUIET_S)
    return g_strdup_printf (_("on %s (monitor %u): gone (silent %.0f s)"), rs->host, rs->monitor, silent_s);
  return g_strdup_printf (_("on %s (monitor %u)"), rs->host, rs->monitor);
}

static void
set_error (GtkWidget *label,
           gboolean   error)
{
  if (error)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
}

/* The sensors of the session's LTTng targets, as their monitors there count them. Missed
 * is what the workbench misses: the monitor's misses at the ring and the elements lost
 * on the way. */
static void
refresh_remote (TwSensorsPane *self)
{
  guint n = tw_live_session_get_n_remote_sensors (self->session);

  for (guint i = 0; i < n; i++)
    {
      TwLttngRemoteSensor rs;
      g_autofree char *key = NULL, *task = NULL, *rate = NULL, *received = NULL;
      g_autofree char *missed = NULL, *missed_why = NULL, *torn = NULL, *state = NULL, *stream = NULL;
      g_autofree char *at_target = NULL, *in_transit = NULL, *stream_why = NULL;
      const char *detail = NULL;
      TwLiveStreamStatus declared;
      gpointer found;
      double silent_s;
      gboolean heard;
      Row *row;

      if (!tw_live_session_get_remote_sensor (self->session, i, &rs))
        break;
      key = g_strdup_printf ("%s/%u/%s@%s", rs.host, rs.monitor, rs.task, rs.sensor);
      found = g_hash_table_lookup (self->remote_rows, key);
      if (found)
        row = g_ptr_array_index (self->rows, GPOINTER_TO_UINT (found) - 1);
      else
        {
          row = add_row (self, TRUE, 0);
          g_hash_table_insert (self->remote_rows, g_steal_pointer (&key), GUINT_TO_POINTER (self->rows->len));
        }
      /* "tA: demo-rt-0", as the timeline names a target's tasks */
      task = g_strdup_printf ("%s: %s", rs.host, rs.task);
      /* a monitor that ended, or that cannot be heard, reads nothing: 0/s, as a local
       * sensor's whose writer is gone; its counts stay the last ones heard */
      silent_s = remote_silence (row, &rs);
      heard = rs.connected && !(rs.have_counts && silent_s > TW_LTTNG_SENSOR_QUIET_S);
      rate = g_strdup_printf ("%.0f/s", heard ? rs.rate : 0.0);
      /* until the monitor's first counts event: what arrived */
      received = g_strdup_printf ("%" G_GUINT64_FORMAT, rs.have_counts ? rs.counts.received : rs.decoded);
      missed = g_strdup_printf ("%" G_GUINT64_FORMAT, rs.counts.missed + rs.lost);
      at_target = g_strdup_printf ("%" G_GUINT64_FORMAT, rs.counts.missed);
      in_transit = g_strdup_printf ("%" G_GUINT64_FORMAT, rs.lost);
      missed_why = g_strdup_printf (_("%s missed at the target's ring, %s lost in transit"), at_target, in_transit);
      torn = g_strdup_printf ("%" G_GUINT64_FORMAT, rs.counts.inconsistent);
      declared = tw_live_session_get_remote_stream_status (self->session, i, &detail);
      stream = describe_remote_stream (&rs, declared, detail, &stream_why);
      state = describe_remote_state (&rs, silent_s);
      set_text (row->labels[TW_SENSORS_COLUMN_TASK], task);
      set_text (row->labels[TW_SENSORS_COLUMN_SENSOR], rs.sensor);
      set_text (row->labels[TW_SENSORS_COLUMN_SCHEMA], rs.schema);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_SCHEMA], rs.schema);
      set_text (row->labels[TW_SENSORS_COLUMN_RATE], rate);
      set_text (row->labels[TW_SENSORS_COLUMN_RECEIVED], received);
      set_text (row->labels[TW_SENSORS_COLUMN_MISSED], missed);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_MISSED], missed_why);
      set_text (row->labels[TW_SENSORS_COLUMN_TORN], torn);
      set_text (row->labels[TW_SENSORS_COLUMN_STREAM], stream);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_STREAM], stream_why);
      set_text (row->labels[TW_SENSORS_COLUMN_STATE], state);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_STATE], state);
      set_error (row->labels[TW_SENSORS_COLUMN_MISSED], rs.counts.missed + rs.lost > 0);
      set_error (row->labels[TW_SENSORS_COLUMN_STREAM], rs.lost + rs.duplicates > 0
                 || declared == TW_LIVE_STREAM_BROKEN || declared == TW_LIVE_STREAM_INVALID);
      /* as a local row: a monitor that ended is no fault, a lost connection is */
      set_error (row->labels[TW_SENSORS_COLUMN_STATE], !rs.connected);
    }
}

/**
 * tw_sensors_pane_refresh:
 *
 * Shows the session's sources as they are now.
 */
void
tw_sensors_pane_refresh (TwSensorsPane *self)
{
  guint n;

  g_return_if_fail (TW_IS_SENSORS_PANE (self));

  if (self->session == NULL)
    return;
  n = tw_live_session_get_n_sources (self->session);
  while (self->n_source_rows < n)
    add_row (self, FALSE, self->n_source_rows++);

  for (guint r = 0, i = 0; r < self->rows->len; r++)
    {
      Row *row = g_ptr_array_index (self->rows, r);
      TwMonitorSourceInfo info;
      const char *detail = NULL;
      TwLiveStreamStatus stream;
      g_autofree char *rate = NULL, *received = NULL, *missed = NULL, *stream_text = NULL;
      g_autofree char *connection = NULL;
      const char *state;
      g_autofree char *torn = NULL;
      gboolean is_sensor;

      if (row->remote)
        continue;
      tw_live_session_get_source_info (self->session, i, &info);
      is_sensor = info.sensor != NULL;
      g_signal_handler_block (row->check, row->toggled_handler);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (row->check),
                                   info.state == TW_MONITOR_SOURCE_ATTACHED && !info.detached);
      g_signal_handler_unblock (row->check, row->toggled_handler);
      gtk_widget_set_sensitive (row->check, is_sensor && info.state == TW_MONITOR_SOURCE_ATTACHED);

      rate = g_strdup_printf ("%.0f/s", tw_live_session_get_rate (self->session, i));
      received = g_strdup_printf ("%" G_GUINT64_FORMAT, info.counts.received);
      missed = g_strdup_printf ("%" G_GUINT64_FORMAT, info.counts.missed);
      torn = is_sensor ? g_strdup_printf ("%" G_GUINT64_FORMAT, info.counts.inconsistent) : g_strdup ("—");
      stream = tw_live_session_get_stream_status (self->session, i, &detail);
      switch (stream)
        {
        case TW_LIVE_STREAM_OK:      stream_text = g_strdup ("OK"); break;
        case TW_LIVE_STREAM_BROKEN:  stream_text = g_strdup_printf ("broken: %s", detail); break;
        case TW_LIVE_STREAM_INVALID: stream_text = g_strdup_printf ("invalid: %s", detail); break;
        case TW_LIVE_STREAM_NONE:
        default:                     stream_text = g_strdup ("—"); break;
        }
      switch (info.state)
        {
        case TW_MONITOR_SOURCE_ATTACHED: state = info.detached ? "detached" : "attached"; break;
        case TW_MONITOR_SOURCE_GONE:     state = "gone"; break;
        case TW_MONITOR_SOURCE_FAILED:
        default:                         state = info.error ? info.error : "failed"; break;
        }
      /* a remote target: where its connection stands, and why it last ended */
      if (info.state == TW_MONITOR_SOURCE_ATTACHED && info.connection != TW_LIVE_CONNECTION_LOCAL)
        state = connection = tw_sensors_pane_describe_connection (&info);

      set_text (row->labels[TW_SENSORS_COLUMN_TASK], is_sensor ? info.task : "—");
      set_text (row->labels[TW_SENSORS_COLUMN_SENSOR], is_sensor ? info.sensor : info.name);
      set_text (row->labels[TW_SENSORS_COLUMN_SCHEMA], is_sensor ? info.schema : info.kind);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_SCHEMA], info.schema ? info.schema : info.path);
      set_text (row->labels[TW_SENSORS_COLUMN_RATE], rate);
      set_text (row->labels[TW_SENSORS_COLUMN_RECEIVED], received);
      set_text (row->labels[TW_SENSORS_COLUMN_MISSED], missed);
      set_text (row->labels[TW_SENSORS_COLUMN_TORN], torn);
      set_text (row->labels[TW_SENSORS_COLUMN_STREAM], stream_text);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_STREAM], stream_text);
      set_text (row->labels[TW_SENSORS_COLUMN_STATE], state);
      set_tooltip (row->labels[TW_SENSORS_COLUMN_STATE], state);
      if (info.counts.missed > 0)
        gtk_widget_add_css_class (row->labels[TW_SENSORS_COLUMN_MISSED], "error");
      if (stream == TW_LIVE_STREAM_BROKEN || stream == TW_LIVE_STREAM_INVALID)
        gtk_widget_add_css_class (row->labels[TW_SENSORS_COLUMN_STREAM], "error");
      if (info.state == TW_MONITOR_SOURCE_FAILED
          || info.connection == TW_LIVE_CONNECTION_LOST || info.connection == TW_LIVE_CONNECTION_ENDED)
        gtk_widget_add_css_class (row->labels[TW_SENSORS_COLUMN_STATE], "error");
      else
        gtk_widget_remove_css_class (row->labels[TW_SENSORS_COLUMN_STATE], "error");
      i++;
    }
  refresh_remote (self);
  tw_target_histograms_refresh (TW_TARGET_HISTOGRAMS (self->histograms));
}

/**
 * tw_sensors_pane_describe_connection:
 *
 * Returns: (transfer full): a remote source's connection as the Sensors tab says it
 */
char *
tw_sensors_pane_describe_connection (const TwMonitorSourceInfo *info)
{
  const char *why = info->connection_error ? info->connection_error : "";

  switch (info->connection)
    {
    case TW_LIVE_CONNECTION_CONNECTING:
      return info->n_reconnects ? g_strdup_printf (_("reconnecting (attempt %u)"), info->n_reconnects)
                                : g_strdup (_("connecting"));
    case TW_LIVE_CONNECTION_CONNECTED:
      return info->n_reconnects ? g_strdup_printf (_("connected (reconnected %u×)"), info->n_reconnects)
                                : g_strdup (_("connected"));
    case TW_LIVE_CONNECTION_LOST:
      return g_strdup_printf (_("connection lost, retrying: %s"), why);
    case TW_LIVE_CONNECTION_ENDED:
      return g_strdup_printf (_("session ended, waiting for it again: %s"), why);
    case TW_LIVE_CONNECTION_LOCAL:
    default:
      return g_strdup ("attached");
    }
}

/* Forgets the rows shown, and stops counting a recording's sensors. */
static void
clear_rows (TwSensorsPane *self)
{
  if (self->reading)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);

      gtk_grid_remove (GTK_GRID (self->grid), row->check);
      for (int c = 1; c < TW_SENSORS_N_COLUMNS; c++)
        gtk_grid_remove (GTK_GRID (self->grid), row->labels[c]);
    }
  g_ptr_array_set_size (self->rows, 0);
  self->n_source_rows = 0;
  g_hash_table_remove_all (self->remote_rows);
}

/* A recorded sensor's declared stream checked over its elements, in the words of a
 * live sensor's Stream column. */
static char *
describe_recorded_stream (const TwRecordedSensor  *s,
                          char                   **tooltip)
{
  GString *text = g_string_new (NULL), *why = g_string_new (NULL);
  const char *detail = NULL;
  TwLiveStreamStatus status = tw_stream_check_get_status (&s->check, &detail);

  append_declared (text, why, status, detail, s->check.violations);
  if (status == TW_LIVE_STREAM_NONE)
    {
      g_string_append (text, _("none declared"));
      g_string_append (why, _("the sensor declared no stream"));
    }
  else
    append_declared_stream (why, &s->declared);
  if (s->check.restarts)
    {
      g_string_append (why, "; ");
      append_counted (why, "", ngettext ("checked again from the element after %s gap (missed elements)",
                                         "checked again from the element after each of %s gaps (missed elements)",
                                         plural (s->check.restarts)), s->check.restarts);
    }
  *tooltip = g_string_free (why, FALSE);
  return g_string_free (text, FALSE);
}

static void
add_recorded_row (TwSensorsPane          *self,
                  const TwRecordedSensor *s)
{
  Row *row = add_row (self, TRUE, 0);
  g_autofree char *task = s->host ? g_strdup_printf ("%s: %s", s->host, s->task) : g_strdup (s->task);
  double span_s = (double) (s->last_time - s->first_time) / 1e9;
  g_autofree char *rate = g_strdup_printf ("%.0f/s", span_s > 0 ? (double) (s->elements - 1) / span_s : 0.0);
  g_autofree char *elements = g_strdup_printf ("%" G_GUINT64_FORMAT, s->elements);
  g_autofree char *received = g_strdup_printf ("%" G_GUINT64_FORMAT, s->received);
  g_autofree char *received_why = NULL, *missed = g_strdup_printf ("%" G_GUINT64_FORMAT, s->missed);
  g_autofree char *torn = s->have_counts ? g_strdup_printf ("%" G_GUINT64_FORMAT, s->torn) : g_strdup ("—");
  g_autofree char *stream_why = NULL, *stream = describe_recorded_stream (s, &stream_why);
  g_autofree char *state = s->host ? g_strdup_printf (_("recorded on %s"), s->host) : g_strdup (_("recorded"));

  /* nothing to read or stop: a recording */
  gtk_widget_set_visible (row->check, FALSE);
  received_why = s->have_counts ? g_strdup_printf (_("%s elements recorded; its monitor received %s"), elements, received)
                                : g_strdup_printf (_("%s elements recorded"), elements);
  set_text (row->labels[TW_SENSORS_COLUMN_TASK], task);
  set_text (row->labels[TW_SENSORS_COLUMN_SENSOR], s->sensor);
  set_text (row->labels[TW_SENSORS_COLUMN_SCHEMA], s->fields);
  set_tooltip (row->labels[TW_SENSORS_COLUMN_SCHEMA], s->fields);
  set_text (row->labels[TW_SENSORS_COLUMN_RATE], rate);
  set_tooltip (row->labels[TW_SENSORS_COLUMN_RATE], _("Elements per second over the recording"));
  set_text (row->labels[TW_SENSORS_COLUMN_RECEIVED], elements);
  set_tooltip (row->labels[TW_SENSORS_COLUMN_RECEIVED], received_why);
  set_text (row->labels[TW_SENSORS_COLUMN_MISSED], missed);
  set_tooltip (row->labels[TW_SENSORS_COLUMN_MISSED], _("missed at the ring, as its monitor counted them"));
  set_text (row->labels[TW_SENSORS_COLUMN_TORN], torn);
  set_text (row->labels[TW_SENSORS_COLUMN_STREAM], stream);
  set_tooltip (row->labels[TW_SENSORS_COLUMN_STREAM], stream_why);
  set_text (row->labels[TW_SENSORS_COLUMN_STATE], state);
  set_error (row->labels[TW_SENSORS_COLUMN_MISSED], s->missed > 0);
  set_error (row->labels[TW_SENSORS_COLUMN_STREAM], s->check.violations > 0 || (s->check.declared && !s->check.valid));
}

static void
recorded_read_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      data)
{
  g_autoptr(TwSensorsPane) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sensors = tw_recorded_sensors_read_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->reading);
  gtk_widget_set_visible (self->notes_label, FALSE);
  for (guint i = 0; sensors && i < sensors->len; i++)
    add_recorded_row (self, g_ptr_array_index (sensors, i));
}

/**
 * tw_sensors_pane_set_recording:
 * @trace: (nullable): a recording (tw_recorded_sensors_present())
 *
 * Lists the sensors of @trace instead of a live session's: a row each with its counts as
 * recorded and its elements checked, in a thread, against the stream it declared.
 */
void
tw_sensors_pane_set_recording (TwSensorsPane *self,
                               TwTrace       *trace)
{
  g_return_if_fail (TW_IS_SENSORS_PANE (self));

  tw_sensors_pane_set_session (self, NULL);
  if (trace == NULL)
    return;
  /* nothing is read or stopped in a recording: no Read column; and its heading is a
   * sentence, not a path to copy */
  gtk_widget_set_visible (gtk_grid_get_child_at (GTK_GRID (self->grid), TW_SENSORS_COLUMN_ATTACHED, 0), FALSE);
  gtk_label_set_selectable (GTK_LABEL (self->dir_label), FALSE);
  gtk_label_set_text (GTK_LABEL (self->dir_label), _("Recorded sensors: their counts as recorded, their elements checked against the streams they declared"));
  gtk_label_set_text (GTK_LABEL (self->notes_label), _("Checking the recorded elements against the declared streams…"));
  gtk_widget_set_visible (self->notes_label, TRUE);
  self->reading = g_cancellable_new ();
  tw_recorded_sensors_read_async (trace, self->reading, recorded_read_cb, g_object_ref (self));
}

/**
 * tw_sensors_pane_get_checking:
 *
 * Returns: whether a recording's sensors are still being counted and checked
 */
gboolean
tw_sensors_pane_get_checking (TwSensorsPane *self)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), FALSE);
  return self->reading != NULL;
}

/**
 * tw_sensors_pane_set_session:
 * @session: (nullable): the live session to show
 */
void
tw_sensors_pane_set_session (TwSensorsPane *self,
                             TwLiveSession *session)
{
  g_autofree char *dir = NULL;
  const char *notes;

  g_return_if_fail (TW_IS_SENSORS_PANE (self));

  clear_rows (self);
  g_set_object (&self->session, session);
  tw_target_histograms_set_trace (TW_TARGET_HISTOGRAMS (self->histograms),
                                  session ? tw_live_session_get_trace (session) : NULL);
  if (session == NULL)
    return;

  gtk_widget_set_visible (gtk_grid_get_child_at (GTK_GRID (self->grid), TW_SENSORS_COLUMN_ATTACHED, 0), TRUE);
  /* a live session's heading is where it reads: copied from here */
  make_copyable (self->dir_label);
  if (tw_live_session_get_remote_url (session))
    dir = g_strdup_printf (_("LTTng live session: %s"), tw_live_session_get_remote_url (session));
  else
    dir = g_strdup_printf (_("Sensor directory: %s"), tw_live_session_get_sensor_dir (session));
  gtk_label_set_text (GTK_LABEL (self->dir_label), dir);
  notes = tw_live_session_get_notes (session);
  gtk_label_set_text (GTK_LABEL (self->notes_label), notes);
  gtk_widget_set_visible (self->notes_label, *notes != '\0');
  tw_sensors_pane_refresh (self);
}

guint
tw_sensors_pane_get_n_rows (TwSensorsPane *self)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), 0);
  return self->rows->len;
}

/**
 * tw_sensors_pane_get_text:
 * @row: a source
 * @column: any column but the attach check
 *
 * Returns: (nullable): the cell's text as shown
 */
const char *
tw_sensors_pane_get_text (TwSensorsPane   *self,
                          guint            row,
                          TwSensorsColumn  column)
{
  Row *r;

  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);
  g_return_val_if_fail (column > TW_SENSORS_COLUMN_ATTACHED && column < TW_SENSORS_N_COLUMNS, NULL);

  r = g_ptr_array_index (self->rows, row);
  return gtk_label_get_text (GTK_LABEL (r->labels[column]));
}

/**
 * tw_sensors_pane_find_row:
 * @task: the Task column's text (a target's sensor: "HOST: task")
 * @sensor: the Sensor column's text
 *
 * Returns: the row showing that sensor, or -1
 */
int
tw_sensors_pane_find_row (TwSensorsPane *self,
                          const char    *task,
                          const char    *sensor)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), -1);

  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *r = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (r->labels[TW_SENSORS_COLUMN_TASK])), task) == 0
          && g_strcmp0 (gtk_label_get_text (GTK_LABEL (r->labels[TW_SENSORS_COLUMN_SENSOR])), sensor) == 0)
        return (int) i;
    }
  return -1;
}

/**
 * tw_sensors_pane_get_target_histograms:
 *
 * Returns: (transfer none): the section with the latest histogram of each evaluation
 *   a target's monitor runs (TwTargetHistograms)
 */
GtkWidget *
tw_sensors_pane_get_target_histograms (TwSensorsPane *self)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), NULL);
  return self->histograms;
}

/**
 * tw_sensors_pane_get_attach_button:
 *
 * Returns: (transfer none): the row's attach/detach check button
 */
GtkWidget *
tw_sensors_pane_get_attach_button (TwSensorsPane *self,
                                   guint          row)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);
  return ((Row *) g_ptr_array_index (self->rows, row))->check;
}

/**
 * tw_sensors_pane_get_heading:
 *
 * Returns: (transfer none): the label above the table: the sensor directory or LTTng
 *   session read, or what a recording's rows are
 */
GtkWidget *
tw_sensors_pane_get_heading (TwSensorsPane *self)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), NULL);
  return self->dir_label;
}

/**
 * tw_sensors_pane_get_column_title:
 *
 * Returns: (transfer none): the title of @column, above its rows
 */
GtkWidget *
tw_sensors_pane_get_column_title (TwSensorsPane   *self,
                                  TwSensorsColumn  column)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), NULL);
  g_return_val_if_fail (column < TW_SENSORS_N_COLUMNS, NULL);
  return gtk_grid_get_child_at (GTK_GRID (self->grid), column, 0);
}

/**
 * tw_sensors_pane_get_notes:
 *
 * Returns: why optional sources (kernel, libgtop) are missing, "" when none is
 */
const char *
tw_sensors_pane_get_notes (TwSensorsPane *self)
{
  g_return_val_if_fail (TW_IS_SENSORS_PANE (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->notes_label));
}

static void
tw_sensors_pane_dispose (GObject *object)
{
  TwSensorsPane *self = TW_SENSORS_PANE (object);

  if (self->reading)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_SENSORS_PANE);
  G_OBJECT_CLASS (tw_sensors_pane_parent_class)->dispose (object);
}

static void
tw_sensors_pane_finalize (GObject *object)
{
  TwSensorsPane *self = TW_SENSORS_PANE (object);

  g_ptr_array_unref (self->rows);
  g_hash_table_unref (self->remote_rows);
  G_OBJECT_CLASS (tw_sensors_pane_parent_class)->finalize (object);
}

static void
tw_sensors_pane_class_init (TwSensorsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_sensors_pane_dispose;
  object_class->finalize = tw_sensors_pane_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (TW_TYPE_TARGET_HISTOGRAMS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-sensors-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, scroller);
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, box);
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, dir_label);
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, notes_label);
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, error_label);
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, grid);
  gtk_widget_class_bind_template_child (widget_class, TwSensorsPane, histograms);
}

static void
tw_sensors_pane_init (TwSensorsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_ptr_array_new_with_free_func (g_free);
  self->remote_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * tw_sensors_pane_new:
 *
 * Returns: (transfer full): an empty Sensors pane
 */
GtkWidget *
tw_sensors_pane_new (void)
{
  return g_object_new (TW_TYPE_SENSORS_PANE, NULL);
}
