/* tw-automaton-codegen.c: a metric automaton as a C evaluation module (tw-evaluator.h)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The generated file mirrors the interpreter (tw-automaton-interp.c, docs/automata.md
 * "The tables, for the C generator"): the same next[state][symbol][class] and λ tables,
 * the same per-state member lists, the same visit rules, the same report order. The
 * difference is what a symbol is. The interpreter sees the trace's type table and gives
 * every set of label names that match one type a symbol; a module only learns, per
 * event, the first of its event names that matched (tw-evaluator.h). So a module's
 * symbol is one label name: raw names are listed first, then `kind:NAME` for the label
 * names that are canonical kinds, and both map to the label name's symbol.
 *
 * Two things differ in how the work is done, not in what comes out: the module also
 * exports the optional batch entry (tw-evaluator.h), a loop over a whole chunk that
 * shares its per-event function with prepare/commit; and the self-visits of an `in`
 * or `cond` state with a `*` self-loop are counted when the instance leaves rather
 * than made one event at a time (build_tables, docs/automata.md).
 *
 * The code that is the same in every module is runtime/tw-automaton-runtime.c, whose
 * text the build embeds (tw-automaton-runtime-parts.h); this file writes the tables
 * and the code specialised to them around it.
 *
 * Strings from the JSON only ever appear inside C string literals, escaped byte by
 * byte; identifiers come from indexes, and comments carry no user text.
 */
#include "config.h"

#include "tw-automaton-codegen.h"

#include <tw-data.h>

#include "tw-automaton-runtime-parts.h"
#include "tw-automaton-tables-private.h"
#include "tw-evaluator.h"

#include <string.h>

typedef struct {
  TwAutomatonTables automaton;
  guint       n_states;       /* automaton.n_states */
  guint       initial;        /* automaton.initial, a state (the automaton is valid) */
  guint       n_syms;         /* automaton.names->len + 1; symbol 0: no name */
  gint32     *next;           /* [(state * n_syms + sym) * 4 + class] */
  guint8     *lazy;           /* per state: LAZY_* */
  guint8     *sym_arg_task;
  GPtrArray  *selectors;      /* event names given to the host */
  GArray     *selector_sym;   /* guint16 */
  GArray     *selector_refuse;/* guint8: the interpreter refuses a trace that has it */
  gboolean    needs_all;
} Tables;

