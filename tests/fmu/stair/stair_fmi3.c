/* FMI 3.0 co-simulation wrapper of stair.h (the declarations: ../fmi3_cs.h). */
#include <string.h>

#include "../fmi3_cs.h"
#include "stair.h"

EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String name, fmi3String token, fmi3String resources, bool visible, bool logging,
    bool event_mode, bool early_return, const fmi3ValueReference required[], size_t n_required,
    void* env, fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback intermediate) {
  (void)name;
  (void)resources;
  (void)visible;
  (void)logging;
  (void)event_mode;
  (void)required;
  (void)n_required;
  (void)env;
  (void)log;
  (void)intermediate;
  if (token == NULL || strcmp(token, "{5ea1c2b0-40a1-4c1e-9d1e-57a1200000f3}") != 0) return NULL;
  Stair* m = stair_new();
  if (m != NULL) m->early_return_allowed = early_return;
  return m;
}

EXPORT void fmi3FreeInstance(fmi3Instance c) { free(c); }

EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance c, bool tolerance_defined,
                                              double tolerance, double start, bool stop_defined,
                                              double stop) {
  (void)tolerance_defined;
  (void)tolerance;
  (void)stop_defined;
  (void)stop;
  ((Stair*)c)->time = start;
  return fmi3OK;
}

EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance c) {
  stair_update((Stair*)c);
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                 double value[], size_t n_values) {
  const Stair* m = (const Stair*)c;
  if (n_values != n) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] == 1) {
      value[i] = m->stop_at;
    } else if (vr[i] == 2) {
      value[i] = m->time;
    } else {
      return fmi3Error;
    }
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                 const double value[], size_t n_values) {
  if (n_values != n) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] != 1) return fmi3Error;
    ((Stair*)c)->stop_at = value[i];
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetInt32(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                               int32_t value[], size_t n_values) {
  if (n_values != n) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] != 0) return fmi3Error;
    value[i] = ((const Stair*)c)->counter;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3DoStep(fmi3Instance c, double t, double h, bool no_prior, bool* event,
                             bool* terminate, bool* early, double* last) {
  (void)no_prior;
  Stair* m = (Stair*)c;
  const int end = stair_step(m, t, h);
  *event = false;
  *terminate = end == 1;
  *early = end == 2;
  *last = m->time;
  return end < 0 ? fmi3Error : fmi3OK;
}
