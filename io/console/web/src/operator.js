// The operator pane of the console page (docs/console.md "Operator"): set/force and release an
// input (numeric entry, steps ×1/×10/×100, slider within the channel's range), driving with a
// gamepad or the keyboard (driving.js), faults from a catalogue, markers, a triggered capture
// saved as CSV, and limits that colour channel values.
// Every action goes to the server (docs/api.md), which applies it at a tick and tells every page.
import { toCsv } from './csv.js';
import { download } from './layout.js';
import { DrivingPanel } from './driving.js';

const $ = (id) => document.getElementById(id);

/// The catalogue: what a fault does to its target, as config/fault.proto JSON; `of`: which of
/// the CAN view's messages it can target (default all).
export const FAULT_KINDS = {
  'drop frames': { target: 'message', op: () => ({ drop: {} }) },
  'delay frames (ms)': { target: 'message', op: (p) => ({ delay: { ms: p || 50 } }) },
  'freeze the alive counter': { target: 'message', op: () => ({ counter: { mode: 'freeze' } }) },
  'corrupt the CRC': { target: 'message', op: () => ({ crc: { mode: 'random' } }) },
  'send twice': { target: 'message', op: () => ({ duplicate: {} }) },
  'wrong E2E data id (value)': { target: 'message', op: (p) => ({ data_id: { value: p } }), of: (m) => m.e2e && m.dir === 'tx' },
  'silence the bus': { target: 'bus', op: () => ({ silence: {} }) },
  'silence a node': { target: 'node', op: () => ({ silence: {} }) },
  'channel stuck': { target: 'channel', op: () => ({ stuck: {} }) },
  'channel forced to (value)': { target: 'channel', op: (p) => ({ force: { value: p } }) },
  'channel offset (value)': { target: 'channel', op: (p) => ({ offset: { value: p } }) },
  'channel noise (sigma)': { target: 'channel', op: (p) => ({ noise: { sigma: p || 0.1 } }) },
  'channel NaN': { target: 'channel', op: () => ({ nan: {} }) },
};

/// The fault `kind` on `target` ("bus/message", "bus", "bus/node" or a channel), `param`, stopping after
/// `seconds` (0: until cleared): {name, …} as the API takes it.
export function faultFor(kind, target, param, seconds) {
  const k = FAULT_KINDS[kind];
  const fault = { name: `${kind.replace(/ \(.*\)$/, '')} ${target}` };
  if (seconds > 0) fault.stop = { duration_s: seconds };
  if (k.target === 'message') {
    const [bus, name] = target.split('/');
    fault.message = { bus, name, ...k.op(param) };
  } else if (k.target === 'bus') {
    fault.bus = { name: target, ...k.op(param) };
  } else if (k.target === 'node') {  // a node the bus simulates (rest-bus simulation)
    const [bus, node] = target.split('/');
    fault.bus = { name: bus, node, ...k.op(param) };
  } else {
    fault.channel = { name: target, ...k.op(param) };
  }
  return fault;
}

/// 'inside', 'near' (within 10 % of the span from a limit) or 'outside' [low, high].
export function limitState(value, [low, high]) {
  if (value === null || Number.isNaN(value)) return 'outside';
  if (value < low || value > high) return 'outside';
  const margin = 0.1 * (high - low);
  return value < low + margin || value > high - margin ? 'near' : 'inside';
}

export class OperatorPane {
  constructor(send) {
    this.send = send;
    this.channels = [];
    this.buses = [];
    this.limits = new Map();  // name → [low, high]
    this.capture = null;      // the armed capture: {id, names, rows, shot}
    this.rig = null;
    this.req = 1;
    for (const b of document.querySelectorAll('#op-input button[data-step]')) {
      b.onclick = () => this.nudge(Number(b.dataset.step));
    }
    $('op-channel').onchange = () => this.pick();
    $('op-slider').oninput = () => { $('op-value').value = $('op-slider').value; };
    $('op-value').oninput = () => { $('op-slider').value = $('op-value').value; };
    $('op-set').onclick = () => this.write();
    $('op-release').onclick = () => this.call({ type: 'release', channels: [$('op-channel').value] });
    $('fault-kind').onchange = () => this.fillTargets();
    $('fault-inject').onclick = () => this.inject();
    $('marker-add').onclick = () => {
      const text = $('marker-text').value.trim();
      if (text) this.call({ type: 'marker', text });
      $('marker-text').value = '';
    };
    $('cap-arm').onclick = () => this.arm();
    $('cap-stop').onclick = () => this.capture && this.call({ type: 'capture_stop', id: this.capture.id });
    $('limit-set').onclick = () => this.setLimit();
    $('fault-kind').replaceChildren(...Object.keys(FAULT_KINDS).map((k) => new Option(k, k)));
    this.driving = new DrivingPanel((m) => this.call(m));
  }

