/* tw-trace-cache.c: a read trace kept as an image file, so that reopening it maps it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tw-trace-cache.h"
#include "tw-pages.h"
#include "tw-state-model-private.h"
#include "tw-trace-private.h"

/*
 * A cache file is a trace image (tw-trace-image.c: header, chunk c in slot c, index),
 * the state model built on it (tw-state-model-image.c; absent when none was built),
 * and a trailer naming what they were made from:
 *
 *   [image][model section, at a multiple of MODEL_ALIGN][key text]
 *   [guint64 model offset][guint64 model length, 0: none]
 *   [SHA-256 of the image's header and index][guint32 key length][TRAILER_MAGIC]
 *
 * The key is the trace's canonical path, size, modification time and a SHA-256 of its
 * first and last 64 KiB; the file's name is the SHA-256 of the key. A cache file is
 * input like any other: another version of us, a cut write, a full disk or a bit flip
 * may have made it. Everything in it is checked before a row is read (the header and
 * tables by the image, the trailer and every row's references here); a file that fails
 * is removed and the trace read again.
 */

#define TRAILER_MAGIC  "TWCKEY03"
#define DIGEST_BYTES   32
#define TRAILER_BYTES  (16 + DIGEST_BYTES + 12)
#define MODEL_ALIGN    (64 << 10)  /* mapped on its own: a multiple of any page size */
#define IMAGE_HEADER   96   /* the image's ImageHeader */
#define MAX_KEY        (64 << 10)
#define EDGE_BYTES     (64 << 10)
#define CACHE_SUFFIX   ".twcache"
#define TEMP_PREFIX    ".tmp-"
#define DEFAULT_LIMIT  ((guint64) 20 << 30)

struct _TwTraceCache
{
  GObject   parent_instance;
  char     *dir;
  guint64   limit;       /* bytes, 0: automatic */
  GMutex    lock;
  GCond     idle;
  guint     n_pending;   /* stores in background */
  GPtrArray *storing;    /* keys being stored in background */
  gboolean  builds_models;
};

G_DEFINE_FINAL_TYPE (TwTraceCache, tw_trace_cache, G_TYPE_OBJECT)

typedef struct _TempImage TempImage;
static void temp_image_free (TempImage *made);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TempImage, temp_image_free)

static gboolean default_disabled;
static TwTraceCache *default_cache;
static gboolean default_skips_models;

static void
tw_trace_cache_finalize (GObject *object)
{
  TwTraceCache *self = TW_TRACE_CACHE (object);

  tw_trace_cache_wait (self);
  g_free (self->dir);
  g_ptr_array_unref (self->storing);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->idle);
  G_OBJECT_CLASS (tw_trace_cache_parent_class)->finalize (object);
}

static void
tw_trace_cache_class_init (TwTraceCacheClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_trace_cache_finalize;
}

static void
tw_trace_cache_init (TwTraceCache *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->idle);
  self->storing = g_ptr_array_new_with_free_func (g_free);
  self->builds_models = TRUE;
}

void
tw_trace_cache_entry_free (TwTraceCacheEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->file);
  g_free (entry->trace_path);
  g_free (entry);
}

/**
 * tw_trace_cache_new:
 * @dir: (nullable): the cache folder, or %NULL for `$XDG_CACHE_HOME/tracewb/traces`
 *
 * Returns: (transfer full): a cache with the automatic size limit
 */
TwTraceCache *
tw_trace_cache_new (const char *dir)
{
  TwTraceCache *self = g_object_new (TW_TYPE_TRACE_CACHE, NULL);

  self->dir = dir ? g_strdup (dir)
                  : g_build_filename (g_get_user_cache_dir (), "tracewb", "traces", NULL);
  return self;
}

/**
 * tw_trace_cache_set_default_enabled:
 *
 * With %FALSE (`--no-cache`), tw_trace_cache_get_default() gives %NULL from then on.
 */
void
tw_trace_cache_set_default_enabled (gboolean enabled)
{
  g_atomic_int_set (&default_disabled, !enabled);
}

/**
 * tw_trace_cache_set_default_builds_models:
 *
 * tw_trace_cache_set_builds_models() of the user's cache, before or after it is made.
 */
void
tw_trace_cache_set_default_builds_models (gboolean builds)
{
  TwTraceCache *cache = g_atomic_pointer_get (&default_cache);

  g_atomic_int_set (&default_skips_models, !builds);
  if (cache)
    tw_trace_cache_set_builds_models (cache, builds);
}

/**
 * tw_trace_cache_get_default:
 *
 * The user's cache: `$XDG_CACHE_HOME/tracewb/traces`, limited by `TRACEWB_CACHE_LIMIT`
 * (e.g. `5G`) when set. %NULL when `TRACEWB_NO_CACHE=1` is set or
 * tw_trace_cache_set_default_enabled() turned it off.
 *
 * Returns: (transfer none) (nullable): the cache
 */
TwTraceCache *
tw_trace_cache_get_default (void)
{
  const char *no_cache = g_getenv ("TRACEWB_NO_CACHE");

  if (g_atomic_int_get (&default_disabled) || (no_cache && g_strcmp0 (no_cache, "0") != 0 &&
                                               *no_cache != '\0'))
    return NULL;
  if (g_once_init_enter (&default_cache))
    {
      TwTraceCache *made = tw_trace_cache_new (NULL);
      const char *limit = g_getenv ("TRACEWB_CACHE_LIMIT");
      g_autoptr(GError) error = NULL;
      guint64 bytes;

      made->builds_models = !g_atomic_int_get (&default_skips_models);
      if (limit && tw_trace_cache_parse_size (limit, &bytes, &error))
        made->limit = bytes;
      else if (limit)
        g_message ("TRACEWB_CACHE_LIMIT: %s; the automatic limit applies", error->message);
      g_once_init_leave (&default_cache, made);
    }
  return default_cache;
}

/**
 * tw_trace_cache_wait_default:
 *
 * tw_trace_cache_wait() on the user's cache if this process used it (what a program
 * calls before it exits).
 */
void
tw_trace_cache_wait_default (void)
{
  TwTraceCache *cache = g_atomic_pointer_get (&default_cache);

  if (cache)
    tw_trace_cache_wait (cache);
}

/**
 * tw_trace_cache_set_builds_models:
 * @builds: %FALSE: a store writes a state model only when one is offered to it
 *
 * Building the state model takes several times longer than storing the events (about
 * 7 s of 100 M events): a program that builds none itself, as most commands of the
 * CLI, would wait for it before it exits. The file it stores then gets its model from
 * the first process that builds one on the mapped trace, as the window does
 * (tw_trace_cache_offer_state_model()).
 */
void
tw_trace_cache_set_builds_models (TwTraceCache *self,
                                  gboolean      builds)
{
  g_return_if_fail (TW_IS_TRACE_CACHE (self));

  self->builds_models = !!builds;
}

const char *
tw_trace_cache_get_dir (TwTraceCache *self)
{
  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), NULL);

  return self->dir;
}

