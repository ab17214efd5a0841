/* tw-live-lttng.c: an LTTng live session (through a relay) as a live source
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `net://HOST[:PORT]/host/TARGET/SESSION` is read by babeltrace2's src.ctf.lttng-live in
 * a helper process (tw-lttng-live-child.c), which sends the rows here in batches over a
 * pipe: a babeltrace2 abort or a relay that goes away ends the helper, never the
 * program. This source reads the pipe at each poll (nonblocking, at most READ_QUOTA
 * bytes), maps the helper's type, task and string ids to the store's, and queues the
 * rows.
 *
 * Time: the target's clock, ns from the Unix epoch, as the CTF reader gives it. The
 * source is its own horizon (TwLiveSource.own_clock): lttng-live delivers a session's
 * streams merged in time order and says how far quiet streams are complete (inactivity
 * messages), and the helper forwards that.
 *
 * Faults: when the helper ends (the relay went away: connection refused or reset; the
 * session was destroyed: lttng-live ends its graph; babeltrace2 crashed), the source
 * says why in TwLiveSource.connection / connection_error, keeps what it received and
 * starts a new helper after a back-off (1 s, doubling to 30 s; back to 1 s once a
 * connection delivered rows). A new helper reads the session from where the relay
 * stands now: what the target flushed while nobody was attached is on the relay's
 * disk, not in the live stream.
 * Losses: LTTng's discarded events/packets become `discarded_events`/`discarded_packets`
 * rows of kind LOST on the stream's CPU (the CTF reader's mapping) and are counted in
 * counts.missed; a target sensor's misses (lost rows on its task) are not: they are the
 * sensor's, told on its own row.
 */
#include "config.h"

#include "tw-live-lttng.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tw-lttng-live-protocol-private.h"
#include "tw-reader-process.h"
#include "tw-row-reorder-private.h"
#include "tw-sensor-layout-private.h"

#define READ_QUOTA       (8u << 20)
#define READ_CHUNK       (256 * 1024)
#define LAST_WORDS_KEEP  4096
#define BACKOFF_FIRST_MS 1000
#define BACKOFF_MAX_MS   30000
#define STOP_GRACE_MS    500
#define LIST_TIMEOUT_S   15

typedef struct {
  guint16  type;          /* in the store */
  guint16  payload_size;
  gboolean lost;
  GArray  *string_offsets; /* guint16: string ids to map */
  GArray  *task_offsets;   /* guint16: task indexes to map */
} TypeMap;

typedef struct {
  TwLiveSource  parent;
  char         *url;
  gboolean      reconnect;
  GPid          pid;
  int           data_fd;
  int           output_fd;
  GByteArray   *in;          /* bytes of the pipe not yet a whole frame */
  GByteArray   *last_words;  /* the helper's stderr, its last LAST_WORDS_KEEP bytes */
  GArray       *types;       /* TypeMap by the helper's type id */
  GArray       *tasks;       /* guint32 by the helper's task id */
  GArray       *strings;     /* guint32 by the helper's string id */
  guint32      *string_slots; /* the store's string id by slot (TW_LTTNG_STRING_SLOT) */
  guint8       *payload;     /* a row's payload while its ids are mapped */
  gsize         payload_cap;
  char         *end_reason;  /* from an END or ERROR frame */
  gboolean      ended;
  gboolean      got_rows;    /* this helper delivered rows */
  gboolean      ever_started;
  guint64       restart_at_ns;
  guint         backoff_ms;
  char         *host;        /* tw_live_lttng_set_host: tasks and CPUs are this host's */
  GArray       *host_cpus;   /* guint16 store CPU by the target's CPU number (host set) */
  const char   *target;      /* interned: the target's hostname in the URL */
  GArray       *sensors;     /* RemoteSensor, in the order they appeared */
  TwRowReorder  held;        /* rows after the horizon, waiting to be queued in order */
  GHashTable   *sensor_keys; /* monitor << 32 | its sensor index → index in @sensors + 1 */
  TwLttngArrivalFunc arrival_func;
  gpointer      arrival_data;
} LttngSource;

typedef struct {
  TwLttngRemoteSensor pub;
  /* by helpers that ended, and by the current one */
  guint64             decoded_before, lost_before, duplicates_before, restarts_before;
  guint64             decoded_now, lost_now, duplicates_now, restarts_now;
  guint64             n_counts_before, n_counts_now;   /* counts events decoded */
} RemoteSensor;

/* ---------------------------------------------------------------- URLs */

/**
 * tw_live_lttng_parse_url:
 * @relay_url: (out) (optional): `net://HOST:PORT`, for listing the relay's sessions
 * @target: (out) (optional), @session: (out) (optional): %NULL when @url names only the
 *   relay
 *
 * Checks `net://HOST[:PORT][/host/TARGET/SESSION]`.
 *
 * Returns: %FALSE with @error saying what is wrong in @url
 */
gboolean
tw_live_lttng_parse_url (const char  *url,
                         char       **relay_url,
                         char       **target,
                         char       **session,
                         GError     **error)
{
  const char *rest;
  g_autofree char *hostport = NULL;
  g_auto(GStrv) parts = NULL;
  const char *slash, *colon;
  guint64 port = TW_LTTNG_LIVE_DEFAULT_PORT;

  if (!g_str_has_prefix (url, "net://"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: an LTTng live URL starts with net:// (net://HOST[:PORT]/host/TARGET/SESSION)"), url);
      return FALSE;
    }
  rest = url + 6;
  slash = strchr (rest, '/');
  hostport = slash ? g_strndup (rest, slash - rest) : g_strdup (rest);
  colon = strrchr (hostport, ':');
  /* a port after the host; an IPv6 literal keeps its colons inside brackets */
  if (colon && (hostport[0] != '[' || (strchr (hostport, ']') && strchr (hostport, ']') < colon)))
    {
      char *end = NULL;

      port = g_ascii_strtoull (colon + 1, &end, 10);
      if (end == colon + 1 || *end || port == 0 || port > 65535)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: “%s” is not a port number"), url, colon + 1);
          return FALSE;
        }
      hostport[colon - hostport] = '\0';
    }
  if (hostport[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: no relay host after net://"), url);
      return FALSE;
    }
  if (slash && slash[1])
    {
      parts = g_strsplit (slash + 1, "/", -1);
      if (g_strv_length (parts) != 3 || strcmp (parts[0], "host") != 0 || !parts[1][0] || !parts[2][0])
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: the session part must be /host/TARGET/SESSION"), url);
          return FALSE;
        }
    }
  if (relay_url)
    *relay_url = g_strdup_printf ("net://%s:%" G_GUINT64_FORMAT, hostport, port);
  if (target)
    *target = parts ? g_strdup (parts[1]) : NULL;
  if (session)
    *session = parts ? g_strdup (parts[2]) : NULL;
  return TRUE;
}

