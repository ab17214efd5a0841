/* tw-ctf-bt-writer.c: rows of a store as a CTF trace through babeltrace2's sink.ctf.fs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ctf-writer-private.h"
#include "tw-ctf-plan-private.h"

#include <string.h>

#if HAVE_BABELTRACE
#include <babeltrace2/babeltrace.h>
#endif

/*
 * The reference writer: a graph of two components, a source of ours whose message
 * iterator walks rows of a TwTrace, and babeltrace2's sink.ctf.fs. Recording uses the
 * packer (tw-ctf-packer.c), which writes the same trace twenty times faster; this one
 * stays as what the packer's output is checked against (tests/ingest/test-ctf-packer.c)
 * and measured beside (bench/bench-ctf-record.c).
 *
 * babeltrace2 runs in this process, unlike when we read (docs/out-of-process-reading.md):
 * the rule exists because babeltrace2 2.0 can abort() on outside metadata it cannot
 * parse; here every class and value is ours, made through its API, and sink.ctf.fs
 * only serialises them.
 *
 * Layout: one stream per CPU (stream class `cpu`, packet context `cpu_id`, as LTTng's
 * per-CPU buffers) and one stream for the events without a CPU (stream class `task`).
 * Every event has LTTng's context fields `vpid`, `vtid`, `procname` and `tracewb_task`
 * (the task's id in the store); payloads as tw-ctf-plan.c plans them.
 *
 * A live store is read while it grows: only rows below the count taken at the start,
 * whose tasks and types lie below the table counts read after it (tw-trace.c).
 */

#define PACKET_EVENTS 8192

#if HAVE_BABELTRACE

