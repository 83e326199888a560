/* A first-order system for the FMU tests (issue 18): dx/dt = (k·u − x)/T, y = x, x(0) = x0.
 * doStep integrates it exactly for the input held over the step:
 *   x(t + h) = k·u + (x(t) − k·u)·exp(−h/T)
 * so a step response read at the communication points is y(t) = k·u·(1 − exp(−t/T)) to the
 * last bits. Shared by the FMI 2.0 and FMI 3.0 wrappers (first_order_fmi2.c, _fmi3.c).
 * Value references: 0 T [s], 1 k, 2 x0, 3 u (input), 4 y (output); for tests: 5 fail_after
 * (doStep fails from that step on), 6 allocate (doStep mallocs and frees 64 bytes), 7 stall_us
 * (every 10th doStep sleeps that long: an FMU too slow for the RT thread). */
#ifndef HILSIM_TEST_FIRST_ORDER_H
#define HILSIM_TEST_FIRST_ORDER_H

#include <math.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  double value[5];
  double time;
  int fail_at_step; /* the wrappers' "fail_after" variable, for the failure tests; 0: never */
  int allocate;     /* the wrappers' "allocate" variable: doStep allocates (the probe's tests) */
  double stall_us;  /* the wrappers' "stall_us": every 10th doStep sleeps this long */
  int steps;
} FirstOrder;

static FirstOrder* first_order_new(void) {
  FirstOrder* m = (FirstOrder*)calloc(1, sizeof(FirstOrder));
  if (m == NULL) return NULL;
  m->value[0] = 0.5; /* T */
  m->value[1] = 1.0; /* k */
  m->value[2] = 0.0; /* x0 */
  m->value[3] = 1.0; /* u */
  m->value[4] = 0.0; /* y */
  return m;
}

static void first_order_initialize(FirstOrder* m) { m->value[4] = m->value[2]; }

/* 0 on success, −1 when the step must fail (T ≤ 0, or the failure test's step reached). */
static int first_order_step(FirstOrder* m, double h) {
  const double T = m->value[0];
  const double target = m->value[1] * m->value[3];
  ++m->steps;
  if (m->allocate) { /* what an FMU that is not real-time safe does */
    char* volatile scratch = (char*)malloc(64);
    if (scratch != NULL) scratch[0] = 1;
    free(scratch);
  }
  if (m->stall_us > 0.0 && m->steps % 10 == 0) {
    const long ns = (long)(m->stall_us * 1e3);
    struct timespec pause = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&pause, NULL);
  }
  if (T <= 0.0 || (m->fail_at_step > 0 && m->steps >= m->fail_at_step)) return -1;
  m->value[4] = target + (m->value[4] - target) * exp(-h / T);
  m->time += h;
  return 0;
}

/* Values by reference, the same for both wrappers: 0 on success, −1 for a reference the model
 * does not have (the wrappers answer their version's error status). */
static int first_order_get(const FirstOrder* m, const unsigned vr[], size_t n, double value[]) {
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] > 4) return -1;
    value[i] = m->value[vr[i]];
  }
  return 0;
}

static int first_order_set(FirstOrder* m, const unsigned vr[], size_t n, const double value[]) {
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] == 5) {
      m->fail_at_step = (int)value[i];
    } else if (vr[i] == 6) {
      m->allocate = value[i] != 0.0;
    } else if (vr[i] == 7) {
      m->stall_us = value[i];
    } else if (vr[i] > 4) {
      return -1;
    } else {
      m->value[vr[i]] = value[i];
    }
  }
  return 0;
}

#endif
