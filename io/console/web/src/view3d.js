// The console's 3D view (docs/console.md "3D"): the run's `scene` drawn with three.js at the
// time cursor shared with the plots, from the view's own history of the pose channels; chase,
// top and free (orbit) cameras. app.js feeds it the scene, the frames of its subscription and
// the cursor's tick; it renders only when one of them or the camera changed.
import * as THREE from 'three';
import { OrbitControls } from './OrbitControls.js';
import { buildScene } from './scene3d.js';
import { checkScene, chaseCamera, poseChannels, poseOf, topCamera, trailUpTo } from './scene_model.js';
import { PoseHistory } from './pose_history.js';

export const CAMERAS = ['chase', 'top', 'free'];
/// Live renders per second at most where WebGL runs in software (every animation frame with a GPU):
/// a software frame costs the page tens of ms, and its other views and the socket need the time.
export const SOFTWARE_GL_HZ = 10;
/// And live, a render takes at most this share of the page's main thread: a render that blocked
/// for t ms (WebGL waiting for a busy GPU process) delays the next by t / share.
const MAIN_THREAD_SHARE = 0.25;

/// Whether WebGL runs in software (SwiftShader, llvmpipe: a browser without a GPU), where
/// antialiasing would cost more than the picture gains.
function softwareGl() {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(name);
}
const ROW_SPACING_S = 0.01;  // the history keeps a row per 10 ms (and always the newest)

export class View3D {
  /// `host`: the element the canvas fills; `note`: where the view says why it draws nothing.
  /// `maxHz`: live renders per second at most (null: SOFTWARE_GL_HZ in software, else every frame).
  constructor(host, note, maxHz = null) {
    this.host = host;
    this.note = note;
    this.maxHz = maxHz;
    this.lastRender = -Infinity;
    this.lastCost = 0;  // ms the last render took on the main thread
    this.mode = 'chase';
    this.background = '#dfe9f3';
    this.renderer = null;
    this.reset();
    new ResizeObserver(() => this.resize()).observe(host);
  }

  /// A new run: no scene, no history.
  reset() {
    this.objects?.dispose();
    this.objects = null;
    this.scene = null;
    this.history = null;
    this.shown = { tick: null, row: -1 };
    this.pose = null;
    this.renders = 0;
    this.dirty = true;
    this.say('waiting for the run\'s scene');
  }
  say(text) { this.note.textContent = text; this.note.hidden = !text; }

  /// The server's `scene` message; returns the problems that keep it from being drawn.
  setScene(message, periodNs) {
    const { scene, problems } = checkScene(message);
    this.objects?.dispose();
    this.objects = null;
    this.scene = scene;
    if (!scene) { this.say(`the scene cannot be drawn: ${problems.join('; ')}`); return problems; }
    const names = poseChannels(scene);
    this.history = new PoseHistory(names.length, 60000, Math.max(1, Math.round(ROW_SPACING_S * 1e9 / periodNs)));
    this.say('');
    this.dirty = true;
    return [];
  }
  /// The channels the view subscribes to (poseChannels' order), none before a scene.
  get channels() { return this.scene ? poseChannels(this.scene) : []; }

  /// A decoded frame of the view's subscription; `columns[j]`: the frame channel of pose channel j.
  onFrame(frame, columns) {
    this.history?.addFrame(frame, columns);  // drawAt sees a new row at the cursor by itself
  }

  setCamera(mode) {
    if (!CAMERAS.includes(mode) || mode === this.mode) return;
    this.mode = mode;
    if (mode === 'free' && this.renderer && this.pose) {
      const c = chaseCamera(this.pose, this.scene.vehicle);  // free starts where chase is
      this.perspective.position.set(...c.eye);
      this.controls.target.set(...c.target);
      this.followed = [...this.pose.position];
      this.controls.update();
    }
    if (this.controls) this.controls.enabled = mode === 'free';
    this.dirty = true;
  }
  setTheme(background) {
    this.background = background;
    this.objects?.setBackground(background);
    this.dirty = true;
  }

