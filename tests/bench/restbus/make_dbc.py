#!/usr/bin/python3
"""Writes restbus150.dbc: 150 cyclic messages (8 bytes, 4 signals, 10/20/50/100 ms) from 10
nodes, a third E2E-protected (P01, P05, P22 by the DBC's E2E_* attributes) — the load of the
rest-bus cost benchmark (docs/can.md "Cost"). Run it from this directory to regenerate."""

CYCLES = (10, 20, 50, 100)
PROFILES = ("P01", "P05", "P22")


def main():
    nodes = [f"N{i}" for i in range(10)]
    out = ['VERSION ""', "", "NS_ :", "", "BS_:", "", "BU_: " + " ".join(nodes) + " DUT", ""]
    attrs = []
    for i in range(150):
        node = nodes[i % len(nodes)]
        name = f"M{i:03d}"
        out.append(f"BO_ {0x200 + i} {name}: 8 {node}")
        protected = i % 3 == 0
        first = 16 if protected else 0  # bytes 0-1: the E2E header
        for k in range(4):
            out.append(f" SG_ S{k} : {first + 12 * k}|12@1+ (0.1,-10) [-10|399.5] \"\" DUT")
        out.append("")
        attrs.append(f'BA_ "GenMsgCycleTime" BO_ {0x200 + i} {CYCLES[i % len(CYCLES)]};')
        if protected:
            profile = PROFILES[(i // 3) % len(PROFILES)]
            attrs.append(f'BA_ "E2E_Profile" BO_ {0x200 + i} "{profile}";')
            attrs.append(f'BA_ "E2E_DataID" BO_ {0x200 + i} {0x100 + i};')
            if profile == "P22":
                ids = ",".join(str((i + k) % 256) for k in range(16))
                attrs.append(f'BA_ "E2E_DataIDList" BO_ {0x200 + i} "{ids}";')
    out += [
        'BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;',
        'BA_DEF_ BO_ "GenMsgSendType" ENUM "Cyclic","Spontaneous","NoMsgSendType";',
        'BA_DEF_ BO_ "E2E_Profile" STRING ;',
        'BA_DEF_ BO_ "E2E_DataID" INT 0 65535;',
        'BA_DEF_ BO_ "E2E_DataIDList" STRING ;',
        'BA_DEF_DEF_ "GenMsgCycleTime" 0;',
        'BA_DEF_DEF_ "GenMsgSendType" "Cyclic";',
        'BA_DEF_DEF_ "E2E_Profile" "";',
        'BA_DEF_DEF_ "E2E_DataID" 0;',
        'BA_DEF_DEF_ "E2E_DataIDList" "";',
    ] + attrs
    with open("restbus150.dbc", "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
