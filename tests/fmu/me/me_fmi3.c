/* FMI 3.0 model-exchange wrapper of a me_model.h model, declared from the FMI 3.0 standard
 * (§2.2 common functions and clocks, §3.2 model exchange). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "me_model.h"

typedef void* fmi3Instance;
typedef uint32_t fmi3ValueReference;
typedef const char* fmi3String;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(void*, fmi3Status, fmi3String, fmi3String);

#define EXPORT __attribute__((visibility("default")))

EXPORT const char* fmi3GetVersion(void) { return "3.0"; }

__attribute__((weak)) int me_completed_step(MeInstance* m) {
  (void)m;
  return 0;
}

EXPORT fmi3Instance fmi3InstantiateModelExchange(fmi3String name, fmi3String token,
                                                 fmi3String resources, bool visible, bool logging,
                                                 void* env, fmi3LogMessageCallback log) {
  (void)name;
  (void)token;
  (void)resources;
  (void)visible;
  if (logging && log != NULL) log(env, fmi3OK, "logAll", "model-exchange test FMU instantiated");
  MeInstance* m = (MeInstance*)calloc(1, sizeof(MeInstance));
  if (m != NULL) me_start(m);
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
  ((MeInstance*)c)->time = start;
  return fmi3OK;
}

EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance c) {
  me_initialize((MeInstance*)c);
  return fmi3OK;
}

EXPORT fmi3Status fmi3Terminate(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                 double values[], size_t n_values) {
  MeInstance* m = (MeInstance*)c;
  if (n != n_values) return fmi3Error;
  me_outputs(m);
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] >= (fmi3ValueReference)me_n_reals) return fmi3Error;
    values[i] = m->r[vr[i]];
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                 const double values[], size_t n_values) {
  MeInstance* m = (MeInstance*)c;
  if (n != n_values) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] >= (fmi3ValueReference)me_n_reals) return fmi3Error;
    m->r[vr[i]] = values[i];
  }
  return fmi3OK;
}

/* The input clock (clocked.c: value reference 100): active from fmi3SetClock until the
 * discrete update has run its partition. */
EXPORT fmi3Status fmi3SetClock(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                               const bool values[]) {
  MeInstance* m = (MeInstance*)c;
  for (size_t i = 0; i < n; ++i) {
    if (vr[i] != 100) return fmi3Error;
    m->clock_ticked = values[i] ? 1 : 0;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}

EXPORT fmi3Status fmi3UpdateDiscreteStates(fmi3Instance c, bool* need_update, bool* terminate,
                                           bool* nominals_changed, bool* values_changed,
                                           bool* next_defined, double* next_time) {
  MeInstance* m = (MeInstance*)c;
  m->values_changed = 0;
  me_event(m);
  m->clock_ticked = 0; /* the partition ran: the clock is inactive again */
  *need_update = false;
  *terminate = m->terminate != 0;
  *nominals_changed = false;
  *values_changed = m->values_changed != 0;
  *next_defined = m->next_event_defined != 0;
  *next_time = m->next_event;
  return fmi3OK;
}

EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}

EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance c, bool no_set_prior,
                                              bool* enter_event_mode, bool* terminate) {
  (void)no_set_prior;
  *enter_event_mode = me_completed_step((MeInstance*)c) != 0;
  *terminate = false;
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetTime(fmi3Instance c, double time) {
  ((MeInstance*)c)->time = time;
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance c, const double x[], size_t n) {
  if ((int)n != me_n_states) return fmi3Error;
  memcpy(((MeInstance*)c)->x, x, n * sizeof(double));
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance c, double x[], size_t n) {
  if ((int)n != me_n_states) return fmi3Error;
  memcpy(x, ((MeInstance*)c)->x, n * sizeof(double));
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance c, double dx[], size_t n) {
  if ((int)n != me_n_states) return fmi3Error;
  me_derivatives((MeInstance*)c, dx);
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance c, double z[], size_t n) {
  if ((int)n != me_n_indicators) return fmi3Error;
  me_indicators((MeInstance*)c, z);
  return fmi3OK;
}
