/* tw-cli-calibrate.c: `tracewb-cli calibrate`: what one trace event costs on this machine
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Espinosa et al. 2003 §2 subtract from a measurement the time the tracing system took
 * to store its intermediate events; that needs the cost of one event, which only this
 * machine can say. Each source is timed in rounds — a sensor's write and commit in a
 * loop; an ftrace event as the difference between a syscall with its tracepoint
 * recording into a private instance and the same syscall with the tracepoint off — and
 * the median round is stored (tw-event-cost.h) with the rounds' interquartile range.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <tw-evaluators.h>
#include <tw-sensor.h>
#include <unistd.h>
#if HAVE_LIBTRACEFS
#include <tracefs.h>
#endif

#include "tw-cli.h"

typedef struct {
  gboolean  sensor;
  gboolean  ftrace;
  gboolean  show;
  char    **set;
  int       rounds;
  gint64    events;
} CliCalibrate;

static void
cli_calibrate_clear (CliCalibrate *self)
{
  g_clear_pointer (&self->set, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliCalibrate, cli_calibrate_clear)

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static char *
dup_machine (void)
{
  struct utsname u;
  g_autofree char *cpu = NULL;
  g_autofree char *cpuinfo = NULL;

  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL))
    {
      const char *line = strstr (cpuinfo, "model name");
      const char *colon = line ? strchr (line, ':') : NULL;

      if (colon)
        cpu = g_strstrip (g_strndup (colon + 1, strcspn (colon + 1, "\n")));
    }
  if (uname (&u) < 0)
    return g_strdup (cpu ? cpu : "");
  return g_strdup_printf ("%s, Linux %s, %s", u.nodename, u.release, cpu ? cpu : u.machine);
}

/* The median and interquartile range of the per-event costs of the rounds. */
static void
summarise (GArray                 *costs,
           TwEventCostCalibration *calibration)
{
  double *v = (double *) costs->data;
  guint n = costs->len;

  g_array_sort (costs, compare_doubles);
  calibration->cost_ns = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  calibration->spread_ns = v[(3 * n) / 4] - v[n / 4];
  calibration->n_rounds = n;
}

static gboolean
store (const char              *source,
       TwEventCostCalibration  *calibration,
       GError                 **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  calibration->measured = g_date_time_format_iso8601 (now);
  calibration->machine = dup_machine ();
  if (!tw_event_cost_store (source, calibration, error))
    return FALSE;
  if (calibration->n_rounds == 0)
    g_print ("%-7s %9.1f ns per event (given)\n", source, calibration->cost_ns);
  else
    g_print ("%-7s %9.1f ns per event (interquartile range %.1f ns, %u rounds of %"
             G_GUINT64_FORMAT " events)\n", source, calibration->cost_ns, calibration->spread_ns,
             calibration->n_rounds, calibration->events_per_round);
  return TRUE;
}

