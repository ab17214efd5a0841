/* tw-sensor-dir.c: the per-user sensor directory, sensor file names, stale sensors
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where: $TRACEWB_SENSOR_DIR when set, else /dev/shm/tracewb-<uid>. /dev/shm rather than
 * $XDG_RUNTIME_DIR because a real-time program started by systemd, cron or ssh often has
 * no XDG_RUNTIME_DIR, or a different one than the desktop session that runs the monitor;
 * /dev/shm/tracewb-<uid> is the same for every process of the user, and it is tmpfs, so
 * a sensor never writes to a disk. /dev/shm is world-writable: the default directory
 * must be a real directory (not a symlink) owned by the user, and is forced to 0700.
 */
#include "config.h"

#include "tw-sensor-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
dir_path (char *buffer, size_t buffer_size, bool *is_default)
{
  const char *env = getenv ("TRACEWB_SENSOR_DIR");
  int n;

  *is_default = !(env && *env);
  if (!*is_default)
    n = snprintf (buffer, buffer_size, "%s", env);
  else
    n = snprintf (buffer, buffer_size, "/dev/shm/tracewb-%u", (unsigned) getuid ());
  if (n < 0 || (size_t) n >= buffer_size)
    return -ENAMETOOLONG;
  return 0;
}

/**
 * tw_sensor_dir_get_path:
 * @buffer: where to write the directory's path
 * @buffer_size: its size
 *
 * Returns: 0, or a negative errno (-ENAMETOOLONG)
 */
int
tw_sensor_dir_get_path (char *buffer, size_t buffer_size)
{
  bool is_default;

  return dir_path (buffer, buffer_size, &is_default);
}

/* Creates the directory (0700) when missing and checks that it is safe to use. */
int
tw_sensor_dir_ensure (char *buffer, size_t buffer_size)
{
  struct stat st;
  bool is_default;
  int ret = dir_path (buffer, buffer_size, &is_default);

  if (ret < 0)
    return ret;
  if (mkdir (buffer, 0700) < 0 && errno != EEXIST)
    return -errno;
  if ((is_default ? lstat (buffer, &st) : stat (buffer, &st)) < 0)
    return -errno;
  if (!S_ISDIR (st.st_mode))
    return -ENOTDIR;
  if (st.st_uid != getuid ())
    return -EACCES;
  if (is_default && (st.st_mode & 0777) != 0700 && chmod (buffer, 0700) < 0)
    return -errno;
  return 0;
}

static bool
char_is_plain (unsigned char c, bool first)
{
  if (first && c == '.')
    return false;
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
         || c == '_' || c == '-' || c == '.';
}

bool
tw_sensor_name_is_valid (const char *name)
{
  size_t len;

  if (!name)
    return false;
  len = strnlen (name, TW_SENSOR_NAME_MAX);
  if (len == 0 || len >= TW_SENSOR_NAME_MAX)
    return false;
  for (size_t i = 0; i < len; i++)
    if ((unsigned char) name[i] < 0x20 || name[i] == 0x7f)
      return false;
  return true;
}

static size_t
encode_name (const char *name, char *out)
{
  size_t n = 0;

  for (size_t i = 0; name[i]; i++)
    {
      unsigned char c = (unsigned char) name[i];

      if (char_is_plain (c, i == 0))
        out[n++] = (char) c;
      else
        n += (size_t) sprintf (out + n, "%%%02X", c);
    }
  out[n] = '\0';
  return n;
}

/**
 * tw_sensor_file_name:
 * @task: the task (program or component) name, 1..63 bytes, no control characters
 * @sensor: the sensor name, same rules
 * @buffer: where to write the file name (no directory)
 * @buffer_size: its size
 *
 * "<task>@<sensor>.tws" with every byte outside [A-Za-z0-9_.-] and a leading '.'
 * percent-encoded: the name can never contain '/', be "." or "..", or be hidden, and
 * distinct (task, sensor) pairs never share a file.
 *
 * Returns: 0, -EINVAL for a bad name, -ENAMETOOLONG
 */
int
tw_sensor_file_name (const char *task, const char *sensor, char *buffer, size_t buffer_size)
{
  char encoded_task[3 * TW_SENSOR_NAME_MAX], encoded_sensor[3 * TW_SENSOR_NAME_MAX];
  int n;

  if (!tw_sensor_name_is_valid (task) || !tw_sensor_name_is_valid (sensor))
    return -EINVAL;
  encode_name (task, encoded_task);
  encode_name (sensor, encoded_sensor);
  n = snprintf (buffer, buffer_size, "%s@%s.tws", encoded_task, encoded_sensor);
  if (n < 0 || (size_t) n >= buffer_size)
    return -ENAMETOOLONG;
  return 0;
}

/* Field 22 of /proc/<pid>/stat: start time in clock ticks since boot. It tells a live
 * writer from an unrelated process that got the same pid later. */
uint64_t
tw_sensor_pid_start_time (int64_t pid)
{
  char path[64], text[1024];
  unsigned long long start = 0;
  const char *p;
  ssize_t len;
  int fd;

  snprintf (path, sizeof path, "/proc/%" PRId64 "/stat", pid);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  len = read (fd, text, sizeof text - 1);
  close (fd);
  if (len <= 0)
    return 0;
  text[len] = '\0';
  /* The command name may contain spaces and parentheses: count from the last ')'. */
  p = strrchr (text, ')');
  if (!p)
    return 0;
  p++;
  for (int field = 3; field < 22 && p; field++)
    p = strchr (p + 1, ' ');
  if (!p || sscanf (p, " %llu", &start) != 1)
    return 0;
  return start;
}

