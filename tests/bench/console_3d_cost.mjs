// What the console's 3D view costs in a browser (docs/console.md "3D"): a live realtime run of a
// rig with the page in headless Debian chromium (WebGL in software: SwiftShader) on the rig's
// default layout (plots, 3D, XY): the page's frame rate, the 3D view's renders per second and
// the main thread's time per render, and tick to pixel for the 3D view — from the tick's
// wall-clock time (start_epoch_ns + tick·period_ns: the tick's deadline in a realtime run) to
// the end of the animation frame that rendered it — and for the plots (from the frame's
// wall_ms). A measurement, not a test: it prints the figures.
//   HILSIM=build/release/tools/hilsim node tests/bench/console_3d_cost.mjs [--rig ravon]
//     [--seconds 20] [--scene-hz N (the view's cap; default: its own)] [--no-3d] [--no-rt]
//     [--software-compositing (chromium's --disable-gpu-compositing)] [--width 1280 --height 800]
import { parseArgs } from 'node:util';
import { chromium } from '../console/node_modules/playwright-core/index.mjs';
import { percentile, startHilsim } from '../console/hilsim_run.mjs';
import { GL_ARGS, SOFTWARE_COMPOSITING } from '../console/render_check.mjs';

const { values: o } = parseArgs({ options: {
  rig: { type: 'string', default: 'ravon' }, seconds: { type: 'string', default: '20' },
  'scene-hz': { type: 'string' }, 'no-3d': { type: 'boolean' }, 'no-rt': { type: 'boolean' },
  'software-compositing': { type: 'boolean' },
  width: { type: 'string', default: '1280' }, height: { type: 'string', default: '800' },
} });
const seconds = Number(o.seconds);

const run = startHilsim(['run', '--rig', o.rig, '--no-record', '-q', '--duration', `${seconds + 30}s`, ...(o['no-rt'] ? ['--no-rt'] : [])]);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
  args: [...GL_ARGS, ...(o['software-compositing'] ? [SOFTWARE_COMPOSITING] : [])] });
try {
  const { url } = await run.ready;
  const page = await browser.newPage({ viewport: { width: Number(o.width), height: Number(o.height) } });
  const query = new URLSearchParams();
  if (o['scene-hz']) query.set('scene_hz', o['scene-hz']);
  if (o['no-3d']) query.set('layout', 'blank');
  await page.goto(`${url}?${query}`);
  if (o['no-3d']) {  // the default plots without the views: the same channels as the default layout's
    await page.waitForFunction(() => document.querySelectorAll('#channels tr').length > 0);
    await page.click('#default-layout');
    for (const v of ['3d', 'xy']) if (await page.getAttribute(`#tab-${v}`, 'aria-pressed') === 'true') await page.click(`#tab-${v}`);
  } else {
    await page.waitForFunction(() => window.__hilsim3d?.state().renders > 10, null, { timeout: 30000 });
  }
  await page.waitForTimeout(5000);  // warm up: the backfill drawn, the JIT settled
  const r = await page.evaluate((ms) => new Promise((resolve) => {
    const m = window.__hilsimMetrics;
    for (const a of [m.latency_ms, m.latency3d_ms, m.draw3d_ms]) a.length = 0;
    const renders0 = m.renders3d;
    let frames = 0;
    const t0 = performance.now();
    const tick = () => {
      ++frames;
      if (performance.now() - t0 < ms) requestAnimationFrame(tick);
      else resolve({ s: (performance.now() - t0) / 1000, frames, renders: m.renders3d - renders0, lat3d: m.latency3d_ms, draw3d: m.draw3d_ms, latPlots: m.latency_ms });
    };
    requestAnimationFrame(tick);
  }), seconds * 1000);
  const status = await page.textContent('#health');
  const p = (a, q) => (a.length ? percentile(a, q).toFixed(1) : '—');
  console.log(`${o.rig}, ${o['no-3d'] ? 'plots only' : 'default layout with the 3D view'}, ${o.width}×${o.height}, ` +
    `${o['software-compositing'] ? 'software' : 'SwiftShader'} compositing, ${r.s.toFixed(1)} s:`);
  console.log(`  page frame rate ${(r.frames / r.s).toFixed(1)} fps; 3D renders ${(r.renders / r.s).toFixed(1)}/s, ` +
    `main thread per render p50 ${p(r.draw3d, 0.5)} ms, p99 ${p(r.draw3d, 0.99)} ms`);
  console.log(`  tick to pixel, 3D view: p50 ${p(r.lat3d, 0.5)} ms, p99 ${p(r.lat3d, 0.99)} ms (${r.lat3d.length} renders of a newer tick)`);
  console.log(`  tick to pixel, plots:   p50 ${p(r.latPlots, 0.5)} ms, p99 ${p(r.latPlots, 0.99)} ms (${r.latPlots.length} frames)`);
  console.log(`  run: ${status.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
} finally {
  await browser.close();
  run.child.kill('SIGINT');
  const end = await run.ended;
  console.log(`  ${end.out.split('\n').filter((l) => /real-time|wake-up|exec|overrun/.test(l)).join('\n  ').trim()}`);
}