static void
tables_clear (Tables *t)
{
  _tw_automaton_tables_clear (&t->automaton);
  g_clear_pointer (&t->next, g_free);
  g_clear_pointer (&t->lazy, g_free);
  g_clear_pointer (&t->sym_arg_task, g_free);
  g_clear_pointer (&t->selectors, g_ptr_array_unref);
  g_clear_pointer (&t->selector_sym, g_array_unref);
  g_clear_pointer (&t->selector_refuse, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Tables, tables_clear)

/* States whose self-loop visits the module counts instead of making (see build_tables) */
enum { LAZY_NONE, LAZY_IN, LAZY_COND };

/* The interpreter's binding (tw-automaton-interp.c bind_tables), over symbols that
 * are single label names. */
static gboolean
build_tables (TwAutomaton  *automaton,
              Tables       *t,
              GError      **error)
{
  const TwAutomatonTables *a = &t->automaton;
  guint n_trans, n_names;
  g_autofree guint8 *arg_refuse = NULL;
  g_autofree guint8 *one_hot = NULL;
  g_autofree const guint8 **sym_names = NULL;
  TwAutomatonTie tie;

  if (!tw_automaton_check (automaton, error))
    return FALSE;

  _tw_automaton_tables_init (&t->automaton, automaton);
  t->n_states = a->n_states;
  t->initial = (guint) a->initial;
  n_trans = a->n_transitions;
  n_names = a->names->len;
  t->n_syms = n_names + 1;

  /* which symbols use the arg column as a task, and which names the interpreter would
   * refuse to bind (a task_field arg label on a kind whose arg is no task) */
  t->sym_arg_task = g_new0 (guint8, t->n_syms);
  arg_refuse = g_new0 (guint8, t->n_syms);
  for (guint n = 0; n < n_names; n++)
    {
      TwEventKind kind;

      if (a->arg_task_transition[n] < 0)
        continue;
      t->sym_arg_task[n + 1] = 1;
      if (tw_event_kind_from_string (g_ptr_array_index (a->names, n), &kind) &&
          !_tw_event_kind_has_task_arg (kind))
        arg_refuse[n + 1] = 1;
    }

  /* symbol n + 1 matches name n alone, symbol 0 none */
  one_hot = g_new0 (guint8, (gsize) t->n_syms * n_names + 1);
  sym_names = g_new (const guint8 *, t->n_syms);
  for (guint sym = 0; sym < t->n_syms; sym++)
    {
      sym_names[sym] = one_hot + (gsize) sym * n_names;
      if (sym > 0)
        one_hot[(gsize) sym * n_names + sym - 1] = 1;
    }
  t->next = g_new (gint32, (gsize) t->n_states * t->n_syms * 4);
  /* validation rejects every overlap of one name, and a symbol is one name */
  if (!_tw_automaton_tables_fill_next (a, t->n_syms, sym_names, t->next, &tie))
    g_assert_not_reached ();

  /* An instance exists from its task's first event of any type. A module that only
   * sees its named events creates it later; that is the same only when no state
   * reacts to an event of another task (class 0, 2) nor to an unnamed one (`*`). */
  t->needs_all = FALSE;
  for (guint s = 0; s < t->n_states; s++)
    for (guint sym = 0; sym < t->n_syms; sym++)
      for (guint c = 0; c < 4; c++)
        if (t->next[((gsize) s * t->n_syms + sym) * 4 + c] >= 0 &&
            (sym == 0 || c == 0 || c == 2))
          t->needs_all = TRUE;

  /* The idiom that counts time, an `in` state with a `*` self-loop, visits its instance
   * at every event, and most events only do that. Such a state takes every event (`*`
   * matches whatever nothing else does), and after its first visit a self-visit only
   * extends the segment (`cond`: the run): n of them, up to the event that leaves, are
   * one update of the counts then. So the module drops these self-loops from its
   * tables and adds their visits when the instance leaves (the module gets every event
   * here: the `*` loop made needs_all). */
  t->lazy = g_new0 (guint8, t->n_states);
  for (guint i = 0; i < n_trans; i++)
    {
      int from = a->from[i];

      if (a->transitions[i].label == TW_LABEL_ANY && from == a->to[i] &&
          (a->kind[from] == TW_STATE_KIND_IN || a->kind[from] == TW_STATE_KIND_COND))
        t->lazy[from] = a->kind[from] == TW_STATE_KIND_IN ? LAZY_IN : LAZY_COND;
    }
  for (guint s = 0; s < t->n_states; s++)
    if (t->lazy[s] != LAZY_NONE)
      for (gsize k = (gsize) s * t->n_syms * 4; k < ((gsize) s + 1) * t->n_syms * 4; k++)
        if (t->next[k] == (gint32) s)
          t->next[k] = -1;

  t->selectors = g_ptr_array_new_with_free_func (g_free);
  t->selector_sym = g_array_new (FALSE, FALSE, sizeof (guint16));
  t->selector_refuse = g_array_new (FALSE, FALSE, sizeof (guint8));
  /* The host reads a selector "*" as every event and "kind:…" as a kind: a type
   * whose raw name looks like that cannot be named (docs/automata.md). */
  for (guint n = 0; n < n_names; n++)
    {
      const char *name = g_ptr_array_index (a->names, n);
      guint16 sym = n + 1;
      guint8 refuse = 0;

      if (strcmp (name, "*") == 0 || g_str_has_prefix (name, "kind:"))
        continue;
      g_ptr_array_add (t->selectors, g_strdup (name));
      g_array_append_val (t->selector_sym, sym);
      g_array_append_val (t->selector_refuse, refuse);
    }
  for (guint n = 0; n < n_names; n++)
    {
      const char *name = g_ptr_array_index (a->names, n);
      TwEventKind kind;
      guint16 sym = n + 1;

      if (!tw_event_kind_from_string (name, &kind))
        continue;
      g_ptr_array_add (t->selectors, g_strconcat ("kind:", name, NULL));
      g_array_append_val (t->selector_sym, sym);
      g_array_append_val (t->selector_refuse, arg_refuse[sym]);
    }
  if (t->selectors->len == 0)
    t->needs_all = TRUE;   /* the host wants something to feed */
  return TRUE;
}

/* A C string literal that no byte of @s can break out of: only [A-Za-z0-9 _.-] pass
 * as they are, everything else is a three-digit octal escape (so no trigraph, quote,
 * backslash, newline or comment opener survives); long strings are cut into pieces. */
static void
append_c_string (GString    *out,
                 const char *s)
{
  guint col = 0;

  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) s; *p; p++)
    {
      if (g_ascii_isalnum (*p) || *p == ' ' || *p == '_' || *p == '.' || *p == '-')
        g_string_append_c (out, *p);
      else
        g_string_append_printf (out, "\\%03o", *p);
      if (++col == 60 && p[1])
        {
          g_string_append (out, "\"\n  \"");
          col = 0;
        }
    }
  g_string_append_c (out, '"');
}

