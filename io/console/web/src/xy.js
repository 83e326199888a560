// The XY view: the scenario's course (path and cones), its objects (their footprints: boxes
// turned by their yaw, circles for cylinders and cones; a moving one where its channels last
// said) and the vehicle's path, equal axes, drawn on a canvas in the page's theme.

/// An object's outline seen from above: four corners of a box, else a circle [x, y, r].
export function footprint(o) {
  if (o.shape !== 'box') return { circle: [o.x, o.y, o.width / 2] };
  const c = Math.cos(o.yaw), s = Math.sin(o.yaw), l = o.length / 2, w = o.width / 2;
  return { corners: [[l, w], [-l, w], [-l, -w], [l, -w]].map(([u, v]) => [o.x + c * u - s * v, o.y + s * u + c * v]) };
}

export class XyView {
  constructor(canvas) { this.canvas = canvas; this.course = null; this.trace = []; this.objects = []; }
  reset() { this.course = null; this.trace = []; this.objects = []; }
  setCourse(c) { this.course = c; }
  /// The scene's objects (its `objects`), each where it starts.
  setObjects(list) { this.objects = (list ?? []).map((o) => ({ ...o })); }
  /// A moving object's pose from its channels' values; values that are not finite are ignored.
  moveObject(i, x, y, yaw) {
    const o = this.objects[i];
    if (!o || ![x, y, yaw].every(Number.isFinite)) return false;
    const moved = o.x !== x || o.y !== y || o.yaw !== yaw;
    Object.assign(o, { x, y, yaw });
    return moved;
  }
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
    const pts = [...(this.course?.path ?? []), ...(this.course?.cones ?? []), ...this.objects.map((o) => [o.x, o.y]), ...this.trace];
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
    for (const o of this.objects) {
      const f = footprint(o);
      ctx.fillStyle = `rgb(${(o.color ?? [0.55, 0.45, 0.35]).map((c) => Math.round(255 * c)).join(',')})`;
      ctx.beginPath();
      if (f.circle) { const [u, v] = px(f.circle); ctx.arc(u, v, Math.max(2 * devicePixelRatio, f.circle[2] * s), 0, 2 * Math.PI); }
      else f.corners.forEach((p, i) => (i ? ctx.lineTo(...px(p)) : ctx.moveTo(...px(p))));
      ctx.closePath(); ctx.fill();
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
