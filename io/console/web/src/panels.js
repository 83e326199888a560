// The stacked plot panels (docs/console.md "Plots"): one uPlot each, several series with one y
// axis per unit, min/max bands per pixel column, a reference (`X_ref`) dashed in its channel's
// colour, the panels filling the height they are given, and the time cursor as a vertical line
// when it is held (paused or scrubbed). app.js owns the layout and the samples.
import { columns, columnTimes } from './decimate.js';
import { seriesStyle } from './default_layout.js';

const PALETTE = ['#2b6cb0', '#c05621', '#2f855a', '#805ad5', '#b83280', '#0987a0', '#975a16', '#4a5568'];
const MIN_PLOT_HEIGHT = 100;

/// The dotted prefix all of several names share ("vehicle.wheel." of the wheel speeds): the
/// legend leaves it out (the panel's title and the channel list say it); "" for one name.
/// A y range with 10 % room; a constant (a channel at rest) gets ±1 around it instead of
/// uPlot's 0..100.
export function yRange(_u, min, max) {
  if (min === null || max === null) return [0, 1];
  if (min === max) return [min - 1, max + 1];
  const pad = 0.1 * (max - min);
  return [min - pad, max + pad];
}

export function commonPrefix(names) {
  if (names.length < 2) return '';
  let p = names[0].slice(0, names[0].lastIndexOf('.') + 1);
  while (p && !names.every((n) => n.startsWith(p))) p = p.slice(0, p.slice(0, -1).lastIndexOf('.') + 1);
  return p;
}

export class Panels {
  /// `on`: {activate(i), remove(i), zoom([t0, t1]), cursor(t)} — what the user did.
  constructor(host, on) { this.host = host; this.on = on; this.views = []; this.cursorT = null; }

  /// (Re)builds the panels of `layout`; `unitOf(name)` gives a channel's unit, `css` the theme.
  build(layout, active, unitOf, css, withPlots) {
    for (const v of this.views) v.plot?.destroy();
    this.host.replaceChildren();
    const n = layout.panels.length;
    const guess = Math.max(MIN_PLOT_HEIGHT, Math.floor((this.host.clientHeight || 800) / n) - 60);
    this.views = layout.panels.map((panel, i) => {
      const el = document.createElement('div');
      el.className = 'panel' + (i === active ? ' active' : '');
      const head = document.createElement('div');
      head.className = 'panel-head';
      head.textContent = `${panel.title ?? `panel ${i + 1}`}${i === active ? ' (click a channel to add it here)' : ''}`;
      head.onclick = () => this.on.activate(i);
      if (n > 1) {
        const rm = document.createElement('button');
        rm.textContent = '×'; rm.title = 'remove this panel';
        rm.onclick = (e) => { e.stopPropagation(); this.on.remove(i); };
        head.append(rm);
      }
      const plotEl = document.createElement('div');
      el.append(head, plotEl);
      this.host.append(el);
      return { el, plot: panel.channels.length && withPlots ? this.makePlot(panel.channels, plotEl, guess, unitOf, css) : null };
    });
    requestAnimationFrame(() => this.fitHeights());  // once the legends have their final layout
  }

  /// Shares the host's height among the panels (each at least MIN_PLOT_HEIGHT).
  fitHeights() {
    const total = this.host.clientHeight, plots = this.views.filter((v) => v.plot);
    if (!total || !plots.length) return;
    const chrome = this.views.reduce((s, v) => s + v.el.offsetHeight - (v.plot?.height ?? 0), 0) + 6 * this.views.length;
    const h = Math.max(MIN_PLOT_HEIGHT, Math.floor((total - chrome) / plots.length));
    for (const v of plots) if (v.plot.height !== h) v.plot.setSize({ width: v.plot.width, height: h });
  }

  makePlot(names, el, height, unitOf, css) {
    const units = [...new Set(names.map(unitOf))];
    const series = [{ label: 'sim time [s]' }], bands = [];
    const prefix = commonPrefix(names);
    for (const name of names) {
      const { colorOf, dash } = seriesStyle(name, names);
      const color = PALETTE[colorOf % PALETTE.length], unit = unitOf(name), base = series.length;
      const label = units.length > 1 ? `${name.slice(prefix.length)} [${unit}]` : name.slice(prefix.length);  // one unit: the axis says it
      series.push({ label, stroke: color, scale: unit, width: 1.5, spanGaps: true, ...(dash ? { dash } : {}) });
      series.push({ label: 'max', stroke: color, scale: unit, width: 0.5, spanGaps: true });
      series.push({ label: 'min', stroke: color, scale: unit, width: 0.5, spanGaps: true });
      bands.push({ series: [base + 1, base + 2], fill: color + '33' });
    }
    const axis = { stroke: css('--fg'), grid: { stroke: css('--line') }, ticks: { stroke: css('--line') } };
    const plot = new uPlot({
      width: el.parentElement.clientWidth || 900, height, series, bands,
      scales: { x: { time: false, auto: false }, ...Object.fromEntries(units.map((u) => [u, { range: yRange }])) },
      axes: [{ ...axis }, ...units.map((u, i) => ({ ...axis, scale: u, side: i % 2 ? 1 : 3, label: u, space: (_u, _a, _lo, _hi, dim) => (dim < 150 ? 18 : 30) }))],
      cursor: { drag: { x: true, y: false, setScale: false }, sync: { key: 'hilsim' } },
      legend: { live: true },
      hooks: {
        setSelect: [(u) => {
          if (u.select.width < 3) return;
          this.on.zoom([u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x')]);
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        }],
        draw: [(u) => this.drawCursor(u, css('--red'))],
      },
    }, [[], ...series.slice(1).map(() => [])], el);
    // the legend names each channel once: the time and each channel's min and max rows are
    // hidden (the axis and the bands show them)
    plot.root.querySelectorAll('.u-legend .u-series').forEach((row, i) => { if ((i - 1) % 3) row.style.display = 'none'; });
    // a click (not a drag) holds the time cursor there
    let downX = null;
    plot.over.addEventListener('mousedown', (e) => { downX = e.clientX; });
    plot.over.addEventListener('click', (e) => {
      if (downX !== null && Math.abs(e.clientX - downX) < 3) this.on.cursor(plot.posToVal(e.offsetX, 'x'));
    });
    return plot;
  }

  drawCursor(u, color) {
    if (this.cursorT === null) return;
    const x = u.valToPos(this.cursorT, 'x', true);
    if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) return;
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = color; ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
    ctx.restore();
  }

  /// Draws [t0, t1] s of `buffers` (channel index → samples) with the held cursor at
  /// `cursorT` (null: live, no line); returns per panel what was drawn (the test hook's `drawn`).
  draw(layout, buffers, byName, [t0, t1], periodS, cursorT) {
    this.cursorT = cursorT;
    const drawn = [];
    layout.panels.forEach((panel, i) => {
      const plot = this.views[i]?.plot;
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
      drawn.push({ channels: panel.channels, t0, t1, data });
    });
    return drawn;
  }
}
