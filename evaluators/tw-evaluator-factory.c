/* tw-evaluator-factory.c: evaluators offered by name: the system metrics and any registered
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Evaluations pane's metric list, `tracewb-cli eval --metric NAME[:PARAM]` and
 * `tracewb-cli metrics` all read the same list of factories, so an evaluator registered
 * here is offered everywhere at once. The list starts with the system metrics of
 * Espinosa et al. 2003 §2 (tw-metrics.h), in their order.
 */
#include "config.h"

#include "tw-evaluator-factory.h"

#include "tw-metrics.h"

#include <string.h>

struct _TwEvaluatorFactory
{
  GObject             parent_instance;

  char               *name;
  char               *parameter;    /* nullable: what may follow the name after a colon */
  char               *description;
  TwEvaluatorNewFunc  new_func;
  gpointer            user_data;
  GDestroyNotify      destroy;
};

G_DEFINE_FINAL_TYPE (TwEvaluatorFactory, tw_evaluator_factory, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PARAMETER,
  PROP_DESCRIPTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
tw_evaluator_factory_finalize (GObject *object)
{
  TwEvaluatorFactory *self = TW_EVALUATOR_FACTORY (object);

  if (self->destroy != NULL)
    self->destroy (self->user_data);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->parameter, g_free);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (tw_evaluator_factory_parent_class)->finalize (object);
}

static void
tw_evaluator_factory_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TwEvaluatorFactory *self = TW_EVALUATOR_FACTORY (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PARAMETER:
      g_value_set_string (value, self->parameter);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_evaluator_factory_class_init (TwEvaluatorFactoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_evaluator_factory_finalize;
  object_class->get_property = tw_evaluator_factory_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PARAMETER] =
    g_param_spec_string ("parameter", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_evaluator_factory_init (TwEvaluatorFactory *self)
{
}

/**
 * tw_evaluator_factory_new:
 * @name: how users call it (unique among the registered factories; no colon)
 * @parameter: (nullable): what may follow the name after a colon, as users read it
 *   ("EVENT", "START,END"), %NULL when it takes nothing
 * @description: one line
 * @new_func: makes an evaluator for a parameter
 * @user_data: (nullable): for @new_func
 * @destroy: (nullable): frees @user_data with the factory
 *
 * Returns: (transfer full): the factory
 */
TwEvaluatorFactory *
tw_evaluator_factory_new (const char         *name,
                          const char         *parameter,
                          const char         *description,
                          TwEvaluatorNewFunc  new_func,
                          gpointer            user_data,
                          GDestroyNotify      destroy)
{
  TwEvaluatorFactory *self;

  g_return_val_if_fail (name != NULL && strchr (name, ':') == NULL, NULL);
  g_return_val_if_fail (description != NULL, NULL);
  g_return_val_if_fail (new_func != NULL, NULL);

  self = g_object_new (TW_TYPE_EVALUATOR_FACTORY, NULL);
  self->name = g_strdup (name);
  self->parameter = g_strdup (parameter);
  self->description = g_strdup (description);
  self->new_func = new_func;
  self->user_data = user_data;
  self->destroy = destroy;
  return self;
}

/**
 * tw_evaluator_factory_get_name:
 *
 * Returns: (transfer none): its name
 */
const char *
tw_evaluator_factory_get_name (TwEvaluatorFactory *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_FACTORY (self), NULL);
  return self->name;
}

/**
 * tw_evaluator_factory_get_parameter:
 *
 * Returns: (transfer none) (nullable): what may follow its name after a colon
 */
const char *
tw_evaluator_factory_get_parameter (TwEvaluatorFactory *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_FACTORY (self), NULL);
  return self->parameter;
}

/**
 * tw_evaluator_factory_get_description:
 *
 * Returns: (transfer none): one line saying what its evaluators measure
 */
const char *
tw_evaluator_factory_get_description (TwEvaluatorFactory *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_FACTORY (self), NULL);
  return self->description;
}

/**
 * tw_evaluator_factory_create:
 * @parameter: (nullable): the parameter, %NULL for none
 *
 * Returns: (transfer full) (nullable): a new evaluator, or %NULL with @error set
 */
