/* bench-formats.c: trace.dat and CTF ingest beside trace-cmd and babeltrace2, one run
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-formats [TRACE.dat [CTF-DIR [RUNS]]]
 *
 * TRACE.dat defaults to /tmp/big.dat (record it as docs/trace-dat-and-ctf.md says; it is
 * never committed), CTF-DIR to the largest shared LTTng trace (many-threads). Best of
 * RUNS (3) for each, wall and CPU time (children's rusage for the tools, the process's
 * CPU clock for in-process work, both for out-of-process reading), and the ratios the
 * issue sets as targets. Our readers run twice per round: in this process, and out of
 * process as tracewb and tracewb-cli run them (docs/out-of-process-reading.md), each
 * followed by one pass over every row and payload byte, where a mapping's deferred
 * costs would show.
 */
#include "config.h"

#include "tw-bench-process.h"

#include <glib/gstdio.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <tw-ingest.h>

#if HAVE_LIBTRACECMD
#include <trace-cmd.h>
#endif

static double
self_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
keep_best (Timing       *best,
           const Timing *t)
{
  best->wall = MIN (best->wall, t->wall);
  best->cpu = MIN (best->cpu, t->cpu);
}

/* Every column of every row and every payload byte, once: what building the state model
 * and scrolling the list touch. */
static guint64
read_every_row (TwTrace *trace)
{
  guint64 sum = 0;

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      for (guint i = 0; i < chunk->n; i++)
        sum += chunk->time[i] + chunk->task[i] + chunk->arg[i] + chunk->payload[i] +
               chunk->type[i] + chunk->cpu[i];
      for (gsize b = 0; b < chunk->blob_len; b += 64)
        sum += chunk->blob[b];
    }
  return sum;
}

/* The reader into a sealed store (*pass: then one pass over it); with
 * TW_LOAD_OUT_OF_PROCESS the CPU time is ours and the child's. */
static Timing
run_ingest (const char  *path,
            const char  *format,
            TwLoadFlags  flags,
            Timing      *pass,
            guint64     *n_events)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  double cpu0 = self_cpu () + children_cpu ();
  gint64 t0 = g_get_monotonic_time ();
  volatile guint64 sum;
  Timing t;

  trace = tw_reader_registry_load_file_full (path, format, flags, NULL, NULL, NULL, &error);
  t = (Timing) { (g_get_monotonic_time () - t0) / 1e6, self_cpu () + children_cpu () - cpu0 };
  if (trace == NULL)
    g_error ("%s", error->message);
  *n_events = tw_trace_get_n_events (trace);
  cpu0 = self_cpu ();
  t0 = g_get_monotonic_time ();
  sum = read_every_row (trace);
  (void) sum;
  *pass = (Timing) { (g_get_monotonic_time () - t0) / 1e6, self_cpu () - cpu0 };
  return t;
}

/* In-process and out-of-process reading, one after the other in each round. */
typedef struct {
  Timing  in, out, in_pass, out_pass;
  guint64 n_in, n_out;
} Ingest;

static void
ingest_round (Ingest     *best,
              const char *path,
              const char *format)
{
  Timing t, pass;

  t = run_ingest (path, format, TW_LOAD_IN_PROCESS, &pass, &best->n_in);
  keep_best (&best->in, &t);
  keep_best (&best->in_pass, &pass);
  t = run_ingest (path, format, TW_LOAD_OUT_OF_PROCESS, &pass, &best->n_out);
  keep_best (&best->out, &t);
  keep_best (&best->out_pass, &pass);
}

#if HAVE_LIBTRACECMD
static int
count_record (struct tracecmd_input *handle,
              struct tep_record     *record,
              int                    cpu,
              void                  *data)
{
  (*(guint64 *) data)++;
  return 0;
}

typedef struct {
  const char *path;
  int         cpu;    /* −1: every CPU */
  guint64     n;
} BareLoop;

