/* solver_machine.c - what machine a run used (solver_machine.h). Everything
 * comes from files the kernel provides; a missing one leaves "unknown" or an
 * empty list, never an error: the run's result matters more than its label. */
#include "solver_machine.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The text after "key" and its colon on the first line of path starting with
 * key, trimmed, into out; 0 when found. */
static int read_field(const char *path, const char *key, char *out, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[512];
  int found = -1;
  const size_t klen = strlen(key);
  while (found != 0 && fgets(line, sizeof line, f)) {
    if (strncmp(line, key, klen) != 0) continue;
    const char *p = strchr(line + klen, ':');
    if (!p) continue;
    p++;
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strcspn(p, "\r\n");
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
    if (n >= len) n = len - 1;
    memcpy(out, p, n);
    out[n] = '\0';
    found = 0;
  }
  fclose(f);
  return found;
}

void solver_machine_probe(solver_machine *m) {
  memset(m, 0, sizeof *m);
  if (gethostname(m->hostname, sizeof m->hostname - 1) != 0) snprintf(m->hostname, sizeof m->hostname, "unknown");
  if (read_field("/proc/cpuinfo", "model name", m->cpu_model, sizeof m->cpu_model) != 0)
    snprintf(m->cpu_model, sizeof m->cpu_model, "unknown");
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  m->cores = n > 0 && n < 1 << 20 ? (int)n : 0;
  /* The NVIDIA driver: one directory per GPU, an "information" file in each. */
  DIR *dir = opendir("/proc/driver/nvidia/gpus");
  if (!dir) return;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL && m->ngpus < SOLVER_MAX_GPUS) {
    if (e->d_name[0] == '.') continue;
    char path[512];
    snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%.200s/information", e->d_name);
    if (read_field(path, "Model", m->gpus[m->ngpus], sizeof m->gpus[0]) == 0) m->ngpus++;
  }
  closedir(dir);
}

void solver_machine_json(const solver_machine *m, json_writer *w) {
  json_begin_object(w);
  json_kv_string(w, "hostname", m->hostname);
  json_kv_string(w, "cpu_model", m->cpu_model);
  json_kv_int(w, "cores", m->cores);
  json_key(w, "gpus");
  json_begin_array(w);
  for (int i = 0; i < m->ngpus; i++) json_string(w, m->gpus[i]);
  json_end_array(w);
  json_end_object(w);
}
