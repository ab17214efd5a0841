/* tw-event-costs.c: the tracing cost of each event type of a trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tw-event-cost.h"
#include "tw-event-costs.h"
#include "tw-update.h"

typedef struct {
  char   *type;     /* a type name (glob allowed) or kind:NAME, as tw_update_selector_matches() */
  double  cost_ns;
} TypeCost;

struct _TwEventCosts {
  GObject  parent_instance;

  double   default_ns;   /* `*`, or the plain cost: what every other type costs */
  GArray  *type_costs;   /* TypeCost, in the order given: the first that names a type wins */
};

G_DEFINE_FINAL_TYPE (TwEventCosts, tw_event_costs, G_TYPE_OBJECT)

static void
type_cost_clear (gpointer data)
{
  g_free (((TypeCost *) data)->type);
}

static void
tw_event_costs_finalize (GObject *object)
{
  TwEventCosts *self = TW_EVENT_COSTS (object);

  g_clear_pointer (&self->type_costs, g_array_unref);
  G_OBJECT_CLASS (tw_event_costs_parent_class)->finalize (object);
}

static void
tw_event_costs_class_init (TwEventCostsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_event_costs_finalize;
}

static void
tw_event_costs_init (TwEventCosts *self)
{
  self->type_costs = g_array_new (FALSE, FALSE, sizeof (TypeCost));
  g_array_set_clear_func (self->type_costs, type_cost_clear);
}

/**
 * tw_event_costs_new_uniform:
 * @cost_ns: what every event costs
 *
 * Returns: (transfer full): costs of one figure for every type
 */
TwEventCosts *
tw_event_costs_new_uniform (double cost_ns)
{
  TwEventCosts *self = g_object_new (TW_TYPE_EVENT_COSTS, NULL);

  g_return_val_if_fail (cost_ns >= 0, self);
  self->default_ns = cost_ns;
  return self;
}

/**
 * tw_event_costs_set_type_cost:
 * @type: a type name (`*` and `?` glob) or `kind:NAME`
 *
 * Events of @type cost @cost_ns; a type named twice keeps its first cost.
 */
void
tw_event_costs_set_type_cost (TwEventCosts *self,
                              const char   *type,
                              double        cost_ns)
{
  TypeCost entry = { g_strdup (type), cost_ns };

  g_return_if_fail (TW_IS_EVENT_COSTS (self));
  g_return_if_fail (type != NULL && *type != '\0' && cost_ns >= 0);
  g_array_append_val (self->type_costs, entry);
}

void
tw_event_costs_set_default (TwEventCosts *self,
                            double        cost_ns)
{
  g_return_if_fail (TW_IS_EVENT_COSTS (self));
  g_return_if_fail (cost_ns >= 0);
  self->default_ns = cost_ns;
}

/**
 * tw_event_costs_add:
 * @type: (nullable): a type name, `kind:NAME`, or `*`; %NULL: the cost of every type
 *   not named
 * @cost: a cost with its unit (tw_event_cost_parse())
 *
 * Returns: %FALSE with @error naming what is wrong: an empty type, a cost without a
 *   unit or with an unknown one
 */
gboolean
tw_event_costs_add (TwEventCosts  *self,
                    const char    *type,
                    const char    *cost,
                    GError       **error)
{
  double cost_ns;

  g_return_val_if_fail (TW_IS_EVENT_COSTS (self), FALSE);

  if (type != NULL && *type == '\0')
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--event-cost “=%s”: the event type before “=” is empty "
                   "(e.g. sched_switch=%s, or *=%s for every other type)", cost, cost, cost);
      return FALSE;
    }
  if (!tw_event_cost_parse (cost, &cost_ns, error))
    return FALSE;
  if (type == NULL || strcmp (type, "*") == 0)
    tw_event_costs_set_default (self, cost_ns);
  else
    tw_event_costs_set_type_cost (self, type, cost_ns);
  return TRUE;
}

/**
 * tw_event_costs_parse:
 * @text: a cost for every event (`0.8us`), or comma-separated `TYPE=COST` items
 *   where TYPE is a type name (globs `*` and `?`), `kind:NAME` (`kind:sensor`,
 *   `kind:switch`) or `*` for every type not named:
 *   `sched_switch=1.2us,irq_handler_entry=0.6us,*=0.8us`. Types not named and
 *   without `*` cost nothing.
 *
 * Returns: (transfer full) (nullable): the costs, or %NULL with @error naming the
 *   item that is wrong
 */
