/* op_omp_wait.c - see op_omp_wait.h. */
#define _GNU_SOURCE
#include "op_omp_wait.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "op2_error.h"

/* Set in the environment of the second start: the choice in words; its
 * presence stops a third. */
#define OP_OMP_WAIT_GUARD "OP2_OMP_WAIT_CHOSEN"

op_omp_wait_choice op_omp_wait_rule(int cores, int threads, double load, op_omp_wait_option option,
                                    int user_env) {
  if (option == OP_OMP_WAIT_ACTIVE) return OP_OMP_WAIT_SET_ACTIVE;
  if (option == OP_OMP_WAIT_PASSIVE) return OP_OMP_WAIT_SET_PASSIVE;
  if (user_env) return OP_OMP_WAIT_USER;
  if (threads <= 1) return OP_OMP_WAIT_SPIN; /* nothing waits for another thread */
  if (load < 0) load = 0;
  /* Half a core of slack: an idle machine's load is rarely exactly 0. */
  if (threads <= cores && threads <= cores - load + 0.5) return OP_OMP_WAIT_SPIN;
  return OP_OMP_WAIT_SET_PASSIVE;
}

static int parse_value(const char *v, op_omp_wait_option *option) {
  if (!strcmp(v, "auto"))
    *option = OP_OMP_WAIT_AUTO;
  else if (!strcmp(v, "active"))
    *option = OP_OMP_WAIT_ACTIVE;
  else if (!strcmp(v, "passive"))
    *option = OP_OMP_WAIT_PASSIVE;
  else
    return 0;
  return 1;
}

int op_omp_wait_option_parse(const char *arg, op_omp_wait_option *option) {
  if (strncmp(arg, "--op-wait=", 10) != 0) return 0;
  if (!parse_value(arg + 10, option))
    op_fatal("option %s: the wait policy must be active, passive or auto", arg);
  return 1;
}

static char chosen_text[160] = "libgomp's default (spin, then sleep)";

const char *op_omp_wait_text(void) { return chosen_text; }

/* The command line as the kernel holds it (the arguments main will see):
 * NUL-separated strings in *buf, pointers in the returned array. */
static char **read_cmdline(char **buf) {
  FILE *f = fopen("/proc/self/cmdline", "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *b = malloc(cap + 1);
  while (b) {
    len += fread(b + len, 1, cap - len, f);
    if (len < cap) break;
    char *bigger = realloc(b, 2 * cap + 1);
    if (!bigger) {
      free(b);
      b = NULL;
      break;
    }
    b = bigger;
    cap *= 2;
  }
  const int failed = ferror(f);
  fclose(f);
  if (!b || failed || len == 0) {
    free(b);
    return NULL;
  }
  b[len] = '\0';
  size_t n = 0;
  for (size_t i = 0; i < len; i++) n += b[i] == '\0';
  if (b[len - 1] != '\0') n++;
  char **argv = calloc(n + 1, sizeof *argv);
  if (!argv) {
    free(b);
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 0; i < len && k < n; i += strlen(b + i) + 1) argv[k++] = b + i;
  *buf = b;
  return argv;
}

static int available_cores(void) {
  cpu_set_t *set = CPU_ALLOC(4096);
  const size_t size = CPU_ALLOC_SIZE(4096);
  int n = 0;
  if (set && sched_getaffinity(0, size, set) == 0) n = CPU_COUNT_S(size, set);
  CPU_FREE(set);
  if (n < 1) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    n = online > 0 ? (int)online : 1;
  }
  return n;
}

/* The load: the 1-minute average, or the threads runnable right now besides
 * this one where there are more (a load that has just begun, which the
 * average shows only after tens of seconds); 0 where /proc/loadavg cannot be
 * read (taken as idle). */
static double current_load(void) {
  FILE *f = fopen("/proc/loadavg", "r");
  double load = 0;
  int running = 0;
  if (f) {
    if (fscanf(f, "%lf %*f %*f %d", &load, &running) < 1) load = 0;
    fclose(f);
  }
  return running - 1 > load ? running - 1 : load;
}

