# The modes of test_misuse (misuse/test_misuse.c) that must fail, each with
# what its message says after "OP2 error": mode|extended regular expression.
# Run on every backend (op2/tests/CMakeLists.txt) and on 2 processes
# (op2/mpi/tests/CMakeLists.txt).
set(misuse_cases
  "dim|loop \"edge_sum\" \\([^)]*\\), argument 0: dim 1 but dat \"x2\" has dim 2"
  "type|loop \"edge_sum\" \\([^)]*\\), argument 1: type \"double\" but dat \"xf\" holds float"
  "type_float|argument 0: type \"float\" but dat \"x\" holds double"
  "index|loop \"edge_sum\" \\([^)]*\\), argument 1: index 2 is outside map \"pedge\" of dim 2 \\(x\\)"
  "to_set|argument 1: map \"pedge\" goes to set \"nodes\" but dat \"f\" is on set \"edges\""
  "from_set|argument 0: map \"pother\" goes from set \"other\" but the loop is over set \"edges\" \\(x\\)"
  "direct_set|loop \"direct_sum\" \\([^)]*\\), argument 0: direct access \\(OP_ID\\) to dat \"x\" on set \"nodes\" in a loop over set \"edges\""
  "gbl_int_as_double|loop \"edge_sum\" \\([^)]*\\), argument 2: type \"double\" but the variable passed is int"
  "gbl_int_as_float|loop \"edge_sum_float\" \\([^)]*\\), argument 2: type \"float\" but the variable passed is int"
  "gbl_bytes|argument 2: type \"double\" has 8 bytes but the variable passed has elements of 1"
  "fetch_freed|op_fetch_data: dat \"t\" was freed by op_free_dat_temp"
  "loop_freed|op_arg_dat: dat \"t\" was freed by op_free_dat_temp"
  "fetch_after_exit|op_fetch_data: dat \"x\" is used after op_exit"
  "ptr_after_exit|op_fetch_data_ptr: dat \"x\" is used after op_exit"
  "changed_after_exit|op_host_data_changed: dat \"x\" is used after op_exit"
  "loop_after_exit|op_arg_dat: dat \"x\" is used after op_exit"
  "gbl_loop_after_exit|op_par_loop \"count_edges\" \\([^)]*\\) called after op_exit")
