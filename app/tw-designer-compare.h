/* tw-designer-compare.h: the designer's row that runs any registered evaluator beside the automaton
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_DESIGNER_COMPARE (tw_designer_compare_get_type ())
G_DECLARE_FINAL_TYPE (TwDesignerCompare, tw_designer_compare, TW, DESIGNER_COMPARE, GtkWidget)

GtkWidget  *tw_designer_compare_new               (void);
void        tw_designer_compare_set_trace         (TwDesignerCompare  *self,
                                                   TwTrace            *trace);
gboolean    tw_designer_compare_get_running       (TwDesignerCompare  *self);
const char *tw_designer_compare_get_summary       (TwDesignerCompare  *self);
void        tw_designer_compare_measure           (TwDesignerCompare  *self);

char       *tw_designer_compare_dup_lengths_text  (TwMeasurementTable *table);

G_END_DECLS
