#include "tools/cli/uds_command.hpp"

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "io/can/uds/uds_codec.hpp"
#include "io/can/uds/uds_hex.hpp"
#include "tools/session/uds/console_uds.hpp"
#include "tools/session/uds/uds_script.hpp"

namespace hil::cli {
namespace {

struct UdsFlags {
  session::UdsTesterSpec tester;
  std::string console, token;
  std::vector<std::string> steps;
  std::string key_mask = "5A5A5A5A";
};

std::uint32_t hex_flag(const std::string& text) {
  return static_cast<std::uint32_t>(std::stoul(text, nullptr, 16));
}

CLI::Validator hex_in(std::uint64_t max) {
  return {[max](std::string& text) -> std::string {
            try {
              std::size_t used = 0;
              const std::uint64_t v = std::stoull(text, &used, 16);
              if (used != text.size() || v > max) throw std::out_of_range(text);
              return {};
            } catch (const std::exception&) {
              return fmt::format("\"{}\": expected hex up to 0x{:X}", text, max);
            }
          },
          "HEX"};
}

}  // namespace

void add_uds_command(CLI::App& app) {
  auto flags = std::make_shared<UdsFlags>();
  CLI::App* cmd = app.add_subcommand(
      "uds",
      "Talk UDS (ISO 14229) over ISO-TP to an ECU: sessions, DTCs, DIDs, security, routines");
  cmd->footer(
      "Steps (run in order, one connection; a non-default session is kept alive with\n"
      "TesterPresent; numbers in hex):\n"
      "  session N              10 N: 1 default, 2 programming, 3 extended\n"
      "  read-dtc [MASK]        19 02 MASK (default FF): the DTCs and their status\n"
      "  count-dtc [MASK]       19 01 MASK          supported-dtc   19 0A\n"
      "  dtc-info DTC           19 06 DTC FF: occurrence and aging counters\n"
      "  clear-dtc [GROUP]      14 GROUP (default FFFFFF: all)\n"
      "  read-did DID…          22 DID…            write-did DID HEX|text:TEXT   2E DID DATA\n"
      "  security [LEVEL]       27: seed, then key = seed XOR --key-mask\n"
      "  routine start|stop|results ID [HEX]      31\n"
      "  reset [hard|soft]      11                 tester-present   3E 00\n"
      "  raw HEX                any request         wait SECONDS     keep the session\n"
      "\n"
      "Examples:\n"
      "  hilsim uds --can 'cannelloni://127.0.0.1:20000?local=127.0.0.1:20001' read-dtc\n"
      "  hilsim uds --can socketcan:can0 session 3 security read-did F190 F187\n"
      "  hilsim uds --can slcan:/dev/ttyACM0 clear-dtc read-dtc 09 raw 22F190\n"
      "  hilsim uds --console http://127.0.0.1:8080/ read-dtc clear-dtc   (a running rig)\n"
      "\n"
      "Exit status: 0 when every step got a positive response; 1 when one got a negative\n"
      "response or none (timeout); 2 for a bad step.\n");
  CLI::Option* can = cmd->add_option(
      "--can", flags->tester.uri,
      "CAN transport URI: cannelloni://HOST:PORT[?local=ADDR:PORT], slcan:/dev/TTY, "
      "socketcan:IFACE");
  CLI::Option* console = cmd->add_option(
      "--console", flags->console,
      "A running rig's console URL (as `hilsim run --console` printed it): the rig's own tester "
      "sends each request at a tick, recorded in commands.log (replayed), on its diagnostics "
      "bus; addressing from the rig's diagnostics block");
  can->excludes(console);
  cmd->add_option("--token", flags->token,
                  "--console: the operator token (default: the URL's ?token=, else the one in "
                  "hilsim's runtime directory)")
      ->needs(console);
  cmd->add_option_function<std::string>(
         "--tx", [t = &flags->tester](const std::string& v) { t->request_id = hex_flag(v); },
         "Physical request id (default 7E0)")
      ->check(hex_in(0x1FFFFFFF));
  cmd->add_option_function<std::string>(
         "--rx", [t = &flags->tester](const std::string& v) { t->response_id = hex_flag(v); },
         "The ECU's response id (default 7E8)")
      ->check(hex_in(0x1FFFFFFF));
  cmd->add_flag("--functional", flags->tester.functional,
                "Send each request to the functional id (--functional-id, default 7DF)");
  cmd->add_option_function<std::string>(
         "--functional-id",
         [t = &flags->tester](const std::string& v) { t->functional_id = hex_flag(v); },
         "Functional request id (default 7DF)")
      ->check(hex_in(0x1FFFFFFF));
  cmd->add_flag("--extended-ids", flags->tester.extended_ids, "29-bit ids");
  cmd->add_flag("--fd", flags->tester.fd, "CAN FD frames (64 bytes)");
  cmd->add_option("--block-size", flags->tester.block_size,
                  "Our flow control's block size (default 0)");
  cmd->add_option("--st-min", flags->tester.st_min,
                  "Our flow control's raw STmin: 0-127 ms, 241-249 = 100-900 us (default 0)")
      ->check(CLI::Range(0, 127) | CLI::Range(241, 249));
  cmd->add_option("--timeout", flags->tester.p2_s, "Seconds to wait for each response (default 1)")
      ->check(CLI::Range(0.01, 60.0));
  cmd->add_option("--key-mask", flags->key_mask, "security: key = seed XOR this (default 5A5A5A5A)")
      ->check(hex_in(0xFFFFFFFF));
  cmd->add_option("steps", flags->steps, "What to ask, in order (see below)")->required();
  cmd->callback([flags, can, console] {
    if (can->count() + console->count() == 0) {
      fmt::print(stderr,
                 "error: --can URI (an ECU on a transport) or --console URL (a running "
                 "rig's tester) is required\n");
      throw CLI::RuntimeError(2);
    }
    std::vector<session::UdsStep> steps;
    try {
      steps = session::parse_uds_steps(flags->steps);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      throw CLI::RuntimeError(2);
    }
    std::unique_ptr<session::UdsPort> port;
    try {
      if (console->count() > 0) {
        port = std::make_unique<session::ConsoleUds>(flags->console, flags->token,
                                                     flags->tester.p2_s, flags->tester.functional);
      } else {
        port = std::make_unique<session::UdsTester>(flags->tester);
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      throw CLI::RuntimeError(2);
    }
    std::vector<session::UdsExchange> done;
    try {
      done = session::run_uds_steps(*port, steps, hex_flag(flags->key_mask));
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      throw CLI::RuntimeError(1);
    }
    bool all_positive = true;
    for (const session::UdsExchange& x : done) {
      fmt::print("> {}\n", io::can::uds::hex_text(x.request, " "));
      if (x.timed_out) {
        fmt::print("< no response within {:g} s\n", flags->tester.p2_s);
        all_positive = false;
        continue;
      }
      if (x.response.empty()) {
        fmt::print("< (positive response suppressed)\n");
        continue;
      }
      fmt::print("< {}{}\n", io::can::uds::describe(x.response),
                 x.pending > 0 ? fmt::format(" (after {} × response pending)", x.pending) : "");
      all_positive = all_positive && io::can::uds::negative_code(x.response) == 0;
    }
    if (!all_positive) throw CLI::RuntimeError(1);
  });
}

}  // namespace hil::cli
