/* tw-go-to-time.c: the go-to-time popover: a time typed as the event list shows it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The popover reads the text against the open trace (tw_time_text_resolve(): seconds as
 * the list shows them or their last digits, units, "+" since the first event) and says,
 * while the user types, which time it read: a user who typed "2.9" on an LTTng trace
 * sees "→ 1457113582.900000000 s (+105.434196 ms)" and "leading digits from the trace"
 * before pressing Enter. Enter emits ::time-chosen; what to select and reveal is the
 * window's business.
 */
#include "config.h"

#include "tw-go-to-time.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <tw-widgets.h>

struct _TwGoToTime
{
  GtkPopover  parent_instance;

  /* template children */
  GtkWidget  *entry;
  GtkWidget  *feedback;

  /* owned */
  TwTrace    *trace;      /* NULL until a trace is open; may grow (live) */
};

G_DEFINE_FINAL_TYPE (TwGoToTime, tw_go_to_time, GTK_TYPE_POPOVER)

enum {
  TIME_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
resolve (TwGoToTime  *self,
         const char  *text,
         guint64     *time_ns,
         char       **description,
         GError     **error)
{
  guint64 first = tw_trace_get_first_time (self->trace);
  guint64 last = tw_trace_get_last_time (self->trace);
  TwTimeTextForm form;

  if (!tw_time_text_resolve (text, first, last, time_ns, &form, error))
    return FALSE;
  *description = tw_time_text_describe (*time_ns, form, first, last);
  return TRUE;
}

/* @is_error: the user asked to go and could not (red); otherwise a hint while typing */
static void
show_feedback (TwGoToTime *self,
               const char *text,
               gboolean    is_error)
{
  gtk_label_set_text (GTK_LABEL (self->feedback), text);
  gtk_widget_set_visible (self->feedback, text[0] != '\0');
  if (is_error)
    {
      gtk_widget_remove_css_class (self->feedback, "dim-label");
      gtk_widget_add_css_class (self->feedback, "error");
    }
  else
    {
      gtk_widget_remove_css_class (self->feedback, "error");
      gtk_widget_add_css_class (self->feedback, "dim-label");
    }
}

static gboolean
is_blank (const char *text)
{
  while (g_ascii_isspace (*text))
    text++;
  return *text == '\0';
}

static void
entry_changed_cb (TwGoToTime *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  guint64 time_ns;

  if (self->trace == NULL || is_blank (text))
    {
      show_feedback (self, "", FALSE);
      return;
    }
  /* a half-typed time ("12 m") is not an error yet: say what is expected, quietly */
  if (resolve (self, text, &time_ns, &description, &error))
    show_feedback (self, description, FALSE);
  else
    show_feedback (self, error->message, FALSE);
}

static gboolean
choose_typed (TwGoToTime *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  guint64 time_ns;

  if (self->trace == NULL)
    return FALSE;
  if (!resolve (self, text, &time_ns, &description, &error))
    {
      show_feedback (self, error->message, TRUE);
      gtk_widget_error_bell (self->entry);
      return FALSE;
    }
  show_feedback (self, description, FALSE);
  g_signal_emit (self, signals[TIME_CHOSEN], 0, time_ns);
  gtk_popover_popdown (GTK_POPOVER (self));
  return TRUE;
}

static void
entry_activate_cb (TwGoToTime *self)
{
  choose_typed (self);
}

/* The trace's own first time is the best example of what to type; a live trace gets
 * its first events after the popover was made, so the example is made at each opening. */
static void
update_placeholder (TwGoToTime *self)
{
  g_autofree char *seconds = NULL;
  g_autofree char *placeholder = NULL;
  const char *point;

  if (self->trace == NULL)
    return;
  seconds = tw_time_text_format_seconds (tw_trace_get_first_time (self->trace));
  point = strchr (seconds, '.');
  /* the last digits are what people type on epoch traces */
  placeholder = g_strdup_printf (_("e.g. %s or +250 ms"),
                                 point - seconds >= 2 ? point - 1 : seconds);
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), placeholder);
}

static void
tw_go_to_time_map (GtkWidget *widget)
{
  TwGoToTime *self = TW_GO_TO_TIME (widget);

  GTK_WIDGET_CLASS (tw_go_to_time_parent_class)->map (widget);
  update_placeholder (self);
  entry_changed_cb (self);
  gtk_widget_grab_focus (self->entry);
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

static void
tw_go_to_time_dispose (GObject *object)
{
  TwGoToTime *self = TW_GO_TO_TIME (object);

  g_clear_object (&self->trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_GO_TO_TIME);
  G_OBJECT_CLASS (tw_go_to_time_parent_class)->dispose (object);
}

static void
tw_go_to_time_class_init (TwGoToTimeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_go_to_time_dispose;
  widget_class->map = tw_go_to_time_map;

  /**
   * TwGoToTime::time-chosen:
   * @time_ns: the time the user asked for, in the trace's time base
   *
   * Emitted when the user pressed Enter on a time (or tw_go_to_time_choose() was given
   * one); the popover has closed.
   */
  signals[TIME_CHOSEN] =
    g_signal_new ("time-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-go-to-time.ui");
  gtk_widget_class_bind_template_child (widget_class, TwGoToTime, entry);
  gtk_widget_class_bind_template_child (widget_class, TwGoToTime, feedback);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
}

static void
tw_go_to_time_init (TwGoToTime *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tw_go_to_time_set_trace:
 * @trace: (nullable): the open trace, whose first and last times give typed times
 *   their meaning
 */
void
tw_go_to_time_set_trace (TwGoToTime *self,
                         TwTrace    *trace)
{
  g_return_if_fail (TW_IS_GO_TO_TIME (self));
  g_return_if_fail (trace == NULL || TW_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  entry_changed_cb (self);
}

/**
 * tw_go_to_time_choose:
 * @text: a time as the user would type it
 *
 * Types @text into the entry and presses Enter.
 *
 * Returns: whether @text was a time (::time-chosen was emitted); otherwise the popover
 *   shows why
 */
gboolean
tw_go_to_time_choose (TwGoToTime *self,
                      const char *text)
{
  g_return_val_if_fail (TW_IS_GO_TO_TIME (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  return choose_typed (self);
}

/**
 * tw_go_to_time_get_entry:
 *
 * Returns: (transfer none): the entry the user types into
 */
GtkWidget *
tw_go_to_time_get_entry (TwGoToTime *self)
{
  g_return_val_if_fail (TW_IS_GO_TO_TIME (self), NULL);
  return self->entry;
}

/**
 * tw_go_to_time_get_feedback:
 *
 * Returns: (transfer none): what the popover says about the text typed: the time it
 *   read ("→ 933.5 s (+150.4 ms)"), what a time looks like, or "" for no text
 */
const char *
tw_go_to_time_get_feedback (TwGoToTime *self)
{
  g_return_val_if_fail (TW_IS_GO_TO_TIME (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->feedback));
}
