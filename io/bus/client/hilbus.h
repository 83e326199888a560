/*
 * hilbus.h — C API of hilsim's shared-memory bus (libhilbus.so.1, C99; docs/bus.md).
 *
 * A running rig serves its bus on a Unix socket, <runtime dir>/<rig>.bus. A client attaches
 * (read-only, or as the single writer of one role), then reads any region, writes the
 * regions of its role and waits for new snapshots. A region is a fixed list of double
 * channels with one writer; a read returns the latest complete snapshot (never a torn one).
 * The attach connection is the write lease: it ends when the client detaches or dies.
 *
 *   int st;
 *   hilbus_client* bus = hilbus_attach("ravon", "behaviour", 1000, &st);
 *   if (!bus) { fprintf(stderr, "%s\n", hilbus_strerror(st)); return 1; }
 *   int beh = hilbus_find_region(bus, "behaviour"), state = hilbus_find_region(bus, "state");
 *   double cmd[2] = {12.0, 0.05}, x[8];  hilbus_meta meta;
 *   hilbus_write(bus, beh, cmd, 2, step, HILBUS_SLOT_VALID);
 *   hilbus_wait(bus, state, last_seq, 20000);
 *   if (hilbus_read(bus, state, x, 8, &meta) == HILBUS_OK) last_seq = meta.region_seq;
 *   hilbus_detach(bus);
 *
 * Build: cc app.c $(pkg-config --cflags --libs hilbus)
 *
 * Threads: one client per thread is the simple rule. hilbus_read, hilbus_wait and the
 * lookups may be shared between threads; hilbus_write of one region from one thread at a
 * time; hilbus_detach when no other call is running. Reads are lock-free and make no
 * system call; hilbus_write makes one (FUTEX_WAKE) and hilbus_wait sleeps in FUTEX_WAIT.
 * No function throws, aborts or prints.
 *
 * Simulink: a C Caller block (or a level-2 C S-function) calls hilbus_read_values and
 * hilbus_write_values once per step (plain int/double arguments, nothing for Simulink to
 * marshal). Attach in the model's initialize function ("Initialize Function" block or
 * mdlStart), keep the hilbus_client* in a global (C Caller) or a PWork vector (S-function),
 * detach in the terminate function. Resolve region ids once with hilbus_find_region. Set
 * "Simulation Target > Header file" to #include "hilbus.h" and "Libraries" to libhilbus.so.
 *
 * Modelica (Dymola, OpenModelica): hold the client in an ExternalObject
 *   class Bus extends ExternalObject;
 *     function constructor input String rig; input String role; output Bus bus;
 *       external "C" bus = hilbus_attach_modelica(rig, role)
 *         annotation(Library="hilbus", Include="#include \"hilbus.h\"");
 *     end constructor;
 *     function destructor input Bus bus;
 *       external "C" hilbus_detach(bus) annotation(Library="hilbus");
 *     end destructor;
 *   end Bus;
 * and call `external "C" status = hilbus_read_values(bus, region, v, size(v, 1))` and
 * `external "C" status = hilbus_write_values(bus, region, v, size(v, 1), tick)` (same
 * annotation) from functions used in a `when sample(0, dt)` clause. Modelica passes Integer as
 * C int and Real arrays as double*, which is what these helpers take.
 */
#ifndef HILBUS_H
#define HILBUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HILBUS_API __attribute__((visibility("default")))
#else
#define HILBUS_API
#endif

/* A C interface: C's names (hilbus_*, HILBUS_*), not hilsim's C++ naming. */
/* NOLINTBEGIN(readability-identifier-naming) */
/** Return codes (the same numbers as hil::io::bus::BusStatus). */
enum hilbus_status {
  HILBUS_OK = 0,
  HILBUS_STALE = 1,         /**< nothing was ever published in that region */
  HILBUS_CONTENTION = 2,    /**< every read try raced a write; try again */
  HILBUS_DETACHED = 3,      /**< the rig went away: detach and attach again */
  HILBUS_SCHEMA = 4,        /**< the rig's bus is not the expected one */
  HILBUS_NOT_WRITER = 5,    /**< the region is not this client's role's */
  HILBUS_ROLE_TAKEN = 6,    /**< another client (or the UDP mirror) writes that role */
  HILBUS_ROLE_UNKNOWN = 7,  /**< no input region is written by that role */
  HILBUS_NOT_PERMITTED = 8, /**< this user may not write that role (or open the socket) */
  HILBUS_TIMEOUT = 9,
  HILBUS_NO_ENDPOINT = 10,  /**< no rig answers at that endpoint */
  HILBUS_BAD_ARGUMENT = 11, /**< unknown region, wrong value count, NULL pointer */
  HILBUS_IO_ERROR = 12
};