static void
append_int_array (GString      *out,
                  const char   *type,
                  const char   *ident,
                  const gint64 *values,
                  gsize         n)
{
  /* one extra entry: C has no empty arrays */
  g_string_append_printf (out, "static const %s %s[%" G_GSIZE_FORMAT "] = {", type, ident,
                          n + 1);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT ",", i % 16 == 0 ? "\n  " : " ",
                            values[i]);
  g_string_append (out, "\n  0\n};\n\n");
}

static void
append_table_u8 (GString      *out,
                 const char   *ident,
                 const guint8 *v,
                 gsize         n)
{
  g_autofree gint64 *values = g_new (gint64, n + 1);

  for (gsize i = 0; i < n; i++)
    values[i] = v[i];
  append_int_array (out, "uint8_t", ident, values, n);
}

/* $take (): moves an instance from state @from along the winning transition to
 * @target and its λ chain. Every call passes constant states (the chains are known:
 * validation forbids λ cycles), so each call folds to the visits of its chain, with
 * the list moves and the lazy counts of those two states only. */
static void
append_take (GString      *out,
             const Tables *t)
{
  g_string_append (out,
                   "$ALWAYS_INLINE void $take ($Context *c, uint32_t task, uint32_t from, uint32_t target,\n"
                   "                           uint64_t time, uint64_t pos, bool walked, uint64_t prev_time)\n"
                   "{\n"
                   "  $Instance *inst = &c->inst[task];\n"
                   "  uint32_t last;\n"
                   "  /* the self-visits of the events since it came (all of them: `*`), the last\n"
                   "   * one at prev_time */\n"
                   "  if ($lazy[from] != 0 && pos - inst->lazy_from > 1u)\n"
                   "    {\n"
                   "      if ($lazy[from] == 1u)\n"
                   "        {\n"
                   "          inst->seg_last = prev_time;\n"
                   "          inst->seg_visits += pos - inst->lazy_from - 1u;\n"
                   "        }\n"
                   "      else\n"
                   "        inst->run_visits += pos - inst->lazy_from - 1u;\n"
                   "    }\n"
                   "  /* only the walk over the member lists reads stamps; it skips the event's\n"
                   "   * own and arg instances by their task */\n"
                   "  if (walked)\n"
                   "    inst->stamp = pos;\n"
                   "  switch (target)\n"
                   "    {\n");
  for (guint s = 0; s < t->n_states; s++)
    {
      gint32 state = s;

      g_string_append_printf (out, "    case %u:\n", s);
      for (;;)
        {
          g_string_append_printf (out, "      $visit (c, inst, task, %du, time);\n", state);
          if (t->automaton.lambda_next[state] < 0)
            break;
          state = t->automaton.lambda_next[state];
        }
      g_string_append_printf (out, "      last = %du;\n      break;\n", state);
    }
  g_string_append (out,
                   "    default:\n"
                   "      return;\n"
                   "    }\n"
                   "  if ($lazy[last] != 0)\n"
                   "    inst->lazy_from = pos;\n"
                   "  if (last != from)\n"
                   "    {\n"
                   "      $remove_member (c, task, from);\n"
                   "      inst->state = last;\n"
                   "      if (!$add_member (c, task, last))\n"
                   "        c->failed = true;\n"
                   "    }\n"
                   "}\n"
                   "\n");
}

