/* tw-cli-ust.c: `tracewb-cli monitor --lttng`: sensors (and measurements) out as LTTng-UST events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The monitor on a target (Riegel 2005 §3.5: the same monitor serves real-time, non-real-
 * time and remote evaluation) reads the sensor rings as always: exact missed and torn
 * accounting stays where the rings are. Each element it receives leaves as one
 * `tracewb:sensor_element` event with its stream position and the sensor's missed count
 * so far; a `tracewb:sensor_schema` event before a sensor's first element says how to
 * decode them, and `tracewb:sensor_counts` every second and at the end carries the
 * monitor's counts (misses after the last element included). LTTng carries them to a
 * relay; the workbench decodes them back into the sensor's own event type
 * (ingest/tw-lttng-sensor-decoder.c).
 *
 * The tracepoints are in a module of their own (tw-ust-emitter.h), found in
 * $TRACEWB_UST_MODULE, beside the running program (the build tree), or in TW_PKGLIBDIR.
 */
#include "config.h"

#include "tw-cli-ust.h"

#include <gmodule.h>
#include <tw-sensor.h>
#include <unistd.h>

#define COUNTS_EVERY_US G_USEC_PER_SEC

typedef struct {
  gboolean     schema_sent;
  guint16      payload_size;  /* the schema's, what each element event carries */
  gsize        element_size;
} SensorState;

struct _TwCliUst {
  TwMonitor          *monitor;
  GModule            *module;
  const TwUstEmitter *emit;
  guint32             monitor_id;
  GArray             *sensors;        /* SensorState per source index */
  gint64              last_counts_us;
};

static char *
find_module (GError **error)
{
  const char *env = g_getenv ("TRACEWB_UST_MODULE");
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *self_dir = self_exe ? g_path_get_dirname (self_exe) : NULL;
  g_autofree char *beside = self_dir ? g_build_filename (self_dir, TW_UST_MODULE_NAME, NULL) : NULL;
  g_autofree char *installed = g_build_filename (TW_PKGLIBDIR, TW_UST_MODULE_NAME, NULL);

  if (env && *env)
    return g_strdup (env);
  if (beside && g_file_test (beside, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&beside);
  if (g_file_test (installed, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&installed);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "--lttng: the LTTng-UST module %s is in neither %s nor %s (tracewb was built "
               "without liblttng-ust — Debian: liblttng-ust-dev — or set TRACEWB_UST_MODULE)",
               TW_UST_MODULE_NAME, self_dir ? self_dir : "-", TW_PKGLIBDIR);
  return NULL;
}

static SensorState *
sensor_state (TwCliUst *self,
              guint     source)
{
  if (source >= self->sensors->len)
    g_array_set_size (self->sensors, source + 1);
  return &g_array_index (self->sensors, SensorState, source);
}

/* Before a sensor's first element: what the receiver needs to decode it. */
static void
send_schema (TwCliUst *self,
             guint     source,
             gsize     stride)
{
  TwMonitorSourceInfo info;
  char why[256];
  TwSensorSchema *schema;
  guint32 payload_size;
  double jcs[5];

  if (!tw_monitor_get_source_info (self->monitor, source, &info) || info.schema == NULL)
    return;
  /* the desktop checks the stream against what the sensor declared, as a local monitor */
  jcs[0] = info.period_ns;
  jcs[1] = info.min_distance_ns;
  jcs[2] = info.earliness_ns;
  jcs[3] = info.monitor_period_ns;
  jcs[4] = info.deadline_ns;
  /* the monitor parsed the same text when it attached the sensor: it parses */
  schema = tw_sensor_schema_parse (info.schema, why, sizeof why);
  payload_size = schema ? (guint32) tw_sensor_schema_get_size (schema) : 0;
  tw_sensor_schema_free (schema);
  /* without an element yet (counts only): the stride the sensor library lays out */
  if (stride == 0)
    stride = 8 + ((payload_size + 7) & ~7u);
  self->emit->sensor_schema (self->monitor_id, source, info.pid, info.task, info.sensor, info.schema,
                             (guint32) stride, payload_size, jcs);
  sensor_state (self, source)->schema_sent = TRUE;
  sensor_state (self, source)->payload_size = (guint16) MIN (payload_size, G_MAXUINT16);
  sensor_state (self, source)->element_size = stride;
}

static void
on_batch (guint          source,
          guint64        first_position,
          const guint8  *elements,
          guint          n,
          gsize          stride,
          guint64        missed,
          gpointer       data)
{
  TwCliUst *self = data;
  SensorState *state = sensor_state (self, source);

  if (!state->schema_sent)
    send_schema (self, source, stride);
  if (!state->schema_sent)
    return;
  self->emit->sensor_elements (self->monitor_id, source, first_position, elements, n, stride,
                               state->payload_size, missed);
}

/**
 * tw_cli_ust_new:
 *
 * Loads the LTTng-UST module and hooks into @monitor's sensors (call before the first
 * poll). LTTng-UST registers with the session daemon of the user (LTTNG_HOME) now; the
 * events go wherever that daemon's sessions that enabled them send them.
 *
 * Returns: (transfer full) (nullable): %NULL with @error saying why not
 */
TwCliUst *
tw_cli_ust_new (TwMonitor  *monitor,
                GError    **error)
{
  g_autofree char *path = find_module (error);
  g_autoptr(TwCliUst) self = NULL;
  TwUstEmitterGetFunc get = NULL;

  if (path == NULL)
    return NULL;
  self = g_new0 (TwCliUst, 1);
  self->sensors = g_array_new (FALSE, TRUE, sizeof (SensorState));
  self->monitor = g_object_ref (monitor);
  self->monitor_id = (guint32) getpid ();
  self->module = g_module_open (path, G_MODULE_BIND_LOCAL);
  if (self->module == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "--lttng: %s", g_module_error ());
      return NULL;
    }
  /* liblttng-ust cannot be unloaded (its threads stay): the module stays too */
  g_module_make_resident (self->module);
  if (!g_module_symbol (self->module, TW_UST_EMITTER_SYMBOL, (gpointer *) &get) || get == NULL
      || (self->emit = get ()) == NULL || self->emit->version != TW_UST_EMITTER_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "--lttng: %s is not the LTTng-UST module of this tracewb-cli", path);
      return NULL;
    }
  tw_monitor_set_batch_func (monitor, on_batch, self);
  self->last_counts_us = g_get_monotonic_time ();
  return g_steal_pointer (&self);
}