/**
 * tw_trace_cache_parse_size:
 * @text: bytes, or a number with K, M, G or T (powers of 1024)
 *
 * Returns: %FALSE with @error set when @text is not a size
 */
gboolean
tw_trace_cache_parse_size (const char  *text,
                           guint64     *bytes,
                           GError     **error)
{
  static const char units[] = "KMGT";
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);
  const char *unit;

  if (end == text || value < 0 || !(value < 1e18))
    goto bad;
  if (*end != '\0')
    {
      if (!(unit = strchr (units, g_ascii_toupper (*end))) || *unit == '\0' ||
          (end[1] != '\0' && g_ascii_strcasecmp (end + 1, "iB") != 0 &&
           g_ascii_strcasecmp (end + 1, "B") != 0))
        goto bad;
      for (const char *u = units; u <= unit; u++)
        value *= 1024;
    }
  *bytes = (guint64) value;
  return TRUE;

bad:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "“%s” is not a size (bytes, or a number with K, M, G or T)", text);
  return FALSE;
}

/**
 * tw_trace_cache_set_limit:
 * @bytes: the most the folder may hold, or 0 for the automatic limit
 */
void
tw_trace_cache_set_limit (TwTraceCache *self,
                          guint64       bytes)
{
  g_return_if_fail (TW_IS_TRACE_CACHE (self));

  self->limit = bytes;
}

static guint64
disk_bytes (const GStatBuf *st)
{
  return (guint64) st->st_blocks * 512;
}

/* The bytes the cache files of the folder take. */
static guint64
folder_bytes (TwTraceCache *self)
{
  g_autoptr(GDir) dir = g_dir_open (self->dir, 0, NULL);
  const char *name;
  guint64 total = 0;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *file = g_build_filename (self->dir, name, NULL);
      GStatBuf st;

      if (g_str_has_suffix (name, CACHE_SUFFIX) && g_stat (file, &st) == 0)
        total += disk_bytes (&st);
    }
  return total;
}

/* Free bytes of the file system holding the folder (or its nearest existing parent);
 * TRACEWB_CACHE_FREE (a size) stands for it in tests of a full disk. */
static guint64
free_bytes (const char *dir)
{
  g_autofree char *at = g_strdup (dir);
  const char *injected = g_getenv ("TRACEWB_CACHE_FREE");
  struct statvfs fs;
  guint64 bytes;

  if (injected && tw_trace_cache_parse_size (injected, &bytes, NULL))
    return bytes;

  while (statvfs (at, &fs) != 0)
    {
      char *parent = g_path_get_dirname (at);

      if (strcmp (parent, at) == 0)
        {
          g_free (parent);
          return 0;
        }
      g_free (at);
      at = parent;
    }
  return (guint64) fs.f_bavail * fs.f_frsize;
}

/**
 * tw_trace_cache_get_limit:
 *
 * Returns: the set limit, or the automatic one: a tenth of the space the disk has for the
 *   cache (its free space plus what the cache holds), at most 20 GiB
 */
guint64
tw_trace_cache_get_limit (TwTraceCache *self)
{
  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), 0);

  if (self->limit)
    return self->limit;
  return MIN (DEFAULT_LIMIT, (free_bytes (self->dir) + folder_bytes (self)) / 10);
}

/* Bytes of cache file per byte of trace, without and with the state model (about 22
 * bytes an event), by reader. A S.Ha.R.K. dump's 16-byte records become 24-byte rows:
 * 1.53 (2 450 MB for a 1 600 MB dump), 2.9 with the model (933 MB for 320 MB); a
 * trace.dat's pages hold about what its rows and payloads take: 1.03 (130 MB for
 * 126.5 MB), 3.2 with the model (sched_irq_5s.dat). Text formats spend more bytes per
 * event than the rows. Rounded up: the figure decides whether there is room. */
static const struct {
  const char *format;
  double      alone, with_model;
} file_ratios[] = {
  { "shark", 1.6, 3.0 },
  { "trace-dat", 1.1, 3.3 },
  { "csv", 1.0, 1.6 },
  { "ftrace-text", 1.0, 1.6 },
};

/**
 * tw_trace_cache_estimate_file_bytes:
 * @self: (nullable): the cache, or %NULL for the store alone
 * @format: the reader that will read it
 *
 * What the cache file of the trace at @path will take on disk, about, from the trace's
 * size and format, before it is read: the store's 24 bytes an event and payloads, with
 * the state model when this cache builds one.
 *
 * Returns: bytes; 0 when @path cannot be read
 */
guint64
tw_trace_cache_estimate_file_bytes (TwTraceCache *self,
                                    const char   *path,
                                    const char   *format)
{
  gboolean with_model = self && self->builds_models;
  double ratio = with_model ? 3.3 : 1.6;
  GStatBuf st;

  g_return_val_if_fail (self == NULL || TW_IS_TRACE_CACHE (self), 0);
  g_return_val_if_fail (path != NULL, 0);

  if (g_stat (path, &st) != 0)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (file_ratios); i++)
    if (g_strcmp0 (format, file_ratios[i].format) == 0)
      ratio = with_model ? file_ratios[i].with_model : file_ratios[i].alone;
  return (guint64) ((double) st.st_size * ratio) + (64 << 10);
}

/**
 * tw_trace_cache_check_read_room:
 * @path: a trace about to be read without a cache file (the cache off, or its disk
 *   without room for one)
 * @format: the reader that will read it
 * @store_bytes: (out): what its store will take, about
 *
 * Such a read holds the store in memory and, past the memory budget of big arrays, in
 * unlinked files of the cache folder (tw_pages_open_spill_file()), as the state model's
 * arrays do. A trace bigger than both together cannot be read: the kernel would kill
 * the process partway, taking the window with it. Say so before reading, with the
 * figures.
 *
 * Returns: %FALSE with @error (%G_IO_ERROR_NO_SPACE) when the trace cannot fit
 */
gboolean
tw_trace_cache_check_read_room (const char  *path,
                                const char  *format,
                                guint64     *store_bytes,
                                GError     **error)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "tracewb", NULL);
  guint64 memory = tw_pages_get_memory_limit_bytes ();
  guint64 disk = free_bytes (dir);
  g_autofree char *name = NULL;
  g_autofree char *need_text = NULL, *memory_text = NULL, *disk_text = NULL;

  g_return_val_if_fail (path != NULL && store_bytes != NULL, FALSE);

  *store_bytes = tw_trace_cache_estimate_file_bytes (NULL, path, format);
  if (memory == 0 || *store_bytes <= memory + disk)
    return TRUE;
  name = g_filename_display_name (path);
  need_text = g_format_size (*store_bytes);
  memory_text = g_format_size (memory);
  disk_text = g_format_size (disk);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               _("%s: too large to open here: its events take about %s, more than the %s "
                 "of memory this process may use and the %s free in %s together; free disk "
                 "space there or point XDG_CACHE_HOME at a larger disk"),
               name, need_text, memory_text, disk_text, dir);
  return FALSE;
}