/* ---------------------------------------------------------------- the helper */

/* The pipe is read at each poll of the monitor (every few ms): a default pipe of 64 KiB
 * holds about 1 300 rows, and a helper that fills it waits for the next poll — a window
 * polling every 10 ms would take at most 130 000 rows a second. A pipe as large as the
 * system lets us (1 MiB unprivileged) keeps the helper decoding between polls. */
static void
widen_pipe (int fd)
{
  for (int size = 4 << 20; size >= 256 << 10; size /= 2)
    if (fcntl (fd, F_SETPIPE_SZ, size) >= 0)
      return;
}

static gboolean
spawn_helper (const char  *mode,
              const char  *url,
              GPid        *pid,
              int         *data_fd,
              int         *output_fd,
              GError     **error)
{
  g_autofree char *helper = tw_reader_process_dup_helper_path (error);
  int data_pipe[2], output_pipe[2];
  const int target_fds[1] = { TW_LTTNG_DATA_FD };
  gboolean ok;

  if (helper == NULL)
    return FALSE;
  if (!g_unix_open_pipe (data_pipe, FD_CLOEXEC, error))
    return FALSE;
  widen_pipe (data_pipe[0]);
  if (!g_unix_open_pipe (output_pipe, FD_CLOEXEC, error))
    {
      close (data_pipe[0]);
      close (data_pipe[1]);
      return FALSE;
    }
  {
    const char *argv[] = { helper, mode, url, NULL };
    int source_fds[1] = { data_pipe[1] };

    ok = g_spawn_async_with_pipes_and_fds (NULL, argv, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_LEAVE_DESCRIPTORS_OPEN,
                                           NULL, NULL, -1, output_pipe[1], output_pipe[1],
                                           source_fds, target_fds, 1, pid, NULL, NULL, NULL, error);
  }
  close (data_pipe[1]);
  close (output_pipe[1]);
  if (!ok)
    {
      close (data_pipe[0]);
      close (output_pipe[0]);
      return FALSE;
    }
  *data_fd = data_pipe[0];
  *output_fd = output_pipe[0];
  return TRUE;
}

static int
reap (GPid pid)
{
  int status = 0;

  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return status;
}

/* Ends @pid (ours), politely first. */
static void
stop_helper (GPid pid)
{
  int status;

  kill (pid, SIGTERM);
  for (guint i = 0; i < STOP_GRACE_MS / 10; i++)
    {
      pid_t r = waitpid (pid, &status, WNOHANG);

      if (r == pid || (r < 0 && errno != EINTR))
        return;
      g_usleep (10000);
    }
  kill (pid, SIGKILL);
  reap (pid);
}

static void
keep_last_words (GByteArray   *words,
                 const guint8 *data,
                 gsize         len)
{
  g_byte_array_append (words, data, len);
  if (words->len > LAST_WORDS_KEEP)
    g_byte_array_remove_range (words, 0, words->len - LAST_WORDS_KEEP / 2);
}

/* The helper's last non-empty line of output, for the message. */
static char *
dup_last_line (GByteArray *words)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  /* a helper that said nothing (its stderr empty: no data at all) */
  if (words->len == 0)
    return NULL;
  text = g_utf8_make_valid ((const char *) words->data, words->len);
  lines = g_strsplit (text, "\n", -1);

  for (guint i = g_strv_length (lines); i-- > 0;)
    if (*g_strstrip (lines[i]))
      return g_strdup (lines[i]);
  return NULL;
}

static char *
describe_exit (int         status,
               const char *reported,
               GByteArray *words)
{
  g_autofree char *last = NULL;

  if (reported)
    return g_strdup (reported);
  last = dup_last_line (words);
  if (WIFSIGNALED (status))
    return g_strdup_printf (_("the babeltrace2 helper crashed (SIG%s)%s%s"),
                            sigabbrev_np (WTERMSIG (status)) ? sigabbrev_np (WTERMSIG (status)) : "?",
                            last ? ": " : "", last ? last : "");
  return g_strdup_printf (_("the babeltrace2 helper quit (exit status %d)%s%s"),
                          WIFEXITED (status) ? WEXITSTATUS (status) : -1,
                          last ? ": " : "", last ? last : "");
}

/* ---------------------------------------------------------------- frames */

static const char *
take_str (const guint8 **p,
          const guint8  *end)
{
  const guint8 *nul = memchr (*p, '\0', end - *p);
  const char *s = (const char *) *p;

  if (nul == NULL)
    return NULL;
  *p = nul + 1;
  return s;
}

static gboolean
bad_frame (LttngSource  *self,
           GError      **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s: the LTTng live helper sent a malformed frame"), self->url);
  return FALSE;
}

static void
type_map_clear (gpointer data)
{
  TypeMap *map = data;

  g_clear_pointer (&map->string_offsets, g_array_unref);
  g_clear_pointer (&map->task_offsets, g_array_unref);
}

