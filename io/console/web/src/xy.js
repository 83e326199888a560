// The XY view: the scenario's course (path and cones) and the vehicle's path, equal axes,
// drawn on a canvas in the page's theme.

export class XyView {
  constructor(canvas) { this.canvas = canvas; this.course = null; this.trace = []; }
  reset() { this.course = null; this.trace = []; }
  setCourse(c) { this.course = c; }
  add(x, y) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const last = this.trace[this.trace.length - 1];
    if (last && Math.hypot(last[0] - x, last[1] - y) < 0.01) return;
    this.trace.push([x, y]);
    if (this.trace.length > 20000) this.trace.splice(0, 5000);
  }
  draw(css) {
    const cv = this.canvas, ctx = cv.getContext('2d');
    const w = Math.round(cv.clientWidth * devicePixelRatio), h = Math.round(cv.clientHeight * devicePixelRatio);
    if (cv.width !== w || cv.height !== h) [cv.width, cv.height] = [w, h];  // a new size reallocates the canvas: only when it changed
    ctx.fillStyle = css('--bg'); ctx.fillRect(0, 0, w, h);
    const pts = [...(this.course?.path ?? []), ...(this.course?.cones ?? []), ...this.trace];
    if (!pts.length) { ctx.fillStyle = css('--muted'); ctx.fillText('no position yet', 10, 20); return; }
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const [x, y] of pts) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    const span = Math.max(x1 - x0, y1 - y0, 1) * 1.1, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const s = Math.min(w, h) / span;
    const px = ([x, y]) => [w / 2 + (x - cx) * s, h / 2 - (y - cy) * s];
    const line = (list, color, width, dash) => {
      if (list.length < 2) return;
      ctx.strokeStyle = color; ctx.lineWidth = width * devicePixelRatio; ctx.setLineDash(dash);
      ctx.beginPath();
      list.forEach((p, i) => (i ? ctx.lineTo(...px(p)) : ctx.moveTo(...px(p))));
      ctx.stroke(); ctx.setLineDash([]);
    };
    line(this.course?.path ?? [], css('--muted'), 1, [6, 4]);
    ctx.fillStyle = css('--amber');
    for (const c of this.course?.cones ?? []) {
      const [u, v] = px(c), r = 3 * devicePixelRatio;
      ctx.beginPath(); ctx.moveTo(u, v - r); ctx.lineTo(u + r, v + r); ctx.lineTo(u - r, v + r); ctx.fill();
    }
    line(this.trace, css('--accent'), 2, []);
    const last = this.trace[this.trace.length - 1];
    if (last) {
      const [u, v] = px(last);
      ctx.fillStyle = css('--accent'); ctx.beginPath(); ctx.arc(u, v, 4 * devicePixelRatio, 0, 2 * Math.PI); ctx.fill();
    }
    // a scale bar of a round length
    const bar = 10 ** Math.floor(Math.log10(span / 3)), y = h - 10 * devicePixelRatio;
    ctx.strokeStyle = ctx.fillStyle = css('--muted'); ctx.lineWidth = devicePixelRatio;
    ctx.beginPath(); ctx.moveTo(8, y); ctx.lineTo(8 + bar * s, y); ctx.stroke();
    ctx.font = `${11 * devicePixelRatio}px DejaVu Sans`;
    ctx.fillText(`${bar} m`, 12 + bar * s, y + 4 * devicePixelRatio);
  }
}