static int env_set(const char *name) {
  const char *v = getenv(name);
  return v && *v;
}

/* Before main (and so before the application does anything). Never fatal:
 * a bad --op-wait is op_init's to report, with the other options. */
__attribute__((constructor)) static void op_omp_wait_at_start(void) {
  const char *guard = getenv(OP_OMP_WAIT_GUARD);
  if (guard) {
    snprintf(chosen_text, sizeof chosen_text, "%s", guard);
    unsetenv(OP_OMP_WAIT_GUARD);
    return;
  }
  char *buf = NULL;
  char **argv = read_cmdline(&buf);
  if (!argv) return;
  op_omp_wait_option option = OP_OMP_WAIT_AUTO;
  int threads = 0;
  for (int i = 1; argv[i]; i++) {
    if (!strncmp(argv[i], "--op-wait=", 10)) {
      op_omp_wait_option o;
      if (parse_value(argv[i] + 10, &o)) option = o;
    } else if (!strncmp(argv[i], "--op-threads=", 13)) {
      const long v = strtol(argv[i] + 13, NULL, 10);
      if (v > 0 && v <= 4096) threads = (int)v;
    }
  }
  const int cores = available_cores();
  if (threads == 0 && env_set("OMP_NUM_THREADS")) {
    const long v = strtol(getenv("OMP_NUM_THREADS"), NULL, 10);
    if (v > 0 && v <= 4096) threads = (int)v;
  }
  if (threads == 0) threads = cores;
  const double load = current_load();
  const int user_env = env_set("OMP_WAIT_POLICY") || env_set("GOMP_SPINCOUNT");
  const op_omp_wait_choice choice = op_omp_wait_rule(cores, threads, load, option, user_env);
  const char *why = option == OP_OMP_WAIT_AUTO ? "auto" : "--op-wait";
  char text[sizeof chosen_text];
  const char *policy = NULL;
  switch (choice) {
    case OP_OMP_WAIT_SPIN:
      snprintf(text, sizeof text,
               "libgomp's default, spin then sleep (auto: %d threads, %d cores, "
               "load %.2f)",
               threads, cores, load);
      break;
    case OP_OMP_WAIT_USER:
      snprintf(text, sizeof text, "the environment's (OMP_WAIT_POLICY=%s, GOMP_SPINCOUNT=%s)",
               env_set("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY") : "unset",
               env_set("GOMP_SPINCOUNT") ? getenv("GOMP_SPINCOUNT") : "unset");
      break;
    case OP_OMP_WAIT_SET_ACTIVE:
      policy = "active";
      break;
    case OP_OMP_WAIT_SET_PASSIVE:
      policy = "passive";
      break;
  }
  if (policy) {
    snprintf(text, sizeof text, "%s (%s: %d threads, %d cores, load %.2f)", policy, why, threads,
             cores, load);
    const char *now = getenv("OMP_WAIT_POLICY");
    const int already = now && !strcasecmp(now, policy) && !env_set("GOMP_SPINCOUNT");
    if (!already && setenv(OP_OMP_WAIT_GUARD, text, 1) == 0 &&
        setenv("OMP_WAIT_POLICY", policy, 1) == 0 && unsetenv("GOMP_SPINCOUNT") == 0) {
      /* The executable's path rather than /proc/self/exe itself: a tool that
       * runs the program under it (valgrind) answers readlink with the
       * program's path, where an exec of /proc/self/exe would start the tool. */
      char exe[4096];
      const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
      if (n > 0) exe[n] = '\0';
      fflush(NULL);
      execv(n > 0 ? exe : "/proc/self/exe", argv);
      /* Still here: run on as started, and say so under --op-diags=2. */
      unsetenv(OP_OMP_WAIT_GUARD);
      snprintf(text, sizeof text,
               "as started: %s was chosen but the program could not be run "
               "again with it",
               policy);
    }
  }
  snprintf(chosen_text, sizeof chosen_text, "%s", text);
  free(argv);
  free(buf);
}