static gboolean
take_type (LttngSource   *self,
           TwTrace       *trace,
           const guint8  *p,
           const guint8  *end,
           GError       **error)
{
  guint16 id, kind, n;
  const char *name, *family;
  g_autofree TwFieldSpec *specs = NULL;
  const TwEventType *info;
  TypeMap *map;

  if (end - p < 6)
    return bad_frame (self, error);
  memcpy (&id, p, 2);
  memcpy (&kind, p + 2, 2);
  memcpy (&n, p + 4, 2);
  p += 6;
  if (!(name = take_str (&p, end)) || !(family = take_str (&p, end)))
    return bad_frame (self, error);
  specs = g_new0 (TwFieldSpec, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      if (end - p < 2)
        return bad_frame (self, error);
      specs[i].type = p[0];
      specs[i].flags = p[1];
      p += 2;
      if (!(specs[i].name = take_str (&p, end)))
        return bad_frame (self, error);
    }
  if (id >= self->types->len)
    g_array_set_size (self->types, id + 1);
  map = &g_array_index (self->types, TypeMap, id);
  type_map_clear (map);
  map->type = tw_trace_add_event_type (trace, name, family[0] ? family : NULL, kind, specs, n, error);
  if (map->type == TW_TYPE_NONE)
    {
      g_prefix_error (error, "%s: ", self->url);
      return FALSE;
    }
  info = tw_trace_get_event_type (trace, map->type);
  map->payload_size = info->payload_size;
  map->lost = info->kind == TW_EVENT_KIND_LOST;
  map->string_offsets = g_array_new (FALSE, FALSE, sizeof (guint16));
  map->task_offsets = g_array_new (FALSE, FALSE, sizeof (guint16));
  for (guint i = 0; i < info->n_fields; i++)
    if (info->fields[i].type == TW_FIELD_STRING)
      g_array_append_val (map->string_offsets, info->offsets[i]);
    else if ((info->fields[i].flags & TW_FIELD_FLAG_TASK) && info->fields[i].type == TW_FIELD_U32)
      g_array_append_val (map->task_offsets, info->offsets[i]);
  if (info->payload_size > self->payload_cap)
    {
      self->payload_cap = info->payload_size;
      self->payload = g_realloc (self->payload, self->payload_cap);
    }
  return TRUE;
}

static gboolean
take_task (LttngSource   *self,
           TwTrace       *trace,
           const guint8  *p,
           const guint8  *end,
           GError       **error)
{
  guint32 id, flags, task;
  gint64 pid, tid;
  guint8 has_name;
  const char *source_id, *name;
  g_autofree char *host_id = NULL;

  if (end - p < 25)
    return bad_frame (self, error);
  memcpy (&id, p, 4);
  memcpy (&pid, p + 4, 8);
  memcpy (&tid, p + 12, 8);
  memcpy (&flags, p + 20, 4);
  has_name = p[24];
  p += 25;
  if (!(source_id = take_str (&p, end)) || !(name = take_str (&p, end)))
    return bad_frame (self, error);
  /* tid 1234 of one target is not tid 1234 of another */
  if (self->host)
    source_id = host_id = g_strdup_printf ("%s/%s", self->host, source_id);
  task = tw_trace_lookup_task (trace, source_id);
  if (task == TW_TASK_NONE)
    {
      task = tw_trace_add_task (trace, source_id, has_name ? name : NULL, pid, tid);
      if (self->host)
        tw_trace_set_task_host (trace, task, self->host);
    }
  else
    {
      if (has_name)
        tw_trace_set_task_name (trace, task, name);
      tw_trace_set_task_ids (trace, task, pid, tid);
    }
  tw_trace_set_task_flags (trace, task, flags);
  if (id >= self->tasks->len)
    g_array_set_size (self->tasks, id + 1);
  g_array_index (self->tasks, guint32, id) = task;
  return TRUE;
}

static guint32
map_id (GArray  *map,
        guint32  id)
{
  return id < map->len ? g_array_index (map, guint32, id) : id;
}

static guint32
map_string (LttngSource *self,
            guint32      id)
{
  if (id & TW_LTTNG_STRING_SLOT)
    return self->string_slots[id & (TW_LTTNG_STRING_SLOTS - 1)];
  return map_id (self->strings, id);
}

/* The store's CPU for the target's CPU @cpu: CPU 0 of host A is not CPU 0 of host B. */
static guint16
map_cpu (LttngSource *self,
         TwTrace     *trace,
         guint16      cpu)
{
  guint16 *mapped;

  if (self->host == NULL || cpu == TW_CPU_NONE)
    return cpu;
  if (cpu >= self->host_cpus->len)
    {
      guint old = self->host_cpus->len;

      g_array_set_size (self->host_cpus, cpu + 1);
      for (guint i = old; i <= cpu; i++)
        g_array_index (self->host_cpus, guint16, i) = TW_CPU_NONE;
    }
  mapped = &g_array_index (self->host_cpus, guint16, cpu);
  if (*mapped == TW_CPU_NONE)
    *mapped = tw_trace_add_host_cpu (trace, self->host, cpu);
  return *mapped;
}

/* A target's sensor elements come in the order its monitor sent them — one ring's batch,
 * then another's, each element at its own time, up to the decoder's lag before the
 * event that carried it — and the merge takes a source's queue in order. So rows wait
 * here until the helper's horizon (which the lag holds back) has passed them. */
static void
queue_row (LttngSource *self,
           TwLiveQueue *queue,
           guint64      time,
           guint16      cpu,
           guint16      type,
           guint32      task,
           guint32      arg,
           guint16      size)
{
  if (_tw_row_reorder_is_empty (&self->held) && time <= self->parent.horizon)
    {
      tw_live_queue_push (queue, time, cpu, type, task, arg, self->payload, size);
      self->parent.drained_until = time;
      return;
    }
  _tw_row_reorder_hold (&self->held, time, cpu, type, task, arg, self->payload, size);
}

static void
release_rows (LttngSource *self,
              TwLiveQueue *queue,
              guint64      limit)
{
  _tw_row_reorder_release (&self->held, queue, limit, &self->parent.drained_until);
}

