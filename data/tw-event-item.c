/* tw-event-item.c: the light row object a TwTraceModel hands out for one event
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-event-item.h"

/*
 * An item is only a (trace, row) pair: every field is read from the store's columns when
 * a list cell asks for it, so a list over millions of rows holds as many items as there
 * are visible rows, and they die when the rows scroll away.
 */
struct _TwEventItem
{
  GObject  parent_instance;

  TwTrace *trace;
  guint64  index;   /* row in the trace, < n_events */
};

G_DEFINE_FINAL_TYPE (TwEventItem, tw_event_item, G_TYPE_OBJECT)

static void
tw_event_item_finalize (GObject *object)
{
  TwEventItem *self = (TwEventItem *)object;

  g_clear_object (&self->trace);

  G_OBJECT_CLASS (tw_event_item_parent_class)->finalize (object);
}

static void
tw_event_item_class_init (TwEventItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_event_item_finalize;
}

static void
tw_event_item_init (TwEventItem *self)
{
}

/**
 * tw_event_item_new:
 * @index: a row of @trace
 *
 * Returns: (transfer full): an item for row @index
 */
TwEventItem *
tw_event_item_new (TwTrace *trace,
                   guint64  index)
{
  TwEventItem *self;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_object_new (TW_TYPE_EVENT_ITEM, NULL);
  self->trace = g_object_ref (trace);
  self->index = index;
  return self;
}

/**
 * tw_event_item_get_trace:
 *
 * Returns: (transfer none): the trace the row belongs to
 */
TwTrace *
tw_event_item_get_trace (TwEventItem *self)
{
  g_return_val_if_fail (TW_IS_EVENT_ITEM (self), NULL);

  return self->trace;
}

guint64
tw_event_item_get_index (TwEventItem *self)
{
  g_return_val_if_fail (TW_IS_EVENT_ITEM (self), TW_EVENT_NONE);

  return self->index;
}

/**
 * tw_event_item_get_event:
 * @event: (out): the decoded row
 *
 * Returns: %FALSE when the row is not (or no longer) in the trace
 */
gboolean
tw_event_item_get_event (TwEventItem *self,
                         TwEvent     *event)
{
  g_return_val_if_fail (TW_IS_EVENT_ITEM (self), FALSE);

  return tw_trace_get_event (self->trace, self->index, event);
}

/**
 * tw_event_item_get_time:
 *
 * Returns: the event's time, ns since the trace origin
 */
guint64
tw_event_item_get_time (TwEventItem *self)
{
  g_return_val_if_fail (TW_IS_EVENT_ITEM (self), TW_TIME_NONE);

  return tw_trace_get_time (self->trace, self->index);
}

/**
 * tw_event_item_get_cpu:
 *
 * Returns: the CPU index, or %TW_CPU_NONE
 */
guint16
tw_event_item_get_cpu (TwEventItem *self)
{
  TwEvent event;

  if (!tw_event_item_get_event (self, &event))
    return TW_CPU_NONE;
  return event.cpu;
}

/**
 * tw_event_item_get_type_name:
 *
 * Returns: (transfer none): the raw type name, as the source spells it
 */
const char *
tw_event_item_get_type_name (TwEventItem *self)
{
  const TwEventType *type;
  TwEvent event;

  if (!tw_event_item_get_event (self, &event))
    return "";
  type = tw_trace_get_event_type (self->trace, event.type);
  return type ? type->name : "";
}

/**
 * tw_event_item_dup_task_label:
 *
 * Returns: (transfer full): the task as users read it ("-" for none)
 */
char *
tw_event_item_dup_task_label (TwEventItem *self)
{
  TwEvent event;

  if (!tw_event_item_get_event (self, &event))
    return g_strdup ("");
  return tw_trace_dup_task_label (self->trace, event.task);
}

/**
 * tw_event_item_dup_cpu_label:
 *
 * Returns: (transfer full): the CPU as users read it: its number, "HOST/N" in a trace
 *   of several machines, "-" for none
 */
char *
tw_event_item_dup_cpu_label (TwEventItem *self)
{
  TwEvent event;

  if (!tw_event_item_get_event (self, &event))
    return g_strdup ("");
  return tw_trace_dup_cpu_label (self->trace, event.cpu);
}

/**
 * tw_event_item_dup_args:
 *
 * The canonical argument where the kind gives it a meaning (the task switched in, the
 * woken task, the irq number, the mutex, …) followed by the payload fields.
 *
 * Returns: (transfer full): "name=value …"
 */
char *
tw_event_item_dup_args (TwEventItem *self)
{
  g_autofree char *fields = NULL;
  g_autofree char *canonical = NULL;
  const TwEventType *type;
  TwEvent event;

  if (!tw_event_item_get_event (self, &event))
    return g_strdup ("");

  type = tw_trace_get_event_type (self->trace, event.type);
  fields = tw_trace_format_args (self->trace, &event);

  switch (type ? type->kind : TW_EVENT_KIND_OTHER)
    {
    case TW_EVENT_KIND_SWITCH:
      {
        g_autofree char *next = tw_trace_dup_task_label (self->trace, event.arg);
        canonical = g_strdup_printf ("next=%s", next);
      }
      break;
    case TW_EVENT_KIND_WAKEUP:
    case TW_EVENT_KIND_TASK_CREATE:
      {
        g_autofree char *other = tw_trace_dup_task_label (self->trace, event.arg);
        canonical = g_strdup_printf ("task=%s", other);
      }
      break;
    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:
      canonical = g_strdup_printf ("irq=%u", event.arg);
      break;
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:
      canonical = g_strdup_printf ("vec=%u", event.arg);
      break;
    case TW_EVENT_KIND_USER:
      canonical = g_strdup_printf ("id=%u", event.arg);
      break;
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
      canonical = g_strdup_printf ("mutex=0x%x", event.arg);
      break;
    case TW_EVENT_KIND_SENSOR:
      canonical = g_strdup_printf ("sensor=%u", event.arg);
      break;
    case TW_EVENT_KIND_TASK_EXIT:
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:
      break;
    }

  /* a reader that also kept the canonical value as a field of the same name (ftrace's
   * vec=, CSV's irq=) shows it once */
  if (canonical && type)
    {
      g_autofree char *name = g_strndup (canonical, strcspn (canonical, "="));
      if (tw_event_type_lookup_field (type, name) >= 0)
        g_clear_pointer (&canonical, g_free);
    }
  if (canonical == NULL)
    return g_steal_pointer (&fields);
  if (fields[0] == '\0')
    return g_steal_pointer (&canonical);
  return g_strconcat (canonical, " ", fields, NULL);
}