bool
tw_sensor_pid_alive (int64_t pid, uint64_t start_time)
{
  uint64_t now_start;

  if (pid <= 0 || pid > INT32_MAX)
    return false;
  if (kill ((pid_t) pid, 0) < 0 && errno != EPERM)
    return false;
  now_start = tw_sensor_pid_start_time (pid);
  return start_time == 0 || now_start == 0 || now_start == start_time;
}

static bool
has_suffix (const char *name, const char *suffix)
{
  size_t n = strlen (name), s = strlen (suffix);

  return n > s && strcmp (name + n - s, suffix) == 0;
}

/**
 * tw_sensor_dir_list:
 * @entries: (out) (transfer full): a malloc()ed array, free() it
 * @n_entries: (out): its length
 *
 * Lists every "*.tws" file of the sensor directory, sorted by name, with its header
 * validated as untrusted input (an invalid file is listed with valid = false and why).
 *
 * Returns: 0 or a negative errno (a missing directory lists nothing)
 */
int
tw_sensor_dir_list (TwSensorDirEntry **entries, size_t *n_entries)
{
  char dir[4096];
  TwSensorDirEntry *list = NULL;
  size_t n = 0, allocated = 0;
  struct dirent **names = NULL;
  int n_names, ret;

  *entries = NULL;
  *n_entries = 0;
  ret = tw_sensor_dir_get_path (dir, sizeof dir);
  if (ret < 0)
    return ret;
  n_names = scandir (dir, &names, NULL, alphasort);
  if (n_names < 0)
    return errno == ENOENT ? 0 : -errno;

  for (int i = 0; i < n_names; i++)
    {
      TwSensorDirEntry *entry;
      TwSensorReader *reader;
      TwSensorInfo info;

      if (names[i]->d_name[0] == '.' || !has_suffix (names[i]->d_name, ".tws"))
        continue;
      if (n == allocated)
        {
          TwSensorDirEntry *grown;

          allocated = allocated ? 2 * allocated : 16;
          grown = realloc (list, allocated * sizeof *list);
          if (!grown)
            {
              ret = -ENOMEM;
              break;
            }
          list = grown;
        }
      entry = &list[n++];
      memset (entry, 0, sizeof *entry);
      if ((size_t) snprintf (entry->path, sizeof entry->path, "%s/%s", dir, names[i]->d_name) >= sizeof entry->path)
        {
          snprintf (entry->error, sizeof entry->error, "path too long");
          continue;
        }
      reader = tw_sensor_reader_open_mapped (entry->path, false, entry->error, sizeof entry->error);
      if (!reader)
        continue;
      if (tw_sensor_reader_get_info (reader, &info) == 0)
        {
          entry->valid = true;
          memcpy (entry->task, info.task, sizeof entry->task);
          memcpy (entry->sensor, info.sensor, sizeof entry->sensor);
          entry->pid = info.pid;
          entry->alive = tw_sensor_reader_writer_alive (reader);
        }
      else
        snprintf (entry->error, sizeof entry->error, "%s", tw_sensor_reader_get_error (reader));
      tw_sensor_reader_free (reader);
    }
  for (int i = 0; i < n_names; i++)
    free (names[i]);
  free (names);
  if (ret < 0)
    {
      free (list);
      return ret;
    }
  *entries = list;
  *n_entries = n;
  return 0;
}

/**
 * tw_sensor_dir_remove_stale:
 * @n_removed: (out) (optional): how many files were removed
 *
 * Removes the sensor files whose writer process is no longer alive, and the temporary
 * files of writers that died while creating a sensor. Files that fail
 * validation are left alone: they may belong to a writer that is still creating them,
 * or to another version, and a monitor reports them.
 *
 * Returns: 0 or a negative errno
 */
int
tw_sensor_dir_remove_stale (size_t *n_removed)
{
  TwSensorDirEntry *entries;
  size_t n_entries, removed = 0;
  int ret = tw_sensor_dir_list (&entries, &n_entries);
  char dir[4096];
  DIR *d;

  if (ret < 0)
    return ret;
  for (size_t i = 0; i < n_entries; i++)
    if (entries[i].valid && !entries[i].alive && unlink (entries[i].path) == 0)
      removed++;
  free (entries);

  /* Half-created files ".<name>.<pid>.tmp" of writers that died in tw_sensor_new. */
  if (tw_sensor_dir_get_path (dir, sizeof dir) == 0 && (d = opendir (dir)))
    {
      struct dirent *entry;

      while ((entry = readdir (d)))
        {
          const char *name = entry->d_name, *dot;
          char *end;
          long long pid;

          if (name[0] != '.' || !has_suffix (name, ".tmp"))
            continue;
          dot = name + strlen (name) - 4;
          while (dot > name && dot[-1] >= '0' && dot[-1] <= '9')
            dot--;
          if (dot == name || dot[-1] != '.')
            continue;
          pid = strtoll (dot, &end, 10);
          if (*end != '.' || tw_sensor_pid_alive (pid, 0))
            continue;
          if (unlinkat (dirfd (d), name, 0) == 0)
            removed++;
        }
      closedir (d);
    }
  if (n_removed)
    *n_removed = removed;
  return 0;
}