/* The peer's floor: open the file and count its records, nothing decoded. */
static gpointer
bare_loop (gpointer data)
{
  BareLoop *loop = data;
  struct tracecmd_input *handle = tracecmd_open (loop->path, TRACECMD_FL_LOAD_NO_PLUGINS);
  cpu_set_t set;

  if (handle == NULL)
    g_error ("libtracecmd cannot open %s", loop->path);
  CPU_ZERO (&set);
  if (loop->cpu >= 0)
    CPU_SET (loop->cpu, &set);
  tracecmd_iterate_events (handle, loop->cpu >= 0 ? &set : NULL, loop->cpu >= 0 ? sizeof set : 0,
                           count_record, &loop->n);
  tracecmd_close (handle);
  return NULL;
}

static Timing
run_bare (const char *path,
          guint       n_threads,
          guint64    *n)
{
  double cpu0 = self_cpu ();
  gint64 t0 = g_get_monotonic_time ();
  BareLoop loops[2] = { { path, n_threads > 1 ? 0 : -1, 0 }, { path, 1, 0 } };
  GThread *threads[2] = { NULL, NULL };

  if (n_threads == 1)
    bare_loop (&loops[0]);
  else
    {
      for (guint i = 0; i < 2; i++)
        threads[i] = g_thread_new ("bare", bare_loop, &loops[i]);
      for (guint i = 0; i < 2; i++)
        g_thread_join (threads[i]);
    }
  *n = loops[0].n + (n_threads > 1 ? loops[1].n : 0);
  return (Timing) { (g_get_monotonic_time () - t0) / 1e6, self_cpu () - cpu0 };
}
#endif

static void
print_row (const char   *what,
           const Timing *t,
           guint64       n_events)
{
  g_print ("  %-44s %8.3f s wall %8.3f s CPU", what, t->wall, t->cpu);
  if (n_events)
    g_print ("  %6.2f M events/s CPU", n_events / t->cpu / 1e6);
  g_print ("\n");
}

static void
print_ratio (const char   *what,
             const Timing *ours,
             const Timing *peer,
             double        target)
{
  g_print ("  %-44s %8.3f x wall %8.3f x CPU   (target <= %.2fx: %s)\n", what,
           ours->wall / peer->wall, ours->cpu / peer->cpu, target,
           ours->cpu / peer->cpu <= target ? "met on CPU time" : "NOT met on CPU time");
}

static void
print_ingest (const Ingest *best,
              const char   *what)
{
  Timing in_total = { best->in.wall + best->in_pass.wall, best->in.cpu + best->in_pass.cpu };
  Timing out_total = { best->out.wall + best->out_pass.wall, best->out.cpu + best->out_pass.cpu };
  g_autofree char *in = g_strdup_printf ("%s -> sealed store", what);

  print_row (in, &best->in, best->n_in);
  print_row ("  same, out of process (tracewb-reader)", &best->out, best->n_out);
  print_row ("  then every row read once, in process", &best->in_pass, 0);
  print_row ("  then every row read once, out of process", &best->out_pass, 0);
  print_ratio ("out of process / in process, reading", &best->out, &best->in, 1.05);
  print_ratio ("out of process / in process, with the pass", &out_total, &in_total, 1.05);
  if (best->n_in != best->n_out)
    g_print ("  WARNING: out of process read %" G_GUINT64_FORMAT " events, in process %"
             G_GUINT64_FORMAT "\n", best->n_out, best->n_in);
}

