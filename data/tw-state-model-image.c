/* tw-state-model-image.c: a built state model as a section of a trace cache file
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "tw-state-model-private.h"

/*
 * Reopening a trace from its cache maps the store; its first frame then waited for the
 * state model, seconds for 100 M events. The model's arrays (each series' elements, its
 * level-of-detail index and its bins) are written after the store as one section and
 * mapped back, copy-on-write, so that a reopened model borrows them instead of
 * building them:
 *
 *   [ModelHeader][CpuRecord × n_cpus][TaskRecord × n_task_records]
 *   [SeriesRecord × (3 n_cpus + 2 n_task_records)][arrays, each 64-byte aligned]
 *
 * Series come in a fixed order: per CPU its runs, irqs and marks, then per task its
 * states and marks. Only tasks with something in them have a record (a wakeup naming
 * a task number far past the task table makes the model that long, empty between). Offsets are from the section's start. The header and records are
 * digested (SHA-256 in the header); the arrays are checked element by element where an
 * element indexes something (_tw_state_model_check_image()): the section is untrusted
 * input, like the rest of the file.
 */

#define MODEL_MAGIC      "TWSTATE1"
/* 2: the bins' grid follows the elements as they are added (see Bins), not the span
 * of the whole model; the arrays are laid out as in 1
 * 3: in a trace of several machines open elements end at their host's last event; the
 * CPU and task records say where */
#define MODEL_VERSION    3
#define MODEL_BYTE_ORDER 0x01020304u
#define ARRAY_ALIGN      64
#define DIGEST_BYTES     32

typedef struct {
  char    magic[8];
  guint32 version;
  guint32 byte_order;
  guint32 n_cpus;
  guint32 n_tasks;        /* the model's, records or not */
  guint32 n_task_records;
  guint32 reserved;
  guint64 n_events;       /* processed: all the trace's */
  guint64 last_time;
  guint64 records_bytes;  /* header and records: what the digest covers */
  guint64 section_bytes;
  guint8  digest[DIGEST_BYTES]; /* SHA-256 of header and records, with this zeroed */
} ModelHeader;

typedef struct {
  guint64 n_repairs;
  guint32 run_open;
  guint32 n_open_irqs;
  guint64 open_irqs_at;   /* guint32 indexes into the irqs, outermost first */
  guint64 end;            /* ns, where its open elements end: its host's last event */
} CpuRecord;

typedef struct {
  guint64 cpu_time;
  guint32 open;
  guint32 task;           /* increasing from record to record */
  guint64 end;            /* ns, where its open state ends: its host's last event */
} TaskRecord;

typedef struct {
  guint64 n;
  guint64 items_at;
  guint64 l1_at;
  guint64 l2_at;
  guint64 side_at;        /* marks: guint8 kinds; irqs: guint32 parents; else 0 */
  guint64 bins_origin;
  guint64 bins_valid_until;
  guint64 bins_len0;
  guint64 bins_at;
  guint32 bins_shift;
  guint32 bins_n_levels;  /* 0: no bins */
} SeriesRecord;

typedef enum {
  SIDE_NONE,
  SIDE_KINDS,
  SIDE_PARENTS,
} SideKind;

static guint64
records_bytes (guint64 n_cpus,
               guint64 n_task_records)
{
  return sizeof (ModelHeader) + n_cpus * sizeof (CpuRecord) + n_task_records * sizeof (TaskRecord) +
         (3 * n_cpus + 2 * n_task_records) * sizeof (SeriesRecord);
}

static gboolean
task_is_empty (const TaskState *ts)
{
  return ts->states.items.len == 0 && ts->marks.items.len == 0 && !ts->open && ts->cpu_time == 0;
}

static guint64
align_up (guint64 at)
{
  return (at + ARRAY_ALIGN - 1) & ~(guint64) (ARRAY_ALIGN - 1);
}

