// The 3D view's three.js objects from a checked `scene` message (docs/console.md "3D"): the
// terrain mesh in its surface colours, the cones, the planned path, the driven trail and the
// vehicle as the frames of the scene contract — body (box) → hub_<w> (steer) → wheel_<w>
// (spin, a cylinder with a bar across it so the spin shows) — with a tire force arrow per hub,
// and the scenario's objects (boxes, upright cylinders, cones; base on the ground) where setPose
// puts them.
import * as THREE from 'three';
import { TerrainSampler } from './terrain_sampler.js';
import { srgbToLinear } from './scene_model.js';

const CONE = { radius: 0.15, height: 0.5, color: 0xff7a00 };
const LIFT = 0.03;  // lines above the ground so it does not hide them [m]
const TRAIL_POINTS = 2000;

function terrainMesh(t) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(t.vertices, 3));
  g.setAttribute('color', new THREE.Float32BufferAttribute(t.colors.map(srgbToLinear), 3));
  g.setIndex(t.vertices.length / 3 > 65535 ? new THREE.Uint32BufferAttribute(t.indices, 1) : new THREE.Uint16BufferAttribute(t.indices, 1));
  g.computeVertexNormals();
  const m = new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  const mesh = new THREE.Mesh(g, m);
  mesh.name = 'terrain';
  return mesh;
}

function cones(list, ground) {
  const g = new THREE.ConeGeometry(CONE.radius, CONE.height, 16).rotateX(Math.PI / 2).translate(0, 0, CONE.height / 2);
  const mesh = new THREE.InstancedMesh(g, new THREE.MeshLambertMaterial({ color: CONE.color }), Math.max(1, list.length));
  mesh.count = list.length;
  const m = new THREE.Matrix4();
  list.forEach(([x, y], i) => mesh.setMatrixAt(i, m.makeTranslation(x, y, ground.heightAt(x, y))));
  mesh.name = 'cones';
  return mesh;
}

function line(points, color, ground, dashed) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(points.flatMap(([x, y]) => [x, y, ground.heightAt(x, y) + LIFT]), 3));
  const m = dashed ? new THREE.LineDashedMaterial({ color, dashSize: 1, gapSize: 0.6 }) : new THREE.LineBasicMaterial({ color });
  const l = new THREE.Line(g, m);
  if (dashed) l.computeLineDistances();
  return l;
}

/// One of the scenario's objects: its solid with its base at the group's origin, x along its yaw.
function objectSolid(o) {
  const r = o.width / 2, h = o.height;
  const g = o.shape === 'box' ? new THREE.BoxGeometry(o.length, o.width, h)
    : o.shape === 'cone' ? new THREE.ConeGeometry(r, h, 16).rotateX(Math.PI / 2)
      : new THREE.CylinderGeometry(r, r, h, 20).rotateX(Math.PI / 2);
  g.translate(0, 0, h / 2);
  const color = new THREE.Color(...(o.color ?? [0.55, 0.45, 0.35]).map(srgbToLinear));
  const solid = new THREE.Group();
  solid.name = `object_${o.name}`;
  solid.add(new THREE.Mesh(g, new THREE.MeshLambertMaterial({ color })));
  solid.position.set(o.x, o.y, o.z);
  solid.rotation.set(0, 0, o.yaw);
  return solid;
}

function wheelObject(w) {
  const hub = new THREE.Group();
  hub.name = `hub_${w.name}`;
  hub.position.set(w.x, w.y, w.z);
  const wheel = new THREE.Group();
  wheel.name = `wheel_${w.name}`;
  const tire = new THREE.Mesh(new THREE.CylinderGeometry(w.radius, w.radius, w.width, 28), new THREE.MeshLambertMaterial({ color: 0x2a2a2a }));
  const bar = new THREE.Mesh(new THREE.BoxGeometry(1.9 * w.radius, 1.04 * w.width, 0.22 * w.radius), new THREE.MeshLambertMaterial({ color: 0xd8d8d8 }));
  wheel.add(tire, bar);  // CylinderGeometry's axis is y: the wheel's spin axis
  const arrow = new THREE.ArrowHelper(new THREE.Vector3(1, 0, 0), new THREE.Vector3(0, 0, -w.radius + 0.05), 1, 0xe53e3e);
  arrow.name = `force_${w.name}`;
  arrow.visible = false;
  hub.add(wheel, arrow);
  return { hub, wheel, arrow };
}

