/**
 * How text is written so that it reads back as the same text: the escaping rules, as a declarative list
 * with the reason for each (after mdast-util-to-markdown's `unsafe.js`), applied in one place.
 *
 * A rule escapes a character with a backslash (every ASCII punctuation character can be escaped) or, where a
 * backslash cannot help (spaces, letters, newlines), writes it as a numeric character reference.
 */
import { elementTypePattern } from '../elements/element-types.js';

/** Where the text is written. */
export interface TextContext {
  /** Inside a link's or image's brackets: `]` would close them. */
  inLink: boolean;
  /** Inside a table cell: an unescaped `|` ends the cell (GFM splits rows before reading inlines). */
  inTable: boolean;
  /** A heading or a table cell: one line only, so a newline cannot be written as a hard break. */
  singleLine: boolean;
}

interface Rule {
  char: string;
  /** Whether the character at `i` of `text` must be escaped, in context. */
  when: (text: string, i: number, ctx: TextContext) => boolean;
  why: string;
}

const ALNUM = /[\p{L}\p{N}]/u;
/** After `<`: an ASCII letter starts a tag or a URI scheme; `/`, `!`, `?` a closing tag, comment or declaration, instruction. */
const OPENS_TAG_OR_URI = /^[A-Za-z/!?]$/;
/** CommonMark's email autolink, whose local part may start with a digit or a symbol (`<1.x@host>`). */
const EMAIL_AUTOLINK_AHEAD = /^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/;
const ENTITY_AHEAD = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/;

function isAlnum(ch: string | undefined): boolean {
  return ch !== undefined && ALNUM.test(ch);
}

const always = () => true;

export const UNSAFE: readonly Rule[] = [
  { char: '\\', when: always, why: 'a backslash before punctuation is an escape; doubled it stays a backslash' },
  { char: '*', when: always, why: 'emphasis delimiter, and a list marker or thematic break at a line start' },
  {
    char: '_',
    when: (t, i) => !(isAlnum(t[i - 1]) && isAlnum(t[i + 1])),
    why: 'emphasis delimiter; between two letters or digits it can neither open nor close, so it stays bare there',
  },
  { char: '`', when: always, why: 'opens a code span, or a fence at a line start' },
  {
    char: '[',
    when: always,
    why: 'opens a link, a reference definition or a citation, and unescaped `[<type>:` is refused as an imitation of an element',
  },
  { char: ']', when: (_t, _i, ctx) => ctx.inLink, why: 'closes the link or image text' },
  {
    char: '~',
    when: (t, i) => t[i - 1] === '~' || t[i + 1] === '~' || i === 0 || i === t.length - 1,
    why: '`~~` is strikethrough; a lone `~` at the edge could join a delimiter written next to it',
  },
  {
    char: '<',
    when: (t, i) => OPENS_TAG_OR_URI.test(t[i + 1] ?? '') || EMAIL_AUTOLINK_AHEAD.test(t.slice(i, i + 320)),
    why:
      'opens an autolink (`<https://…>`, `<a@b.c>`), or raw HTML for renderers that read it (a tag, `</`, `<!`, `<?`); ' +
      'before anything else (`1<2`, `< 3`) it cannot, and a backslash there would only be noise',
  },
  { char: '&', when: (t, i) => ENTITY_AHEAD.test(t.slice(i, i + 40)), why: 'would be read as a character reference' },
  { char: '|', when: (_t, _i, ctx) => ctx.inTable, why: 'ends a table cell' },
  { char: '!', when: (t, i) => i === t.length - 1, why: 'before a link written next to the text, `!` would make it an image' },
];

/** Rules for the first character of a line: block markers that only count there. */
const LINE_START: ReadonlyArray<{ test: RegExp; why: string }> = [
  { test: /^#/, why: 'ATX heading' },
  { test: /^>/, why: 'block quote' },
  { test: /^[-+=]/, why: 'list marker, setext underline or thematic break' },
];
const ORDERED_MARKER = /^([0-9]{1,9})([.)])/;