static void
digest_records (const guint8 *records,
                gsize         len,
                guint8        digest[DIGEST_BYTES])
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  ModelHeader header;
  gsize digest_len = DIGEST_BYTES;

  memcpy (&header, records, sizeof header);
  memset (header.digest, 0, DIGEST_BYTES);
  g_checksum_update (sum, (const guint8 *) &header, sizeof header);
  g_checksum_update (sum, records + sizeof header, len - sizeof header);
  g_checksum_get_digest (sum, digest, &digest_len);
}

/* ---------------------------------------------------------------- writing */

typedef struct {
  int       fd;
  guint64   at;      /* section start in the file */
  guint64   end;     /* next free offset, from the section start */
  gboolean  ok;
} Writer;

/* Writes @bytes at @at, from the section's start. */
static guint64
write_at (Writer        *w,
          guint64        at,
          gconstpointer  data,
          gsize          bytes)
{
  const guint8 *p = data;
  gsize done = 0;

  while (w->ok && done < bytes)
    {
      gssize n = pwrite (w->fd, p + done, MIN (bytes - done, (gsize) 1 << 30), w->at + at + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        w->ok = FALSE;
      else
        done += n;
    }
  w->end = at + bytes;
  return at;
}

static guint64
write_array (Writer        *w,
             gconstpointer  data,
             gsize          bytes)
{
  return write_at (w, align_up (w->end), data, bytes);
}

static void
write_series (Writer       *w,
              const Series *series,
              SideKind      side,
              SeriesRecord *record)
{
  const TwHugeArray *items = &series->items;

  *record = (SeriesRecord) { .n = items->len };
  record->items_at = write_array (w, items->data, items->len * items->element_size);
  record->l1_at = write_array (w, series->l1.data, series->l1.len * sizeof (guint64));
  record->l2_at = write_array (w, series->l2.data, series->l2.len * sizeof (guint64));
  if (side == SIDE_KINDS)
    record->side_at = write_array (w, series->kinds.data, series->kinds.len);
  else if (side == SIDE_PARENTS)
    record->side_at = write_array (w, series->parents.data, series->parents.len * sizeof (guint32));
  if (series->bins)
    {
      const Bins *bins = series->bins;

      record->bins_origin = bins->origin;
      record->bins_valid_until = bins->valid_until;
      record->bins_len0 = bins->level[0].len;
      record->bins_shift = bins->shift;
      record->bins_n_levels = bins->n_levels;
      /* the levels one after the other, as one array */
      record->bins_at = write_array (w, bins->level[0].data, bins->level[0].len * sizeof (TwSummary));
      for (guint k = 1; k < bins->n_levels; k++)
        write_at (w, w->end, bins->level[k].data, bins->level[k].len * sizeof (TwSummary));
    }
}

/**
 * _tw_state_model_write_image:
 * @at: where the section starts in @fd (aligned to the page size)
 * @bytes: (out): its length
 *
 * Writes the model's arrays as a section of a cache file. The model must be complete
 * (every event of a sealed trace processed) and not updated meanwhile.
 */
gboolean
_tw_state_model_write_image (TwStateModel  *self,
                             int            fd,
                             guint64        at,
                             guint64       *bytes,
                             GError       **error)
{
  guint n_cpus = self->cpus->len, n_tasks = self->tasks->len, n_records = 0;
  gsize head;
  g_autofree guint8 *records = NULL;
  ModelHeader *header;
  CpuRecord *cpu_records;
  TaskRecord *task_records;
  SeriesRecord *series;
  Writer w;

  for (guint k = 0; k < n_tasks; k++)
    n_records += !task_is_empty (g_ptr_array_index (self->tasks, k));
  head = records_bytes (n_cpus, n_records);
  records = g_malloc0 (head);
  header = (ModelHeader *) records;
  cpu_records = (CpuRecord *) (records + sizeof (ModelHeader));
  task_records = (TaskRecord *) (cpu_records + n_cpus);
  series = (SeriesRecord *) (task_records + n_records);
  w = (Writer) { fd, at, head, TRUE };

  for (guint c = 0; c < n_cpus; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);
      g_autofree guint32 *open = g_new (guint32, MAX (cs->irq_stack->len, 1));

      for (guint i = 0; i < cs->irq_stack->len; i++)
        open[i] = g_array_index (cs->irq_stack, guint, i);
      cpu_records[c] = (CpuRecord) { cs->n_repairs, cs->run_open, cs->irq_stack->len, 0,
                                     _tw_state_model_cpu_end (self, c) };
      cpu_records[c].open_irqs_at = write_array (&w, open, cs->irq_stack->len * sizeof (guint32));
      write_series (&w, &cs->runs, SIDE_NONE, series++);
      write_series (&w, &cs->irqs, SIDE_PARENTS, series++);
      write_series (&w, &cs->marks, SIDE_KINDS, series++);
    }
  for (guint k = 0, r = 0; k < n_tasks; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      if (task_is_empty (ts))
        continue;
      task_records[r++] = (TaskRecord) { ts->cpu_time, ts->open, k, _tw_state_model_task_end (self, k) };
      write_series (&w, &ts->states, SIDE_NONE, series++);
      write_series (&w, &ts->marks, SIDE_KINDS, series++);
    }

  memcpy (header->magic, MODEL_MAGIC, 8);
  header->version = MODEL_VERSION;
  header->byte_order = MODEL_BYTE_ORDER;
  header->n_cpus = n_cpus;
  header->n_tasks = n_tasks;
  header->n_task_records = n_records;
  header->n_events = self->n_processed;
  header->last_time = self->last_time;
  header->records_bytes = head;
  header->section_bytes = align_up (w.end);
  digest_records (records, head, header->digest);
  if (w.ok)
    {
      Writer h = { fd, at, 0, TRUE };

      write_array (&h, records, head);
      /* the section's last bytes exist even when its last array is empty */
      w.ok = h.ok && ftruncate (fd, at + header->section_bytes) == 0;
    }
  if (!w.ok)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot write the state model to the trace cache: %s", g_strerror (saved));
      return FALSE;
    }
  *bytes = header->section_bytes;
  return TRUE;
}

