#pragma once
// Inside the console server (console_server.hpp): the state the console thread keeps and the
// sessions that share it. Not part of the library's interface.
//
// Thread-safety: everything here runs on the console thread, except the atomics of
// SharedCounters (read by counters() from any thread).

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <nlohmann/json.hpp>

#include "io/console/capture.hpp"
#include "io/console/console_auth.hpp"
#include "io/console/console_feed.hpp"
#include "io/console/console_spec.hpp"
#include "io/console/console_tap.hpp"
#include "io/console/sample_history.hpp"
#include "io/record/telemetry_schema.hpp"
#include "io/scene/scene_messages.hpp"
#include "io/scene/scene_trail.hpp"
#include "rt_core/executive.hpp"

namespace hil::io::console::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Request = http::request<http::empty_body>;

inline constexpr std::size_t kHeaderLimit = 8 * 1024;
inline constexpr std::size_t kMessageLimit = 64 * 1024;
inline constexpr std::size_t kControlQueueLimit = 1024 * 1024;
inline constexpr std::size_t kMinDataQueue = 256 * 1024;
inline constexpr std::size_t kCaptureQueueLimit = 64 * 1024 * 1024;
inline constexpr std::size_t kMaxHttpConnections = 64;
inline constexpr auto kIdleTimeout = std::chrono::seconds(10);
inline constexpr auto kStallTimeout = std::chrono::seconds(10);
inline constexpr std::size_t kEventBacklog = 200;

enum class Protocol { console, foxglove };

struct SharedCounters {
  std::atomic<std::uint64_t> clients{0}, refused{0}, bad_messages{0}, dropped_frames{0},
      closed_stalled{0};
};

/// A `subscribe` of the page: channel indices streamed from the history.
struct Subscription {
  std::uint16_t id = 0;
  std::vector<std::uint32_t> channels;
  std::uint64_t next_seq = 0;  ///< the next history sample to send
  std::uint32_t frames = 0;    ///< frames sent: the next frame's seq (a skip leaves a gap)
  bool backfilling = true;     ///< sending the past: never skipped ahead, flagged in frames
};

/// A Foxglove subscription: one telemetry group, /events, a scene topic at ≤ foxglove_rate_hz
/// or a live point cloud.
struct FoxgloveSubscription {
  std::uint32_t id = 0;
  /// advertised channel: group index + 1, events = groups + 1, then the scene's topics
  /// (io/scene/foxglove_schemas.hpp kSceneTopics, in order), then the live clouds
  std::size_t channel = 0;
  std::int64_t last_tick = -1;
  io::scene::SceneTrail trail;  ///< /scene/trail: the positions so far
};

class Core;

/// A Foxglove MessageData frame: op, subscription id, log time, payload (foxglove_handler.cpp).
[[nodiscard]] std::shared_ptr<const std::string> foxglove_message_data(
    std::uint32_t subscription, std::uint64_t log_time_ns, std::span<const std::uint8_t> payload);

/// `{"type": "error", "req", "message"}` and `{"type": "ack", "req", "tick"}`.
[[nodiscard]] Json error_message(std::optional<std::int64_t> req, std::string_view message);
[[nodiscard]] Json ack_message(std::optional<std::int64_t> req, std::int64_t tick);
/// `{"type": type, "req": req}`: the start of a call's reply.
[[nodiscard]] Json reply(std::string_view type, std::optional<std::int64_t> req);