static bt_field_class *
member_class (bt_trace_class *tc,
              const TwCtfMember *m)
{
  bt_field_class *fc;

  switch (m->out)
    {
    case TW_CTF_OUT_UNSIGNED:
      fc = bt_field_class_integer_unsigned_create (tc);
      bt_field_class_integer_set_field_value_range (fc, m->bits);
      if (m->hex)
        bt_field_class_integer_set_preferred_display_base (fc, BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
      return fc;
    case TW_CTF_OUT_SIGNED:
      fc = bt_field_class_integer_signed_create (tc);
      bt_field_class_integer_set_field_value_range (fc, m->bits);
      return fc;
    case TW_CTF_OUT_REAL:
      return bt_field_class_real_double_precision_create (tc);
    case TW_CTF_OUT_STRING:
    default:
      return bt_field_class_string_create (tc);
    }
}

/* ---------------------------------------------------------------- the source */

typedef struct {
  TwTrace       *trace;
  guint64        first;
  guint64        end;
  guint          n_types;
} WriteJob;

enum { SC_CPU, SC_TASK };

typedef struct {
  bt_stream *stream;
  bt_packet *packet;        /* open packet, or NULL */
  guint      n_in_packet;
  guint64    last_time;
  guint      sc;
  guint16    cpu;
} OutStream;

typedef struct {
  WriteJob                 *job;
  bt_self_message_iterator *self;
  bt_trace_class           *tc;
  bt_stream_class          *sc[2];
  bt_trace                 *trace;
  TwCtfTypePlan            *plans;      /* [n_types] */
  bt_event_class          **ecs;        /* [n_types × 2]: per type and stream class, made on first use */
  GPtrArray                *streams;    /* OutStream, owned */
  OutStream               **by_cpu;
  guint                     n_by_cpu;
  OutStream                *no_cpu;
  GPtrArray                *queue;      /* messages that did not fit the batch */
  guint                     queue_pos;
  guint64                   next;
  gboolean                  ended;
} Iter;

static void
out_stream_free (gpointer data)
{
  OutStream *s = data;

  bt_packet_put_ref (s->packet);
  bt_stream_put_ref (s->stream);
  g_free (s);
}

static void
emit (Iter              *it,
      bt_message        *msg,
      bt_message_array_const msgs,
      guint64            capacity,
      guint64           *count)
{
  if (*count < capacity)
    msgs[(*count)++] = msg;
  else
    g_ptr_array_add (it->queue, msg);
}

static OutStream *
new_stream (Iter       *it,
            guint       sc,
            guint16     cpu,
            const char *name)
{
  OutStream *s = g_new0 (OutStream, 1);

  s->sc = sc;
  s->cpu = cpu;
  s->stream = bt_stream_create (it->sc[sc], it->trace);
  bt_stream_set_name (s->stream, name);
  g_ptr_array_add (it->streams, s);
  return s;
}

static OutStream *
stream_for (Iter              *it,
            guint16            cpu,
            bt_message_array_const msgs,
            guint64            capacity,
            guint64           *count)
{
  OutStream *s;

  if (cpu == TW_CPU_NONE)
    {
      if (it->no_cpu)
        return it->no_cpu;
      s = it->no_cpu = new_stream (it, SC_TASK, cpu, "tasks");
    }
  else
    {
      char name[32];

      if (cpu < it->n_by_cpu && it->by_cpu[cpu])
        return it->by_cpu[cpu];
      if (cpu >= it->n_by_cpu)
        {
          it->by_cpu = g_renew (OutStream *, it->by_cpu, cpu + 1);
          memset (it->by_cpu + it->n_by_cpu, 0, (cpu + 1 - it->n_by_cpu) * sizeof (OutStream *));
          it->n_by_cpu = cpu + 1;
        }
      g_snprintf (name, sizeof name, "cpu%u", cpu);
      s = it->by_cpu[cpu] = new_stream (it, SC_CPU, cpu, name);
    }
  emit (it, bt_message_stream_beginning_create (it->self, s->stream), msgs, capacity, count);
  return s;
}

static bt_event_class *
event_class_for (Iter   *it,
                 guint16 t,
                 guint   sc)
{
  const TwCtfTypePlan *plan = &it->plans[t];
  bt_event_class **ec = &it->ecs[t * 2 + sc];
  bt_field_class *payload;

  if (*ec)
    return *ec;
  *ec = bt_event_class_create (it->sc[sc]);
  bt_event_class_set_name (*ec, plan->type->name);
  payload = bt_field_class_structure_create (it->tc);
  for (guint i = 0; i < plan->members->len; i++)
    {
      const TwCtfMember *m = &g_array_index (plan->members, TwCtfMember, i);
      bt_field_class *fc = member_class (it->tc, m);

      bt_field_class_structure_append_member (payload, m->name, fc);
      bt_field_class_put_ref (fc);
    }
  bt_event_class_set_payload_field_class (*ec, payload);
  bt_field_class_put_ref (payload);
  return *ec;
}

static void
set_member (Iter              *it,
            bt_field          *f,
            const TwCtfMember *m,
            const TwEventType *type,
            const guint8      *payload,
            const TwTask      *task,
            const TwTask      *arg_task,
            guint32            arg,
            guint16            cpu)
{
  TwCtfValue v;

  _tw_ctf_member_value (it->job->trace, m, type, payload, task, arg_task, arg, cpu, &v);
  switch (m->out)
    {
    case TW_CTF_OUT_UNSIGNED: bt_field_integer_unsigned_set_value (f, v.u); break;
    case TW_CTF_OUT_SIGNED:   bt_field_integer_signed_set_value (f, v.i); break;
    case TW_CTF_OUT_REAL:     bt_field_real_double_precision_set_value (f, v.f); break;
    case TW_CTF_OUT_STRING:
    default:                  bt_field_string_set_value (f, v.s); break;
    }
}

static void
close_packet (Iter              *it,
              OutStream         *s,
              bt_message_array_const msgs,
              guint64            capacity,
              guint64           *count)
{
  emit (it, bt_message_packet_end_create_with_default_clock_snapshot (it->self, s->packet, s->last_time),
        msgs, capacity, count);
  g_clear_pointer (&s->packet, bt_packet_put_ref);
  s->n_in_packet = 0;
}

static void
write_row (Iter              *it,
           guint64            index,
           bt_message_array_const msgs,
           guint64            capacity,
           guint64           *count)
{
  TwTrace *trace = it->job->trace;
  const TwEventChunk *chunk = tw_trace_get_chunk (trace, (guint) (index >> TW_CHUNK_SHIFT));
  guint row = (guint) (index & TW_CHUNK_MASK);
  guint16 cpu = chunk->cpu[row];
  TwCtfTypePlan *plan = &it->plans[chunk->type[row]];
  const guint8 *payload = chunk->payload[row] == TW_PAYLOAD_NONE ? NULL : chunk->blob + chunk->payload[row];
  const TwTask *task = tw_trace_get_task (trace, chunk->task[row]);
  const TwTask *arg_task = NULL;
  guint32 arg = chunk->arg[row];
  OutStream *s = stream_for (it, cpu, msgs, capacity, count);
  guint64 time = MAX (chunk->time[row], s->last_time);
  bt_message *msg;
  bt_event *event;
  bt_field *ctx, *fields;

  /* a stream never goes back in time (babeltrace2's muxer stops on one that does);
   * a live store is in time order but for rows the merge could not place */
  s->last_time = time;
  if (s->packet == NULL)
    {
      s->packet = bt_packet_create (s->stream);
      if (s->sc == SC_CPU)
        bt_field_integer_unsigned_set_value (
          bt_field_structure_borrow_member_field_by_index (bt_packet_borrow_context_field (s->packet), 0),
          s->cpu);
      emit (it, bt_message_packet_beginning_create_with_default_clock_snapshot (it->self, s->packet, time),
            msgs, capacity, count);
    }

  if (_tw_ctf_kind_has_arg_task (plan->type->kind))
    arg_task = tw_trace_get_task (trace, arg);

  msg = bt_message_event_create_with_packet_and_default_clock_snapshot (it->self, event_class_for (it, chunk->type[row], s->sc),
                                                                          s->packet, time);
  event = bt_message_event_borrow_event (msg);
  ctx = bt_event_borrow_common_context_field (event);
  bt_field_integer_signed_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 0), task ? task->pid : -1);
  bt_field_integer_signed_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 1), task ? task->tid : -1);
  bt_field_string_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 2), _tw_ctf_task_name (task));
  bt_field_string_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 3), task ? task->source_id : "");
  fields = bt_event_borrow_payload_field (event);
  for (guint i = 0; i < plan->members->len; i++)
    set_member (it, bt_field_structure_borrow_member_field_by_index (fields, i),
                &g_array_index (plan->members, TwCtfMember, i), plan->type, payload, task, arg_task, arg, cpu);
  emit (it, msg, msgs, capacity, count);

  if (++s->n_in_packet == PACKET_EVENTS)
    close_packet (it, s, msgs, capacity, count);
}