/* A sensor in a folder of its own, so that no monitor attaches to it while it is timed. */
static gboolean
calibrate_sensor (CliCalibrate  *self,
                  GError       **error)
{
  g_autofree char *dir = g_dir_make_tmp ("tw-calibrate-XXXXXX", error);
  g_autofree char *old_dir = g_strdup (g_getenv ("TRACEWB_SENSOR_DIR"));
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(TwEventCostCalibration) calibration = { .events_per_round = self->events };
  TwSensor *sensor;

  if (dir == NULL)
    return FALSE;
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  sensor = tw_sensor_new ("calibrate", "event", "u64 seq; u32 cpu", 4096, TW_SENSOR_UNLINK_ON_FREE);
  if (old_dir)
    g_setenv ("TRACEWB_SENSOR_DIR", old_dir, TRUE);
  else
    g_unsetenv ("TRACEWB_SENSOR_DIR");
  if (sensor == NULL)
    {
      int saved = errno;

      g_rmdir (dir);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot make a sensor in %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  for (int r = 0; r < self->rounds; r++)
    {
      gint64 start = g_get_monotonic_time ();
      double cost;

      for (gint64 i = 0; i < self->events; i++)
        {
          struct { guint64 seq; guint32 cpu; } *e = tw_sensor_write (sensor);

          e->seq = i;
          e->cpu = 0;
          tw_sensor_commit (sensor, e);
        }
      cost = (g_get_monotonic_time () - start) * 1e3 / self->events;
      g_array_append_val (costs, cost);
    }
  tw_sensor_free (sensor);
  g_rmdir (dir);
  summarise (costs, &calibration);
  return store ("sensor", &calibration, error);
}

#if HAVE_LIBTRACEFS
/* ns per getppid(), the cheapest syscall with a tracepoint of its own */
static double
time_syscalls (gint64 n)
{
  gint64 start = g_get_monotonic_time ();

  for (gint64 i = 0; i < n; i++)
    syscall (SYS_getppid);
  return (g_get_monotonic_time () - start) * 1e3 / n;
}

static gboolean
time_ftrace_rounds (CliCalibrate              *self,
                    struct tracefs_instance   *instance,
                    GArray                    *costs,
                    GError                   **error)
{
  for (int r = 0; r < self->rounds; r++)
    {
      double off, on, cost;

      if (tracefs_event_disable (instance, "syscalls", "sys_enter_getppid") < 0)
        goto failed;
      off = time_syscalls (self->events);
      if (tracefs_event_enable (instance, "syscalls", "sys_enter_getppid") < 0)
        goto failed;
      on = time_syscalls (self->events);
      cost = on - off;
      g_array_append_val (costs, cost);
    }
  return TRUE;

failed:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "ftrace: cannot switch the tracepoint syscalls/sys_enter_getppid (a kernel "
               "without syscall tracepoints?)");
  return FALSE;
}

/* In a private tracefs instance, named as the live kernel source names its own so
 * that a calibration killed midway leaves nothing behind for long. */
static gboolean
calibrate_ftrace (CliCalibrate  *self,
                  GError       **error)
{
  g_autofree char *name = g_strdup_printf ("tracewb-%d-0", (int) getpid ());
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(TwEventCostCalibration) calibration = { .events_per_round = self->events };
  struct tracefs_instance *instance;
  gboolean ok;

  if (geteuid () != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "ftrace: timing a kernel event needs root (a tracefs instance)");
      return FALSE;
    }
  if (tracefs_tracing_dir () == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "ftrace: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
      return FALSE;
    }
  if (!(instance = tracefs_instance_create (name)))
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "ftrace: cannot create the tracefs instance “%s”: %s", name, g_strerror (saved));
      return FALSE;
    }
  ok = tracefs_trace_on (instance) == 0 && time_ftrace_rounds (self, instance, costs, error);
  if (!ok && error && *error == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "ftrace: cannot start tracing in “%s”", name);
  tracefs_event_disable (instance, "syscalls", "sys_enter_getppid");
  tracefs_trace_off (instance);
  tracefs_instance_destroy (instance);
  tracefs_instance_free (instance);
  if (!ok)
    return FALSE;
  summarise (costs, &calibration);
  return store ("ftrace", &calibration, error);
}
#else
static gboolean
calibrate_ftrace (CliCalibrate  *self,
                  GError       **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "ftrace: this tracewb-cli was built without libtracefs");
  return FALSE;
}
#endif

static const char *const sources[] = { "ftrace", "sensor", "lttng", "shark", "csv" };

static gboolean
is_source (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    if (strcmp (name, sources[i]) == 0)
      return TRUE;
  return FALSE;
}

/* SOURCE=COST or SOURCE:TYPE=COST: a cost measured elsewhere (e.g. on the target, or
 * from the S.Ha.R.K. manual's figures) stored as if calibrated here; a TYPE's cost is
 * stored in a group of its own ([ftrace:sched_switch]) that traces of SOURCE use for
 * that type (tw_event_cost_lookup_for_trace()). */
static gboolean
set_given (const char  *assignment,
           GError     **error)
{
  const char *eq = strchr (assignment, '=');
  g_autofree char *source = eq ? g_strndup (assignment, eq - assignment) : NULL;
  char *colon = source ? strchr (source, ':') : NULL;
  g_auto(TwEventCostCalibration) calibration = { 0 };
  gboolean known;

  if (colon != NULL)
    *colon = '\0';
  known = source != NULL && is_source (source) && (colon == NULL || colon[1] != '\0');
  if (colon != NULL)
    *colon = ':';
  if (!known)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--set “%s”: expected SOURCE=COST or SOURCE:TYPE=COST, SOURCE one of "
                   "ftrace, sensor, lttng, shark, csv", assignment);
      return FALSE;
    }
  if (!tw_event_cost_parse (eq + 1, &calibration.cost_ns, error))
    return FALSE;
  return store (source, &calibration, error);
}

