/* FMI 2.0 co-simulation wrapper of feedthrough.h: Real (float64), Integer (int32), Boolean,
 * String, Enumeration (../fmi2_cs.h). */
#include "../fmi2_cs.h"
#include "feedthrough.h"

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions* f,
                                     fmi2Boolean visible, fmi2Boolean logging) {
  (void)name;
  (void)resources;
  (void)f;
  (void)visible;
  (void)logging;
  if (type != fmi2CoSimulation || guid == NULL ||
      strcmp(guid, "{f7ee0a1c-6d55-4a3b-8e1d-fee0000000f2}") != 0) {
    return NULL;
  }
  return feedthrough_new();
}

EXPORT void fmi2FreeInstance(fmi2Component c) { feedthrough_free((Feedthrough*)c); }

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

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  feedthrough_compute((Feedthrough*)c);
  return fmi2OK;
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, double t, double h, fmi2Boolean no_prior) {
  (void)t;
  (void)h;
  (void)no_prior;
  feedthrough_compute((Feedthrough*)c);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              double value[]) {
  Feedthrough* m = (Feedthrough*)c;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_FLOAT64);
    if (v == NULL) return fmi2Error;
    value[i] = v->f64;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                              const double value[]) {
  for (size_t i = 0; i < n; ++i) {
    FtValue* v = ft_value((Feedthrough*)c, vr[i], FT_FLOAT64);
    if (v == NULL) return fmi2Error;
    v->f64 = value[i];
  }
  return fmi2OK;
}

/* Integer: the Int32 variables and the enumerations */
EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 int value[]) {
  Feedthrough* m = (Feedthrough*)c;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_INT32);
    if (v == NULL) v = ft_value(m, vr[i], FT_ENUM);
    if (v == NULL) return fmi2Error;
    value[i] = (int)v->i64;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 const int value[]) {
  for (size_t i = 0; i < n; ++i) {
    FtValue* v = ft_value((Feedthrough*)c, vr[i], FT_INT32);
    if (v == NULL) v = ft_value((Feedthrough*)c, vr[i], FT_ENUM);
    if (v == NULL) return fmi2Error;
    v->i64 = value[i];
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 fmi2Boolean value[]) {
  Feedthrough* m = (Feedthrough*)c;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_BOOLEAN);
    if (v == NULL) return fmi2Error;
    value[i] = v->i64 != 0;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                 const fmi2Boolean value[]) {
  for (size_t i = 0; i < n; ++i) {
    FtValue* v = ft_value((Feedthrough*)c, vr[i], FT_BOOLEAN);
    if (v == NULL) return fmi2Error;
    v->i64 = value[i] != 0;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                fmi2String value[]) {
  Feedthrough* m = (Feedthrough*)c;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_STRING);
    if (v == NULL) return fmi2Error;
    value[i] = v->text;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                const fmi2String value[]) {
  for (size_t i = 0; i < n; ++i) {
    if (ft_set_string((Feedthrough*)c, vr[i], value[i]) != 0) return fmi2Error;
  }
  return fmi2OK;
}
