/* FMI 2.0 co-simulation wrapper of stair.h (the declarations: ../fmi2_cs.h). */
#include <string.h>

#include "../fmi2_cs.h"
#include "stair.h"

typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions* f,
                                     fmi2Boolean visible, fmi2Boolean logging) {
  (void)name;
  (void)resources;
  (void)f;
  (void)visible;
  (void)logging;
  if (type != fmi2CoSimulation || guid == NULL ||
      strcmp(guid, "{5ea1c2b0-40a1-4c1e-9d1e-57a1200000f2}") != 0) {
    return NULL;
  }
  return stair_new();
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined,
                                      double tolerance, double start, fmi2Boolean stop_defined,
                                      double stop) {
  (void)tolerance_defined;
  (void)tolerance;
  (void)stop_defined;
  (void)stop;
  ((Stair*)c)->time = start;
  return fmi2OK;
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  stair_update((Stair*)c);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              double value[]) {
  const Stair* m = (const Stair*)c;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] == 1) {
      value[i] = m->stop_at;
    } else if (vr[i] == 2) {
      value[i] = m->time;
    } else {
      return fmi2Error;
    }
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              const double value[]) {
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] != 1) return fmi2Error;
    ((Stair*)c)->stop_at = value[i];
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 int value[]) {
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] != 0) return fmi2Error;
    value[i] = ((const Stair*)c)->counter;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, double t, double h, fmi2Boolean no_prior) {
  (void)no_prior;
  const int end = stair_step((Stair*)c, t, h);
  return end < 0 ? fmi2Error : end > 0 ? fmi2Discard : fmi2OK;
}

EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, fmi2StatusKind s, fmi2Boolean* value) {
  if (s != fmi2Terminated) return fmi2Discard;
  *value = ((const Stair*)c)->terminated;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, fmi2StatusKind s, double* value) {
  if (s != fmi2LastSuccessfulTime) return fmi2Discard;
  *value = ((const Stair*)c)->time;
  return fmi2OK;
}
