/* test-automaton-document.c: the automaton being edited: edits, undo, redo, signals
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-automaton-document.h>
#include <tw-automaton-file.h>

#include "tw-test-utils.h"

typedef struct {
  TwAutomatonDocument *document;
  guint                changed;
  guint                can_undo_notes;
  guint                can_redo_notes;
  guint                automaton_notes;
} Fixture;

static void
changed_cb (TwAutomatonDocument *document,
            Fixture             *f)
{
  f->changed++;
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           Fixture    *f)
{
  if (g_str_equal (pspec->name, "can-undo"))
    f->can_undo_notes++;
  else if (g_str_equal (pspec->name, "can-redo"))
    f->can_redo_notes++;
  else if (g_str_equal (pspec->name, "automaton"))
    f->automaton_notes++;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->document = tw_automaton_document_new ();
  g_signal_connect (f->document, "changed", G_CALLBACK (changed_cb), f);
  g_signal_connect (f->document, "notify", G_CALLBACK (notify_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->document);
}

static char *
text_of (Fixture *f)
{
  return tw_automaton_to_data (tw_automaton_document_get_automaton (f->document), NULL);
}

static TwAutomaton *
load_fig2 (void)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata", "fig2-user-metric.json",
                                            NULL);
  g_autoptr(GError) error = NULL;
  TwAutomaton *automaton = tw_automaton_load (path, &error);

  g_assert_no_error (error);
  return automaton;
}

/* Every kind of edit, then all undone and all redone: each undo brings back exactly the
 * file text before its edit, each redo the text after it; one ::changed each time. */
static void
test_edit_undo_redo (Fixture       *f,
                     gconstpointer  data)
{
  TwAutomatonDocument *d = f->document;
  g_autoptr(TwAutomaton) fig2 = load_fig2 ();
  TwAutomaton *a;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  guint s, t;

  tw_automaton_document_set_automaton (d, fig2);
  a = tw_automaton_document_get_automaton (d);
  g_assert_true (a == fig2);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpuint (f->automaton_notes, ==, 1);
  g_assert_false (tw_automaton_document_can_undo (d));
  g_assert_false (tw_automaton_document_get_modified (d));
  g_ptr_array_add (texts, text_of (f));

#define EDITED() G_STMT_START {                                                  \
    g_ptr_array_add (texts, text_of (f));                                        \
    g_assert_cmpuint (f->changed, ==, texts->len);                               \
    g_assert_cmpstr (texts->pdata[texts->len - 1], !=, texts->pdata[texts->len - 2]); \
  } G_STMT_END

  s = tw_automaton_document_add_state (d, TW_STATE_KIND_COND, 700.4, 80.6);
  EDITED ();
  g_assert_cmpstr (tw_automaton_get_state (a, s)->id, ==, "7");
  g_assert_cmpfloat (tw_automaton_get_state (a, s)->x, ==, 700);
  g_assert_cmpfloat (tw_automaton_get_state (a, s)->y, ==, 81);
  /* the first edit makes undo possible, once */
  g_assert_cmpuint (f->can_undo_notes, ==, 1);
  t = tw_automaton_document_connect (d, 2, s, TW_LABEL_EVENT, "", TW_TASK_MATCH_ANY,
                                     TW_TASK_FIELD_TASK);
  EDITED ();
  tw_automaton_document_set_transition_label (d, 0, TW_LABEL_EVENT, " go ", TW_TASK_MATCH_OTHER,
                                              TW_TASK_FIELD_ARG);
  EDITED ();
  /* a label edit keeps the transition's place */
  g_assert_cmpstr (tw_automaton_get_transition (a, 0)->event, ==, "go");
  g_assert_cmpstr (tw_automaton_get_transition (a, 0)->from, ==, "0");
  g_assert_cmpint (tw_automaton_get_transition (a, 0)->task_field, ==, TW_TASK_FIELD_ARG);
  tw_automaton_document_move_state (d, 3, 10, 20);
  EDITED ();
  tw_automaton_document_set_state_kind (d, 3, TW_STATE_KIND_CANCEL);
  EDITED ();
  tw_automaton_document_set_initial (d, 5);
  EDITED ();
  g_assert_cmpstr (tw_automaton_get_initial (a), ==, "5");
  tw_automaton_document_set_name (d, "renamed");
  EDITED ();
  tw_automaton_document_remove_transition (d, t);
  EDITED ();
  /* removing the initial state leaves none, rather than the next state with its id */
  tw_automaton_document_remove_state (d, 5);
  EDITED ();
  g_assert_null (tw_automaton_get_initial (a));