static gint32
next_of (const Tables *t,
         guint         state,
         guint         sym,
         guint         class)
{
  return t->next[((gsize) state * t->n_syms + sym) * 4 + class];
}

/* Whether an event of @sym can act on some instance: a target in some state and class. */
static gboolean
symbol_acts (const Tables *t,
             guint         sym)
{
  for (guint s = 0; s < t->n_states; s++)
    for (guint c = 0; c < 4; c++)
      if (next_of (t, s, sym, c) >= 0)
        return TRUE;
  return FALSE;
}

/* A call of the move from @from to @target, which @moves notes for append_moves(). */
static void
append_move_call (GString      *out,
                  const Tables *t,
                  guint8       *moves,
                  const char   *indent,
                  const char   *who,
                  guint         from,
                  guint         target,
                  gboolean      walked)
{
  moves[from * t->n_states + target] = 1;
  g_string_append_printf (out, "%s$move_%u_%u (c, %s, time, pos, %s, prev_time);\n", indent,
                          from, target, who, walked ? "true" : "false");
}

/* One function per move the events make, each $take () with constant states: the
 * compiler inlines the small ones and the ones called once, and compiles every move
 * once however many symbols make it. */
static void
append_moves (GString      *out,
              const Tables *t,
              const guint8 *moves)
{
  for (guint from = 0; from < t->n_states; from++)
    for (guint target = 0; target < t->n_states; target++)
      if (moves[from * t->n_states + target])
        g_string_append_printf (out,
                                "static inline void $move_%u_%u ($Context *c, uint32_t task, uint64_t time,\n"
                                "                                uint64_t pos, bool walked, uint64_t prev_time)\n"
                                "{\n"
                                "  $take (c, task, %uu, %uu, time, pos, walked, prev_time);\n"
                                "}\n"
                                "\n",
                                from, target, from, target);
}

/* The cases of a switch on an instance's state: per state, the take of its target,
 * which for the event's own task may depend on whether the arg is the task too. */
static void
append_state_cases (GString      *out,
                    const Tables *t,
                    guint8       *moves,
                    guint         sym,
                    const char   *who,
                    guint         class,
                    gboolean      arg_decides)
{
  for (guint s = 0; s < t->n_states; s++)
    {
      gint32 target = next_of (t, s, sym, class);
      gint32 target_arg = arg_decides ? next_of (t, s, sym, class | 2u) : target;

      if (target < 0 && target_arg < 0)
        continue;
      g_string_append_printf (out, "          case %uu:\n", s);
      if (target == target_arg)
        append_move_call (out, t, moves, "            ", who, s, target, FALSE);
      else
        {
          g_string_append (out, "            if (arg == task)\n");
          if (target_arg >= 0)
            append_move_call (out, t, moves, "              ", who, s, target_arg, FALSE);
          else
            g_string_append (out, "              break;\n");
          if (target >= 0)
            {
              g_string_append (out, "            else\n");
              append_move_call (out, t, moves, "              ", who, s, target, FALSE);
            }
        }
      g_string_append (out, "            break;\n");
    }
}

/* $event (): one case per symbol that acts, in the interpreter's order: the event's
 * own instance (class 1, or 3 when the symbol's arg is a task and the same one), the
 * arg's instance (class 2), then the member lists of the states class 0 moves, in
 * state order. Targets are constants in the code rather than a table: each case has
 * its own branches, which the predictor tells apart. */
