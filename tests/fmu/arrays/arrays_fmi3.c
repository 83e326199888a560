/* FMI 3 arrays and a structural parameter (issue 40), like the Reference FMUs' StateSpace:
 * n first-order lags side by side, y_i(t + h) = g_i·u_i + (y_i(t) − g_i·u_i)·exp(−h/T) for
 * the input held over the step (exact), y(0) = 0, so a step response is
 * y_i(t) = g_i·u_i·(1 − exp(−t/T)). Value references: 0 n (UInt64 structural parameter,
 * 1..8, set in configuration mode), 1 T [s], 2 gains[n] (parameter), 3 u[n] (input),
 * 4 y[n] (output), 5 y_sum = Σ y_i (output), 6 shape[2] = {n, steps taken} (UInt64 output,
 * a fixed dimension). Declarations: ../fmi3_cs.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../fmi3_cs.h"

#define MAX_N 8

typedef struct {
  uint64_t n;
  double T;
  double gains[MAX_N];
  double u[MAX_N];
  double y[MAX_N];
  uint64_t steps;
  int configuring;
} Arrays;

/* Values of reference vr (Float64), or 0 for an unknown one. */
static size_t float64_size(const Arrays* m, fmi3ValueReference vr) {
  switch (vr) {
    case 1: return 1;
    case 2: case 3: case 4: return (size_t)m->n;
    case 5: return 1;
    default: return 0;
  }
}

static double* float64_values(Arrays* m, fmi3ValueReference vr) {
  switch (vr) {
    case 1: return &m->T;
    case 2: return m->gains;
    case 3: return m->u;
    case 4: return m->y;
    default: return NULL;
  }
}

EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String name, fmi3String token, fmi3String resources, bool visible, bool logging,
    bool event_mode, bool early_return, const fmi3ValueReference required[], size_t n_required,
    void* env, fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback intermediate) {
  (void)name;
  (void)resources;
  (void)visible;
  (void)logging;
  (void)event_mode;
  (void)early_return;
  (void)required;
  (void)n_required;
  (void)env;
  (void)log;
  (void)intermediate;
  if (token == NULL || strcmp(token, "{a77a4500-7f1e-4c3b-9a55-a77a000000f3}") != 0) return NULL;
  Arrays* m = (Arrays*)calloc(1, sizeof(Arrays));
  if (m == NULL) return NULL;
  m->n = 3;
  m->T = 0.5;
  for (int i = 0; i < MAX_N; ++i) {
    m->gains[i] = i + 1;
    m->u[i] = 1.0;
  }
  return m;
}

EXPORT void fmi3FreeInstance(fmi3Instance c) { free(c); }

EXPORT fmi3Status fmi3EnterConfigurationMode(fmi3Instance c) {
  ((Arrays*)c)->configuring = 1;
  return fmi3OK;
}

EXPORT fmi3Status fmi3ExitConfigurationMode(fmi3Instance c) {
  ((Arrays*)c)->configuring = 0;
  return fmi3OK;
}

EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance c, bool tolerance_defined,
                                              double tolerance, double start, bool stop_defined,
                                              double stop) {
  (void)c;
  (void)tolerance_defined;
  (void)tolerance;
  (void)start;
  (void)stop_defined;
  (void)stop;
  return fmi3OK;
}

EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t nvr,
                                 double value[], size_t n_values) {
  Arrays* m = (Arrays*)c;
  size_t k = 0;
  for (size_t i = 0; i < nvr; ++i) {
    const size_t n = float64_size(m, vr[i]);
    if (n == 0 || k + n > n_values) return fmi3Error;
    if (vr[i] == 5) {
      double sum = 0.0;
      for (uint64_t j = 0; j < m->n; ++j) sum += m->y[j];
      value[k] = sum;
    } else {
      memcpy(&value[k], float64_values(m, vr[i]), n * sizeof(double));
    }
    k += n;
  }
  return k == n_values ? fmi3OK : fmi3Error;
}

EXPORT fmi3Status fmi3SetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t nvr,
                                 const double value[], size_t n_values) {
  Arrays* m = (Arrays*)c;
  size_t k = 0;
  for (size_t i = 0; i < nvr; ++i) {
    const size_t n = float64_size(m, vr[i]);
    if (n == 0 || vr[i] >= 4 || k + n > n_values) return fmi3Error;
    memcpy(float64_values(m, vr[i]), &value[k], n * sizeof(double));
    k += n;
  }
  return k == n_values ? fmi3OK : fmi3Error;
}

EXPORT fmi3Status fmi3GetUInt64(fmi3Instance c, const fmi3ValueReference vr[], size_t nvr,
                                uint64_t value[], size_t n_values) {
  const Arrays* m = (const Arrays*)c;
  size_t k = 0;
  for (size_t i = 0; i < nvr; ++i) {
    if (vr[i] == 0 && k + 1 <= n_values) {
      value[k++] = m->n;
    } else if (vr[i] == 6 && k + 2 <= n_values) {
      value[k++] = m->n;
      value[k++] = m->steps;
    } else {
      return fmi3Error;
    }
  }
  return k == n_values ? fmi3OK : fmi3Error;
}

EXPORT fmi3Status fmi3SetUInt64(fmi3Instance c, const fmi3ValueReference vr[], size_t nvr,
                                const uint64_t value[], size_t n_values) {
  Arrays* m = (Arrays*)c;
  if (nvr != n_values) return fmi3Error;
  for (size_t i = 0; i < nvr; ++i) {
    /* the structural parameter only in configuration mode, 1..MAX_N */
    if (vr[i] != 0 || !m->configuring || value[i] < 1 || value[i] > MAX_N) return fmi3Error;
    m->n = value[i];
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3DoStep(fmi3Instance c, double t, double h, bool no_prior, bool* event,
                             bool* terminate, bool* early, double* last) {
  (void)no_prior;
  Arrays* m = (Arrays*)c;
  if (m->T <= 0.0) return fmi3Error;
  const double decay = exp(-h / m->T);
  for (uint64_t i = 0; i < m->n; ++i) {
    const double target = m->gains[i] * m->u[i];
    m->y[i] = target + (m->y[i] - target) * decay;
  }
  ++m->steps;
  *event = false;
  *terminate = false;
  *early = false;
  *last = t + h;
  return fmi3OK;
}
