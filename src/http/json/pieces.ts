/**
 * A large JSON body parsed in pieces, each in a turn of the event loop of its own, to exactly JSON.parse's value
 * (issue 16: JSON.parse of 7 MB of small objects held the loop 100 ms, 270 ms on a loaded machine).
 *
 * The shape scan notes each object or array a piece long or more, and where it is cut: at commas directly inside
 * it (JsonSpan). Each text given to JSON.parse here is the members of one such container between two cuts, in its
 * brackets, with every noted container nested in them standing as a placeholder string; each placeholder's
 * container is parsed the same way and put in its place. The pieces put back together are the text, so the text
 * is valid JSON when every piece is, holds a member, and has its placeholders where values go; each member is
 * JSON.parse's own, and the members are joined in order as JSON.parse joins them.
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { JsonShapeScan, JsonSpan } from './scan.js';

interface Container extends JsonSpan {
  /** The noted containers directly within this one (none noted between), by start. */
  inner: Container[];
}

type Holder = Record<string, unknown>;

/** The noted containers as a tree: the outermost ones, each with those directly within it, by start. */
function nest(spans: readonly JsonSpan[]): Container[] {
  const sorted = spans.map((span): Container => ({ ...span, inner: [] })).sort((a, b) => a.start - b.start);
  const outermost: Container[] = [];
  const open: Container[] = [];
  for (const container of sorted) {
    while (open.length > 0 && open[open.length - 1].end <= container.start) open.pop();
    (open.length > 0 ? open[open.length - 1].inner : outermost).push(container);
    open.push(container);
  }
  return outermost;
}

/** As JSON.parse makes a member: an own data property, even when its key is `__proto__`. */
function define(holder: object, key: string, value: unknown): void {
  Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
}

class PieceParser {
  /** Bytes parsed since the event loop last had a turn. */
  private parsed = 0;
  /** Placeholders are `"\u0000wm:<nonce>:<i>"`: the nonce is drawn after the body is read, so it cannot forge one. */
  private readonly prefix = `\u0000wm:${randomBytes(12).toString('base64url')}:`;

  constructor(
    private readonly bytes: Buffer,
    private readonly piece: number,
  ) {}

  /**
   * JSON.parse of `open` + the bytes from `from` to `to` + `close`, each of `inner` (within them) parsed on its
   * own and put where it stands. A turn of its own when the turn so far has parsed a piece already.
   */
  async parse(open: string, from: number, to: number, close: string, inner: readonly Container[]): Promise<unknown> {
    let size = to - from;
    for (const container of inner) size -= container.end - container.start;
    if (this.parsed > 0 && this.parsed + size > this.piece) {
      await yieldToEventLoop();
      this.parsed = 0;
    }
    this.parsed += size;

    const { bytes, prefix } = this;
    let text = open;
    let at = from;
    for (let i = 0; i < inner.length; i++) {
      text += `${bytes.toString('utf8', at, inner[i].start)}"\\u0000${prefix.slice(1)}${i}"`;
      at = inner[i].end;
    }
    text += bytes.toString('utf8', at, to) + close;
    if (inner.length === 0) return JSON.parse(text) as unknown;

    const places: Array<{ holder: Holder; key: string } | undefined> = [];
    const value = JSON.parse(text, function (this: Holder, key: string, value: unknown) {
      if (typeof value === 'string' && value.startsWith(prefix)) places[Number(value.slice(prefix.length))] = { holder: this, key };
      return value;
    }) as unknown;
    let result = value;
    for (let i = 0; i < inner.length; i++) {
      const place = places[i];
      // A placeholder that is no value stands where a key goes: the container there is a syntax error.
      if (place === undefined) throw new SyntaxError(`Expected double-quoted property name in JSON at position ${inner[i].start}`);
      const filled = await this.container(inner[i]);
      define(place.holder, place.key, filled);
      // The text is this container alone (around it only whitespace).
      if (value === `${prefix}${i}`) result = filled;
    }
    return result;
  }

  /** A noted container's value: parsed whole, or run by run between its splits and joined as JSON.parse would. */
  async container(container: Container): Promise<unknown> {
    const { start, end, splits, inner } = container;
    if (splits.length === 0) return this.parse('', start, end, '', inner);
    const isArray = this.bytes[start] === 0x5b;
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    let whole: unknown[] | Holder | undefined;
    let next = 0;
    for (let run = 0; run <= splits.length; run++) {
      const from = run === 0 ? start : splits[run - 1] + 1;
      const to = run === splits.length ? end : splits[run];
      const first = next;
      while (next < inner.length && inner[next].start < to) next++;
      // The first run has the container's own opening bracket, the last its own closing one: a mismatched pair is
      // JSON.parse's error.
      const part = (await this.parse(run === 0 ? '' : open, from, to, run === splits.length ? '' : close, inner.slice(first, next))) as unknown[] | Holder;
      const keys = isArray ? null : Object.keys(part);
      if (isArray ? (part as unknown[]).length === 0 : keys?.length === 0) {
        // Nothing between two commas, or between a bracket and a comma (`[1,,2]`, `[1,]`): JSON.parse refuses it.
        const at = run === splits.length ? end - 1 : splits[run];
        throw new SyntaxError(`Unexpected token '${String.fromCharCode(this.bytes[at])}' in JSON at position ${at}`);
      }
      if (whole === undefined) whole = part;
      else if (Array.isArray(whole)) for (const item of part as unknown[]) whole.push(item);
      // A key met again keeps its place and takes the later value, as in JSON.parse.
      else for (const key of keys as string[]) define(whole, key, (part as Holder)[key]);
    }
    return whole;
  }
}

/**
 * The value of a JSON text of which `scan` has counted every byte, as JSON.parse(bytes.toString()) would give it
 * or throw its SyntaxError (the message may name another error or position: the same verdict). Text between two
 * turns of the event loop: about `scan.piece` bytes, or one member longer than that.
 */
export async function parseJsonPieces(bytes: Buffer, scan: JsonShapeScan): Promise<unknown> {
  // A text left open is invalid, and its open containers are not noted: refused without parsing it in one turn.
  if (!scan.closed) throw new SyntaxError('Unexpected end of JSON input');
  return new PieceParser(bytes, scan.piece).parse('', 0, bytes.length, '', nest(scan.spans));
}