/**
 * tw_trace_cache_check_room:
 * @need: tw_trace_cache_estimate_file_bytes() of a trace
 * @why: (out) (optional): when there is no room, what to tell the user
 *
 * Whether the disk of the folder has room for a cache file of @need bytes. A reader
 * child writes the trace into the cache folder as it reads, and a disk that fills
 * meanwhile ends it: a trace without room is read without the cache.
 *
 * Returns: %TRUE when there is room
 */
gboolean
tw_trace_cache_check_room (TwTraceCache  *self,
                           guint64        need,
                           char         **why)
{
  guint64 available;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), FALSE);

  available = free_bytes (self->dir);
  if (need <= available / 10 * 9)
    return TRUE;
  if (why)
    {
      g_autofree char *needed = g_format_size (need);
      g_autofree char *free_text = g_format_size (available);

      *why = g_strdup_printf (_("not cached: the trace cache needs about %s, %s free on %s"),
                              needed, free_text, self->dir);
    }
  return FALSE;
}

/* ---------------------------------------------------------------- keys */

static gboolean
hash_range (int          fd,
            GChecksum   *sum,
            goffset      from,
            gsize        len)
{
  g_autofree guint8 *buf = g_malloc (MAX (len, 1));
  gsize done = 0;

  while (done < len)
    {
      gssize n = pread (fd, buf + done, len - done, from + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += n;
    }
  g_checksum_update (sum, buf, len);
  return TRUE;
}

/**
 * tw_trace_cache_dup_key:
 * @path: a trace file
 *
 * What says that a trace is still the one a cache file was made from: its canonical path,
 * size, modification time and a SHA-256 of its first and last 64 KiB. Take it before
 * reading the trace, so that a trace written meanwhile does not pass for what was read.
 *
 * Returns: (transfer full) (nullable): the key, or %NULL with @error set (a folder, such
 *   as a CTF trace, has none: its files change without its own time changing)
 */
char *
tw_trace_cache_dup_key (const char  *path,
                        GError     **error)
{
  g_autofree char *real = NULL;
  g_autoptr(GChecksum) sum = NULL;
  struct stat st;
  int fd;
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);

  if (!(real = realpath (path, NULL)) || (fd = open (real, O_RDONLY | O_CLOEXEC)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   "%s: not a regular file (only those are cached)", path);
      return NULL;
    }
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  ok = hash_range (fd, sum, 0, MIN ((goffset) EDGE_BYTES, st.st_size)) &&
       (st.st_size <= EDGE_BYTES ||
        hash_range (fd, sum, MAX ((goffset) EDGE_BYTES, st.st_size - EDGE_BYTES),
                    st.st_size - MAX ((goffset) EDGE_BYTES, st.st_size - EDGE_BYTES)));
  close (fd);
  if (!ok)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot read it to hash it", path);
      return NULL;
    }
  return g_strdup_printf ("tracewb trace cache key 1\npath=%s\nsize=%" G_GINT64_FORMAT
                          "\nmtime=%" G_GINT64_FORMAT ".%09ld\ninode=%" G_GUINT64_FORMAT
                          "\nedges-sha256=%s\n",
                          real, (gint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                          st.st_mtim.tv_nsec, (guint64) st.st_ino,
                          g_checksum_get_string (sum));
}

/* The trace's path as @key names it. */
static char *
key_dup_path (const char *key)
{
  const char *start = strstr (key, "\npath=");
  const char *end;

  if (start == NULL)
    return NULL;
  start += strlen ("\npath=");
  end = strchr (start, '\n');
  return end ? g_strndup (start, end - start) : NULL;
}

/**
 * tw_trace_cache_dup_file_for_key:
 *
 * Returns: (transfer full): the cache file of @key: its SHA-256, in the folder
 */
char *
tw_trace_cache_dup_file_for_key (TwTraceCache *self,
                                 const char   *key)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  g_autofree char *name = g_strconcat (sum, CACHE_SUFFIX, NULL);

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), NULL);

  return g_build_filename (self->dir, name, NULL);
}

/* ---------------------------------------------------------------- reading */

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "trace cache: %s", message);
  return FALSE;
}

static gboolean
read_exact (int       fd,
            gpointer  buf,
            gsize     len,
            goffset   at)
{
  gsize done = 0;

  while (done < len)
    {
      gssize n = pread (fd, (guint8 *) buf + done, len - done, at + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += n;
    }
  return TRUE;
}

typedef struct {
  guint8  digest[DIGEST_BYTES];  /* of the image's header and index */
  guint64 image_end;             /* where the image must end */
  guint64 model_at;
  guint64 model_bytes;           /* 0: no model section */
} Trailer;

/* The key of the trailer at the end of @fd, and what the trailer says of the rest. */
static char *
read_trailer (int       fd,
              guint64   size,
              Trailer  *t,
              GError  **error)
{
  guint8 trailer[TRAILER_BYTES];
  g_autofree char *key = NULL;
  guint64 key_at;
  guint32 len;

  if (size < TRAILER_BYTES || !read_exact (fd, trailer, TRAILER_BYTES, size - TRAILER_BYTES) ||
      memcmp (trailer + 16 + DIGEST_BYTES + 4, TRAILER_MAGIC, 8) != 0)
    {
      invalid (error, "the file does not end with a key (cut, another version, or not a cache file)");
      return NULL;
    }
  memcpy (&t->model_at, trailer, 8);
  memcpy (&t->model_bytes, trailer + 8, 8);
  t->model_at = GUINT64_FROM_LE (t->model_at);
  t->model_bytes = GUINT64_FROM_LE (t->model_bytes);
  memcpy (t->digest, trailer + 16, DIGEST_BYTES);
  memcpy (&len, trailer + 16 + DIGEST_BYTES, 4);
  len = GUINT32_FROM_LE (len);
  if (len == 0 || len > MAX_KEY || len > size - TRAILER_BYTES)
    {
      invalid (error, "its key's length is out of range");
      return NULL;
    }
  key = g_malloc (len + 1);
  if (!read_exact (fd, key, len, size - TRAILER_BYTES - len))
    {
      invalid (error, "cannot read its key");
      return NULL;
    }
  key[len] = '\0';
  if (strlen (key) != len || !g_utf8_validate (key, len, NULL))
    {
      invalid (error, "its key is not text");
      return NULL;
    }
  key_at = size - TRAILER_BYTES - len;
  t->image_end = key_at;
  if (t->model_bytes > 0)
    {
      /* the model lies between the image and the key, aligned: the image ends before it */
      if (t->model_at % MODEL_ALIGN != 0 || t->model_at > key_at ||
          t->model_bytes != key_at - t->model_at || t->model_at < MODEL_ALIGN)
        {
          invalid (error, "its state model section is out of range");
          return NULL;
        }
      t->image_end = t->model_at;
    }
  return g_steal_pointer (&key);
}

/* SHA-256 of an image file's header and index (a few KiB to a few MiB): what the image's
 * own checks could let through there (a changed name, a metadata value) shows. The rows
 * are checked one by one instead (validate_rows): hashing them would read the whole file. */
static gboolean
digest_tables (int      fd,
               guint64  index_at,
               guint64  end,
               guint8   digest[DIGEST_BYTES])
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = DIGEST_BYTES;

  if (end < index_at || !hash_range (fd, sum, 0, IMAGE_HEADER) ||
      !hash_range (fd, sum, index_at, end - index_at))
    return FALSE;
  g_checksum_get_digest (sum, digest, &len);
  return TRUE;
}

