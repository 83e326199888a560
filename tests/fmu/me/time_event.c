/* A time event: the output y steps from 0 to `height` at t = t_step (1.3 s: nextEventTime), and
 * x integrates it (der(x) = y), so x(t) = height·max(0, t − t_step): exact only when the event
 * is hit exactly. With terminate_at > 0, a second time event there asks to end the simulation;
 * with step_events_every = N > 0, every N-th completed integrator step asks for a step event,
 * counted in step_events. */
#include <math.h>

#include "me_model.h"

enum { Y, X, DER_X, T_STEP, HEIGHT, TERMINATE_AT, STEP_EVENTS_EVERY, STEP_EVENTS, COMPLETED, ASKED };

const int me_n_states = 1;
const int me_n_indicators = 0;
const int me_n_reals = 8;

void me_start(MeInstance* m) {
  m->r[T_STEP] = 1.3;
  m->r[HEIGHT] = 1.0;
  m->r[TERMINATE_AT] = 0.0;
  m->r[STEP_EVENTS_EVERY] = 0.0;
}

int me_completed_step(MeInstance* m) {
  m->r[COMPLETED] += 1.0;
  const double n = m->r[STEP_EVENTS_EVERY];
  m->r[ASKED] = n > 0.0 && m->r[COMPLETED] >= n && fmod(m->r[COMPLETED], n) == 0.0;
  return m->r[ASKED] != 0.0;
}

/* The next time event: the step, then the end asked for. */
static void schedule(MeInstance* m) {
  const double step = m->r[T_STEP];
  const double end = m->r[TERMINATE_AT];
  m->next_event_defined = 1;
  if (m->time < step && (end <= 0.0 || step <= end)) {
    m->next_event = step;
  } else if (end > 0.0 && m->time < end) {
    m->next_event = end;
  } else {
    m->next_event_defined = 0;
  }
}

void me_initialize(MeInstance* m) {
  m->x[0] = 0.0;
  m->r[Y] = m->time >= m->r[T_STEP] ? m->r[HEIGHT] : 0.0;
  schedule(m);
}

void me_derivatives(const MeInstance* m, double dx[]) { dx[0] = m->r[Y]; }

void me_indicators(const MeInstance* m, double z[]) { (void)m; (void)z; }

void me_event(MeInstance* m) {
  if (m->r[ASKED] != 0.0) m->r[STEP_EVENTS] += 1.0;
  m->r[ASKED] = 0.0;
  if (m->time >= m->r[T_STEP]) m->r[Y] = m->r[HEIGHT];
  if (m->r[TERMINATE_AT] > 0.0 && m->time >= m->r[TERMINATE_AT]) m->terminate = 1;
  schedule(m);
}

void me_outputs(MeInstance* m) {
  m->r[X] = m->x[0];
  m->r[DER_X] = m->r[Y];
}