const RULES = new Map(UNSAFE.map((r) => [r.char, r]));
const SPECIAL = /[\\*_`[\]~<&|\n!]/;

export function charRef(ch: string): string {
  return `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`;
}

/** Escapes characters that are special anywhere in inline text. A newline is returned as is. */
export function escapeInline(text: string, ctx: TextContext): string {
  if (!SPECIAL.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const rule = RULES.get(text[i]);
    if (rule && rule.when(text, i, ctx)) {
      out += text.slice(from, i) + '\\';
      from = i;
    }
  }
  return out + text.slice(from);
}

/**
 * Rules at the start of a line (an escaped text that begins a paragraph, a heading, a cell, or follows a hard
 * break): block markers get a backslash; leading whitespace, which markdown strips, becomes a reference.
 */
export function escapeLineStart(escaped: string): string {
  const first = escaped[0];
  if (first === undefined) return escaped;
  if (first === ' ' || first === '\t') return charRef(first) + escaped.slice(1);
  for (const rule of LINE_START) if (rule.test.test(escaped)) return `\\${escaped}`;
  const m = ORDERED_MARKER.exec(escaped);
  if (m) return `${m[1]}\\${escaped.slice(m[1].length)}`;
  return escaped;
}

/** Trailing whitespace of a line is stripped by markdown (and two spaces would be a hard break). */
export function escapeLineEnd(escaped: string): string {
  const last = escaped[escaped.length - 1];
  if (last !== ' ' && last !== '\t') return escaped;
  return escaped.slice(0, -1) + charRef(last);
}

let typesAtStartOf = '';
let TYPES_AT_START = /$^/;

/**
 * Link text that starts like an element line (`text-area: …`) is refused as an imitation when read
 * (imitation.ts); written with its first letter as a character reference it reads back as the same text.
 */
export function guardLinkText(escaped: string): string {
  const types = elementTypePattern();
  if (types !== typesAtStartOf) {
    TYPES_AT_START = new RegExp(`^([\\s*_~]*)(${types})\\s*(?::|$)`);
    typesAtStartOf = types;
  }
  const m = TYPES_AT_START.exec(escaped);
  if (!m) return escaped;
  const at = m[1].length;
  return escaped.slice(0, at) + charRef(escaped[at]) + escaped.slice(at + 1);
}

/** Escapes a link destination: `<…>` when it holds spaces or is empty, else backslashes before `()\\`. */
export function escapeDestination(url: string, ctx: TextContext): string {
  let out: string;
  // eslint-disable-next-line no-control-regex
  if (url === '' || /[\s<>\u0000-\u001f]/.test(url)) {
    out = `<${escapeEntities(url.replace(/[\\<>]/g, '\\$&').replace(/\n/g, '%0A').replace(/\r/g, '%0D'))}>`;
  } else out = escapeEntities(DESTINATION_SPECIAL.test(url) ? url.replace(/[\\()]/g, '\\$&') : url);
  return ctx.inTable && out.includes('|') ? out.replace(/\|/g, '\\|') : out;
}

const DESTINATION_SPECIAL = /[\\()]/;

/** A link title in double quotes; a newline is a reference so the title stays on one line. */
export function escapeTitle(title: string, ctx: TextContext): string {
  let out = TITLE_SPECIAL.test(title) ? escapeEntities(title.replace(/[\\"]/g, '\\$&')).replace(/\n/g, '&#xA;') : title;
  if (ctx.inTable) out = out.replace(/\|/g, '\\|');
  return `"${out}"`;
}

const TITLE_SPECIAL = /[\\"\n&]/;

function escapeEntities(s: string): string {
  if (!s.includes('&')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '&' && ENTITY_AHEAD.test(s.slice(i, i + 40))) out += '\\&';
    else out += s[i];
  }
  return out;
}
