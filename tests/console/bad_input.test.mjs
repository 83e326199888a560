// Bad input at the console's port, against a real run: each is refused with the right status
// or close code and counted, the run goes on and the console keeps serving.
//   HILSIM=build/release/tools/hilsim node --test tests/console/bad_input.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import WebSocket from 'ws';
import { startHilsim, until } from './hilsim_run.mjs';

/// Sends `chunks` (with `gapMs` between them) on a raw connection; resolves with what came
/// back when the server closed (or after `waitMs`) and when that was.
function raw(port, chunks, { gapMs = 0, waitMs = 15000 } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const s = net.connect(port, '127.0.0.1');
    let got = '', done = false;
    const finish = (how) => {
      if (done) return;
      done = true; clearTimeout(timer); s.destroy();
      resolve({ text: got, how, ms: Date.now() - started });
    };
    s.on('data', (d) => (got += d));
    s.on('close', () => finish('closed'));
    s.on('error', () => finish('error'));
    const timer = setTimeout(() => finish('timeout'), waitMs);
    (async () => {
      for (const c of chunks) {
        if (done) return;
        s.write(c);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    })();
  });
}

function consoleClient(url, protocols = ['hilsim.console.v1'], headers = {}) {
  const ws = new WebSocket(url.replace('http:', 'ws:') + 'ws', protocols, { headers });
  const got = { json: [], close: null, unexpected: null };
  ws.on('message', (d, binary) => !binary && got.json.push(JSON.parse(d.toString())));
  ws.on('close', (code) => (got.close = code));
  ws.on('unexpected-response', (req, res) => { got.unexpected = res.statusCode; ws.terminate(); });
  ws.on('error', () => {});
  return { ws, got };
}
const lastStatus = (got) => got.json.filter((m) => m.type === 'status').at(-1);

test('bad input is refused, counted, and the console goes on', async () => {
  const run = startHilsim(['run', '--no-rt', '--duration', '60s', '--no-record', '-q']);
  try {
    const { url } = await run.ready;
    const port = Number(new URL(url).port);
    const host = `Host: 127.0.0.1:${port}\r\n`;

    const watcher = consoleClient(url);
    await until(() => lastStatus(watcher.got));
    const { refused: refusedBefore, bad_messages: badBefore } = lastStatus(watcher.got).console;

    const malformed = await raw(port, ['GARBAGE\x01 / HTTP/9\r\n\r\n']);
    assert.match(malformed.text, /^HTTP\/1\.1 400/, 'malformed request line');
    const huge = await raw(port, [`GET / HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(9000)}\r\n\r\n`]);
    assert.match(huge.text, /^HTTP\/1\.1 431/, 'header over 8 KiB');
    const body = await raw(port, [`POST /api/stop HTTP/1.1\r\n${host}Content-Length: 10000000\r\n\r\n`, 'x'.repeat(4096)]);
    assert.match(body.text, /^HTTP\/1\.1 413/, 'a request body');
    const slow = await raw(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: '.split(''), { gapMs: 400, waitMs: 20000 });
    assert.equal(slow.how, 'closed', 'slowloris: the server hangs up');
    assert.ok(slow.ms < 13000, `slowloris closed after ${slow.ms} ms`);

    const wrongProtocol = consoleClient(url, ['mqtt']);
    await until(() => wrongProtocol.got.unexpected !== null);
    assert.equal(wrongProtocol.got.unexpected, 400, 'unknown subprotocol');
    const foreign = consoleClient(url, ['hilsim.console.v1'], { Origin: 'http://evil.example' });
    await until(() => foreign.got.unexpected !== null);
    assert.equal(foreign.got.unexpected, 403, 'a foreign Origin');

    const c = consoleClient(url);
    await until(() => c.got.json.some((m) => m.type === 'channels'));
    c.ws.send('{"type": "teleport", "req": 7}');
    c.ws.send('{not json');
    c.ws.send(JSON.stringify({ type: 'subscribe', id: 0, channels: ['*'] }));
    await until(() => c.got.json.filter((m) => m.type === 'error').length >= 3);
    const errors = c.got.json.filter((m) => m.type === 'error');
    assert.match(errors[0].message, /teleport/);
    assert.equal(errors[0].req, 7);
    assert.equal(c.got.close, null, 'bad messages do not cost the connection');
    c.ws.send('x'.repeat(65 * 1024));
    await until(() => c.got.close !== null);
    assert.equal(c.got.close, 1009, 'a message over 64 KiB');

    await until(() => lastStatus(watcher.got).console.refused >= refusedBefore + 6);
    await until(() => lastStatus(watcher.got).console.bad_messages >= badBefore + 3);
    const after = lastStatus(watcher.got);
    assert.equal(after.state, 'running', 'the run goes on');
    const page = await fetch(url);
    assert.equal(page.status, 200, 'the console still serves');
    console.log(`refused ${after.console.refused - refusedBefore}; slowloris closed after ${slow.ms} ms`);
    watcher.ws.close();
  } finally {
    run.child.kill('SIGINT');
    await run.ended;
  }
});
