/* tw-sensor-schema.c: element schemas ("u64 seq; f64 value; char name[16]") and their layout
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-sensor-private.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct TwSensorSchema {
  size_t        n_fields;
  size_t        size;
  size_t        alignment;
  TwSensorField fields[];
};

static const struct {
  const char       *name;
  TwSensorFieldType type;
  uint32_t          size;
} field_types[] = {
  { "u8", TW_SENSOR_FIELD_U8, 1 },   { "u16", TW_SENSOR_FIELD_U16, 2 },
  { "u32", TW_SENSOR_FIELD_U32, 4 }, { "u64", TW_SENSOR_FIELD_U64, 8 },
  { "i8", TW_SENSOR_FIELD_I8, 1 },   { "i16", TW_SENSOR_FIELD_I16, 2 },
  { "i32", TW_SENSOR_FIELD_I32, 4 }, { "i64", TW_SENSOR_FIELD_I64, 8 },
  { "f32", TW_SENSOR_FIELD_F32, 4 }, { "f64", TW_SENSOR_FIELD_F64, 8 },
  { "char", TW_SENSOR_FIELD_CHAR, 1 },
};

void
tw_sensor_set_error (char *error, size_t error_size, const char *format, ...)
{
  va_list args;

  if (!error || error_size == 0)
    return;
  va_start (args, format);
  vsnprintf (error, error_size, format, args);
  va_end (args);
}

static const char *
skip_space (const char *p)
{
  while (*p && isspace ((unsigned char) *p))
    p++;
  return p;
}

static size_t
identifier_length (const char *p)
{
  size_t n = 0;

  if (!(isalpha ((unsigned char) *p) || *p == '_'))
    return 0;
  while (isalnum ((unsigned char) p[n]) || p[n] == '_')
    n++;
  return n;
}

/**
 * tw_sensor_schema_parse:
 * @text: the schema, e.g. "u64 seq; u32 cpu; f64 value; char name[16]"
 * @error: (nullable): where to write a message on failure
 * @error_size: size of @error
 *
 * Parses a schema and computes its C layout (natural alignment, declaration order).
 * Text may come from an untrusted file: every limit is checked. The empty schema is
 * valid (payload of 0 bytes).
 *
 * Returns: (transfer full) (nullable): the schema, or NULL with errno = EINVAL.
 */
