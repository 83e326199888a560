/* A staircase that ends the simulation (issue 40), like the Reference FMUs' Stair: the output
 * `counter` (an integer) is 1 at the start and steps up by 1 at every whole second,
 * counter(t) = 1 + floor(t); at t = stop_at (a parameter, 0: never) the FMU asks to end the
 * simulation: a step that reaches it stops there (FMI 2: doStep returns fmi2Discard and
 * fmi2GetBooleanStatus(fmi2Terminated) is true, fmi2GetRealStatus(fmi2LastSuccessfulTime)
 * stop_at; FMI 3: terminateSimulation with lastSuccessfulTime stop_at), and a step after that
 * is an error. FMI 3 with early return allowed: a step that passes a whole second returns early
 * there (earlyReturn, lastSuccessfulTime the second). Value references: 0 counter (output), 1 stop_at [s] (parameter), 2 t_fmu [s]
 * (output, the FMU's time). Shared by stair_fmi2.c and stair_fmi3.c. */
#ifndef HILSIM_TEST_STAIR_H
#define HILSIM_TEST_STAIR_H

#include <math.h>
#include <stdlib.h>

typedef struct {
  double time;
  double stop_at;
  int counter;
  int terminated;
  int early_return_allowed;
} Stair;

static Stair* stair_new(void) {
  Stair* m = (Stair*)calloc(1, sizeof(Stair));
  if (m != NULL) {
    m->stop_at = 5.25;
    m->counter = 1;
  }
  return m;
}

/* 1e-9: a communication point computed as k·h lands on a whole second within rounding */
static void stair_update(Stair* m) { m->counter = 1 + (int)floor(m->time + 1e-9); }

/* 0 stepped to t + h; 1 stopped at stop_at (terminated); 2 returned early at a whole second;
 * −1 error (stepped after the end). */
static int stair_step(Stair* m, double t, double h) {
  if (m->terminated) return -1;
  m->time = t + h;
  int end = 0;
  const double second = floor(t + 1e-9) + 1.0;
  if (m->early_return_allowed && second < t + h - 1e-9) {
    m->time = second;
    end = 2;
  }
  if (m->stop_at > 0.0 && m->time >= m->stop_at - 1e-12) {
    m->time = m->stop_at;
    m->terminated = 1;
    end = 1;
  }
  stair_update(m);
  return end;
}

#endif
