/* test-automaton-file.c: the automaton JSON file format
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-test-utils.h"

static const char with_unknown_keys[] =
  "{\"tracewb_automaton\": 1, \"name\": \"m\", \"initial\": \"o\", \"editor\": {\"zoom\": 2},\n"
  " \"states\": [{\"id\": \"o\", \"kind\": \"out\", \"x\": 10, \"y\": 20.5, \"color\": \"red\"},\n"
  "            {\"id\": \"b\", \"kind\": \"begin\", \"x\": -3, \"y\": 0}],\n"
  " \"transitions\": [{\"from\": \"o\", \"to\": \"b\", \"event\": \"go\", \"task\": \"same\","
  " \"note\": [1, 2]},\n"
  "  {\"from\": \"b\", \"to\": \"o\", \"label\": \"lambda\"},\n"
  "  {\"from\": \"o\", \"to\": \"o\", \"label\": \"any\"},\n"
  "  {\"from\": \"o\", \"to\": \"o\", \"event\": \"switch\", \"task\": \"other\","
  " \"task_field\": \"arg\"},\n"
  "  {\"from\": \"o\", \"to\": \"o\", \"event\": \"tick\", \"task\": \"any\"}],\n"
  " \"comment\": \"kept\"}";

/* known members first in a fixed order, then the unknown ones in file order */
static const char expected_saved[] =
  "{\n"
  "  \"tracewb_automaton\" : 1,\n"
  "  \"name\" : \"m\",\n"
  "  \"initial\" : \"o\",\n"
  "  \"states\" : [\n"
  "    {\n"
  "      \"id\" : \"o\",\n"
  "      \"kind\" : \"out\",\n"
  "      \"x\" : 10,\n"
  "      \"y\" : 20.5,\n"
  "      \"color\" : \"red\"\n"
  "    },\n"
  "    {\n"
  "      \"id\" : \"b\",\n"
  "      \"kind\" : \"begin\",\n"
  "      \"x\" : -3,\n"
  "      \"y\" : 0\n"
  "    }\n"
  "  ],\n"
  "  \"transitions\" : [\n"
  "    {\n"
  "      \"from\" : \"o\",\n"
  "      \"to\" : \"b\",\n"
  "      \"event\" : \"go\",\n"
  "      \"task\" : \"same\",\n"
  "      \"note\" : [\n"
  "        1,\n"
  "        2\n"
  "      ]\n"
  "    },\n"
  "    {\n"
  "      \"from\" : \"b\",\n"
  "      \"to\" : \"o\",\n"
  "      \"label\" : \"lambda\"\n"
  "    },\n"
  "    {\n"
  "      \"from\" : \"o\",\n"
  "      \"to\" : \"o\",\n"
  "      \"label\" : \"any\"\n"
  "    },\n"
  "    {\n"
  "      \"from\" : \"o\",\n"
  "      \"to\" : \"o\",\n"
  "      \"event\" : \"switch\",\n"
  "      \"task\" : \"other\",\n"
  "      \"task_field\" : \"arg\"\n"
  "    },\n"
  "    {\n"
  "      \"from\" : \"o\",\n"
  "      \"to\" : \"o\",\n"
  "      \"event\" : \"tick\"\n"
  "    }\n"
  "  ],\n"
  "  \"editor\" : {\n"
  "    \"zoom\" : 2\n"
  "  },\n"
  "  \"comment\" : \"kept\"\n"
  "}\n";

static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_load_from_data (with_unknown_keys, -1, "m.json", &error);
  g_autoptr(TwAutomaton) again = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *saved_again = NULL;
  const TwAutomatonState *s;
  const TwAutomatonTransition *t;

  g_assert_no_error (error);
  g_assert_cmpstr (tw_automaton_get_name (a), ==, "m");
  g_assert_cmpstr (tw_automaton_get_initial (a), ==, "o");
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 2);
  s = tw_automaton_get_state (a, 0);
  g_assert_cmpstr (s->id, ==, "o");
  g_assert_cmpint (s->kind, ==, TW_STATE_KIND_OUT);
  g_assert_cmpfloat (s->x, ==, 10);
  g_assert_cmpfloat (s->y, ==, 20.5);
  g_assert_cmpuint (tw_automaton_get_n_transitions (a), ==, 5);
  t = tw_automaton_get_transition (a, 0);
  g_assert_cmpint (t->label, ==, TW_LABEL_EVENT);
  g_assert_cmpstr (t->event, ==, "go");
  g_assert_cmpint (t->task, ==, TW_TASK_MATCH_SAME);
  g_assert_cmpint (t->task_field, ==, TW_TASK_FIELD_TASK);
  g_assert_cmpint (tw_automaton_get_transition (a, 1)->label, ==, TW_LABEL_LAMBDA);
  g_assert_cmpint (tw_automaton_get_transition (a, 2)->label, ==, TW_LABEL_ANY);
  t = tw_automaton_get_transition (a, 3);
  g_assert_cmpint (t->task, ==, TW_TASK_MATCH_OTHER);
  g_assert_cmpint (t->task_field, ==, TW_TASK_FIELD_ARG);
  g_assert_cmpint (tw_automaton_get_transition (a, 4)->task, ==, TW_TASK_MATCH_ANY);

  saved = tw_automaton_to_data (a, NULL);
  g_assert_cmpstr (saved, ==, expected_saved);

  again = tw_automaton_load_from_data (saved, -1, "saved.json", &error);
  g_assert_no_error (error);
  saved_again = tw_automaton_to_data (again, NULL);
  g_assert_cmpstr (saved_again, ==, saved);
}

