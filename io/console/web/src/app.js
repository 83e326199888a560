// The hilsim operator console page (docs/console.md): one WebSocket (hilsim.console.v1), the
// health header, the channel browser, a live plot with min/max per pixel column, events,
// CSV export and the operator's Stop.
import { toCsv } from './csv.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const metrics = (window.__hilsimMetrics = { latency_ms: [] });
const MAX_WINDOW_S = 600;

let info = null, channels = [], role = 'viewer', ws = null, backoff = 500;
let plotted = [], subscribed = [], buffers = new Map(), paused = false, zoomed = false;
let windowS = 60, plot = null, dirty = false, lastWall = 0, pauseAtTick = Number(params.get('pause_at_tick') ?? NaN);
let overrunsSeen = 0, dropsSeen = 0;

// ---- theme ----
function setTheme(t) {
  document.documentElement.classList.toggle('dark', t === 'dark');
  localStorage.setItem('hilsim.theme', t);
  if (plot) rebuildPlot();
}
$('theme').onclick = () => setTheme(document.documentElement.classList.contains('dark') ? 'light' : 'dark');
setTheme(params.get('theme') ?? localStorage.getItem('hilsim.theme') ?? 'light');
const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

// ---- connection ----
function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`, ['hilsim.console.v1']);
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => { backoff = 500; };
  ws.onmessage = (e) => (typeof e.data === 'string' ? onControl(JSON.parse(e.data)) : onFrame(e.data));
  ws.onclose = () => {
    $('state').textContent = 'disconnected';
    $('stop').disabled = true;
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  };
}
const send = (m) => ws && ws.readyState === 1 && ws.send(JSON.stringify(m));

function onControl(m) {
  switch (m.type) {
    case 'server_info':
      if (!info || info.run_id !== m.run_id) reset();
      info = m; role = m.role;
      $('run').textContent = `${m.rig}${m.scenario ? ' · ' + m.scenario : ''} · ${m.run_id} · ${m.speed}`;
      $('stop').disabled = !(m.capabilities || []).includes('stop');
      $('stop').title = role === 'operator' ? 'end the run now' : 'needs the operator token';
      break;
    case 'channels':
      channels = m.channels;
      buildChannelTable();
      plotted = JSON.parse(localStorage.getItem(`hilsim.layout.${info.rig}`) ?? '[]')
        .filter((n) => channels.some((c) => c.name === n));
      subscribe();
      break;
    case 'status': showStatus(m); break;
    case 'values': showValues(m); break;
    case 'event': addEvent(m); break;
    case 'subscribed': subscribed = m.channels; break;
    case 'ack': addEvent({ level: 'info', tick: m.tick, text: `operator request ${m.req ?? ''} took effect at tick ${m.tick}` }); break;
    case 'error': addEvent({ level: 'error', tick: null, text: `refused: ${m.message}` }); break;
    case 'lag': $('console-drops').textContent = `console drops ${m.dropped_frames}`; break;
  }
}

function reset() {
  buffers = new Map(); subscribed = []; overrunsSeen = 0; dropsSeen = 0;
  $('events').replaceChildren();
  dirty = true;
}

// ---- header ----
const fmt = (x, d = 1) => (x === null || x === undefined ? '—' : Number(x).toFixed(d));
function showStatus(s) {
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
  const drops = (s.console.tap_drops || 0) + (s.console.dropped_frames || 0) + (s.recorder ? s.recorder.drops : 0);
  $('console-drops').textContent = `console drops ${s.console.tap_drops + s.console.dropped_frames}`;
  const h = $('health');
  h.classList.toggle('red', s.overruns > 0);
  h.classList.toggle('amber', s.overruns === 0 && drops > 0);
  $('health').title = s.tasks.map((t) => `${t.name}: p99 ${t.p99_us} µs, max ${fmt(t.max_us)} µs`).join('\n');
  if (s.end) $('stop').disabled = true;
}

// ---- channels ----
function buildChannelTable() {
  const body = $('channels').tBodies[0];
  body.replaceChildren(...channels.map((c, i) => {
    const tr = document.createElement('tr');
    tr.dataset.name = c.name;
    tr.title = `${c.description} (${c.direction})`;
    tr.innerHTML = `<td></td><td class="v" id="v${i}">—</td><td class="u"></td>`;
    tr.cells[0].textContent = c.name;
    tr.cells[2].textContent = c.unit;
    tr.onclick = () => togglePlotted(c.name);
    return tr;
  }));
  applyFilter();
}
function globToRegExp(g) {
  return new RegExp('^' + g.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}
function applyFilter() {
  const f = $('filter').value.trim();
  const re = f ? globToRegExp(f.includes('*') || f.includes('?') ? f : `*${f}*`) : null;
  for (const tr of $('channels').tBodies[0].rows) {
    tr.hidden = re !== null && !re.test(tr.dataset.name);
    tr.classList.toggle('plotted', plotted.includes(tr.dataset.name));
  }
}
$('filter').oninput = applyFilter;
function showValues(m) {
  m.values.forEach((v, i) => {
    const cell = document.getElementById(`v${i}`);
    if (cell && !cell.parentElement.hidden) cell.textContent = v === null ? 'NaN' : Number(v).toPrecision(6);
  });
}
function togglePlotted(name) {
  plotted = plotted.includes(name) ? plotted.filter((n) => n !== name) : [...plotted, name];
  if (info) localStorage.setItem(`hilsim.layout.${info.rig}`, JSON.stringify(plotted));
  applyFilter();
  subscribe();
}
function subscribe() {
  send({ type: 'unsubscribe', id: 1 });
  subscribed = [];
  if (plotted.length) send({ type: 'subscribe', id: 1, channels: plotted, backfill_s: windowS });
  rebuildPlot();
}

// ---- samples ----
function onFrame(buf) {
  const dv = new DataView(buf);
  if (dv.getUint8(0) !== 1) return;
  const first = Number(dv.getBigInt64(8, true)), stride = dv.getUint32(16, true);
  const n = dv.getUint16(20, true), c = dv.getUint16(22, true);
  lastWall = dv.getFloat64(24, true);
  const all = new Float64Array(buf, 32, 3 * n * c);
  for (let k = 0; k < c && k < subscribed.length; ++k) {
    const index = subscribed[k];
    let b = buffers.get(index);
    if (!b) buffers.set(index, (b = { tick: [], v: [], lo: [], hi: [] }));
    for (let i = 0; i < n; ++i) {
      b.tick.push(first + i * stride);
      b.v.push(all[k * n + i]); b.lo.push(all[(c + k) * n + i]); b.hi.push(all[(2 * c + k) * n + i]);
    }
    const keepFrom = b.tick.length - Math.ceil(MAX_WINDOW_S * 1e9 / (info.period_ns * stride));
    if (keepFrom > 0) for (const a of [b.tick, b.v, b.lo, b.hi]) a.splice(0, keepFrom);
  }
  dirty = true;
}

// ---- plot ----
function rebuildPlot() {
  const el = $('plot');
  if (plot) plot.destroy();
  plot = null;
  if (!info || plotted.length === 0) return;
  const units = [...new Set(plotted.map((n) => channels.find((c) => c.name === n)?.unit ?? '-'))];
  const palette = ['#2b6cb0', '#c05621', '#2f855a', '#805ad5', '#b83280', '#0987a0', '#975a16', '#4a5568'];
  const series = [{ label: 'sim time [s]' }];
  const bands = [];
  plotted.forEach((name, i) => {
    const unit = channels.find((c) => c.name === name)?.unit ?? '-';
    const color = palette[i % palette.length];
    const base = series.length;
    series.push({ label: `${name} [${unit}]`, stroke: color, scale: unit, width: 1.5 });
    series.push({ label: 'max', stroke: color, scale: unit, width: 0.5, alpha: 0.5, show: true });
    series.push({ label: 'min', stroke: color, scale: unit, width: 0.5, alpha: 0.5 });
    bands.push({ series: [base + 1, base + 2], fill: color + '33' });
  });
  const axisColor = { stroke: css('--fg'), grid: { stroke: css('--line') }, ticks: { stroke: css('--line') } };
  plot = new uPlot({
    width: el.clientWidth || 900, height: 420, series, bands,
    scales: { x: { time: false } },
    axes: [{ ...axisColor }, ...units.map((u, i) => ({ ...axisColor, scale: u, side: i % 2 ? 1 : 3, label: u }))],
    cursor: { drag: { x: true, y: false } },
    legend: { live: true },
    hooks: { setSelect: [() => { zoomed = true; }] },
  }, [[], ...series.slice(1).map(() => [])], el);
  dirty = true;
}

/// One point per pixel column: the last value, and the min/max of every sample in it.
function decimated(b, t0, t1, columns, periodS) {
  const x = [], v = [], lo = [], hi = [];
  const width = (t1 - t0) / columns;
  let col = -1;
  for (let i = 0; i < b.tick.length; ++i) {
    const t = b.tick[i] * periodS;
    if (t < t0 || t > t1) continue;
    const c = Math.floor((t - t0) / width);
    if (c !== col) { col = c; x.push(t); v.push(b.v[i]); lo.push(b.lo[i]); hi.push(b.hi[i]); continue; }
    const j = x.length - 1;
    v[j] = b.v[i];
    if (b.lo[i] < lo[j] || Number.isNaN(b.lo[i])) lo[j] = b.lo[i];
    if (b.hi[i] > hi[j] || Number.isNaN(b.hi[i])) hi[j] = b.hi[i];
  }
  return { x, v, lo, hi };
}

function visibleRange() {
  const periodS = info.period_ns * 1e-9;
  let tEnd = 0;
  for (const b of buffers.values()) if (b.tick.length) tEnd = Math.max(tEnd, b.tick[b.tick.length - 1] * periodS);
  return [Math.max(0, tEnd - windowS), tEnd];
}

function draw() {
  requestAnimationFrame(draw);
  if (!dirty || paused || !plot || !info) return;
  dirty = false;
  const periodS = info.period_ns * 1e-9;
  const [t0, t1] = visibleRange();
  const columns = Math.max(100, plot.bbox.width / devicePixelRatio);
  const first = buffers.get(subscribed[0]);
  if (!first) return;
  const d0 = decimated(first, t0, t1, columns, periodS);
  const data = [d0.x];
  for (const name of plotted) {
    const b = buffers.get(channels.findIndex((c) => c.name === name));
    const d = b ? decimated(b, t0, t1, columns, periodS) : { v: [], lo: [], hi: [] };
    data.push(d.v, d.hi, d.lo);
  }
  plot.setData(data, !zoomed);
  if (lastWall > 0) metrics.latency_ms.push(Date.now() - lastWall);
  const lastTick = first.tick[first.tick.length - 1];
  if (!Number.isNaN(pauseAtTick) && lastTick >= pauseAtTick) setPaused(true);
}
requestAnimationFrame(draw);

function setPaused(p) {
  paused = p;
  $('pause').textContent = p ? 'Resume' : 'Pause';
  if (!p) { zoomed = false; dirty = true; }
}
$('pause').onclick = () => setPaused(!paused);
$('clear').onclick = () => { for (const b of buffers.values()) for (const a of [b.tick, b.v, b.lo, b.hi]) a.length = 0; dirty = true; };
$('reset-zoom').onclick = () => { zoomed = false; dirty = true; if (paused && plot) { const [t0, t1] = visibleRange(); plot.setScale('x', { min: t0, max: t1 }); } };
$('window').onchange = (e) => { windowS = Number(e.target.value); dirty = true; };
window.onresize = () => plot && plot.setSize({ width: $('plot').clientWidth, height: 420 });

// ---- CSV of the visible window ----
$('csv').onclick = () => {
  if (!info || !subscribed.length) return;
  const periodS = info.period_ns * 1e-9;
  const [t0, t1] = zoomed && plot ? [plot.scales.x.min, plot.scales.x.max] : visibleRange();
  const cols = subscribed.map((i) => buffers.get(i));
  const rows = [];
  cols[0].tick.forEach((tick, i) => {
    const t = tick * periodS;
    if (t >= t0 && t <= t1) rows.push({ tick, values: cols.map((b) => b.v[i]) });
  });
  const blob = new Blob([toCsv(subscribed.map((i) => channels[i].name), rows, info.period_ns)], { type: 'text/csv' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${info.run_id}.csv`;
  a.click();
};

// ---- events and the operator ----
function addEvent(e) {
  const li = document.createElement('li');
  li.className = e.level;
  li.textContent = `${e.tick !== null && e.tick !== undefined ? `tick ${e.tick}: ` : ''}${e.text}`;
  $('events').prepend(li);
  while ($('events').children.length > 500) $('events').lastChild.remove();
}
$('stop').onclick = () => {
  if (confirm('End the run now?')) send({ type: 'stop', req: Date.now() });
};

connect();
