/* tw-automaton-file.c: reading and writing metric automata as JSON files
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format (docs/automata.md):
 *
 *   { "tracewb_automaton": 1, "name": "...", "initial": "<state id>",
 *     "states": [ { "id": "...", "kind": "begin|end|cancel|in|out|cond", "x": N, "y": N } ],
 *     "transitions": [ { "from": "...", "to": "...", "event": "NAME",
 *                        "task": "same|other", "task_field": "task|arg" },
 *                      { "from": "...", "to": "...", "label": "lambda|any" } ] }
 *
 * Members this version does not know are kept, at every level, and written back after
 * the known ones so that a file written by a newer version survives a round trip.
 */
#include "config.h"

#include "tw-automaton-file.h"

#include <math.h>

G_DEFINE_QUARK (tw-automaton-file-error-quark, tw_automaton_file_error)

static const char * const top_keys[] = { "tracewb_automaton", "name", "initial", "states",
                                         "transitions", NULL };
static const char * const state_keys[] = { "id", "kind", "x", "y", NULL };
static const char * const transition_keys[] = { "from", "to", "event", "task", "task_field",
                                                "label", NULL };

typedef struct {
  const char *file;
  GError    **error;
} Reader;

static gboolean
fail (Reader               *r,
      TwAutomatonFileError  code,
      const char           *where,
      const char           *format,
      ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (Reader               *r,
      TwAutomatonFileError  code,
      const char           *where,
      const char           *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (r->error, TW_AUTOMATON_FILE_ERROR, code, "%s: %s: %s", r->file, where, what);
  return FALSE;
}

static const char *
json_type_name (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "a string";
    case G_TYPE_BOOLEAN:
      return "a boolean";
    default:
      return "a number";
    }
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static gboolean
is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* Looks a member up; absent optional members give %TRUE with *out = NULL. */
static gboolean
get_string (Reader      *r,
            JsonObject  *object,
            const char  *where,
            const char  *key,
            gboolean     required,
            const char **out)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL)
    {
      if (!required)
        return TRUE;
      return fail (r, TW_AUTOMATON_FILE_ERROR_MISSING, where, "the member “%s” is missing", key);
    }
  if (!is_string (node))
    return fail (r, TW_AUTOMATON_FILE_ERROR_TYPE, where,
                 "“%s” must be a string, not %s", key, json_type_name (node));
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_number (Reader     *r,
            JsonObject *object,
            const char *where,
            const char *key,
            double     *out)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = 0;
  if (node == NULL)
    return TRUE;
  if (!is_number (node))
    return fail (r, TW_AUTOMATON_FILE_ERROR_TYPE, where,
                 "“%s” must be a number, not %s", key, json_type_name (node));
  *out = json_node_get_double (node);
  if (!isfinite (*out))
    return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where, "“%s” is not a finite number", key);
  return TRUE;
}

static JsonObject *
collect_extra (JsonObject         *object,
               const char * const *known)
{
  g_autoptr(GList) members = json_object_get_members (object);
  JsonObject *extra = NULL;

  for (GList *l = members; l; l = l->next)
    {
      if (g_strv_contains (known, l->data))
        continue;
      if (extra == NULL)
        extra = json_object_new ();
      json_object_set_member (extra, l->data,
                              json_node_copy (json_object_get_member (object, l->data)));
    }
  return extra;
}

static gboolean
read_state (Reader      *r,
            TwAutomaton *automaton,
            JsonNode    *node,
            guint        index)
{
  g_autofree char *where = g_strdup_printf ("states[%u]", index);
  g_autoptr(JsonObject) extra = NULL;
  JsonObject *object;
  const char *id, *kind_name;
  TwStateKind kind;
  double x, y;
  guint s;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (r, TW_AUTOMATON_FILE_ERROR_TYPE, where, "a state must be an object, not %s",
                 json_type_name (node));
  object = json_node_get_object (node);
  if (!get_string (r, object, where, "id", TRUE, &id) ||
      !get_string (r, object, where, "kind", TRUE, &kind_name) ||
      !get_number (r, object, where, "x", &x) ||
      !get_number (r, object, where, "y", &y))
    return FALSE;
  if (!tw_state_kind_from_string (kind_name, &kind))
    return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                 "unknown kind “%s” of state “%s” (expected begin, end, cancel, in, out or cond)",
                 kind_name, id);

  s = tw_automaton_add_state (automaton, id, kind, x, y);
  extra = collect_extra (object, state_keys);
  tw_automaton_set_state_extra (automaton, s, extra);
  return TRUE;
}

