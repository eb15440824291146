/*
 * euler_write.h - what the Euler solver writes while it runs: the line with
 * the totals at every output, pictures of the fields asked for (PPM and PNG,
 * one colour range across the series), HDF5 dumps with their XDMF files,
 * history.csv, and the profile against the exact solution at the end of a
 * 1D Riemann problem; and the estimate of their sizes, checked before the run.
 */
#ifndef EULER_WRITE_H
#define EULER_WRITE_H

#include <stddef.h>

#include "deck.h"
#include "euler_mesh.h"
#include "euler_problem.h"
#include "op_ppm.h"
#include "op_xdmf.h"
#include "solver_history.h"
#include "solver_io.h"
#include "solver_limits.h"
#include "solver_output.h"
#include "solver_pace.h"

/* rho, u, v, p, e, energy, speed, mach: the fields a picture can show. */
#define EULER_NFIELDS 8

/* The pictures asked for (image_fields, image_range). */
typedef struct {
  int field[EULER_NFIELDS]; /* fields to draw, in the order given */
  int nfields;
  int fixed[EULER_NFIELDS]; /* 1 when the field has a fixed range */
  double lo[EULER_NFIELDS], hi[EULER_NFIELDS];
} euler_image_spec;

/* Reads image_fields and image_range (bad input stops the run, exit 2,
 * naming the key). */
void euler_read_image_spec(const deck *d, euler_image_spec *s);

/* What a run of about `steps` steps needs, memory and outputs
 * (solver_main_outputs checks it against the limits). */
void euler_estimate(const deck *d, const euler_image_spec *img, double steps, solver_estimate *e);

/* Declares the names of what the run writes into output_dir (solver_io.h):
 * history.csv, the pictures of img's fields, the HDF5 files with their XDMF,
 * a 1D Riemann problem's profile. */
void euler_declare_outputs(const deck *d, const euler_image_spec *img, solver_io *io);

typedef struct {
  const deck *d;
  const euler_problem *pb;
  euler_mesh *m;
  const char *outdir;
  euler_image_spec img;
  op_ppm_options ppm;
  op_xdmf_series *series;
  int frame;
  int hdf5_mode; /* 0 none, 1 final, 2 all */
  double *field; /* nx * ny scratch for images */
  /* One colour range per field across the series: every frame is drawn as it
   * comes with its own range (a run in progress can be looked at), kept as
   * floats, and the final output redraws them all with the range of the
   * whole series. Not for fields with a range in image_range, nor when the
   * frames would take more than EULER_FRAME_BUDGET bytes (series_range 0; euler_write.c). */
  solver_history history; /* history.csv: a row per step */
  solver_pace pace;       /* the progress each line ends with */
  char grid_file[4240];   /* grid.h5: the grid's nodes and quadrilaterals, for the .xmf files */
  int grid_written;
  double t_end;
  long max_steps;
  int series_range;
  float *frames[EULER_NFIELDS];
  double *frame_times;
  int frames_kept, frames_cap;
  const solver_output *out; /* for the free space */
} euler_writer;

/* Makes the writer of a run on mesh m into out's staging folder: the
 * pictures img asks for, the HDF5 mode and history.csv from the deck. */
void euler_writer_open(euler_writer *o, const deck *d, const euler_problem *pb, euler_mesh *m,
                       const solver_output *out, const euler_image_spec *img);

/* One output at time t after `step` steps (the last of length dt): the
 * totals computed into tot and printed, images, the HDF5 dump, the history
 * so far, and when final the final state (and a 1D Riemann problem's
 * profile). */
void euler_write_output(euler_writer *o, double t, long step, double dt, int final, double tot[8]);

/* "t/t_end, 41%, 8.1 s, about 12 s left": the share of the simulated time
 * reached (or of max_steps, when that ends the run sooner), into buf. */
const char *euler_progress(euler_writer *o, double t, long step, char *buf, size_t len);

/* Frees what the writer holds. */
void euler_writer_close(euler_writer *o);

#endif
