/* tw-sensor-layout.c: a sensor schema as an event type of the store, and its decoding
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-sensor-layout-private.h"

#include <string.h>

#define MAX_STORE_FIELDS 512

static TwFieldType
store_field_type (TwSensorFieldType type)
{
  switch (type)
    {
    case TW_SENSOR_FIELD_U8:  return TW_FIELD_U8;
    case TW_SENSOR_FIELD_U16: return TW_FIELD_U16;
    case TW_SENSOR_FIELD_U32: return TW_FIELD_U32;
    case TW_SENSOR_FIELD_U64: return TW_FIELD_U64;
    case TW_SENSOR_FIELD_I8:
    case TW_SENSOR_FIELD_I16:
    case TW_SENSOR_FIELD_I32: return TW_FIELD_I32;
    case TW_SENSOR_FIELD_I64: return TW_FIELD_I64;
    case TW_SENSOR_FIELD_F32:
    case TW_SENSOR_FIELD_F64: return TW_FIELD_F64;
    case TW_SENSOR_FIELD_CHAR:
    default:                  return TW_FIELD_STRING;
    }
}

/**
 * _tw_sensor_layout_init:
 * @name: the type's name, `<task>@<sensor>`
 * @what: the file or URL errors name
 *
 * Adds the store type of @schema to @trace. A type of that name with other fields (a
 * restarted writer with another schema) is kept, and the new one suffixed `#2`, `#3`….
 */
gboolean
_tw_sensor_layout_init (TwSensorLayout       *layout,
                        TwTrace              *trace,
                        const char           *name,
                        const TwSensorSchema *schema,
                        const char           *what,
                        GError              **error)
{
  gsize n_schema = tw_sensor_schema_get_n_fields (schema), n_fields = 0;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree TwFieldSpec *specs = NULL;
  const TwEventType *type;

  memset (layout, 0, sizeof *layout);
  layout->same_layout = TRUE;
  for (gsize i = 0; i < n_schema; i++)
    {
      const TwSensorField *f = tw_sensor_schema_get_field (schema, i);
      n_fields += f->type == TW_SENSOR_FIELD_CHAR ? 1 : f->count;
    }
  if (n_fields > MAX_STORE_FIELDS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: the schema has %" G_GSIZE_FORMAT " scalar fields; the store holds at most %u per event type",
                   what, n_fields, MAX_STORE_FIELDS);
      return FALSE;
    }

  specs = g_new0 (TwFieldSpec, MAX (n_fields, 1));
  layout->plan = g_new0 (TwSensorFieldPlan, MAX (n_fields, 1));
  n_fields = 0;
  for (gsize i = 0; i < n_schema; i++)
    {
      const TwSensorField *f = tw_sensor_schema_get_field (schema, i);

      if (f->type == TW_SENSOR_FIELD_CHAR)
        {
          specs[n_fields] = (TwFieldSpec) { f->name, TW_FIELD_STRING, TW_FIELD_FLAG_NONE };
          layout->plan[n_fields] = (TwSensorFieldPlan) { f->offset, 0, f->type, f->count };
          layout->same_layout = FALSE;
          n_fields++;
          continue;
        }
      for (guint32 k = 0; k < f->count; k++)
        {
          const char *field_name = f->name;

          if (f->count > 1)
            {
              char *indexed = g_strdup_printf ("%s[%u]", f->name, k);
              g_ptr_array_add (names, indexed);
              field_name = indexed;
            }
          specs[n_fields] = (TwFieldSpec) { field_name, store_field_type (f->type), TW_FIELD_FLAG_NONE };
          layout->plan[n_fields] = (TwSensorFieldPlan) { f->offset + k * (f->size / f->count), 0, f->type, 0 };
          n_fields++;
        }
    }
  layout->n_plan = (guint) n_fields;

  layout->type = tw_trace_add_event_type (trace, name, "sensor", TW_EVENT_KIND_SENSOR,
                                          specs, (guint) n_fields, NULL);
  for (guint attempt = 2; layout->type == TW_TYPE_NONE && attempt < 1000; attempt++)
    {
      g_autofree char *suffixed = g_strdup_printf ("%s#%u", name, attempt);
      g_autoptr (GError) local = NULL;

      layout->type = tw_trace_add_event_type (trace, suffixed, "sensor", TW_EVENT_KIND_SENSOR,
                                              specs, (guint) n_fields, &local);
      if (layout->type == TW_TYPE_NONE && attempt == 999)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", what);
          _tw_sensor_layout_clear (layout);
          return FALSE;
        }
    }
  /* ≤ 512 fields of at most 8 bytes: the payload always fits the store's 16 bits. */
  type = tw_trace_get_event_type (trace, layout->type);
  layout->payload_size = type->payload_size;
  for (guint i = 0; i < layout->n_plan; i++)
    {
      TwSensorFieldType t = layout->plan[i].src_type;

      layout->plan[i].dst_offset = type->offsets[i];
      if (layout->plan[i].dst_offset != layout->plan[i].src_offset
          || t == TW_SENSOR_FIELD_I8 || t == TW_SENSOR_FIELD_I16 || t == TW_SENSOR_FIELD_F32)
        layout->same_layout = FALSE;
    }
  if (type->presence_bytes != 0)
    layout->same_layout = FALSE;
  return TRUE;
}