/* ---------------------------------------------------------------- checking */

static gboolean
refuse (GError    **error,
        const char *format,
        ...) G_GNUC_PRINTF (2, 3);

static gboolean
refuse (GError    **error,
        const char *format,
        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "trace cache: state model: %s",
               message);
  return FALSE;
}

/* @base + @at, for an array of @count elements checked to lie in the section; NULL when
 * it is empty (its offset is then unchecked: it may point anywhere). */
static inline guint8 *
array_at (const guint8 *base,
          guint64       at,
          guint64       count)
{
  return count > 0 ? (guint8 *) base + at : NULL;
}

/* Whether @count elements of @size bytes at @at lie within the arrays of the section. */
static gboolean
array_in_section (guint64 at,
                  guint64 count,
                  gsize   size,
                  guint64 head,
                  guint64 len)
{
  if (count == 0)
    return TRUE;
  return at % ARRAY_ALIGN == 0 && at >= head && at <= len && count <= (len - at) / size;
}

/* Level lengths as the model makes them from @len0, and their total. */
static gboolean
bins_levels (const SeriesRecord *r,
             gsize               len[BINS_MAX_LEVELS],
             guint64            *total)
{
  guint n = 1;

  if (r->bins_n_levels < 1 || r->bins_n_levels > BINS_MAX_LEVELS || r->bins_shift >= 64 ||
      r->bins_len0 == 0 || r->bins_len0 > G_MAXSIZE / 2)
    return FALSE;
  len[0] = r->bins_len0;
  *total = len[0];
  while (n < BINS_MAX_LEVELS && len[n - 1] > 4)
    {
      len[n] = (len[n - 1] + 3) / 4;
      *total += len[n++];
    }
  return n == r->bins_n_levels;
}

