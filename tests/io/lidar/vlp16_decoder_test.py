#!/usr/bin/python3
"""An independent decoder of the Velodyne VLP-16 data packet, written from the public VLP-16
user manual (63-9243 rev. E, §9 "Sensor data": packet layout §9.3, laser vertical angles
§9.3.1.1, firing timing §9.5, precision azimuth §9.5 and the spherical-to-XYZ formula §9.2),
not from hilsim's encoder. It listens on a UDP port, runs `hilsim run` with the perception
overlay's roof VLP-16 sending there, and checks (docs/sensors.md "Lidar"):
  - every datagram is a 1206-byte data packet: 12 blocks flagged 0xFFEE, return mode 0x37,
    product 0x22; none lost (the timestamps step by one packet window each);
  - the timestamps are µs past the hour of each packet's first firing, 1327.104 µs apart
    (24 firings of 55.296 µs), and the packets arrive at the real sensor's rate (753.5/s at
    600 rpm) within 5 %, scaled by the run's real-time factor (a shared machine may run the
    loop slower than real time; the run prints its RTF);
  - the points reassembled from the packets equal the sensor's own point clouds (the
    foxglove.PointCloud messages on /lidar/roof in telemetry.mcap, read here with a minimal
    MCAP reader) within the 2 mm range unit, azimuths within 0.02°.
Standard library only (Debian's /usr/bin/python3). Usage: vlp16_decoder_test.py HILSIM SOURCE_DIR
"""
import math
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

# ---- the VLP-16 manual ----------------------------------------------------------------
PACKET_BYTES = 1206
BLOCKS = 12
BLOCK_FLAG = b"\xff\xee"
# §9.3.1.1: vertical angle of laser IDs 0..15 (the order of the returns in a firing sequence)
VERTICAL_DEG = [-15, 1, -13, 3, -11, 5, -9, 7, -7, 9, -5, 11, -3, 13, -1, 15]
FIRING_CYCLE_US = 55.296  # §9.5: one firing sequence of the 16 lasers incl. recharge
LASER_INTERVAL_US = 2.304  # §9.5: between two lasers of a sequence
DISTANCE_UNIT_M = 0.002  # §9.3.1.3: 2 mm


def decode_packet(data):
    """The packet's blocks: [(azimuth °, [(distance m, reflectivity) × 32])], timestamp, modes."""
    if len(data) != PACKET_BYTES:
        raise ValueError(f"{len(data)} bytes, not {PACKET_BYTES}")
    blocks = []
    for b in range(BLOCKS):
        block = data[b * 100:(b + 1) * 100]
        if block[0:2] != BLOCK_FLAG:
            raise ValueError(f"block {b}: flag {block[0:2].hex()}, expected ffee")
        azimuth = struct.unpack_from("<H", block, 2)[0]
        if azimuth >= 36000:
            raise ValueError(f"block {b}: azimuth {azimuth}")
        returns = []
        for r in range(32):
            distance, reflectivity = struct.unpack_from("<HB", block, 4 + 3 * r)
            returns.append((distance * DISTANCE_UNIT_M, reflectivity))
        blocks.append((azimuth / 100.0, returns))
    timestamp, mode, product = struct.unpack_from("<IBB", data, 1200)
    return blocks, timestamp, mode, product


def points_of(blocks, next_azimuth):
    """§9.5 precision azimuth: the second firing of a block (and each laser) gets its azimuth by
    interpolating between this block's azimuth and the next one's; then §9.2:
    x = R·cos ω·sin α, y = R·cos ω·cos α, z = R·sin ω. Points with R = 0 are no returns."""
    out = []
    for b, (azimuth, returns) in enumerate(blocks):
        following = blocks[b + 1][0] if b + 1 < BLOCKS else next_azimuth
        if following is None:  # the last block of the last packet: the previous gap (§9.5)
            following = azimuth + (azimuth - blocks[b - 1][0]) % 360.0
        gap = (following - azimuth) % 360.0
        for r, (distance, reflectivity) in enumerate(returns):
            sequence, laser = divmod(r, 16)
            offset_us = sequence * FIRING_CYCLE_US + laser * LASER_INTERVAL_US
            alpha = (azimuth + gap * offset_us / (2 * FIRING_CYCLE_US)) % 360.0
            if distance == 0:
                continue
            omega = math.radians(VERTICAL_DEG[laser])
            a = math.radians(alpha)
            out.append((distance * math.cos(omega) * math.sin(a),
                        distance * math.cos(omega) * math.cos(a),
                        distance * math.sin(omega), distance, alpha, reflectivity))
    return out


