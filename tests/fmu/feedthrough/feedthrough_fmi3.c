/* FMI 3.0 co-simulation wrapper of feedthrough.h: every FMI 3 type (../fmi3_cs.h). */
#include "../fmi3_cs.h"
#include "feedthrough.h"

EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String name, fmi3String token, fmi3String resources, bool visible, bool logging,
    bool event_mode, bool early_return, const fmi3ValueReference required[], size_t n_required,
    void* env, fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback intermediate) {
  (void)name;
  (void)resources;
  (void)visible;
  (void)logging;
  (void)event_mode;
  (void)early_return;
  (void)required;
  (void)n_required;
  (void)env;
  (void)log;
  (void)intermediate;
  if (token == NULL || strcmp(token, "{f7ee0a1c-6d55-4a3b-8e1d-fee0000000f3}") != 0) return NULL;
  return feedthrough_new();
}

EXPORT void fmi3FreeInstance(fmi3Instance c) { feedthrough_free((Feedthrough*)c); }

EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance c, bool tolerance_defined,
                                              double tolerance, double start, bool stop_defined,
                                              double stop) {
  (void)c;
  (void)tolerance_defined;
  (void)tolerance;
  (void)start;
  (void)stop_defined;
  (void)stop;
  return fmi3OK;
}

EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance c) {
  feedthrough_compute((Feedthrough*)c);
  return fmi3OK;
}

EXPORT fmi3Status fmi3DoStep(fmi3Instance c, double t, double h, bool no_prior, bool* event,
                             bool* terminate, bool* early, double* last) {
  (void)no_prior;
  feedthrough_compute((Feedthrough*)c);
  *event = false;
  *terminate = false;
  *early = false;
  *last = t + h;
  return fmi3OK;
}

/* fmi3Get<T>/fmi3Set<T> for one type: TYPE the C type, KIND the table's type, FIELD its field */
#define FT_ACCESSORS(NAME, TYPE, KIND, FIELD)                                                    \
  EXPORT fmi3Status fmi3Get##NAME(fmi3Instance c, const fmi3ValueReference vr[], size_t n,      \
                                  TYPE value[], size_t n_values) {                              \
    Feedthrough* m = (Feedthrough*)c;                                                           \
    if (n_values != n) return fmi3Error;                                                        \
    feedthrough_compute(m);                                                                     \
    for (size_t i = 0; i < n; ++i) {                                                            \
      const FtValue* v = ft_value(m, vr[i], KIND);                                              \
      if (v == NULL) return fmi3Error;                                                          \
      value[i] = (TYPE)v->FIELD;                                                                \
    }                                                                                           \
    return fmi3OK;                                                                              \
  }                                                                                             \
  EXPORT fmi3Status fmi3Set##NAME(fmi3Instance c, const fmi3ValueReference vr[], size_t n,      \
                                  const TYPE value[], size_t n_values) {                        \
    Feedthrough* m = (Feedthrough*)c;                                                           \
    if (n_values != n) return fmi3Error;                                                        \
    for (size_t i = 0; i < n; ++i) {                                                            \
      FtValue* v = ft_value(m, vr[i], KIND);                                                    \
      if (v == NULL) return fmi3Error;                                                          \
      v->FIELD = value[i];                                                                      \
    }                                                                                           \
    return fmi3OK;                                                                              \
  }

FT_ACCESSORS(Float64, double, FT_FLOAT64, f64)
FT_ACCESSORS(Float32, float, FT_FLOAT32, f32)
FT_ACCESSORS(Int8, int8_t, FT_INT8, i64)
FT_ACCESSORS(UInt8, uint8_t, FT_UINT8, u64)
FT_ACCESSORS(Int16, int16_t, FT_INT16, i64)
FT_ACCESSORS(UInt16, uint16_t, FT_UINT16, u64)
FT_ACCESSORS(Int32, int32_t, FT_INT32, i64)
FT_ACCESSORS(UInt32, uint32_t, FT_UINT32, u64)
FT_ACCESSORS(UInt64, uint64_t, FT_UINT64, u64)
FT_ACCESSORS(Boolean, bool, FT_BOOLEAN, i64)

/* Int64: both the Int64 variables and the enumerations */
EXPORT fmi3Status fmi3GetInt64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                               int64_t value[], size_t n_values) {
  Feedthrough* m = (Feedthrough*)c;
  if (n_values != n) return fmi3Error;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_INT64);
    if (v == NULL) v = ft_value(m, vr[i], FT_ENUM);
    if (v == NULL) return fmi3Error;
    value[i] = v->i64;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetInt64(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                               const int64_t value[], size_t n_values) {
  Feedthrough* m = (Feedthrough*)c;
  if (n_values != n) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    FtValue* v = ft_value(m, vr[i], FT_INT64);
    if (v == NULL) v = ft_value(m, vr[i], FT_ENUM);
    if (v == NULL) return fmi3Error;
    v->i64 = value[i];
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetString(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                fmi3String value[], size_t n_values) {
  Feedthrough* m = (Feedthrough*)c;
  if (n_values != n) return fmi3Error;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_STRING);
    if (v == NULL) return fmi3Error;
    value[i] = v->text;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetString(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                const fmi3String value[], size_t n_values) {
  if (n_values != n) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    if (ft_set_string((Feedthrough*)c, vr[i], value[i]) != 0) return fmi3Error;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetBinary(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                size_t sizes[], fmi3Binary value[], size_t n_values) {
  Feedthrough* m = (Feedthrough*)c;
  if (n_values != n) return fmi3Error;
  feedthrough_compute(m);
  for (size_t i = 0; i < n; ++i) {
    const FtValue* v = ft_value(m, vr[i], FT_BINARY);
    if (v == NULL) return fmi3Error;
    value[i] = v->bytes;
    sizes[i] = v->n_bytes;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetBinary(fmi3Instance c, const fmi3ValueReference vr[], size_t n,
                                const size_t sizes[], const fmi3Binary value[], size_t n_values) {
  Feedthrough* m = (Feedthrough*)c;
  if (n_values != n) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    FtValue* v = ft_value(m, vr[i], FT_BINARY);
    if (v == NULL) return fmi3Error;
    free(v->bytes);
    v->bytes = (uint8_t*)malloc(sizes[i] + 1);
    if (v->bytes == NULL) return fmi3Error;
    if (sizes[i] > 0) memcpy(v->bytes, value[i], sizes[i]);
    v->n_bytes = sizes[i];
  }
  return fmi3OK;
}