static gboolean
check_series (const guint8       *base,
              const SeriesRecord *r,
              gsize               element_size,
              SideKind            side,
              guint64             head,
              guint64             len)
{
  guint64 n1 = (r->n + 7) >> 3, n2 = (n1 + 63) >> 6;

  if (!array_in_section (r->items_at, r->n, element_size, head, len) ||
      !array_in_section (r->l1_at, n1, sizeof (guint64), head, len) ||
      !array_in_section (r->l2_at, n2, sizeof (guint64), head, len))
    return FALSE;
  if (side == SIDE_NONE ? r->side_at != 0
      : !array_in_section (r->side_at, r->n, side == SIDE_KINDS ? 1 : sizeof (guint32), head, len))
    return FALSE;
  if (side == SIDE_PARENTS)
    {
      /* a handler's parent comes before it: the walk up from any handler ends */
      const guint32 *parents = (const guint32 *) (gconstpointer) array_at (base, r->side_at, r->n);

      for (guint64 j = 0; j < r->n; j++)
        if (parents[j] != G_MAXUINT32 && parents[j] >= j)
          return FALSE;
    }
  if (r->bins_n_levels > 0)
    {
      gsize levels[BINS_MAX_LEVELS];
      guint64 total;

      if (r->n == 0 || !bins_levels (r, levels, &total) ||
          !array_in_section (r->bins_at, total, sizeof (TwSummary), head, len))
        return FALSE;
    }
  return TRUE;
}

/* Elements that index something: states (their state, their CPU), marks (their event). */
static gboolean
check_task_elements (const guint8       *base,
                     const SeriesRecord *states,
                     const SeriesRecord *marks,
                     guint               n_cpus,
                     guint64             n_events)
{
  const TwTaskInterval *s = (gconstpointer) array_at (base, states->items_at, states->n);
  const TwTaskMark *m = (gconstpointer) array_at (base, marks->items_at, marks->n);
  gboolean ok = TRUE;

  for (guint64 i = 0; i < states->n; i++)
    ok &= s[i].state <= TW_TASK_STATE_DEAD && (s[i].cpu < n_cpus || s[i].cpu == TW_CPU_NONE);
  for (guint64 i = 0; i < marks->n; i++)
    ok &= m[i].index < n_events;
  return ok;
}

static gboolean
check_cpu_marks (const guint8       *base,
                 const SeriesRecord *marks,
                 guint64             n_events)
{
  const TwCpuMark *m = (gconstpointer) array_at (base, marks->items_at, marks->n);
  gboolean ok = TRUE;

  for (guint64 i = 0; i < marks->n; i++)
    ok &= m[i].index < n_events && m[i].kind <= TW_CPU_MARK_DOUBLE_RUN;
  return ok;
}

/**
 * _tw_state_model_check_image:
 * @image: a section written by _tw_state_model_write_image(), as read or mapped
 *
 * Checks that @image is the model of @trace as far as a reader of the model could go
 * wrong: its header and records as digested, every array within the section, the
 * level-of-detail index and bins of the lengths their series have, every CPU, event,
 * parent handler and state an element names in range. What it cannot see is a time
 * changed within its range: the timeline then shows that time.
 *
 * Returns: %FALSE with @error set when a model must not be made from it
 */