# ---- a minimal MCAP reader (mcap.dev specification), uncompressed chunks ----------------
def read_mcap_messages(path, topic):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89MCAP0\r\n", "not an MCAP file"
    channels = {}
    found = []

    def records(buf, pos, end):
        while pos + 9 <= end:
            opcode = buf[pos]
            (length,) = struct.unpack_from("<Q", buf, pos + 1)
            yield opcode, buf[pos + 9:pos + 9 + length]
            pos += 9 + length

    def string_at(buf, pos):
        (n,) = struct.unpack_from("<I", buf, pos)
        return buf[pos + 4:pos + 4 + n].decode(), pos + 4 + n

    def visit(opcode, body):
        if opcode == 0x04:  # Channel
            cid, _schema = struct.unpack_from("<HH", body, 0)
            name, _ = string_at(body, 4)
            channels[cid] = name
        elif opcode == 0x05:  # Message
            cid, _seq, log_time, _pub = struct.unpack_from("<HIQQ", body, 0)
            if channels.get(cid) == topic:
                found.append((log_time, bytes(body[22:])))
        elif opcode == 0x06:  # Chunk
            pos = 8 + 8 + 8 + 4
            compression, pos = string_at(body, pos)
            assert compression == "", f"chunk compression {compression!r}: record with none"
            (n,) = struct.unpack_from("<Q", body, pos)
            inner = body[pos + 8:pos + 8 + n]
            for o, b in records(inner, 0, len(inner)):
                visit(o, b)

    for opcode, body in records(data, 8, len(data) - 8):
        if opcode == 0x02:  # Footer: the summary follows, already seen
            break
        visit(opcode, body)
    return found


