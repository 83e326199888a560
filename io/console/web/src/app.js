// The hilsim operator console page (docs/console.md): one WebSocket (hilsim.console.v1), the
// health header, the channel browser, stacked live panels with min/max per pixel column,
// events, the CAN view, the XY course view, CSV export, layouts and the operator's Stop.
import { toCsv } from './csv.js';
import { columns, columnTimes } from './decimate.js';
import { addFrame, clearAll, commonRows, newestTime } from './samples.js';
import { emptyLayout, parseLayout, storageKey, download } from './layout.js';
import { CanTable } from './canview.js';
import { XyView } from './xy.js';
import { OperatorPane } from './operator.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// What tests read: tick-to-pixel latencies and the columns each panel last drew.
const metrics = (window.__hilsimMetrics = { latency_ms: [], arrival_ms: [], draw_ms: [], drawn: [], frames: 0 });
const PALETTE = ['#2b6cb0', '#c05621', '#2f855a', '#805ad5', '#b83280', '#0987a0', '#975a16', '#4a5568'];

let info = null, channels = [], byName = new Map(), ws = null, backoff = 500;
let layout = emptyLayout(), active = 0, views = [];
let subscribed = [], buffers = new Map(), fresh = false;
let paused = false, frozen = null, zoom = null, dirty = false, lastWall = 0;
let tab = 'events';
const forced = new Set();  // inputs this page forced
const xy = new XyView($('xy'));
const pauseAtTick = Number(params.get('pause_at_tick') ?? NaN);

// ---- theme ----
const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
function setTheme(t) {
  document.documentElement.classList.toggle('dark', t === 'dark');
  localStorage.setItem('hilsim.theme', t);
  buildPanels();
  xy.draw(css);
}
$('theme').onclick = () => setTheme(document.documentElement.classList.contains('dark') ? 'light' : 'dark');

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
const operator = new OperatorPane(send);
const canTable = new CanTable($('can-table'), (m) => operator.call(m));

function onControl(m) {
  switch (m.type) {
    case 'server_info':
      if (!info || info.run_id !== m.run_id) reset();
      info = m;
      $('run').textContent = `${m.rig}${m.scenario ? ' · ' + m.scenario : ''} · ${m.run_id} · ${m.speed}`;
      $('stop').disabled = !(m.capabilities || []).includes('stop');
      $('stop').title = m.role === 'operator' ? 'end the run now' : 'needs the operator token';
      break;
    case 'channels':
      channels = m.channels;
      byName = new Map(channels.map((c, i) => [c.name, i]));
      buildChannelTable();
      loadLayout(localStorage.getItem(storageKey(info.rig)), false);
      operator.periodNs = info.period_ns;
      operator.plotted = plottedNames;
      operator.setRun(info, channels);
      canTable.setOperator((info.capabilities || []).includes('write'));
      if (tab === 'can' || tab === 'op') send({ type: 'can_view', on: true });  // op: the fault catalogue's messages
      break;
    case 'course': xy.setCourse(m); drawXy(); break;
    case 'status': showStatus(m); break;
    case 'values': showValues(m); break;
    case 'event': addEvent(m); canTable.onEvent(m); break;
    case 'can': canTable.render(m.buses); operator.setBuses(m.buses); break;
    case 'capture': case 'capture_triggered': case 'capture_end': operator.onControl(m); break;
    case 'subscribed': subscribed = m.channels; break;
    case 'ack': canTable.onAck(m); addEvent({ level: 'info', tick: m.tick, text: `operator request ${m.req ?? ''} took effect at tick ${m.tick}` }); break;
    case 'error': canTable.onError(m); addEvent({ level: 'error', tick: null, text: `refused: ${m.message}` }); break;
    case 'lag': $('console-drops').textContent = `console drops ${m.dropped_frames}`; break;
  }
}