  /// Creates the renderer on first use (a page that never shows the view makes no WebGL context).
  ensureRenderer() {
    if (this.renderer) return true;
    const software = softwareGl();
    this.minInterval = 1000 / (this.maxHz ?? (software ? SOFTWARE_GL_HZ : Infinity));
    try {
      this.renderer = new THREE.WebGLRenderer({ antialias: !software });
    } catch (e) {
      this.say(`no 3D: this browser gives no WebGL (${e.message})`);
      return false;
    }
    this.renderer.setPixelRatio(devicePixelRatio);
    this.host.append(this.renderer.domElement);
    this.perspective = new THREE.PerspectiveCamera(50, 1, 0.1, 5000);
    this.perspective.up.set(0, 0, 1);
    this.top = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 1000);
    this.top.up.set(0, 1, 0);
    this.controls = new OrbitControls(this.perspective, this.renderer.domElement);
    this.controls.enabled = this.mode === 'free';
    this.controls.addEventListener('change', () => { this.dirty = true; });
    this.resize();
    return true;
  }
  resize() {
    if (!this.renderer) return;
    const w = Math.max(1, this.host.clientWidth), h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.perspective.aspect = w / h;
    this.perspective.updateProjectionMatrix();
    this.dirty = true;
  }

  /// Draws the pose at `tick` (the time cursor's; the newest row at or before it). Returns
  /// the tick drawn, or null when nothing was rendered.
  drawAt(tick) {
    if (!this.scene || !this.history || !this.ensureRenderer()) return null;
    const row = this.history.rowAtOrBefore(tick);
    if (row < 0) { this.say(this.history.length ? 'no pose at the cursor: before the view\'s history' : 'waiting for samples'); return null; }
    if (!this.dirty && row === this.shown.row && this.history.tick(row) === this.shown.tick) return null;
    const wait = Math.max(this.minInterval, this.lastCost / MAIN_THREAD_SHARE);
    if (!this.dirty && performance.now() - this.lastRender < wait) return null;  // live, rate-limited
    const start = performance.now();
    this.say('');
    if (!this.objects) this.objects = buildScene(this.scene, { background: this.background });
    const pose = poseOf(this.scene, this.history.row(row));
    this.objects.setPose(pose);
    this.objects.setTrail(trailUpTo(this.history, row));
    this.aimCamera(pose);
    this.renderer.render(this.objects.root, this.mode === 'top' ? this.top : this.perspective);
    this.pose = pose;
    this.shown = { row, tick: this.history.tick(row) };
    this.dirty = false;
    this.renders++;
    this.lastRender = performance.now();
    this.lastCost = this.lastRender - start;
    return this.shown.tick;
  }

  aimCamera(pose) {
    const v = this.scene.vehicle;
    if (this.mode === 'chase') {
      const c = chaseCamera(pose, v);
      this.perspective.position.set(...c.eye);
      this.perspective.lookAt(...c.target);
    } else if (this.mode === 'top') {
      const c = topCamera(pose, v), aspect = this.perspective.aspect;
      const half = c.span / 2;
      Object.assign(this.top, aspect >= 1 ? { left: -half * aspect, right: half * aspect, top: half, bottom: -half }
        : { left: -half, right: half, top: half / aspect, bottom: -half / aspect });
      this.top.position.set(...c.eye);
      this.top.lookAt(...c.target);
      this.top.updateProjectionMatrix();
    } else {  // free: orbits where the user put it, carried along with the vehicle
      const [dx, dy, dz] = pose.position.map((p, i) => p - (this.followed?.[i] ?? p));
      this.perspective.position.add(new THREE.Vector3(dx, dy, dz));
      this.controls.target.add(new THREE.Vector3(dx, dy, dz));
      this.followed = [...pose.position];
      this.controls.update();
    }
  }

  /// The pose channels' values the view holds for `tick` (its row at or before it): {tick, values: {name: v}}.
  heldAt(tick) {
    const row = this.history?.rowAtOrBefore(tick) ?? -1;
    if (row < 0) return null;
    const values = {};
    poseChannels(this.scene).forEach((name, j) => { values[name] = this.history.value(row, j); });
    return { tick: this.history.tick(row), values };
  }

  /// What tests read (window.__hilsim3d): the camera, the vehicle as drawn, the renders.
  state() {
    const cam = this.mode === 'top' ? this.top : this.perspective;
    const o = this.objects;
    return {
      camera: { mode: this.mode, type: cam?.type ?? null, position: cam ? cam.position.toArray() : null,
        target: this.mode === 'free' && this.controls ? this.controls.target.toArray() : null },
      vehicle: o ? { tick: this.shown.tick, position: o.body.position.toArray(), quaternion: o.body.quaternion.toArray(),
        wheels: o.wheels.map((w) => ({ name: w.wheel.name, steer: w.hub.rotation.z, spin: w.wheel.rotation.y,
          hub: w.hub.position.toArray(), force: w.arrow.visible })) } : null,
      objects: o ? o.objects.map((s) => ({ name: s.name.replace(/^object_/, ''), position: s.position.toArray(), yaw: s.rotation.z })) : null,
      renders: this.renders,
      history: this.history ? { rows: this.history.length, oldest: this.history.oldestTick, newest: this.history.newestTick } : null,
    };
  }
}
