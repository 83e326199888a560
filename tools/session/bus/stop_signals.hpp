#pragma once
// Ctrl-C and SIGTERM for the `hilsim bus` loops (dump --follow, write --hold, mirror): while a
// StopSignals lives, either signal sets a flag the loop polls (requested()); the previous
// handlers come back when it goes. One at a time per process; not for the run harness, whose
// handler also stops the RT loop (tools/session/loop/harness.cpp).

#include <csignal>

namespace hil::session::bus_signals {

inline volatile std::sig_atomic_t g_stop = 0;
extern "C" inline void on_stop_signal(int /*signal*/) { g_stop = 1; }

/// Ctrl-C and SIGTERM end the loops below (and nothing else: the previous handlers return).
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    previous_int_ = std::signal(SIGINT, on_stop_signal);
    previous_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  [[nodiscard]] static bool requested() noexcept { return g_stop != 0; }

 private:
  void (*previous_int_)(int) = nullptr;
  void (*previous_term_)(int) = nullptr;
};

}  // namespace hil::session::bus_signals