typedef struct {
  guint16     payload_size;
  guint16     presence_bytes;
  guint16     n_strings;     /* string fields: their indexes then offsets in @strings */
  guint16    *strings;
} TypeCheck;

/* One row of @chunk: every number that indexes something is in range. */
static inline gboolean
row_is_valid (const TwEventChunk *chunk,
              guint               i,
              const TypeCheck    *types,
              guint               n_types,
              guint32             n_tasks,
              guint32             n_strings)
{
  guint16 type = chunk->type[i];
  guint32 task = chunk->task[i], payload = chunk->payload[i];
  guint16 cpu = chunk->cpu[i];
  const TypeCheck *t;

  if (type >= n_types)
    return FALSE;
  t = &types[type];
  /* the arg of a kind that names a task is not checked: its consumers look it up with
   * tw_trace_get_task(), which gives NULL out of range, and some readers put other
   * numbers there */
  if ((task != TW_TASK_NONE && task >= n_tasks) ||
      (cpu != TW_CPU_NONE && cpu >= chunk->max_cpu_plus_one))
    return FALSE;
  if (payload == TW_PAYLOAD_NONE)
    return TRUE;
  if (payload > chunk->blob_len || chunk->blob_len - payload < t->payload_size)
    return FALSE;
  for (guint s = 0; s < t->n_strings; s++)
    {
      guint field = t->strings[s], offset = t->strings[t->n_strings + s];
      const guint8 *p = chunk->blob + payload;
      guint32 id;

      if (t->presence_bytes && !(p[field / 8] & (1u << (field % 8))))
        continue;
      memcpy (&id, p + offset, 4);
      if (id >= n_strings)
        return FALSE;
    }
  return TRUE;
}

/* What the rows of a mapped cache file are checked against, chunk by chunk. */
typedef struct {
  TypeCheck *types;
  guint      n_types;
  guint32    n_tasks;
  guint32    n_strings;
  guint64   *last_times;   /* each chunk's, from the index (digested) */
  char      *file;         /* removed when a chunk fails, or NULL */
} RowCheck;

static void
row_check_free (gpointer data)
{
  RowCheck *check = data;

  for (guint i = 0; i < check->n_types; i++)
    g_free (check->types[i].strings);
  g_free (check->types);
  g_free (check->last_times);
  g_free (check->file);
  g_free (check);
}

/*
 * Every row of chunk @c: types, tasks, CPUs, payloads and the strings payloads name in
 * range, times in order from the previous chunk's last on, the last one as the index
 * says. The views and evaluators index tables with these without checking (a trace
 * made by a reader is right by construction), so a damaged chunk must stop here: it
 * reads as rows of nothing (tw-trace.c), and the file is removed so that the next open
 * reads the trace again.
 */
static gboolean
check_chunk (TwTrace            *trace,
             const TwEventChunk *chunk,
             guint               c,
             gpointer            data)
{
  RowCheck *check = data;
  guint64 previous = c > 0 ? check->last_times[c - 1] : 0;
  guint bad = G_MAXUINT;

  for (guint i = 0; i < chunk->n && bad == G_MAXUINT; i++)
    {
      if (chunk->time[i] < previous ||
          !row_is_valid (chunk, i, check->types, check->n_types, check->n_tasks, check->n_strings))
        bad = i;
      previous = chunk->time[i];
    }
  if (bad == G_MAXUINT && (chunk->n == 0 || chunk->time[chunk->n - 1] == chunk->last_time))
    return TRUE;
  g_debug ("%s: removed: row %u of chunk %u is out of range or out of order; the chunk reads "
           "as empty rows", check->file ? check->file : "trace cache", bad, c);
  if (check->file)
    g_unlink (check->file);
  return FALSE;
}

/*
 * The rows of a mapped cache, checked without reading them: what the index says of each
 * chunk now (in order, CPUs in range), each chunk's rows when first read (check_chunk();
 * reading every row here would read the whole file: 0.45 s for 100 M events).
 */
static gboolean
prepare_row_checks (TwTrace     *trace,
                    const char  *file,
                    GError     **error)
{
  guint n_types = tw_trace_get_n_event_types (trace);
  guint n_chunks = tw_trace_get_n_chunks (trace);
  RowCheck *check;

  if (n_types == 0 && tw_trace_get_n_events (trace) > 0)
    return invalid (error, "it has rows but no event types");
  check = g_new0 (RowCheck, 1);
  check->types = g_new0 (TypeCheck, MAX (n_types, 1));
  check->n_types = n_types;
  check->n_tasks = tw_trace_get_n_tasks (trace);
  check->n_strings = _tw_trace_get_n_strings (trace);
  check->last_times = g_new0 (guint64, MAX (n_chunks, 1));
  check->file = g_strdup (file);
  for (guint c = 0; c < n_chunks; c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      check->last_times[c] = chunk->last_time;
      if (chunk->max_cpu_plus_one > tw_trace_get_n_cpus (trace) ||
          (c > 0 && chunk->last_time < check->last_times[c - 1]))
        {
          row_check_free (check);
          return invalid (error, "chunk %u does not match the index", c);
        }
    }
  for (guint i = 0; i < n_types; i++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, i);
      TypeCheck *t = &check->types[i];
      guint n = 0;

      *t = (TypeCheck) { type->payload_size, type->presence_bytes, 0, NULL };
      for (guint f = 0; f < type->n_fields; f++)
        n += type->fields[f].type == TW_FIELD_STRING;
      if (n == 0)
        continue;
      t->strings = g_new (guint16, 2 * n);
      for (guint f = 0; f < type->n_fields; f++)
        if (type->fields[f].type == TW_FIELD_STRING)
          {
            t->strings[t->n_strings] = f;
            t->strings[n + t->n_strings++] = type->offsets[f];
          }
    }
  _tw_trace_set_chunk_check (trace, check_chunk, check, row_check_free);
  return TRUE;
}

static guint64
model_offset (guint64 image_end)
{
  return (image_end + MODEL_ALIGN - 1) / MODEL_ALIGN * MODEL_ALIGN;
}

typedef struct {
  gpointer at;
  gsize    len;
} Mapping;

static void
unmap_section (gpointer data)
{
  Mapping *mapping = data;

  munmap (mapping->at, mapping->len);
  g_free (mapping);
}

/* The padding before the state model section (less than MODEL_ALIGN) is as written. */
static gboolean
gap_is_zero (int     fd,
             guint64 from,
             guint64 to)
{
  g_autofree guint8 *gap = g_malloc (MODEL_ALIGN);

  if (to < from || to - from > MODEL_ALIGN || !read_exact (fd, gap, to - from, from))
    return FALSE;
  for (guint64 i = 0; i < to - from; i++)
    if (gap[i] != 0)
      return FALSE;
  return TRUE;
}

