#pragma once
// Classical fourth-order Runge–Kutta step over a fixed-size state: Eigen fixed-size vectors
// or any value type with `State + State` and `double * State`. No allocation.

#include <concepts>

namespace hil::rt {

template <class State>
concept Rk4State = std::copyable<State> && requires(const State& a, const State& b, double h) {
  { a + b } -> std::convertible_to<State>;
  { h* a } -> std::convertible_to<State>;
};

/// x(t + h) from dx/dt = f(t, x): k1..k4 at t, t + h/2, t + h/2, t + h; error O(h⁴) globally.
template <Rk4State State, class Derivative>
requires std::invocable<Derivative&, double, const State&>
[[nodiscard]] State rk4_step(Derivative&& f, double t, const State& x,
                             double h) noexcept(noexcept(f(t, x))) {
  const State k1 = f(t, x);
  const State k2 = f(t + 0.5 * h, State(x + (0.5 * h) * k1));
  const State k3 = f(t + 0.5 * h, State(x + (0.5 * h) * k2));
  const State k4 = f(t + h, State(x + h * k3));
  // One pass, the same operations in the same order as x + h/6·(((k1 + 2k2) + 2k3) + k4)
  return State(x + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4));
}

}  // namespace hil::rt
