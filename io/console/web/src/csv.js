// CSV of the visible window, byte for byte what `hilsim export` writes for the same ticks:
// header time_s,tick,<channels>, doubles as C++ fmt's "{}" prints them (shortest round-trip
// digits; exponent form below 1e-4 and from 1e16, with at least two exponent digits).

export function fmtDouble(x) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, expText] = x.toExponential().split('e');  // shortest round-trip digits
  const exp = parseInt(expText, 10);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  let out;
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = String(Math.abs(exp)).padStart(2, '0');
    out = `${m}e${exp < 0 ? '-' : '+'}${e}`;
  } else if (exp >= 0) {
    out = digits.length <= exp + 1 ? digits + '0'.repeat(exp + 1 - digits.length)
                                   : `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  } else {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return (negative ? '-' : '') + out;
}

function field(name) {
  return /[",\r\n]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
}

/// rows: [{tick, values: [...]}] in tick order; names: the columns.
export function toCsv(names, rows, periodNs) {
  const lines = [['time_s', 'tick', ...names.map(field)].join(',')];
  for (const r of rows) {
    const t = (r.tick * periodNs) * 1e-9;
    lines.push([fmtDouble(t), String(r.tick), ...r.values.map(fmtDouble)].join(','));
  }
  return lines.join('\n') + '\n';
}