static gboolean
take_rows (LttngSource   *self,
           TwTrace       *trace,
           TwLiveQueue   *queue,
           const guint8  *p,
           const guint8  *end,
           GError       **error)
{
  while (p < end)
    {
      guint64 time;
      guint16 cpu, type, size;
      guint32 task, arg;
      const TypeMap *map;

      if (end - p < TW_LTTNG_ROW_HEAD)
        return bad_frame (self, error);
      memcpy (&time, p, 8);
      memcpy (&cpu, p + 8, 2);
      memcpy (&type, p + 10, 2);
      memcpy (&task, p + 12, 4);
      memcpy (&arg, p + 16, 4);
      memcpy (&size, p + 20, 2);
      p += TW_LTTNG_ROW_HEAD;
      if (type >= self->types->len || end - p < size
          || (map = &g_array_index (self->types, TypeMap, type))->string_offsets == NULL
          || size != map->payload_size)
        return bad_frame (self, error);
      if (size)
        {
          memcpy (self->payload, p, size);
          for (guint i = 0; i < map->string_offsets->len; i++)
            {
              guint16 at = g_array_index (map->string_offsets, guint16, i);
              guint32 v;

              memcpy (&v, self->payload + at, 4);
              v = map_string (self, v);
              memcpy (self->payload + at, &v, 4);
            }
          for (guint i = 0; i < map->task_offsets->len; i++)
            {
              guint16 at = g_array_index (map->task_offsets, guint16, i);
              guint32 v;

              memcpy (&v, self->payload + at, 4);
              if (v != TW_TASK_NONE)
                v = map_id (self->tasks, v);
              memcpy (self->payload + at, &v, 4);
            }
        }
      if (task != TW_TASK_NONE)
        task = map_id (self->tasks, task);
      cpu = map_cpu (self, trace, cpu);
      queue_row (self, queue, time, cpu, map->type, task, arg, size);
      p += size;
      self->got_rows = TRUE;
      /* LTTng's own losses are on a stream's CPU, no task; a target sensor's misses are on
       * its task and counted on the sensor's own row (its monitor's figures), not as
       * events the session lost */
      if (!map->lost)
        self->parent.counts.received++;
      else if (task == TW_TASK_NONE)
        self->parent.counts.missed += arg;
    }
  return TRUE;
}

/* A SENSOR frame: what the target's monitor counts of one of its sensors. */
static gboolean
take_sensor (LttngSource   *self,
             const guint8  *p,
             const guint8  *end,
             GError       **error)
{
  guint32 monitor, index;
  guint64 numbers[9], key;
  const char *task, *sensor, *schema;
  RemoteSensor *rs;
  gpointer found;
  guint8 flags[2];
  double rate, jcs[5];
  gint64 pid;

  if (end - p < TW_LTTNG_SENSOR_HEAD)
    return bad_frame (self, error);
  memcpy (&monitor, p, 4);
  memcpy (&index, p + 4, 4);
  memcpy (&pid, p + 8, 8);
  memcpy (flags, p + 16, 2);
  memcpy (numbers, p + 18, sizeof numbers);
  memcpy (&rate, p + 18 + sizeof numbers, 8);
  memcpy (jcs, p + 26 + sizeof numbers, sizeof jcs);
  p += TW_LTTNG_SENSOR_HEAD;
  if (!(task = take_str (&p, end)) || !(sensor = take_str (&p, end)) || !(schema = take_str (&p, end)))
    return bad_frame (self, error);
  key = (guint64) monitor << 32 | index;
  /* a monitor's sensor keeps its index while the monitor runs: a new helper's reports of
   * it update the same sensor */
  found = g_hash_table_lookup (self->sensor_keys, &key);
  if (found == NULL)
    {
      RemoteSensor fresh = { { 0 } };

      g_array_append_val (self->sensors, fresh);
      found = GUINT_TO_POINTER (self->sensors->len);
      g_hash_table_insert (self->sensor_keys, g_memdup2 (&key, sizeof key), found);
    }
  rs = &g_array_index (self->sensors, RemoteSensor, GPOINTER_TO_UINT (found) - 1);
  rs->pub.host = self->target;
  rs->pub.task = g_intern_string (task);
  rs->pub.sensor = g_intern_string (sensor);
  rs->pub.schema = g_intern_string (schema);
  rs->pub.pid = pid;
  rs->pub.monitor = monitor;
  rs->pub.big_endian = flags[1] != 0;
  rs->pub.period_ns = jcs[0];
  rs->pub.min_distance_ns = jcs[1];
  rs->pub.earliness_ns = jcs[2];
  rs->pub.monitor_period_ns = jcs[3];
  rs->pub.deadline_ns = jcs[4];
  /* counts are the monitor's totals: a helper that attached later still has them whole */
  if (flags[0])
    {
      rs->pub.have_counts = TRUE;
      rs->pub.counts.received = numbers[0];
      rs->pub.counts.missed = numbers[1];
      rs->pub.counts.inconsistent = numbers[2];
      rs->pub.counts.nonmonotonic = numbers[3];
      rs->pub.rate = rate;
    }
  rs->n_counts_now = numbers[8];
  rs->pub.n_counts = rs->n_counts_before + rs->n_counts_now;
  rs->decoded_now = numbers[4];
  rs->lost_now = numbers[5];
  rs->duplicates_now = numbers[6];
  rs->restarts_now = numbers[7];
  rs->pub.decoded = rs->decoded_before + rs->decoded_now;
  rs->pub.lost = rs->lost_before + rs->lost_now;
  rs->pub.duplicates = rs->duplicates_before + rs->duplicates_now;
  rs->pub.restarts = rs->restarts_before + rs->restarts_now;
  self->parent.sensors_changed++;
  return TRUE;
}

/* An ARRIVALS frame: elements of the target's sensors that declared a stream. */
static gboolean
take_arrivals (LttngSource   *self,
               const guint8  *p,
               const guint8  *end,
               GError       **error)
{
  if ((end - p) % TW_LTTNG_ARRIVAL != 0)
    return bad_frame (self, error);
  for (; p < end; p += TW_LTTNG_ARRIVAL)
    {
      guint32 monitor, sensor;
      guint64 key, position, time;
      gpointer found;

      memcpy (&monitor, p, 4);
      memcpy (&sensor, p + 4, 4);
      memcpy (&position, p + 8, 8);
      memcpy (&time, p + 16, 8);
      key = (guint64) monitor << 32 | sensor;
      found = g_hash_table_lookup (self->sensor_keys, &key);
      /* its SENSOR frame comes first; without it the frame is not what the helper sends */
      if (found == NULL)
        return bad_frame (self, error);
      if (self->arrival_func)
        self->arrival_func (&self->parent, GPOINTER_TO_UINT (found) - 1, position, time, self->arrival_data);
    }
  return TRUE;
}

