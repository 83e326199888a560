// The hilsim operator console page (docs/console.md): one WebSocket (hilsim.console.v1), the
// health header, the channel browser, stacked live panels with min/max per pixel column, the
// 3D and XY views beside them, the time cursor they share, events, the CAN view, CSV export,
// layouts (the rig's default when none is saved) and the operator's Stop.
import { toCsv } from './csv.js';
import { addFrame, clearAll, commonRows, decodeFrame, newestTime } from './samples.js';
import { emptyLayout, parseLayout, storageKey, download, VIEWS } from './layout.js';
import { defaultLayout } from './default_layout.js';
import { CanTable } from './canview.js';
import { XyView } from './xy.js';
import { OperatorPane } from './operator.js';
import { ChannelTable } from './channel_table.js';
import { Panels } from './panels.js';
import { showStatus } from './health.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// What tests read: tick-to-pixel latencies (plots; 3D: latency3d_ms from the tick's wall-clock
// time, start epoch + tick·period), the columns each panel last drew, the 3D view's renders.
const metrics = (window.__hilsimMetrics = { latency_ms: [], arrival_ms: [], draw_ms: [], drawn: [], frames: 0, latency3d_ms: [], draw3d_ms: [], renders3d: 0, subscribed: [] });
const PLOTS = 1, SCENE = 2;  // subscription ids
const HINT = 'click a channel to plot it in the active panel; drag to zoom; click a plot to hold the time cursor there';

let info = null, channels = [], byName = new Map(), ws = null, backoff = 500;
let layout = emptyLayout(), active = 0;
let subs = new Map(), buffers = new Map(), fresh = false;
let paused = false, frozen = null, zoom = null, dirty = false, lastWall = 0;
let held = null;  // the time cursor [s] when held (paused or scrubbed); null: it follows the newest sample
let tab = 'events', sceneMessage = null, view3d = null, view3dLoad = null, sceneColumns = [], sceneSubscribed = false;
let latencyTick = -1, pauseAtTickDone = false;
const xy = new XyView($('xy'));
const pauseAtTick = Number(params.get('pause_at_tick') ?? NaN);
const askedView = ['xy', '3d'].includes(params.get('tab')) ? params.get('tab') : null;

// ---- theme ----
const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
function setTheme(t) {
  document.documentElement.classList.toggle('dark', t === 'dark');
  localStorage.setItem('hilsim.theme', t);
  buildPanels();
  xy.draw(css);
  view3d?.setTheme(css('--sky'));
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
const table = new ChannelTable($('channels'), {
  toggle: (name) => togglePlotted(name),
  write: (name, value) => send({ type: 'write', req: Date.now(), values: { [name]: value } }),
  release: (name) => send({ type: 'release', req: Date.now(), channels: [name] }),
});

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
      table.build(channels, (info?.capabilities ?? []).includes('write'));
      $('hint').textContent = channels.length ? HINT : 'this run has no channels (a timing bench): its timing is in the header';
      openLayout();
      operator.periodNs = info.period_ns;
      operator.plotted = plottedNames;
      operator.setRun(info, channels);
      canTable.setOperator((info.capabilities || []).includes('write'));
      if (tab === 'can' || tab === 'op') send({ type: 'can_view', on: true });  // op: the fault catalogue's messages
      break;
    case 'course': xy.setCourse(m); drawXy(); break;
    case 'scene':
      sceneMessage = m;
      xy.setObjects(m.objects);
      if (view3d) { view3d.setScene(m, info.period_ns); sceneSubscribed = false; subscribeScene(); }
      break;
    case 'status':
      showStatus(m);
      if (!sceneMessage) view3d?.say('this run sends no 3D scene');
      break;
    case 'values': showValues(m); break;
    case 'event': addEvent(m); canTable.onEvent(m); break;
    case 'can': canTable.render(m.buses); operator.setBuses(m.buses); break;
    case 'capture': case 'capture_triggered': case 'capture_end': case 'drive': operator.onControl(m); break;
    case 'subscribed':
      subs.set(m.id, m.channels);
      metrics.subscribed = [...subs.keys()];
      if (m.id === SCENE && view3d) sceneColumns = view3d.channels.map((n) => m.channels.indexOf(byName.get(n)));
      break;
    case 'ack': canTable.onAck(m); addEvent({ level: 'info', tick: m.tick, text: `operator request ${m.req ?? ''} took effect at tick ${m.tick}` }); break;
    case 'error': canTable.onError(m); operator.onControl(m); addEvent({ level: 'error', tick: null, text: `refused: ${m.message}` }); break;
    case 'lag': $('console-drops').textContent = `console drops ${m.dropped_frames}`; break;
  }
}