/**
 * _tw_sensor_layout_decode:
 * @payload: the element's payload (after its timestamp), the schema's size
 * @out: the store payload, layout->payload_size bytes
 *
 * Untrusted bytes: strings are bounded and made valid UTF-8 before they are interned.
 */
void
_tw_sensor_layout_decode (const TwSensorLayout *layout,
                          TwTrace              *trace,
                          const guint8         *payload,
                          guint8               *out)
{
  for (guint i = 0; i < layout->n_plan; i++)
    {
      const TwSensorFieldPlan *p = &layout->plan[i];
      const guint8 *src = payload + p->src_offset;
      guint8 *dst = out + p->dst_offset;

      switch (p->src_type)
        {
        case TW_SENSOR_FIELD_U8:  memcpy (dst, src, 1); break;
        case TW_SENSOR_FIELD_U16: memcpy (dst, src, 2); break;
        case TW_SENSOR_FIELD_U32: memcpy (dst, src, 4); break;
        case TW_SENSOR_FIELD_U64:
        case TW_SENSOR_FIELD_I64:
        case TW_SENSOR_FIELD_F64: memcpy (dst, src, 8); break;
        case TW_SENSOR_FIELD_I8:  { gint32 v = *(const gint8 *) src; memcpy (dst, &v, 4); break; }
        case TW_SENSOR_FIELD_I16: { gint16 s; gint32 v; memcpy (&s, src, 2); v = s; memcpy (dst, &v, 4); break; }
        case TW_SENSOR_FIELD_I32: memcpy (dst, src, 4); break;
        case TW_SENSOR_FIELD_F32: { float s; double v; memcpy (&s, src, 4); v = s; memcpy (dst, &v, 8); break; }
        case TW_SENSOR_FIELD_CHAR:
        default:
          {
            gsize len = strnlen ((const char *) src, p->string_size);
            g_autofree char *text = g_utf8_make_valid ((const char *) src, (gssize) len);
            guint32 id = tw_trace_intern_string (trace, text);
            memcpy (dst, &id, 4);
            break;
          }
        }
    }
}

static void
reverse_bytes (guint8 *p,
               guint   n)
{
  for (guint i = 0; i < n / 2; i++)
    {
      guint8 t = p[i];

      p[i] = p[n - 1 - i];
      p[n - 1 - i] = t;
    }
}

/**
 * _tw_sensor_layout_swap:
 * @payload: an element's payload, the schema's size, written on a machine of the other
 *   byte order
 *
 * Reverses the bytes of every number in @payload in place (strings stay as they are),
 * so that _tw_sensor_layout_decode() reads it in ours.
 */