function reset() {
  buffers = new Map(); subscribed = []; frozen = null; zoom = null;
  $('events').replaceChildren();
  canTable.reset();
  xy.reset();
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

// ---- channels ----
function buildChannelTable() {
  const body = $('channels').tBodies[0];
  body.replaceChildren(...channels.map((c, i) => {
    const tr = document.createElement('tr');
    tr.dataset.name = c.name;
    tr.title = `${c.description} (${c.direction}); click: add to the active panel`;
    tr.innerHTML = `<td></td><td class="v" id="v${i}">—</td><td class="u"></td><td class="op"></td>`;
    tr.cells[0].textContent = c.name;
    tr.cells[2].textContent = c.unit;
    tr.onclick = () => togglePlotted(c.name);
    // the operator forces an input (docs/api.md "write"), and gives it back
    if (c.direction === 'input' && (info?.capabilities ?? []).includes('write')) {
      const force = document.createElement('button');
      force.className = 'force';
      force.textContent = 'force';
      force.title = `force ${c.name} to a value until released`;
      force.onclick = (e) => {
        e.stopPropagation();
        const text = prompt(`Force ${c.name} [${c.unit}] to`, '0');
        if (text === null || text.trim() === '' || !Number.isFinite(Number(text))) return;
        send({ type: 'write', req: Date.now(), values: { [c.name]: Number(text) } });
        forced.add(c.name);
        tr.classList.add('forced');
      };
      const release = document.createElement('button');
      release.className = 'release';
      release.textContent = 'release';
      release.onclick = (e) => {
        e.stopPropagation();
        send({ type: 'release', req: Date.now(), channels: [c.name] });
        forced.delete(c.name);
        tr.classList.remove('forced');
      };
      tr.cells[3].append(force, release);
    }
    return tr;
  }));
  applyFilter();
}
function globToRegExp(g) {
  return new RegExp('^' + g.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}
function plottedNames() { return [...new Set(layout.panels.flatMap((p) => p.channels))]; }
function applyFilter() {
  const f = $('filter').value.trim();
  const re = f ? globToRegExp(f.includes('*') || f.includes('?') ? f : `*${f}*`) : null;
  const plotted = new Set(plottedNames());
  for (const tr of $('channels').tBodies[0].rows) {
    tr.hidden = re !== null && !re.test(tr.dataset.name);
    tr.classList.toggle('plotted', plotted.has(tr.dataset.name));
  }
}
$('filter').oninput = applyFilter;
function showValues(m) {
  m.values.forEach((v, i) => {
    const cell = document.getElementById(`v${i}`);
    if (!cell || cell.parentElement.hidden) return;
    cell.textContent = v === null ? 'NaN' : Number(v).toPrecision(6);
    cell.className = `v ${operator.limitClass(channels[i].name, v)}`;
  });
  const c = xy.course;
  const ix = byName.get(c?.x_channel ?? 'vehicle.body.position.x'), iy = byName.get(c?.y_channel ?? 'vehicle.body.position.y');
  if (ix !== undefined && iy !== undefined && m.values[ix] !== null && m.values[iy] !== null) {
    xy.add(m.values[ix], m.values[iy]);
    if (tab === 'xy') drawXy();
  }
}

// ---- layout: panels and their channels ----
function togglePlotted(name) {
  const p = layout.panels[active];
  p.channels = p.channels.includes(name) ? p.channels.filter((n) => n !== name) : [...p.channels, name];
  layoutChanged();
}
function layoutChanged() {
  if (info) localStorage.setItem(storageKey(info.rig), JSON.stringify({ ...layout, rig: info.rig }));
  $('window').value = String(layout.window_s);
  applyFilter();
  subscribe();
  buildPanels();
}
function loadLayout(text, fromFile) {
  const { layout: parsed, problems } = text ? parseLayout(text, new Set(byName.keys())) : { layout: emptyLayout(), problems: [] };
  for (const p of problems) addEvent({ level: 'warn', tick: null, text: `layout: ${p}` });
  if (!parsed) { if (!fromFile) { layout = emptyLayout(); layoutChanged(); } return; }
  layout = parsed;
  active = 0;
  layoutChanged();
}
$('add-panel').onclick = () => { layout.panels.push({ channels: [] }); active = layout.panels.length - 1; layoutChanged(); };
$('export-layout').onclick = () => info && download(`hilsim-layout-${info.rig}.json`, JSON.stringify({ ...layout, rig: info.rig }, null, 2) + '\n', 'application/json');
$('import-layout').onclick = () => $('layout-file').click();
$('layout-file').onchange = async (e) => {
  const file = e.target.files[0];
  if (file) loadLayout(await file.text(), true);
  e.target.value = '';
};

function subscribe() {
  const names = plottedNames();
  send({ type: 'unsubscribe', id: 1 });
  subscribed = [];
  if (names.length) send({ type: 'subscribe', id: 1, channels: names, backfill_s: layout.window_s });
}

// ---- samples ----
function onFrame(buf) {
  const op = new DataView(buf).getUint8(0);
  if (op === 2) return operator.onBlock(buf);
  if (op !== 1 || !info) return;
  const { wallMs, live } = addFrame(buffers, subscribed, buf, info.period_ns);
  lastWall = wallMs;
  if (live) metrics.arrival_ms.push(Date.now() - lastWall);
  metrics.frames++;
  fresh = true;
  if (!paused) dirty = true;
}

// ---- panels ----
function buildPanels() {
  for (const v of views) v.plot?.destroy();
  const host = $('panels');
  host.replaceChildren();
  const height = layout.panels.length > 1 ? 240 : 400;
  views = layout.panels.map((panel, i) => {
    const el = document.createElement('div');
    el.className = 'panel' + (i === active ? ' active' : '');
    const head = document.createElement('div');
    head.className = 'panel-head';
    head.textContent = `panel ${i + 1}${i === active ? ' (click a channel to add it here)' : ''}`;
    head.onclick = () => { active = i; buildPanels(); };
    if (layout.panels.length > 1) {
      const rm = document.createElement('button');
      rm.textContent = '×'; rm.title = 'remove this panel';
      rm.onclick = (e) => { e.stopPropagation(); layout.panels.splice(i, 1); active = Math.min(active, layout.panels.length - 1); layoutChanged(); };
      head.append(rm);
    }
    const plotEl = document.createElement('div');
    el.append(head, plotEl);
    host.append(el);
    return { el, plot: panel.channels.length && info ? makePlot(panel.channels, plotEl, height) : null };
  });
  dirty = true;
}
function makePlot(names, el, height) {
  const unitOf = (n) => channels[byName.get(n)]?.unit || '-';
  const units = [...new Set(names.map(unitOf))];
  const series = [{ label: 'sim time [s]' }], bands = [];
  names.forEach((name, i) => {
    const color = PALETTE[i % PALETTE.length], unit = unitOf(name), base = series.length;
    series.push({ label: `${name} [${unit}]`, stroke: color, scale: unit, width: 1.5, spanGaps: true });
    series.push({ label: 'max', stroke: color, scale: unit, width: 0.5, spanGaps: true });
    series.push({ label: 'min', stroke: color, scale: unit, width: 0.5, spanGaps: true });
    bands.push({ series: [base + 1, base + 2], fill: color + '33' });
  });
  const axis = { stroke: css('--fg'), grid: { stroke: css('--line') }, ticks: { stroke: css('--line') } };
  return new uPlot({
    width: el.parentElement.clientWidth || 900, height, series, bands,
    scales: { x: { time: false, auto: false } },
    axes: [{ ...axis }, ...units.map((u, i) => ({ ...axis, scale: u, side: i % 2 ? 1 : 3, label: u }))],
    cursor: { drag: { x: true, y: false, setScale: false }, sync: { key: 'hilsim' } },
    legend: { live: true },
    hooks: { setSelect: [(u) => {
      if (u.select.width < 3) return;
      zoom = [u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x')];
      u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      dirty = true;
    }] },
  }, [[], ...series.slice(1).map(() => [])], el);
}

function liveRange() {
  const tEnd = newestTime(buffers, info.period_ns * 1e-9);
  return tEnd < layout.window_s ? [0, layout.window_s] : [tEnd - layout.window_s, tEnd];
}
function shownRange() { return zoom ?? frozen ?? liveRange(); }

function draw() {
  requestAnimationFrame(draw);
  if (!dirty || !info) return;
  dirty = false;
  const drawStart = performance.now();
  const periodS = info.period_ns * 1e-9;
  const [t0, t1] = shownRange();
  metrics.drawn = [];
  layout.panels.forEach((panel, i) => {
    const plot = views[i]?.plot;
    if (!plot) return;
    const n = Math.max(50, Math.round(plot.bbox.width / devicePixelRatio));
    const data = [columnTimes(t0, t1, n)];
    for (const name of panel.channels) {
      const c = columns(buffers.get(byName.get(name)), t0, t1, n, periodS);
      data.push(c.v, c.hi, c.lo);
    }
    plot.batch(() => {
      plot.setData(data, false);
      if (t1 > t0) plot.setScale('x', { min: t0, max: t1 });
    });
    metrics.drawn.push({ channels: panel.channels, t0, t1, data });
  });
  metrics.draw_ms.push(performance.now() - drawStart);
  if (fresh && !paused && lastWall > 0) metrics.latency_ms.push(Date.now() - lastWall);
  fresh = false;
  const first = buffers.get(subscribed[0]);
  if (first && !Number.isNaN(pauseAtTick) && first.tick[first.tick.length - 1] >= pauseAtTick) setPaused(true);
}
requestAnimationFrame(draw);

function setPaused(p) {
  paused = p;
  frozen = p && info ? liveRange() : null;
  $('pause').textContent = p ? 'Resume' : 'Pause';
  if (!p) zoom = null;
  dirty = true;
}
function pan(direction) {
  if (!info) return;
  const [t0, t1] = shownRange(), shift = direction * (t1 - t0) / 2;
  zoom = [t0 + shift, t1 + shift];
  dirty = true;
}
$('pause').onclick = () => setPaused(!paused);
$('pan-left').onclick = () => pan(-1);
$('pan-right').onclick = () => pan(1);
$('clear').onclick = () => { clearAll(buffers); dirty = true; };
$('reset-zoom').onclick = () => { zoom = null; dirty = true; };
$('window').onchange = (e) => { layout.window_s = Number(e.target.value); layoutChanged(); };
window.onresize = () => { buildPanels(); drawXy(); };

// ---- CSV of the shown window: the ticks every plotted channel holds ----
$('csv').onclick = () => {
  const names = plottedNames();
  if (!info || !names.length) return;
  const [t0, t1] = shownRange();
  const rows = commonRows(buffers, names.map((n) => byName.get(n)), t0, t1, info.period_ns * 1e-9);
  download(`${info.run_id}.csv`, toCsv(names, rows, info.period_ns), 'text/csv');
};

// ---- tabs: events, CAN, XY ----
function showTab(t) {
  tab = t;
  for (const name of ['events', 'can', 'xy', 'op']) {
    $(`tab-${name}`).classList.toggle('on', name === t);
    $(`pane-${name}`).hidden = name !== t;
  }
  send({ type: 'can_view', on: t === 'can' || t === 'op' });
  if (t === 'xy') drawXy();
}
for (const name of ['events', 'can', 'xy', 'op']) $(`tab-${name}`).onclick = () => showTab(name);
function drawXy() { if (tab === 'xy') xy.draw(css); }

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

setTheme(params.get('theme') ?? localStorage.getItem('hilsim.theme') ?? 'light');
showTab(params.get('tab') ?? 'events');
connect();