/* Maps the state model section of a cache file privately, writable (copy on write:
 * nothing reaches the file), checks it and hands it to @trace. */
static gboolean
map_state_model (TwTrace        *trace,
                 int             fd,
                 const Trailer  *t,
                 GError        **error)
{
  g_autoptr(GBytes) image = NULL;
  gpointer at;

  at = mmap (NULL, t->model_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, (off_t) t->model_at);
  if (at == MAP_FAILED)
    return invalid (error, "cannot map its state model: %s", g_strerror (errno));
  image = g_bytes_new_with_free_func (at, t->model_bytes, unmap_section,
                                      g_memdup2 (&(Mapping) { at, t->model_bytes }, sizeof (Mapping)));
  if (!_tw_state_model_check_image (trace, image, error))
    return FALSE;
  _tw_trace_set_state_image (trace, image);
  return TRUE;
}

static TwTrace *open_checked (int fd, const char *file, char **key, gboolean *has_model,
                              GError **error);

/**
 * tw_trace_cache_open_fd:
 * @fd: a cache file opened for reading; taken
 * @key: (out) (optional): the key it was made for
 *
 * Maps a cache file, read-only, after checking it: trailer, header, tables, chunks and
 * the state model section now; each chunk's rows when first read (a chunk that fails
 * reads as rows of nothing). The file may hold anything.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
TwTrace *
tw_trace_cache_open_fd (int      fd,
                        char   **key,
                        GError **error)
{
  return open_checked (fd, NULL, key, NULL, error);
}

/* tw_trace_cache_open_fd() of @file, which is removed if a chunk fails its check later */
static TwTrace *
open_checked (int          fd,
              const char  *file,
              char       **key,
              gboolean    *has_model,
              GError     **error)
{
  g_autofree char *found = NULL;
  g_autoptr(TwTrace) trace = NULL;
  guint64 index_at = 0, end = 0;
  guint8 digest[DIGEST_BYTES];
  Trailer t = { 0 };
  struct stat st;

  g_return_val_if_fail (fd >= 0, NULL);

  if (fstat (fd, &st) < 0)
    {
      int saved = errno;

      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "trace cache: %s",
                   g_strerror (saved));
      return NULL;
    }
  if (!(found = read_trailer (fd, st.st_size, &t, error)))
    {
      close (fd);
      return NULL;
    }
  if (!(trace = tw_trace_image_open_file (fd, &index_at, &end, error)))
    return NULL;
  /* the trace holds @fd now, open until it goes */
  if (t.model_bytes > 0 ? model_offset (end) != t.model_at : end != t.image_end)
    {
      invalid (error, "its image ends at %" G_GUINT64_FORMAT ", what follows it at %" G_GUINT64_FORMAT,
               end, t.image_end);
      return NULL;
    }
  if (!digest_tables (fd, index_at, end, digest) || memcmp (digest, t.digest, DIGEST_BYTES) != 0)
    {
      invalid (error, "its header or index is not what was written");
      return NULL;
    }
  if (!prepare_row_checks (trace, file, error))
    return NULL;
  if (t.model_bytes > 0 && !(gap_is_zero (fd, end, t.model_at) && map_state_model (trace, fd, &t, error)))
    {
      if (error && *error == NULL)
        invalid (error, "bytes between its image and its state model are not zero");
      return NULL;
    }
  if (key)
    *key = g_steal_pointer (&found);
  if (has_model)
    *has_model = t.model_bytes > 0;
  return g_steal_pointer (&trace);
}

/* On a trace mapped from a cache file without a state model: where the model goes once
 * one is built on the trace. */
typedef struct {
  TwTraceCache *cache;
  char         *key;
} ModelWanted;

static G_DEFINE_QUARK (tw-trace-cache-model-wanted, model_wanted)

static void
model_wanted_free (gpointer data)
{
  ModelWanted *wanted = data;

  g_object_unref (wanted->cache);
  g_free (wanted->key);
  g_free (wanted);
}

static void
want_model (TwTraceCache *self,
            const char   *key,
            TwTrace      *trace)
{
  ModelWanted *wanted = g_new0 (ModelWanted, 1);

  wanted->cache = g_object_ref (self);
  wanted->key = g_strdup (key);
  g_object_set_qdata_full (G_OBJECT (trace), model_wanted_quark (), wanted, model_wanted_free);
}

static void start_store (TwTraceCache *self, const char *key, TwTrace *trace,
                         TwStateModel *model);

/**
 * tw_trace_cache_lookup:
 * @key: tw_trace_cache_dup_key() of the trace
 * @format: (nullable): the reader asked for, or %NULL for any
 *
 * The trace @key names, mapped from its cache file. A cache file that fails a check
 * (another version, cut, damaged, made for another key) is removed.
 *
 * Returns: (transfer full) (nullable): the trace; %NULL without @error when there is no
 *   cache file, with @error saying why one was refused
 */
TwTrace *
tw_trace_cache_lookup (TwTraceCache  *self,
                       const char    *key,
                       const char    *format,
                       GError       **error)
{
  g_autofree char *file = NULL;
  g_autofree char *found = NULL;
  g_autofree char *reader = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) local = NULL;
  gboolean has_model = FALSE;
  int fd;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  file = tw_trace_cache_dup_file_for_key (self, key);
  if ((fd = open (file, O_RDONLY | O_CLOEXEC)) < 0)
    return NULL;
  if (!(trace = open_checked (fd, file, &found, &has_model, &local)) || strcmp (found, key) != 0)
    {
      if (local == NULL)
        invalid (&local, "made for another trace");
      g_debug ("%s: removed: %s", file, local->message);
      g_prefix_error (&local, "%s: ", file);
      g_propagate_error (error, g_steal_pointer (&local));
      g_unlink (file);
      return NULL;
    }
  reader = tw_trace_dup_metadata (trace, "format");
  if (format && g_strcmp0 (reader, format) != 0)
    return NULL;
  /* its modification time says when it was last used: the oldest goes first */
  utimensat (AT_FDCWD, file, NULL, 0);
  if (!has_model)
    want_model (self, key, trace);
  return g_steal_pointer (&trace);
}

/* ---------------------------------------------------------------- writing */

/* What the cache file of @trace will take on disk, about. */
static guint64
estimate_bytes (TwTrace *trace)
{
  guint64 bytes = 64 << 10;

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      bytes += (guint64) chunk->n * 24 + chunk->blob_len + 8192;
    }
  return bytes;
}

static gint
compare_oldest_first (gconstpointer a,
                      gconstpointer b)
{
  const TwTraceCacheEntry *x = *(TwTraceCacheEntry **) a, *y = *(TwTraceCacheEntry **) b;

  return (x->last_used > y->last_used) - (x->last_used < y->last_used);
}

static gint
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  return compare_oldest_first (b, a);
}

/* Removes the other cache files of the trace @key names (the trace changed since they
 * were made), then the oldest files until the folder fits its limit; never @keep. */
