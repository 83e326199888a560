#include "tools/cli/bus_command.hpp"

#include <memory>

#include "tools/session/bus/bus_tools.hpp"

namespace hil::cli {

namespace {

/// CLI11 ends the program with the command's exit code.
void exit_with(int code) {
  if (code != 0) throw CLI::RuntimeError(code);
}

void add_target(CLI::App& cmd, session::BusTarget& t) {
  cmd.add_option("--rig", t.rig,
                 "The running rig whose bus to use (its bus name, usually the rig's name, or "
                 "the socket's path). Default: the only one running");
}

}  // namespace

void add_bus_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "bus", "The shared-memory bus of a running rig: list, read, write, mirror to another host");
  cmd->require_subcommand(1);
  cmd->footer(
      "A rig with a bus block (config/bus.proto) opens it while it runs:\n"
      "  hilsim run --rig ravon --overlay hil_rigs/ravon/cosim.pbtxt --scenario none\n"
      "  hilsim bus ls\n"
      "  hilsim bus write behaviour fl.speed_ref=5 fr.speed_ref=5 rl.speed_ref=5 "
      "rr.speed_ref=5 --for 10s\n"
      "  hilsim bus dump state --follow\n"
      "Concepts, the C library and Python module, the wire format: docs/bus.md\n");

  {
    auto o = std::make_shared<session::BusLsSpec>();
    CLI::App* ls = cmd->add_subcommand(
        "ls",
        "The regions of the running rig(s): direction, writer and its pid, sequence, "
        "publish rate, age of the last snapshot");
    add_target(*ls, o->target);
    ls->add_flag("--json", o->json, "JSON instead of a table");
    ls->callback([o] { exit_with(session::bus_ls(*o)); });
  }
  {
    auto o = std::make_shared<session::BusDumpSpec>();
    CLI::App* dump = cmd->add_subcommand("dump", "Print a region's latest snapshot");
    dump->add_option("REGION", o->region, "The region (hilsim bus ls lists them)")->required();
    add_target(*dump, o->target);
    dump->add_flag("--json", o->json, "One JSON object per snapshot");
    CLI::Option* follow =
        dump->add_flag("--follow,-f", o->follow,
                       "Print the latest snapshot at a display rate (--rate) until Ctrl-C");
    dump->add_option("--count", o->count, "With --follow: stop after N printed snapshots")
        ->needs(follow);
    CLI::Option* all =
        dump->add_flag("--all", o->all,
                       "With --follow: print every snapshot the writer publishes (e.g. 4000 a "
                       "second), not at a display rate")
            ->needs(follow);
    dump->add_option("--rate", o->rate_hz,
                     "With --follow: snapshots printed per second (the latest each time) "
                     "[Hz]. Default 10")
        ->check(CLI::Range(0.01, 10000.0))
        ->needs(follow)
        ->excludes(all);
    dump->footer(
        "Example: hilsim bus dump state --follow --json | head -100\n"
        "         hilsim bus dump state --follow --all --json > every_snapshot.jsonl\n");
    dump->callback([o] { exit_with(session::bus_dump(*o)); });
  }
  {
    auto o = std::make_shared<session::BusWriteSpec>();
    CLI::App* write = cmd->add_subcommand(
        "write", "Write an input region as its writer role (as a co-simulator would)");
    write->add_option("REGION", o->region, "An input region")->required();
    write->add_option("CHANNEL=VALUE", o->assignments,
                      "Values in SI units; a channel is named in full or by a unique suffix "
                      "(fl.speed_ref). Channels not given keep the region's last values (0 "
                      "before the first write)");
    add_target(*write, o->target);
    write->add_option("--for", o->duration,
                      "Keep publishing this long (10s, 500ms; inf until Ctrl-C), so that a "
                      "region with a timeout stays alive. Default: publish once");
    write->add_option("--rate", o->rate_hz, "Publish rate with --for [Hz]. Default 100")
        ->check(CLI::Range(0.1, 10000.0));
    write->footer(
        "Example: hilsim bus write behaviour fl.speed_ref=5 fr.speed_ref=5 rl.speed_ref=5 "
        "rr.speed_ref=5 --for 10s\n"
        "The role is held while this runs: another writer of it is refused until it ends.\n");
    write->callback([o] { exit_with(session::bus_write(*o)); });
  }
  {
    auto o = std::make_shared<session::BusMirrorSpec>();
    CLI::App* mirror = cmd->add_subcommand(
        "mirror", "On another host: a local replica of a rig's bus, kept in step over UDP");
    mirror
        ->add_option("--rig", o->rig,
                     "The rig (name or rig.pbtxt) — the same files the rig's host runs")
        ->required();
    mirror->add_option("--overlay", o->overlays, "Overlays, as on the rig's host");
    mirror->add_option("--peer", o->peer, "HOST:PORT of the rig's mirror (its bus.mirror.bind)")
        ->required();
    mirror->add_option("--bind", o->bind, "Local HOST:PORT, listed as a peer in the rig's file")
        ->required();
    mirror->add_option("--key", o->key_file, "Key file. Default: the rig's bus.mirror.key_file");
    mirror->add_flag("-q,--quiet", o->quiet, "No counters every second");
    mirror->footer(
        "Local co-simulators attach to the replica exactly as on the rig's host (libhilbus, "
        "Python's hilsim.bus, hilsim bus); it sends what the rig receives and receives what it "
        "sends.\n"
        "Example: hilsim bus mirror --rig ravon --overlay cosim_remote.pbtxt --peer "
        "10.0.0.1:29500 --bind 10.0.0.12:29500\n");
    mirror->callback([o] { exit_with(session::bus_mirror(*o)); });
  }
  {
    auto file = std::make_shared<std::string>();
    CLI::App* keygen = cmd->add_subcommand("keygen", "Make a new mirror key file (mode 0600)");
    keygen->add_option("FILE", *file, "Where to write it")->required();
    keygen->callback([file] { exit_with(session::bus_keygen(*file)); });
  }
}

}  // namespace hil::cli
