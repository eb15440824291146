/* WRITE direct: the element index (op_arg_idx with OP_ID) times a constant. */
static inline void write_idx(const int *n, int *out) { *out = *n * int_factor; }
