/* FMI 2.0 co-simulation wrapper of first_order.h (the declarations: ../fmi2_cs.h). */
#include <stddef.h>
#include <string.h>

#include "../fmi2_cs.h"
#include "first_order.h"

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions* f,
                                     fmi2Boolean visible, fmi2Boolean logging) {
  (void)name;
  (void)resources;
  (void)visible;
  (void)logging;
  (void)f;
  if (type != fmi2CoSimulation || guid == NULL ||
      strcmp(guid, "{8c4e810f-3df3-4a00-8276-176fa3c9f001}") != 0) {
    return NULL;
  }
  return first_order_new();
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined,
                                      double tolerance, double start, fmi2Boolean stop_defined,
                                      double stop) {
  (void)tolerance_defined;
  (void)tolerance;
  (void)stop_defined;
  (void)stop;
  ((FirstOrder*)c)->time = start;
  return fmi2OK;
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  first_order_initialize((FirstOrder*)c);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              double value[]) {
  return first_order_get((FirstOrder*)c, vr, n, value) == 0 ? fmi2OK : fmi2Error;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              const double value[]) {
  return first_order_set((FirstOrder*)c, vr, n, value) == 0 ? fmi2OK : fmi2Error;
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, double t, double h, fmi2Boolean no_prior) {
  (void)t;
  (void)no_prior;
  return first_order_step((FirstOrder*)c, h) == 0 ? fmi2OK : fmi2Error;
}
