// The CAN view: per bus and message, the last data, the decoded signals, the measured vs the
// DBC cycle time and the counters (the server's `can` message, docs/console.md).

const hexId = (m) => (m.id === null ? '—' : '0x' + m.id.toString(16).toUpperCase().padStart(m.extended ? 8 : 3, '0'));
const ms = (x) => (x === null || x === undefined ? '—' : Number(x).toFixed(1));
const spaced = (hex) => (hex ? hex.match(/../g).join(' ') : '—');
const value = (v) => (v === null ? 'NaN' : Number(v).toPrecision(6));

export function renderCan(table, buses) {
  const rows = [];
  for (const bus of buses) {
    for (const m of bus.messages) {
      const tr = document.createElement('tr');
      const late = m.dbc_cycle_ms && m.measured_cycle_ms && Math.abs(m.measured_cycle_ms - m.dbc_cycle_ms) > 0.1 * m.dbc_cycle_ms;
      const bad = m.errors + m.drops + m.timeouts + m.counter_jumps > 0;
      tr.className = bad ? 'error' : late ? 'warn' : '';
      const cells = [bus.name, hexId(m), m.name, m.dir, spaced(m.data),
        `${ms(m.measured_cycle_ms)} / ${ms(m.dbc_cycle_ms)}`, m.frames, m.errors, m.drops, m.timeouts,
        m.counter_jumps, m.signals.map((s) => `${s.name}=${value(s.value)}${s.unit ? ' ' + s.unit : ''}`).join('  ')];
      for (const c of cells) {
        const td = document.createElement('td');
        td.textContent = String(c);
        tr.append(td);
      }
      tr.dataset.message = m.name;
      rows.push(tr);
    }
  }
  table.tBodies[0].replaceChildren(...rows);
}