TwEvaluator *
tw_evaluator_factory_create (TwEvaluatorFactory  *self,
                             const char          *parameter,
                             GError             **error)
{
  TwEvaluator *evaluator;

  g_return_val_if_fail (TW_IS_EVALUATOR_FACTORY (self), NULL);

  evaluator = self->new_func (parameter, self->user_data, error);
  g_return_val_if_fail (evaluator == NULL || TW_IS_EVALUATOR (evaluator), NULL);
  return evaluator;
}

/* ------------------------------------------------------------------ the registry */

/* @user_data: the name of a system metric (static) */
static TwEvaluator *
new_system_metric (const char  *parameter,
                   gpointer     user_data,
                   GError     **error)
{
  g_autofree char *spec = parameter ? g_strconcat (user_data, ":", parameter, NULL)
                                    : g_strdup (user_data);

  return (TwEvaluator *) tw_metric_new_system (spec, error);
}

static gpointer
create_registry (gpointer data)
{
  GListStore *store = g_list_store_new (TW_TYPE_EVALUATOR_FACTORY);
  guint n = 0;
  const TwMetricInfo *metrics = tw_metrics_get_system_metrics (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwEvaluatorFactory) factory =
        tw_evaluator_factory_new (metrics[i].name, metrics[i].parameter, metrics[i].description,
                                  new_system_metric, (gpointer) metrics[i].name, NULL);

      g_list_store_append (store, factory);
    }
  return store;
}

static GListStore *
registry (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, create_registry, NULL);
}

/**
 * tw_evaluator_factory_list_registered:
 *
 * The evaluators offered by name, the system metrics first. The list lives as long as
 * the process; it changes (items-changed) when a factory is registered.
 *
 * Returns: (transfer none): a #GListModel of #TwEvaluatorFactory
 */
GListModel *
tw_evaluator_factory_list_registered (void)
{
  return G_LIST_MODEL (registry ());
}

/**
 * tw_evaluator_factory_register:
 * @factory: a factory whose name no registered one has
 *
 * Offers @factory's evaluators by name: in the Evaluations pane's metric list, the
 * designer's *Compare with* list, to `tracewb-cli eval --metric` and in `tracewb-cli
 * metrics`. Main thread only.
 */
void
tw_evaluator_factory_register (TwEvaluatorFactory *factory)
{
  g_return_if_fail (TW_IS_EVALUATOR_FACTORY (factory));
  g_return_if_fail (tw_evaluator_factory_lookup (factory->name) == NULL);

  g_list_store_append (registry (), factory);
}

/**
 * tw_evaluator_factory_lookup:
 * @name: a factory's name
 *
 * Returns: (transfer none) (nullable): the registered factory of that name
 */
TwEvaluatorFactory *
tw_evaluator_factory_lookup (const char *name)
{
  GListModel *list = tw_evaluator_factory_list_registered ();

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(TwEvaluatorFactory) factory = g_list_model_get_item (list, i);

      if (g_str_equal (factory->name, name))
        return factory;   /* the registry keeps it */
    }
  return NULL;
}

/**
 * tw_evaluator_factory_create_for_spec:
 * @spec: a registered name, with its parameter after a colon where it takes one:
 *   "irq-duration", "inter-arrival:sched_wakeup", "response-time:job_start,job_end"
 *
 * Returns: (transfer full) (nullable): a new evaluator, or %NULL with @error set
 *   (%TW_METRIC_ERROR_UNKNOWN when no factory has that name)
 */
TwEvaluator *
tw_evaluator_factory_create_for_spec (const char  *spec,
                                      GError     **error)
{
  const char *colon;
  g_autofree char *name = NULL;
  TwEvaluatorFactory *factory;

  g_return_val_if_fail (spec != NULL, NULL);

  colon = strchr (spec, ':');
  name = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  factory = tw_evaluator_factory_lookup (name);
  if (factory == NULL)
    {
      g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_UNKNOWN,
                   "no system metric named “%s” (see `tracewb-cli metrics`)", name);
      return NULL;
    }
  return tw_evaluator_factory_create (factory, colon ? colon + 1 : NULL, error);
}