static void
append_event (GString      *code,
              const Tables *t)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree guint8 *moves = g_new0 (guint8, (gsize) t->n_states * t->n_states);

  g_string_append (out,
                   "/* One event (DESIGN 4), both for commit and for batches. False when out of memory. */\n"
                   "$ALWAYS_INLINE bool $event ($Context *c, uint32_t sym, uint32_t task, uint32_t arg,\n"
                   "                           uint64_t time, uint64_t pos, uint64_t prev_time)\n"
                   "{\n"
                   "  (void) arg;\n"
                   "  (void) time;\n"
                   "  (void) pos;\n"
                   "  (void) prev_time;\n"
                   "  if (task != $TASK_NONE && (task >= c->n_inst || c->inst[task].state == $STATE_NONE) &&\n"
                   "      !$ensure_instance (c, task))\n"
                   "    {\n"
                   "      c->failed = true;\n"
                   "      return false;\n"
                   "    }\n"
                   "  switch (sym)\n"
                   "    {\n");
  for (guint sym = 0; sym < t->n_syms; sym++)
    {
      gboolean arg_task = t->sym_arg_task[sym];
      gboolean own = FALSE, other_arg = FALSE;

      if (!symbol_acts (t, sym))
        continue;
      for (guint s = 0; s < t->n_states; s++)
        {
          own |= next_of (t, s, sym, 1) >= 0 || (arg_task && next_of (t, s, sym, 3) >= 0);
          other_arg |= arg_task && next_of (t, s, sym, 2) >= 0;
        }
      g_string_append_printf (out, "    case %uu:\n", sym);
      if (own)
        {
          g_string_append (out, "      if (task != $TASK_NONE)\n"
                                "        switch (c->inst[task].state)\n"
                                "          {\n");
          append_state_cases (out, t, moves, sym, "task", 1, arg_task);
          g_string_append (out, "          default:\n"
                                "            break;\n"
                                "          }\n");
        }
      if (other_arg)
        {
          g_string_append (out, "      if (arg != $TASK_NONE && arg != task && arg < c->n_inst)\n"
                                "        switch (c->inst[arg].state)\n"
                                "          {\n");
          append_state_cases (out, t, moves, sym, "arg", 2, FALSE);
          g_string_append (out, "          default:\n"
                                "            break;\n"
                                "          }\n");
        }
      /* Each list backwards: one that leaves is replaced by the last, already walked;
       * one that moved to a list walked later carries this event's stamp. */
      for (guint s = 0; s < t->n_states; s++)
        {
          gint32 target = next_of (t, s, sym, 0);

          if (target < 0)
            continue;
          g_string_append_printf (out,
                                  "      for (uint32_t p = c->members[%u].len; p-- > 0;)\n"
                                  "        {\n"
                                  "          uint32_t other = c->members[%u].items[p];\n"
                                  "          if (other == task%s || c->inst[other].stamp == pos)\n"
                                  "            continue;\n",
                                  s, s, arg_task ? " || other == arg" : "");
          append_move_call (out, t, moves, "          ", "other", s, target, TRUE);
          g_string_append (out, "        }\n");
        }
      g_string_append (out, "      break;\n");
    }
  g_string_append (out,
                   "    default:\n"
                   "      break;\n"
                   "    }\n"
                   "  return !c->failed;\n"
                   "}\n"
                   "\n");
  append_moves (code, t, moves);
  g_string_append_len (code, out->str, out->len);
}

/**
 * tw_automaton_codegen_needs_all_events:
 * @automaton: a valid automaton
 *
 * Returns: whether its module asks for every event (TW_EVALUATOR_FLAG_ALL_EVENTS):
 *   when a `*` label or a reaction to another task's event makes instance creation at
 *   a task's first event of any type matter; %FALSE also for an invalid automaton
 */
gboolean
tw_automaton_codegen_needs_all_events (TwAutomaton *automaton)
{
  g_auto(Tables) t = { 0 };

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);

  return build_tables (automaton, &t, NULL) && t.needs_all;
}

static gboolean
is_c_identifier (const char *s)
{
  if (s == NULL || !(g_ascii_isalpha (s[0]) || s[0] == '_'))
    return FALSE;
  for (; *s; s++)
    if (!(g_ascii_isalnum (*s) || *s == '_'))
      return FALSE;
  return TRUE;
}

