/* tw-ctf-plan.c: what each event type of a store becomes in a CTF trace we write
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ctf-plan-private.h"

#include "tw-csv-reader-private.h"
#include "tw-kernel-common-private.h"

#include <string.h>

/*
 * Kernel kinds are written with the payloads LTTng's kernel tracer gives them
 * (sched_switch's prev_comm, prev_tid, prev_prio, prev_state, next_comm, next_tid,
 * next_prio, ...), from the store's task and arg columns, so every CTF reader decodes
 * them the same way; other kinds with their own fields, and the store's arg as the
 * column the CSV format gives it. The trace environment's `tracewb_event_types` says
 * each type's kind and family, which CTF has no place for; our reader takes them back
 * from there. Both writers (tw-ctf-packer.c, and tw-ctf-bt-writer.c through
 * babeltrace2) write what these plans say.
 */

static void
add_member (GArray            *members,
            const char        *name,
            TwCtfMemberSource  source,
            TwCtfMemberOut     out,
            guint8             bits,
            int                field)
{
  TwCtfMember m = { .name = name, .source = source, .out = out, .bits = bits, .field = field };

  g_array_append_val (members, m);
}

static void
add_field (GArray            *members,
           const TwEventType *type,
           guint              f)
{
  const TwFieldSpec *spec = &type->fields[f];
  TwCtfMember m = { .name = spec->name, .source = TW_CTF_FROM_FIELD, .field = f,
               .hex = (spec->flags & TW_FIELD_FLAG_HEX) != 0 };

  if (spec->flags & TW_FIELD_FLAG_TASK)
    {
      m.out = TW_CTF_OUT_STRING;
      m.task_ref = TRUE;
    }
  else
    switch (spec->type)
      {
      case TW_FIELD_U8:  m.out = TW_CTF_OUT_UNSIGNED; m.bits = 8; break;
      case TW_FIELD_U16: m.out = TW_CTF_OUT_UNSIGNED; m.bits = 16; break;
      case TW_FIELD_U32: m.out = TW_CTF_OUT_UNSIGNED; m.bits = 32; break;
      case TW_FIELD_U64: m.out = TW_CTF_OUT_UNSIGNED; m.bits = 64; break;
      case TW_FIELD_I32: m.out = TW_CTF_OUT_SIGNED; m.bits = 32; break;
      case TW_FIELD_I64: m.out = TW_CTF_OUT_SIGNED; m.bits = 64; break;
      case TW_FIELD_F64: m.out = TW_CTF_OUT_REAL; m.bits = 64; break;
      case TW_FIELD_STRING:
      default:           m.out = TW_CTF_OUT_STRING; break;
      }
  g_array_append_val (members, m);
}

/* A number LTTng's payload has: the type's field of that name, else @fallback. */
static void
add_number (GArray            *members,
            const TwEventType *type,
            const char        *name,
            TwCtfMemberSource       fallback)
{
  int f = tw_event_type_lookup_field (type, name);

  if (f >= 0 && type->fields[f].type != TW_FIELD_STRING && type->fields[f].type != TW_FIELD_F64)
    add_member (members, name, TW_CTF_FROM_FIELD, TW_CTF_OUT_SIGNED, 64, f);
  else
    add_member (members, name, fallback, TW_CTF_OUT_SIGNED, 64, -1);
}

/* The store's arg as LTTng's member @name (irq, vec): at the width of the type's field
 * of that name when it has one, so the type reads back with the same fields. */
static void
add_arg (GArray            *members,
         const TwEventType *type,
         const char        *name,
         TwCtfMemberOut          out,
         guint8             bits)
{
  int f = tw_event_type_lookup_field (type, name);

  if (f >= 0 && type->fields[f].type != TW_FIELD_STRING && type->fields[f].type != TW_FIELD_F64
      && !(type->fields[f].flags & TW_FIELD_FLAG_TASK))
    {
      add_field (members, type, f);
      g_array_index (members, TwCtfMember, members->len - 1).source = TW_CTF_FROM_ARG;
      return;
    }
  add_member (members, name, TW_CTF_FROM_ARG, out, bits, -1);
}