static gboolean
read_transition (Reader      *r,
                 TwAutomaton *automaton,
                 JsonNode    *node,
                 guint        index)
{
  g_autofree char *where = g_strdup_printf ("transitions[%u]", index);
  g_autoptr(JsonObject) extra = NULL;
  JsonObject *object;
  const char *from, *to, *event, *task_name, *field_name, *label_name;
  TwLabelKind label = TW_LABEL_EVENT;
  TwTaskMatch task = TW_TASK_MATCH_ANY;
  TwTaskField field = TW_TASK_FIELD_TASK;
  guint t;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (r, TW_AUTOMATON_FILE_ERROR_TYPE, where,
                 "a transition must be an object, not %s", json_type_name (node));
  object = json_node_get_object (node);
  if (!get_string (r, object, where, "from", TRUE, &from) ||
      !get_string (r, object, where, "to", TRUE, &to) ||
      !get_string (r, object, where, "event", FALSE, &event) ||
      !get_string (r, object, where, "task", FALSE, &task_name) ||
      !get_string (r, object, where, "task_field", FALSE, &field_name) ||
      !get_string (r, object, where, "label", FALSE, &label_name))
    return FALSE;

  if (event && label_name)
    return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                 "a transition has either “event” or “label”, not both");
  if (!event && !label_name)
    return fail (r, TW_AUTOMATON_FILE_ERROR_MISSING, where,
                 "a transition needs “event” (an event name) or “label” (lambda or any)");
  if (label_name)
    {
      if (g_str_equal (label_name, "lambda"))
        label = TW_LABEL_LAMBDA;
      else if (g_str_equal (label_name, "any"))
        label = TW_LABEL_ANY;
      else
        return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                     "unknown label “%s” (expected lambda or any)", label_name);
      if (task_name || field_name)
        return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                     "“task” and “task_field” belong to event labels, not to “%s”",
                     label_name);
    }
  else
    {
      if (event[0] == '\0')
        return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where, "the event name is empty");
      if (task_name == NULL || g_str_equal (task_name, "any"))
        task = TW_TASK_MATCH_ANY;
      else if (g_str_equal (task_name, "same"))
        task = TW_TASK_MATCH_SAME;
      else if (g_str_equal (task_name, "other"))
        task = TW_TASK_MATCH_OTHER;
      else
        return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                     "unknown task “%s” (expected same or other, or no “task” for any task)",
                     task_name);
      if (field_name == NULL || g_str_equal (field_name, "task"))
        field = TW_TASK_FIELD_TASK;
      else if (g_str_equal (field_name, "arg"))
        field = TW_TASK_FIELD_ARG;
      else
        return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                     "unknown task_field “%s” (expected task or arg)", field_name);
      if (field == TW_TASK_FIELD_ARG && task == TW_TASK_MATCH_ANY)
        return fail (r, TW_AUTOMATON_FILE_ERROR_VALUE, where,
                     "“task_field” needs “task”: same or other");
    }

  t = tw_automaton_add_transition (automaton, from, to, label, event, task, field);
  extra = collect_extra (object, transition_keys);
  tw_automaton_set_transition_extra (automaton, t, extra);
  return TRUE;
}

static gboolean
get_array (Reader      *r,
           JsonObject  *object,
           const char  *key,
           JsonArray  **out)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    return fail (r, TW_AUTOMATON_FILE_ERROR_MISSING, "top level", "the member “%s” is missing",
                 key);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (r, TW_AUTOMATON_FILE_ERROR_TYPE, "top level", "“%s” must be an array, not %s",
                 key, json_type_name (node));
  *out = json_node_get_array (node);
  return TRUE;
}

