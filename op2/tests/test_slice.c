/*
 * test_slice.c - the balanced slices of op2_slice.h, which op_slice, the MPI
 * layer (op_mpi_slice, op_mpi_block_part), the airfoil mesh reader and the
 * Matrix Market reader all deal with: hand-worked cases (no items, fewer
 * items than parts, a remainder, none), a sweep against a dealing done item
 * by item, and sizes near INT_MAX and LLONG_MAX, where a formula that
 * multiplies before it divides would overflow.
 */
#include <limits.h>
#include <stdio.h>

#include "op2.h"
#include "op2_slice.h"
#include "op_util.h"
#include "test_expect.h"

/* Every part's first item and count against the hand-worked ones (first[] has
 * nparts + 1 entries: the last is n). */
static void expect_slices(long long n, int nparts, const long long *first, const long long *count) {
  for (int r = 0; r <= nparts; r++)
    CHECK(op_slice_first(n, nparts, r) == first[r],
          "n %lld over %d: part %d starts at %lld, not %lld", n, nparts, r,
          op_slice_first(n, nparts, r), first[r]);
  for (int r = 0; r < nparts; r++)
    CHECK(op_slice_count(n, nparts, r) == count[r], "n %lld over %d: part %d holds %lld, not %lld",
          n, nparts, r, op_slice_count(n, nparts, r), count[r]);
}

static void hand_worked(void) {
  /* No items: every part empty, starting at 0. */
  expect_slices(0, 3, (const long long[]){0, 0, 0, 0}, (const long long[]){0, 0, 0});
  /* Fewer items than parts: one each to the first, the rest empty at the end. */
  expect_slices(2, 5, (const long long[]){0, 1, 2, 2, 2, 2}, (const long long[]){1, 1, 0, 0, 0});
  /* A remainder: the first n % P parts one more. */
  expect_slices(10, 4, (const long long[]){0, 3, 6, 8, 10}, (const long long[]){3, 3, 2, 2});
  /* None. */
  expect_slices(12, 4, (const long long[]){0, 3, 6, 9, 12}, (const long long[]){3, 3, 3, 3});
  /* One part holds everything. */
  expect_slices(7, 1, (const long long[]){0, 7}, (const long long[]){7});
}

/* Items dealt one at a time, round robin: part r gets as many as i % P == r
 * picks out, and the slices are those counts laid end to end. */
static void sweep(void) {
  for (int n = 0; n <= 200; n++)
    for (int P = 1; P <= 17; P++) {
      long long start = 0;
      for (int r = 0; r < P; r++) {
        long long dealt = 0;
        for (int i = 0; i < n; i++) dealt += i % P == r;
        CHECK(op_slice_first(n, P, r) == start, "n %d over %d: part %d starts at %lld, not %lld", n,
              P, r, op_slice_first(n, P, r), start);
        CHECK(op_slice_count(n, P, r) == dealt, "n %d over %d: part %d holds %lld, not %lld", n, P,
              r, op_slice_count(n, P, r), dealt);
        CHECK(compute_local_size(n, P, r) == dealt, "compute_local_size(%d, %d, %d) = %d, not %lld",
              n, P, r, compute_local_size(n, P, r), dealt);
        for (long long i = start; i < start + dealt; i++)
          CHECK(op_slice_owner(n, P, i) == r, "n %d over %d: item %lld owned by %d, not %d", n, P,
                i, op_slice_owner(n, P, i), r);
        start += dealt;
      }
      CHECK(op_slice_first(n, P, P) == n, "n %d over %d: the slices end at %lld", n, P,
            op_slice_first(n, P, P));
    }
}

/* Worked by hand: INT_MAX = 3 * 715827882 + 1, LLONG_MAX = 10 * 922337203685477580 + 7. */
static void large(void) {
  expect_slices(INT_MAX, 3, (const long long[]){0, 715827883LL, 1431655765LL, INT_MAX},
                (const long long[]){715827883LL, 715827882LL, 715827882LL});
  CHECK(op_slice_first(INT_MAX, INT_MAX, INT_MAX - 1) == INT_MAX - 1 &&
            op_slice_count(INT_MAX, INT_MAX, INT_MAX - 1) == 1,
        "INT_MAX over INT_MAX parts: the last part is [%lld, +%lld)",
        op_slice_first(INT_MAX, INT_MAX, INT_MAX - 1),
        op_slice_count(INT_MAX, INT_MAX, INT_MAX - 1));
  const long long base = 922337203685477580LL;
  CHECK(op_slice_first(LLONG_MAX, 10, 7) == 7 * base + 7,
        "LLONG_MAX over 10: part 7 starts at %lld", op_slice_first(LLONG_MAX, 10, 7));
  CHECK(op_slice_first(LLONG_MAX, 10, 9) == 9 * base + 7,
        "LLONG_MAX over 10: part 9 starts at %lld", op_slice_first(LLONG_MAX, 10, 9));
  CHECK(op_slice_count(LLONG_MAX, 10, 6) == base + 1 && op_slice_count(LLONG_MAX, 10, 7) == base,
        "LLONG_MAX over 10: parts 6 and 7 hold %lld and %lld", op_slice_count(LLONG_MAX, 10, 6),
        op_slice_count(LLONG_MAX, 10, 7));
  CHECK(op_slice_first(LLONG_MAX, 10, 10) == LLONG_MAX, "LLONG_MAX over 10: the slices end at %lld",
        op_slice_first(LLONG_MAX, 10, 10));
  CHECK(op_slice_owner(LLONG_MAX, 10, 7 * base + 6) == 6 &&
            op_slice_owner(LLONG_MAX, 10, 7 * base + 7) == 7 &&
            op_slice_owner(LLONG_MAX, 10, LLONG_MAX - 1) == 9,
        "LLONG_MAX over 10: the owners either side of part 7's start, and of the last item");
}

/* On one process op_slice (the same formula, on int) deals the whole set. */
static void one_process(void) {
  int first = -1, count = -1;
  op_slice(INT_MAX, &first, &count);
  CHECK(first == 0 && count == INT_MAX, "op_slice(INT_MAX) on one process: [%d, +%d)", first,
        count);
  op_slice(0, &first, &count);
  CHECK(first == 0 && count == 0, "op_slice(0) on one process: [%d, +%d)", first, count);
}

int main(void) {
  hand_worked();
  sweep();
  large();
  one_process();
  return check_exit("slices");
}
