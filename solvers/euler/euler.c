/*
 * euler - the 2D Euler equations of an ideal gas on a structured grid:
 * MUSCL-Hancock with slope limiters and the exact Riemann solver, dimensional
 * splitting with the sweep order alternating every step, the CFL time step
 * from a max reduction (docs/euler.md), written once on the OP2 API
 * and built for every backend.
 *
 *   euler_<backend> [DECK] [key=value ...] [--op-... options]
 *
 * The run by job, each in a file of its own:
 *   euler_params.c   the deck's keys, the problem read and checked from them
 *   euler_mesh.c     the grid on OP2 (sets, maps, dats) and the initial state
 *   euler_step.c     every parallel loop: the time step, wave speed, totals,
 *                    output fields (the file op2-gen makes the loop code from)
 *   euler_write.c    pictures, HDF5 and XDMF, history.csv, the profile
 *   euler_results.c  the verdicts, the summary and result.json
 *   euler.c          main: the start, the time loop, the end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck.h"
#include "euler_accuracy.h"
#include "euler_mesh.h"
#include "euler_params.h"
#include "euler_problem.h"
#include "euler_results.h"
#include "euler_step.h"
#include "euler_write.h"
#include "op2.h"
#include "solver_history.h"
#include "solver_interrupt.h"
#include "solver_limits.h"
#include "solver_main.h"
#include "solver_output.h"
#include "solver_pace.h"
#include "solver_verdict.h"

int main(int argc, char **argv) {
  const double t_start = op_wtime();
  /* A face's cost varies across the grid by an order of magnitude (a uniform
   * stretch against a shock), and the waves do not fill the two halves of it
   * evenly: four pieces a thread balance the OpenMP threads (the benchmark's
   * fluxes to T = 0.2 on two threads: 5% faster than one piece; docs/
   * performance.md, "Euler's face fluxes"). --op-thread-spread=N overrides it
   * (set before op_init or after, the option wins). */
  op_set_thread_spread(4);
  int status;
  deck *d = solver_main_start("euler", euler_keys, euler_nkeys, &argc, argv, &status);
  if (!d) return status;
  char err[2048];
  euler_problem pb;
  double speed0, dt0;
  euler_read_problem(d, &pb, &speed0);
  const double steps_estimate = euler_estimate_steps(d, speed0, &dt0);
  euler_check_steps(d, speed0, steps_estimate, dt0);
  euler_l1_bound l1_bound;
  const int l1_given = euler_read_l1_bound(d, &l1_bound);
  euler_image_spec img;
  euler_read_image_spec(d, &img);

  solver_output sout;
  solver_estimate need;
  euler_estimate(d, &img, steps_estimate, &need);
  solver_io io;
  solver_io_init(&io);
  euler_declare_outputs(d, &img, &io);
  if (solver_main_outputs(&sout, "euler", d, &io, &need, err, sizeof err) != 0) {
    fprintf(stderr, "euler: %s\n", err);
    exit(2);
  }

  euler_mesh m;
  euler_build_mesh(d, &pb, &m);
  euler_declare_constants(pb.gamma, deck_choice(d, "limiter"));
  euler_set_initial(&pb, &m);

  const double t_end = deck_real(d, "t_end"), cfl = deck_real(d, "cfl");
  const double interval = deck_real(d, "output_interval");
  const long max_steps = deck_int(d, "max_steps");
  const double h = m.dx < m.dy ? m.dx : m.dy;

  euler_writer o;
  euler_writer_open(&o, d, &pb, &m, &sout, &img);

  static const char *const problem_names[] = {"2D Riemann problem", "1D Riemann problem",
                                              "isentropic vortex", "cylindrical explosion"};
  printf("euler: %s on %d x %d cells (dx %.6g, dy %.6g, %d ghost layers), limiter %s, "
         "cfl %g, gamma %g, t_end %g\n",
         problem_names[pb.kind], m.grid.nx, m.grid.ny, m.dx, m.dy, m.grid.g,
         deck_string(d, "limiter"), cfl, pb.gamma, t_end);
  printf("euler: boundaries west %s, east %s, south %s, north %s; backend %s, %d thread(s), "
         "part size %d\n",
         deck_string(d, "bc_west"), deck_string(d, "bc_east"), deck_string(d, "bc_south"),
         deck_string(d, "bc_north"), op_backend_name(), op_num_threads(), op_part_size());
  if (pb.kind == EULER_PROBLEM_RIEMANN1D) {
    char line[512];
    euler_riemann1d_describe(&pb, line, sizeof line);
    printf("euler: %s\n", line);
  }
  if (op_diags_level() > 0) op_diagnostic_output();

  printf("%12s %8s %12s %22s %22s %22s %22s  %s\n", "time", "step", "dt", "mass", "momentum_x",
         "momentum_y", "energy", "progress");
  double tot0[8], tot1[8], wall_output = 0.0, wall_steps = 0.0;
  double t = 0.0, dt = 0.0, qmin[2] = {0.0, 0.0};
  long step = 0;
  euler_step_stats st = {0, 0, 0};
  int physical = 1;
  solver_pace_begin(&o.pace, solver_pace_now());
  double w0 = op_wtime();
  euler_write_output(&o, t, step, dt, 0, tot0);
  wall_output += op_wtime() - w0;
  int next_frame = 1;
  solver_interrupt_install("euler");
  while (t < t_end && (max_steps == 0 || step < max_steps) && !solver_interrupted()) {
    double w1 = op_wtime();
    const double smax = euler_max_wave_speed(&m, qmin);
    if (!(qmin[0] > 0.0) || !(qmin[1] > 0.0) || !(smax > 0.0) || !isfinite(smax)) {
      physical = 0;
      fprintf(stderr,
              "euler: the state is not physical at step %ld (t = %.10g): smallest density %g, "
              "smallest pressure %g, largest wave speed %g; stopping\n",
              step, t, qmin[0], qmin[1], smax);
      break;
    }
    dt = cfl * h / smax;
    /* dt bounded from below: waves that sped up since the start (a state
     * going wrong) would make the run go on for ever. */
    if (max_steps == 0 && (double)step + (t_end - t) / dt > EULER_MAX_STEPS) {
      fprintf(stderr,
              "euler: at step %ld (t = %.10g) dt fell to %g (the largest signal speed is %g, "
              "%.3g times the initial data's): reaching t_end would take more than %.0e steps; "
              "stopping\n",
              step, t, dt, smax, smax / speed0, EULER_MAX_STEPS);
      break;
    }
    /* Land exactly on the next output time or the end time (stretching dt
     * by at most 1e-6 rather than leaving a sliver of a step). */
    double target = t_end;
    int at_output = 0;
    if (interval > 0.0 && next_frame * interval < t_end) {
      target = next_frame * interval;
      at_output = 1;
    }
    int landed = 0;
    if (t + dt * (1.0 + 1e-6) >= target) {
      dt = target - t;
      landed = 1;
    }
    euler_step(&m, step, dt, &st);
    t = landed ? target : t + dt;
    step++;
    solver_history_add(&o.history, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g", step, t, dt, smax, qmin[0],
                       qmin[1]);
    wall_steps += op_wtime() - w1;
    if (landed && at_output) {
      w0 = op_wtime();
      euler_write_output(&o, t, step, dt, 0, tot1);
      wall_output += op_wtime() - w0;
      next_frame++;
    } else if (solver_pace_due(&o.pace, SOLVER_PACE_QUIET, solver_pace_now())) {
      /* Outputs far apart (or none before the end): a line of progress alone. */
      char pr[160];
      printf("euler: step %ld, t = %s\n", step, euler_progress(&o, t, step, pr, sizeof pr));
      fflush(stdout);
    }
  }
  /* The final state: checked once more, then the last output. */
  euler_max_wave_speed(&m, qmin);
  if (!(qmin[0] > 0.0) || !(qmin[1] > 0.0)) physical = 0;
  w0 = op_wtime();
  euler_write_output(&o, t, step, dt, 1, tot1);
  wall_output += op_wtime() - w0;

  euler_accuracy ex;
  memset(&ex, 0, sizeof ex);
  if (euler_has_exact(&pb)) {
    euler_compute_output_fields(&m);
    /* On the whole state, gathered on the root, whose measures every process
     * then holds (the verdicts, hence the exit status, are the same everywhere). */
    const double *q = op_fetch_data_global(m.out_q);
    if (q) euler_accuracy_measure(&pb, t, m.grid.nx, m.grid.ny, q, &ex);
    op_broadcast(&ex, sizeof ex);
    if (!euler_ends_keep_exact(d, &pb)) ex.valid = 0;
  }

  euler_result r;
  memset(&r, 0, sizeof r);
  r.d = d;
  r.grid = &m.grid;
  r.dx = m.dx;
  r.dy = m.dy;
  r.steps = step;
  r.t_final = t;
  r.physical = physical;
  r.qmin[0] = qmin[0];
  r.qmin[1] = qmin[1];
  r.fallbacks = st.fallbacks;
  r.flagged = st.flagged;
  r.fixed = st.fixed;
  memcpy(r.tot0, tot0, sizeof tot0);
  memcpy(r.tot1, tot1, sizeof tot1);
  r.ex = ex;
  r.wall_steps = wall_steps;
  r.wall_output = wall_output;
  solver_verdicts verdicts;
  solver_verdicts_init(&verdicts);
  euler_result_verdicts(&r, &pb, l1_given ? &l1_bound : NULL, &verdicts);
  euler_result_print(&r, stdout);
  op_timing_output();
  solver_verdicts_print(&verdicts, stdout);

  r.verdicts = &verdicts;
  r.wall_total = op_wtime() - t_start;
  status = solver_main_finish(&sout, &verdicts, euler_result_fill, &r,
                              "result.json, history.csv, pictures and HDF5 as asked", err,
                              sizeof err);
  if (status < 0) euler_fail("outputs", err);
  euler_writer_close(&o);
  op_exit();
  euler_mesh_free(&m);
  deck_free(d);
  return status;
}
