/* tw-event-names.c: event names users type, checked against a trace's type table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A metric that names an event the trace does not have measures nothing, silently: the
 * name is almost always a typo ("sched_wakup") or another tracer's spelling
 * ("irq_entry" on LTTng, which logs irq_handler_entry). The names a trace knows are its
 * raw type names plus the canonical kinds its types have, spelled as the asking syntax
 * spells kinds; suggestions rank, best first:
 *
 *   1. the same name but for case, or the kind the name spells ("switch" → kind:switch)
 *   2. few edits away (insert, delete, substitute, swap two neighbours), fewest first:
 *      at most one edit per three characters typed ("sched_wakup" → sched_wakeup)
 *   3. one name contains the other ("wakeup" → sched_wakeup), the closer length first
 *   4. every word of the name is in the candidate ("irq_entry" → irq_handler_entry)
 *
 * Typos come before containment: "shced_switch" means sched_switch, though it
 * contains "switch".
 */
#include "config.h"

#include "tw-event-names.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define KIND_PREFIX "kind:"

#define SCORE_SAME      0
#define SCORE_EDITS     100      /* + edits */
#define SCORE_CONTAINS  1000     /* + length gap */
#define SCORE_WORDS     2000     /* + length gap */

static const char word_separators[] = "_:.-@/ ";

/* The names @trace knows, each once, in type-table order and then kind order. */
static GPtrArray *
known_names (TwTrace           *trace,
             TwEventNameSyntax  syntax)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  gboolean has_kind[TW_N_EVENT_KINDS] = { FALSE };
  guint n_types = tw_trace_get_n_event_types (trace);

  for (guint t = 0; t < n_types; t++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, t);

      has_kind[type->kind] = TRUE;
      if (g_hash_table_add (seen, g_strdup (type->name)))
        g_ptr_array_add (names, g_strdup (type->name));
    }
  if (syntax == TW_EVENT_NAME_RAW)
    return names;

  /* "other" is what every non-canonical type is: it selects nothing */
  for (guint k = TW_EVENT_KIND_OTHER + 1; k < TW_N_EVENT_KINDS; k++)
    {
      g_autofree char *name = NULL;

      if (!has_kind[k])
        continue;
      name = g_strconcat (syntax == TW_EVENT_NAME_SELECTOR ? KIND_PREFIX : "",
                          tw_event_kind_to_string (k), NULL);
      if (g_hash_table_add (seen, g_strdup (name)))
        g_ptr_array_add (names, g_steal_pointer (&name));
    }
  return names;
}

/**
 * tw_event_names_is_known:
 * @name: an event name as the user wrote it in @syntax
 *
 * Returns: whether @name selects at least one event type of @trace
 */
gboolean
tw_event_names_is_known (TwTrace           *trace,
                         const char        *name,
                         TwEventNameSyntax  syntax)
{
  g_autoptr(GPtrArray) names = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  names = known_names (trace, syntax);
  for (guint i = 0; i < names->len; i++)
    if (strcmp (g_ptr_array_index (names, i), name) == 0)
      return TRUE;
  return FALSE;
}

/**
 * tw_event_names_dup_all:
 *
 * What an entry completes event names from.
 *
 * Returns: (transfer full): every name @trace knows in @syntax: its type names, then
 *   the kinds its types have (`kind:switch` in selectors, `switch` in labels)
 */
GStrv
tw_event_names_dup_all (TwTrace           *trace,
                        TwEventNameSyntax  syntax)
{
  GPtrArray *names;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  names = known_names (trace, syntax);
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (names, FALSE);
}

static const char *
without_kind_prefix (const char *name)
{
  return g_str_has_prefix (name, KIND_PREFIX) ? name + strlen (KIND_PREFIX) : name;
}

/* Optimal string alignment distance (Damerau–Levenshtein without moves across an
 * edit), byte-wise: event names are ASCII. Stops counting past @limit. */
static guint
edit_distance (const char *a,
               const char *b,
               guint       limit)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *d = NULL;
  guint result;

  if ((la > lb ? la - lb : lb - la) > limit)
    return limit + 1;
  d = g_new (guint, (la + 1) * (lb + 1));
#define D(i, j) d[(i) * (lb + 1) + (j)]
  for (gsize i = 0; i <= la; i++)
    D (i, 0) = i;
  for (gsize j = 0; j <= lb; j++)
    D (0, j) = j;
  for (gsize i = 1; i <= la; i++)
    for (gsize j = 1; j <= lb; j++)
      {
        guint cost = a[i - 1] == b[j - 1] ? 0 : 1;
        guint best = MIN (D (i - 1, j) + 1, D (i, j - 1) + 1);

        best = MIN (best, D (i - 1, j - 1) + cost);
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          best = MIN (best, D (i - 2, j - 2) + 1);
        D (i, j) = best;
      }
  result = D (la, lb);
#undef D
  return result;
}

static gboolean
has_every_word (const char *candidate,
                const char *name)
{
  g_auto(GStrv) words = g_strsplit_set (name, word_separators, -1);
  guint n_words = 0;

  for (guint i = 0; words[i]; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (strstr (candidate, words[i]) == NULL)
        return FALSE;
      n_words++;
    }
  return n_words > 1;
}

