#!/usr/bin/python3
"""Independent cross-check of the worked examples in profile_protect_test.cpp and crc_test.cpp.

Written from the algorithm descriptions (AUTOSAR "Specification of CRC Routines" calling
convention, PRS_E2EProtocol E2E_PxxProtect steps), bitwise rather than table-driven and without
looking at io/can/e2e. Not run by ctest; run it by hand: it prints the bytes the tests expect.
"""


def crc_bits(data, width, poly, reg):
    top, mask = 1 << (width - 1), (1 << width) - 1
    for b in data:
        reg ^= b << (width - 8)
        for _ in range(8):
            reg = ((reg << 1) ^ poly) & mask if reg & top else (reg << 1) & mask
    return reg


# Crc_CalculateCRC8 / 8H2F / 16: (data, start value, is first call) -> value
def crc8(data, start=0xFF, first=True):
    return crc_bits(data, 8, 0x1D, 0xFF if first else start ^ 0xFF) ^ 0xFF


def crc8h2f(data, start=0xFF, first=True):
    return crc_bits(data, 8, 0x2F, 0xFF if first else start ^ 0xFF) ^ 0xFF


def crc16(data, start=0xFFFF, first=True):
    return crc_bits(data, 16, 0x1021, 0xFFFF if first else start)


def set_nibble(d, off, v):
    sh = off % 8
    d[off // 8] = (d[off // 8] & ~(0xF << sh) & 0xFF) | ((v & 0xF) << sh)


def p01_protect(d, data_id, mode, counter, crc_off=0, cnt_off=8, nib_off=12):
    """P01/P11: counter, nibble, then CRC over the data id and every byte but the CRC's."""
    set_nibble(d, cnt_off, counter)
    if mode == "nibble":
        set_nibble(d, nib_off, (data_id >> 8) & 0xF)
    lo, hi = data_id & 0xFF, (data_id >> 8) & 0xFF
    ids = {"both": [lo, hi], "low": [lo], "alt": [lo if counter % 2 == 0 else hi],
           "nibble": [lo, 0]}[mode]
    c = 0xFF
    for b in ids:
        c = crc8([b], c, False)
    k = crc_off // 8
    c = crc8(d[:k], c, False)
    c = crc8(d[k + 1:], c, False)
    d[k] = c ^ 0xFF
    return d


def p02_protect(d, id_list, counter):
    d[1] = (d[1] & 0xF0) | counter
    d[0] = crc8h2f([id_list[counter]], crc8h2f(d[1:]), False)
    return d


def p05_protect(d, data_id, counter, off=0):
    k = off // 8
    d[k + 2] = counter
    c = crc16(d[k + 2:], crc16(d[:k]), False)
    c = crc16([data_id & 0xFF, data_id >> 8], c, False)
    d[k], d[k + 1] = c & 0xFF, c >> 8
    return d


def p22_protect(d, id_list, counter, off=0):
    k = off // 8
    d[k + 1] = (d[k + 1] & 0xF0) | counter
    c = crc8h2f(d[k + 1:], crc8h2f(d[:k]), False)
    d[k] = crc8h2f([id_list[counter]], c, False)
    return d


def hx(d):
    return " ".join("%02x" % x for x in d)


if __name__ == "__main__":
    rows = [b"\x00\x00\x00\x00", b"\xF2\x01\x83", b"\x0F\xAA\x00\x55", b"\x00\xFF\x55\x11",
            b"\x33\x22\x55\xAA\xBB\xCC\xDD\xEE\xFF", b"\x92\x6B\x55", b"\xFF\xFF\xFF\xFF",
            b"123456789"]
    for name, f in (("crc8", crc8), ("crc8h2f", crc8h2f), ("crc16", crc16)):
        print(name, [hex(f(r)) for r in rows])
    for mode in ("both", "alt", "low", "nibble"):
        for counter in (0, 1):
            print("P01", mode, counter, hx(p01_protect(bytearray(8), 0x123, mode, counter)))
    print("P11 nibble offset 64", hx(p01_protect(bytearray(16), 0x123, "nibble", 0, 64, 72, 76)))
    print("P02", hx(p02_protect(bytearray(8), bytes(16), 1)))
    print("P02", hx(p02_protect(bytearray(range(8)), bytes(range(16)), 2)))
    print("P02", hx(p02_protect(bytearray(range(8)), bytes(range(16)), 1)))
    for counter in (0, 1):
        print("P05", counter, hx(p05_protect(bytearray(8), 0x1234, counter)))
        print("P05 offset 64", counter, hx(p05_protect(bytearray(16), 0x1234, counter, 64)))
    ids = bytes(range(1, 17))
    print("P22 CRCs 1..15,0", hx([p22_protect(bytearray(8), ids, (j + 1) % 16)[0]
                                  for j in range(16)]))
    print("P22 offset 64", hx(p22_protect(bytearray(16), ids, 1, 64)))