/**
 * tw_automaton_load_from_data:
 * @length: bytes, or -1 for a NUL-terminated string
 * @display_name: what errors call the data (a file name)
 *
 * Parses a tracewb automaton file. Design errors are not checked here (a file with
 * mistakes loads so that it can be shown and fixed); see tw_automaton_validate().
 *
 * Returns: (transfer full) (nullable): the automaton, or %NULL with @error naming
 *   @display_name and what is wrong where (line:column for JSON syntax, the member's
 *   path otherwise)
 */
TwAutomaton *
tw_automaton_load_from_data (const char  *data,
                             gssize       length,
                             const char  *display_name,
                             GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(JsonObject) extra = NULL;
  Reader r = { display_name ? display_name : "<data>", error };
  JsonNode *root, *version;
  JsonObject *top;
  JsonArray *states, *transitions;
  const char *name, *initial;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (!json_parser_load_from_data (parser, data ? data : "", length, &local_error))
    {
      const char *message = local_error->message;

      /* json-glib says "<data>:LINE:COL: …"; name the file instead */
      if (g_str_has_prefix (message, "<data>:"))
        message += strlen ("<data>:");
      g_set_error (error, TW_AUTOMATON_FILE_ERROR, TW_AUTOMATON_FILE_ERROR_SYNTAX,
                   "%s:%s", r.file, message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      fail (&r, TW_AUTOMATON_FILE_ERROR_SYNTAX, "top level", "the file is empty");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (&r, TW_AUTOMATON_FILE_ERROR_TYPE, "top level",
            "an automaton file holds an object, not %s", json_type_name (root));
      return NULL;
    }
  top = json_node_get_object (root);

  version = json_object_get_member (top, "tracewb_automaton");
  if (version == NULL)
    {
      fail (&r, TW_AUTOMATON_FILE_ERROR_MISSING, "top level",
            "the member “tracewb_automaton” is missing: this is not a tracewb automaton file");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (version) || json_node_get_value_type (version) != G_TYPE_INT64)
    {
      fail (&r, TW_AUTOMATON_FILE_ERROR_TYPE, "top level",
            "“tracewb_automaton” must be an integer version, not %s", json_type_name (version));
      return NULL;
    }
  if (json_node_get_int (version) != TW_AUTOMATON_FILE_VERSION)
    {
      fail (&r, TW_AUTOMATON_FILE_ERROR_VERSION, "top level",
            "file version %" G_GINT64_FORMAT " is not supported (this build reads version %d)",
            json_node_get_int (version), TW_AUTOMATON_FILE_VERSION);
      return NULL;
    }

  if (!get_string (&r, top, "top level", "name", FALSE, &name) ||
      !get_string (&r, top, "top level", "initial", FALSE, &initial) ||
      !get_array (&r, top, "states", &states) ||
      !get_array (&r, top, "transitions", &transitions))
    return NULL;

  automaton = tw_automaton_new (name);
  tw_automaton_set_initial (automaton, initial);
  for (guint i = 0; i < json_array_get_length (states); i++)
    if (!read_state (&r, automaton, json_array_get_element (states, i), i))
      return NULL;
  for (guint i = 0; i < json_array_get_length (transitions); i++)
    if (!read_transition (&r, automaton, json_array_get_element (transitions, i), i))
      return NULL;
  extra = collect_extra (top, top_keys);
  tw_automaton_set_extra (automaton, extra);

  return g_steal_pointer (&automaton);
}

/**
 * tw_automaton_load:
 *
 * Returns: (transfer full) (nullable): the automaton read from @path, or %NULL with
 *   @error set
 */
TwAutomaton *
tw_automaton_load (const char  *path,
                   GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;
  if (length > G_MAXSSIZE)
    {
      g_set_error (error, TW_AUTOMATON_FILE_ERROR, TW_AUTOMATON_FILE_ERROR_SYNTAX,
                   "%s: the file is too large", path);
      return NULL;
    }
  return tw_automaton_load_from_data (contents, (gssize) length, path, error);
}

static void
set_number (JsonObject *object,
            const char *key,
            double      value)
{
  /* positions are usually whole pixels: write them without a fraction */
  if (value > -1e15 && value < 1e15 && value == (double) (gint64) value)
    json_object_set_int_member (object, key, (gint64) value);
  else
    json_object_set_double_member (object, key, value);
}

static void
append_extra (JsonObject *object,
              JsonObject *extra)
{
  g_autoptr(GList) members = NULL;

  if (extra == NULL)
    return;
  members = json_object_get_members (extra);
  for (GList *l = members; l; l = l->next)
    if (!json_object_has_member (object, l->data))
      json_object_set_member (object, l->data,
                              json_node_copy (json_object_get_member (extra, l->data)));
}

/**
 * tw_automaton_to_data:
 * @length: (out) (optional): bytes written
 *
 * Writes known members in a fixed order, then the unknown members kept from loading,
 * indented by two spaces and ending in a newline, so that saving twice gives the same
 * bytes and diffs stay small.
 *
 * Returns: (transfer full): the file's contents
 */
char *
tw_automaton_to_data (TwAutomaton *automaton,
                      gsize       *length)
{
  g_autoptr(JsonObject) top = json_object_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  JsonArray *states = json_array_new ();
  JsonArray *transitions = json_array_new ();
  g_autofree char *text = NULL;
  char *data;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), NULL);

  json_object_set_int_member (top, "tracewb_automaton", TW_AUTOMATON_FILE_VERSION);
  json_object_set_string_member (top, "name", tw_automaton_get_name (automaton));
  if (tw_automaton_get_initial (automaton))
    json_object_set_string_member (top, "initial", tw_automaton_get_initial (automaton));

  for (guint i = 0; i < tw_automaton_get_n_states (automaton); i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (automaton, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "id", s->id);
      json_object_set_string_member (object, "kind", tw_state_kind_to_string (s->kind));
      set_number (object, "x", s->x);
      set_number (object, "y", s->y);
      append_extra (object, s->extra);
      json_array_add_object_element (states, object);
    }
  json_object_set_array_member (top, "states", states);

  for (guint i = 0; i < tw_automaton_get_n_transitions (automaton); i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (automaton, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "from", t->from);
      json_object_set_string_member (object, "to", t->to);
      switch (t->label)
        {
        case TW_LABEL_LAMBDA:
          json_object_set_string_member (object, "label", "lambda");
          break;
        case TW_LABEL_ANY:
          json_object_set_string_member (object, "label", "any");
          break;
        case TW_LABEL_EVENT:
        default:
          json_object_set_string_member (object, "event", t->event);
          if (t->task != TW_TASK_MATCH_ANY)
            json_object_set_string_member (object, "task",
                                           t->task == TW_TASK_MATCH_SAME ? "same" : "other");
          if (t->task != TW_TASK_MATCH_ANY && t->task_field == TW_TASK_FIELD_ARG)
            json_object_set_string_member (object, "task_field", "arg");
          break;
        }
      append_extra (object, t->extra);
      json_array_add_object_element (transitions, object);
    }
  json_object_set_array_member (top, "transitions", transitions);
  append_extra (top, tw_automaton_get_extra (automaton));

  json_node_set_object (root, top);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);
  data = g_strconcat (text, "\n", NULL);
  if (length)
    *length = strlen (data);
  return data;
}

/**
 * tw_automaton_save:
 *
 * Writes the file atomically (a crash never leaves half a file).
 *
 * Returns: %FALSE with @error set when the file cannot be written
 */
gboolean
tw_automaton_save (TwAutomaton  *automaton,
                   const char   *path,
                   GError      **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = tw_automaton_to_data (automaton, &length);
  return g_file_set_contents (path, data, (gssize) length, error);
}