gboolean
_tw_state_model_check_image (TwTrace  *trace,
                             GBytes   *image,
                             GError  **error)
{
  gsize len;
  const guint8 *base = g_bytes_get_data (image, &len);
  ModelHeader header;
  const CpuRecord *cpus;
  const TaskRecord *tasks;
  const SeriesRecord *series;
  guint8 digest[DIGEST_BYTES];
  guint64 head;

  if (len < sizeof header || ((guintptr) base % ARRAY_ALIGN) != 0)
    return refuse (error, "its section is cut");
  memcpy (&header, base, sizeof header);
  if (memcmp (header.magic, MODEL_MAGIC, 8) != 0 || header.version != MODEL_VERSION ||
      header.byte_order != MODEL_BYTE_ORDER)
    return refuse (error, "another format or version");
  if (header.section_bytes != len || header.n_events != tw_trace_get_n_events (trace) ||
      header.n_cpus != tw_trace_get_n_cpus (trace))
    return refuse (error, "made for another trace or cut");
  head = records_bytes (header.n_cpus, header.n_task_records);
  if (header.records_bytes != head || head > len)
    return refuse (error, "its records do not fit its section");
  digest_records (base, head, digest);
  if (memcmp (digest, header.digest, DIGEST_BYTES) != 0)
    return refuse (error, "its records are not what was written");

  cpus = (const CpuRecord *) (gconstpointer) (base + sizeof header);
  tasks = (const TaskRecord *) (cpus + header.n_cpus);
  series = (const SeriesRecord *) (tasks + header.n_task_records);
  /* the model is as long as its last task with a record, or the task table */
  if (header.n_task_records > 0 &&
      tasks[header.n_task_records - 1].task >= header.n_tasks)
    return refuse (error, "a task is past the model's end");
  if (header.n_tasks > MAX (tw_trace_get_n_tasks (trace),
                            header.n_task_records ? tasks[header.n_task_records - 1].task + 1 : 0))
    return refuse (error, "the model is longer than its tasks");
  for (guint c = 0; c < header.n_cpus; c++, series += 3)
    {
      const guint32 *open;

      if (!check_series (base, &series[0], sizeof (TwRunInterval), SIDE_NONE, head, len) ||
          !check_series (base, &series[1], sizeof (TwIrqInterval), SIDE_PARENTS, head, len) ||
          !check_series (base, &series[2], sizeof (TwCpuMark), SIDE_KINDS, head, len) ||
          !check_cpu_marks (base, &series[2], header.n_events))
        return refuse (error, "a series of CPU %u is out of range", c);
      if ((cpus[c].run_open && series[0].n == 0) ||
          !array_in_section (cpus[c].open_irqs_at, cpus[c].n_open_irqs, sizeof (guint32), head, len))
        return refuse (error, "the open intervals of CPU %u are out of range", c);
      open = (gconstpointer) array_at (base, cpus[c].open_irqs_at, cpus[c].n_open_irqs);
      for (guint i = 0; i < cpus[c].n_open_irqs; i++)
        if (open[i] >= series[1].n)
          return refuse (error, "an open handler of CPU %u is out of range", c);
    }
  for (guint r = 0; r < header.n_task_records; r++, series += 2)
    {
      guint k = tasks[r].task;

      if (r > 0 && k <= tasks[r - 1].task)
        return refuse (error, "its tasks are out of order");
      if (!check_series (base, &series[0], sizeof (TwTaskInterval), SIDE_NONE, head, len) ||
          !check_series (base, &series[1], sizeof (TwTaskMark), SIDE_KINDS, head, len) ||
          !check_task_elements (base, &series[0], &series[1], header.n_cpus, header.n_events))
        return refuse (error, "a series of task %u is out of range", k);
      if (tasks[r].open && series[0].n == 0)
        return refuse (error, "task %u is open without a state", k);
    }
  return TRUE;
}

/* ---------------------------------------------------------------- adopting */

