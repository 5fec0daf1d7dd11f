/**
 * CSV as a spreadsheet opens it safely (RFC 4180, and OWASP's "CSV injection"): one place for both rules, so every
 * export escapes the same way.
 */

/**
 * A cell a spreadsheet would read as a formula: = + - @ at its start, and tab and carriage return, which some
 * programs drop before looking for those. Prefixed with an apostrophe, the cell shows as the text it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell that needs quotes: it holds the separator, a quote or a line break (RFC 4180, 2.6). */
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  // A quote inside a quoted cell is written twice (RFC 4180, 2.7).
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text: CRLF between records and after the last (RFC 4180, 2.1 and 2.2). */
export function csvText(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