/// One WebSocket client: a control queue (JSON, lossless) and a data queue (frames, filled only
/// up to its cap; a client that falls behind the live edge loses the oldest samples, counted),
/// one write in flight.
class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(Core& core, beast::tcp_stream&& stream, Protocol speaking, Role as, std::string from);
  void accept(const Request& request, const std::string& subprotocol);
  void send_control(std::string text);
  void send_data(std::shared_ptr<const std::string> bytes, bool binary);
  /// A capture's block or notice, in order after the control messages before it: false (not
  /// queued) for a block when kCaptureQueueLimit bytes wait already; notices always go.
  bool send_capture(std::shared_ptr<const std::string> bytes, bool binary);
  /// Room in the data queue: frames wait in the history while it is full.
  [[nodiscard]] bool data_room() const noexcept { return data_bytes_ < data_cap; }
  /// Counts `frames` of data dropped for this client and tells it (throttled `lag`).
  void note_dropped(std::uint64_t frames);
  void close(websocket::close_code code);
  /// Sends what is queued, then closes (the server is going away).
  void close_after_flush();
  /// Closes a client that has not read for kStallTimeout; true if it did.
  bool close_if_stalled(Clock::time_point now);

  Protocol protocol;
  Role role;
  std::string peer;
  std::vector<Subscription> subscriptions;
  std::vector<FoxgloveSubscription> foxglove;
  std::uint64_t foxglove_seq = 0;  ///< next history sample for Foxglove messages
  bool can_view = false;
  std::uint64_t dropped_frames = 0;
  std::size_t data_cap = kMinDataQueue;
  [[nodiscard]] bool open() const noexcept { return open_; }

 private:
  struct Out {
    std::shared_ptr<const std::string> bytes;
    bool binary = false;
  };
  void read_next();
  void write_next();
  void finish();

  Core& core_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<Out> control_, capture_, data_;
  std::size_t control_bytes_ = 0, capture_bytes_ = 0, data_bytes_ = 0;
  bool writing_ = false, open_ = false, closing_ = false;
  Clock::time_point write_started_{};
  std::optional<Clock::time_point> lagging_since_;
  Clock::time_point lag_sent_{};
};

class Core {
 public:
  Core(const ConsoleSpec& options, ConsoleFeed feed);

  // ---- HTTP (http_session.cpp) ----
  void accept_next();

  // ---- the page's protocol (console_protocol_handler.cpp) ----
  void welcome(WsSession& s);
  void on_console_message(WsSession& s, std::string_view text);
  void send_console_frames(WsSession& s) const;
  [[nodiscard]] Json info_json(Role role) const;
  [[nodiscard]] std::string snapshot_json();  ///< the WebSocket `values` message (an array)
  /// GET /api/snapshot: {"tick", "sim_time_s", "values": {name: value}} (docs/console.md)
  [[nodiscard]] std::string snapshot_http_json();

  // ---- Foxglove (foxglove_handler.cpp) ----
  void foxglove_welcome(WsSession& s);
  void on_foxglove_message(WsSession& s, std::string_view text);
  void send_foxglove_messages(WsSession& s);
  /// The scene topics' messages of one history sample due for `f` (a scene subscription).
  void send_scene_sample(WsSession& s, FoxgloveSubscription& f, io::scene::SceneTopic topic,
                         std::uint64_t seq);
  /// A static scene topic's message, to a new subscriber at once (lossless).
  void send_scene_static(WsSession& s, const FoxgloveSubscription& f, io::scene::SceneTopic topic);
  /// The scene's messages (made on first use), or nullptr for a run without a scene.
  [[nodiscard]] io::scene::SceneMessages* scene_messages();
  /// Advertised channels: the groups, /events, the scene's topics, then the live clouds.
  [[nodiscard]] std::size_t foxglove_channel_count() const noexcept;

  // ---- live point clouds (foxglove_clouds.cpp) ----
  /// The channel id of feed.clouds[0] (the others follow).
  [[nodiscard]] std::size_t first_cloud_channel() const noexcept;
  /// Appends the clouds' channels to an advertisement.
  void advertise_clouds(Json& channels) const;
  /// Tells each cloud source whether anybody subscribes to it.
  void update_cloud_wants();
  /// Each source's newest revolution, encoded once, to its subscribers (at most
  /// foxglove_rate_hz, lossless queue: a client that falls behind loses clouds, not telemetry).
  void send_live_clouds();

