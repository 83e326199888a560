#pragma once
// From the `executive` block to the settings rt_core runs with, defaults applied.

#include <string>

#include "rt_core/executive_spec.hpp"
#include "rt_core/rt_spec.hpp"

namespace hil::config {

class Executive;  // config/executive.proto

/// Period and overrun policy. Fields left out take the defaults of hil::rt::ExecutiveSpec
/// and hil::rt::OverrunPolicy (250 us; skip; catch_up max 4; stop_after 10 within 4000).
/// Expects a validated message (see validate()). Thread-safe.
[[nodiscard]] rt::ExecutiveSpec to_executive_config(const Executive& executive);

/// Priority, CPU, memory locking, DMA latency. Fields left out take the defaults of
/// hil::rt::RtSpec (SCHED_FIFO 80, no pinning, memory locked, cpu_dma_latency held).
/// Thread-safe.
[[nodiscard]] rt::RtSpec to_rt_options(const Executive& executive);

/// One line for people: "period 250us, SCHED_FIFO 80 on CPU 1, overrun policy catch_up
/// (max 4 in a row), memory locked, cpu_dma_latency held". Thread-safe.
[[nodiscard]] std::string describe(const rt::ExecutiveSpec& executive, const rt::RtSpec& rt);

}  // namespace hil::config