static void
adopt_series (Series             *series,
              guint8             *base,
              const SeriesRecord *r,
              SideKind            side)
{
  guint64 n1 = (r->n + 7) >> 3, n2 = (n1 + 63) >> 6;

  tw_huge_array_init_borrowed (&series->items, series->items.element_size,
                               array_at (base, r->items_at, r->n), r->n);
  tw_huge_array_init_borrowed (&series->l1, sizeof (guint64), array_at (base, r->l1_at, n1), n1);
  tw_huge_array_init_borrowed (&series->l2, sizeof (guint64), array_at (base, r->l2_at, n2), n2);
  if (side == SIDE_KINDS)
    tw_huge_array_init_borrowed (&series->kinds, 1, array_at (base, r->side_at, r->n), r->n);
  else if (side == SIDE_PARENTS)
    tw_huge_array_init_borrowed (&series->parents, sizeof (guint32),
                                 array_at (base, r->side_at, r->n), r->n);
  if (r->bins_n_levels > 0)
    {
      Bins *bins = g_new0 (Bins, 1);
      gsize len[BINS_MAX_LEVELS];
      guint64 total = 0, offset = 0;

      bins_levels (r, len, &total);
      bins->origin = r->bins_origin;
      bins->valid_until = r->bins_valid_until;
      bins->shift = r->bins_shift;
      bins->n_levels = r->bins_n_levels;
      for (guint k = 0; k < bins->n_levels; offset += len[k++])
        tw_huge_array_init_borrowed (&bins->level[k], sizeof (TwSummary),
                                     array_at (base, r->bins_at + offset * sizeof (TwSummary), len[k]),
                                     len[k]);
      series->bins = bins;
    }
}

/**
 * _tw_state_model_adopt_image:
 * @image: a section _tw_state_model_check_image() accepted for the model's trace, in
 *   writable (private) memory: the open intervals' ends are rewritten in place
 *
 * Makes an empty model the one @image holds; its arrays borrow @image's memory.
 */
void
_tw_state_model_adopt_image (TwStateModel *self,
                             GBytes       *image)
{
  guint8 *base = (guint8 *) g_bytes_get_data (image, NULL);
  ModelHeader header;
  const CpuRecord *cpus;
  const TaskRecord *tasks;
  const SeriesRecord *series;

  memcpy (&header, base, sizeof header);
  cpus = (const CpuRecord *) (gconstpointer) (base + sizeof header);
  tasks = (const TaskRecord *) (cpus + header.n_cpus);
  series = (const SeriesRecord *) (tasks + header.n_task_records);

  self->image = g_bytes_ref (image);
  self->n_processed = header.n_events;
  self->last_time = header.last_time;
  for (guint c = 0; c < header.n_cpus; c++, series += 3)
    {
      CpuState *cs = _tw_state_model_add_cpu (self, c);
      const guint32 *open = (gconstpointer) array_at (base, cpus[c].open_irqs_at, cpus[c].n_open_irqs);

      cs->n_repairs = cpus[c].n_repairs;
      cs->run_open = cpus[c].run_open != 0;
      for (guint i = 0; i < cpus[c].n_open_irqs; i++)
        {
          guint index = open[i];

          g_array_append_val (cs->irq_stack, index);
        }
      adopt_series (&cs->runs, base, &series[0], SIDE_NONE);
      adopt_series (&cs->irqs, base, &series[1], SIDE_PARENTS);
      adopt_series (&cs->marks, base, &series[2], SIDE_KINDS);
    }
  if (header.n_tasks > 0)
    _tw_state_model_add_task (self, header.n_tasks - 1);
  for (guint r = 0; r < header.n_task_records; r++, series += 2)
    {
      TaskState *ts = _tw_state_model_add_task (self, tasks[r].task);

      ts->cpu_time = tasks[r].cpu_time;
      ts->open = tasks[r].open != 0;
      adopt_series (&ts->states, base, &series[0], SIDE_NONE);
      adopt_series (&ts->marks, base, &series[1], SIDE_KINDS);
    }
  _tw_state_model_refresh_hosts (self);
  for (guint c = 0; c < header.n_cpus; c++)
    _tw_state_model_set_cpu_end (self, c, cpus[c].end);
  for (guint r = 0; r < header.n_task_records; r++)
    _tw_state_model_set_task_end (self, tasks[r].task, tasks[r].end);
  _tw_state_model_resume_bins (self);
}