/// The three.js scene of `scene`; setPose/setTrail move what moves.
export function buildScene(scene, { background }) {
  const root = new THREE.Scene();
  root.background = new THREE.Color(background);
  root.add(new THREE.HemisphereLight(0xffffff, 0x707070, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(-30, -40, 80);
  root.add(sun);

  const ground = new TerrainSampler(scene.terrain);
  root.add(terrainMesh(scene.terrain), cones(scene.cones, ground));
  if (scene.path.length > 1) root.add(line(scene.path, 0x555566, ground, true));
  const objects = (scene.objects ?? []).map(objectSolid);
  if (objects.length) root.add(...objects);

  const trailGeometry = new THREE.BufferGeometry();
  trailGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * TRAIL_POINTS), 3));
  trailGeometry.setDrawRange(0, 0);
  const trail = new THREE.Line(trailGeometry, new THREE.LineBasicMaterial({ color: 0x2b6cb0 }));
  trail.frustumCulled = false;
  root.add(trail);

  const v = scene.vehicle, b = v.body;
  const body = new THREE.Group();
  body.name = 'body';
  const box = new THREE.Mesh(new THREE.BoxGeometry(b.length, b.width, b.height),
    new THREE.MeshLambertMaterial({ color: 0x3b7dd8, transparent: true, opacity: 0.85 }));
  box.position.z = b.z;
  const nose = new THREE.Mesh(new THREE.BoxGeometry(0.06 * b.length, 0.9 * b.width, 0.25 * b.height), new THREE.MeshLambertMaterial({ color: 0xf6e05e }));
  nose.position.set(0.5 * b.length, 0, b.z + 0.3 * b.height);  // the front, so the heading shows
  body.add(box, nose);
  const wheels = v.wheels.map(wheelObject);
  for (const w of wheels) body.add(w.hub);
  root.add(body);

  const dir = new THREE.Vector3(), heights = new Map();
  return {
    root, body, wheels, ground, objects,
    setPose(pose) {
      (pose.objects ?? []).forEach((p, i) => {
        objects[i]?.position.set(...p.position);
        objects[i]?.rotation.set(0, 0, p.yaw);
      });
      body.position.set(...pose.position);
      body.quaternion.set(...pose.quaternion);
      pose.wheels.forEach((p, i) => {
        const w = wheels[i];
        w.hub.position.set(...p.hub);
        w.hub.rotation.set(0, 0, Number.isFinite(p.steer) ? p.steer : 0);
        w.wheel.rotation.set(0, Number.isFinite(p.spin) ? p.spin : 0, 0);
        const a = p.arrow;
        w.arrow.visible = a.length > 0.01;
        if (w.arrow.visible) {
          w.arrow.setDirection(dir.set(...a.dir));
          w.arrow.setLength(a.length, Math.min(0.25, 0.35 * a.length), Math.min(0.15, 0.2 * a.length));
        }
      });
    },
    setTrail(points) {
      const pos = trailGeometry.attributes.position;
      const n = Math.min(points.length, TRAIL_POINTS);
      if (heights.size > 4 * TRAIL_POINTS) heights.clear();  // the trail's points come again render after render
      for (let i = 0; i < n; ++i) {
        const [x, y] = points[points.length - n + i], key = `${x},${y}`;
        let z = heights.get(key);
        if (z === undefined) heights.set(key, (z = ground.heightAt(x, y) + LIFT));
        pos.setXYZ(i, x, y, z);
      }
      pos.needsUpdate = true;
      trailGeometry.setDrawRange(0, n);
    },
    setBackground(color) { root.background = new THREE.Color(color); },
    dispose() {
      root.traverse((o) => { o.geometry?.dispose(); o.material?.dispose?.(); });
    },
  };
}