static void
test_save_and_load_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_new ("on disk");
  g_autoptr(TwAutomaton) loaded = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "a.json", NULL);
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "missing.json", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  tw_automaton_add_state (a, "idle", TW_STATE_KIND_OUT, 1.25, 2);
  tw_automaton_add_state (a, "λ-state “quoted”", TW_STATE_KIND_COND, 0, 0);
  tw_automaton_set_initial (a, "idle");
  tw_automaton_add_event (a, "idle", "λ-state “quoted”", "ev\"il\n", TW_TASK_MATCH_OTHER);
  g_assert_true (tw_automaton_save (a, path, &error));
  g_assert_no_error (error);

  loaded = tw_automaton_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_automaton_get_state (loaded, 1)->id, ==, "λ-state “quoted”");
  g_assert_cmpfloat (tw_automaton_get_state (loaded, 0)->x, ==, 1.25);
  g_assert_cmpstr (tw_automaton_get_transition (loaded, 0)->event, ==, "ev\"il\n");
  first = tw_automaton_to_data (a, NULL);
  second = tw_automaton_to_data (loaded, NULL);
  g_assert_cmpstr (first, ==, second);

  g_assert_null (tw_automaton_load (missing, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "missing.json"));
}

/* the shipped files are what the saver writes: loading and saving changes no byte */
static void
test_shipped_files_are_stable (void)
{
  g_autofree char *dir = g_build_filename (TW_SOURCE_DIR, "data", "automata", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *saved = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TwAutomaton) a = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
      a = tw_automaton_load (path, &error);
      g_assert_no_error (error);
      g_assert_true (tw_automaton_check (a, &error));
      saved = tw_automaton_to_data (a, NULL);
      g_assert_cmpstr (saved, ==, contents);
      n++;
    }
  g_assert_cmpuint (n, >=, 5);
}

typedef struct {
  const char *json;
  int         code;
  const char *where;   /* must appear in the message */
  const char *what;    /* must appear in the message */
} Malformed;

#define ST "\"states\": [{\"id\": \"o\", \"kind\": \"out\"}]"
#define TR(x) "\"transitions\": [" x "]"
#define TOP(x) "{\"tracewb_automaton\": 1, \"initial\": \"o\", " x "}"

