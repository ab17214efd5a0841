/* tw-reader-process.c: reading a file in a child process, into a shared store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-reader-process.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tw-pages.h"
#include "tw-reader-registry.h"

/*
 * Readers built on outside libraries (libbabeltrace2, libtracecmd) can abort, crash or
 * run out of memory on files that look valid; in our process that would take every open
 * trace and unsaved automaton with it. So such a file is read by a helper process,
 * `tracewb-reader`, exec'd fresh (a fork of a GTK process would inherit its threads'
 * locks): it runs the reader into a trace whose chunks live in a shared memory file
 * (TwTraceImage), and we map that file once the child says it is done. Rows never cross
 * a pipe. What does cross, on the status pipe, one line each:
 *
 *   progress PERMILLE          coarse: at most every 30 ms, and the end
 *   error DOMAIN CODE MESSAGE  the reader's GError, MESSAGE escaped as g_strescape() does
 *   done                       the image holds the sealed trace
 *
 * The child's stdout and stderr go to a second pipe whose last part we keep: when the
 * child dies, its library's last words go into the one error the user sees. When it
 * succeeds, what it wrote goes to our stderr, as it would have in-process.
 *
 * For tests, TRACEWB_READER_TEST_HOOK makes the helper die or hang at its first progress
 * report: "kill-after-progress" (SIGKILL, as the out-of-memory killer does) or
 * "stall-after-progress" (until it is killed).
 */

#define IMAGE_FD      3
#define STATUS_FD     4
#define OUTPUT_KEEP   (64 * 1024)
#define LAST_WORDS    400
#define TEST_HOOK_ENV "TRACEWB_READER_TEST_HOOK"

/* ---------------------------------------------------------------- finding the helper */

static char *
executable_in (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, TW_READER_HELPER_NAME, NULL);

  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) ? g_steal_pointer (&path) : NULL;
}

/**
 * tw_reader_process_dup_helper_path:
 *
 * Where the helper is: $TRACEWB_READER_HELPER, else beside the running program (the build
 * tree, where tracewb and tracewb-cli are built next to it), else the installed libexecdir.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL with @error saying where it looked
 */
char *
tw_reader_process_dup_helper_path (GError **error)
{
  const char *env = g_getenv (TW_READER_HELPER_ENV);
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *self_dir = self_exe ? g_path_get_dirname (self_exe) : NULL;
  char *path;

  if (env && *env)
    {
      if (g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
        return g_strdup (env);
      g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED,
                   _("%s=%s: no such program"), TW_READER_HELPER_ENV, env);
      return NULL;
    }
  if (self_dir && (path = executable_in (self_dir)))
    return path;
  if ((path = executable_in (TW_LIBEXECDIR)))
    return path;
  g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED,
               _("the reader helper %s is in neither %s nor %s (reinstall Trace Workbench, "
                 "or set %s)"),
               TW_READER_HELPER_NAME, TW_LIBEXECDIR, self_dir ? self_dir : "-",
               TW_READER_HELPER_ENV);
  return NULL;
}

/* ---------------------------------------------------------------- the parent */

typedef struct {
  GPid            pid;
  int             status_fd;
  int             output_fd;
  GString        *status;       /* bytes of the status pipe not yet a whole line */
  GByteArray     *output;       /* what the child wrote, its last OUTPUT_KEEP bytes */
  gboolean        done;
  GError         *reported;     /* the reader's own error, from an `error` line */
  TwProgressFunc  progress;
  gpointer        progress_data;
} Child;

static void
child_clear (Child *child)
{
  if (child->status_fd >= 0)
    close (child->status_fd);
  if (child->output_fd >= 0)
    close (child->output_fd);
  g_string_free (child->status, TRUE);
  g_byte_array_unref (child->output);
  g_clear_error (&child->reported);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Child, child_clear)

static void
handle_status_line (Child      *child,
                    const char *line)
{
  g_auto(GStrv) parts = NULL;

  if (g_str_has_prefix (line, "progress "))
    {
      if (child->progress)
        child->progress (MIN (g_ascii_strtoull (line + 9, NULL, 10), 1000) / 1000.0,
                         child->progress_data);
    }
  else if (strcmp (line, "done") == 0)
    child->done = TRUE;
  else if (g_str_has_prefix (line, "error ") &&
           g_strv_length (parts = g_strsplit (line + 6, " ", 3)) == 3 &&
           child->reported == NULL)
    {
      g_autofree char *message = g_strcompress (parts[2]);

      child->reported = g_error_new_literal (g_quark_from_string (parts[0]),
                                             (int) g_ascii_strtoll (parts[1], NULL, 10),
                                             message);
    }
}