TwSensorSchema *
tw_sensor_schema_parse (const char *text, char *error, size_t error_size)
{
  TwSensorField fields[TW_SENSOR_MAX_FIELDS];
  size_t n_fields = 0, offset = 0, alignment = 1;
  const char *p;
  TwSensorSchema *schema;

  if (!text)
    {
      tw_sensor_set_error (error, error_size, "no schema");
      errno = EINVAL;
      return NULL;
    }
  if (strnlen (text, TW_SENSOR_SCHEMA_MAX) >= TW_SENSOR_SCHEMA_MAX)
    {
      tw_sensor_set_error (error, error_size, "schema longer than %d bytes", TW_SENSOR_SCHEMA_MAX - 1);
      errno = EINVAL;
      return NULL;
    }

  p = skip_space (text);
  while (*p)
    {
      TwSensorField *field;
      size_t type_len = identifier_length (p), name_len, i, type_index = SIZE_MAX;
      size_t column = (size_t) (p - text);
      uint64_t count = 1;

      for (i = 0; i < sizeof field_types / sizeof field_types[0]; i++)
        if (strlen (field_types[i].name) == type_len && strncmp (p, field_types[i].name, type_len) == 0)
          type_index = i;
      if (type_index == SIZE_MAX)
        {
          tw_sensor_set_error (error, error_size, "column %zu: unknown type \"%.*s\" (expected u8..u64, i8..i64, f32, f64, char)",
                               column, (int) (type_len ? type_len : 1), p);
          goto fail;
        }
      p = skip_space (p + type_len);
      name_len = identifier_length (p);
      if (name_len == 0)
        {
          tw_sensor_set_error (error, error_size, "column %zu: expected a field name", (size_t) (p - text));
          goto fail;
        }
      if (name_len >= TW_SENSOR_FIELD_NAME_MAX)
        {
          tw_sensor_set_error (error, error_size, "column %zu: field name longer than %d characters",
                               (size_t) (p - text), TW_SENSOR_FIELD_NAME_MAX - 1);
          goto fail;
        }
      if (n_fields == TW_SENSOR_MAX_FIELDS)
        {
          tw_sensor_set_error (error, error_size, "more than %d fields", TW_SENSOR_MAX_FIELDS);
          goto fail;
        }
      field = &fields[n_fields];
      memset (field, 0, sizeof *field);
      memcpy (field->name, p, name_len);
      for (i = 0; i < n_fields; i++)
        if (strcmp (fields[i].name, field->name) == 0)
          {
            tw_sensor_set_error (error, error_size, "column %zu: duplicate field \"%s\"", (size_t) (p - text), field->name);
            goto fail;
          }
      p = skip_space (p + name_len);
      if (*p == '[')
        {
          char *end;

          p = skip_space (p + 1);
          if (!isdigit ((unsigned char) *p))
            {
              tw_sensor_set_error (error, error_size, "column %zu: expected an array length", (size_t) (p - text));
              goto fail;
            }
          errno = 0;
          count = strtoull (p, &end, 10);
          if (errno || count == 0 || count > TW_SENSOR_MAX_PAYLOAD)
            {
              tw_sensor_set_error (error, error_size, "column %zu: array length must be 1..%d",
                                   (size_t) (p - text), TW_SENSOR_MAX_PAYLOAD);
              goto fail;
            }
          p = skip_space (end);
          if (*p != ']')
            {
              tw_sensor_set_error (error, error_size, "column %zu: expected ']'", (size_t) (p - text));
              goto fail;
            }
          p = skip_space (p + 1);
        }
      if (*p == ';')
        p = skip_space (p + 1);
      else if (*p)
        {
          tw_sensor_set_error (error, error_size, "column %zu: expected ';' after field \"%s\"", (size_t) (p - text), field->name);
          goto fail;
        }

      field->type = field_types[type_index].type;
      field->count = (uint32_t) count;
      field->size = field_types[type_index].size * (uint32_t) count;
      offset = (offset + field_types[type_index].size - 1) / field_types[type_index].size * field_types[type_index].size;
      field->offset = (uint32_t) offset;
      offset += field->size;
      if (field_types[type_index].size > alignment)
        alignment = field_types[type_index].size;
      if (offset > TW_SENSOR_MAX_PAYLOAD)
        {
          tw_sensor_set_error (error, error_size, "elements larger than %d bytes", TW_SENSOR_MAX_PAYLOAD);
          goto fail;
        }
      n_fields++;
    }

  schema = malloc (sizeof *schema + n_fields * sizeof (TwSensorField));
  if (!schema)
    {
      tw_sensor_set_error (error, error_size, "out of memory");
      errno = ENOMEM;
      return NULL;
    }
  schema->n_fields = n_fields;
  schema->alignment = alignment;
  schema->size = (offset + alignment - 1) / alignment * alignment;
  if (n_fields)
    memcpy (schema->fields, fields, n_fields * sizeof (TwSensorField));
  return schema;

fail:
  errno = EINVAL;
  return NULL;
}

/**
 * tw_sensor_schema_free:
 * @schema: (nullable) (transfer full): a schema
 */
void
tw_sensor_schema_free (TwSensorSchema *schema)
{
  free (schema);
}

/**
 * tw_sensor_schema_get_n_fields:
 *
 * Returns: the number of fields
 */
size_t
tw_sensor_schema_get_n_fields (const TwSensorSchema *schema)
{
  return schema->n_fields;
}

/**
 * tw_sensor_schema_get_field:
 *
 * Returns: (transfer none) (nullable): field @index, NULL when out of range
 */
const TwSensorField *
tw_sensor_schema_get_field (const TwSensorSchema *schema, size_t index)
{
  return index < schema->n_fields ? &schema->fields[index] : NULL;
}

/**
 * tw_sensor_schema_find_field:
 *
 * Returns: the index of the field called @name, or -1
 */
int
tw_sensor_schema_find_field (const TwSensorSchema *schema, const char *name)
{
  for (size_t i = 0; i < schema->n_fields; i++)
    if (strcmp (schema->fields[i].name, name) == 0)
      return (int) i;
  return -1;
}

/**
 * tw_sensor_schema_get_size:
 *
 * Returns: payload bytes, a multiple of the alignment (the C sizeof of the matching struct)
 */
size_t
tw_sensor_schema_get_size (const TwSensorSchema *schema)
{
  return schema->size;
}

/**
 * tw_sensor_schema_get_alignment:
 *
 * Returns: the largest field alignment (1 for an empty schema)
 */
