"""What a page's output may differ in from machine to machine, written once for every page:
applied alike to the output a page shows and to the output a command printed, before they
are compared. Everything else must match to the character, except where the page writes
"…": a line of its own stands for any number of lines, "…" inside a line for any text.

Two kinds of rule:
- DROPPED lines say something about this machine only (its kernel, its load, its
  privileges, a busy port): they are left out on both sides;
- MASKED figures (times, latencies, rates, overruns, dates, run ids, PIDs, free ports, CPU
  counts) are replaced by a placeholder on both sides.
Deterministic figures (ticks, frames, samples, values, gate figures, channel counts) are never
masked: a change in them is what the doc test is for.
"""

from __future__ import annotations

import re

ELLIPSIS = "…"

# Lines about this machine: its kernel, RT privileges, load (overruns) and ports.
DROPPED = [re.compile(p) for p in (
    r"^warning: kernel is not PREEMPT_RT",
    r"^warning: (mlockall failed|cannot hold /dev/cpu_dma_latency|SCHED_FIFO priority \d+ "
    r"refused|cannot pin the RT thread|cannot lock memory|RLIMIT_)",
    r"^warning: overrun at tick \d+",
    r"^warning: \.\.\. and \d+ more real-time events not shown",
    r"^warning: \d+ real-time log events dropped",
    r"^console: ",  # the console's port and token: another run may hold the default port
    r"^sim +[\d.]+ s +RTF ",  # progress lines (stderr, every 10 s off a terminal)
    r"^\[ *[\d.]+ s\] ",  # hilsim ecu's progress lines
    r"^\[ *\d+%\] \d+ ticks, ",  # hilsim timing's progress lines
    r"^export: +\d+% \(",  # hilsim export's progress (once a second: the disk's speed)
    r"^sweep \S+: \[[#.]+\] ",  # hilsim sweep run's progress bar (once a second)
    # the shell's notice of a background job that ended ("[1]+  Killed" in a terminal)
    r"^(bash: line \d+: +\d+|\[\d+\][+-]?) +(Killed|Terminated|Done|Exit \d+|Interrupt)\b",
)]

_SPACES = re.compile(r" {2,}")

