/* FMI 3.0 co-simulation wrapper of first_order.h, declared from the FMI 3.0 standard
 * (§2.2.1 types, §2.3.1 instantiation, §4.2 co-simulation). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "first_order.h"

typedef void* fmi3Instance;
typedef uint32_t fmi3ValueReference;
typedef const char* fmi3String;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;

#define EXPORT __attribute__((visibility("default")))

EXPORT const char* fmi3GetVersion(void) { return "3.0"; }

EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String name, fmi3String token, fmi3String resources, bool visible, bool logging,
    bool event_mode, bool early_return, const fmi3ValueReference required[], size_t n_required,
    void* env, void (*log)(void*, fmi3Status, fmi3String, fmi3String),
    void (*intermediate)(void*, double, bool, bool, bool, bool, bool*, double*)) {
  (void)name;
  (void)resources;
  (void)visible;
  (void)event_mode;
  (void)early_return;
  (void)required;
  (void)n_required;
  (void)intermediate;
  if (token == NULL || strcmp(token, "{8c4e810f-3df3-4a00-8276-176fa3c9f003}") != 0) return NULL;
  if (logging && log != NULL) log(env, fmi3OK, "logAll", "first order system instantiated");
  return first_order_new();
}

EXPORT void fmi3FreeInstance(fmi3Instance c) { free(c); }

EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance c, bool tolerance_defined,
                                              double tolerance, double start, bool stop_defined,
                                              double stop) {
  (void)tolerance_defined;
  (void)tolerance;
  (void)stop_defined;
  (void)stop;
  ((FirstOrder*)c)->time = start;
  return fmi3OK;
}

EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance c) {
  first_order_initialize((FirstOrder*)c);
  return fmi3OK;
}

EXPORT fmi3Status fmi3Terminate(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                 double value[], size_t n_values) {
  if (n_values < n) return fmi3Error;
  return first_order_get((FirstOrder*)c, vr, n, value) == 0 ? fmi3OK : fmi3Error;
}

EXPORT fmi3Status fmi3SetFloat64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                 const double value[], size_t n_values) {
  if (n_values < n) return fmi3Error;
  return first_order_set((FirstOrder*)c, vr, n, value) == 0 ? fmi3OK : fmi3Error;
}

EXPORT fmi3Status fmi3DoStep(fmi3Instance c, double t, double h, bool no_prior, bool* event,
                             bool* terminate, bool* early, double* last) {
  (void)t;
  (void)no_prior;
  *event = false;
  *terminate = false;
  *early = false;
  FirstOrder* m = (FirstOrder*)c;
  const int failed = first_order_step(m, h);
  *last = m->time;
  return failed == 0 ? fmi3OK : fmi3Error;
}
