/* The model-exchange test FMUs (docs/fmu.md "Model exchange"): one model per file
 * (bouncing_ball.c, dahlquist.c, time_event.c, clocked.c), each wrapped as an FMI 2.0 and/or
 * FMI 3.0 model-exchange FMU by me_fmi2.c / me_fmi3.c. A model sees its real variables by
 * value reference (r[]), its continuous states (x[]) and time; the wrapper does the FMI calls
 * (state machine, get/set, event info). */
#ifndef HILSIM_TEST_ME_MODEL_H
#define HILSIM_TEST_ME_MODEL_H

#define ME_MAX_REALS 16
#define ME_MAX_STATES 4

typedef struct {
  double time;
  double r[ME_MAX_REALS];  /* real variables by value reference */
  double x[ME_MAX_STATES]; /* continuous states */
  int clock_ticked;        /* FMI 3: the input clock was set in this event mode */
  int values_changed;      /* the event changed x[] */
  int terminate;           /* the model asks to end the simulation */
  int next_event_defined;
  double next_event;
} MeInstance;

extern const int me_n_states;     /* continuous states */
extern const int me_n_indicators; /* event indicators */
extern const int me_n_reals;      /* real variables (value references 0 … me_n_reals−1) */

void me_start(MeInstance* m);      /* r[] at their start values */
void me_initialize(MeInstance* m); /* leaving initialisation mode: x[] from r[], time events */
void me_derivatives(const MeInstance* m, double dx[]);
void me_indicators(const MeInstance* m, double z[]);
void me_event(MeInstance* m);   /* event mode: the discrete update, once per event */
void me_outputs(MeInstance* m); /* r[] from x[] and time */
/* After each integrator step: 1 asks for event mode (a step event). Optional (weak default 0). */
int me_completed_step(MeInstance* m);

#endif
