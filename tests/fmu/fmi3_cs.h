/* The FMI 3.0 co-simulation declarations the test FMUs export, from the FMI 3.0 standard
 * (§2.2.1 types, §2.3.1 instantiation, §4.2 co-simulation), and the calls that do nothing in
 * them. Included once by each FMI 3 wrapper (stair/, feedthrough/, arrays/). */
#ifndef HILSIM_TEST_FMI3_CS_H
#define HILSIM_TEST_FMI3_CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void* fmi3Instance;
typedef uint32_t fmi3ValueReference;
typedef const char* fmi3String;
typedef const uint8_t* fmi3Binary;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(void*, fmi3Status, fmi3String, fmi3String);
typedef void (*fmi3IntermediateUpdateCallback)(void*, double, bool, bool, bool, bool, bool*,
                                               double*);

#define EXPORT __attribute__((visibility("default")))

EXPORT const char* fmi3GetVersion(void) { return "3.0"; }

EXPORT fmi3Status fmi3Terminate(fmi3Instance c) {
  (void)c;
  return fmi3OK;
}

#endif