/* The type's fields but those named in @skip (NULL-terminated). */
static void
add_fields_but (GArray            *members,
                const TwEventType *type,
                const char        *skip)
{
  for (guint f = 0; f < type->n_fields; f++)
    if (skip == NULL || strcmp (type->fields[f].name, skip) != 0)
      add_field (members, type, f);
}

void
_tw_ctf_plan_type (TwCtfTypePlan     *plan,
                   const TwEventType *type)
{
  GArray *m = g_array_new (FALSE, TRUE, sizeof (TwCtfMember));

  plan->type = type;
  plan->members = m;
  switch (type->kind)
    {
    case TW_EVENT_KIND_SWITCH:
      add_member (m, "prev_comm", TW_CTF_FROM_TASK_NAME, TW_CTF_OUT_STRING, 0, -1);
      add_member (m, "prev_tid", TW_CTF_FROM_TASK_TID, TW_CTF_OUT_SIGNED, 32, -1);
      add_number (m, type, "prev_prio", TW_CTF_FROM_ZERO);
      add_member (m, "prev_state", TW_CTF_FROM_PREV_STATE, TW_CTF_OUT_SIGNED, 64,
                  tw_event_type_lookup_field (type, "prev_state"));
      add_member (m, "next_comm", TW_CTF_FROM_ARG_TASK_NAME, TW_CTF_OUT_STRING, 0, -1);
      add_member (m, "next_tid", TW_CTF_FROM_ARG_TASK_TID, TW_CTF_OUT_SIGNED, 32, -1);
      add_number (m, type, "next_prio", TW_CTF_FROM_ZERO);
      break;
    case TW_EVENT_KIND_WAKEUP:
      add_member (m, "comm", TW_CTF_FROM_ARG_TASK_NAME, TW_CTF_OUT_STRING, 0, -1);
      add_member (m, "tid", TW_CTF_FROM_ARG_TASK_TID, TW_CTF_OUT_SIGNED, 32, -1);
      add_number (m, type, "prio", TW_CTF_FROM_ZERO);
      add_number (m, type, "target_cpu", TW_CTF_FROM_CPU);
      break;
    case TW_EVENT_KIND_TASK_CREATE:
      add_member (m, "parent_comm", TW_CTF_FROM_TASK_NAME, TW_CTF_OUT_STRING, 0, -1);
      add_member (m, "parent_tid", TW_CTF_FROM_TASK_TID, TW_CTF_OUT_SIGNED, 32, -1);
      add_member (m, "child_comm", TW_CTF_FROM_ARG_TASK_NAME, TW_CTF_OUT_STRING, 0, -1);
      add_member (m, "child_tid", TW_CTF_FROM_ARG_TASK_TID, TW_CTF_OUT_SIGNED, 32, -1);
      add_member (m, "child_pid", TW_CTF_FROM_ARG_TASK_PID, TW_CTF_OUT_SIGNED, 32, -1);
      break;
    case TW_EVENT_KIND_TASK_EXIT:
      add_member (m, "comm", TW_CTF_FROM_ARG_TASK_NAME, TW_CTF_OUT_STRING, 0, -1);
      add_member (m, "tid", TW_CTF_FROM_ARG_TASK_TID, TW_CTF_OUT_SIGNED, 32, -1);
      add_number (m, type, "prio", TW_CTF_FROM_ZERO);
      break;
    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:
      add_arg (m, type, "irq", TW_CTF_OUT_SIGNED, 32);
      add_fields_but (m, type, "irq");
      break;
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:
      add_arg (m, type, "vec", TW_CTF_OUT_UNSIGNED, 32);
      add_fields_but (m, type, "vec");
      break;
    case TW_EVENT_KIND_USER:
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
    case TW_EVENT_KIND_SENSOR:
      /* the store's arg (user event id, mutex, sensor index) as the column the CSV
       * format gives it, last, unless the type has such a field itself */
      add_fields_but (m, type, NULL);
      plan->arg_member = _tw_csv_kind_column_for (type->kind);
      if (tw_event_type_lookup_field (type, plan->arg_member) < 0)
        {
          add_member (m, plan->arg_member, TW_CTF_FROM_ARG, TW_CTF_OUT_UNSIGNED, 32, -1);
          plan->arg_extra = TRUE;
        }
      break;
    case TW_EVENT_KIND_LOST:
      add_fields_but (m, type, NULL);
      plan->arg_member = "count";
      /* no beginning known is TW_TIME_NONE, which the reader packs back as absent */
      for (guint i = 0; i < m->len; i++)
        if (strcmp (g_array_index (m, TwCtfMember, i).name, "since") == 0)
          g_array_index (m, TwCtfMember, i).absent_max = TRUE;
      break;
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:
      add_fields_but (m, type, NULL);
      break;
    }
}