static void
tidy_folder (TwTraceCache *self,
             const char   *key,
             const char   *keep)
{
  g_autoptr(GPtrArray) entries = tw_trace_cache_list (self, NULL);
  g_autofree char *path = key_dup_path (key);
  guint64 limit = tw_trace_cache_get_limit (self);
  guint64 total = 0;

  if (entries == NULL)
    return;
  for (guint i = 0; i < entries->len; i++)
    {
      TwTraceCacheEntry *entry = entries->pdata[i];

      if (strcmp (entry->file, keep) != 0 && g_strcmp0 (entry->trace_path, path) == 0)
        {
          g_unlink (entry->file);
          g_ptr_array_remove_index (entries, i--);
        }
      else
        total += entry->disk_bytes;
    }
  g_ptr_array_sort (entries, compare_oldest_first);
  for (guint i = 0; i < entries->len && total > limit; i++)
    {
      TwTraceCacheEntry *entry = entries->pdata[i];

      if (strcmp (entry->file, keep) == 0)
        continue;
      g_debug ("%s: evicted (the folder holds more than %" G_GUINT64_FORMAT " bytes)",
               entry->file, limit);
      g_unlink (entry->file);
      total -= entry->disk_bytes;
    }
}

/* A store in background, and the whole state model offered to it (by the window, which
 * builds one anyway) before it comes to write the model. */
typedef struct {
  TwTraceCache *cache;
  char         *key;
  TwTrace      *trace;
  TwStateModel *model;   /* offered, under G_LOCK (offers) */
  gboolean      closed;  /* no longer takes an offer */
} StoreJob;

G_LOCK_DEFINE_STATIC (offers);

static gboolean store_file (TwTraceCache *self, const char *key, TwTrace *trace,
                            StoreJob *job, TwStateModel *model, gboolean build_model,
                            GError **error);
static GPtrArray *pending_jobs;   /* StoreJob, under G_LOCK (offers) */

/**
 * tw_trace_cache_offer_state_model:
 * @model: a whole state model of a sealed trace, no longer updated
 *
 * Gives @model to a store of its trace in background, if one is going on and has not yet
 * written its model: it then writes this one rather than building its own. A trace
 * mapped from a cache file without a model has its file stored again, with @model, in
 * background. tw_state_model_update() calls it once a whole model is complete.
 */
void
tw_trace_cache_offer_state_model (TwStateModel *model)
{
  TwTrace *trace;
  ModelWanted *wanted;
  gboolean taken = FALSE;

  g_return_if_fail (TW_IS_STATE_MODEL (model));

  trace = tw_state_model_get_trace (model);
  G_LOCK (offers);
  for (guint i = 0; pending_jobs && i < pending_jobs->len; i++)
    {
      StoreJob *job = pending_jobs->pdata[i];

      if (job->trace == trace && !job->closed && job->model == NULL)
        {
          job->model = g_object_ref (model);
          taken = TRUE;
        }
    }
  G_UNLOCK (offers);
  if (taken || !(wanted = g_object_steal_qdata (G_OBJECT (trace), model_wanted_quark ())))
    return;
  start_store (wanted->cache, wanted->key, trace, model);
  model_wanted_free (wanted);
}

/**
 * tw_trace_cache_store:
 * @key: tw_trace_cache_dup_key() of the trace, taken before it was read
 * @trace: the sealed trace read from it
 *
 * Writes @trace's cache file, with the state model built for it: a temporary file renamed into place once complete, so that
 * a reader never sees half of one. Then removes the trace's earlier cache files and the
 * oldest others until the folder is within its limit. A trace larger than the limit, or
 * than nine tenths of what the disk has free, is not stored (%TRUE: nothing failed).
 *
 * Returns: %FALSE with @error set when the folder or file cannot be written
 */
gboolean
tw_trace_cache_store (TwTraceCache  *self,
                      const char    *key,
                      TwTrace       *trace,
                      GError       **error)
{
  return store_file (self, key, trace, NULL, NULL, TRUE, error);
}

/**
 * tw_trace_cache_store_with_model:
 * @model: (nullable): the whole state model of @trace, or %NULL to store the trace alone
 *
 * tw_trace_cache_store() with @model's arrays in the file rather than a model built for
 * it; a reopen maps them instead of building the model.
 *
 * Returns: %FALSE with @error set when the folder or file cannot be written
 */
gboolean
tw_trace_cache_store_with_model (TwTraceCache  *self,
                                 const char    *key,
                                 TwTrace       *trace,
                                 TwStateModel  *model,
                                 GError       **error)
{
  g_return_val_if_fail (model == NULL || tw_state_model_get_trace (model) == trace, FALSE);

  return store_file (self, key, trace, NULL, model, FALSE, error);
}

/* The whole model of @trace to write beside it: @model, else the one offered to @job
 * while the store was written, else one built here when @build. */
static TwStateModel *
model_to_store (TwTrace      *trace,
                StoreJob     *job,
                TwStateModel *model,
                gboolean      build)
{
  g_autoptr(TwStateModel) built = NULL;

  if (model)
    return g_object_ref (model);
  if (job)
    {
      G_LOCK (offers);
      job->closed = TRUE;
      model = g_steal_pointer (&job->model);
      G_UNLOCK (offers);
      if (model)
        return model;
    }
  if (!build)
    return NULL;
  built = tw_state_model_new (trace);
  if (!tw_state_model_update (built, NULL, NULL))
    return NULL;
  return g_steal_pointer (&built);
}

/* A cache file being made: a reader wrote the trace's image into it, and the trace maps
 * it (tw_trace_cache_open_temp()). Storing the trace adds the state model, key and
 * trailer and renames it into place; a trace that goes without being stored takes the
 * file with it. */
struct _TempImage {
  TwTraceCache *cache;
  char         *temp;
  int           fd;         /* read and write: the store appends to it */
  guint64       index_at;
  guint64       end;
};

static G_DEFINE_QUARK (tw-trace-cache-temp-image, temp_image)

static void
temp_image_free (TempImage *made)
{
  if (made->fd >= 0)
    close (made->fd);
  if (made->temp)
    g_unlink (made->temp);
  g_object_unref (made->cache);
  g_free (made->temp);
  g_free (made);
}

/* The temporary file @trace maps, if it was made in @self's folder. */
static TempImage *
take_temp_image (TwTraceCache *self,
                 TwTrace      *trace)
{
  TempImage *made = g_object_steal_qdata (G_OBJECT (trace), temp_image_quark ());

  if (made && strcmp (made->cache->dir, self->dir) != 0)
    {
      temp_image_free (made);
      return NULL;
    }
  return made;
}

/**
 * tw_trace_cache_make_temp:
 * @temp: (out): the file's path
 *
 * Makes the folder if need be and an empty temporary file in it, the name of which
 * `cache clear` knows (a program killed before the file was renamed leaves it).
 *
 * Returns: the file opened for reading and writing, or -1 with @error set
 */
