// The CAN view: per bus and message, the last data, the decoded signals, the measured vs the
// DBC cycle time and the counters (the server's `can` message, docs/console.md); for a rest-bus
// simulation also each message's node, send plan and E2E (its check's status, coloured), and
// the operator's run-time controls: a message off, its cycle changed, a simulated node off —
// each a fault (docs/api.md "fault", config/fault.proto as JSON) without a stop, cleared again
// by its name. The controls' state is the faults' own: their on/off events (also the last ones a
// page gets on connecting), so a reloaded page or a second one shows what is off.

const hexId = (m) => (m.id === null ? '—' : '0x' + m.id.toString(16).toUpperCase().padStart(m.extended ? 8 : 3, '0'));
const ms = (x) => (x === null || x === undefined ? '—' : Number(x).toFixed(1));
const spaced = (hex) => (hex ? hex.match(/../g).join(' ') : '—');
const value = (v) => (v === null ? 'NaN' : Number(v).toPrecision(6));

// ---- DOM-free parts (unit-tested in tests/console/views.test.mjs) ----

/// The fault name of a control: 'off body/ABS_Status', 'cycle body/ABS_Status',
/// 'node off body/ABS'.
export const controlName = (kind, bus, target) => `${kind} ${bus}/${target}`;

/// A control's fault name without the ' #n' a repeated injection adds (names are unique in a run).
export const controlOf = (name) => name.replace(/ #\d+$/, '');

/// `base`, or `base #2`, `base #3`, … : the first name not in `used` (a run refuses a fault name
/// it had before, even one cleared).
export function freshName(base, used) {
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base} #${n}`)) ++n;
  return `${base} #${n}`;
}

/// The message's frames dropped until cleared.
export const offFault = (bus, message, name) => ({ name, message: { bus, name: message, drop: {} } });
/// The message sent every `ms` instead of its cycle until cleared.
export const cycleFault = (bus, message, cycleMs, name) => ({ name, message: { bus, name: message, cycle: { ms: cycleMs } } });
/// The simulated node silent until cleared.
export const nodeOffFault = (bus, node, name) => ({ name, bus: { name: bus, node, silence: {} } });