/* One entry per type: "kind,family,name,arg member,1 when that member is not a field",
 * each part URI-escaped, entries joined by ';'. */
void
_tw_ctf_append_type_entry (GString             *out,
                           const TwCtfTypePlan *plan)
{
  const char *parts[4] = {
    tw_event_kind_to_string (plan->type->kind), plan->type->family ? plan->type->family : "",
    plan->type->name, plan->arg_member ? plan->arg_member : "",
  };

  if (out->len)
    g_string_append_c (out, ';');
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_string_append_uri_escaped (out, parts[i], NULL, TRUE);
      g_string_append_c (out, ',');
    }
  g_string_append_c (out, plan->arg_extra ? '1' : '0');
}

/* `tracewb_hosts`: "cpu,CPU,HOST,HOST_CPU" and "task,ID,HOST" entries, URI-escaped,
 * joined by ';'; empty in a trace of one machine. */
char *
_tw_ctf_dup_hosts_entry (TwTrace *trace)
{
  GString *out = g_string_new (NULL);
  guint n_cpus = tw_trace_get_n_cpus (trace);
  guint32 n_tasks = tw_trace_get_n_tasks (trace);

  if (tw_trace_get_n_hosts (trace) == 0)
    return g_string_free (out, FALSE);
  for (guint c = 0; c < n_cpus; c++)
    {
      guint16 host_cpu;
      const char *host = tw_trace_get_cpu_host (trace, c, &host_cpu);

      if (host == NULL)
        continue;
      g_string_append_printf (out, "%scpu,%u,", out->len ? ";" : "", c);
      g_string_append_uri_escaped (out, host, NULL, TRUE);
      g_string_append_printf (out, ",%u", host_cpu);
    }
  for (guint32 t = 0; t < n_tasks; t++)
    {
      const TwTask *task = tw_trace_get_task (trace, t);

      if (task->host == NULL)
        continue;
      g_string_append_printf (out, "%stask,", out->len ? ";" : "");
      g_string_append_uri_escaped (out, task->source_id, NULL, TRUE);
      g_string_append_c (out, ',');
      g_string_append_uri_escaped (out, task->host, NULL, TRUE);
    }
  return g_string_free (out, FALSE);
}

const TwCtfKeptMetadata _tw_ctf_kept_metadata[TW_CTF_N_KEPT_METADATA] = {
  { "sensor_streams", "tracewb_sensor_streams" },
  { "sensor_counts",  "tracewb_sensor_counts" },
};

/* The environment entry of @kept for @trace, or %NULL when @trace has none: valid UTF-8,
 * as babeltrace2 reads the metadata's strings (a sensor's name is any printable byte). */
char *
_tw_ctf_dup_kept_metadata (TwTrace                 *trace,
                           const TwCtfKeptMetadata *kept)
{
  g_autofree char *value = tw_trace_dup_metadata (trace, kept->metadata);

  return value && value[0] ? g_utf8_make_valid (value, -1) : NULL;
}

/**
 * _tw_ctf_plan_range:
 * @types_entry: (out caller-allocates): receives `tracewb_event_types`
 *
 * Plans the types that rows [@first, @end) use; the others keep no members.
 *
 * Returns: (transfer full): @n_types plans, for _tw_ctf_plans_free()
 */