/** hilbus_write's status argument (SlotHeader::status). */
enum hilbus_slot_status {
  HILBUS_SLOT_VALID = 0,
  HILBUS_SLOT_NOT_INITIALIZED = 1,
  HILBUS_SLOT_SAFE_STATE = 2 /**< the writer asks hilsim to apply the region's safe values */
};

enum hilbus_direction { HILBUS_OUTPUT = 0 /**< hilsim writes */, HILBUS_INPUT = 1 };
/* NOLINTEND(readability-identifier-naming) */

typedef struct hilbus_client hilbus_client;

/** What hilbus_region_info() fills in. A struct tag without typedef (like struct stat and
 * stat()), since the function has the same name: write `struct hilbus_region_info`. */
struct hilbus_region_info {
  const char* name;   /**< valid until hilbus_detach */
  const char* writer; /**< the writer role; "hilsim" for outputs */
  uint32_t id;
  uint32_t direction; /**< enum hilbus_direction */
  uint32_t value_count;
  uint32_t timeout_ticks; /**< inputs: hilsim times the region out after this many ticks */
  uint64_t expected_period_ns;
};

typedef struct hilbus_meta {
  uint64_t region_seq;      /**< 1, 2, ... per publish within a session; 0 = never published */
  int64_t tick;             /**< the writer's step (inputs) or hilsim's tick (outputs) */
  uint64_t session;         /**< random per writer attach: a new one = the writer restarted */
  uint64_t publish_mono_ns; /**< CLOCK_MONOTONIC at publish */
  uint64_t age_ns;          /**< now - publish_mono_ns (+ the sender's age for mirrored data) */
  uint32_t status;          /**< enum hilbus_slot_status */
  uint32_t value_count;
} hilbus_meta;

/**
 * Attaches to a rig. `endpoint_or_rig`: a socket path (anything with a '/') or a rig name,
 * whose socket is <hilbus_runtime_directory()>/<rig>.bus. `role`: NULL or "" for read-only,
 * else the role whose regions this client writes. Waits up to `timeout_ms`.
 * Returns NULL with *status set (status may be NULL) on failure.
 */
HILBUS_API hilbus_client* hilbus_attach(const char* endpoint_or_rig, const char* role,
                                        uint32_t timeout_ms, int* status);
/**
 * hilbus_attach with more: `client_name` (NULL: the program's name) shows in `hilsim bus ls`;
 * `expect_schema_hash` (0: any) refuses a different bus with HILBUS_SCHEMA; on failure the
 * one-line reason is copied to `why` (NUL-terminated, truncated to why_size; may be NULL).
 */
HILBUS_API hilbus_client* hilbus_attach_ex(const char* endpoint_or_rig, const char* role,
                                           uint32_t timeout_ms, const char* client_name,
                                           uint64_t expect_schema_hash, int* status, char* why,
                                           size_t why_size);
/** Unmaps and closes; frees the write lease. NULL is ignored. */
HILBUS_API void hilbus_detach(hilbus_client* client);

/** The number of regions; region ids are 0 .. count-1. */
HILBUS_API uint32_t hilbus_region_count(const hilbus_client* client);
/** The id of a region by name, or -1. */
HILBUS_API int hilbus_find_region(const hilbus_client* client, const char* name);
/** The region and value index of a channel ("vehicle.wheel.fl.speed_ref"). HILBUS_OK, or
 * HILBUS_BAD_ARGUMENT when no region has it. */
HILBUS_API int hilbus_find_channel(const hilbus_client* client, const char* name, uint32_t* region,
                                   uint32_t* index);