/**
 * tw_automaton_codegen_generate:
 * @automaton: the automaton (it must validate)
 * @entry_symbol: (nullable): the name of the exported entry point; %NULL for
 *   `tw_evaluator_module_get` (another name lets several modules share one shared
 *   object, as the differential test does). The batch entry is this name followed
 *   by `_batch` (`tw_evaluator_module_get_batch`, tw-evaluator.h).
 * @prefix: (nullable): put before every other file-scope name, so that several
 *   generated modules can be pasted into one translation unit; %NULL for none
 *
 * Emits one self-contained C11 source file that includes only `tw-evaluator.h` (and
 * the C library's headers) and implements the evaluation module ABI with the exact
 * semantics of the interpreter (docs/automata.md, "C export").
 *
 * Returns: (transfer full) (nullable): the source, or %NULL with @error set when the
 *   automaton has design errors
 */
char *
tw_automaton_codegen_generate (TwAutomaton  *automaton,
                               const char   *entry_symbol,
                               const char   *prefix,
                               GError      **error)
{
  g_auto(Tables) t = { 0 };
  g_autoptr(GString) out = NULL;
  g_autofree gint64 *values = NULL;
  g_autofree guint8 *watched = NULL;
  JsonObject *extra;
  const char *name = tw_automaton_get_name (automaton);
  const char *description = "";
  gboolean has_lazy = FALSE, fresh_matters = FALSE;
  const char *entry = entry_symbol ? entry_symbol : TW_EVALUATOR_MODULE_SYMBOL;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), NULL);
  g_return_val_if_fail (entry_symbol == NULL || is_c_identifier (entry_symbol), NULL);
  g_return_val_if_fail (prefix == NULL || prefix[0] == '\0' || is_c_identifier (prefix), NULL);

  if (!build_tables (automaton, &t, error))
    return NULL;
  if (name == NULL || name[0] == '\0')
    name = "automaton";
  extra = tw_automaton_get_extra (automaton);
  if (extra && json_object_has_member (extra, "description") &&
      JSON_NODE_HOLDS_VALUE (json_object_get_member (extra, "description")) &&
      json_node_get_value_type (json_object_get_member (extra, "description")) == G_TYPE_STRING)
    description = json_object_get_string_member (extra, "description");

  out = g_string_new (NULL);
  g_string_append (out,
                   "/* Evaluation module generated by Trace Workbench from a metric automaton\n"
                   " * (DESIGN 4, docs/automata.md). It implements the tw-evaluator.h ABI\n"
                   " * and gives the same measurements as the interpreter. */\n"
                   "#include \"tw-evaluator.h\"\n"
                   "\n"
                   "#include <stdbool.h>\n"
                   "#include <stddef.h>\n"
                   "#include <stdint.h>\n"
                   "#include <stdlib.h>\n"
                   "#include <string.h>\n"
                   "\n");
  g_string_append_printf (out, "#define $N_STATES %uu\n", t.n_states);
  g_string_append_printf (out, "#define $N_SYMS %uu\n", t.n_syms);
  g_string_append_printf (out, "#define $N_SELECTORS %uu\n", t.selectors->len);
  g_string_append_printf (out, "#define $INITIAL %uu\n\n", t.initial);

  g_string_append (out, "static const char $module_name[] = ");
  append_c_string (out, name);
  g_string_append (out, ";\n\nstatic const char $module_description[] = ");
  append_c_string (out, description);
  g_string_append (out, ";\n\n/* raw names first, then canonical kinds */\n"
                        "static const char *const $event_names[$N_SELECTORS + 1] = {\n");
  for (guint i = 0; i < t.selectors->len; i++)
    {
      g_string_append (out, "  ");
      append_c_string (out, g_ptr_array_index (t.selectors, i));
      g_string_append (out, ",\n");
    }
  g_string_append (out, "  NULL\n};\n\n");

  values = g_new (gint64, MAX (t.n_syms, t.selectors->len) + 1);
  for (guint i = 0; i < t.selectors->len; i++)
    values[i] = g_array_index (t.selector_sym, guint16, i);
  append_int_array (out, "uint16_t", "$selector_sym", values, t.selectors->len);
  append_table_u8 (out, "$selector_refuse", (const guint8 *) t.selector_refuse->data,
                   t.selector_refuse->len);
  append_table_u8 (out, "$state_kind", t.automaton.kind, t.n_states);
  g_string_append (out, "/* per state: 1 an `in`, 2 a `cond` whose `*` self-visits are counted, not made */\n");
  append_table_u8 (out, "$lazy", t.lazy, t.n_states);

  /* the states class 0 of a symbol can change: their instances are kept in lists */
  watched = g_new0 (guint8, t.n_states);
  for (guint sym = 0; sym < t.n_syms; sym++)
    for (guint s = 0; s < t.n_states; s++)
      if (next_of (&t, s, sym, 0) >= 0)
        watched[s] = 1;
  append_table_u8 (out, "$watched", watched, t.n_states);

  /* by the batch's symbol + 1 (0: an event the module is not fed) */
  values[0] = 0;
  for (guint sym = 0; sym < t.n_syms; sym++)
    values[sym + 1] = symbol_acts (&t, sym);
  for (guint s = 0; s < t.n_states; s++)
    has_lazy |= t.lazy[s] != LAZY_NONE;
  g_string_append (out, "/* by symbol + 1: whether an event of it can act (0: not fed) */\n");
  append_int_array (out, "uint8_t", "$active", values, t.n_syms + 1);
  /* An instance made at its task's first event of a symbol that can act rather than at
   * its first event of any type sits in the initial state meanwhile, and nothing else
   * differs, unless the initial state reacts to others' events (class 0, 2): then the
   * first event of each task must be kept. */
  for (guint sym = 0; sym < t.n_syms; sym++)
    fresh_matters |= next_of (&t, t.initial, sym, 0) >= 0 || next_of (&t, t.initial, sym, 2) >= 0;
  g_string_append_printf (out, "/* whether a task's first event must be kept though it cannot act */\n"
                               "#define $FRESH_MATTERS %d\n", fresh_matters ? 1 : 0);
  g_string_append_printf (out, "/* whether the module counts the events a state's self-visits skip */\n"
                               "#define $EXACT_POS %d\n"
                               "#define $BLOCK 512u\n"
                               "#define $ACTS_SHIFT 16u\n"
                               "#define $ACTS (1u << $ACTS_SHIFT)\n"
                               "#define $SYM_MASK ($ACTS - 1u)\n\n", has_lazy ? 1 : 0);

  /* the runtime every module shares (runtime/tw-automaton-runtime.c) around the code
   * made for this automaton */
  g_string_append (out, tw_automaton_runtime_core);
  append_take (out, &t);
  g_string_append (out, tw_automaton_runtime_tail);
  append_event (out, &t);
  g_string_append (out, tw_automaton_runtime_batch);

  g_string_append_printf (out,
                          "static const TwEvaluatorModule $module = {\n"
                          "  TW_EVALUATOR_ABI_VERSION,\n"
                          "  sizeof (TwEvaluatorModule),\n"
                          "  $module_name,\n"
                          "  $module_description,\n"
                          "  $event_names,\n"
                          "  $N_SELECTORS,\n"
                          "  %s,\n"
                          "  NULL,\n"
                          "  0,\n"
                          "  0,\n"
                          "  $context_new,\n"
                          "  $context_free,\n"
                          "  $bind,\n"
                          "  $prepare,\n"
                          "  $commit,\n"
                          "  $finish,\n"
                          "};\n"
                          "\n"
                          "#if defined(__GNUC__)\n"
                          "__attribute__ ((visibility (\"default\")))\n"
                          "#endif\n"
                          "const TwEvaluatorModule *%s (unsigned abi_version);\n"
                          "\n"
                          "#if defined(__GNUC__)\n"
                          "__attribute__ ((visibility (\"default\")))\n"
                          "#endif\n"
                          "const TwEvaluatorModule *\n"
                          "%s (unsigned abi_version)\n"
                          "{\n"
                          "  return abi_version == TW_EVALUATOR_ABI_VERSION ? &$module : NULL;\n"
                          "}\n"
                          "\n"
                          "static const TwEvaluatorBatchFuncs $batch_funcs = {\n"
                          "  TW_EVALUATOR_ABI_VERSION,\n"
                          "  sizeof (TwEvaluatorBatchFuncs),\n"
                          "  $process,\n"
                          "};\n"
                          "\n"
                          "#if defined(__GNUC__)\n"
                          "__attribute__ ((visibility (\"default\")))\n"
                          "#endif\n"
                          "const TwEvaluatorBatchFuncs *%s_batch (const TwEvaluatorModule *which,\n"
                          "                                      unsigned abi_version);\n"
                          "\n"
                          "#if defined(__GNUC__)\n"
                          "__attribute__ ((visibility (\"default\")))\n"
                          "#endif\n"
                          "const TwEvaluatorBatchFuncs *\n"
                          "%s_batch (const TwEvaluatorModule *which, unsigned abi_version)\n"
                          "{\n"
                          "  return which == &$module && abi_version == TW_EVALUATOR_ABI_VERSION\n"
                          "         ? &$batch_funcs : NULL;\n"
                          "}\n",
                          t.needs_all ? "TW_EVALUATOR_FLAG_ALL_EVENTS" : "0",
                          entry, entry, entry, entry);
  /* '$' marks every file-scope name; escaped strings never hold one */
  g_string_replace (out, "$", prefix ? prefix : "", 0);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * tw_automaton_codegen_write:
 * @stream: where the source goes
 *
 * tw_automaton_codegen_generate() with the standard entry point, written to @stream.
 *
 * Returns: %FALSE with @error set when the automaton has design errors or writing fails
 */
