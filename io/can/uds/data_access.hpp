#pragma once
// What the UDS server asks of the integrator: the values behind its data identifiers and the
// actions behind its routines, usually read from and written to channels. The integrator
// implements it; the server calls it on the RT thread from handle() and tick(), so every
// method must be RT-safe (noexcept, no allocation, no blocking).

#include <cstddef>
#include <cstdint>
#include <span>

#include "io/can/uds/uds_codec.hpp"

namespace hil::io::can::uds {

class DataAccess {
 public:
  virtual ~DataAccess() = default;

  /// Fills `out` (exactly the DID's configured length) with DID number `did` of
  /// ServerSpec::dids; false: the value cannot be read now (NRC 0x22 conditionsNotCorrect).
  virtual bool read(std::size_t did, std::span<std::uint8_t> out) noexcept = 0;

  /// Takes `data` (exactly the DID's length) for DID number `did`; false: refused now (0x22).
  virtual bool write(std::size_t did, std::span<const std::uint8_t> data) noexcept = 0;

  /// Starts routine number `routine` of ServerSpec::routines with the request's
  /// routineControlOptionRecord (may be empty); false: refused now (0x22).
  virtual bool start_routine(std::size_t routine, std::span<const std::uint8_t> option) noexcept {
    (void)routine;
    (void)option;
    return false;
  }

  /// Stops a running routine; false: refused now (0x22).
  virtual bool stop_routine(std::size_t routine) noexcept {
    (void)routine;
    return false;
  }

  /// Writes the routineStatusRecord of the positive response to `type` (start, stop,
  /// requestRoutineResults) of routine `routine` into `out` and returns its size (0: the
  /// response carries none).
  virtual std::size_t routine_status(std::size_t routine, RoutineControlType type,
                                     std::span<std::uint8_t> out) noexcept {
    (void)routine;
    (void)type;
    (void)out;
    return 0;
  }

 protected:
  DataAccess() = default;
  DataAccess(const DataAccess&) = default;
  DataAccess& operator=(const DataAccess&) = default;
};

}  // namespace hil::io::can::uds