static void
test_malformed (void)
{
  static const Malformed cases[] = {
    { "{\n  \"tracewb_automaton\": 1,\n  \"states\": [\n}", TW_AUTOMATON_FILE_ERROR_SYNTAX,
      "bad.json:4:1:", "Parse error" },
    { "", TW_AUTOMATON_FILE_ERROR_SYNTAX, "top level", "empty" },
    { "[1, 2]", TW_AUTOMATON_FILE_ERROR_TYPE, "top level", "not an array" },
    { "{\"states\": [], \"transitions\": []}", TW_AUTOMATON_FILE_ERROR_MISSING,
      "top level", "“tracewb_automaton” is missing" },
    { "{\"tracewb_automaton\": 2, \"states\": [], \"transitions\": []}",
      TW_AUTOMATON_FILE_ERROR_VERSION, "top level", "version 2 is not supported" },
    { "{\"tracewb_automaton\": \"1\", \"states\": [], \"transitions\": []}",
      TW_AUTOMATON_FILE_ERROR_TYPE, "top level", "not a string" },
    { "{\"tracewb_automaton\": 1.5, \"states\": [], \"transitions\": []}",
      TW_AUTOMATON_FILE_ERROR_TYPE, "top level", "integer version" },
    { TOP (TR ("")), TW_AUTOMATON_FILE_ERROR_MISSING, "top level", "“states” is missing" },
    { TOP (ST), TW_AUTOMATON_FILE_ERROR_MISSING, "top level", "“transitions” is missing" },
    { TOP ("\"states\": {}, " TR ("")), TW_AUTOMATON_FILE_ERROR_TYPE, "top level",
      "“states” must be an array, not an object" },
    { TOP ("\"name\": 3, " ST ", " TR ("")), TW_AUTOMATON_FILE_ERROR_TYPE, "top level",
      "“name” must be a string, not a number" },
    { TOP ("\"initial\": null, " ST ", " TR ("")), TW_AUTOMATON_FILE_ERROR_TYPE, "top level",
      "“initial” must be a string, not null" },
    { TOP ("\"states\": [3], " TR ("")), TW_AUTOMATON_FILE_ERROR_TYPE, "states[0]",
      "a state must be an object, not a number" },
    { TOP ("\"states\": [{\"id\": \"o\", \"kind\": \"out\"}, {\"kind\": \"in\"}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_MISSING, "states[1]", "“id” is missing" },
    { TOP ("\"states\": [{\"id\": 1, \"kind\": \"out\"}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_TYPE, "states[0]", "“id” must be a string" },
    { TOP ("\"states\": [{\"id\": \"o\"}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_MISSING, "states[0]", "“kind” is missing" },
    { TOP ("\"states\": [{\"id\": \"o\", \"kind\": \"inside\"}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "states[0]", "unknown kind “inside” of state “o”" },
    { TOP ("\"states\": [{\"id\": \"o\", \"kind\": \"out\", \"x\": \"3\"}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_TYPE, "states[0]", "“x” must be a number, not a string" },
    { TOP ("\"states\": [{\"id\": \"o\", \"kind\": \"out\", \"y\": true}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_TYPE, "states[0]", "“y” must be a number, not a boolean" },
    { TOP ("\"states\": [{\"id\": \"o\", \"kind\": \"out\", \"x\": 1e999}], " TR ("")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "states[0]", "“x” is not a finite number" },
    { TOP (ST ", " TR ("[]")), TW_AUTOMATON_FILE_ERROR_TYPE, "transitions[0]",
      "a transition must be an object, not an array" },
    { TOP (ST ", " TR ("{\"to\": \"o\", \"label\": \"any\"}")), TW_AUTOMATON_FILE_ERROR_MISSING,
      "transitions[0]", "“from” is missing" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"label\": \"any\"}")), TW_AUTOMATON_FILE_ERROR_MISSING,
      "transitions[0]", "“to” is missing" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\"}")), TW_AUTOMATON_FILE_ERROR_MISSING,
      "transitions[0]", "needs “event”" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"event\": \"e\", \"label\": \"any\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "not both" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"label\": \"star\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "unknown label “star”" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"label\": \"lambda\", \"task\": \"same\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "belong to event labels" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"event\": \"\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "event name is empty" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"event\": \"e\", \"task\": \"mine\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "unknown task “mine”" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"event\": \"e\", \"task\": \"same\","
                       " \"task_field\": \"next\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "unknown task_field “next”" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"event\": \"e\", \"task_field\": \"arg\"}")),
      TW_AUTOMATON_FILE_ERROR_VALUE, "transitions[0]", "needs “task”" },
    { TOP (ST ", " TR ("{\"from\": \"o\", \"to\": \"o\", \"label\": \"any\"},"
                       " {\"from\": \"o\", \"to\": 5, \"label\": \"any\"}")),
      TW_AUTOMATON_FILE_ERROR_TYPE, "transitions[1]", "“to” must be a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TwAutomaton) a = NULL;

      g_test_message ("case %u: %s", i, cases[i].json);
      a = tw_automaton_load_from_data (cases[i].json, -1, "bad.json", &error);
      g_assert_null (a);
      g_assert_error (error, TW_AUTOMATON_FILE_ERROR, cases[i].code);
      g_test_message ("-> %s", error->message);
      g_assert_true (g_str_has_prefix (error->message, "bad.json:"));
      g_assert_nonnull (strstr (error->message, cases[i].where));
      g_assert_nonnull (strstr (error->message, cases[i].what));
    }
}

/* a file with design errors loads (to be shown and fixed); validation finds them */
static void
test_design_errors_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_load_from_data (
    TOP ("\"states\": [{\"id\": \"o\", \"kind\": \"out\"}, {\"id\": \"o\", \"kind\": \"in\"}], "
         TR ("{\"from\": \"o\", \"to\": \"p\", \"label\": \"any\"}")), -1, "x.json", &error);
  g_autoptr(GPtrArray) problems = NULL;

  g_assert_no_error (error);
  problems = tw_automaton_validate (a);
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpint (((TwAutomatonProblem *) g_ptr_array_index (problems, 0))->code, ==,
                   TW_AUTOMATON_ERROR_DUPLICATE_STATE);
  g_assert_cmpint (((TwAutomatonProblem *) g_ptr_array_index (problems, 1))->code, ==,
                   TW_AUTOMATON_ERROR_UNKNOWN_STATE);
  g_assert_cmpstr (((TwAutomatonProblem *) g_ptr_array_index (problems, 1))->state_id, ==, "p");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/automaton-file/round-trip", test_round_trip);
  g_test_add_func ("/tw/evaluators/automaton-file/save-and-load", test_save_and_load_file);
  g_test_add_func ("/tw/evaluators/automaton-file/shipped-stable", test_shipped_files_are_stable);
  g_test_add_func ("/tw/evaluators/automaton-file/malformed", test_malformed);
  g_test_add_func ("/tw/evaluators/automaton-file/design-errors-load", test_design_errors_load);

  return g_test_run ();
}