/* How far @candidate is from what the user typed (both case-folded, kind prefix
 * dropped), G_MAXUINT when it is no suggestion at all; see the top of the file. */
static guint
score (const char *candidate,
       const char *name)
{
  gsize lc = strlen (candidate), ln = strlen (name);
  guint length_gap = (guint) (lc > ln ? lc - ln : ln - lc);
  guint limit = MAX (1, (guint) ln / 3);
  guint edits;

  if (strcmp (candidate, name) == 0)
    return SCORE_SAME;
  edits = edit_distance (candidate, name, limit);
  if (edits <= limit)
    return SCORE_EDITS + edits;
  if (strstr (candidate, name) || strstr (name, candidate))
    return SCORE_CONTAINS + length_gap;
  if (has_every_word (candidate, name))
    return SCORE_WORDS + length_gap;
  return G_MAXUINT;
}

typedef struct {
  const char *name;
  guint       score;
} Suggestion;

static int
compare_suggestions (gconstpointer a,
                     gconstpointer b)
{
  const Suggestion *sa = a, *sb = b;

  if (sa->score != sb->score)
    return sa->score < sb->score ? -1 : 1;
  return strcmp (sa->name, sb->name);
}

/**
 * tw_event_names_dup_closest:
 * @name: an event name the trace may not know
 * @max_names: at most this many
 *
 * Returns: (transfer full): the names of @trace (in @syntax) closest to @name, best
 *   first; empty when nothing is close
 */
GStrv
tw_event_names_dup_closest (TwTrace           *trace,
                            const char        *name,
                            TwEventNameSyntax  syntax,
                            guint              max_names)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Suggestion));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *folded_name = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  folded_name = g_utf8_casefold (without_kind_prefix (name), -1);
  names = known_names (trace, syntax);
  for (guint i = 0; folded_name[0] && i < names->len; i++)
    {
      const char *candidate = g_ptr_array_index (names, i);
      g_autofree char *folded = g_utf8_casefold (without_kind_prefix (candidate), -1);
      Suggestion s = { candidate, score (folded, folded_name) };

      if (s.score == G_MAXUINT || strcmp (candidate, name) == 0)
        continue;
      /* between equals, the one spelled as the user spelled it: kind:irq_exti →
       * kind:irq_exit before irq_exit */
      s.score = s.score * 2 + (g_str_has_prefix (candidate, KIND_PREFIX) !=
                               g_str_has_prefix (name, KIND_PREFIX));
      g_array_append_val (found, s);
    }
  g_array_sort (found, compare_suggestions);
  for (guint i = 0; i < found->len && i < max_names; i++)
    g_strv_builder_add (builder, g_array_index (found, Suggestion, i).name);
  return g_strv_builder_end (builder);
}

/**
 * tw_event_names_dup_unknown_text:
 * @name: a name tw_event_names_is_known() refused
 *
 * Returns: (transfer full): one clause for the user, to follow a colon or a semicolon:
 *   "no event “sched_wakup” in this trace (did you mean sched_wakeup, sched_waking?)"
 */
char *
tw_event_names_dup_unknown_text (TwTrace           *trace,
                                 const char        *name,
                                 TwEventNameSyntax  syntax)
{
  g_auto(GStrv) closest = NULL;
  g_autofree char *list = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  closest = tw_event_names_dup_closest (trace, name, syntax, 5);
  if (closest[0] == NULL)
    return g_strdup_printf (_("no event “%s” in this trace, nor one with a similar name"), name);
  list = g_strjoinv (", ", closest);
  return g_strdup_printf (_("no event “%s” in this trace (did you mean %s?)"), name, list);
}

/**
 * tw_event_names_check:
 * @names: (array zero-terminated=1): event names a user wrote in @syntax
 *
 * Returns: (transfer full) (nullable): %NULL when @trace knows every name of @names;
 *   else what tw_event_names_dup_unknown_text() says of each name it does not know,
 *   joined by "; "
 */
char *
tw_event_names_check (TwTrace            *trace,
                      const char *const  *names,
                      TwEventNameSyntax   syntax)
{
  g_autoptr(GPtrArray) unknown = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);
  g_return_val_if_fail (names != NULL, NULL);

  for (guint i = 0; names[i]; i++)
    if (!tw_event_names_is_known (trace, names[i], syntax))
      g_ptr_array_add (unknown, tw_event_names_dup_unknown_text (trace, names[i], syntax));
  if (unknown->len == 0)
    return NULL;
  g_ptr_array_add (unknown, NULL);
  return g_strjoinv ("; ", (char **) unknown->pdata);
}

/**
 * tw_event_names_contain_text:
 * @text: what the user typed so far
 *
 * Returns: whether @text is part of a name @trace knows (ignoring case): the user may
 *   still be typing it, and completion has something to offer
 */
gboolean
tw_event_names_contain_text (TwTrace           *trace,
                             const char        *text,
                             TwEventNameSyntax  syntax)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *folded_text = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  folded_text = g_utf8_casefold (text, -1);
  names = known_names (trace, syntax);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *folded = g_utf8_casefold (g_ptr_array_index (names, i), -1);

      if (strstr (folded, folded_text))
        return TRUE;
    }
  return FALSE;
}