size_t
tw_sensor_schema_get_alignment (const TwSensorSchema *schema)
{
  return schema->alignment;
}

/**
 * tw_sensor_field_type_name:
 *
 * Returns: (transfer none): the schema keyword of @type ("u8", …, "char")
 */
const char *
tw_sensor_field_type_name (TwSensorFieldType type)
{
  for (size_t i = 0; i < sizeof field_types / sizeof field_types[0]; i++)
    if (field_types[i].type == type)
      return field_types[i].name;
  return "?";
}

static int
format_scalar (TwSensorFieldType type, const unsigned char *p, char *buffer, size_t size)
{
  union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; int8_t i8; int16_t i16;
          int32_t i32; int64_t i64; float f32; double f64; } v;

  switch (type)
    {
    case TW_SENSOR_FIELD_U8:  memcpy (&v.u8, p, 1);  return snprintf (buffer, size, "%" PRIu8, v.u8);
    case TW_SENSOR_FIELD_U16: memcpy (&v.u16, p, 2); return snprintf (buffer, size, "%" PRIu16, v.u16);
    case TW_SENSOR_FIELD_U32: memcpy (&v.u32, p, 4); return snprintf (buffer, size, "%" PRIu32, v.u32);
    case TW_SENSOR_FIELD_U64: memcpy (&v.u64, p, 8); return snprintf (buffer, size, "%" PRIu64, v.u64);
    case TW_SENSOR_FIELD_I8:  memcpy (&v.i8, p, 1);  return snprintf (buffer, size, "%" PRId8, v.i8);
    case TW_SENSOR_FIELD_I16: memcpy (&v.i16, p, 2); return snprintf (buffer, size, "%" PRId16, v.i16);
    case TW_SENSOR_FIELD_I32: memcpy (&v.i32, p, 4); return snprintf (buffer, size, "%" PRId32, v.i32);
    case TW_SENSOR_FIELD_I64: memcpy (&v.i64, p, 8); return snprintf (buffer, size, "%" PRId64, v.i64);
    case TW_SENSOR_FIELD_F32: memcpy (&v.f32, p, 4); return snprintf (buffer, size, "%.9g", (double) v.f32);
    case TW_SENSOR_FIELD_F64: memcpy (&v.f64, p, 8); return snprintf (buffer, size, "%.17g", v.f64);
    case TW_SENSOR_FIELD_CHAR: default: return -1;
    }
}

/* Appends while everything so far fitted: a truncated text is a prefix, never a mix. */
static void
append_piece (char *buffer, size_t buffer_size, size_t *used, bool *full, const char *piece, size_t n)
{
  if (!*full && *used + n < buffer_size)
    memcpy (buffer + *used, piece, n + 1);
  else
    *full = true;
  *used += n;
}

/**
 * tw_sensor_field_format:
 * @field: a field of a schema
 * @payload: an element's payload (at least the schema's size)
 * @buffer: where to write the text
 * @buffer_size: size of @buffer
 *
 * Formats one field as text, for CSV dumps and tooltips: numbers in decimal (floats
 * round-trip), arrays as space-separated values, char arrays up to their first NUL
 * with bytes outside printable ASCII as \xNN.
 *
 * Returns: the length the text needed (as snprintf), or -1 on a bad field
 */
int
tw_sensor_field_format (const TwSensorField *field, const void *payload, char *buffer, size_t buffer_size)
{
  const unsigned char *p = (const unsigned char *) payload + field->offset;
  size_t used = 0;
  bool full = false;

  if (buffer_size)
    buffer[0] = '\0';
  if (field->type == TW_SENSOR_FIELD_CHAR)
    {
      for (uint32_t i = 0; i < field->count && p[i]; i++)
        {
          char piece[8];
          int n = (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
            ? snprintf (piece, sizeof piece, "%c", p[i])
            : snprintf (piece, sizeof piece, "\\x%02x", p[i]);

          append_piece (buffer, buffer_size, &used, &full, piece, (size_t) n);
        }
      return (int) used;
    }
  for (uint32_t i = 0; i < field->count; i++)
    {
      size_t element = field->size / field->count;
      char piece[64];
      int n = format_scalar (field->type, p + i * element, piece, sizeof piece);

      if (n < 0)
        return -1;
      if (i > 0)
        append_piece (buffer, buffer_size, &used, &full, " ", 1);
      append_piece (buffer, buffer_size, &used, &full, piece, (size_t) n);
    }
  return (int) used;
}