def protobuf_fields(buf):
    """(field number, value) of a protobuf message: varints and length-delimited only, plus
    fixed32 (foxglove.PointCloud's point_stride)."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            n, pos = varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            (value,), pos = struct.unpack_from("<I", buf, pos), pos + 4
        elif wire == 1:
            (value,), pos = struct.unpack_from("<Q", buf, pos), pos + 8
        else:
            raise ValueError(f"wire type {wire}")
        out.append((number, value))
    return out


def varint(buf, pos):
    shift = value = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def cloud_points(message):
    """foxglove.PointCloud: data (6) of point_stride (4) bytes, fields x, y, z, intensity."""
    fields = dict(protobuf_fields(message))
    stride = fields[4]
    assert stride == 16, stride
    data = fields[6]
    return [struct.unpack_from("<4f", data, i) for i in range(0, len(data), stride)]


# ---- the test ---------------------------------------------------------------------------
def main():
    hilsim, source = sys.argv[1], sys.argv[2]
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAIL:", what)

    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.5)
    port = receiver.getsockname()[1]
    packets = []  # (arrival s, bytes)
    done = threading.Event()

    def listen():
        while not done.is_set():
            try:
                data = receiver.recv(4096)
            except socket.timeout:
                continue
            packets.append((time.monotonic(), data))

    listener = threading.Thread(target=listen)
    listener.start()
    with tempfile.TemporaryDirectory() as tmp:
        overlay = os.path.join(tmp, "port.pbtxt")
        with open(overlay, "w") as f:  # the perception overlay's lidar, sending to our port
            f.write('range_sensors { lidars { name: "roof" preset: VLP16 rotation_hz: 10 '
                    'mount { x: 0.3 z: 1.2 } range_noise_m: 0.01 '
                    f'uri: "udp://127.0.0.1:{port}" }} }}\n'
                    'recording { compression: "none" }\n')
        run_dir = os.path.join(tmp, "run")
        command = [hilsim, "run", "--rig", "hmmwv", "--overlay",
                   os.path.join(source, "hil_rigs/hmmwv/perception.pbtxt"), "--overlay", overlay,
                   "--duration", "3s", "--no-rt", "--console", "off",
                   "--record", run_dir]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        time.sleep(0.3)
        done.set()
        listener.join()
        if result.returncode != 0 or os.environ.get("LIDAR_TEST_VERBOSE"):
            print(result.stdout, result.stderr)
            sys.exit("hilsim run failed")
        clouds = read_mcap_messages(os.path.join(run_dir, "telemetry.mcap"), "/lidar/roof")

    # Layout and factory bytes
    decoded = []
    for _, data in packets:
        try:
            decoded.append(decode_packet(data))
        except ValueError as e:
            check(False, f"bad packet: {e}")
    check(len(decoded) >= 2200, f"{len(decoded)} packets in 3 s; expected ~2261")
    check(all(m == 0x37 and p == 0x22 for _, _, m, p in decoded), "return mode 0x37, product 0x22")
    # Timestamps: packet n's first firing at n·24·55.296 µs past the hour, none missing
    period_us = 24 * FIRING_CYCLE_US
    for n, (_, stamp, _, _) in enumerate(decoded):
        if stamp != int(n * period_us + 1e-6):
            check(False, f"packet {n}: timestamp {stamp} µs, expected {int(n * period_us)}")
            break
    # Rate: 753.5 packets a simulated second (the timestamps above), sent as the loop runs;
    # on this shared machine the loop may run slower than real time (its summary's RTF), so
    # the packets arrive at 753.5/s × RTF
    arrivals = [t for t, _ in packets]
    rtf = float(re.search(r"RTF ([0-9.]+)", result.stdout).group(1))
    if len(arrivals) > 400:
        span = arrivals[-1] - arrivals[0]
        rate = (len(arrivals) - 1) / span
        print(f"packet rate {rate:.1f}/s, run at {rtf} × real time: {rate / rtf:.1f} packets a "
              "simulated second (VLP-16 at 600 rpm: 753.5/s)")
        check(abs(rate / rtf - 753.5) < 0.05 * 753.5, f"packet rate {rate:.1f}/s at RTF {rtf}")
    # The azimuth turns 0.199° a firing: the first block of packet n at n·24 firings
    for n, (blocks, _, _, _) in enumerate(decoded[:500]):
        expected = (n * 24 * 0.0552960 * 3.6) % 360.0  # 10 Hz: 3.6°/ms
        err = abs((blocks[0][0] - expected + 180.0) % 360.0 - 180.0)
        if err > 0.0051:
            check(False, f"packet {n}: azimuth {blocks[0][0]}°, expected {expected:.3f}°")
            break

    # The cloud from the packets against the sensor's clouds, return by return in firing order
    stream = []
    for n, (blocks, _, _, _) in enumerate(decoded):
        following = decoded[n + 1][0][0][0] if n + 1 < len(decoded) else None
        stream.extend(points_of(blocks, following))
    recorded = [p for _, message in clouds for p in cloud_points(message)]
    print(f"{len(clouds)} clouds on /lidar/roof, {len(recorded)} points; "
          f"{len(stream)} returns decoded")
    check(len(clouds) >= 25, f"{len(clouds)} point clouds in 3 s at 10 Hz")
    check(0 < len(recorded) <= len(stream), "the recorded points are a prefix of the packets'")
    worst_range = worst_angle = 0.0
    for i, (p, q) in enumerate(zip(stream, recorded)):
        # Our frame: x forward = the manual's y, y left = the manual's −x
        qx, qy, qz, _ = q
        rq = math.sqrt(qx * qx + qy * qy + qz * qz)
        worst_range = max(worst_range, abs(p[3] - rq))
        alpha_q = math.degrees(math.atan2(-qy, qx)) % 360.0
        worst_angle = max(worst_angle, abs((p[4] - alpha_q + 180.0) % 360.0 - 180.0))
    print(f"largest differences: range {worst_range * 1000:.3f} mm, azimuth {worst_angle:.4f}°")
    check(worst_range <= 0.002, f"range differs by {worst_range * 1000:.3f} mm (> 2 mm)")
    check(worst_angle <= 0.02, f"azimuth differs by {worst_angle:.4f}° (> 0.02°)")
    if failures:
        sys.exit(f"{len(failures)} failure(s)")
    print("OK")


if __name__ == "__main__":
    main()