TwCtfTypePlan *
_tw_ctf_plan_range (TwTrace *trace,
                    guint64  first,
                    guint64  end,
                    guint    n_types,
                    GString *types_entry)
{
  TwCtfTypePlan *plans = g_new0 (TwCtfTypePlan, MAX (n_types, 1));

  for (guint64 e = first; e < end; e++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, (guint) (e >> TW_CHUNK_SHIFT));
      guint16 t = chunk->type[e & TW_CHUNK_MASK];

      if (plans[t].members == NULL)
        {
          _tw_ctf_plan_type (&plans[t], tw_trace_get_event_type (trace, t));
          _tw_ctf_append_type_entry (types_entry, &plans[t]);
        }
    }
  return plans;
}

void
_tw_ctf_plans_free (TwCtfTypePlan *plans,
                    guint          n_types)
{
  for (guint t = 0; plans && t < n_types; t++)
    g_clear_pointer (&plans[t].members, g_array_unref);
  g_free (plans);
}

const char *
_tw_ctf_task_name (const TwTask *task)
{
  return task && task->name ? task->name : "";
}

/* Whether the store's arg of this kind is a task (the one switched to, woken, made,
 * ended). */
gboolean
_tw_ctf_kind_has_arg_task (TwEventKind kind)
{
  return kind == TW_EVENT_KIND_SWITCH || kind == TW_EVENT_KIND_WAKEUP || kind == TW_EVENT_KIND_TASK_CREATE
         || kind == TW_EVENT_KIND_TASK_EXIT;
}

/* The value member @m has in one event. */
void
_tw_ctf_member_value (TwTrace           *trace,
                      const TwCtfMember *m,
                      const TwEventType *type,
                      const guint8      *payload,
                      const TwTask      *task,
                      const TwTask      *arg_task,
                      guint32            arg,
                      guint16            cpu,
                      TwCtfValue        *out)
{
  TwValue v = { 0 };
  gint64 i = 0;

  out->s = "";
  out->f = 0;
  switch (m->source)
    {
    case TW_CTF_FROM_FIELD:
      if (m->field < 0 || payload == NULL || !tw_event_type_get_field (type, payload, m->field, &v))
        {
          if (m->absent_max)
            v.u = G_MAXUINT64;
          break;
        }
      if (m->task_ref)
        {
          const TwTask *t = tw_trace_get_task (trace, (guint32) v.u);

          out->s = t ? t->source_id : "";
        }
      else if (v.type == TW_FIELD_STRING)
        out->s = tw_trace_get_string (trace, v.str);
      else if (v.type == TW_FIELD_F64)
        out->f = v.f;
      else if (v.type == TW_FIELD_I32 || v.type == TW_FIELD_I64)
        i = v.i;
      else
        i = (gint64) v.u;
      break;
    case TW_CTF_FROM_TASK_NAME:     out->s = _tw_ctf_task_name (task); break;
    case TW_CTF_FROM_TASK_TID:      i = task ? task->tid : -1; break;
    case TW_CTF_FROM_ARG_TASK_NAME: out->s = _tw_ctf_task_name (arg_task); break;
    case TW_CTF_FROM_ARG_TASK_TID:  i = arg_task ? arg_task->tid : -1; break;
    case TW_CTF_FROM_ARG_TASK_PID:  i = arg_task ? (arg_task->pid >= 0 ? arg_task->pid : arg_task->tid) : -1; break;
    case TW_CTF_FROM_ARG:           i = arg; break;
    case TW_CTF_FROM_CPU:           i = cpu == TW_CPU_NONE ? -1 : cpu; break;
    case TW_CTF_FROM_PREV_STATE:
      if (m->field >= 0 && payload && tw_event_type_get_field (type, payload, m->field, &v))
        i = v.type == TW_FIELD_STRING ? (gint64) _tw_kernel_parse_prev_state (tw_trace_get_string (trace, v.str))
                                      : v.i;
      break;
    case TW_CTF_FROM_ZERO:
    default:
      break;
    }
  out->i = i;
  out->u = m->source == TW_CTF_FROM_FIELD ? v.u : (guint64) i;
}
