#pragma once
// A candump log with every kind of frame (classic, 29-bit, remote with and without DLC, FD with
// BRS and ESI, 64 bytes, an error frame, an empty frame), 1 ms apart from 1700000000.000000,
// on can0 and (every third) can1, every fifth with a ` R` suffix when `suffixes`. For the
// trace readers' and `hilsim play`'s tests.

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace hil::io::testing {

inline std::string sample_log(int frames = 60, bool suffixes = true) {
  const std::vector<std::string> kinds{"123#DEADBEEF",
                                       "1F334455#1122",
                                       "123#R",
                                       "321##100112233445566778899AABB",
                                       "321##2AA",
                                       "20000080#0000000000000000",
                                       "7FF#",
                                       "456#R7",
                                       "00ABCDEF##0" + std::string(128, '5')};
  std::string log;
  for (int i = 0; i < frames; ++i) {
    std::array<char, 32> stamp{};
    std::snprintf(stamp.data(), stamp.size(), "(1700000000.%06d) ", i * 1000);
    log += stamp.data() + std::string(i % 3 == 2 ? "can1 " : "can0 ") +
           kinds[static_cast<std::size_t>(i) % kinds.size()] +
           (suffixes && i % 5 == 0 ? " R\n" : "\n");
  }
  return log;
}

}  // namespace hil::io::testing