static void
end_streams (Iter              *it,
             bt_message_array_const msgs,
             guint64            capacity,
             guint64           *count)
{
  /* an empty range is still a trace: one empty stream, so the folder and its metadata
   * exist and open as 0 events */
  if (it->streams->len == 0)
    stream_for (it, TW_CPU_NONE, msgs, capacity, count);
  for (guint i = 0; i < it->streams->len; i++)
    {
      OutStream *s = it->streams->pdata[i];

      if (s->packet)
        close_packet (it, s, msgs, capacity, count);
      emit (it, bt_message_stream_end_create (it->self, s->stream), msgs, capacity, count);
    }
  it->ended = TRUE;
}

static bt_message_iterator_class_next_method_status
iter_next (bt_self_message_iterator *self,
           bt_message_array_const    msgs,
           uint64_t                  capacity,
           uint64_t                 *count)
{
  Iter *it = bt_self_message_iterator_get_data (self);
  WriteJob *job = it->job;

  *count = 0;
  while (it->queue_pos < it->queue->len && *count < capacity)
    msgs[(*count)++] = it->queue->pdata[it->queue_pos++];
  if (it->queue_pos == it->queue->len)
    {
      g_ptr_array_set_size (it->queue, 0);
      it->queue_pos = 0;
    }
  else
    return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;

  /* the graph's batch, filled: one event is one message but for packet boundaries */
  while (*count < capacity && it->next < job->end)
    write_row (it, it->next++, msgs, capacity, count);
  if (it->next == job->end && !it->ended && *count < capacity)
    end_streams (it, msgs, capacity, count);
  if (*count == 0 && it->ended)
    return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
  return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

static bt_stream_class *
make_stream_class (Iter           *it,
                   bt_clock_class *clock,
                   gboolean        per_cpu)
{
  bt_stream_class *sc = bt_stream_class_create (it->tc);
  bt_field_class *ctx = bt_field_class_structure_create (it->tc);
  static const char *const ctx_names[] = { "vpid", "vtid", "procname", "tracewb_task" };

  bt_stream_class_set_name (sc, per_cpu ? "cpu" : "task");
  bt_stream_class_set_default_clock_class (sc, clock);
  bt_stream_class_set_supports_packets (sc, BT_TRUE, BT_TRUE, BT_TRUE);
  if (per_cpu)
    {
      bt_field_class *pc = bt_field_class_structure_create (it->tc);
      bt_field_class *cpu = bt_field_class_integer_unsigned_create (it->tc);

      bt_field_class_integer_set_field_value_range (cpu, 32);
      bt_field_class_structure_append_member (pc, "cpu_id", cpu);
      bt_stream_class_set_packet_context_field_class (sc, pc);
      bt_field_class_put_ref (cpu);
      bt_field_class_put_ref (pc);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ctx_names); i++)
    {
      bt_field_class *fc = i < 2 ? bt_field_class_integer_signed_create (it->tc)
                                 : bt_field_class_string_create (it->tc);

      bt_field_class_structure_append_member (ctx, ctx_names[i], fc);
      bt_field_class_put_ref (fc);
    }
  bt_stream_class_set_event_common_context_field_class (sc, ctx);
  bt_field_class_put_ref (ctx);
  return sc;
}

