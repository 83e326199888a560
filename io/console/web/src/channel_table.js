// The channel browser (docs/console.md "Channels"): every channel with its live value and
// unit, a wildcard filter, click to plot, and for an operator force/release on inputs. The
// name column gives way to the value column at any width: a long name is cut at its start
// (its end tells the channels apart) and shown whole in the row's tooltip.

export function globToRegExp(g) {
  return new RegExp('^' + g.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}

/// The filter box's pattern: a glob, or any name containing the text.
export function filterRegExp(text) {
  const f = text.trim();
  return f ? globToRegExp(f.includes('*') || f.includes('?') ? f : `*${f}*`) : null;
}

/// A value as the table shows it: 6 significant digits (NaN for JSON's null).
export function formatValue(v) { return v === null ? 'NaN' : Number(v).toPrecision(6); }

export class ChannelTable {
  /// `on`: {toggle(name), write(name, value), release(name)}.
  constructor(table, on) { this.table = table; this.on = on; this.channels = []; }

  build(channels, canWrite) {
    this.channels = channels;
    const body = this.table.tBodies[0];
    body.replaceChildren(...channels.map((c, i) => {
      const tr = document.createElement('tr');
      tr.dataset.name = c.name;
      tr.title = `${c.name} [${c.unit}]: ${c.description} (${c.direction}); click: add to the active panel`;
      tr.innerHTML = `<td class="n"><span></span></td><td class="v" id="v${i}">—</td><td class="u"></td><td class="op"></td>`;
      tr.cells[0].firstChild.textContent = c.name;
      tr.cells[2].textContent = c.unit;
      tr.onclick = () => this.on.toggle(c.name);
      if (c.direction === 'input' && canWrite) tr.cells[3].append(...this.forceButtons(c, tr));
      return tr;
    }));
    this.table.classList.toggle('writable', canWrite && channels.some((c) => c.direction === 'input'));
  }

  // the operator forces an input (docs/api.md "write"), and gives it back
  forceButtons(c, tr) {
    const force = document.createElement('button');
    force.className = 'force';
    force.textContent = 'force';
    force.title = `force ${c.name} to a value until released`;
    force.onclick = (e) => {
      e.stopPropagation();
      const text = prompt(`Force ${c.name} [${c.unit}] to`, '0');
      if (text === null || text.trim() === '' || !Number.isFinite(Number(text))) return;
      this.on.write(c.name, Number(text));
      tr.classList.add('forced');
    };
    const release = document.createElement('button');
    release.className = 'release';
    release.textContent = 'release';
    release.onclick = (e) => {
      e.stopPropagation();
      this.on.release(c.name);
      tr.classList.remove('forced');
    };
    return [force, release];
  }

  /// Shows the rows whose name matches the filter text; marks the plotted ones.
  filter(text, plotted) {
    const re = filterRegExp(text);
    for (const tr of this.table.tBodies[0].rows) {
      tr.hidden = re !== null && !re.test(tr.dataset.name);
      tr.classList.toggle('plotted', plotted.has(tr.dataset.name));
    }
  }

  /// The `values` message: every shown row's value, coloured by `limitClass(name, v)`.
  show(values, limitClass) {
    values.forEach((v, i) => {
      const cell = document.getElementById(`v${i}`);
      if (!cell || cell.parentElement.hidden) return;
      cell.textContent = formatValue(v);
      cell.className = `v ${limitClass(this.channels[i].name, v)}`;
    });
  }
}