static void
take_status (Child        *child,
             const guint8 *data,
             gsize         len)
{
  char *nl;

  g_string_append_len (child->status, (const char *) data, len);
  while ((nl = memchr (child->status->str, '\n', child->status->len)))
    {
      *nl = '\0';
      handle_status_line (child, child->status->str);
      g_string_erase (child->status, 0, nl + 1 - child->status->str);
    }
}

static void
take_output (Child        *child,
             const guint8 *data,
             gsize         len)
{
  g_byte_array_append (child->output, data, len);
  if (child->output->len > OUTPUT_KEEP)
    g_byte_array_remove_range (child->output, 0, child->output->len - OUTPUT_KEEP / 2);
}

/* Reads what is there on @fd; closes it at the end of the pipe. */
static void
drain (Child    *child,
       int      *fd,
       gboolean  is_status)
{
  guint8 buf[16384];
  gssize n;

  do
    n = read (*fd, buf, sizeof buf);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    {
      close (*fd);
      *fd = -1;
    }
  else if (is_status)
    take_status (child, buf, n);
  else
    take_output (child, buf, n);
}

static int
wait_for (GPid pid)
{
  int status = 0;

  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return status;
}

/*
 * Follows the child until both its pipes end, then reaps it; on cancel, kills it (that
 * pid, nothing else) first. Returns its wait status; *cancelled says whether we killed it.
 */
static int
follow (Child        *child,
        GCancellable *cancellable,
        gboolean     *cancelled)
{
  int cancel_fd = g_cancellable_get_fd (cancellable);

  *cancelled = FALSE;
  while (child->status_fd >= 0 || child->output_fd >= 0)
    {
      struct pollfd fds[3] = {
        { child->status_fd, POLLIN, 0 },
        { child->output_fd, POLLIN, 0 },
        { *cancelled ? -1 : cancel_fd, POLLIN, 0 },
      };

      if (poll (fds, 3, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          /* cannot follow it any more: it must not run on unseen */
          kill (child->pid, SIGKILL);
          break;
        }
      if (fds[0].revents)
        drain (child, &child->status_fd, TRUE);
      if (fds[1].revents)
        drain (child, &child->output_fd, FALSE);
      if (fds[2].revents && !*cancelled)
        {
          kill (child->pid, SIGKILL);
          *cancelled = TRUE;
        }
    }
  if (cancel_fd >= 0)
    g_cancellable_release_fd (cancellable);
  return wait_for (child->pid);
}

/* A line's words without the pictures some libraries put before them (babeltrace2 starts
 * its assertion messages with a table-flipping emoticon): a leading run of punctuation
 * and blanks that holds a non-ASCII character. */
static char *
skip_decoration (char *line)
{
  char *p = line;
  gboolean pictures = FALSE;

  while (*p && !g_ascii_isalnum (*p))
    pictures |= (guchar) *p++ >= 0x80;
  return pictures && *p ? p : line;
}

/* The last line the child wrote, as the user's error can show it. */
static char *
dup_last_words (Child *child)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (child->output->len == 0)
    return NULL;
  text = g_utf8_make_valid ((const char *) child->output->data, child->output->len);
  lines = g_strsplit (text, "\n", -1);

  for (guint i = g_strv_length (lines); i-- > 0;)
    {
      char *line = g_strstrip (lines[i]);

      if (*line == '\0')
        continue;
      line = skip_decoration (line);
      if (g_utf8_strlen (line, -1) > LAST_WORDS)
        *g_utf8_offset_to_pointer (line, LAST_WORDS) = '\0';
      return g_strdup (line);
    }
  return NULL;
}

/* The one error a user sees for a child that did not finish. */
static GError *
child_failure (Child      *child,
               TwReader   *reader,
               const char *path,
               int         status)
{
  g_autofree char *last = dup_last_words (child);
  g_autofree char *said = last ? g_strdup_printf (_("; its last message: “%s”"), last)
                                : g_strdup ("");
  const char *library = tw_reader_get_library (reader);

  if (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL)
    return g_error_new (TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED,
                        _("%s: reading with %s was stopped by SIGKILL (the system may have "
                          "run out of memory)%s"), path, library, said);
  if (WIFSIGNALED (status))
    return g_error_new (TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED,
                        _("%s: %s crashed reading this trace (SIG%s, %s)%s"), path, library,
                        sigabbrev_np (WTERMSIG (status)) ? sigabbrev_np (WTERMSIG (status)) : "?",
                        g_strsignal (WTERMSIG (status)), said);
  if (WIFEXITED (status) && WEXITSTATUS (status) != 0)
    return g_error_new (TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED,
                        _("%s: reading with %s quit with exit status %d%s"), path, library,
                        WEXITSTATUS (status), said);
  return g_error_new (TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED,
                      _("%s: reading with %s ended without a trace%s"), path, library, said);
}

