/* Dahlquist's test equation y' = −k·y, y(0) = y0 (closed form y0·e^(−k·t)): with a large k a
 * stiff system, for the explicit solvers' stability bounds (RK4: k·h < 2.785, Euler: k·h < 2). */
#include "me_model.h"

enum { Y, DER_Y, K, Y0 };

const int me_n_states = 1;
const int me_n_indicators = 0;
const int me_n_reals = 4;

void me_start(MeInstance* m) {
  m->r[K] = 1.0;
  m->r[Y0] = 1.0;
}

void me_initialize(MeInstance* m) { m->x[0] = m->r[Y0]; }

void me_derivatives(const MeInstance* m, double dx[]) { dx[0] = -m->r[K] * m->x[0]; }

void me_indicators(const MeInstance* m, double z[]) { (void)m; (void)z; }

void me_event(MeInstance* m) { (void)m; }

void me_outputs(MeInstance* m) {
  m->r[Y] = m->x[0];
  m->r[DER_Y] = -m->r[K] * m->x[0];
}
