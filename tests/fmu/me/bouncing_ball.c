/* A ball dropped from h0 bouncing with restitution e (the FMI reference BouncingBall's
 * equations): der(h) = v, der(v) = −g; when h ≤ 0 (event indicator z = h) then h := 0 and
 * v := −e·v; when the rebound is below v_min it rests. Analytic bounce times: t1 = sqrt(2·h0/g),
 * t_{k+1} = t_k + 2·e^k·v1/g with v1 = g·t1. */
#include "me_model.h"

enum { H, V, DER_H, DER_V, G, E, H0, V_MIN, BOUNCES, LAST_BOUNCE, RESTING };

const int me_n_states = 2;
const int me_n_indicators = 1;
const int me_n_reals = 10;

void me_start(MeInstance* m) {
  m->r[G] = 9.81;
  m->r[E] = 0.7;
  m->r[H0] = 1.0;
  m->r[V_MIN] = 0.1;
}

void me_initialize(MeInstance* m) {
  m->x[0] = m->r[H0];
  m->x[1] = 0.0;
  m->r[BOUNCES] = 0.0;
  m->r[LAST_BOUNCE] = 0.0;
  m->r[RESTING] = 0.0;
}

void me_derivatives(const MeInstance* m, double dx[]) {
  const int resting = m->r[RESTING] != 0.0;
  dx[0] = resting ? 0.0 : m->x[1];
  dx[1] = resting ? 0.0 : -m->r[G];
}

void me_indicators(const MeInstance* m, double z[]) { z[0] = m->r[RESTING] != 0.0 ? 1.0 : m->x[0]; }

void me_event(MeInstance* m) {
  if (m->r[RESTING] == 0.0 && m->x[0] <= 0.0 && m->x[1] < 0.0) {
    m->r[BOUNCES] += 1.0;
    m->r[LAST_BOUNCE] = m->time;
    m->x[0] = 0.0;
    m->x[1] = -m->r[E] * m->x[1];
    if (m->x[1] < m->r[V_MIN]) {
      m->x[1] = 0.0;
      m->r[RESTING] = 1.0;
    }
    m->values_changed = 1;
  }
}

void me_outputs(MeInstance* m) {
  m->r[H] = m->x[0];
  m->r[V] = m->x[1];
  double dx[2];
  me_derivatives(m, dx);
  m->r[DER_H] = dx[0];
  m->r[DER_V] = dx[1];
}
