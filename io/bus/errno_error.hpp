#pragma once
// The bus's setup errors from a failed system call: std::system_error with errno and what was
// being done ("bind /run/hilsim/ravon.bus"). Setup phase only (throws).

#include <cerrno>
#include <string>
#include <system_error>

namespace hil::io::bus {

[[noreturn]] inline void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace hil::io::bus