gboolean
tw_automaton_codegen_write (TwAutomaton    *automaton,
                            GOutputStream  *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  g_autofree char *source = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  source = tw_automaton_codegen_generate (automaton, NULL, NULL, error);
  return source != NULL &&
         g_output_stream_write_all (stream, source, strlen (source), NULL, cancellable, error);
}

/* The directory of tw-evaluator.h: the installed one when pkg-config knows it, else
 * the source tree this tracewb-cli was built from. */
static char *
dup_evaluator_cflags (void)
{
  g_autofree char *out = NULL;
  int status = 0;
  const char *argv[] = { "pkg-config", "--cflags", "tracewb-evaluator", NULL };

  if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                    NULL, NULL, &out, NULL, &status, NULL) &&
      g_spawn_check_wait_status (status, NULL) && out != NULL && strstr (out, "-I") != NULL)
    return g_strdup (g_strstrip (out));
  return g_strdup_printf ("-I%s/evaluators", TW_SOURCE_DIR);
}

/**
 * tw_automaton_codegen_build:
 * @source: an exported module's C file
 * @output: the shared object to write
 * @messages: (out) (optional) (transfer full): what the compiler printed
 *
 * Compiles an exported module with $CC (or cc) against the installed tw-evaluator.h
 * (pkg-config tracewb-evaluator) or, without it, the source tree's.
 *
 * Returns: %FALSE with @error set when the compiler cannot run or fails
 */