int
tw_trace_cache_make_temp (TwTraceCache  *self,
                          char         **temp,
                          GError       **error)
{
  g_autofree char *path = NULL;
  int fd;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), -1);

  if (g_mkdir_with_parents (self->dir, 0700) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: cannot make the trace cache folder: %s", self->dir, g_strerror (saved));
      return -1;
    }
  path = g_build_filename (self->dir, TEMP_PREFIX "XXXXXX", NULL);
  if ((fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: cannot make a file in the trace cache: %s", self->dir, g_strerror (saved));
      return -1;
    }
  *temp = g_steal_pointer (&path);
  return fd;
}

/**
 * tw_trace_cache_open_temp:
 * @fd: a file of tw_trace_cache_make_temp() into which a writer of
 *   tw_trace_image_new_for_fd() published a trace; taken
 * @temp: its path; removed when the file is refused, or when the trace goes without
 *   having been stored
 *
 * Maps the trace of @temp read-only (tw_trace_image_open_file(): header, tables and every
 * chunk's place checked against the file), so that tw_trace_cache_store() of it only
 * appends to the file and renames it: the rows are not written twice.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
TwTrace *
tw_trace_cache_open_temp (TwTraceCache  *self,
                          int            fd,
                          const char    *temp,
                          GError       **error)
{
  TempImage *made;
  TwTrace *trace;
  int mapped_fd;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), NULL);
  g_return_val_if_fail (fd >= 0 && temp != NULL, NULL);

  made = g_new0 (TempImage, 1);
  made->cache = g_object_ref (self);
  made->temp = g_strdup (temp);
  made->fd = fd;
  if ((mapped_fd = fcntl (fd, F_DUPFD_CLOEXEC, 0)) < 0)
    {
      int saved = errno;

      temp_image_free (made);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", temp,
                   g_strerror (saved));
      return NULL;
    }
  if (!(trace = tw_trace_image_open_file (mapped_fd, &made->index_at, &made->end, error)))
    {
      temp_image_free (made);
      return NULL;
    }
  g_object_set_qdata_full (G_OBJECT (trace), temp_image_quark (), made,
                           (GDestroyNotify) temp_image_free);
  return trace;
}

/**
 * tw_trace_cache_keep_temp:
 * @key: tw_trace_cache_dup_key() of the trace, taken before it was read
 * @trace: the sealed trace a writer of tw_trace_image_new_for_fd() made in @temp and
 *   published; it maps the file (the trace shown as it was read stays the one shown)
 * @fd: the file of tw_trace_cache_make_temp(); taken
 * @temp: its path; removed when @trace goes without having been stored
 * @index_at: @end: where the image's index starts and ends (tw_trace_image_publish())
 *
 * As tw_trace_cache_open_temp(), for the trace that wrote the file rather than another
 * mapping it: its store only appends to the file and renames it. The one who shows
 * @trace builds its whole state model anyway, so the store waits for it:
 * tw_trace_cache_offer_state_model() of that model, once the load returned @trace,
 * stores both in background (a model offered before this call is not seen). A trace
 * that goes before, a window closed or a load cancelled while the model was built,
 * takes the file with it.
 */
void
tw_trace_cache_keep_temp (TwTraceCache *self,
                          const char   *key,
                          TwTrace      *trace,
                          int           fd,
                          const char   *temp,
                          guint64       index_at,
                          guint64       end)
{
  TempImage *made;

  g_return_if_fail (TW_IS_TRACE_CACHE (self));
  g_return_if_fail (key != NULL && TW_IS_TRACE (trace) && tw_trace_is_sealed (trace));
  g_return_if_fail (fd >= 0 && temp != NULL);

  made = g_new0 (TempImage, 1);
  made->cache = g_object_ref (self);
  made->temp = g_strdup (temp);
  made->fd = fd;
  made->index_at = index_at;
  made->end = end;
  g_object_set_qdata_full (G_OBJECT (trace), temp_image_quark (), made,
                           (GDestroyNotify) temp_image_free);
  want_model (self, key, trace);
}

static gboolean
store_file (TwTraceCache  *self,
            const char    *key,
            TwTrace       *trace,
            StoreJob      *job,
            TwStateModel  *model,
            gboolean       build_model,
            GError       **error)
{
  g_autoptr(TwStateModel) stored = NULL;
  g_autoptr(TempImage) made = NULL;
  guint64 model_at = 0, model_bytes = 0;
  struct stat st;
  g_autofree char *file = NULL;
  g_autofree char *temp = NULL;
  guint64 need, index_at = 0, end = 0;
  guint8 trailer[TRAILER_BYTES];
  guint32 key_len;
  gboolean ok;
  int fd;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), FALSE);
  g_return_val_if_fail (key != NULL && TW_IS_TRACE (trace), FALSE);

  made = take_temp_image (self, trace);
  need = made ? 0 : estimate_bytes (trace);
  if (need > tw_trace_cache_get_limit (self) || need > free_bytes (self->dir) / 10 * 9 ||
      (made && estimate_bytes (trace) > tw_trace_cache_get_limit (self)))
    {
      g_debug ("not caching a trace of %" G_GUINT64_FORMAT " bytes: over the limit or the "
               "free space of %s", estimate_bytes (trace), self->dir);
      return TRUE;
    }
  file = tw_trace_cache_dup_file_for_key (self, key);
  if (made)
    {
      /* the reader wrote the rows into this file already: only the trailer is missing */
      temp = g_steal_pointer (&made->temp);
      fd = made->fd;
      made->fd = -1;
      index_at = made->index_at;
      end = made->end;
    }
  else if ((fd = tw_trace_cache_make_temp (self, &temp, error)) < 0)
    return FALSE;
  key_len = strlen (key);
  ok = (made || tw_trace_image_write_file (trace, fd, &index_at, &end, error)) &&
       digest_tables (fd, index_at, end, trailer + 16);
  if (ok && (stored = model_to_store (trace, job, model, build_model)))
    {
      model_at = model_offset (end);
      ok = _tw_state_model_write_image (stored, fd, model_at, &model_bytes, error);
      end = model_at + model_bytes;
    }
  memcpy (trailer, &(guint64) { GUINT64_TO_LE (model_bytes ? model_at : 0) }, 8);
  memcpy (trailer + 8, &(guint64) { GUINT64_TO_LE (model_bytes) }, 8);
  memcpy (trailer + 16 + DIGEST_BYTES, &(guint32) { GUINT32_TO_LE (key_len) }, 4);
  memcpy (trailer + 16 + DIGEST_BYTES + 4, TRAILER_MAGIC, 8);
  ok = ok && pwrite (fd, key, key_len, end) == (gssize) key_len &&
       pwrite (fd, trailer, TRAILER_BYTES, end + key_len) == TRAILER_BYTES;
  /* the estimate did not know the model: a file over the limit after all is not kept */
  if (ok && stored && fstat (fd, &st) == 0 && (guint64) st.st_blocks * 512 > tw_trace_cache_get_limit (self))
    {
      g_debug ("not caching a trace of %" G_GUINT64_FORMAT " bytes with its model: over the "
               "limit of %s", (guint64) st.st_blocks * 512, self->dir);
      close (fd);
      g_unlink (temp);
      return TRUE;
    }
  if (ok && close (fd) == 0 && g_rename (temp, file) == 0)
    {
      tidy_folder (self, key, file);
      return TRUE;
    }
  if (error && *error == NULL)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: cannot write the trace cache file: %s", file, g_strerror (saved));
    }
  if (!ok)
    close (fd);
  g_unlink (temp);
  return FALSE;
}