  // ---- the loop (console_server.cpp) ----
  void start_pump();
  void pump();
  void drain_tap();
  void session_opened(const std::shared_ptr<WsSession>& s);
  void session_closed(WsSession* s);
  void update_armed();
  /// Ticks the loop has run (fresh; `timing.ticks` is the status period's).
  [[nodiscard]] std::int64_t ticks_now() const;
  [[nodiscard]] Json status_json(const WsSession& s) const;
  void add_event(ConsoleEvent e);
  void request_stop(WsSession& s, std::optional<std::int64_t> req);
  /// The indices of the channels `patterns` name (wildcards; in order), or nullopt after
  /// refusing `req` for a pattern that matches none.
  [[nodiscard]] std::optional<std::vector<std::uint32_t>> matching(
      WsSession& s, std::optional<std::int64_t> req, const std::vector<std::string>& patterns);
  /// Answers `req` with an error saying `why`, counted as a refused message.
  void refuse(WsSession& s, std::optional<std::int64_t> req, std::string_view why);
  void submit_command(WsSession& s, std::optional<std::int64_t> req, const Command& c);
  /// `drive`: the operator holding the lock drives (feed.drive); a viewer is refused.
  void drive(WsSession& s, std::optional<std::int64_t> req, const Drive& d);
  void lock_step(WsSession& s, std::optional<std::int64_t> req, const Step& step);
  /// An operator of a paused run holding the lock may step; else refuses.
  bool may_step(WsSession& s, std::optional<std::int64_t> req);
  /// `ticks` more for the loop (granted by advance_steps()): the tick count it will have run.
  std::int64_t ask_ticks(std::int64_t ticks);
  /// Grants what is asked, never further ahead of the tap than half its room, and acks the
  /// steps done.
  void advance_steps();
  /// `at`: where the loop waits (−1 running).
  void ack_steps(std::int64_t at);

  // ---- captures and waits (capture_handler.cpp) ----
  [[nodiscard]] std::optional<rt::ChannelCondition> condition_of(WsSession& s,
                                                                 std::optional<std::int64_t> req,
                                                                 const rt::ConditionText& text);
  [[nodiscard]] std::optional<CaptureTrigger> trigger_of(WsSession& s,
                                                         std::optional<std::int64_t> req,
                                                         const TriggerRequest& t);
  void start_capture(WsSession& s, std::optional<std::int64_t> req, const CaptureRequest& r);
  void cancel_capture(WsSession& s, std::optional<std::int64_t> req, std::uint16_t id);
  /// Sends what the captures have ready; forgets the finished ones.
  void serve_captures();
  void wait_for(WsSession& s, std::optional<std::int64_t> req, const WaitFor& w);
  /// Non-stepped waits against one tick off the tap.
  void check_waits(std::int64_t tick, std::span<const double> values);
  /// Stepped waits once the loop waits at `at`: met or timed out.
  void finish_stepped_waits(std::int64_t at);
  void end_captures_and_waits();
  /// The operator lock: true when `s` holds it (taking it when nobody does); else refuses.
  bool hold_lock(WsSession& s, std::optional<std::int64_t> req);
  void lock(WsSession& s, std::optional<std::int64_t> req, bool take);
  [[nodiscard]] Json lock_json() const;
  [[nodiscard]] Json capabilities() const;
  void command_applied(std::uint64_t id, std::int64_t tick, bool ok, const std::string& line);
  void command_result(std::uint64_t id, const std::string& type, Json body);
  void send_deferred_replies();
  void run_ended(const std::string& how, std::int64_t ticks);

  ConsoleSpec options;
  ConsoleFeed feed;
  std::string token;
  bool bound_loopback = true;
  std::uint16_t port = 0;
  asio::io_context io;
  tcp::acceptor acceptor{io};
  asio::steady_timer timer{io};
  ConsoleTap tap;
  SampleHistory history;
  std::optional<io::record::TelemetrySchema> schema;  ///< none for a table without channels
  [[nodiscard]] std::span<const io::record::TelemetryGroup> groups() const noexcept {
    return schema ? schema->groups() : std::span<const io::record::TelemetryGroup>();
  }
  std::vector<std::string> foxglove_schemas_base64;  ///< per group, then events
  /// The scene's messages (scene_messages(): made on first use).
  std::optional<io::scene::SceneMessages> scene_encoder;
  /// The live clouds: whether each is subscribed, its last revolution sent [ns], the encodes.
  std::vector<bool> cloud_wanted;
  std::vector<std::int64_t> cloud_sent_end_ns;
  std::uint64_t cloud_encodes = 0;
  std::int64_t cloud_encode_ns = 0, cloud_encode_max_ns = 0;
  /// The page's `scene` message, dumped once.
  std::shared_ptr<const std::string> scene_text;
  const rt::Executive* executive = nullptr;
  std::function<void()> stop;
  SharedCounters counters;
  std::vector<std::shared_ptr<WsSession>> sessions;
  std::size_t http_connections = 0;

