/* FMI 2.0 model-exchange wrapper of a me_model.h model, declared from the FMI 2.0.4 standard
 * (§2.1 common functions, §3.2 model exchange). */
#include <stdlib.h>
#include <string.h>

#include "../fmi2_cs.h"
#include "me_model.h"

typedef double fmi2Real;
typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

__attribute__((weak)) int me_completed_step(MeInstance* m) {
  (void)m;
  return 0;
}

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions* functions,
                                     fmi2Boolean visible, fmi2Boolean logging) {
  (void)name;
  (void)guid;
  (void)resources;
  (void)functions;
  (void)visible;
  (void)logging;
  if (type != fmi2ModelExchange) return NULL;
  MeInstance* m = (MeInstance*)calloc(1, sizeof(MeInstance));
  if (m != NULL) me_start(m);
  return m;
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined,
                                      fmi2Real tolerance, fmi2Real start, fmi2Boolean stop_defined,
                                      fmi2Real stop) {
  (void)tolerance_defined;
  (void)tolerance;
  (void)stop_defined;
  (void)stop;
  ((MeInstance*)c)->time = start;
  return fmi2OK;
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  me_initialize((MeInstance*)c);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              fmi2Real value[]) {
  MeInstance* m = (MeInstance*)c;
  me_outputs(m);
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] >= (fmi2ValueReference)me_n_reals) return fmi2Error;
    value[i] = m->r[vr[i]];
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              const fmi2Real value[]) {
  MeInstance* m = (MeInstance*)c;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] >= (fmi2ValueReference)me_n_reals) return fmi2Error;
    m->r[vr[i]] = value[i];
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  MeInstance* m = (MeInstance*)c;
  m->values_changed = 0;
  me_event(m);
  info->newDiscreteStatesNeeded = 0;
  info->terminateSimulation = m->terminate;
  info->nominalsOfContinuousStatesChanged = 0;
  info->valuesOfContinuousStatesChanged = m->values_changed;
  info->nextEventTimeDefined = m->next_event_defined;
  info->nextEventTime = m->next_event;
  return fmi2OK;
}

EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_set_prior,
                                              fmi2Boolean* enter_event_mode,
                                              fmi2Boolean* terminate) {
  (void)no_set_prior;
  *enter_event_mode = me_completed_step((MeInstance*)c);
  *terminate = 0;
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  ((MeInstance*)c)->time = time;
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
  if ((int)n != me_n_states) return fmi2Error;
  memcpy(((MeInstance*)c)->x, x, n * sizeof(double));
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  if ((int)n != me_n_states) return fmi2Error;
  memcpy(x, ((MeInstance*)c)->x, n * sizeof(double));
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
  if ((int)n != me_n_states) return fmi2Error;
  me_derivatives((MeInstance*)c, dx);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
  if ((int)n != me_n_indicators) return fmi2Error;
  me_indicators((MeInstance*)c, z);
  return fmi2OK;
}