gboolean
tw_automaton_codegen_build (const char  *source,
                            const char  *output,
                            char       **messages,
                            GError     **error)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) cc = NULL;
  g_auto(GStrv) cflags = NULL;
  g_autofree char *flags = dup_evaluator_cflags ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *cc_env = g_getenv ("CC");
  int status = 0;

  if (!g_shell_parse_argv (cc_env && cc_env[0] ? cc_env : "cc", NULL, &cc, error) ||
      !g_shell_parse_argv (flags, NULL, &cflags, error))
    return FALSE;
  for (guint i = 0; cc[i]; i++)
    g_ptr_array_add (args, g_strdup (cc[i]));
  for (guint i = 0; cflags[i]; i++)
    g_ptr_array_add (args, g_strdup (cflags[i]));
  for (const char *const *a = (const char *const[]) { "-std=c11", "-Wall", "-Wextra", "-O2",
                                                       "-shared", "-fPIC", "-o", NULL };
       *a; a++)
    g_ptr_array_add (args, g_strdup (*a));
  g_ptr_array_add (args, g_strdup (output));
  g_ptr_array_add (args, g_strdup (source));
  g_ptr_array_add (args, NULL);
  if (!g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, error))
    {
      g_prefix_error (error, "cannot run the C compiler “%s”: ", cc[0]);
      return FALSE;
    }
  if (messages)
    *messages = g_steal_pointer (&err);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                   "%s: the C compiler “%s” failed", source, cc[0]);
      return FALSE;
    }
  return TRUE;
}