static gboolean
take_frame (LttngSource   *self,
            TwTrace       *trace,
            TwLiveQueue   *queue,
            guint32        kind,
            const guint8  *p,
            gsize          size,
            GError       **error)
{
  const guint8 *end = p + size;

  switch (kind)
    {
    case TW_LTTNG_FRAME_STRING:
      {
        const char *text = (const char *) p + 5;
        guint32 id;
        guint8 state;

        /* NUL-terminated where it lies: one a row, at 10^6 rows/s a copy each counts */
        if (size < 6 || p[4] > TW_TASK_STATE_DEAD || p[size - 1] != 0)
          return bad_frame (self, error);
        memcpy (&id, p, 4);
        state = p[4];
        if (id & TW_LTTNG_STRING_SLOT)
          {
            self->string_slots[id & (TW_LTTNG_STRING_SLOTS - 1)] = tw_trace_intern_string (trace, text);
            return TRUE;
          }
        if (id >= self->strings->len)
          g_array_set_size (self->strings, id + 1);
        /* the state a kernel prev_state spelling stands for travels with it: data/ does
         * not read the letters */
        g_array_index (self->strings, guint32, id) =
          state != TW_TASK_STATE_UNKNOWN ? tw_trace_intern_task_state (trace, text, state)
                                         : tw_trace_intern_string (trace, text);
        return TRUE;
      }
    case TW_LTTNG_FRAME_TYPE:
      return take_type (self, trace, p, end, error);
    case TW_LTTNG_FRAME_TASK:
      return take_task (self, trace, p, end, error);
    case TW_LTTNG_FRAME_ROWS:
      return take_rows (self, trace, queue, p, end, error);
    case TW_LTTNG_FRAME_HORIZON:
      {
        gint64 ns;

        if (size != 8)
          return bad_frame (self, error);
        memcpy (&ns, p, 8);
        if (ns > 0 && (guint64) ns > self->parent.horizon)
          self->parent.horizon = ns;
        release_rows (self, queue, self->parent.horizon);
        return TRUE;
      }
    case TW_LTTNG_FRAME_SENSOR:
      return take_sensor (self, p, end, error);
    case TW_LTTNG_FRAME_ARRIVALS:
      return take_arrivals (self, p, end, error);
    case TW_LTTNG_FRAME_STATE:
      self->parent.connection = TW_LIVE_CONNECTION_CONNECTED;
      return TRUE;
    case TW_LTTNG_FRAME_END:
    case TW_LTTNG_FRAME_ERROR:
      g_free (self->end_reason);
      self->end_reason = g_strndup ((const char *) p, size);
      self->ended = kind == TW_LTTNG_FRAME_END;
      return TRUE;
    default:
      return bad_frame (self, error);
    }
}

/* Takes the whole frames in self->in. */
static gboolean
take_frames (LttngSource  *self,
             TwTrace      *trace,
             TwLiveQueue  *queue,
             GError      **error)
{
  gsize at = 0;

  while (self->in->len - at >= sizeof (TwLttngFrameHeader))
    {
      TwLttngFrameHeader head;

      memcpy (&head, self->in->data + at, sizeof head);
      if (head.size > TW_LTTNG_MAX_FRAME)
        return bad_frame (self, error);
      if (self->in->len - at - sizeof head < head.size)
        break;
      if (!take_frame (self, trace, queue, head.kind, self->in->data + at + sizeof head, head.size, error))
        return FALSE;
      at += sizeof head + head.size;
    }
  g_byte_array_remove_range (self->in, 0, at);
  return TRUE;
}

/* ---------------------------------------------------------------- the source */

static void
reset_maps (LttngSource *self)
{
  g_array_set_size (self->types, 0);
  g_array_set_size (self->tasks, 0);
  g_array_set_size (self->strings, 0);
  g_byte_array_set_size (self->in, 0);
  g_byte_array_set_size (self->last_words, 0);
  g_clear_pointer (&self->end_reason, g_free);
  self->ended = FALSE;
  self->got_rows = FALSE;
  /* what the helper that ended decoded stays counted; the next one counts from 0 */
  for (guint i = 0; i < self->sensors->len; i++)
    {
      RemoteSensor *rs = &g_array_index (self->sensors, RemoteSensor, i);

      rs->decoded_before += rs->decoded_now;
      rs->lost_before += rs->lost_now;
      rs->duplicates_before += rs->duplicates_now;
      rs->restarts_before += rs->restarts_now;
      rs->n_counts_before += rs->n_counts_now;
      rs->decoded_now = rs->lost_now = rs->duplicates_now = rs->restarts_now = rs->n_counts_now = 0;
    }
}

static gboolean
start_helper (LttngSource  *self,
              GError      **error)
{
  reset_maps (self);
  if (!spawn_helper ("--lttng-live", self->url, &self->pid, &self->data_fd, &self->output_fd, error))
    return FALSE;
  g_unix_set_fd_nonblocking (self->data_fd, TRUE, NULL);
  g_unix_set_fd_nonblocking (self->output_fd, TRUE, NULL);
  if (self->ever_started)
    self->parent.n_reconnects++;
  self->ever_started = TRUE;
  self->parent.connection = TW_LIVE_CONNECTION_CONNECTING;
  return TRUE;
}

static gboolean
lttng_start (TwLiveSource *source,
             TwTrace      *trace,
             GError      **error)
{
  LttngSource *self = (LttngSource *) source;

  if (!tw_live_lttng_is_supported (error))
    return FALSE;
  if (self->host)
    {
      /* one store, several targets: a key per target */
      g_autofree char *key = g_strdup_printf ("lttng_live_url:%s", self->host);

      tw_trace_set_metadata (trace, key, self->url);
    }
  else
    tw_trace_set_metadata (trace, "lttng_live_url", self->url);
  tw_trace_set_metadata (trace, "time_origin", "ns from the target's clock origin (LTTng: Unix epoch)");
  return start_helper (self, error);
}

