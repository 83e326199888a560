// The console page's health header (docs/console.md "What the page shows"): real-time state,
// tick, sim time, RTF, overruns, wake-up and execution times, CAN, recorder and console drops,
// amber on the first drop and red on the first overrun — from the server's `status` message.

const $ = (id) => document.getElementById(id);
const fmt = (x, d = 1) => (x === null || x === undefined ? '—' : Number(x).toFixed(d));

/// Shows a `status` message in the header.
export function showStatus(s) {
  $('state').textContent = s.end ? `ended: ${s.end}` : s.state;
  $('tick').textContent = s.tick;
  $('sim').textContent = fmt(s.sim_time_s, 2);
  $('rtf').textContent = fmt(s.rtf, 2);
  $('overruns').textContent = s.overruns;
  $('last-overrun').textContent = s.last_overrun_tick !== null ? `(last at tick ${s.last_overrun_tick})` : '';
  $('wake').textContent = `${fmt(s.wake_p99_us, 0)}/${fmt(s.wake_max_us, 0)}`;
  $('exec').textContent = fmt(s.exec_p99_us, 0);
  $('can').textContent = s.can.map((b) => `CAN ${b.bus} rx ${b.rx} tx ${b.tx} refused ${b.refused} timeouts ${b.timeouts}`).join(' · ');
  $('recorder').textContent = s.recorder ? `recorder ${s.recorder.samples} samples, ${s.recorder.drops} drops` : 'not recording';
  const consoleDrops = s.console.tap_drops + s.console.dropped_frames;
  $('console-drops').textContent = `console drops ${consoleDrops}`;
  $('console-drops').title = `${s.console.tap_drops} ticks the RT tap could not queue (all clients), ` +
    `${s.console.dropped_frames} skips of this page's stream when it fell behind`;
  const timeouts = s.can.reduce((n, b) => n + b.timeouts + b.refused, 0);
  const h = $('health');
  h.classList.toggle('red', s.overruns > 0);
  h.classList.toggle('amber', s.overruns === 0 && consoleDrops + timeouts + (s.recorder ? s.recorder.drops : 0) > 0);
  $('tasks').replaceChildren(...s.tasks.map((t) => {
    const tr = document.createElement('tr');
    for (const c of [t.name, `p99 ${t.p99_us} µs`, `max ${fmt(t.max_us)} µs`]) tr.insertCell().textContent = c;
    return tr;
  }));
  if (s.end) $('stop').disabled = true;
}