void
_tw_sensor_layout_swap (const TwSensorLayout *layout,
                        guint8               *payload)
{
  for (guint i = 0; i < layout->n_plan; i++)
    {
      const TwSensorFieldPlan *p = &layout->plan[i];

      switch (p->src_type)
        {
        case TW_SENSOR_FIELD_U16:
        case TW_SENSOR_FIELD_I16: reverse_bytes (payload + p->src_offset, 2); break;
        case TW_SENSOR_FIELD_U32:
        case TW_SENSOR_FIELD_I32:
        case TW_SENSOR_FIELD_F32: reverse_bytes (payload + p->src_offset, 4); break;
        case TW_SENSOR_FIELD_U64:
        case TW_SENSOR_FIELD_I64:
        case TW_SENSOR_FIELD_F64: reverse_bytes (payload + p->src_offset, 8); break;
        case TW_SENSOR_FIELD_U8:
        case TW_SENSOR_FIELD_I8:
        case TW_SENSOR_FIELD_CHAR:
        default: break;
        }
    }
}

void
_tw_sensor_layout_clear (TwSensorLayout *layout)
{
  g_clear_pointer (&layout->plan, g_free);
  layout->n_plan = 0;
}

/**
 * _tw_sensor_layout_task_id:
 *
 * Returns: (transfer full): the task id of @task's sensors in process @pid,
 *   `sensor:<pid>:<task>`
 */
char *
_tw_sensor_layout_task_id (gint64      pid,
                           const char *task)
{
  return g_strdup_printf ("sensor:%" G_GINT64_FORMAT ":%s", pid, task);
}

/**
 * _tw_sensor_layout_add_task:
 *
 * One task per (process, sensor task name): the threads of one program that name their
 * sensors' tasks differently get a row each.
 *
 * Returns: the task of @task's sensors in process @pid
 */
guint32
_tw_sensor_layout_add_task (TwTrace    *trace,
                            gint64      pid,
                            const char *task)
{
  g_autofree char *source_id = _tw_sensor_layout_task_id (pid, task);

  return tw_trace_add_task (trace, source_id, task, pid, -1);
}

/* The entry's head: "HOST: NAME", or "NAME" for a sensor of this machine, after "; " when
 * @out holds entries already. */
static void
append_entry_head (GString    *out,
                   const char *host,
                   const char *name)
{
  if (out->len)
    g_string_append (out, "; ");
  if (host && host[0])
    g_string_append_printf (out, "%s: ", host);
  g_string_append (out, name);
}

/**
 * _tw_sensor_layout_append_declared:
 * @out: the metadata `sensor_streams` being built
 * @host: (nullable): the sensor's machine in a trace of several, else %NULL or ""
 * @name: `<task>@<sensor>`
 * @declared: T, D, τ, T_M, d in ns
 *
 * What a sensor declared, as a recording keeps it for `tracewb-cli info` and the Sensors
 * tab (app/tw-recorded-sensors.c reads it back): "tA: probe@dense T=10000000 D=0 tau=0
 * T_M=10000000 d=10000000", "; " between sensors. One text whoever writes it: the LTTng
 * decoder from a target's schema events, the local monitor from its sensors' headers.
 */
void
_tw_sensor_layout_append_declared (GString      *out,
                                   const char   *host,
                                   const char   *name,
                                   const double  declared[5])
{
  append_entry_head (out, host, name);
  g_string_append_printf (out, " T=%.0f D=%.0f tau=%.0f T_M=%.0f d=%.0f", declared[0], declared[1],
                          declared[2], declared[3], declared[4]);
}

/**
 * _tw_sensor_layout_append_counts:
 * @out: the metadata `sensor_counts` being built
 * @host: (nullable): as for _tw_sensor_layout_append_declared()
 * @torn: elements caught being overwritten while read (TwLiveCounts.inconsistent)
 *
 * A monitor's own counts of a sensor, as a recording keeps them (its torn elements are
 * known from nowhere else): "tA: probe@dense received=12 missed=3 torn=1", "; " between
 * sensors.
 */
void
_tw_sensor_layout_append_counts (GString    *out,
                                 const char *host,
                                 const char *name,
                                 guint64     received,
                                 guint64     missed,
                                 guint64     torn)
{
  append_entry_head (out, host, name);
  g_string_append_printf (out, " received=%" G_GUINT64_FORMAT " missed=%" G_GUINT64_FORMAT " torn=%" G_GUINT64_FORMAT,
                          received, missed, torn);
}