static int
show (void)
{
  g_autofree char *path = tw_event_cost_dup_store_path ();
  GError *error = NULL;
  g_auto(GStrv) stored = tw_event_cost_dup_stored (&error);
  guint n = 0;

  if (stored == NULL)
    return tw_cli_fail ("calibrate", error);
  /* each source, then the single types stored for it */
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    for (guint k = 0; stored[k]; k++)
      {
        g_auto(TwEventCostCalibration) c = { 0 };
        gsize len = strlen (sources[i]);

        if (strncmp (stored[k], sources[i], len) != 0 || (stored[k][len] != '\0' && stored[k][len] != ':'))
          continue;
        if (!tw_event_cost_lookup (stored[k], &c, NULL))
          continue;
        n++;
        if (c.n_rounds == 0)
          g_print ("%-7s %9.1f ns per event (given, %s)\n", stored[k], c.cost_ns, c.measured);
        else
          g_print ("%-7s %9.1f ns per event (interquartile range %.1f ns, %u rounds of %"
                   G_GUINT64_FORMAT " events; %s on %s)\n", stored[k], c.cost_ns, c.spread_ns,
                   c.n_rounds, c.events_per_round, c.measured, c.machine);
      }
  if (n == 0)
    g_print ("no tracing cost stored in %s yet\n", path);
  return 0;
}

int
tw_cli_calibrate (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("— measure what storing one trace event costs on this machine");
  g_auto(CliCalibrate) self = { .rounds = 21, .events = 200000 };
  GError *error = NULL;
  int status = 0;
  const GOptionEntry entries[] = {
    { "sensor", 0, 0, G_OPTION_ARG_NONE, &self.sensor, "Time a sensor's write and commit", NULL },
    { "ftrace", 0, 0, G_OPTION_ARG_NONE, &self.ftrace,
      "Time one ftrace event (root, tracefs mounted)", NULL },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &self.rounds, "Rounds per source (default 21)", "N" },
    { "events", 0, 0, G_OPTION_ARG_INT64, &self.events, "Events per round (default 200000)", "N" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &self.set,
      "Store a cost measured elsewhere, e.g. lttng=1.1us (repeatable)", "SOURCE=COST" },
    { "show", 0, 0, G_OPTION_ARG_NONE, &self.show, "Print the stored costs", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 1 || self.rounds < 3 || self.rounds > 1000 || self.events < 1000 ||
      self.events > G_GINT64_CONSTANT (1000000000))
    {
      g_printerr ("usage: tracewb-cli calibrate [--sensor] [--ftrace] [--rounds N] [--events N]\n"
                  "       tracewb-cli calibrate --set SOURCE=COST …\n"
                  "       tracewb-cli calibrate --show\n");
      return 2;
    }
  if (self.show)
    return show ();
  if (self.set)
    {
      for (guint i = 0; self.set[i]; i++)
        if (!set_given (self.set[i], &error))
          return tw_cli_fail ("calibrate", error);
      return 0;
    }

  /* without a choice, every source this machine can time; ftrace may be out of reach */
  if (!self.sensor && !self.ftrace)
    {
      if (!calibrate_sensor (&self, &error))
        return tw_cli_fail ("calibrate", error);
      if (!calibrate_ftrace (&self, &error))
        {
          g_printerr ("tracewb-cli calibrate: %s; not calibrated\n", error->message);
          g_clear_error (&error);
        }
      return 0;
    }
  if (self.sensor && !calibrate_sensor (&self, &error))
    status = tw_cli_fail ("calibrate", g_steal_pointer (&error));
  if (self.ftrace && !calibrate_ftrace (&self, &error))
    status = tw_cli_fail ("calibrate", g_steal_pointer (&error));
  return status;
}
