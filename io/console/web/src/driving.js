// Driving from the Operator tab (docs/console.md "Driving"): a gamepad (the Gamepad API, polled
// per animation frame) and the keyboard, sent raw as `drive` messages — the server shapes them as
// the rig file's driver block says (dead zone, curve, rate limit) and writes the driver's channels
// at a tick, recorded in commands.log. Only the operator holding the lock drives; a refusal turns
// driving off here. While armed the page reports its controls on every change and at least every
// 250 ms (a page that goes quiet for a second rests: the server lets its controls go).
const $ = (id) => document.getElementById(id);

export const HEARTBEAT_MS = 250;
/// Where a key is typing, not driving.
const TEXT_FIELDS = 'input:not([type=checkbox]):not([type=range]):not([type=button]), select, textarea';

/// The first connected gamepad's axes (−1..1) and buttons' values (0..1), or null.
export function readGamepad(getGamepads) {
  const pads = getGamepads ? [...getGamepads()].filter((p) => p && p.connected !== false) : [];
  if (!pads.length) return null;
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, Number.isFinite(v) ? v : 0));
  return {
    id: pads[0].id ?? 'gamepad',
    axes: [...pads[0].axes].slice(0, 64).map((v) => clamp(v, -1, 1)),
    buttons: [...pads[0].buttons].slice(0, 64).map((b) => clamp(typeof b === 'object' ? (b.value ?? (b.pressed ? 1 : 0)) : b, 0, 1)),
  };
}

/// "HUMAN · steer 0.42 · throttle 1 · brake 0" from a `drive` reply.
export function describeDrive(m) {
  const values = Object.entries(m.values ?? {})
    .filter(([name]) => name !== 'driver.mode')
    .map(([name, v]) => `${name.replace(/^driver\./, '')} ${Number(v.toFixed(3))}`);
  return [m.mode === 'human' ? 'HUMAN' : 'AUTO', ...values].join(' · ');
}

export class DrivingPanel {
  /// `call(m)`: sends with a req (the server replies); returns the req.
  constructor(call) {
    this.call = call;
    this.armed = false;
    this.allowed = false;
    this.keys = new Set();
    this.lastPad = '';
    this.lastSent = 0;
    this.reqs = new Set();
    this.getGamepads = () => (navigator.getGamepads ? navigator.getGamepads() : []);
    window.__hilsimDrive = { sent: 0, replies: 0, mode: 'auto' };
    $('drive-on').onchange = () => this.arm($('drive-on').checked);
    $('drive-take').onclick = () => this.send({ mode: 'human' });
    $('drive-give').onclick = () => this.send({ mode: 'auto' });
    window.addEventListener('keydown', (e) => this.key(e, true));
    window.addEventListener('keyup', (e) => this.key(e, false));
    window.addEventListener('blur', () => { if (this.keys.size) { this.keys.clear(); this.sendKeys(); } });
  }

  /// The run's rights: driving needs the operator token and a rig with a driver block.
  setRun(info) {
    this.allowed = (info.capabilities || []).includes('drive');
    for (const id of ['drive-on', 'drive-take', 'drive-give']) $(id).disabled = !this.allowed;
    $('drive-hint').textContent = this.allowed
      ? 'the rig file maps the controls (driver block); keyboard: arrows or WASD, H takes and gives back the wheel as shipped'
      : (info.role === 'operator' ? 'this run has no driver (the rig has no driver block)' : 'driving needs the operator token');
    if (!this.allowed) this.arm(false);
  }

  send(m) {
    const req = this.call({ type: 'drive', ...m });
    if (this.reqs.size > 1000) this.reqs.clear();  // replies lost to a reconnect
    this.reqs.add(req);
    this.lastSent = performance.now();
    window.__hilsimDrive.sent++;
    return req;
  }

  arm(on) {
    if (on === this.armed) return;
    this.armed = on && this.allowed;
    $('drive-on').checked = this.armed;
    if (this.armed) {
      requestAnimationFrame((t) => this.poll(t));
    } else {  // let go at once (the server would after a second)
      this.keys.clear();
      if (this.allowed) this.send({ keys: [], gamepad: { axes: [], buttons: [] } });
      this.lastPad = '';
    }
  }

  /// Per animation frame while armed: the gamepad on a change or a heartbeat, the keys on a heartbeat.
  poll(now) {
    if (!this.armed) return;
    const pad = readGamepad(this.getGamepads);
    $('drive-pad').textContent = pad ? pad.id : 'no gamepad (press a button on it)';
    const state = pad ? JSON.stringify([pad.axes, pad.buttons]) : '';
    const due = now - this.lastSent >= HEARTBEAT_MS;
    if (pad && (state !== this.lastPad || due)) {
      this.send({ gamepad: { axes: pad.axes, buttons: pad.buttons }, keys: [...this.keys] });
      this.lastPad = state;
    } else if (due) {
      this.sendKeys();
    }
    requestAnimationFrame((t) => this.poll(t));
  }

  sendKeys() { if (this.armed) this.send({ keys: [...this.keys] }); }

  key(e, down) {
    if (!this.armed || e.target.matches?.(TEXT_FIELDS)) return;  // typing is not driving
    if (e.code.startsWith('Arrow') || e.code === 'Space') e.preventDefault();  // no scrolling
    if (down === this.keys.has(e.code)) return;  // a key's autorepeat
    if (down) this.keys.add(e.code); else this.keys.delete(e.code);
    this.sendKeys();
  }

  /// Replies to the page's `drive`, and refusals (the lock held by another operator).
  onControl(m) {
    if (!this.reqs.has(m.req)) return;
    this.reqs.delete(m.req);
    if (m.type === 'error') {
      this.arm(false);
      $('drive-mode').textContent = `refused: ${m.message}`;
      return;
    }
    window.__hilsimDrive.replies++;
    window.__hilsimDrive.mode = m.mode;
    $('drive-mode').textContent = describeDrive(m);
  }
}
