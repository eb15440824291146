/*
 * airfoil_mesh_permute.c - the same mesh in another order (airfoil_mesh.h): nodes, cells,
 * edges and boundary edges each shuffled by a seeded generator, every row's contents (and so
 * every edge's orientation) kept. A mesh in a random order is what a renumbering has to undo
 * (docs/performance.md, "Renumbering from any order").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_mesh.h"

/* SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): the same sequence from the same seed on every machine. */
static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* order[k] = the old number of the element placed k-th: a Fisher-Yates shuffle. */
static int *shuffled(int n, uint64_t *state) {
  int *order = malloc(sizeof(int) * ((size_t)n + 1));
  if (!order) return NULL;
  for (int k = 0; k < n; k++) order[k] = k;
  for (int k = n - 1; k > 0; k--) {
    const int j = (int)(splitmix64(state) % (uint64_t)(k + 1));
    const int t = order[k];
    order[k] = order[j];
    order[j] = t;
  }
  return order;
}

/* rows (n of `size` bytes) taken in `order`. */
static int gather(void *rows, size_t size, int n, const int *order) {
  char *tmp = malloc(size * ((size_t)n + 1));
  if (!tmp) return -1;
  for (int k = 0; k < n; k++)
    memcpy(tmp + size * (size_t)k, (char *)rows + size * (size_t)order[k], size);
  memcpy(rows, tmp, size * (size_t)n);
  free(tmp);
  return 0;
}

/* Entries (count of them) renamed from old numbers to new. */
static void rename_entries(int *entries, size_t count, const int *new_of_old) {
  for (size_t i = 0; i < count; i++) entries[i] = new_of_old[entries[i]];
}

static int *inverse(int n, const int *order) {
  int *inv = malloc(sizeof(int) * ((size_t)n + 1));
  if (inv)
    for (int k = 0; k < n; k++) inv[order[k]] = k;
  return inv;
}

int airfoil_mesh_permute(airfoil_mesh *m, unsigned long long seed) {
  uint64_t state = seed;
  int *node = shuffled(m->nnode, &state), *cell = shuffled(m->ncell, &state);
  int *edge = shuffled(m->nedge, &state), *bedge = shuffled(m->nbedge, &state);
  int *new_node = node ? inverse(m->nnode, node) : NULL;
  int *new_cell = cell ? inverse(m->ncell, cell) : NULL;
  int rc = -1;
  if (!node || !cell || !edge || !bedge || !new_node || !new_cell) goto done;
  if (gather(m->x, 2 * sizeof(double), m->nnode, node) ||
      gather(m->cell, 4 * sizeof(int), m->ncell, cell) ||
      gather(m->edge, 2 * sizeof(int), m->nedge, edge) ||
      gather(m->ecell, 2 * sizeof(int), m->nedge, edge) ||
      gather(m->bedge, 2 * sizeof(int), m->nbedge, bedge) ||
      gather(m->becell, sizeof(int), m->nbedge, bedge) ||
      gather(m->bound, sizeof(int), m->nbedge, bedge))
    goto done;
  rename_entries(m->cell, 4 * (size_t)m->ncell, new_node);
  rename_entries(m->edge, 2 * (size_t)m->nedge, new_node);
  rename_entries(m->bedge, 2 * (size_t)m->nbedge, new_node);
  rename_entries(m->ecell, 2 * (size_t)m->nedge, new_cell);
  rename_entries(m->becell, (size_t)m->nbedge, new_cell);
  rc = 0;
done:
  free(node);
  free(cell);
  free(edge);
  free(bedge);
  free(new_node);
  free(new_cell);
  return rc;
}
