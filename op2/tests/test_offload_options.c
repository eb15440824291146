/*
 * test_offload_options - the offload backend's options and its choice of
 * strategy per loop (op_offload_options.c), checked directly.
 */
#include <stdio.h>
#include <string.h>

#include "op_offload.h"

#include "test_expect.h"

int main(void) {
  /* OMP_TARGET_OFFLOAD as libgomp reads it. */
  CHECK(op_offload_target_offload_mode(NULL) == 0, "unset is DEFAULT");
  CHECK(op_offload_target_offload_mode("") == 0, "empty is DEFAULT");
  CHECK(op_offload_target_offload_mode("default") == 0, "default");
  CHECK(op_offload_target_offload_mode(" Mandatory ") == 1, "mandatory, any case, blanks");
  CHECK(op_offload_target_offload_mode("DISABLED") == 2, "DISABLED");
  CHECK(op_offload_target_offload_mode("MANDATORYX") == -1, "a longer word is no value");
  CHECK(op_offload_target_offload_mode("on") == -1, "on is no value");

  /* Options. */
  op_offload_options o = {.device = -1, .strategy = -1};
  CHECK(op_offload_parse_option(&o, "--op-offload-strategy=mask") && o.strategy == OP_OFFLOAD_MASK,
        "strategy mask");
  CHECK(
      op_offload_parse_option(&o, "--op-offload-strategy=color") && o.strategy == OP_OFFLOAD_COLOUR,
      "colour spelt color");
  CHECK(op_offload_parse_option(&o, "--op-offload-data=loop") && o.per_loop == 1, "data loop");
  CHECK(op_offload_parse_option(&o, "--op-offload-data=resident") && o.per_loop == 0,
        "data resident");
  CHECK(op_offload_parse_option(&o, "--op-offload-layout=soa") && o.soa == 1, "layout soa");
  CHECK(op_offload_parse_option(&o, "--op-device=3") && o.device == 3, "device 3");
  CHECK(op_offload_parse_option(&o, "--op-threads=5") && o.threads == 5, "threads 5");
  CHECK(op_offload_parse_option(&o, "--op-offload-host=target") && o.host_target == 1,
        "host target");
  CHECK(op_offload_parse_option(&o, "--op-offload-host=parallel") && o.host_target == 0,
        "host parallel");
  CHECK(o.teams == 0 && o.thread_limit == 0, "teams and thread limit: the runtime's by default");
  CHECK(op_offload_parse_option(&o, "--op-offload-teams=264") && o.teams == 264, "teams 264");
  CHECK(op_offload_parse_option(&o, "--op-offload-thread-limit=128") && o.thread_limit == 128,
        "thread limit 128");
  CHECK(op_offload_parse_option(&o, "--op-offload-teams=0") && o.teams == 0, "teams 0");
  CHECK(!op_offload_parse_option(&o, "--op-force=staged"), "a CUDA option is not an offload one");
  for (int s = 0; s < OP_OFFLOAD_NSTRATEGIES; s++)
    CHECK(op_offload_strategy_from_name(op_offload_strategy_name(s)) == s, "name of strategy %d",
          s);

  /* The strategy per loop. */
  const op_offload_loop_desc direct = {"k", "f.c:1", 2, 0, 0, 0};
  const op_offload_loop_desc incs = {"k", "f.c:2", 3, 1, 1, 0};
  const op_offload_loop_desc writes = {"k", "f.c:3", 3, 1, 0, 0};
  const op_offload_loop_desc info = {"k", "f.c:4", 3, 1, 1, 1};
  CHECK(op_offload_strategy_for(&direct, 1, -1) == OP_OFFLOAD_PARALLEL, "direct: parallel");
  CHECK(op_offload_strategy_for(&direct, 1, OP_OFFLOAD_MASK) == OP_OFFLOAD_PARALLEL,
        "direct asked mask: parallel");
  CHECK(op_offload_strategy_for(&direct, 1, OP_OFFLOAD_BLOCKS) == OP_OFFLOAD_BLOCKS,
        "direct asked blocks: blocks");
  CHECK(op_offload_strategy_for(&incs, 1, -1) == OP_OFFLOAD_ATOMIC,
        "increments: atomic by default");
  CHECK(op_offload_strategy_for(&incs, 0, -1) == OP_OFFLOAD_COLOUR,
        "increments of a dat also read at run time: colour");
  CHECK(op_offload_strategy_for(&incs, 1, OP_OFFLOAD_MASK) == OP_OFFLOAD_MASK, "asked mask: mask");
  CHECK(op_offload_strategy_for(&writes, 1, OP_OFFLOAD_ATOMIC) == OP_OFFLOAD_COLOUR,
        "writes asked atomic: colour");
  CHECK(op_offload_strategy_for(&writes, 1, -1) == OP_OFFLOAD_COLOUR, "writes: colour by default");
  CHECK(op_offload_strategy_for(&info, 1, OP_OFFLOAD_ATOMIC) == OP_OFFLOAD_BLOCKS,
        "op_arg_info: blocks whatever is asked");

  return check_exit("offload options and strategies");
}