/* The helper closed its pipe: reap it and say why it ended. */
static void
helper_ended (LttngSource *self)
{
  int status;
  g_autofree char *why = NULL;

  close (self->data_fd);
  self->data_fd = -1;
  /* its output pipe may still hold its last words */
  for (;;)
    {
      guint8 buf[4096];
      gssize n = read (self->output_fd, buf, sizeof buf);

      if (n <= 0)
        break;
      keep_last_words (self->last_words, buf, n);
    }
  close (self->output_fd);
  self->output_fd = -1;
  status = reap (self->pid);
  self->pid = 0;
  why = describe_exit (status, self->end_reason, self->last_words);
  self->parent.connection_error = g_intern_string (why);
  self->parent.connection = self->ended ? TW_LIVE_CONNECTION_ENDED : TW_LIVE_CONNECTION_LOST;
  if (self->got_rows)
    self->backoff_ms = BACKOFF_FIRST_MS;
  self->restart_at_ns = tw_live_monotonic_ns () + (guint64) self->backoff_ms * 1000000;
  self->backoff_ms = MIN (self->backoff_ms * 2, BACKOFF_MAX_MS);
}

static gboolean
lttng_poll (TwLiveSource *source,
            TwTrace      *trace,
            TwLiveQueue  *queue,
            GError      **error)
{
  LttngSource *self = (LttngSource *) source;
  gsize total = 0;

  source->more = FALSE;
  if (self->pid == 0)
    {
      g_autoptr(GError) local = NULL;

      if (!self->reconnect || tw_live_monotonic_ns () < self->restart_at_ns)
        return TRUE;
      if (!start_helper (self, &local))
        {
          self->parent.connection = TW_LIVE_CONNECTION_LOST;
          self->parent.connection_error = g_intern_string (local->message);
          self->restart_at_ns = tw_live_monotonic_ns () + (guint64) self->backoff_ms * 1000000;
          return TRUE;
        }
    }

  for (;;)
    {
      guint8 buf[4096];
      gssize n = read (self->output_fd, buf, sizeof buf);

      if (n <= 0)
        break;
      keep_last_words (self->last_words, buf, n);
    }
  while (total < READ_QUOTA)
    {
      gsize old = self->in->len;
      gssize n;

      g_byte_array_set_size (self->in, old + READ_CHUNK);
      do
        n = read (self->data_fd, self->in->data + old, READ_CHUNK);
      while (n < 0 && errno == EINTR);
      g_byte_array_set_size (self->in, old + MAX (n, 0));
      if (n > 0)
        {
          total += n;
          if (!take_frames (self, trace, queue, error))
            return FALSE;
          continue;
        }
      if (n == 0)
        helper_ended (self);
      break;
    }
  /* nothing will come before what is held: its helper ended, or the monitor stops */
  if (self->pid == 0 || source->flushing)
    release_rows (self, queue, G_MAXUINT64);
  /* a backlog: the merge may not run ahead of the rows still in the pipe */
  source->more = total >= READ_QUOTA;
  return TRUE;
}

static void
lttng_stop (TwLiveSource *source)
{
  LttngSource *self = (LttngSource *) source;

  if (self->pid)
    {
      stop_helper (self->pid);
      self->pid = 0;
    }
  if (self->data_fd >= 0)
    close (self->data_fd);
  if (self->output_fd >= 0)
    close (self->output_fd);
  self->data_fd = self->output_fd = -1;
}

static void
lttng_free (TwLiveSource *source)
{
  LttngSource *self = (LttngSource *) source;

  lttng_stop (source);
  g_free (self->url);
  g_byte_array_unref (self->in);
  g_byte_array_unref (self->last_words);
  g_array_unref (self->types);
  g_array_unref (self->tasks);
  g_array_unref (self->strings);
  g_free (self->string_slots);
  g_free (self->payload);
  g_free (self->end_reason);
  g_free (self->host);
  g_array_unref (self->host_cpus);
  g_array_unref (self->sensors);
  g_hash_table_unref (self->sensor_keys);
  _tw_row_reorder_clear (&self->held);
  g_free (self);
}

/* What the target's sensors declared and its monitors' last counts, as a recording of
 * the target's own session keeps them (tw-lttng-sensor-decoder.c): under the target's
 * hostname, which the rows' tasks carry too once a store holds several targets. */
static void
lttng_append_sensors (TwLiveSource *source,
                      GString      *streams,
                      GString      *counts)
{
  LttngSource *self = (LttngSource *) source;

  for (guint i = 0; i < self->sensors->len; i++)
    {
      const TwLttngRemoteSensor *s = &g_array_index (self->sensors, RemoteSensor, i).pub;
      g_autofree char *name = g_strdup_printf ("%s@%s", s->task, s->sensor);

      if (s->period_ns > 0)
        _tw_sensor_layout_append_declared (streams, s->host, name,
                                           (const double[5]) { s->period_ns, s->min_distance_ns, s->earliness_ns,
                                                               s->monitor_period_ns, s->deadline_ns });
      if (s->have_counts)
        _tw_sensor_layout_append_counts (counts, s->host, name, s->counts.received, s->counts.missed,
                                         s->counts.inconsistent);
    }
}

static const TwLiveSourceClass lttng_source_class = {
  .kind = "lttng-live",
  .start = lttng_start,
  .poll = lttng_poll,
  .stop = lttng_stop,
  .free = lttng_free,
  .append_sensors = lttng_append_sensors,
};

/**
 * tw_live_lttng_is_supported:
 *
 * Returns: %FALSE with an error when the build has no babeltrace2
 */
gboolean
tw_live_lttng_is_supported (GError **error)
{
#if HAVE_BABELTRACE
  return TRUE;
#else
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("built without babeltrace2: LTTng live is not available (install "
                 "libbabeltrace2-dev and rebuild)"));
  return FALSE;
#endif
}