const TwUstEmitter *
tw_cli_ust_get_emitter (TwCliUst *self)
{
  return self->emit;
}

/* The id every event of this monitor carries (its process id). */
guint32
tw_cli_ust_get_monitor (TwCliUst *self)
{
  return self->monitor_id;
}

/**
 * tw_cli_ust_poll:
 * @final: the monitor stopped: send every sensor's counts now
 *
 * Call after each tw_monitor_poll(): every second (and at the end), each sensor's schema
 * and counts, so that a viewer attached since decodes, and the receiver knows the
 * misses no later element told it.
 */
void
tw_cli_ust_poll (TwCliUst *self,
                 gboolean  final)
{
  gint64 now = g_get_monotonic_time ();
  guint n = tw_monitor_get_n_sources (self->monitor);

  if (!final && now - self->last_counts_us < COUNTS_EVERY_US)
    return;
  self->last_counts_us = now;
  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;
      SensorState *state;

      if (!tw_monitor_get_source_info (self->monitor, i, &info) || info.schema == NULL)
        continue;
      state = sensor_state (self, i);
      if (!state->schema_sent && info.counts.received + info.counts.missed == 0 && !final)
        continue;
      /* again every second: a live viewer attached since must be able to decode */
      send_schema (self, i, state->element_size);
      self->emit->sensor_counts (self->monitor_id, i, info.counts.received, info.counts.missed,
                                 info.counts.inconsistent, info.counts.nonmonotonic);
    }
}

void
tw_cli_ust_free (TwCliUst *self)
{
  if (self == NULL)
    return;
  if (self->monitor)
    tw_monitor_set_batch_func (self->monitor, NULL, NULL);
  g_clear_object (&self->monitor);
  g_clear_pointer (&self->sensors, g_array_unref);
  /* the module stays loaded (resident); the handle goes */
  g_clear_pointer (&self->module, g_module_close);
  g_free (self);
}