/*
 * The child's environment: ours, with glibc's malloc told to put its heap on huge pages.
 * A fresh process takes a page fault for every 4 KiB its allocator touches, where ours
 * reuses a warm heap; on the many-threads LTTng trace that was a fifth of the child's
 * time (7 850 faults), and huge pages halve the faults and give the time back.
 */
static char **
dup_child_environ (void)
{
  char **env = g_get_environ ();
  const char *tunables = g_environ_getenv (env, "GLIBC_TUNABLES");
  g_autofree char *with_huge = tunables && *tunables
                               ? g_strconcat (tunables, ":glibc.malloc.hugetlb=1", NULL)
                               : g_strdup ("glibc.malloc.hugetlb=1");

  return g_environ_setenv (env, "GLIBC_TUNABLES", with_huge, TRUE);
}

static gboolean
spawn (Child         *child,
       TwReader      *reader,
       int            image_fd,
       guint          n_warm,
       const char    *path,
       GError       **error)
{
  g_autofree char *helper = tw_reader_process_dup_helper_path (error);
  g_autofree char *warm = NULL;
  g_auto(GStrv) envp = dup_child_environ ();
  int status_pipe[2] = { -1, -1 };
  int output_pipe[2] = { -1, -1 };
  int source_fds[2];
  const int target_fds[2] = { IMAGE_FD, STATUS_FD };
  gboolean ok;

  if (helper == NULL)
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  if (!g_unix_open_pipe (status_pipe, FD_CLOEXEC, error))
    return FALSE;
  if (!g_unix_open_pipe (output_pipe, FD_CLOEXEC, error))
    {
      close (status_pipe[0]);
      close (status_pipe[1]);
      return FALSE;
    }
  warm = g_strdup_printf ("%u", n_warm);
  {
    const char *argv[] = { helper, "--format", tw_reader_get_name (reader), "--warm-slots", warm,
                           "--", path, NULL };

    source_fds[0] = image_fd;
    source_fds[1] = status_pipe[1];
    /* posix_spawn (no fork of our page tables) needs the descriptors left open; the
     * helper closes what it does not own */
    ok = g_spawn_async_with_pipes_and_fds (NULL, argv, (const char * const *) envp,
                                           G_SPAWN_DO_NOT_REAP_CHILD |
                                           G_SPAWN_LEAVE_DESCRIPTORS_OPEN,
                                           NULL, NULL, -1, output_pipe[1], output_pipe[1],
                                           source_fds, target_fds, 2, &child->pid, NULL, NULL,
                                           NULL, error);
  }
  close (status_pipe[1]);
  close (output_pipe[1]);
  child->status_fd = status_pipe[0];
  child->output_fd = output_pipe[0];
  if (!ok)
    g_prefix_error (error, "%s: ", path);
  return ok;
}

/* Runs the child writing its trace into @image_fd and follows it to its end. */
static gboolean
run_child (TwReader      *reader,
           const char    *path,
           int            image_fd,
           guint          n_warm,
           TwProgressFunc progress,
           gpointer       progress_data,
           GCancellable  *cancellable,
           GError       **error)
{
  g_auto(Child) child = { 0, -1, -1, g_string_new (NULL), g_byte_array_new (), FALSE, NULL,
                          progress, progress_data };
  gboolean cancelled;
  int status;

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !spawn (&child, reader, image_fd, n_warm, path, error))
    return FALSE;

  status = follow (&child, cancellable, &cancelled);
  if (cancelled)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return FALSE;
    }
  if (child.reported && WIFEXITED (status))
    {
      g_propagate_error (error, g_steal_pointer (&child.reported));
      return FALSE;
    }
  if (!child.done || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_propagate_error (error, child_failure (&child, reader, path, status));
      return FALSE;
    }
  if (child.output->len > 0)
    fwrite (child.output->data, 1, child.output->len, stderr);
  return TRUE;
}

