/* RW direct (float): v0 = 2 v0 + 1, v1 = 2 v1 + v0 (the old v0): the two
 * components differ in what they compute, so that a layout that mixes them up
 * (AoS against SoA on a device) shows. */
static inline void scale_rw(float *v) {
  const float v0 = v[0];
  v[0] = 2.0f * v0 + 1.0f;
  v[1] = 2.0f * v[1] + v0;
}
