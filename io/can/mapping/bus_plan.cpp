#include "io/can/mapping/bus_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "io/can/can_frame.hpp"
#include "io/can/mapping/e2e_attributes.hpp"

namespace hil::io::can {
namespace {

constexpr std::string_view kNoNode = "Vector__XXX";

/// The nodes that may send `m`: its sender and its BO_TX_BU_ transmitters.
std::vector<std::string> senders(const dbc::Message& m) {
  std::vector<std::string> out;
  if (m.sender != kNoNode && !m.sender.empty()) out.push_back(m.sender);
  for (const std::string& t : m.transmitters) {
    if (t != kNoNode && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

std::int32_t node_index(const dbc::Database& db, const std::string& name) {
  for (std::size_t i = 0; i < db.nodes.size(); ++i) {
    if (db.nodes[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

/// Resolves a node list ("*" only in `simulate_nodes`), appending problems.
std::set<std::string> node_set(const dbc::Database& db, const std::vector<std::string>& names,
                               const char* field, bool star_allowed,
                               std::vector<MappingProblem>& problems) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (n == "*" && star_allowed) {
      for (const dbc::Node& node : db.nodes) out.insert(node.name);
      continue;
    }
    if (node_index(db, n) < 0) {
      std::string known;
      for (const dbc::Node& node : db.nodes) known += (known.empty() ? "" : ", ") + node.name;
      problems.push_back({fmt::format("{}[{}]", field, i),
                          fmt::format("no node \"{}\" in {}{}; its nodes: {}", n, db.file_name,
                                      star_allowed ? " (\"*\": every node)" : "", known)});
      continue;
    }
    out.insert(n);
  }
  return out;
}

bool any_in(const std::vector<std::string>& names, const std::set<std::string>& set) {
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& n) { return set.contains(n); });
}

/// GenMsgILSupport "No" (or 0) leaves a message out of the interaction layer.
bool il_support_off(const dbc::Database& db, const dbc::Message& m) {
  const std::optional<std::string> v = db.text_attribute(m.attributes, "GenMsgILSupport");
  return v && (*v == "No" || *v == "no" || *v == "0");
}

/// Where the rig's E2E block for `name` is, or −1.
std::int32_t rig_e2e_index(const CanBusSpec& spec, const std::string& name) {
  for (std::size_t k = 0; k < spec.e2e.size(); ++k) {
    if (spec.e2e[k].message == name) return static_cast<std::int32_t>(k);
  }
  return -1;
}

/// The message's E2E: the rig's block, else the DBC's attributes; checked against its length.
std::optional<e2e::ProfileSpec> e2e_of(const CanBusSpec& spec, const dbc::Message& m,
                                       std::string& from, std::vector<MappingProblem>& problems) {
  const dbc::Database& db = spec.database;
  std::optional<e2e::ProfileSpec> e;
  const std::int32_t k = rig_e2e_index(spec, m.name);
  if (k >= 0) {
    e = spec.e2e[static_cast<std::size_t>(k)].profile;
    from = "rig";
  } else {
    std::string problem;
    e = e2e_from_attributes(db, m, problem);
    if (!problem.empty()) problems.push_back({"dbc", problem});
    from = db.file_name;
  }
  if (!e) return e;
  // the profile protects the payload as it goes on the wire (an FD length rounds up to a DLC's)
  const std::size_t wire = m.fd ? dlc_to_length(length_to_dlc(m.length), true) : m.length;
  e->data_length_bits = static_cast<std::uint32_t>(wire * 8);
  if (const std::string wrong = e2e::validate(*e, wire); !wrong.empty()) {
    problems.push_back({k >= 0 ? fmt::format("e2e[{}]", k) : std::string("dbc"),
                        fmt::format("{}{} of {}: {}", k >= 0 ? "" : db.file_name + ": ",
                                    describe_e2e(*e), m.name, wrong)});
    return std::nullopt;
  }
  return e;
}

std::string describe(const dbc::Message& m) {
  return fmt::format("{} 0x{:X}{}{} from {}: ", m.name, m.id, m.extended ? " (29-bit)" : "",
                     m.fd ? " FD" : "", m.sender);
}

}  // namespace

void plan_bus(CanBusSpec& spec, std::vector<MappingProblem>& problems) {
  if (spec.planned) return;
  spec.planned = true;
  const dbc::Database& db = spec.database;
  const bool node_lists = !spec.simulate_nodes.empty() || !spec.dut_nodes.empty();
  const std::set<std::string> except =
      node_set(db, spec.except_nodes, "except_nodes", false, problems);
  const std::set<std::string> dut = node_set(db, spec.dut_nodes, "dut_nodes", false, problems);
  std::set<std::string> simulated =
      node_set(db, spec.simulate_nodes, "simulate_nodes", true, problems);
  for (const std::string& n : except) simulated.erase(n);
  for (const std::string& n : dut) simulated.erase(n);

  for (std::size_t k = 0; k < spec.e2e.size(); ++k) {
    const std::string& name = spec.e2e[k].message;
    if (db.find_message(name) == nullptr) {
      problems.push_back({fmt::format("e2e[{}].message", k),
                          fmt::format("no message \"{}\" in {}", name, db.file_name)});
    } else if (rig_e2e_index(spec, name) != static_cast<std::int32_t>(k)) {
      problems.push_back(
          {fmt::format("e2e[{}].message", k), fmt::format("\"{}\" has E2E settings twice", name)});
    }
  }
  const auto block_of = [](const auto& blocks, const std::string& name) -> std::int32_t {
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].message == name) return static_cast<std::int32_t>(i);
    }
    return -1;
  };
  for (const dbc::Message& m : db.messages) {
    const std::vector<std::string> from = senders(m);
    const bool is_dut = any_in(from, dut);
    const bool of_simulated_node = any_in(from, simulated) && !is_dut;
    const std::int32_t rx_block = block_of(spec.rx, m.name);
    const std::int32_t tx_block = block_of(spec.tx, m.name);
    std::string line = describe(m);
    std::string e2e_from;
    const std::optional<e2e::ProfileSpec>* e2e = nullptr;  // the entry's, once decided

    if (rx_block >= 0 || is_dut) {  // received: an rx block, or checked for the DUT
      if (tx_block >= 0 && is_dut) {
        problems.push_back({fmt::format("tx[{}].message", tx_block),
                            fmt::format("\"{}\" is sent by the device under test (dut_nodes); "
                                        "the rig cannot also send it",
                                        m.name)});
      }
      RxMessageSpec* rx = nullptr;
      if (rx_block >= 0) {
        rx = &spec.rx[static_cast<std::size_t>(rx_block)];
      } else {
        rx = &spec.rx.emplace_back();
        rx->message = m.name;
      }
      rx->dut = is_dut;
      rx->e2e = e2e_of(spec, m, e2e_from, problems);
      e2e = &rx->e2e;
      line += is_dut ? "checked (device under test)" : "received";
      if (rx_block >= 0) line += fmt::format(" (rx[{}])", rx_block);
      if (rx->timeout_s) {
        line += fmt::format(", timeout {:g} ms", *rx->timeout_s * 1000.0);
      } else if (m.cycle_time_ms) {
        line += fmt::format(", timeout {} ms", 3 * *m.cycle_time_ms);
      } else if (is_dut) {
        line += ", no timeout (no GenMsgCycleTime)";
      }
    }
    if (tx_block >= 0 || (of_simulated_node && rx_block < 0)) {  // sent
      if (tx_block < 0 && il_support_off(db, m)) {
        spec.plan.push_back(line + "not sent: GenMsgILSupport \"No\"");
        continue;
      }
      std::string problem;
      std::optional<SendPlan> send = plan_sending(db, m, problem);
      if (!send) {
        problems.push_back({"dbc", problem});
        continue;
      }
      TxMessageSpec* tx = nullptr;
      if (tx_block >= 0) {
        tx = &spec.tx[static_cast<std::size_t>(tx_block)];
        // A tx block's cycle_ms makes it cyclic at that period; a plain tx block (no simulated
        // node) is cyclic at its GenMsgCycleTime whatever its send type
        const std::optional<double> cycle_ms =
            tx->cycle_s ? std::optional<double>(*tx->cycle_s * 1000.0)
                        : (of_simulated_node ? std::nullopt : send->cycle_ms);
        if (cycle_ms) {
          send->cyclic = true;
          send->on_change = send->if_active = false;
          send->cycle_ms = cycle_ms;
        } else if (!of_simulated_node) {
          send.reset();  // CanBus reports it at its field: a plain tx block needs a cycle
        }
      } else {
        tx = &spec.tx.emplace_back();
        tx->message = m.name;
      }
      tx->simulated = of_simulated_node;
      if (of_simulated_node) {
        tx->node = *std::find_if(from.begin(), from.end(),
                                 [&](const std::string& n) { return simulated.contains(n); });
      }
      if (e2e == nullptr) {
        tx->e2e = e2e_of(spec, m, e2e_from, problems);
      } else {
        tx->e2e = *e2e;  // sent and received on a loop-back bus: the same protection
      }
      e2e = &tx->e2e;
      if (rx_block >= 0) line += "; ";
      line += fmt::format("sent{}", tx_block >= 0 ? fmt::format(" (tx[{}])", tx_block) : "");
      if (send) line += ", " + send->describe();
      tx->send = std::move(send);
    }
    if (e2e == nullptr) {  // neither: why not, when node lists are given
      if (!node_lists) continue;
      if (!from.empty() && any_in(from, except)) {
        line += "not sent: its node is excepted";
      } else if (from.empty()) {
        line += "not sent: no node sends it (Vector__XXX)";
      } else {
        line += "not sent: its node is not simulated";
      }
      spec.plan.push_back(std::move(line));
      continue;
    }
    if (*e2e) line += fmt::format("; E2E {} ({})", describe_e2e(**e2e), e2e_from);
    if (node_lists || *e2e) spec.plan.push_back(std::move(line));
  }
}

}  // namespace hil::io::can