/** Fills `out` for a region. HILBUS_OK or HILBUS_BAD_ARGUMENT. */
#if defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow" /* the function shares the struct's name on purpose */
#endif
HILBUS_API int hilbus_region_info(const hilbus_client* client, uint32_t region,
                                  struct hilbus_region_info* out);
#if defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
/** Channel `index` of `region`, or NULL; valid until hilbus_detach. */
HILBUS_API const char* hilbus_channel_name(const hilbus_client* client, uint32_t region,
                                           uint32_t index);
/** The unit of channel `index` of `region` (SI, as the rig has it), or NULL. */
HILBUS_API const char* hilbus_channel_unit(const hilbus_client* client, uint32_t region,
                                           uint32_t index);
/** The bus's schema hash (for hilbus_attach_ex) and its generation (new per rig start). */
HILBUS_API uint64_t hilbus_schema_hash(const hilbus_client* client);
HILBUS_API uint64_t hilbus_generation(const hilbus_client* client);

/**
 * Reads the latest complete snapshot: `n` must equal the region's value_count. `meta` may be
 * NULL. HILBUS_OK; HILBUS_STALE when nothing was published yet (values are then 0);
 * HILBUS_CONTENTION when 1000 tries (yielding between them) all raced a writer.
 */
HILBUS_API int hilbus_read(hilbus_client* client, uint32_t region, double* values, uint32_t n,
                           hilbus_meta* meta);
/**
 * Publishes a snapshot of a region of this client's role: `n` must equal its value_count;
 * `tick` is the writer's step; `status` an enum hilbus_slot_status. HILBUS_NOT_WRITER for a
 * region of another role, HILBUS_DETACHED once the rig went away.
 */
HILBUS_API int hilbus_write(hilbus_client* client, uint32_t region, const double* values,
                            uint32_t n, int64_t tick, uint32_t status);
/**
 * Sleeps until the region's latest region_seq differs from `after_seq` (HILBUS_OK), up to
 * `timeout_us` (HILBUS_TIMEOUT), or the rig went away (HILBUS_DETACHED). hilsim's own writer
 * never wakes sleepers, so a wait notices its snapshots within ~100 µs.
 */
HILBUS_API int hilbus_wait(hilbus_client* client, uint32_t region, uint64_t after_seq,
                           uint32_t timeout_us);
/** Simulink/Modelica helpers: hilbus_read without meta, hilbus_write with an int tick and
 * HILBUS_SLOT_VALID. Negative region or n is HILBUS_BAD_ARGUMENT. */
HILBUS_API int hilbus_read_values(hilbus_client* client, int region, double* values, int n);
HILBUS_API int hilbus_write_values(hilbus_client* client, int region, const double* values, int n,
                                   int tick);
/** hilbus_attach(rig, role or "" for read-only, 1000 ms, NULL) for Modelica constructors. */
HILBUS_API hilbus_client* hilbus_attach_modelica(const char* endpoint_or_rig, const char* role);
/** 1 once the rig closed the connection, else 0. */
HILBUS_API int hilbus_detached(const hilbus_client* client);
/** A static English text for a status ("HILBUS_ROLE_TAKEN: ..."); never NULL. */
HILBUS_API const char* hilbus_strerror(int status);
/** The status's short name ("role_taken"), as the Python module raises it; never NULL. */
HILBUS_API const char* hilbus_status_name(int status);
/**
 * The runtime directory, where rigs serve their bus sockets and consoles keep their token
 * files: $HILSIM_RUNTIME_DIR, else systemd's $RUNTIME_DIRECTORY (its first entry when
 * colon-separated), else $XDG_RUNTIME_DIR/hilsim, else /run/hilsim for root, else
 * /tmp/hilsim-<uid>; created mode 0750 when missing (as hilsim itself does). The string is
 * valid until the same thread calls again. NULL when the directory cannot be created or the
 * /tmp fallback is not a directory of this user's; the one-line reason is then copied to
 * `why` (NUL-terminated, truncated to why_size; may be NULL). Since libhilbus 1.1 (HILBUS_1.1).
 */
HILBUS_API const char* hilbus_runtime_directory(char* why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* HILBUS_H */
