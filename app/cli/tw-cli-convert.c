/* tw-cli-convert.c: `tracewb-cli convert FILE --to FORMAT [-o OUT]`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixoutputstream.h>
#include <tw-ingest.h>
#include <unistd.h>

#include "tw-cli.h"

typedef gboolean (*WriteFunc) (TwTrace        *trace,
                               GOutputStream  *stream,
                               GCancellable   *cancellable,
                               GError        **error);

/* One row per output format: a writer only needs a stream. */
static const struct {
  const char *name;
  const char *summary;
  WriteFunc   write;
} targets[] = {
  { "csv", "CSV events, as the csv reader reads them (docs/csv-format.md)", tw_csv_writer_write },
  { "chrome-json", "Chrome trace event JSON for Perfetto's UI (docs/chrome-json-export.md)",
    tw_chrome_json_writer_write },
};

static void
print_usage (void)
{
  g_printerr ("usage: tracewb-cli convert [--format NAME] FILE --to FORMAT [-o OUT]\n\n"
              "formats:\n");
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    g_printerr ("  %-12s %s\n", targets[i].name, targets[i].summary);
}

typedef struct {
  WriteFunc  write;
  TwTrace   *trace;
} Conversion;

static gboolean
write_conversion (GOutputStream  *stream,
                  gpointer        user_data,
                  GCancellable   *cancellable,
                  GError        **error)
{
  Conversion *conversion = user_data;

  return conversion->write (conversion->trace, stream, cancellable, error);
}

/* The file appears complete or not at all: a failed conversion leaves nothing at @path. */
static gboolean
write_to_path (WriteFunc    write,
               TwTrace     *trace,
               const char  *path,
               GError     **error)
{
  Conversion conversion = { write, trace };

  return tw_atomic_file_write (path, write_conversion, &conversion, NULL, error);
}

int
tw_cli_convert (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE — write a trace in another format");
  g_autoptr(TwTrace) trace = NULL;
  g_autofree char *format = NULL;
  g_autofree char *to = NULL;
  g_autofree char *output = NULL;
  WriteFunc write = NULL;
  GError *error = NULL;
  const GOptionEntry entries[] = {
    { "to", 't', 0, G_OPTION_ARG_STRING, &to, "Output format (csv, chrome-json)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Output file (default: standard output)", "OUT" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Reader to use instead of probing", "NAME" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2 || to == NULL)
    {
      print_usage ();
      return 2;
    }

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (g_strcmp0 (to, targets[i].name) == 0)
      write = targets[i].write;
  if (write == NULL)
    {
      g_printerr ("tracewb-cli convert: unknown output format “%s”\n\n", to);
      print_usage ();
      return 2;
    }

  if (!(trace = tw_cli_load_trace (argv[1], format, &error)))
    return tw_cli_fail ("convert", error);

  if (output != NULL && g_strcmp0 (output, "-") != 0)
    {
      if (!write_to_path (write, trace, output, &error))
        return tw_cli_fail ("convert", error);
    }
  else
    {
      g_autoptr(GOutputStream) stream = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

      if (!write (trace, stream, NULL, &error))
        return tw_cli_fail ("convert", error);
    }
  return 0;
}
