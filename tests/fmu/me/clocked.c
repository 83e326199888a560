/* A clocked partition (FMI 3 §2.2.8): a periodic input clock `tick` (value reference 100,
 * intervalVariability constant, every 0.1 s from 0) whose partition counts its ticks and samples
 * the continuous state x (der(x) = 1, x = t): after the tick at t_k = 0.1·k, ticks = k + 1 and
 * sample = t_k, held until the next tick. */
#include "me_model.h"

enum { X, DER_X, TICKS, SAMPLE };

const int me_n_states = 1;
const int me_n_indicators = 0;
const int me_n_reals = 4;

void me_start(MeInstance* m) { (void)m; }

void me_initialize(MeInstance* m) {
  m->x[0] = m->time;
  m->r[TICKS] = 0.0;
  m->r[SAMPLE] = -1.0;
}

void me_derivatives(const MeInstance* m, double dx[]) {
  (void)m;
  dx[0] = 1.0;
}

void me_indicators(const MeInstance* m, double z[]) { (void)m; (void)z; }

void me_event(MeInstance* m) {
  if (m->clock_ticked) {
    m->r[TICKS] += 1.0;
    m->r[SAMPLE] = m->x[0];
  }
}

void me_outputs(MeInstance* m) {
  m->r[X] = m->x[0];
  m->r[DER_X] = 1.0;
}
