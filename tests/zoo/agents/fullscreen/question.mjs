// An approval question in one of six looks, and the keys that answer it. The last choice always denies; Esc denies.
import blessed from 'blessed';

const esc = (s) => blessed.escape(String(s));

/** The choices a look offers: its labels and which of them deny. */
function choices(q) {
  switch (q.style) {
    case 'buttons':
      return [{ key: 'y', label: 'Approve' }, { key: 'n', label: 'Deny' }];
    case 'yn':
      return [{ key: 'y', label: 'yes' }, { key: 'n', label: 'no' }];
    case 'checkmarks':
      return [{ label: '✓ Yes, allow it' }, { label: '✗ No, deny it' }];
    default:
      return q.options.map((label) => ({ label }));
  }
}

export class Question {
  constructor(q) {
    this.q = q;
    this.choices = choices(q);
    this.cursor = 0;
  }

  get denyIndex() {
    return this.choices.length - 1;
  }

  /** The question's lines (blessed tags); `modal` leaves the title to the dialog's border. */
  lines(modal) {
    const q = this.q;
    const out = [];
    if (!modal) out.push(`{bold}{yellow-fg}${esc(q.title)}{/yellow-fg}{/bold}`);
    out.push(`  {gray-fg}${esc(q.detail)}{/gray-fg}`, '');
    const sel = (i) => i === this.cursor;
    switch (q.style) {
      case 'yn':
        out.push(`${esc(q.text)} {bold}(y/n){/bold}`);
        return out;
      case 'buttons':
        out.push(esc(q.text), '');
        out.push(this.choices.map((c, i) => (sel(i) ? `{inverse}[${c.key}] ${c.label}{/inverse}` : `[${c.key}] ${c.label}`)).join('   '));
        return out;
      case 'numbered':
        out.push(esc(q.text));
        this.choices.forEach((c, i) => out.push(`${sel(i) ? '{cyan-fg}❯' : ' '} ${i + 1}. ${esc(c.label)}${sel(i) ? '{/cyan-fg}' : ''}`));
        break;
      case 'arrows':
        out.push(esc(q.text));
        this.choices.forEach((c, i) => out.push(`${sel(i) ? '{cyan-fg}→ ' : '  '}${esc(c.label)}${sel(i) ? '{/cyan-fg}' : ''}`));
        break;
      case 'checkboxes':
        out.push(esc(q.text));
        this.choices.forEach((c, i) => out.push(`${sel(i) ? '{cyan-fg}[x]' : '[ ]'} ${esc(c.label)}${sel(i) ? '{/cyan-fg}' : ''}`));
        break;
      case 'checkmarks':
        out.push(esc(q.text));
        this.choices.forEach((c, i) => out.push(`${sel(i) ? '{inverse}' : ''} ${esc(c.label)} ${sel(i) ? '{/inverse}' : ''}`));
        break;
      default:
        throw new Error(`unknown question style ${q.style}`);
    }
    out.push('', '{gray-fg}Enter to confirm · ↑/↓ to move · Esc to cancel{/gray-fg}');
    return out;
  }

  /** A key's answer: 'approve', 'deny', or null (moved the cursor or meant nothing). */
  key(ch, key) {
    const name = key?.name;
    if (name === 'escape') return 'deny';
    if (name === 'enter') {
      if (this.q.style === 'yn') return 'approve';
      return this.cursor === this.denyIndex ? 'deny' : 'approve';
    }
    if (name === 'up' || name === 'left' || (name === 'tab' && key.shift)) this.cursor = Math.max(0, this.cursor - 1);
    else if (name === 'down' || name === 'right' || name === 'tab') this.cursor = Math.min(this.denyIndex, this.cursor + 1);
    else if (ch === 'y' || ch === 'Y') return 'approve';
    else if (ch === 'n' || ch === 'N') return 'deny';
    else if (ch && /^[1-9]$/.test(ch) && Number(ch) <= this.choices.length) {
      return Number(ch) - 1 === this.denyIndex ? 'deny' : 'approve';
    }
    return null;
  }
}
