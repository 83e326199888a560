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

CLI::Option* add_console_option(CLI::App& cmd, io::console::ConsoleSpec& console) {
  return cmd
      .add_option_function<std::string>(
          "--console",
          [&console](const std::string& text) {
            io::console::parse_console_endpoint(text, console);  // checked below
          },
          "The operator console (docs/console.md): a web page and a Foxglove WebSocket on "
          "[ADDR:]PORT (default 127.0.0.1:8642; 0: a free port; a non-loopback address needs "
          "the operator token for every connection), or off")
      ->type_name("[ADDR:]PORT|off")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            io::console::ConsoleSpec probe;
            try {
              io::console::parse_console_endpoint(text, probe);
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
            return {};
          },
          ""));
}

}  // namespace hil::cli
