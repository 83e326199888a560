/* The FMI 2.0 co-simulation declarations the test FMUs export, from the FMI 2.0.4 standard
 * (§2.1.2 types, §2.1.5 instance, §4.2 co-simulation), and the calls that do nothing in them.
 * Included once by each FMU's wrapper (first_order/, ravon_battery/). */
#ifndef HILSIM_TEST_FMI2_CS_H
#define HILSIM_TEST_FMI2_CS_H

#include <stddef.h>

typedef void* fmi2Component;
typedef unsigned int fmi2ValueReference;
typedef int fmi2Boolean;
typedef const char* fmi2String;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef struct {
  void (*logger)(void*, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
  void* (*allocateMemory)(size_t, size_t);
  void (*freeMemory)(void*);
  void (*stepFinished)(void*, fmi2Status);
  void* componentEnvironment;
} fmi2CallbackFunctions;

#define EXPORT __attribute__((visibility("default")))

EXPORT const char* fmi2GetVersion(void) { return "2.0"; }
EXPORT const char* fmi2GetTypesPlatform(void) { return "default"; }

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
  (void)c;
  return fmi2OK;
}

#endif
