/* test-automaton-runtime.c: evaluators/runtime/tw-automaton-runtime.c is a module the
 * generator writes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime's file is compiled in the build as it stands, with the generated parts
 * of one automaton around the runtime parts. Those must be exactly what the generator
 * writes, or the build would check a module nobody exports.
 */
#include "config.h"

#include <string.h>

#include <tw-evaluators.h>

#define RUNTIME_FILE TW_SOURCE_DIR "/evaluators/runtime/tw-automaton-runtime.c"
#define SAMPLE_FILE  TW_SOURCE_DIR "/data/automata/irq-duration.json"
#define MARKER       "/* tw-automaton-runtime: "
/* stands for '$' (the prefix placeholder), which no generated name holds otherwise */
#define PREFIX       "tw_test_prefix_"

typedef struct {
  char *name;   /* "generated", "runtime core", ... */
  char *text;   /* up to the next marker line */
} Part;

static void
part_clear (gpointer data)
{
  Part *part = data;

  g_free (part->name);
  g_free (part->text);
}

/* The file's parts; *header is what comes before the first marker. */
static GArray *
split_parts (const char  *text,
             char       **header)
{
  g_autoptr(GArray) parts = g_array_new (FALSE, TRUE, sizeof (Part));
  const char *p = text;
  const char *begin = text;
  Part *open_part = NULL;

  g_array_set_clear_func (parts, part_clear);
  *header = NULL;
  for (;;)
    {
      const char *eol = strchr (p, '\n');
      const char *next = eol ? eol + 1 : p + strlen (p);

      if (g_str_has_prefix (p, MARKER) || *p == '\0')
        {
          if (open_part)
            open_part->text = g_strndup (begin, p - begin);
          else
            *header = g_strndup (begin, p - begin);
          if (*p == '\0')
            break;
          g_assert_nonnull (eol);
          g_assert_true (g_str_has_prefix (eol - 3, " */"));
          g_array_set_size (parts, parts->len + 1);
          open_part = &g_array_index (parts, Part, parts->len - 1);
          open_part->name = g_strndup (p + strlen (MARKER), (eol - 3) - (p + strlen (MARKER)));
          begin = next;
        }
      p = next;
    }
  return g_steal_pointer (&parts);
}

static void
test_file_is_a_module (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) sample = tw_automaton_load (SAMPLE_FILE, &error);
  g_autofree char *file = NULL;
  g_autofree char *header = NULL;
  g_autofree char *generated = NULL;
  g_autoptr(GString) module = NULL;
  g_autoptr(GString) expected = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(GArray) parts = NULL;
  const char *cursor;
  guint n_runtime = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (RUNTIME_FILE, &file, NULL, &error));
  g_assert_no_error (error);
  generated = tw_automaton_codegen_generate (sample, NULL, PREFIX, &error);
  g_assert_no_error (error);
  module = g_string_new (generated);
  g_string_replace (module, PREFIX, "$", 0);

  /* The runtime parts stand in the module as they are (the build embeds them); the
   * generated parts are what the module has between them. */
  parts = split_parts (file, &header);
  expected = g_string_new (header);
  cursor = module->str;
  for (guint i = 0; i < parts->len; i++)
    {
      const Part *part = &g_array_index (parts, Part, i);
      const char *text = part->text;
      g_autofree char *between = NULL;

      if (strcmp (part->name, "generated") == 0)
        {
          const Part *next = i + 1 < parts->len ? &g_array_index (parts, Part, i + 1) : NULL;
          const char *end = next ? strstr (cursor, next->text) : cursor + strlen (cursor);

          g_assert_nonnull (end);
          between = g_strndup (cursor, end - cursor);
          text = between;
        }
      else
        {
          g_assert_true (g_str_has_prefix (part->name, "runtime "));
          g_assert_true (g_str_has_prefix (cursor, text));
          n_runtime++;
        }
      cursor += strlen (text);
      g_string_append_printf (expected, MARKER "%s */\n%s", part->name, text);
      g_string_append (joined, text);
    }
  g_assert_cmpuint (n_runtime, ==, 3);
  g_assert_cmpstr (joined->str, ==, module->str);

  if (strcmp (expected->str, file) != 0)
    {
      g_autofree char *dir = g_get_current_dir ();
      const char *path = "tw-automaton-runtime.c.expected";

      g_assert_true (g_file_set_contents (path, expected->str, expected->len, NULL));
      g_test_message ("%s: the generated parts are not what the generator writes for %s; "
                      "the file as it should be is %s/%s", RUNTIME_FILE, SAMPLE_FILE,
                      dir, path);
      g_test_fail ();
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tw/evaluators/automaton-runtime/file-is-a-module", test_file_is_a_module);

  return g_test_run ();
}