  /// Sends an API request; returns its req.
  call(m) {
    const req = this.req++;
    this.send({ ...m, req });
    return req;
  }

  /// The run's channels and the caller's rights (server_info, channels).
  setRun(info, channels) {
    this.rig = info.rig;
    this.channels = channels;
    const operator = (info.capabilities || []).includes('write');
    for (const el of document.querySelectorAll('#pane-op button, #pane-op input, #pane-op select')) {
      el.disabled = !operator && !el.closest('#op-limits') && !el.closest('#op-capture');
    }
    $('op-who').textContent = operator ? '' : 'viewer: steering needs the operator token (captures and limits do not)';
    const inputs = channels.filter((c) => c.direction === 'input');
    $('op-channel').replaceChildren(...inputs.map((c) => new Option(`${c.name} [${c.unit}]`, c.name)));
    $('limit-channel').replaceChildren(...channels.map((c) => new Option(c.name, c.name)));
    this.limits = new Map(JSON.parse(localStorage.getItem(`hilsim.limits.${this.rig}`) ?? '[]'));
    this.showLimits();
    this.pick();
    this.fillTargets();
    this.driving.setRun(info);
  }

  setBuses(buses) {
    const known = this.buses.map((b) => b.name).join();
    this.buses = buses;
    if (buses.map((b) => b.name).join() !== known || !$('fault-target').options.length) this.fillTargets();
  }

  channel() { return this.channels.find((c) => c.name === $('op-channel').value); }

  pick() {
    const c = this.channel();
    if (!c) return;
    const lo = c.min ?? null, hi = c.max ?? null;
    const s = $('op-slider');
    s.min = lo ?? -100; s.max = hi ?? 100;
    s.step = 'any';
    $('op-step').value = lo !== null && hi !== null ? Number(((hi - lo) / 1000).toPrecision(3)) : 0.01;
    $('op-range').textContent = lo !== null ? `range ${lo} … ${hi} ${c.unit}` : `${c.unit}, no range`;
  }

  nudge(times) {
    const v = Number($('op-value').value || 0) + times * Number($('op-step').value || 1);
    const c = this.channel();
    const clamped = Math.min(c?.max ?? Infinity, Math.max(c?.min ?? -Infinity, v));
    $('op-value').value = Number(clamped.toPrecision(12));
    $('op-slider').value = $('op-value').value;
  }

  write() {
    const v = Number($('op-value').value);
    if ($('op-value').value.trim() === '' || !Number.isFinite(v)) return;
    this.call({ type: 'write', values: { [$('op-channel').value]: v } });
  }

  fillTargets() {
    const kind = FAULT_KINDS[$('fault-kind').value];
    let targets;
    if (kind?.target === 'message') {
      const of = kind.of ?? (() => true);
      targets = [...new Set(this.buses.flatMap((b) => b.messages.filter(of).map((m) => `${b.name}/${m.name}`)))];
    } else if (kind?.target === 'node') {
      targets = [...new Set(this.buses.flatMap((b) => b.messages.filter((m) => m.node).map((m) => `${b.name}/${m.node}`)))];
    } else if (kind?.target === 'bus') {
      targets = this.buses.map((b) => b.name);
    } else {
      targets = this.channels.map((c) => c.name);
    }
    $('fault-target').replaceChildren(...targets.map((t) => new Option(t, t)));
  }

