/*
 * euler_step.c - the parallel loops of euler_step.h.
 */
#include "euler_step.h"

#include <math.h>
#include <string.h>

#include "op2.h"
#include "riemann_exact_core.h"

/* The constants the kernels read (op_decl_const). */
double euler_gamma;
int euler_limiter;
/* gamma's constants for the exact Riemann solver (a riemann_gas), made once
 * for every face of the run rather than at every face. */
double euler_gas[16];
_Static_assert(sizeof(riemann_gas) == sizeof euler_gas, "euler_gas holds one riemann_gas");

void euler_declare_constants(double gamma, int limiter) {
  euler_gamma = gamma;
  euler_limiter = limiter;
  riemann_gas gas;
  riemann_core_gas_init(&gas, euler_gamma);
  memcpy(euler_gas, &gas, sizeof gas);
  op_decl_const(1, "double", &euler_gamma);
  op_decl_const(1, "int", &euler_limiter);
  op_decl_const(16, "double", euler_gas);
}

/* The most rounds of fixing per sweep: each round can only flag neighbours
 * of cells flagged before, and one is almost always enough. */
#define MAX_FIX_ROUNDS 8

/* What differs between the x- and the y-sweep: the sets, maps and dats of
 * one direction, the cell size along it, and the loop names. The flux and
 * fix kernels are the direction's own (x or y); everything else is shared. */
typedef struct {
  int is_x;
  double h;
  op_set ghosts, faces;
  op_map g_src, g_self, face_cells, int_faces;
  op_dat g_flip, wall, f;
  const char *ghosts_name, *flux_name, *update_name, *flag_name, *fix_name, *reupdate_name;
} sweep_dir;

static sweep_dir sweep_along_x(const euler_mesh *m) {
  sweep_dir d = {1,        m->dx,          m->xghosts,  m->xfaces,       m->xg_src,
                 m->xg_self, m->xface_cells, m->int_xfaces, m->xg_flip,     m->xwall,
                 m->fx,    "ghosts_x",     "flux_x",    "update_x",      "flag_ghosts_x",
                 "fix_x",  "reupdate_x"};
  return d;
}

static sweep_dir sweep_along_y(const euler_mesh *m) {
  sweep_dir d = {0,        m->dy,          m->yghosts,  m->yfaces,       m->yg_src,
                 m->yg_self, m->yface_cells, m->int_yfaces, m->yg_flip,     m->ywall,
                 m->fy,    "ghosts_y",     "flux_y",    "update_y",      "flag_ghosts_y",
                 "fix_y",  "reupdate_y"};
  return d;
}

/* One sweep along a direction from the state q into qn (interior cells; the
 * caller alternates the two dats): ghosts of q, fluxes, the update with its
 * positivity check, and for the rare flagged cells first-order fluxes on
 * their faces and the update again. */
