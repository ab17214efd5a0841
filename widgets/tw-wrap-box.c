/* tw-wrap-box.c: a row of children that wraps onto further lines when narrow
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-wrap-box.h"

/*
 * A toolbar that asks for its whole natural width would make every window holding it at
 * least that wide (the designer's was wider than a 1366 px laptop screen). This box asks
 * only for its widest child and lays the children out left to right in their order, each
 * at its natural width where it fits, starting a new line where the next one would not
 * fit at its minimum: every control stays on screen, on a second line when narrow. The
 * space left at a line's end goes to the line's horizontally expanding children, as a
 * GtkBox gives it, so a hexpand spacer still pushes what follows it to the right edge.
 */

struct _TwWrapBox
{
  GtkWidget parent_instance;

  int       spacing;  /* between children on a line, and between lines */
  guint     n_lines;  /* of the last allocation */
};

G_DEFINE_FINAL_TYPE (TwWrapBox, tw_wrap_box, GTK_TYPE_WIDGET)

typedef struct {
  GtkWidget *child;
  int        x;
  int        width;
  guint      line;
} Slot;

/* Breaks the visible children into lines of @width; returns the number of lines and the
 * height of each (nat. heights at the widths they get) in @heights (nullable). */
static guint
break_lines (TwWrapBox *self,
             int        width,
             GArray    *slots,
             GArray    *heights)
{
  guint line = 0, first_of_line = 0;
  int x = 0;

  g_array_set_size (slots, 0);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self)); child;
       child = gtk_widget_get_next_sibling (child))
    {
      Slot slot = { child, 0, 0, 0 };
      int min, nat, gap;

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
      gap = slots->len > first_of_line ? self->spacing : 0;
      if (slots->len > first_of_line && x + gap + min > width)
        {
          line++;
          first_of_line = slots->len;
          x = 0;
          gap = 0;
        }
      slot.x = x + gap;
      slot.width = MIN (nat, MAX (min, width - slot.x));
      slot.line = line;
      x = slot.x + slot.width;
      g_array_append_val (slots, slot);
    }

  /* what is left at each line's end goes to its expanding children, evenly */
  for (guint start = 0; start < slots->len;)
    {
      guint end = start, n_expand = 0;
      int left, shift = 0;

      while (end < slots->len && g_array_index (slots, Slot, end).line == g_array_index (slots, Slot, start).line)
        {
          n_expand += gtk_widget_compute_expand (g_array_index (slots, Slot, end).child,
                                                 GTK_ORIENTATION_HORIZONTAL);
          end++;
        }
      left = width - (g_array_index (slots, Slot, end - 1).x + g_array_index (slots, Slot, end - 1).width);
      for (guint i = start; i < end; i++)
        {
          Slot *slot = &g_array_index (slots, Slot, i);

          slot->x += shift;
          if (n_expand > 0 && left > 0
              && gtk_widget_compute_expand (slot->child, GTK_ORIENTATION_HORIZONTAL))
            {
              int extra = left / (int) n_expand;

              slot->width += extra;
              shift += extra;
              left -= extra;
              n_expand--;
            }
        }
      start = end;
    }

  if (heights)
    {
      g_array_set_size (heights, slots->len > 0 ? line + 1 : 0);
      for (guint l = 0; l < heights->len; l++)
        g_array_index (heights, int, l) = 0;
      for (guint i = 0; i < slots->len; i++)
        {
          const Slot *slot = &g_array_index (slots, Slot, i);
          int nat;

          gtk_widget_measure (slot->child, GTK_ORIENTATION_VERTICAL, slot->width, NULL, &nat, NULL, NULL);
          g_array_index (heights, int, slot->line) = MAX (g_array_index (heights, int, slot->line), nat);
        }
    }
  return slots->len > 0 ? line + 1 : 0;
}

static GtkSizeRequestMode
tw_wrap_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tw_wrap_box_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  TwWrapBox *self = TW_WRAP_BOX (widget);
  int min_width = 0, nat_width = 0, n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      int min, nat;

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
      min_width = MAX (min_width, min);
      nat_width += (n++ > 0 ? self->spacing : 0) + nat;
    }

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = min_width;
      *natural = nat_width;
    }
  else
    {
      g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (Slot));
      g_autoptr(GArray) heights = g_array_new (FALSE, FALSE, sizeof (int));
      guint n_lines = break_lines (self, for_size < 0 ? nat_width : for_size, slots, heights);
      int height = 0;

      for (guint l = 0; l < n_lines; l++)
        height += (l > 0 ? self->spacing : 0) + g_array_index (heights, int, l);
      *minimum = *natural = height;
    }
}

static void
tw_wrap_box_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  TwWrapBox *self = TW_WRAP_BOX (widget);
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (Slot));
  g_autoptr(GArray) heights = g_array_new (FALSE, FALSE, sizeof (int));
  int y = 0;
  guint line = 0;

  self->n_lines = break_lines (self, width, slots, heights);
  for (guint i = 0; i < slots->len; i++)
    {
      const Slot *slot = &g_array_index (slots, Slot, i);

      while (line < slot->line)
        y += g_array_index (heights, int, line++) + self->spacing;
      gtk_widget_size_allocate (slot->child,
                                &(GtkAllocation) { slot->x, y, slot->width,
                                                   g_array_index (heights, int, slot->line) },
                                -1);
    }
}

static void
tw_wrap_box_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tw_wrap_box_parent_class)->dispose (object);
}

static void
tw_wrap_box_class_init (TwWrapBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_wrap_box_dispose;
  widget_class->get_request_mode = tw_wrap_box_get_request_mode;
  widget_class->measure = tw_wrap_box_measure;
  widget_class->size_allocate = tw_wrap_box_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "wrapbox");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tw_wrap_box_init (TwWrapBox *self)
{
}

/**
 * tw_wrap_box_new:
 * @spacing: pixels between neighbours on a line, and between lines
 *
 * Returns: (transfer floating): an empty wrap box
 */
GtkWidget *
tw_wrap_box_new (int spacing)
{
  TwWrapBox *self = g_object_new (TW_TYPE_WRAP_BOX, NULL);

  self->spacing = MAX (spacing, 0);
  return GTK_WIDGET (self);
}

/**
 * tw_wrap_box_append:
 * @child: (transfer floating): a widget without a parent
 *
 * Adds @child after the others.
 */
void
tw_wrap_box_append (TwWrapBox *self,
                    GtkWidget *child)
{
  g_return_if_fail (TW_IS_WRAP_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child) && gtk_widget_get_parent (child) == NULL);

  gtk_widget_insert_before (child, GTK_WIDGET (self), NULL);
}

/**
 * tw_wrap_box_get_n_lines:
 *
 * Returns: how many lines the children took at the last allocation (0 before one)
 */
guint
tw_wrap_box_get_n_lines (TwWrapBox *self)
{
  g_return_val_if_fail (TW_IS_WRAP_BOX (self), 0);

  return self->n_lines;
}