static bt_message_iterator_class_initialize_method_status
iter_initialize (bt_self_message_iterator               *self,
                 bt_self_message_iterator_configuration *configuration,
                 bt_self_component_port_output          *port)
{
  bt_self_component *comp = bt_self_message_iterator_borrow_component (self);
  WriteJob *job = bt_self_component_get_data (comp);
  Iter *it = g_new0 (Iter, 1);
  bt_clock_class *clock;
  g_autofree char *origin = tw_trace_dup_metadata (job->trace, "time_origin");
  g_autoptr(GString) types = g_string_new (NULL);
  g_autofree char *hosts = NULL;

  it->job = job;
  it->self = self;
  it->next = job->first;
  it->streams = g_ptr_array_new_with_free_func (out_stream_free);
  it->queue = g_ptr_array_new ();
  it->tc = bt_trace_class_create (comp);
  /* the store's times are ns from its clock's origin: a 1 GHz clock at offset 0 gives
   * them back exactly */
  clock = bt_clock_class_create (comp);
  bt_clock_class_set_name (clock, "monotonic");
  bt_clock_class_set_frequency (clock, 1000000000);
  bt_clock_class_set_origin_is_unix_epoch (clock, origin && strstr (origin, "Unix epoch") != NULL);
  it->sc[SC_CPU] = make_stream_class (it, clock, TRUE);
  it->sc[SC_TASK] = make_stream_class (it, clock, FALSE);
  bt_clock_class_put_ref (clock);

  it->plans = _tw_ctf_plan_range (job->trace, job->first, job->end, job->n_types, types);
  it->ecs = g_new0 (bt_event_class *, MAX (job->n_types, 1) * 2);

  it->trace = bt_trace_create (it->tc);
  bt_trace_set_name (it->trace, "tracewb");
  bt_trace_set_environment_entry_string (it->trace, "tracer_name", "tracewb");
  bt_trace_set_environment_entry_string (it->trace, "hostname", g_get_host_name ());
  bt_trace_set_environment_entry_string (it->trace, TW_CTF_ENV_EVENT_TYPES, types->str);
  /* after the rows' tasks: every task they name lies below the count read here */
  hosts = _tw_ctf_dup_hosts_entry (job->trace);
  if (hosts[0])
    bt_trace_set_environment_entry_string (it->trace, TW_CTF_ENV_HOSTS, hosts);
  for (guint i = 0; i < TW_CTF_N_KEPT_METADATA; i++)
    {
      g_autofree char *value = _tw_ctf_dup_kept_metadata (job->trace, &_tw_ctf_kept_metadata[i]);

      if (value)
        bt_trace_set_environment_entry_string (it->trace, _tw_ctf_kept_metadata[i].env, value);
    }
  bt_self_message_iterator_set_data (self, it);
  return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static void
iter_finalize (bt_self_message_iterator *self)
{
  Iter *it = bt_self_message_iterator_get_data (self);

  if (it == NULL)
    return;
  for (guint i = it->queue_pos; i < it->queue->len; i++)
    bt_message_put_ref (it->queue->pdata[i]);
  g_ptr_array_unref (it->queue);
  g_ptr_array_unref (it->streams);
  for (guint i = 0; i < it->job->n_types * 2; i++)
    bt_event_class_put_ref (it->ecs[i]);
  g_free (it->ecs);
  _tw_ctf_plans_free (it->plans, it->job->n_types);
  g_free (it->by_cpu);
  bt_trace_put_ref (it->trace);
  bt_stream_class_put_ref (it->sc[SC_CPU]);
  bt_stream_class_put_ref (it->sc[SC_TASK]);
  bt_trace_class_put_ref (it->tc);
  g_free (it);
}

static bt_component_class_initialize_method_status
source_initialize (bt_self_component_source               *self,
                   bt_self_component_source_configuration *configuration,
                   const bt_value                         *params,
                   void                                   *data)
{
  bt_self_component_set_data (bt_self_component_source_as_self_component (self), data);
  if (bt_self_component_source_add_output_port (self, "out", NULL, NULL) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

/* ---------------------------------------------------------------- the graph */

static char *
take_bt_error (void)
{
  const bt_error *error = bt_current_thread_take_error ();
  GString *out = g_string_new (NULL);

  for (guint64 i = 0; error && i < bt_error_get_cause_count (error) && out->len < 300; i++)
    {
      const char *msg = bt_error_cause_get_message (bt_error_borrow_cause_by_index (error, i));

      if (msg == NULL || *msg == '\0' || strstr (msg, "comp-addr=") || strstr (msg, "iter-addr="))
        continue;
      if (out->len)
        g_string_append (out, ": ");
      g_string_append_len (out, msg, strchr (msg, '\n') ? strchr (msg, '\n') - msg : (gssize) strlen (msg));
    }
  if (error)
    bt_error_release (error);
  return g_string_free (out, FALSE);
}

static const bt_component_class_sink *
find_sink (const char       *plugin_name,
           const char       *sink_name,
           const bt_plugin **plugin)
{
  if (bt_plugin_find (plugin_name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, plugin) != BT_PLUGIN_FIND_STATUS_OK)
    return NULL;
  return bt_plugin_borrow_sink_component_class_by_name_const (*plugin, sink_name);
}

static const bt_component_class_sink *
find_fs_sink (const bt_plugin **plugin)
{
  return find_sink ("ctf", "fs", plugin);
}

/* Writes rows [first, end) as a CTF trace into @dir, which must not exist; with @dir
 * %NULL, into sink.utils.dummy, which takes the messages and writes nothing. */
static gboolean
run_graph (WriteJob    *job,
           const char  *dir,
           GError     **error)
{
  const bt_plugin *plugin = NULL;
  const bt_component_class_sink *fs_class = dir ? find_fs_sink (&plugin) : find_sink ("utils", "dummy", &plugin);
  bt_message_iterator_class *iter_class = NULL;
  bt_component_class_source *source_class = NULL;
  bt_graph *graph = NULL;
  bt_value *params = NULL;
  const bt_component_source *source = NULL;
  const bt_component_sink *sink = NULL;
  gboolean ok = FALSE;

  if (fs_class == NULL)
    {
      g_free (take_bt_error ());
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: babeltrace2's %s was not found", dir ? dir : "(no file)",
                   dir ? "ctf plugin (sink.ctf.fs)" : "utils plugin (sink.utils.dummy)");
      goto out;
    }

  iter_class = bt_message_iterator_class_create (iter_next);
  bt_message_iterator_class_set_initialize_method (iter_class, iter_initialize);
  bt_message_iterator_class_set_finalize_method (iter_class, iter_finalize);
  source_class = bt_component_class_source_create ("tracewb-trace", iter_class);
  bt_component_class_source_set_initialize_method (source_class, source_initialize);

  params = bt_value_map_create ();
  if (dir)
    {
      bt_value_map_insert_string_entry (params, "path", dir);
      bt_value_map_insert_bool_entry (params, "assume-single-trace", BT_TRUE);
      bt_value_map_insert_bool_entry (params, "quiet", BT_TRUE);
    }

  graph = bt_graph_create (0);
  if (bt_graph_add_source_component_with_initialize_method_data (graph, source_class, "tracewb", NULL, job,
                                                                  BT_LOGGING_LEVEL_NONE, &source)
      != BT_GRAPH_ADD_COMPONENT_STATUS_OK
      || bt_graph_add_sink_component (graph, fs_class, "ctf-fs", params, BT_LOGGING_LEVEL_NONE, &sink)
         != BT_GRAPH_ADD_COMPONENT_STATUS_OK
      || bt_graph_connect_ports (graph, bt_component_source_borrow_output_port_by_index_const (source, 0),
                                 bt_component_sink_borrow_input_port_by_index_const (sink, 0), NULL)
         != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
    goto bt_failed;

  for (;;)
    {
      bt_graph_run_once_status status;

      status = bt_graph_run_once (graph);
      if (status == BT_GRAPH_RUN_ONCE_STATUS_END)
        break;
      if (status == BT_GRAPH_RUN_ONCE_STATUS_AGAIN)
        continue;
      if (status != BT_GRAPH_RUN_ONCE_STATUS_OK)
        goto bt_failed;
    }
  ok = TRUE;
  goto out;

bt_failed:
  {
    g_autofree char *why = take_bt_error ();

    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: babeltrace2 could not write the CTF trace%s%s",
                 dir ? dir : "(no file)", why[0] ? ": " : "", why);
  }

out:
  /* the sink writes `metadata` when its trace goes, with the graph */
  bt_graph_put_ref (graph);
  bt_value_put_ref (params);
  bt_component_class_source_put_ref (source_class);
  bt_message_iterator_class_put_ref (iter_class);
  bt_plugin_put_ref (plugin);
  return ok;
}

#endif /* HAVE_BABELTRACE */

/**
 * _tw_ctf_bt_writer_is_available:
 *
 * Returns: whether babeltrace2 and its ctf plugin (sink.ctf.fs) are there; %FALSE with
 *   @error set saying what is missing
 */
gboolean
_tw_ctf_bt_writer_is_available (GError **error)
{
#if HAVE_BABELTRACE
  const bt_plugin *plugin = NULL;
  gboolean found = find_fs_sink (&plugin) != NULL;

  bt_plugin_put_ref (plugin);
  if (!found)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         "babeltrace2's ctf plugin (sink.ctf.fs) was not found");
  return found;
#else
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       "this build has no babeltrace2 (libbabeltrace2-dev) to write CTF with");
  return FALSE;
#endif
}

/**
 * _tw_ctf_bt_writer_write_range:
 * @dir: the trace folder to make (sink.ctf.fs makes it), or %NULL to hand the
 *   messages to sink.utils.dummy, which writes nothing: what our messages cost alone
 *
 * Writes rows [@first, @end) of @trace through our source component and sink.ctf.fs:
 * the trace the packer's output is compared with, and its speed measured beside.
 *
 * Returns: %FALSE with @error set when the graph failed
 */
gboolean
_tw_ctf_bt_writer_write_range (TwTrace     *trace,
                               guint64      first,
                               guint64      end,
                               const char  *dir,
                               GError     **error)
{
#if HAVE_BABELTRACE
  WriteJob job = { 0 };

  job.trace = trace;
  job.end = MIN (end, tw_trace_get_n_events (trace));
  job.first = MIN (first, job.end);
  job.n_types = tw_trace_get_n_event_types (trace);
  return run_graph (&job, dir, error);
#else
  return _tw_ctf_bt_writer_is_available (error);
#endif
}
