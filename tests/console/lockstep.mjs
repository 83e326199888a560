// Drives a paused run (`hilsim run --speed max --paused`, docs/api.md "Lock-step") from a test:
// an operator's WebSocket that steps it and waits for each step's ack, and a stepper that keeps a
// page with it (a page more than 0.5 s of samples behind the live edge would skip samples).
import WebSocket from 'ws';

/// The operator's connection to the console at `url` (with the token): step(ticks) resolves
/// with the last tick the step ran; call(message) with the reply to its `req`.
export async function operatorSocket(url, token) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}ws?token=${token}`, ['hilsim.console.v1']);
  const waiting = new Map();
  let req = 0;
  ws.on('message', (data, binary) => {
    if (binary) return;
    const m = JSON.parse(data);
    if (m.req !== undefined && waiting.has(m.req)) {
      waiting.get(m.req)(m);
      waiting.delete(m.req);
    }
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const call = (message) => new Promise((resolve, reject) => {
    const id = ++req;
    waiting.set(id, (m) => (m.type === 'error' ? reject(new Error(m.message)) : resolve(m)));
    ws.send(JSON.stringify({ ...message, req: id }));
  });
  return {
    call,
    step: async (ticks) => (await call({ type: 'step', ticks })).tick,
    close: () => ws.close(),
  };
}

/// Steps `ticks` in steps of `chunk`, each time until `caughtUp(lastTick)` holds in the page. A
/// chunk stays under the 0.5 s of samples a live page may lag (2000 ticks of 250 µs).
export async function stepWithPage(op, page, ticks, caughtUp, chunk = 1000) {
  let last = null;
  for (let done = 0; done < ticks; done += chunk) {
    last = await op.step(Math.min(chunk, ticks - done));
    await page.waitForFunction(caughtUp, last, { timeout: 15000, polling: 10 });
  }
  return last;
}