  inject() {
    const fault = faultFor($('fault-kind').value, $('fault-target').value,
      Number($('fault-param').value || 0), Number($('fault-duration').value || 0));
    this.call({ type: 'fault', fault });
    const li = document.createElement('li');
    li.textContent = fault.name + ' ';
    const clear = document.createElement('button');
    clear.textContent = 'clear';
    clear.onclick = () => { this.call({ type: 'clear_fault', name: fault.name }); li.remove(); };
    li.append(clear);
    $('fault-active').append(li);
  }

  // ---- triggered capture: the plotted channels, saved as CSV per shot ----
  arm(names = this.plotted()) {
    if (!names.length) { $('cap-status').textContent = 'plot the channels to capture first'; return; }
    const id = 900 + (this.req % 100);
    const m = { type: 'capture', id, channels: names, duration_s: Number($('cap-len').value || 1),
      pre_trigger_s: Number($('cap-pre').value || 0), mode: $('cap-mode').value };
    const when = $('cap-when').value.trim();
    if (when) m.start = { when, on: $('cap-on').value };
    this.capture = { id, names: [], rows: [], shot: 0 };
    this.call(m);
    $('cap-status').textContent = 'arming…';
  }

  onControl(m) {
    this.driving.onControl(m);
    const c = this.capture;
    if (!c || m.id !== c.id) return;
    if (m.type === 'capture') {
      c.names = m.names;
      $('cap-status').textContent = `armed at tick ${m.tick}`;
    } else if (m.type === 'capture_triggered') {
      $('cap-status').textContent = `triggered at tick ${m.trigger_tick}`;
    } else if (m.type === 'capture_end') {
      const name = `capture-${this.rig}-${m.first_tick ?? 'none'}.csv`;
      if (c.rows.length) {
        const text = toCsv(c.names, c.rows, this.periodNs);
        download(name, text, 'text/csv');
        const a = document.createElement('a');
        a.textContent = name;
        a.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
        a.download = name;
        $('cap-files').prepend(a);
      }
      $('cap-status').textContent = `shot ${m.shot}: ${m.samples} samples, ${m.lost} lost (${m.reason})` +
        (m.done ? '' : '; armed again');
      c.rows = [];
      if (m.done) this.capture = null;
    }
  }

  onBlock(buf) {
    const c = this.capture;
    const dv = new DataView(buf);
    if (!c || dv.getUint16(2, true) !== c.id) return;
    const first = Number(dv.getBigInt64(8, true)), dec = dv.getUint32(16, true);
    const n = dv.getUint16(20, true), k = dv.getUint16(22, true);
    const all = new Float64Array(buf, 32, n * k);
    for (let i = 0; i < n; ++i) {
      const values = [];
      for (let j = 0; j < k; ++j) values.push(all[j * n + i]);
      c.rows.push({ tick: first + i * dec, values });
    }
  }

  // ---- limits ----
  setLimit() {
    const name = $('limit-channel').value;
    const low = Number($('limit-low').value), high = Number($('limit-high').value);
    if ($('limit-low').value === '' && $('limit-high').value === '') this.limits.delete(name);
    else if (Number.isFinite(low) && Number.isFinite(high) && low < high) this.limits.set(name, [low, high]);
    else return;
    localStorage.setItem(`hilsim.limits.${this.rig}`, JSON.stringify([...this.limits]));
    this.showLimits();
  }

  showLimits() {
    $('limit-list').replaceChildren(...[...this.limits].map(([name, [lo, hi]]) => {
      const li = document.createElement('li');
      li.textContent = `${name}: ${lo} … ${hi} `;
      const remove = document.createElement('button');
      remove.textContent = '×';
      remove.onclick = () => {
        this.limits.delete(name);
        localStorage.setItem(`hilsim.limits.${this.rig}`, JSON.stringify([...this.limits]));
        this.showLimits();
      };
      li.append(remove);
      return li;
    }));
  }

  /// The class a value cell gets: '' without a limit, else limit-inside/-near/-outside.
  limitClass(name, value) {
    const l = this.limits.get(name);
    return l ? `limit-${limitState(value, l)}` : '';
  }
}
