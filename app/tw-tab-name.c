/* tw-tab-name.c: tab labels a user can tell apart
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-tab-name.h"

static gboolean
is_taken (GtkNotebook *notebook,
          const char  *name)
{
  for (int i = 0; i < gtk_notebook_get_n_pages (notebook); i++)
    {
      const char *label = gtk_notebook_get_tab_label_text (notebook,
                                                           gtk_notebook_get_nth_page (notebook, i));

      if (g_strcmp0 (label, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/**
 * tw_tab_name_dup_unique:
 * @notebook: whose tabs' labels are taken
 * @name: what a new tab would show ("irq-duration")
 *
 * Two tabs of one name cannot be told apart, nor can what is exported from them: the
 * second irq-duration is "irq-duration (2)", the next "irq-duration (3)". A number freed
 * by a closed tab is used again.
 *
 * Returns: (transfer full): @name, numbered when a tab of @notebook has it
 */
char *
tw_tab_name_dup_unique (GtkNotebook *notebook,
                        const char  *name)
{
  char *unique;

  g_return_val_if_fail (GTK_IS_NOTEBOOK (notebook), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  unique = g_strdup (name);
  for (guint n = 2; is_taken (notebook, unique); n++)
    {
      g_free (unique);
      unique = g_strdup_printf ("%s (%u)", name, n);
    }
  return unique;
}