#undef EDITED
  g_assert_true (tw_automaton_document_get_modified (d));

  for (guint i = texts->len - 1; i > 0; i--)
    {
      g_autofree char *now = NULL;

      g_assert_true (tw_automaton_document_undo (d));
      now = text_of (f);
      g_assert_cmpstr (now, ==, texts->pdata[i - 1]);
    }
  g_assert_false (tw_automaton_document_undo (d));
  g_assert_false (tw_automaton_document_get_modified (d));
  g_assert_cmpuint (f->changed, ==, 2 * texts->len - 1);
  /* undo rewrites the same automaton: holders of it see every step */
  g_assert_true (tw_automaton_document_get_automaton (d) == a);
  g_assert_cmpuint (f->automaton_notes, ==, 1);

  for (guint i = 1; i < texts->len; i++)
    {
      g_autofree char *now = NULL;

      g_assert_true (tw_automaton_document_redo (d));
      now = text_of (f);
      g_assert_cmpstr (now, ==, texts->pdata[i]);
    }
  g_assert_false (tw_automaton_document_redo (d));
  g_assert_cmpuint (f->changed, ==, 3 * (texts->len - 1) + 1);
  /* can-undo went true, false at the bottom, true again; can-redo true then false */
  g_assert_cmpuint (f->can_undo_notes, ==, 3);
  g_assert_cmpuint (f->can_redo_notes, ==, 2);

  /* a new edit after an undo drops what could be redone */
  g_assert_true (tw_automaton_document_undo (d));
  g_assert_true (tw_automaton_document_can_redo (d));
  tw_automaton_document_add_state (d, TW_STATE_KIND_END, 0, 0);
  g_assert_false (tw_automaton_document_can_redo (d));
}

/* A drag: many changes between begin_edit and end_edit are one step and one signal;
 * an edit that changes nothing is no step and no signal. */
static void
test_grouped_edit (Fixture       *f,
                   gconstpointer  data)
{
  TwAutomatonDocument *d = f->document;
  g_autoptr(TwAutomaton) fig2 = load_fig2 ();
  g_autofree char *before = NULL, *after = NULL, *undone = NULL, *redone = NULL;
  g_autofree char *name = NULL;
  TwAutomaton *a;

  tw_automaton_document_set_automaton (d, fig2);
  a = tw_automaton_document_get_automaton (d);
  name = g_strdup (tw_automaton_get_name (a));
  before = text_of (f);
  f->changed = 0;

  tw_automaton_document_begin_edit (d);
  for (int step = 1; step <= 10; step++)
    tw_automaton_set_state_position (a, 2, 380 + step * 10, 200 + step * 5);
  g_assert_cmpuint (f->changed, ==, 0);
  g_assert_true (tw_automaton_document_end_edit (d));
  g_assert_cmpuint (f->changed, ==, 1);
  after = text_of (f);

  tw_automaton_document_begin_edit (d);
  g_assert_false (tw_automaton_document_end_edit (d));
  tw_automaton_document_move_state (d, 2, 480, 250);
  tw_automaton_document_set_name (d, name);
  g_assert_cmpuint (f->changed, ==, 1);

  g_assert_true (tw_automaton_document_undo (d));
  undone = text_of (f);
  g_assert_cmpstr (undone, ==, before);
  g_assert_false (tw_automaton_document_can_undo (d));
  g_assert_true (tw_automaton_document_redo (d));
  redone = text_of (f);
  g_assert_cmpstr (redone, ==, after);
}

/* Setting another automaton starts a new history; saving makes it unmodified. */
static void
test_set_and_save (Fixture       *f,
                   gconstpointer  data)
{
  TwAutomatonDocument *d = f->document;
  g_autoptr(TwAutomaton) fig2 = load_fig2 ();
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "document.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) back = NULL;
  g_autofree char *mine = NULL, *theirs = NULL;

  tw_automaton_document_add_state (d, TW_STATE_KIND_OUT, 0, 0);
  g_assert_true (tw_automaton_document_can_undo (d));
  g_assert_true (tw_automaton_document_get_modified (d));
  tw_automaton_document_set_automaton (d, fig2);
  g_assert_false (tw_automaton_document_can_undo (d));
  g_assert_false (tw_automaton_document_get_modified (d));
  g_assert_null (tw_automaton_document_get_path (d));

  tw_automaton_document_remove_state (d, 6);
  g_assert_true (tw_automaton_document_get_modified (d));
  g_assert_true (tw_automaton_document_save (d, path, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tw_automaton_document_get_path (d), ==, path);
  g_assert_false (tw_automaton_document_get_modified (d));
  back = tw_automaton_load (path, &error);
  g_assert_no_error (error);
  mine = text_of (f);
  theirs = tw_automaton_to_data (back, NULL);
  g_assert_cmpstr (mine, ==, theirs);
  /* undo after a save is a change from what was saved */
  g_assert_true (tw_automaton_document_undo (d));
  g_assert_true (tw_automaton_document_get_modified (d));
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/evaluators/automaton-document/edit-undo-redo", test_edit_undo_redo);
  ADD ("/tw/evaluators/automaton-document/grouped-edit", test_grouped_edit);
  ADD ("/tw/evaluators/automaton-document/set-and-save", test_set_and_save);
#undef ADD

  return g_test_run ();
}
