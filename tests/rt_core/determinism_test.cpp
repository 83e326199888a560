// DESIGN.md §4: same loop, same inputs ⇒ bit-identical tick-indexed outputs, run after run,
// whatever the wall-clock timing did (here: a real clock with injected jitter).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <bit>
#include <cmath>

#include "rt_core/channel_table.hpp"
#include "rt_core/executive.hpp"
#include "rt_core/rk4.hpp"

namespace hil::rt {
namespace {

/// FNV-1a over (tick, output bits) pairs.
class OutputHash {
 public:
  void add(std::int64_t tick, double value) noexcept {
    mix(static_cast<std::uint64_t>(tick));
    mix(std::bit_cast<std::uint64_t>(value));
  }
  [[nodiscard]] std::uint64_t value() const noexcept { return h_; }

 private:
  void mix(std::uint64_t word) noexcept {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (word >> (8 * i)) & 0xFFU;
      h_ *= 1099511628211ULL;
    }
  }
  std::uint64_t h_ = 14695981039346656037ULL;
};

/// A pendulum driven by a tick-indexed input, integrated at the base rate, with a slower
/// "controller" task at 1/5 of it. Costs jitter with the wall clock; outputs must not.
class Pendulum {
 public:
  Pendulum(ChannelTable& t, OutputHash& hash, std::uint32_t jitter_seed)
      : table_(t),
        hash_(hash),
        jitter_(jitter_seed),
        torque_(t.add({.name = "pendulum.torque", .unit = "N*m", .direction = Direction::input})),
        angle_(t.add({.name = "pendulum.angle", .unit = "rad"})) {}
  void drive(const TickContext& c) noexcept {
    table_.set(torque_, std::sin(1e-3 * static_cast<double>(c.tick)));
  }
  void integrate(const TickContext& c) noexcept {
    const double u = table_.get(torque_);
    const auto f = [u](double, const Eigen::Vector2d& s) -> Eigen::Vector2d {
      return {s[1], -9.81 * std::sin(s[0]) - 0.1 * s[1] + u};
    };
    s_ = rk4_step(f, c.dt_s * static_cast<double>(c.tick), s_, c.dt_s);
    table_.set(angle_, s_[0]);
    jitter_ = jitter_ * 1103515245U + 12345U;  // wall-clock noise that must not leak in
    spin_for((jitter_ >> 16) % 50 * kMicrosecond / 10);
  }
  void observe(const TickContext& c) noexcept { hash_.add(c.tick, table_.get(angle_)); }

  MethodStage<&Pendulum::drive> input{*this};
  MethodStage<&Pendulum::integrate> model{*this};
  MethodStage<&Pendulum::observe> output{*this};

 private:
  ChannelTable& table_;
  OutputHash& hash_;
  std::uint32_t jitter_;
  ChannelId torque_, angle_;
  Eigen::Vector2d s_{0.3, 0.0};
};

std::uint64_t run_once(std::uint32_t jitter_seed) {
  ChannelTable table;
  OutputHash hash;
  Pendulum pendulum(table, hash, jitter_seed);
  table.freeze();
  MonotonicClock clock;
  Executive exec({.period = 100 * kMicrosecond},
                 {{.name = "input", .stage = &pendulum.input, .phase = Phase::read},
                  {.name = "model", .stage = &pendulum.model, .phase = Phase::update},
                  {.name = "output", .stage = &pendulum.output, .phase = Phase::write}},
                 clock);
  EXPECT_EQ(exec.run(5'000).ticks, 5'000);
  return hash.value();
}

TEST(Determinism, TwoRunsProduceTheSameTickIndexedOutputHash) {
  const std::uint64_t first = run_once(1);
  const std::uint64_t second = run_once(987654);
  EXPECT_EQ(first, second);
  EXPECT_NE(first, OutputHash{}.value());  // something was hashed
}

}  // namespace
}  // namespace hil::rt
