#include "tools/cli/cli_validators.hpp"

namespace hil::cli {

CLI::Validator duration_in(rt::Nanoseconds min, rt::Nanoseconds max) {
  const std::string range = rt::format_duration(min) + ".." + rt::format_duration(max);
  return {[min, max, range](std::string& text) -> std::string {
            const auto ns = rt::parse_duration(text);
            if (!ns) return "'" + text + "' is not a duration; write it like 250us, 1.5ms or 10s";
            if (*ns < min || *ns > max) return "'" + text + "' is out of range; expected " + range;
            return {};
          },
          "DURATION in " + range};
}

rt::Nanoseconds duration_value(const std::string& text) { return rt::parse_duration(text).value(); }

CLI::Option* add_speed_option(CLI::App& cmd, session::Speed& speed, const std::string& help) {
  return cmd
      .add_option_function<std::string>(
          "--speed",
          [&speed](const std::string& text) {
            speed = *session::Speed::parse(text);  // checked below
          },
          help)
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (session::Speed::parse(text)) return {};
            return "'" + text + "' is not a speed; expected " + std::string(session::kSpeedHelp);
          },
          "max|realtime|FACTOR"));
}

}  // namespace hil::cli
