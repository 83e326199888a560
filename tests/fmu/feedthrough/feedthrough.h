/* A feedthrough of every variable type (issue 40), like the Reference FMUs' Feedthrough: each
 * input's output is the input itself, except
 *   float64_out = float64_gain · float64_in,  int32_out = int32_in + int32_offset,
 *   string_out  = string_param + string_in (concatenated).
 * Values are kept by value reference in one table, each with its FMI 3 type (the FMI 2 wrapper
 * maps Real, Integer, Boolean, String, Enumeration onto them); outputs are computed when read.
 * Parameters: 0 float64_gain, 1 int32_offset, 2 string_param. Inputs 10, 12, …, 38; the output
 * of input r is r + 1 (feedthrough_fmi3.xml lists them). Shared by both wrappers. */
#ifndef HILSIM_TEST_FEEDTHROUGH_H
#define HILSIM_TEST_FEEDTHROUGH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FT_FLOAT64, FT_FLOAT32, FT_INT8, FT_UINT8, FT_INT16, FT_UINT16, FT_INT32, FT_UINT32,
       FT_INT64, FT_UINT64, FT_BOOLEAN, FT_STRING, FT_BINARY, FT_ENUM };

#define FT_VALUES 40

typedef struct {
  int type;
  double f64;
  float f32;
  int64_t i64;   /* every signed integer type, booleans, enumerations */
  uint64_t u64;  /* every unsigned integer type */
  char* text;    /* strings */
  uint8_t* bytes;
  size_t n_bytes;
} FtValue;

typedef struct {
  FtValue v[FT_VALUES];
  int known[FT_VALUES];
} Feedthrough;

static void ft_declare(Feedthrough* m, unsigned vr, int type) {
  m->known[vr] = 1;
  m->v[vr].type = type;
}

static Feedthrough* feedthrough_new(void) {
  Feedthrough* m = (Feedthrough*)calloc(1, sizeof(Feedthrough));
  if (m == NULL) return NULL;
  ft_declare(m, 0, FT_FLOAT64);
  m->v[0].f64 = 1.0;
  ft_declare(m, 1, FT_INT32);
  ft_declare(m, 2, FT_STRING);
  m->v[2].text = strdup("");
  static const int types[] = {FT_FLOAT64, FT_FLOAT64, FT_FLOAT32, FT_INT8,   FT_UINT8,
                              FT_INT16,   FT_UINT16,  FT_INT32,   FT_UINT32, FT_INT64,
                              FT_UINT64,  FT_BOOLEAN, FT_STRING,  FT_BINARY, FT_ENUM};
  for (unsigned i = 0; i < sizeof types / sizeof types[0]; ++i) {
    ft_declare(m, 10 + 2 * i, types[i]);
    ft_declare(m, 11 + 2 * i, types[i]);
    if (types[i] == FT_STRING) {
      m->v[10 + 2 * i].text = strdup("");
      m->v[11 + 2 * i].text = strdup("");
    }
  }
  m->v[38].i64 = 1; /* enumerations start at their first item */
  return m;
}

static void feedthrough_free(Feedthrough* m) {
  for (int i = 0; i < FT_VALUES; ++i) {
    free(m->v[i].text);
    free(m->v[i].bytes);
  }
  free(m);
}

/* The outputs from the inputs and parameters. */
static void feedthrough_compute(Feedthrough* m) {
  for (unsigned in = 10; in < 40; in += 2) {
    FtValue* o = &m->v[in + 1];
    const FtValue* i = &m->v[in];
    o->f64 = i->f64;
    o->f32 = i->f32;
    o->i64 = i->i64;
    o->u64 = i->u64;
    if (i->type == FT_BINARY) {
      free(o->bytes);
      o->bytes = (uint8_t*)malloc(i->n_bytes + 1);
      if (o->bytes != NULL && i->n_bytes > 0) memcpy(o->bytes, i->bytes, i->n_bytes);
      o->n_bytes = i->n_bytes;
    }
  }
  m->v[11].f64 = m->v[0].f64 * m->v[10].f64;
  m->v[25].i64 = m->v[24].i64 + m->v[1].i64;
  const size_t a = strlen(m->v[2].text);
  const size_t b = strlen(m->v[34].text);
  free(m->v[35].text);
  m->v[35].text = (char*)malloc(a + b + 1);
  if (m->v[35].text != NULL) {
    memcpy(m->v[35].text, m->v[2].text, a);
    memcpy(m->v[35].text + a, m->v[34].text, b + 1);
  }
}

/* The value of reference vr if it is of `type`, else NULL. */
static FtValue* ft_value(Feedthrough* m, unsigned vr, int type) {
  if (vr >= FT_VALUES || !m->known[vr] || m->v[vr].type != type) return NULL;
  return &m->v[vr];
}

static int ft_set_string(Feedthrough* m, unsigned vr, const char* s) {
  FtValue* v = ft_value(m, vr, FT_STRING);
  if (v == NULL || s == NULL) return -1;
  free(v->text);
  v->text = strdup(s);
  return 0;
}

#endif
