// The console's first screen for each shipped rig, in Debian's chromium: with no layout saved the
// page opens on the rig's default (docs/console.md "Layouts") — RAVON and the HMMWV: vehicle
// speed, wheel speeds (RAVON's against their references), steering, battery or engine, with the
// 3D and XY views beside them; the timing bench (no vehicle): its inputs, the driver's controls —
// every plot with data, and every channel value readable (not cut) at 800, 1280 and 1920 px. The
// default is not saved until the operator changes it.
//   HILSIM=build/release/tools/hilsim node --test tests/console/first_screen.test.mjs
// SCREENSHOTS=DIR keeps the screenshots (first-<rig>-<width>.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startHilsim } from './hilsim_run.mjs';
import { operatorSocket, stepWithPage } from './lockstep.mjs';
import { GL_ARGS, SOFTWARE_COMPOSITING } from './render_check.mjs';

const CHROMIUM = '/usr/bin/chromium';
const WIDTHS = [[800, 700], [1280, 800], [1920, 1080]];
const RIGS = {
  ravon: { panels: ['vehicle speed', 'wheel speeds', 'steering', 'battery'], views: true,
    refs: ['vehicle.wheel.fl.speed_ref'] },
  hmmwv: { panels: ['vehicle speed', 'wheel speeds', 'steering', 'engine'], views: true, refs: [] },
  bench: { panels: ['inputs'], views: false, refs: [] },
};

/// Value cells of the channel rows the list shows that are cut or outside the list.
const unreadable = (page) => page.evaluate(() => {
  const aside = document.querySelector('aside').getBoundingClientRect();
  return [...document.querySelectorAll('#channels td.v')].filter((td) => {
    const r = td.getBoundingClientRect();
    return !td.parentElement.hidden && r.top < aside.bottom && r.bottom > aside.top;
  }).flatMap((td) => {
    const r = td.getBoundingClientRect();
    const cut = td.scrollWidth > td.clientWidth || r.right > document.querySelector('aside').clientWidth + aside.left || r.left < aside.left;
    return cut || td.textContent === '—' ? [`${td.parentElement.dataset.name}: "${td.textContent}"`] : [];
  });
});

for (const [rig, want] of Object.entries(RIGS)) {
  test(`the first screen of ${rig}`, { skip: !existsSync(CHROMIUM) && 'no chromium', timeout: 120000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), `hilsim-first-${rig}-`));
    const run = startHilsim(['run', '--rig', rig, '--speed', 'max', '--paused', '--no-record', '-q']);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...GL_ARGS, SOFTWARE_COMPOSITING] });
    try {
      const { url, token } = await run.ready;
      const op = await operatorSocket(url, token);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      await page.waitForFunction(() => document.querySelectorAll('#panels .panel').length > 0 && document.getElementById('run').textContent !== 'connecting…');
      const heads = await page.$$eval('#panels .panel-head', (hs) => hs.map((h) => h.firstChild.textContent.replace(/ \(click.*$/, '')));
      assert.deepEqual(heads, want.panels, 'the default panels');
      await page.waitForFunction((n) => window.__hilsimMetrics.subscribed.length === n, want.views ? 2 : 1);
      const names = await page.$$eval('#channels tr', (rows) => rows.map((r) => r.dataset.name));
      await stepWithPage(op, page, 4000, (t) => window.__hilsimMetrics.drawn[0]?.data[1].some((v) => v !== null) &&
        (window.__hilsim3d?.state().history?.newest ?? t) >= t - 3);
      await page.waitForFunction(() => document.querySelector('#channels td.v').textContent !== '—');
      for (const [width, height] of WIDTHS) {
        await page.setViewportSize({ width, height });
        await page.waitForTimeout(300);  // the panels rebuilt and drawn at the new width
        const drawn = await page.evaluate(() => window.__hilsimMetrics.drawn);
        assert.equal(drawn.length, want.panels.length);
        for (const p of drawn) {
          p.channels.forEach((name, k) => assert.ok(p.data[1 + 3 * k].some((v) => v !== null), `${width} px: ${name} has data`));
        }
        for (const ref of want.refs) assert.ok(drawn.some((p) => p.channels.includes(ref)), `${ref} plotted`);
        assert.deepEqual(await unreadable(page), [], `${width} px: every value shown whole`);
        for (const v of ['3d', 'xy']) {
          const box = await page.locator(`#view-${v}`).boundingBox();
          assert.equal(box !== null && box.width > 200 && box.height > 150, want.views, `${width} px: the ${v} view: ${JSON.stringify(box)}`);
        }
        if (want.views) {
          const s = await page.evaluate(() => window.__hilsim3d.state());
          assert.ok(s.renders > 0 && s.vehicle.tick > 3900, `${width} px: the 3D view drew the vehicle at tick ${s.vehicle?.tick}`);
        }
        await page.screenshot({ path: join(process.env.SCREENSHOTS ?? dir, `first-${rig}-${width}.png`) });
      }
      // the default is not saved: only what the operator changes is
      assert.equal(await page.evaluate((r) => localStorage.getItem(`hilsim.layout.${r}`), rig), null);
      const name = names.at(-1), wasPlotted = (await page.evaluate(() => window.__hilsimMetrics.drawn[0].channels)).includes(name);
      await page.click(`#channels tr[data-name="${name}"]`);  // into the active (first) panel, or out of it
      const saved = JSON.parse(await page.evaluate((r) => localStorage.getItem(`hilsim.layout.${r}`), rig));
      assert.deepEqual(saved.panels.map((p) => p.title), want.panels, 'saved with the change');
      assert.equal(saved.panels[0].channels.includes(name), !wasPlotted);
      op.close();
    } finally {
      await browser.close();
      run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
