// The page's samples: per subscribed channel, in tick order, each sample's tick and its value,
// min and max as the console's binary frames carry them (docs/console.md "Binary sample
// frame"), the last MAX_WINDOW_S seconds. The plots read them through decimate.js; the live
// window ends at the newest; the CSV export takes the ticks every plotted channel holds.
import { lowerBound } from './decimate.js';

export const MAX_WINDOW_S = 600;

/// Adds a sample frame (op 1) to `buffers` (channel index → {tick, v, lo, hi}): the frame's
/// channel k is `subscribed[k]`. Ticks a buffer already holds are skipped (a backfill repeats
/// them); a buffer keeps the last MAX_WINDOW_S s, cut back once it is 10 % over. Returns the
/// frame's wall_ms and whether it is live (not backfill).
export function addFrame(buffers, subscribed, buf, periodNs) {
  const { first, stride, n, c, all, wallMs, live } = decodeFrame(buf);
  const keep = Math.ceil(MAX_WINDOW_S * 1e9 / (periodNs * stride));
  for (let k = 0; k < c && k < subscribed.length; ++k) {
    let b = buffers.get(subscribed[k]);
    if (!b) buffers.set(subscribed[k], (b = { tick: [], v: [], lo: [], hi: [] }));
    const last = b.tick.length ? b.tick[b.tick.length - 1] : -Infinity;  // a backfill repeats ticks
    for (let i = 0; i < n; ++i) {
      const tick = first + i * stride;
      if (tick <= last) continue;
      b.tick.push(tick);
      b.v.push(all[k * n + i]); b.lo.push(all[(c + k) * n + i]); b.hi.push(all[(2 * c + k) * n + i]);
    }
    if (b.tick.length > keep * 1.1) {
      const cut = b.tick.length - keep;  // the same for all four (b.tick is cut first)
      for (const a of [b.tick, b.v, b.lo, b.hi]) a.splice(0, cut);
    }
  }
  return { wallMs, live };
}

/// The header of a sample frame and its arrays (`all`: values, then minima, then maxima, each
/// [n_channels][n_samples]), without copying.
export function decodeFrame(buf) {
  const dv = new DataView(buf);
  const n = dv.getUint16(20, true), c = dv.getUint16(22, true);
  return {
    id: dv.getUint16(2, true), first: Number(dv.getBigInt64(8, true)), stride: dv.getUint32(16, true), n, c,
    wallMs: dv.getFloat64(24, true), live: (dv.getUint8(1) & 1) === 0, all: new Float64Array(buf, 32, 3 * n * c),
  };
}

/// The time of the newest sample of any channel [s]; 0 without samples.
export function newestTime(buffers, periodS) {
  let tEnd = 0;
  for (const b of buffers.values()) if (b.tick.length) tEnd = Math.max(tEnd, b.tick[b.tick.length - 1] * periodS);
  return tEnd;
}

/// Empties every buffer (the page's Clear).
export function clearAll(buffers) {
  for (const b of buffers.values()) for (const a of [b.tick, b.v, b.lo, b.hi]) a.length = 0;
}

/// The rows of the channels `indices` in [t0, t1] s, for toCsv (csv.js): [{tick, values}] for
/// each tick of the first channel that every one of them holds, in tick order.
export function commonRows(buffers, indices, t0, t1, periodS) {
  const cols = indices.map((i) => buffers.get(i) ?? { tick: [], v: [] });
  const rows = [];
  const lead = cols[0];
  for (let i = lowerBound(lead.tick, Math.ceil(t0 / periodS)); i < lead.tick.length && lead.tick[i] * periodS <= t1; ++i) {
    const tick = lead.tick[i];
    const values = [];
    for (const b of cols) {
      const j = lowerBound(b.tick, tick);
      if (b.tick[j] !== tick) break;
      values.push(b.v[j]);
    }
    if (values.length === cols.length) rows.push({ tick, values });
  }
  return rows;
}