static void sweep(euler_mesh *m, const sweep_dir *s, op_dat q, op_dat qn, double dt,
                  euler_step_stats *st) {
  double dth = dt / s->h;
  int nfall = 0, nbad = 0;
  op_par_loop(euler_ghost, s->ghosts_name, s->ghosts,
              op_arg_dat(q, 0, s->g_src, 4, "double", OP_READ),
              op_arg_dat(q, 0, s->g_self, 4, "double", OP_WRITE),
              op_arg_dat(s->g_flip, -1, OP_ID, 1, "int", OP_READ));
  if (s->is_x)
    op_par_loop(euler_flux_x, s->flux_name, s->faces,
                op_arg_dat(q, 0, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 3, s->face_cells, 4, "double", OP_READ),
                op_arg_gbl(&dth, 1, "double", OP_READ),
                op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_WRITE),
                op_arg_gbl(&nfall, 1, "int", OP_INC));
  else
    op_par_loop(euler_flux_y, s->flux_name, s->faces,
                op_arg_dat(q, 0, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 3, s->face_cells, 4, "double", OP_READ),
                op_arg_gbl(&dth, 1, "double", OP_READ),
                op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_WRITE),
                op_arg_gbl(&nfall, 1, "int", OP_INC));
  op_par_loop(euler_update, s->update_name, m->interior,
              op_arg_dat(s->f, 0, s->int_faces, 4, "double", OP_READ),
              op_arg_dat(s->f, 1, s->int_faces, 4, "double", OP_READ),
              op_arg_gbl(&dth, 1, "double", OP_READ),
              op_arg_dat(q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_dat(qn, 0, m->int_cell, 4, "double", OP_WRITE),
              op_arg_dat(m->flag, 0, m->int_cell, 1, "int", OP_WRITE),
              op_arg_gbl(&nbad, 1, "int", OP_INC));
  for (int round = 0; nbad > 0 && round < MAX_FIX_ROUNDS; round++) {
    int nfix = 0, nnew = 0;
    st->flagged += nbad;
    op_par_loop(euler_flag_ghost, s->flag_name, s->ghosts,
                op_arg_dat(m->flag, 0, s->g_src, 1, "int", OP_READ),
                op_arg_dat(m->flag, 0, s->g_self, 1, "int", OP_WRITE));
    if (s->is_x)
      op_par_loop(euler_fix_x, s->fix_name, s->faces,
                  op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(m->flag, 1, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(m->flag, 2, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_RW),
                  op_arg_gbl(&nfix, 1, "int", OP_INC));
    else
      op_par_loop(euler_fix_y, s->fix_name, s->faces,
                  op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(m->flag, 1, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(m->flag, 2, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_RW),
                  op_arg_gbl(&nfix, 1, "int", OP_INC));
    op_par_loop(euler_reupdate, s->reupdate_name, m->interior,
                op_arg_dat(s->f, 0, s->int_faces, 4, "double", OP_READ),
                op_arg_dat(s->f, 1, s->int_faces, 4, "double", OP_READ),
                op_arg_gbl(&dth, 1, "double", OP_READ),
                op_arg_dat(q, 0, m->int_cell, 4, "double", OP_READ),
                op_arg_dat(qn, 0, m->int_cell, 4, "double", OP_WRITE),
                op_arg_dat(m->flag, 0, m->int_cell, 1, "int", OP_RW),
                op_arg_gbl(&nnew, 1, "int", OP_INC));
    st->fixed += nfix;
    nbad = nnew;
  }
  st->fallbacks += nfall;
}

void euler_step(euler_mesh *m, long step, double dt, euler_step_stats *st) {
  /* x then y on even steps, y then x on odd ones; q -> q2 -> q. */
  const sweep_dir along_x = sweep_along_x(m), along_y = sweep_along_y(m);
  const sweep_dir *first = step % 2 == 0 ? &along_x : &along_y;
  const sweep_dir *second = step % 2 == 0 ? &along_y : &along_x;
  sweep(m, first, m->q, m->q2, dt, st);
  sweep(m, second, m->q2, m->q, dt, st);
}

double euler_max_wave_speed(euler_mesh *m, double qmin[2]) {
  double smax = 0.0;
  qmin[0] = qmin[1] = HUGE_VAL;
  op_par_loop(euler_wave_speed, "wave_speed", m->interior,
              op_arg_dat(m->q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_gbl(&smax, 1, "double", OP_MAX),
              op_arg_gbl(qmin, 2, "double", OP_MIN));
  return smax;
}

void euler_conserved_totals(euler_mesh *m, double tot[8]) {
  for (int k = 0; k < 8; k++) tot[k] = 0.0;
  op_par_loop(euler_totals, "totals", m->interior,
              op_arg_dat(m->q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_gbl(tot, 8, "double", OP_INC));
  for (int k = 0; k < 8; k++) tot[k] *= m->dx * m->dy;
}


void euler_compute_output_fields(euler_mesh *m) {
  op_par_loop(euler_output, "output", m->interior,
              op_arg_dat(m->q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_dat(m->out_rho, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_vel, -1, OP_ID, 2, "double", OP_WRITE),
              op_arg_dat(m->out_p, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_mach, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_energy, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_q, -1, OP_ID, 4, "double", OP_WRITE));
}