  // run state
  std::string state = "starting";
  std::optional<std::string> ending;
  std::int64_t final_ticks = -1;
  std::vector<std::pair<std::weak_ptr<WsSession>, std::optional<std::int64_t>>> pending_stops;
  /// An operator's command waiting for the loop: by the id of its last loop command.
  struct PendingCommand {
    std::weak_ptr<WsSession> session;
    std::optional<std::int64_t> req;
    std::string peer;
    /// A `uds` command: its reply waits for the tester's result, not for its application.
    bool awaits_result = false;
  };
  std::map<std::uint64_t, PendingCommand> pending_commands;
  /// Results of commands (`uds`) not yet sent: in a paused run, until the loop waits again.
  struct DeferredReply {
    std::weak_ptr<WsSession> session;
    std::string message;
  };
  std::vector<DeferredReply> deferred_replies;
  /// Steps waiting for the loop to reach the gate: (client, req, ticks through at the end).
  struct PendingStep {
    std::weak_ptr<WsSession> session;
    std::optional<std::int64_t> req;
    std::int64_t through = 0;
  };
  std::vector<PendingStep> pending_steps;
  std::int64_t step_goal = 0;     ///< ticks the loop should have run when the steps are done
  std::int64_t step_granted = 0;  ///< … of which the gate lets through so far
  std::optional<rt::ChannelCondition> step_watch;  ///< a stepped wait_for's condition
  struct ActiveCapture {
    std::weak_ptr<WsSession> session;
    std::optional<std::int64_t> req;
    Capture capture;
    std::uint32_t blocks = 0;        ///< blocks sent: the next block's seq
    std::uint64_t unsent = 0;        ///< samples of the shot the client's queue refused
    std::uint64_t unsent_total = 0;  ///< … of the whole capture
  };
  std::vector<ActiveCapture> captures;
  struct PendingWait {
    std::weak_ptr<WsSession> session;
    std::optional<std::int64_t> req;
    rt::ChannelCondition condition;
    std::string text;
    double timeout_s = 0.0;
    std::int64_t from_tick = 0;
    std::int64_t deadline_tick = 0;
    bool step = false;
  };
  std::vector<PendingWait> waits;
  std::weak_ptr<WsSession> lock_holder;  ///< the operator steering, if any
  std::int64_t locked_at = -1;           ///< the tick they took it
  Clock::time_point started_at{};
  rt::TimingSnapshot timing;  ///< refreshed every status period
  std::uint64_t overruns_seen = 0;
  std::deque<std::string> events;            ///< the last kEventBacklog event messages (JSON)
  std::deque<ConsoleEvent> foxglove_events;  ///< not yet sent on /events
  std::uint64_t events_total = 0;
  /// Whether the loop runs real-time (ConsoleServer::set_realtime), once it has started.
  struct Realtime {
    bool on = false;
    std::string summary = "not started";
  } realtime;

  // pump scratch
  std::vector<double> row;
  std::int64_t drained_through = 0;  ///< the tick after the last one taken off the tap
  rt::ChannelSnapshot snapshot;
  double first_tick_wall_ms = 0.0;  ///< paced: wall clock of tick 0 (lower bound)
  bool have_first_tick_wall = false;
  Clock::time_point last_values{}, last_status{}, last_can{}, last_timing{};
};

/// `name` matches `pattern` (shell wildcards: *, ?, [..]).
[[nodiscard]] bool wildcard_match(const std::string& pattern, const std::string& name) noexcept;
/// base64 of `bytes` (RFC 4648, padded).
[[nodiscard]] std::string base64(std::span<const std::uint8_t> bytes);

}  // namespace hil::io::console::detail