function reset() {
  buffers = new Map(); subs = new Map(); frozen = null; zoom = null; held = null; sceneMessage = null;
  sceneSubscribed = false; latencyTick = -1;
  $('events').replaceChildren();
  canTable.reset();
  xy.reset();
  view3d?.reset();
  dirty = true;
}

// ---- channels ----
function plottedNames() { return [...new Set(layout.panels.flatMap((p) => p.channels))]; }
function applyFilter() { table.filter($('filter').value, new Set(plottedNames())); }
$('filter').oninput = applyFilter;
function showValues(m) {
  table.show(m.values, (name, v) => operator.limitClass(name, v));
  const c = xy.course;
  const ix = byName.get(c?.x_channel ?? 'vehicle.body.position.x'), iy = byName.get(c?.y_channel ?? 'vehicle.body.position.y');
  let moved = false;  // the scene's moving objects, at their channels' values
  xy.objects.forEach((o, i) => {
    const at = (k) => m.values[byName.get(o.channels?.[k])] ?? NaN;
    if (o.channels) moved = xy.moveObject(i, at('x'), at('y'), at('yaw')) || moved;
  });
  if (ix !== undefined && iy !== undefined && m.values[ix] !== null && m.values[iy] !== null) {
    xy.add(m.values[ix], m.values[iy]);
    moved = true;
  }
  if (moved) drawXy();
}

// ---- layout: panels and their channels, the views ----
function togglePlotted(name) {
  const p = layout.panels[active];
  p.channels = p.channels.includes(name) ? p.channels.filter((n) => n !== name) : [...p.channels, name];
  layoutChanged();
}
/// `save`: the operator changed it (a default or blank layout is not saved until then).
function layoutChanged(save = true) {
  if (info && save) localStorage.setItem(storageKey(info.rig), JSON.stringify({ ...layout, rig: info.rig }));
  $('window').value = String(layout.window_s);
  applyFilter();
  subscribe();
  showViews();
  buildPanels();
}
function loadLayout(text, fromFile) {
  const { layout: parsed, problems } = text ? parseLayout(text, new Set(byName.keys())) : { layout: emptyLayout(), problems: [] };
  for (const p of problems) addEvent({ level: 'warn', tick: null, text: `layout: ${p}` });
  if (!parsed) { if (!fromFile) { layout = emptyLayout(); layoutChanged(false); } return; }
  layout = parsed;
  active = 0;
  layoutChanged(fromFile);
}
/// The saved layout of the rig, else its default (?layout=blank: one empty panel); ?tab=3d|xy adds that view.
function openLayout() {
  const blank = params.get('layout') === 'blank';
  const saved = blank ? null : localStorage.getItem(storageKey(info.rig));
  if (saved) loadLayout(saved, false);
  else { layout = blank ? emptyLayout() : defaultLayout(info.rig, channels); active = 0; }
  if (askedView && !layout.views.includes(askedView)) layout.views = VIEWS.filter((v) => v === askedView || layout.views.includes(v));
  layoutChanged(false);
}
$('add-panel').onclick = () => { layout.panels.push({ channels: [] }); active = layout.panels.length - 1; layoutChanged(); };
$('default-layout').onclick = () => {
  if (!info) return;
  localStorage.removeItem(storageKey(info.rig));
  layout = defaultLayout(info.rig, channels);
  active = 0;
  layoutChanged(false);
};
$('export-layout').onclick = () => info && download(`hilsim-layout-${info.rig}.json`, JSON.stringify({ ...layout, rig: info.rig }, null, 2) + '\n', 'application/json');
$('import-layout').onclick = () => $('layout-file').click();
$('layout-file').onchange = async (e) => {
  const file = e.target.files[0];
  if (file) loadLayout(await file.text(), true);
  e.target.value = '';
};
for (const v of VIEWS) {
  $(`tab-${v}`).onclick = () => {
    layout.views = VIEWS.filter((x) => (x === v) !== layout.views.includes(x));
    layoutChanged();
  };
}
function showViews() {
  for (const v of VIEWS) {
    const on = layout.views.includes(v);
    $(`view-${v}`).hidden = !on;
    $(`tab-${v}`).classList.toggle('on', on);
    $(`tab-${v}`).setAttribute('aria-pressed', String(on));
  }
  $('board').classList.toggle('with-views', layout.views.length > 0);
  if (layout.views.includes('3d')) load3d();
  else if (sceneSubscribed) { send({ type: 'unsubscribe', id: SCENE }); sceneSubscribed = false; }
  drawXy();
}