/**
 * tw_reader_process_load:
 * @progress: (nullable) (scope call): called from the calling thread, coarsely
 *
 * Reads @path with @reader in a child process and maps the sealed trace it made. The
 * trace is the one tw_reader_registry_load_file() would give. Cancelling kills the child.
 *
 * Returns: (transfer full) (nullable): the trace; %NULL with @error set: the reader's own
 *   error, %G_IO_ERROR_CANCELLED, or %TW_READER_ERROR_LIBRARY_FAILED naming @path, the
 *   library, how the child ended and the last line it wrote
 */
TwTrace *
tw_reader_process_load (TwReader      *reader,
                        const char    *path,
                        TwProgressFunc progress,
                        gpointer       progress_data,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(TwTraceImage) image = NULL;

  g_return_val_if_fail (TW_IS_READER (reader), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(image = tw_trace_image_new (error)) ||
      !run_child (reader, path, tw_trace_image_get_fd (image),
                  tw_trace_image_get_n_warm_slots (image), progress, progress_data,
                  cancellable, error))
    return NULL;
  return tw_trace_image_open_trace (image, error);
}

/**
 * tw_reader_process_load_spilled:
 *
 * tw_reader_process_load() of a trace larger than the memory the process should hold:
 * the child's image is an unlinked file of the cache folder (tw_pages_open_spill_file())
 * instead of a memory file, which the kernel cannot write back (there may be no swap)
 * and for which it would kill the process. Mapped from that file, the rows are page
 * cache it reclaims. A folder that cannot be written has the trace read into memory.
 *
 * Returns: (transfer full) (nullable): the trace, as tw_reader_process_load()
 */
