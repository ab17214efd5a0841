/* tw-reader.h: a trace file reader, described by one TwReaderInfo
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

#define TW_READER_ERROR (tw_reader_error_quark ())

typedef enum {
  TW_READER_ERROR_UNKNOWN_FORMAT, /* no reader recognises the file */
  TW_READER_ERROR_TRUNCATED,      /* the file ends inside a record */
  TW_READER_ERROR_INVALID,        /* bad data at a named line or offset */
  TW_READER_ERROR_UNSUPPORTED,    /* the format's support was not built in */
  TW_READER_ERROR_LIBRARY_FAILED, /* the library reading the file crashed or quit */
} TwReaderError;

GQuark tw_reader_error_quark (void);

/* A parser of a format read from memory: TwReaderInfo.parse. Its entry points are
 * declared with it ("TwReaderParseFunc _tw_csv_parse_buffer;"). */
typedef gboolean TwReaderParseFunc (TwTrace         *trace,
                                    const char      *path,
                                    const char      *data,
                                    gsize            len,
                                    TwProgressFunc   progress,
                                    gpointer         progress_data,
                                    GCancellable    *cancellable,
                                    GError         **error);

/**
 * TwReaderInfo:
 * @name: a short stable name ("shark", "csv", "ftrace-text"), used by `--format` and to
 *   name the reader to a reader process
 * @label: what users call the format ("trace.dat"), listed when no reader knows a file
 * @description: one line for users
 * @suffixes: (nullable) (array zero-terminated=1): the endings of the format's file names,
 *   without the dot ("dat"); between readers equally sure of a file, the one whose suffix
 *   the file has wins
 * @file_names: (nullable) (array zero-terminated=1): whole names a file of the format
 *   has whatever its folder ("metadata": a CTF trace opens through its metadata file),
 *   for the Open dialog's filter
 * @probe: how sure the reader is that the file is its format, from 0 (not mine) to 100
 *   (certain), given the file's first bytes (@head, up to 64 KiB; for a folder, those of
 *   its `metadata` file, if any)
 * @read: (nullable): appends the file's events to @trace, calling @progress now and then
 *   from the calling thread; checks @cancellable every few thousand records. %NULL when
 *   @parse does the reading, or when the library the reader needs was not built in: the
 *   probe still knows the format, and reading says which package to install
 * @parse: (nullable): for a format parsed from the file's bytes in memory, instead of
 *   @read: appends the events of @data (the file, mapped; @path names it in errors)
 *   as @read does. Fuzz targets and tests call it on a buffer
 * @get_library: (nullable): the outside library the reader is built on, with its version
 *   ("libbabeltrace2 2.0.4"), or %NULL for readers of our own; such readers can be run in
 *   a child process (tw-reader-process.h)
 * @build_package: (nullable): the package that builds the reader's library in
 *   ("libtracecmd-dev"), named when @read is %NULL
 *
 * All a reader is: a file with its parser and one constant TwReaderInfo, added to the
 * registry's list of built-in readers (or with tw_reader_registry_add()). See
 * docs/readers.md.
 */
typedef struct {
  const char         *name;
  const char         *label;
  const char         *description;
  const char * const *suffixes;
  const char * const *file_names;
  guint             (*probe)       (const char      *path,
                                    const guint8    *head,
                                    gsize            head_len);
  gboolean          (*read)        (const char      *path,
                                    TwTrace         *trace,
                                    TwProgressFunc   progress,
                                    gpointer         progress_data,
                                    GCancellable    *cancellable,
                                    GError         **error);
  TwReaderParseFunc  *parse;
  const char       *(*get_library) (void);
  const char         *build_package;
} TwReaderInfo;

#define TW_TYPE_READER (tw_reader_get_type ())
G_DECLARE_FINAL_TYPE (TwReader, tw_reader, TW, READER, GObject)

TwReader   *tw_reader_new             (const TwReaderInfo *info);
const TwReaderInfo *tw_reader_get_info (TwReader       *self);
const char *tw_reader_get_name        (TwReader        *self);
const char *tw_reader_get_library     (TwReader        *self);
guint       tw_reader_probe           (TwReader        *self,
                                       const char      *path,
                                       const guint8    *head,
                                       gsize            head_len);
gboolean    tw_reader_read            (TwReader        *self,
                                       const char      *path,
                                       TwTrace         *trace,
                                       TwProgressFunc   progress,
                                       gpointer         progress_data,
                                       GCancellable    *cancellable,
                                       GError         **error);

/* Errors name the file and where in it: "FILE: line N: …" or "FILE: offset N: …". */
void        tw_reader_set_error_at_line   (GError     **error,
                                           TwReaderError code,
                                           const char  *path,
                                           guint64      line,
                                           const char  *format,
                                           ...) G_GNUC_PRINTF (5, 6);
void        tw_reader_set_error_at_offset (GError     **error,
                                           TwReaderError code,
                                           const char  *path,
                                           guint64      offset,
                                           const char  *format,
                                           ...) G_GNUC_PRINTF (5, 6);

G_END_DECLS
