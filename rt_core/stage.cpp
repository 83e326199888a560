#include "rt_core/stage.hpp"

namespace hil::rt {

std::string_view to_string(Phase phase) noexcept {
  switch (phase) {
    case Phase::read:
      return "read";
    case Phase::update:
      return "update";
    case Phase::write:
      return "write";
  }
  return "?";
}

}  // namespace hil::rt