function subscribe() {
  const names = plottedNames();
  send({ type: 'unsubscribe', id: PLOTS });
  subs.delete(PLOTS);
  if (names.length) send({ type: 'subscribe', id: PLOTS, channels: names, backfill_s: layout.window_s });
}

// ---- the 3D view: three.js loads when it is first shown ----
function load3d() {
  view3dLoad ??= import('./view3d.js').then(({ View3D }) => {
    view3d = new View3D($('scene3d'), $('scene-note'), Number(params.get('scene_hz')) || null);
    view3d.setCamera($('camera').value);
    view3d.setTheme(css('--sky'));
    window.__hilsim3d = { state: () => view3d.state(), held: (tick) => view3d.heldAt(tick) };
  }).catch((e) => { $('scene-note').textContent = `no 3D view: ${e.message}`; });
  view3dLoad.then(() => {
    if (view3d && sceneMessage && !view3d.scene) view3d.setScene(sceneMessage, info.period_ns);
    subscribeScene();
  });
}
/// Streams the pose channels while the 3D view is shown, from the history the console holds.
function subscribeScene() {
  if (!view3d || !info || sceneSubscribed || !layout.views.includes('3d')) return;
  const names = view3d.channels.filter((n) => byName.has(n));
  if (!names.length) return;
  send({ type: 'subscribe', id: SCENE, channels: names, backfill_s: info.history_s ?? 10 });
  sceneSubscribed = true;
}
$('camera').onchange = (e) => view3d?.setCamera(e.target.value);

// ---- samples ----
function onFrame(buf) {
  const op = new DataView(buf).getUint8(0);
  if (op === 2) return operator.onBlock(buf);
  if (op !== 1 || !info) return;
  const frame = decodeFrame(buf);
  if (frame.id === SCENE) return view3d?.onFrame(frame, sceneColumns);
  if (frame.id !== PLOTS) return;
  const { wallMs, live } = addFrame(buffers, subs.get(PLOTS) ?? [], buf, info.period_ns);
  lastWall = wallMs;
  if (live) metrics.arrival_ms.push(Date.now() - lastWall);
  metrics.frames++;
  fresh = true;
  if (!paused) dirty = true;
}

// ---- panels and the time cursor ----
const panels = new Panels($('panels'), {
  activate: (i) => { active = i; buildPanels(); },
  remove: (i) => { layout.panels.splice(i, 1); active = Math.min(active, layout.panels.length - 1); layoutChanged(); },
  zoom: (range) => { zoom = range; dirty = true; },
  cursor: (t) => holdCursor(t, false),
});
function buildPanels() {
  panels.build(layout, active, (n) => channels[byName.get(n)]?.unit || '-', css, info !== null);
  dirty = true;
}
const periodS = () => info.period_ns * 1e-9;
function newest() {
  const h = view3d?.history;
  return Math.max(newestTime(buffers, periodS()), h?.length ? h.newestTick * periodS() : 0);
}
function oldest() {
  let t = Infinity;
  for (const b of buffers.values()) if (b.tick.length) t = Math.min(t, b.tick[0] * periodS());
  const h = view3d?.history;
  if (h?.length) t = Math.min(t, h.oldestTick * periodS());
  return Number.isFinite(t) ? t : 0;
}
function liveRange() {
  const tEnd = newestTime(buffers, periodS());
  return tEnd < layout.window_s ? [0, layout.window_s] : [tEnd - layout.window_s, tEnd];
}
function shownRange() { return zoom ?? frozen ?? liveRange(); }
/// Holds the time cursor at `t` (pausing the plots); `follow`: pan the plots to show it.
function holdCursor(t, follow) {
  if (!info) return;
  if (!paused) setPaused(true);
  held = Math.min(Math.max(t, oldest()), newest());
  const [t0, t1] = shownRange();
  if (follow && (held < t0 || held > t1)) zoom = [held - (t1 - t0) / 2, held + (t1 - t0) / 2];
  if (view3d) view3d.dirty = true;
  dirty = true;
}
let cursorShownAt = 0, cursorShown = null;
/// The cursor's slider and time: at once when it moved, else 4 times a second (the slider's range
/// grows with the samples, and each change lays the toolbar out again).
function showCursor() {
  if (held === cursorShown && performance.now() - cursorShownAt < 250) return;
  cursorShownAt = performance.now();
  cursorShown = held;
  const slider = $('cursor'), lo = oldest(), hi = newest(), t = held ?? hi;
  if (Number(slider.min) !== lo) slider.min = String(lo);
  if (Number(slider.max) !== hi) slider.max = String(hi);
  if (document.activeElement !== slider && Number(slider.value) !== t) slider.value = String(t);
  const text = held === null ? 'live' : `${t.toFixed(3)} s`;
  if ($('cursor-time').textContent !== text) $('cursor-time').textContent = text;
}
$('cursor').oninput = (e) => holdCursor(Number(e.target.value), true);

