// Small DOM helpers: the page is plain DOM, no framework.

/** A required element of index.html (a missing one is a build mistake, so fail loudly). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html has no #${id}`);
  return el as T;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

/** A table with a caption, a header row and body rows of text cells (rows may be empty: then `empty` is said). */
export function table(caption: string, head: string[], rows: Array<Array<string | number | Node>>, empty = 'none yet'): HTMLTableElement {
  const t = el('table');
  t.append(el('caption', '', caption));
  const hr = t.createTHead().insertRow();
  for (const h of head) {
    const th = el('th', '', h);
    th.scope = 'col';
    hr.append(th);
  }
  const body = t.createTBody();
  if (rows.length === 0) {
    const td = body.insertRow().insertCell();
    td.colSpan = head.length;
    td.className = 'none';
    td.textContent = empty;
  }
  for (const r of rows) {
    const tr = body.insertRow();
    for (const c of r) {
      const td = tr.insertCell();
      if (c instanceof Node) td.append(c);
      else td.textContent = String(c);
      if (typeof c === 'number') td.className = 'num';
    }
  }
  return t;
}