static gpointer
store_thread (gpointer data)
{
  StoreJob *job = data;
  g_autoptr(GError) error = NULL;

  /* The window builds its state model meanwhile: on a machine of two cores it comes
   * first (the nice value of Linux is per thread). A program whose cache builds no
   * models (the CLI) waits for this file before it exits: a nice thread would only make
   * it wait longer on a busy machine. */
  if (job->cache->builds_models)
    setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10);
  if (!store_file (job->cache, job->key, job->trace, job, NULL, job->cache->builds_models, &error))
    g_debug ("%s", error->message);

  G_LOCK (offers);
  g_ptr_array_remove_fast (pending_jobs, job);
  job->closed = TRUE;
  g_clear_object (&job->model);
  G_UNLOCK (offers);

  g_mutex_lock (&job->cache->lock);
  for (guint i = 0; i < job->cache->storing->len; i++)
    if (strcmp (job->cache->storing->pdata[i], job->key) == 0)
      {
        g_ptr_array_remove_index_fast (job->cache->storing, i);
        break;
      }
  job->cache->n_pending--;
  g_cond_broadcast (&job->cache->idle);
  g_mutex_unlock (&job->cache->lock);

  g_object_unref (job->trace);
  g_object_unref (job->cache);
  g_free (job->key);
  g_free (job);
  return NULL;
}

/**
 * tw_trace_cache_store_in_background:
 *
 * tw_trace_cache_store() in a thread of its own at a lower priority, holding @trace; a
 * trace already being stored is not stored twice. tw_trace_cache_wait() waits for it.
 */
void
tw_trace_cache_store_in_background (TwTraceCache *self,
                                    const char   *key,
                                    TwTrace      *trace)
{
  g_return_if_fail (TW_IS_TRACE_CACHE (self));
  g_return_if_fail (key != NULL && TW_IS_TRACE (trace));

  start_store (self, key, trace, NULL);
}

/* A store of @trace in background, with @model (else the one offered, or built). */
static void
start_store (TwTraceCache *self,
             const char   *key,
             TwTrace      *trace,
             TwStateModel *model)
{
  StoreJob *job;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->storing->len; i++)
    if (strcmp (self->storing->pdata[i], key) == 0)
      {
        g_mutex_unlock (&self->lock);
        return;
      }
  g_ptr_array_add (self->storing, g_strdup (key));
  self->n_pending++;
  g_mutex_unlock (&self->lock);

  job = g_new0 (StoreJob, 1);
  job->cache = g_object_ref (self);
  job->key = g_strdup (key);
  job->trace = g_object_ref (trace);
  job->model = model ? g_object_ref (model) : NULL;
  G_LOCK (offers);
  if (pending_jobs == NULL)
    pending_jobs = g_ptr_array_new ();
  g_ptr_array_add (pending_jobs, job);
  G_UNLOCK (offers);
  g_thread_unref (g_thread_new ("tw-trace-cache", store_thread, job));
}

/**
 * tw_trace_cache_wait:
 *
 * Waits for the stores in background to finish (a program waits before it exits, or its
 * cache files would be left half written, as temporary files).
 */
void
tw_trace_cache_wait (TwTraceCache *self)
{
  g_return_if_fail (TW_IS_TRACE_CACHE (self));

  g_mutex_lock (&self->lock);
  while (self->n_pending > 0)
    g_cond_wait (&self->idle, &self->lock);
  g_mutex_unlock (&self->lock);
}

/* ---------------------------------------------------------------- the folder */

/* The state of the trace @key names against its current key. */
static const char *
key_state (const char *key)
{
  g_autofree char *path = key_dup_path (key);
  g_autofree char *now = NULL;

  if (path == NULL)
    return "unreadable";
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return "missing";
  now = tw_trace_cache_dup_key (path, NULL);
  return g_strcmp0 (now, key) == 0 ? "current" : "stale";
}

/**
 * tw_trace_cache_list:
 *
 * Returns: (transfer container) (element-type TwTraceCacheEntry): the cache files, the
 *   most recently used first; %NULL with @error set when the folder cannot be read (a
 *   folder not made yet is empty)
 */
GPtrArray *
tw_trace_cache_list (TwTraceCache  *self,
                     GError       **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) tw_trace_cache_entry_free);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local = NULL;
  const char *name;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), NULL);

  if (!(dir = g_dir_open (self->dir, 0, &local)))
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&entries);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  while ((name = g_dir_read_name (dir)))
    {
      TwTraceCacheEntry *entry;
      g_autofree char *key = NULL;
      Trailer t;
      GStatBuf st;
      int fd;

      if (!g_str_has_suffix (name, CACHE_SUFFIX))
        continue;
      entry = g_new0 (TwTraceCacheEntry, 1);
      entry->file = g_build_filename (self->dir, name, NULL);
      entry->state = "unreadable";
      if (g_stat (entry->file, &st) == 0)
        {
          entry->disk_bytes = disk_bytes (&st);
          entry->last_used = (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
        }
      if ((fd = open (entry->file, O_RDONLY | O_CLOEXEC)) >= 0)
        {
          if ((key = read_trailer (fd, st.st_size, &t, NULL)))
            {
              entry->trace_path = key_dup_path (key);
              entry->state = key_state (key);
            }
          close (fd);
        }
      g_ptr_array_add (entries, entry);
    }
  g_ptr_array_sort (entries, compare_newest_first);
  return g_steal_pointer (&entries);
}

/**
 * tw_trace_cache_clear:
 * @freed: (out) (optional): the bytes the removed files took
 *
 * Removes every cache file of the folder, and temporary files a killed program left.
 * Traces mapped from them stay readable (a removed file lives while it is mapped).
 *
 * Returns: how many files were removed; 0 with @error set when the folder cannot be read
 */
guint
tw_trace_cache_clear (TwTraceCache  *self,
                      guint64       *freed,
                      GError       **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local = NULL;
  const char *name;
  guint64 bytes = 0;
  guint n = 0;

  g_return_val_if_fail (TW_IS_TRACE_CACHE (self), 0);

  if (freed)
    *freed = 0;
  if (!(dir = g_dir_open (self->dir, 0, &local)))
    {
      if (!g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_propagate_error (error, g_steal_pointer (&local));
      return 0;
    }
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *file = g_build_filename (self->dir, name, NULL);
      GStatBuf st;

      if (!g_str_has_suffix (name, CACHE_SUFFIX) && !g_str_has_prefix (name, TEMP_PREFIX))
        continue;
      if (g_stat (file, &st) == 0 && g_unlink (file) == 0)
        {
          bytes += disk_bytes (&st);
          n++;
        }
    }
  if (freed)
    *freed = bytes;
  return n;
}