TwEventCosts *
tw_event_costs_parse (const char  *text,
                      GError     **error)
{
  g_autoptr(TwEventCosts) self = g_object_new (TW_TYPE_EVENT_COSTS, NULL);
  g_auto(GStrv) items = g_strsplit (text, ",", -1);

  g_return_val_if_fail (text != NULL, NULL);

  for (guint i = 0; items[i] != NULL; i++)
    {
      char *item = g_strstrip (items[i]);
      char *eq = strchr (item, '=');

      if (eq == NULL)
        {
          if (!tw_event_costs_add (self, NULL, item, error))
            return NULL;
          continue;
        }
      *eq = '\0';
      if (!tw_event_costs_add (self, g_strstrip (item), g_strstrip (eq + 1), error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * tw_event_costs_is_uniform:
 *
 * Returns: whether every event costs the same: a measurement's overhead is then its
 *   intermediate events times that cost
 */
gboolean
tw_event_costs_is_uniform (TwEventCosts *self)
{
  g_return_val_if_fail (TW_IS_EVENT_COSTS (self), TRUE);

  for (guint i = 0; i < self->type_costs->len; i++)
    if (g_array_index (self->type_costs, TypeCost, i).cost_ns != self->default_ns)
      return FALSE;
  return TRUE;
}

/* Returns: the cost of every type not named */
double
tw_event_costs_get_default (TwEventCosts *self)
{
  g_return_val_if_fail (TW_IS_EVENT_COSTS (self), 0);
  return self->default_ns;
}

/* Returns: whether no event costs anything */
gboolean
tw_event_costs_is_zero (TwEventCosts *self)
{
  g_return_val_if_fail (TW_IS_EVENT_COSTS (self), TRUE);
  return tw_event_costs_is_uniform (self) && self->default_ns == 0;
}

static gboolean
names_type (const char        *pattern,
            const TwEventType *type)
{
  if (strpbrk (pattern, "*?") != NULL && !g_str_has_prefix (pattern, "kind:"))
    return type->name != NULL && g_pattern_match_simple (pattern, type->name);
  return tw_update_selector_matches (pattern, type);
}

/**
 * tw_event_costs_get_type_cost_ps:
 *
 * Picoseconds, so that sums of many events stay exact integers (0.8 ns a cost is
 * common for sensors).
 *
 * Returns: what one event of @type costs, in ps
 */
guint64
tw_event_costs_get_type_cost_ps (TwEventCosts      *self,
                                 const TwEventType *type)
{
  double ns;

  g_return_val_if_fail (TW_IS_EVENT_COSTS (self), 0);

  ns = self->default_ns;
  for (guint i = 0; i < self->type_costs->len; i++)
    {
      const TypeCost *entry = &g_array_index (self->type_costs, TypeCost, i);

      if (names_type (entry->type, type))
        {
          ns = entry->cost_ns;
          break;
        }
    }
  return (guint64) llround (ns * 1e3);
}

static void
append_cost (GString *out,
             double   ns)
{
  g_string_append_printf (out, "%.3f µs", ns / 1e3);
}

/**
 * tw_event_costs_to_string:
 *
 * Returns: (transfer full): how headings name the costs: `2.000 µs per event`, or
 *   `sched_switch 1.200 µs, * 0.800 µs per event`
 */
char *
tw_event_costs_to_string (TwEventCosts *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (TW_IS_EVENT_COSTS (self), NULL);

  if (!tw_event_costs_is_uniform (self))
    {
      for (guint i = 0; i < self->type_costs->len; i++)
        {
          const TypeCost *entry = &g_array_index (self->type_costs, TypeCost, i);

          g_string_append_printf (out, "%s ", entry->type);
          append_cost (out, entry->cost_ns);
          g_string_append (out, ", ");
        }
      g_string_append (out, "* ");
    }
  append_cost (out, self->default_ns);
  g_string_append (out, " per event");
  return g_string_free (out, FALSE);
}