static void
bench_trace_dat (const char *dat,
                 guint       runs)
{
#if HAVE_LIBTRACECMD
  const Timing worst = { G_MAXDOUBLE, G_MAXDOUBLE };

  if (!g_file_test (dat, G_FILE_TEST_EXISTS))
    g_print ("trace.dat: %s is missing. Record one (about 80 MB, 30 s) with\n"
             "  unshare -m ../shared/tools/ns-wrap.sh trace-cmd record --file-version 6 -b 16384 "
             "-o %s -e sched -e irq ../shared/tools/workload.sh 30 1 30000\n"
             "and run again (see docs/trace-dat-and-ctf.md).\n\n", dat, dat);
  else
    {
      const char *report[] = { "trace-cmd", "report", dat, NULL };
      Timing t_report = worst, t_bare = worst, t_bare2 = worst;
      Ingest ours = { worst, worst, worst, worst, 0, 0 };
      guint64 n_bare = 0, n_bare2 = 0;
      GStatBuf st;

      g_stat (dat, &st);
      for (guint i = 0; i < runs; i++)
        {
          Timing t;

          t = tw_bench_run_process (report, FALSE);
          keep_best (&t_report, &t);
          t = run_bare (dat, 1, &n_bare);
          keep_best (&t_bare, &t);
          t = run_bare (dat, 2, &n_bare2);
          keep_best (&t_bare2, &t);
          ingest_round (&ours, dat, "trace-dat");
        }
      g_print ("trace.dat %s (%.1f MB, %" G_GUINT64_FORMAT " events)\n", dat,
               st.st_size / 1e6, ours.n_in);
      print_row ("trace-cmd report > /dev/null", &t_report, ours.n_in);
      print_row ("bare tracecmd_iterate_events count", &t_bare, n_bare);
      print_row ("bare count, 2 threads, one handle per CPU", &t_bare2, n_bare2);
      print_ingest (&ours, "tracewb trace-dat reader");
      print_ratio ("ours / trace-cmd report", &ours.in, &t_report, 0.15);
      print_ratio ("ours / bare iteration loop", &ours.in, &t_bare, 1.5);
      if (n_bare != ours.n_in || n_bare2 != ours.n_in)
        g_print ("  WARNING: counts differ (bare %" G_GUINT64_FORMAT ", 2 threads %" G_GUINT64_FORMAT
                 ", ours %" G_GUINT64_FORMAT ")\n", n_bare, n_bare2, ours.n_in);
      g_print ("\n");
    }
#else
  g_print ("trace.dat: support not built (libtracecmd-dev missing), %s not read\n\n", dat);
#endif
}

static void
bench_ctf (const char *ctf,
           guint       runs)
{
#if HAVE_BABELTRACE
  const Timing worst = { G_MAXDOUBLE, G_MAXDOUBLE };

  if (!g_file_test (ctf, G_FILE_TEST_IS_DIR))
    g_print ("CTF: %s is missing\n", ctf);
  else
    {
      const char *text[] = { "babeltrace2", ctf, NULL };
      const char *dummy[] = { "babeltrace2", "-o", "dummy", ctf, NULL };
      Timing t_text = worst, t_dummy = worst;
      Ingest ours = { worst, worst, worst, worst, 0, 0 };

      for (guint i = 0; i < runs; i++)
        {
          Timing t;

          t = tw_bench_run_process (text, FALSE);
          keep_best (&t_text, &t);
          t = tw_bench_run_process (dummy, FALSE);
          keep_best (&t_dummy, &t);
          ingest_round (&ours, ctf, "ctf");
        }
      g_print ("CTF %s (%" G_GUINT64_FORMAT " events)\n", ctf, ours.n_in);
      print_row ("babeltrace2 DIR > /dev/null (text)", &t_text, ours.n_in);
      print_row ("babeltrace2 -o dummy DIR", &t_dummy, ours.n_in);
      print_ingest (&ours, "tracewb ctf reader");
      print_ratio ("ours / babeltrace2 text", &ours.in, &t_text, 0.6);
      print_ratio ("ours / babeltrace2 dummy sink", &ours.in, &t_dummy, 1.3);
    }
#else
  g_print ("CTF: support not built (libbabeltrace2-dev missing), %s not read\n", ctf);
#endif
}

int
main (int    argc,
      char **argv)
{
  const char *dat = argc > 1 ? argv[1] : "/tmp/big.dat";
  g_autofree char *ctf = argc > 2 ? g_strdup (argv[2])
                                  : g_build_filename (TW_SOURCE_DIR, "..", "shared", "traces", "ctf",
                                                      "lttng-kernel-many-threads", "trace", NULL);
  guint runs = argc > 3 ? MAX (1, atoi (argv[3])) : 3;

  /* the build tree's helper, unless told otherwise */
  g_setenv (TW_READER_HELPER_ENV, TW_READER_HELPER_BUILT, FALSE);
  g_print ("bench-formats: best of %u runs; the machine may be loaded, so compare CPU times\n\n", runs);
  bench_trace_dat (dat, runs);
  bench_ctf (ctf, runs);
  return 0;
}