/**
 * tw_live_lttng_new:
 * @url: `net://HOST[:PORT]/host/TARGET/SESSION`
 *
 * A live source reading @url through a relay (lttng-relayd). The helper starts when
 * the source is added to a monitor. It reconnects after faults unless told otherwise
 * (tw_live_lttng_set_reconnect).
 *
 * Returns: (transfer full) (nullable): the source; %NULL with @error for a bad URL
 */
TwLiveSource *
tw_live_lttng_new (const char  *url,
                   GError     **error)
{
  g_autofree char *session = NULL;
  LttngSource *self;

  if (!tw_live_lttng_parse_url (url, NULL, NULL, &session, error))
    return NULL;
  if (session == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: which session? Add /host/TARGET/SESSION (tracewb-cli monitor "
                     "--lttng-sessions %s lists them)"), url, url);
      return NULL;
    }
  self = g_new0 (LttngSource, 1);
  tw_live_source_init (&self->parent, &lttng_source_class, url);
  self->parent.own_clock = TRUE;
  self->parent.connection = TW_LIVE_CONNECTION_CONNECTING;
  self->url = g_strdup (url);
  self->reconnect = TRUE;
  self->data_fd = self->output_fd = -1;
  self->in = g_byte_array_new ();
  self->last_words = g_byte_array_new ();
  self->types = g_array_new (FALSE, TRUE, sizeof (TypeMap));
  g_array_set_clear_func (self->types, type_map_clear);
  self->tasks = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->strings = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->string_slots = g_new0 (guint32, TW_LTTNG_STRING_SLOTS);
  self->payload_cap = 64;
  self->payload = g_malloc0 (self->payload_cap);
  self->backoff_ms = BACKOFF_FIRST_MS;
  self->host_cpus = g_array_new (FALSE, FALSE, sizeof (guint16));
  self->sensors = g_array_new (FALSE, TRUE, sizeof (RemoteSensor));
  _tw_row_reorder_init (&self->held);
  self->sensor_keys = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  {
    g_autofree char *target = NULL;

    tw_live_lttng_parse_url (url, NULL, &target, NULL, NULL);
    self->target = g_intern_string (target);
  }
  return &self->parent;
}

/**
 * tw_live_lttng_dup_target:
 *
 * Returns: (transfer full): the target's hostname in the source's URL
 */
char *
tw_live_lttng_dup_target (TwLiveSource *source)
{
  g_autofree char *target = NULL;

  g_return_val_if_fail (source != NULL && source->klass == &lttng_source_class, NULL);
  tw_live_lttng_parse_url (((LttngSource *) source)->url, NULL, &target, NULL, NULL);
  return g_steal_pointer (&target);
}

/**
 * tw_live_lttng_is_lttng:
 *
 * Returns: whether @source reads an LTTng live session (tw_live_lttng_new)
 */
gboolean
tw_live_lttng_is_lttng (TwLiveSource *source)
{
  return source != NULL && source->klass == &lttng_source_class;
}

/**
 * tw_live_lttng_get_n_sensors:
 *
 * Returns: how many sensors the target's monitors reported through the session so far
 *   (they are never forgotten: indexes stay)
 */
guint
tw_live_lttng_get_n_sensors (TwLiveSource *source)
{
  g_return_val_if_fail (tw_live_lttng_is_lttng (source), 0);
  return ((LttngSource *) source)->sensors->len;
}

/**
 * tw_live_lttng_get_sensor:
 * @sensor: (out): a copy; its strings are interned
 *
 * What the monitor on the target counts of one of its sensors, as of the source's last
 * poll. Call from the thread that polls, or under the lock that guards the polls.
 *
 * Its @rate is the monitor's latest: whoever shows it judges from @n_counts (one a
 * second while the monitor runs; see TW_LTTNG_SENSOR_QUIET_S) and @connected whether
 * the monitor is still heard.
 *
 * Returns: %FALSE when @index is out of range
 */
gboolean
tw_live_lttng_get_sensor (TwLiveSource        *source,
                          guint                index,
                          TwLttngRemoteSensor *sensor)
{
  LttngSource *self = (LttngSource *) source;

  g_return_val_if_fail (tw_live_lttng_is_lttng (source), FALSE);
  if (index >= self->sensors->len)
    return FALSE;
  *sensor = g_array_index (self->sensors, RemoteSensor, index).pub;
  sensor->connected = self->parent.connection == TW_LIVE_CONNECTION_CONNECTED;
  return TRUE;
}

/**
 * tw_live_lttng_set_arrival_func:
 *
 * @func gets every element of the target's sensors that declared a stream (see
 * #TwLttngArrivalFunc). Call before the source is added to a monitor.
 */
void
tw_live_lttng_set_arrival_func (TwLiveSource      *source,
                                TwLttngArrivalFunc func,
                                gpointer           user_data)
{
  LttngSource *self = (LttngSource *) source;

  g_return_if_fail (source != NULL && source->klass == &lttng_source_class);
  self->arrival_func = func;
  self->arrival_data = user_data;
}

/**
 * tw_live_lttng_set_host:
 * @host: (nullable): the host its tasks and CPUs belong to in the store
 *
 * For a store that holds several targets (one session attached to several): the
 * source names its tasks `HOST/ID` with @host as their host (tw_trace_set_task_host),
 * and its CPUs become the store's CPUs of @host (tw_trace_add_host_cpu), so that tid
 * 1234 or CPU 0 of one target does not meet another's. %NULL (the default): the store
 * is this target's alone, ids and CPU numbers as the target gives them. Call before
 * the source is added to a monitor.
 */
void
tw_live_lttng_set_host (TwLiveSource *source,
                        const char   *host)
{
  LttngSource *self = (LttngSource *) source;

  g_return_if_fail (source != NULL && source->klass == &lttng_source_class);
  g_free (self->host);
  self->host = g_strdup (host);
}

/**
 * tw_live_lttng_set_reconnect:
 *
 * %FALSE: after a fault the source stays down (TW_LIVE_CONNECTION_LOST or _ENDED);
 * the CLI's default, which then exits with a message.
 */
