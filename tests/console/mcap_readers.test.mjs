// The recordings as the standard MCAP readers see them (docs/recording.md): @mcap/core's indexed
// reader, with Foxglove's zstd and lz4 decompressors, opens every file of a split recording on
// its own — summary, chunk indexes, message indexes, statistics — and decodes its messages with
// protobufjs from the embedded schemas; together the parts hold every tick once.
//   HILSIM=build/release/tools/hilsim node --test tests/console/mcap_readers.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readSync, fstatSync, closeSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapIndexedReader } from '@mcap/core';
import zstd from '@foxglove/wasm-zstd';
import lz4 from '@foxglove/wasm-lz4';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { HILSIM } from './hilsim_run.mjs';

function readable(path) {
  const fd = openSync(path, 'r');
  return {
    fd,
    size: async () => BigInt(fstatSync(fd).size),
    read: async (offset, length) => {
      const b = Buffer.alloc(Number(length));
      readSync(fd, b, 0, Number(length), Number(offset));
      return new Uint8Array(b.buffer, b.byteOffset, b.length);
    },
  };
}

for (const compression of ['zstd', 'lz4']) {
  test(`a split ${compression} recording in @mcap/core`, { timeout: 120000 }, async () => {
    await zstd.isLoaded;
    await lz4.isLoaded;
    const dir = mkdtempSync(join(tmpdir(), 'hilsim-mcap-'));
    try {
      const overlay = join(dir, 'overlay.pbtxt');
      writeFileSync(overlay, `recording { compression: "${compression}" split_duration_s: 4 }\n`);
      execFileSync(HILSIM, ['run', '--speed', 'max', '--duration', '10s', '--overlay', overlay,
        '--record', join(dir, 'run'), '--console', 'off', '--no-rt', '-q']);
      const parts = readdirSync(join(dir, 'run')).filter((f) => f.endsWith('.mcap')).sort();
      assert.deepEqual(parts, ['telemetry.1.mcap', 'telemetry.2.mcap', 'telemetry.mcap']);
      const ticks = [];
      for (const part of parts) {
        const r = readable(join(dir, 'run', part));
        const reader = await McapIndexedReader.Initialize({
          readable: r,
          decompressHandlers: {
            zstd: (buf, size) => zstd.decompress(buf, Number(size)),
            lz4: (buf, size) => lz4(buf, Number(size)),
          },
        });
        assert.ok(reader.chunkIndexes.length > 0, `${part}: chunk indexes`);
        assert.ok(reader.chunkIndexes.every((c) => c.compression === compression));
        const wheel = [...reader.channelsById.values()].find((c) => c.topic === '/vehicle/wheel/fl');
        const schema = reader.schemasById.get(wheel.schemaId);
        const root = protobuf.Root.fromDescriptor(descriptor.FileDescriptorSet.decode(schema.data));
        const type = root.lookupType(schema.name);
        let count = 0;
        for await (const _message of reader.readMessages()) count++;
        assert.equal(BigInt(count), reader.statistics.messageCount, `${part}: every message indexed`);
        for await (const m of reader.readMessages({ topics: ['/vehicle/wheel/fl'] })) {
          const decoded = type.toObject(type.decode(m.data), { longs: Number, defaults: true });
          ticks.push(decoded.tick);
          assert.ok(Number.isFinite(decoded.speed));
        }
        closeSync(r.fd);
      }
      ticks.sort((a, b) => a - b);
      assert.equal(ticks.length, 10000, 'every 1 kHz sample of 10 s, once');
      assert.ok(ticks.every((t, i) => t === 4 * i));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