/// The cycle field's text: a cycle in ms (> 0), null (empty: back to the message's own cycle)
/// or undefined (not a cycle).
export function parseCycle(text) {
  const t = String(text).trim();
  if (t === '') return null;
  const v = Number(t);
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

/// A fault event's text (`fault 'NAME' on: …`, `fault 'NAME' off`): {name, on}, or null.
export function faultEvent(text) {
  const m = /^fault '(.+)' (on: |off$)/.exec(text ?? '');
  return m ? { name: m[1], on: m[2] !== 'off' } : null;
}

/// The class of an E2E status: '' for OK (and none), 'warn' for REPEATED, WRONG_SEQUENCE and
/// NODATA, 'error' for ERROR (a CRC or data id wrong).
export function e2eClass(status) {
  if (status === null || status === undefined || status === 'OK') return '';
  return status === 'ERROR' ? 'error' : 'warn';
}

/// The E2E column: the profile, and for a checked message its last status ('P05 NODATA').
export const e2eText = (m) => (m.e2e ? `${m.e2e}${m.e2e_status ? ' ' + m.e2e_status : ''}` : '');

/// The node column: the simulated node, or DUT for the device under test's messages.
export const nodeText = (m) => (m.node ? m.node : m.dut ? 'DUT' : '');

/// The row's tooltip: how the message is sent (its send plan) and which channels it maps.
export function rowTitle(m) {
  const lines = [];
  if (m.send) lines.push(`send: ${m.send}`);
  if (m.node) lines.push(`sent for node ${m.node} (rest-bus simulation)`);
  if (m.dut) lines.push('sent by the device under test: checked');
  for (const s of m.signals) lines.push(`${s.name} ↔ ${s.channel}`);
  return lines.join('\n');
}

/// Which controls are on: the running faults' names (from their on/off events and the page's
/// own requests) by control.
export class FaultNames {
  constructor() {
    this.used = new Set();    // every fault name seen or sent
    this.active = new Set();  // the running ones
  }

  /// An event of the server's log; true when it changed a fault's state.
  onEvent(e) {
    const f = e.kind === 'fault' ? faultEvent(e.text) : null;
    if (!f) return false;
    this.used.add(f.name);
    if (f.on) this.active.add(f.name);
    else this.active.delete(f.name);
    return true;
  }

  /// The running faults of a control (normally one).
  of(control) { return [...this.active].filter((n) => controlOf(n) === control); }
  isOn(control) { return this.of(control).length > 0; }

  /// A new fault's name for `control`, taken as running.
  start(control) {
    const name = freshName(control, this.used);
    this.used.add(name);
    this.active.add(name);
    return name;
  }

  /// The control's running faults, taken as stopped.
  stop(control) {
    const names = this.of(control);
    for (const n of names) this.active.delete(n);
    return names;
  }

  /// A request was refused: the fault `name` does not run.
  refused(name) { this.active.delete(name); }
}

// ---- the table ----

const button = (text, title, onclick) => {
  const b = document.createElement('button');
  b.textContent = text;
  b.title = title;
  b.onclick = onclick;
  return b;
};

/// The CAN view's table (#can-table): rows made once per message and updated in place, so that
/// the controls keep their state and a half-typed cycle between two updates (2 Hz).
/// `call(m)`: sends an API request and returns its `req` (OperatorPane.call).
export class CanTable {
  constructor(table, call) {
    this.table = table;
    this.call = call;
    this.faults = new FaultNames();
    this.rows = new Map();  // key → {tr, cells, controls}
    this.keys = '';
    this.operator = false;
    this.pending = new Map();  // req → fault name, until acknowledged or refused
  }

  /// A new run: no fault of the controls runs.
  reset() {
    this.faults = new FaultNames();
    this.pending = new Map();
    this.paint();
  }

  /// The caller's rights: the controls need the operator token.
  setOperator(operator) {
    this.operator = operator;
    this.paint();
  }

  /// The server's `can` message.
  render(buses) {
    const keys = buses.flatMap((b) => b.messages.map((m) => `${b.name}/${m.name}/${m.dir}`)).join('\n');
    if (keys !== this.keys) this.build(buses, keys);
    for (const bus of buses) {
      for (const m of bus.messages) this.update(this.rows.get(`${bus.name}/${m.name}/${m.dir}`), bus, m);
    }
  }

  /// An event: a fault on or off changes the controls.
  onEvent(e) { if (this.faults.onEvent(e)) this.paint(); }

  /// A refused request of ours (`error` with its req): its fault does not run.
  onError(m) {
    const name = this.pending.get(m.req);
    if (name === undefined) return;
    this.pending.delete(m.req);
    this.faults.refused(name);
    this.paint();
  }

  onAck(m) { this.pending.delete(m.req); }

  build(buses, keys) {
    this.keys = keys;
    this.rows = new Map();
    const trs = [];
    for (const bus of buses) {
      for (const m of bus.messages) {
        const tr = document.createElement('tr');
        const cells = [];
        for (let i = 0; i < 15; ++i) cells.push(tr.insertCell());
        cells[11].className = 'node';
        cells[12].className = 'e2e';
        cells[13].className = 'rest-bus';
        tr.dataset.message = m.name;
        tr.dataset.bus = bus.name;
        tr.dataset.dir = m.dir;
        const row = { tr, cells, controls: this.controls(bus.name, m) };
        cells[11].append(document.createTextNode(''), ...row.controls.node);
        cells[13].append(...row.controls.message);
        this.rows.set(`${bus.name}/${m.name}/${m.dir}`, row);
        trs.push(tr);
      }
    }
    this.table.tBodies[0].replaceChildren(...trs);
    this.paint();
  }

  /// The operator's controls of a message's row: off and cycle for a message the rig sends,
  /// node off for a simulated node's. `paint` brings them up to date; `toggles`: the controls
  /// that turn the message off (itself or its node).
  controls(bus, m) {
    const out = { node: [], message: [], paint: [], toggles: [] };
    const toggle = (text, cls, control, title, fault) => {
      const b = button(text, title, () => this.toggle(control, fault));
      b.className = cls;
      out.toggles.push(control);
      out.paint.push(() => {
        const on = this.faults.of(control);
        b.classList.toggle('on', on.length > 0);
        b.disabled = !this.operator;
        b.title = on.length ? `${on.map((n) => `'${n}'`).join(', ')} on: click to clear` : title;
      });
      return b;
    };
    if (m.node) {
      out.node.push(toggle('node off', 'node-off', controlName('node off', bus, m.node),
        `silence node ${m.node} on ${bus} (every message it sends) until clicked again`,
        (name) => nodeOffFault(bus, m.node, name)));
    }
    if (m.dir === 'tx') {
      const off = toggle('off', 'msg-off', controlName('off', bus, m.name),
        `stop sending ${m.name} (its frames dropped) until clicked again`,
        (name) => offFault(bus, m.name, name));
      const cycle = controlName('cycle', bus, m.name);
      const input = document.createElement('input');
      input.className = 'cycle';
      input.type = 'text';
      input.inputMode = 'decimal';
      input.size = 5;
      input.placeholder = 'cycle ms';
      const title = `send ${m.name} every … ms instead (Enter); empty and Enter: its own cycle again`;
      input.onkeydown = (e) => { if (e.key === 'Enter') this.setCycle(bus, m.name, cycle, input); };
      out.message.push(off, input);
      out.paint.push(() => {
        const on = this.faults.of(cycle);
        input.disabled = !this.operator;
        input.classList.toggle('on', on.length > 0);
        input.title = on.length ? `${title}\n'${on.join("', '")}' on` : title;
      });
    }
    return out;
  }

  toggle(control, fault) {
    if (this.faults.isOn(control)) {
      for (const name of this.faults.stop(control)) this.call({ type: 'clear_fault', name });
    } else {
      const name = this.faults.start(control);
      this.pending.set(this.call({ type: 'fault', fault: fault(name) }), name);
    }
    this.paint();
  }

  setCycle(bus, message, control, input) {
    const cycleMs = parseCycle(input.value);
    input.classList.toggle('bad', cycleMs === undefined);
    if (cycleMs === undefined) return;
    for (const name of this.faults.stop(control)) this.call({ type: 'clear_fault', name });
    if (cycleMs !== null) {
      const name = this.faults.start(control);
      this.pending.set(this.call({ type: 'fault', fault: cycleFault(bus, message, cycleMs, name) }), name);
    }
    this.paint();
  }

  /// Every control's state (faults on, the caller's rights); a row whose message or node is
  /// off is dimmed.
  paint() {
    for (const row of this.rows.values()) {
      for (const p of row.controls.paint) p();
      row.tr.classList.toggle('silenced', row.controls.toggles.some((c) => this.faults.isOn(c)));
    }
  }

  update(row, bus, m) {
    const late = m.dbc_cycle_ms && m.measured_cycle_ms && Math.abs(m.measured_cycle_ms - m.dbc_cycle_ms) > 0.1 * m.dbc_cycle_ms;
    const bad = m.errors + m.drops + m.timeouts + m.counter_jumps > 0;
    row.tr.classList.toggle('error', bad);
    row.tr.classList.toggle('warn', !bad && Boolean(late));
    const texts = [bus.name, hexId(m), m.name, m.dir, spaced(m.data),
      `${ms(m.measured_cycle_ms)} / ${ms(m.dbc_cycle_ms)}`, m.frames, m.errors, m.drops, m.timeouts, m.counter_jumps];
    texts.forEach((t, i) => { row.cells[i].textContent = String(t); });
    row.cells[11].firstChild.textContent = nodeText(m) + (m.node ? ' ' : '');
    row.cells[12].textContent = e2eText(m);
    row.cells[12].className = `e2e ${e2eClass(m.e2e_status)}`.trim();
    row.cells[14].textContent = m.signals.map((s) => `${s.name}=${value(s.value)}${s.unit ? ' ' + s.unit : ''}`).join('  ');
    const title = rowTitle(m);
    if (row.tr.title !== title) row.tr.title = title;
  }
}