# (pattern, replacement), in order.
MASKED = [(re.compile(p), r) for p, r in (
    # wall time and real-time factor of a run
    (r"simulated in [\d.]+ s \(RTF [\d.]+\)", "simulated in <wall> s (RTF <rtf>)"),
    # what this machine granted: PREEMPT_RT, SCHED_FIFO, locked memory
    (r"^(\s*)(not real-time \(.*\)|real-time)$", r"\1<real-time status>"),
    (r"(not real-time \([^)]*\))", "<real-time status>"),
    # the loop's timing on this machine
    (r"overruns \d+", "overruns <n>"),
    (r"wake-up latency p99 [\d.]+ us, max [\d.]+ us", "wake-up latency <us>"),
    (r"missed periods \d+", "missed periods <n>"),
    (r"catch-up ticks \d+", "catch-up ticks <n>"),
    (r"^(\s*)(wake-up latency|execution time|task [\w ]+?)(\s+[\d.]+){5}\s*$", r"\1\2 <us>"),
    (r"^(\s*last overruns at ticks:).*$", r"\1 <ticks>"),
    (r"in [\d.]+ s of wall time", "in <wall> s of wall time"),
    (r"(ticks replayed(?: \([^)]*\))?) in [\d.]+ s: [\d.]+x real time", r"\1 in <wall> s: <x>x"),
    # the recorder's estimate before a run: a data rate, and the disk's free space
    (r"telemetry ~[\d.]+ [KMGT]?B per simulated hour", "telemetry ~<size> per simulated hour"),
    (r"[\d.]+ [KMGT]?B free there \(~[\d.]+ h\)", "<free> free there (~<h> h)"),
    (r"\(about [\d.]+ s\)", "(about <wall> s)"),
    # frames from an ECU outside the process arrive as the two clocks and the network let them
    (r"^(\s*CAN \w+ \((?!virtual:)[^)]*\)): ECU frames in \d+", r"\1: ECU frames in <n>"),
    # hilsim ecu's view of a rig in another process: frames, timeouts and periods as received
    (r"^(\s+[A-Za-z]\w*\s+)\d+(\s+\d+\s+\d+/\d+/\d+\s+\d+\s+)\d+(\s+)[\d.]+ / +[\d.]+ / +"
     r"[\d.]+(\s+)\d+$", r"\1<frames>\2<timeouts>\3<periods>\4<us>"),
    (r"; transport: rx \d+ tx", "; transport: rx <n> tx"),
    # dates, run ids and process ids
    (r"\d{8}T\d{6}(?:\.\d+)?Z", "<utc>"),
    (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?", "<utc>"),
    (r"\bpid \d+", "pid <pid>"),
    # a run's start (candump timestamps are the start epoch + tick·period)
    (r"^\(\d{10}\.\d{6}\)", "(<epoch>)"),
    (r"Timestamp: +\d{10}\.\d+", "Timestamp: <epoch>"),
    # a port the system chose (--console 0, an ephemeral UDP port)
    (r"127\.0\.0\.1:(3[2-9]\d{3}|[4-6]\d{4})\b", "127.0.0.1:<port>"),
    # the machine's CPUs
    (r"expected 0\.\.\d+ \(CPU index; this machine has \d+ CPUs",
     "expected 0..<n> (CPU index; this machine has <n> CPUs"),
)]


_FIGURE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def loosen(lines: list[str]) -> list[str]:
    """For a block marked `loose` (two processes paced by their own clocks, as a real ECU and a
    rig over UDP: what arrives when differs from run to run): every figure as <#>, so the
    words, the messages and the verdicts are compared, not the counts and times."""
    return [_FIGURE.sub("<#>", line) for line in lines]


def normalize(lines: list[str]) -> list[str]:
    """The lines with DROPPED ones left out and MASKED figures replaced; runs of spaces inside
    a line as one (a table's columns take the width of its figures); trailing blanks and blank
    lines at the end removed."""
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        if any(rule.search(line) for rule in DROPPED):
            continue
        for rule, replacement in MASKED:
            line = rule.sub(replacement, line)
        indent = len(line) - len(line.lstrip(" "))
        out.append(line[:indent] + _SPACES.sub(" ", line[indent:]))  # columns: widths vary
    while out and not out[-1]:
        out.pop()
    return out


def _line_pattern(expected: str) -> re.Pattern[str]:
    parts = expected.split(ELLIPSIS)
    return re.compile(".*?".join(re.escape(p) for p in parts) + r"\Z", re.S)


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines fit the expected ones: equal, except that an expected line
    "…" stands for any lines (none too) and "…" in a line for any text."""
    patterns = [None if e.strip() == ELLIPSIS else _line_pattern(e) for e in expected]
    # fits[i][j]: expected[i:] fits actual[j:]
    n, m = len(patterns), len(actual)
    fits = [[False] * (m + 1) for _ in range(n + 1)]
    fits[n][m] = True
    for i in range(n - 1, -1, -1):
        for j in range(m, -1, -1):
            pattern = patterns[i]
            if pattern is None:
                fits[i][j] = fits[i + 1][j] or (j < m and fits[i][j + 1])
            else:
                fits[i][j] = j < m and bool(pattern.match(actual[j])) and fits[i + 1][j + 1]
    return fits[0][0]


def aligned(expected: list[str], actual: list[str]) -> list[str]:
    """The expected lines as the actual ones would fill them in, for a readable diff: each
    "…" line replaced by the actual lines it stands for, each line with "…" by the actual line
    it matches; lines that match nothing stay as they are."""
    out: list[str] = []
    j, wild = 0, False
    for line in expected:
        if line.strip() == ELLIPSIS:
            wild = True
            continue
        pattern = _line_pattern(line)
        k = next((k for k in range(j, len(actual)) if pattern.match(actual[k])), None)
        if k is None:
            out.append(line)
            continue
        if wild:
            out.extend(actual[j:k])
        out.append(actual[k])
        j, wild = k + 1, False
    if wild:
        out.extend(actual[j:])
    return out