function draw() {
  requestAnimationFrame(draw);
  if (!info) return;
  if (view3d && layout.views.includes('3d')) {
    const start3d = performance.now();
    const shown = view3d.drawAt(held === null ? Infinity : Math.round(held / periodS()));
    if (shown !== null) { metrics.renders3d++; metrics.draw3d_ms.push(performance.now() - start3d); }
    if (shown !== null && held === null && shown > latencyTick) {  // a newer sample drawn live
      latencyTick = shown;
      metrics.latency3d_ms.push(Date.now() - (info.start_epoch_ns * 1e-6 + shown * info.period_ns * 1e-6));
      for (const a of [metrics.latency3d_ms, metrics.draw3d_ms]) if (a.length > 20000) a.splice(0, 10000);
    }
  }
  showCursor();
  if (!dirty) return;
  dirty = false;
  const drawStart = performance.now();
  metrics.drawn = panels.draw(layout, buffers, byName, shownRange(), periodS(), held);
  metrics.draw_ms.push(performance.now() - drawStart);
  if (fresh && !paused && lastWall > 0) metrics.latency_ms.push(Date.now() - lastWall);
  fresh = false;
  const first = buffers.get(subs.get(PLOTS)?.[0]);
  if (first && !pauseAtTickDone && first.tick[first.tick.length - 1] >= pauseAtTick) { pauseAtTickDone = true; setPaused(true); }
}
requestAnimationFrame(draw);

function setPaused(p) {
  paused = p;
  frozen = p && info ? liveRange() : null;
  held = p && info ? newest() : null;
  $('pause').textContent = p ? 'Resume' : 'Pause';
  if (!p) zoom = null;
  if (view3d) view3d.dirty = true;
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
$('clear').onclick = () => { clearAll(buffers); view3d?.history?.clear(); dirty = true; };
$('reset-zoom').onclick = () => { zoom = null; dirty = true; };
$('window').onchange = (e) => { layout.window_s = Number(e.target.value); layoutChanged(); };
window.onresize = () => { buildPanels(); drawXy(); };

// ---- CSV of the shown window: the ticks every plotted channel holds ----
$('csv').onclick = () => {
  const names = plottedNames();
  if (!info || !names.length) return;
  const [t0, t1] = shownRange();
  const rows = commonRows(buffers, names.map((n) => byName.get(n)), t0, t1, periodS());
  download(`${info.run_id}.csv`, toCsv(names, rows, info.period_ns), 'text/csv');
};

// ---- tabs: events, CAN, operator ----
const TABS = ['events', 'can', 'op'];
function showTab(t) {
  tab = TABS.includes(t) ? t : 'events';
  for (const name of TABS) {
    $(`tab-${name}`).classList.toggle('on', name === tab);
    $(`pane-${name}`).hidden = name !== tab;
  }
  send({ type: 'can_view', on: tab === 'can' || tab === 'op' });
}
for (const name of TABS) $(`tab-${name}`).onclick = () => showTab(name);
function drawXy() { if (layout.views.includes('xy')) xy.draw(css); }

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