TwTrace *
tw_reader_process_load_spilled (TwReader      *reader,
                                const char    *path,
                                TwProgressFunc progress,
                                gpointer       progress_data,
                                GCancellable  *cancellable,
                                GError       **error)
{
  int fd;

  g_return_val_if_fail (TW_IS_READER (reader), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if ((fd = tw_pages_open_spill_file ()) < 0)
    {
      g_debug ("%s: no file in the cache folder (%s): read into memory", path, g_strerror (errno));
      return tw_reader_process_load (reader, path, progress, progress_data, cancellable, error);
    }
  if (!run_child (reader, path, fd, 0, progress, progress_data, cancellable, error))
    {
      close (fd);
      return NULL;
    }
  return tw_trace_image_open_file (fd, NULL, NULL, error);
}

/**
 * tw_reader_process_load_to_cache:
 * @cache: the cache the trace is for
 * @fd: an empty file of tw_trace_cache_make_temp(); taken
 * @temp: its path
 *
 * tw_reader_process_load() with the child's image @temp, a temporary file of @cache's
 * folder, rather than a memory file: the rows are written once, on disk, where the cache
 * file will have them, and tw_trace_cache_store() of the trace only appends its key and
 * renames it (tw_trace_cache_open_temp()). The file is removed when the child fails or
 * the trace goes without being stored.
 *
 * Returns: (transfer full) (nullable): the trace, as tw_reader_process_load()
 */
TwTrace *
tw_reader_process_load_to_cache (TwReader      *reader,
                                 const char    *path,
                                 TwTraceCache  *cache,
                                 int            fd,
                                 const char    *temp,
                                 TwProgressFunc progress,
                                 gpointer       progress_data,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  g_return_val_if_fail (TW_IS_READER (reader), NULL);
  g_return_val_if_fail (path != NULL && TW_IS_TRACE_CACHE (cache), NULL);
  g_return_val_if_fail (fd >= 0 && temp != NULL, NULL);

  if (!run_child (reader, path, fd, 0, progress, progress_data, cancellable, error))
    {
      close (fd);
      g_unlink (temp);
      return NULL;
    }
  return tw_trace_cache_open_temp (cache, fd, temp, error);
}

/* ---------------------------------------------------------------- the child */

typedef enum {
  HOOK_NONE,
  HOOK_KILL_AFTER_PROGRESS,
  HOOK_STALL_AFTER_PROGRESS,
} TestHook;

typedef struct {
  int      fd;
  int      permille;
  gint64   sent_us;   /* when the last progress line went */
  TestHook hook;
} Status;

/* The window redraws its progress bar 30 times a second: more lines would only wake the
 * parent for nothing. */
#define PROGRESS_EVERY_US 30000

static void
write_line (int         fd,
            const char *line)
{
  gsize len = strlen (line);

  while (len > 0)
    {
      gssize n = write (fd, line, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        _exit (3);
      line += n;
      len -= n;
    }
}

static void
child_progress_cb (double   fraction,
                   gpointer user_data)
{
  Status *status = user_data;
  int permille = (int) (CLAMP (fraction, 0.0, 1.0) * 1000);
  gint64 now = g_get_monotonic_time ();
  char line[32];

  if (permille == status->permille ||
      (now - status->sent_us < PROGRESS_EVERY_US && permille < 1000))
    return;
  status->permille = permille;
  status->sent_us = now;
  g_snprintf (line, sizeof line, "progress %d\n", permille);
  write_line (status->fd, line);
  if (status->hook == HOOK_KILL_AFTER_PROGRESS)
    raise (SIGKILL);
  while (status->hook == HOOK_STALL_AFTER_PROGRESS)
    pause ();
}

/* The helper leaves at once: it only ever reads one file, the parent waits for its pipes
 * to close, and tearing down the trace and the libraries would only delay that. */
static void G_GNUC_NORETURN
child_exit (int status)
{
  fflush (NULL);
  _exit (status);
}

static void G_GNUC_NORETURN
child_fail (int     fd,
            GError *error)
{
  g_autofree char *escaped = g_strescape (error->message, NULL);
  g_autofree char *line = g_strdup_printf ("error %s %d %s\n", g_quark_to_string (error->domain),
                                           error->code, escaped);

  write_line (fd, line);
  child_exit (1);
}

static TestHook
test_hook (void)
{
  const char *hook = g_getenv (TEST_HOOK_ENV);

  if (g_strcmp0 (hook, "kill-after-progress") == 0)
    return HOOK_KILL_AFTER_PROGRESS;
  if (g_strcmp0 (hook, "stall-after-progress") == 0)
    return HOOK_STALL_AFTER_PROGRESS;
  return HOOK_NONE;
}

static void G_GNUC_NORETURN
child_run (const char *format,
           guint       n_warm,
           const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) reader = tw_reader_registry_find (format);
  g_autoptr(TwTraceImage) image = NULL;
  g_autoptr(TwTrace) trace = NULL;
  Status status = { STATUS_FD, -1, 0, test_hook () };

  if (reader == NULL)
    {
      g_set_error (&error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT,
                   "unknown format “%s”", format);
      child_fail (STATUS_FD, error);
    }
  image = tw_trace_image_new_for_fd (IMAGE_FD, n_warm);
  trace = tw_trace_image_new_trace (image);
  if (!tw_reader_registry_read_into (reader, path, trace, child_progress_cb, &status, NULL,
                                     &error) ||
      !tw_trace_image_publish (image, trace, NULL, NULL, &error))
    child_fail (STATUS_FD, error);
  write_line (STATUS_FD, "done\n");
  child_exit (0);
}

/**
 * tw_reader_process_main:
 *
 * The helper program's main: `tracewb-reader --format NAME --warm-slots N -- PATH`, with
 * the image file on fd 3 and the status pipe on fd 4.
 *
 * Returns: only for bad arguments (2): otherwise the helper leaves with _exit()
 */
int
tw_reader_process_main (int    argc,
                        char **argv)
{
  g_autofree char *format = NULL;
  g_auto(GStrv) paths = NULL;
  gint64 n_warm = 0;
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "Reader name", "NAME" },
    { "warm-slots", 0, 0, G_OPTION_ARG_INT64, &n_warm, "Slots of the image holding pages", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, "PATH" },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("-- PATH");
  g_autoptr(GError) error = NULL;

  /* a reader outliving the program that wanted the trace only wastes a CPU */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  /* descriptors of the parent's that were not close-on-exec (spawned without closing
   * them, see spawn()) */
  close_range (STATUS_FD + 1, ~0u, 0);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context, "Reads one trace for Trace Workbench into the shared "
                                "image on fd 3, reporting on fd 4. Not for use by hand.");
  if (!g_option_context_parse (context, &argc, &argv, &error) || format == NULL ||
      paths == NULL || g_strv_length (paths) != 1 || n_warm < 0 || n_warm > G_MAXUINT)
    {
      g_printerr ("%s: %s\n", TW_READER_HELPER_NAME,
                  error ? error->message : "usage: --format NAME --warm-slots N -- PATH");
      return 2;
    }
  child_run (format, (guint) n_warm, paths[0]);
}
