#include "io/input/driver_mapping.hpp"

namespace hil::io::input {

std::string_view to_string(Device d) noexcept {
  switch (d) {
    case Device::gamepad:
      return "gamepad";
    case Device::keyboard:
      return "keyboard";
    case Device::evdev:
      return "evdev";
  }
  return "?";
}

}  // namespace hil::io::input
