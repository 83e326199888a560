/* RAVON's 48 V lead-acid battery as an FMI 2.0 co-simulation FMU (issue 18): the battery RAVON
 * ran as a Simulink model beside its vehicle (shared/seeds/ravon-distributed-realtime-sim.txt,
 * line 159: current out of the vehicle model, "the actual battery voltage" back), here the
 * generic model of Tremblay & Dessaint ("Experimental Validation of a Battery Dynamic Model
 * for EV Applications", World Electric Vehicle Journal 3, 2009) for lead-acid, written from
 * the paper on its own (hilsim's built-in model is models/battery/; the test compares them):
 *   E = E0 − K·Q/(Q − it)·i* − K·Q/(Q − it)·it + Exp   (discharge, i* ≥ 0)
 *   E = E0 − K·Q/(it + 0.1·Q)·i* − K·Q/(Q − it)·it + Exp  (charge, i* < 0)
 *   V = E − R·i;  d(it)/dt = i;  d(i*)/dt = (i − i*)/T;  dExp/dt = B·|i|·(−Exp + A·u), u = 1
 *   charging, 0 discharging; E limited to [0, 2·E0]; Q − it kept above Q/1000.
 * K multiplies i* [A] as a resistance and it [A·h] as a polarisation constant (the MATLAB
 * parameter sets' units); it is in coulombs here, B per coulomb. doStep integrates the three
 * states by one classical Runge–Kutta step with the current held over the step.
 * Value references: 0 E0 [V], 1 K, 2 A [V], 3 B [1/C], 4 R [Ohm], 5 Q [C], 6 T_response [s],
 * 7 soc0 [-] (parameters); 8 i [A] (input, > 0 discharging); 9 v [V], 10 soc [-] (outputs). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../fmi2_cs.h" /* the FMI 2.0 declarations */

enum { E0, K, A, B, R, Q, T_RESPONSE, SOC0, I, V, SOC, VALUES };
enum { IT, I_STAR, EXP_ZONE, STATES };

typedef struct {
  double value[VALUES];
  double x[STATES];
} Battery;

static double source_voltage(const double* p, const double* x) {
  const double q = p[Q];
  const double remaining = fmax(q - x[IT], 1e-3 * q);
  const double polarisation_voltage = p[K] * q / remaining * (x[IT] / 3600.0);
  const double resistance =
      x[I_STAR] < 0.0 ? p[K] * q / fmax(x[IT] + 0.1 * q, 1e-3 * q) : p[K] * q / remaining;
  const double e = p[E0] - resistance * x[I_STAR] - polarisation_voltage + x[EXP_ZONE];
  return fmin(fmax(e, 0.0), 2.0 * p[E0]);
}

static void rates(const double* p, const double* x, double i, double* dx) {
  dx[IT] = i;
  dx[I_STAR] = (i - x[I_STAR]) / p[T_RESPONSE];
  dx[EXP_ZONE] = p[B] * fabs(i) * (-x[EXP_ZONE] + (x[I_STAR] < 0.0 ? p[A] : 0.0));
}

static void outputs(Battery* m) {
  m->value[V] = source_voltage(m->value, m->x) - m->value[R] * m->value[I];
  m->value[SOC] = 1.0 - m->x[IT] / m->value[Q];
}

static void step(Battery* m, double h) {
  double k1[STATES], k2[STATES], k3[STATES], k4[STATES], y[STATES];
  const double i = m->value[I];
  rates(m->value, m->x, i, k1);
  for (int s = 0; s < STATES; ++s) y[s] = m->x[s] + 0.5 * h * k1[s];
  rates(m->value, y, i, k2);
  for (int s = 0; s < STATES; ++s) y[s] = m->x[s] + 0.5 * h * k2[s];
  rates(m->value, y, i, k3);
  for (int s = 0; s < STATES; ++s) y[s] = m->x[s] + h * k3[s];
  rates(m->value, y, i, k4);
  for (int s = 0; s < STATES; ++s) m->x[s] += h / 6.0 * (k1[s] + 2.0 * k2[s] + 2.0 * k3[s] + k4[s]);
  outputs(m);
}

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions* f,
                                     fmi2Boolean visible, fmi2Boolean logging) {
  (void)name;
  (void)resources;
  (void)f;
  (void)visible;
  (void)logging;
  if (type != fmi2CoSimulation || guid == NULL ||
      strcmp(guid, "{5a0d2c55-7f0e-4d8b-9a51-4c1b2e7a0b48}") != 0) {
    return NULL;
  }
  Battery* m = (Battery*)calloc(1, sizeof(Battery));
  if (m == NULL) return NULL;
  /* RAVON's pack (hilsim's preset: docs/models.md "The RAVON 48 V lead-acid pack") */
  m->value[E0] = 50.132566183691061;
  m->value[K] = 0.0064169117914483799;
  m->value[A] = 1.9957720521379017;
  m->value[B] = 0.00027777777777777778;
  m->value[R] = 0.02;
  m->value[Q] = 378000.0;
  m->value[T_RESPONSE] = 30.0;
  m->value[SOC0] = 0.9;
  return m;
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined,
                                      double tolerance, double start, fmi2Boolean stop_defined,
                                      double stop) {
  (void)c;
  (void)tolerance_defined;
  (void)tolerance;
  (void)start;
  (void)stop_defined;
  (void)stop;
  return fmi2OK;
}

/* At rest at soc0, reached by discharging from full: it = (1 − soc0)·Q, i* = 0 and the
 * exponential zone decayed along it: Exp = A·exp(−B·it). */
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Battery* m = (Battery*)c;
  if (m->value[Q] <= 0.0 || m->value[T_RESPONSE] <= 0.0) return fmi2Error;
  m->x[IT] = (1.0 - m->value[SOC0]) * m->value[Q];
  m->x[I_STAR] = 0.0;
  m->x[EXP_ZONE] = m->value[A] * exp(-m->value[B] * m->x[IT]);
  outputs(m);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              double value[]) {
  const Battery* m = (const Battery*)c;
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] >= VALUES) return fmi2Error;
    value[k] = m->value[vr[k]];
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              const double value[]) {
  Battery* m = (Battery*)c;
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] > I) return fmi2Error; /* outputs are not set */
    m->value[vr[k]] = value[k];
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, double t, double h, fmi2Boolean no_prior) {
  (void)t;
  (void)no_prior;
  step((Battery*)c, h);
  return fmi2OK;
}