void
tw_live_lttng_set_reconnect (TwLiveSource *source,
                             gboolean      reconnect)
{
  g_return_if_fail (source != NULL && source->klass == &lttng_source_class);
  ((LttngSource *) source)->reconnect = reconnect;
}

/**
 * tw_live_lttng_name_hosts:
 * @sources: (array length=n_sources): sources of one store, not yet added to a monitor;
 *   other kinds than LTTng live are left alone
 *
 * Several targets on one timeline: when @sources read more than one host, each names
 * its tasks and CPUs by its target's hostname (tw_live_lttng_set_host). Sessions of
 * one host (or one source alone) keep the ids and CPU numbers the target gives.
 *
 * Returns: how many hosts @sources read
 */
guint
tw_live_lttng_name_hosts (TwLiveSource **sources,
                          guint          n_sources)
{
  g_autoptr(GHashTable) hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_hosts;

  for (guint i = 0; i < n_sources; i++)
    if (sources[i]->klass == &lttng_source_class)
      g_hash_table_add (hosts, tw_live_lttng_dup_target (sources[i]));
  n_hosts = g_hash_table_size (hosts);
  if (n_hosts < 2)
    return n_hosts;
  for (guint i = 0; i < n_sources; i++)
    if (sources[i]->klass == &lttng_source_class)
      {
        g_autofree char *host = tw_live_lttng_dup_target (sources[i]);

        tw_live_lttng_set_host (sources[i], host);
      }
  return n_hosts;
}

void
tw_lttng_session_info_free (TwLttngSessionInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->url);
  g_free (info->hostname);
  g_free (info->name);
  g_free (info);
}

/* ---------------------------------------------------------------- listing */

static gboolean
take_session (GPtrArray     *sessions,
              const guint8  *p,
              gsize          size)
{
  const guint8 *end = p + size;
  TwLttngSessionInfo *info;
  guint64 numbers[3];
  const char *url, *host, *name;

  if (size < sizeof numbers)
    return FALSE;
  memcpy (numbers, p, sizeof numbers);
  p += sizeof numbers;
  if (!(url = take_str (&p, end)) || !(host = take_str (&p, end)) || !(name = take_str (&p, end)))
    return FALSE;
  info = g_new0 (TwLttngSessionInfo, 1);
  info->url = g_strdup (url);
  info->hostname = g_strdup (host);
  info->name = g_strdup (name);
  info->timer_us = numbers[0];
  info->n_streams = numbers[1];
  info->n_clients = numbers[2];
  g_ptr_array_add (sessions, info);
  return TRUE;
}

/**
 * tw_live_lttng_list_sessions:
 * @relay_url: `net://HOST[:PORT]` (a session part is ignored)
 *
 * Asks the relay for its sessions (babeltrace2's `sessions` query, in the helper).
 * Blocks for up to 15 s: call it from a thread. Cancelling ends the helper.
 *
 * Returns: (transfer full) (element-type TwLttngSessionInfo): the sessions, maybe none;
 *   %NULL with @error naming the relay and what failed
 */
GPtrArray *
tw_live_lttng_list_sessions (const char    *relay_url,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autofree char *relay = NULL;
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func ((GDestroyNotify) tw_lttng_session_info_free);
  g_autoptr(GByteArray) in = g_byte_array_new ();
  g_autoptr(GByteArray) words = g_byte_array_new ();
  g_autofree char *reported = NULL;
  gint64 deadline = g_get_monotonic_time () + LIST_TIMEOUT_S * G_USEC_PER_SEC;
  int fds[2] = { -1, -1 };
  int cancel_fd;
  gboolean done = FALSE, cancelled = FALSE, timed_out = FALSE;
  GPid pid;
  int status;

  if (!tw_live_lttng_is_supported (error)
      || !tw_live_lttng_parse_url (relay_url, &relay, NULL, NULL, error)
      || !spawn_helper ("--lttng-sessions", relay, &pid, &fds[0], &fds[1], error))
    return NULL;
  cancel_fd = g_cancellable_get_fd (cancellable);
  while (fds[0] >= 0 || fds[1] >= 0)
    {
      struct pollfd p[3] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 }, { cancel_fd, POLLIN, 0 } };
      gint64 left = deadline - g_get_monotonic_time ();
      int r;

      if (left <= 0)
        {
          timed_out = TRUE;
          break;
        }
      r = poll (p, 3, (int) MIN (left / 1000 + 1, 1000));
      if (r < 0 && errno != EINTR)
        break;
      if (p[2].revents)
        {
          cancelled = TRUE;
          break;
        }
      for (guint i = 0; i < 2; i++)
        if (p[i].revents)
          {
            guint8 buf[8192];
            gssize n = read (fds[i], buf, sizeof buf);

            if (n <= 0)
              {
                close (fds[i]);
                fds[i] = -1;
              }
            else if (i == 0)
              g_byte_array_append (in, buf, n);
            else
              keep_last_words (words, buf, n);
          }
    }
  if (cancel_fd >= 0)
    g_cancellable_release_fd (cancellable);
  for (guint i = 0; i < 2; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  if (cancelled || timed_out)
    {
      stop_helper (pid);
      if (cancelled)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                     _("%s: the relay did not answer within %d s"), relay, LIST_TIMEOUT_S);
      return NULL;
    }
  status = reap (pid);

  for (gsize at = 0; in->len - at >= sizeof (TwLttngFrameHeader);)
    {
      TwLttngFrameHeader head;

      memcpy (&head, in->data + at, sizeof head);
      if (in->len - at - sizeof head < head.size)
        break;
      if (head.kind == TW_LTTNG_FRAME_SESSION)
        take_session (sessions, in->data + at + sizeof head, head.size);
      else if (head.kind == TW_LTTNG_FRAME_END)
        done = TRUE;
      else if (head.kind == TW_LTTNG_FRAME_ERROR)
        reported = g_strndup ((const char *) in->data + at + sizeof head, head.size);
      at += sizeof head + head.size;
    }
  if (!done)
    {
      g_autofree char *why = describe_exit (status, reported, words);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", relay, why);
      return NULL;
    }
  return g_steal_pointer (&sessions);
}
