/**
 * A linear count of a JSON text's shape, fed the bytes as they arrive, so that JSON.parse only runs on a text
 * within bounds. JSON.parse's time and memory grow with the values and containers it builds, not with the bytes
 * (16 MB of `{},` is five million objects: over a second and 350 MB), so the shape is counted first, cheaply.
 *
 * It does not check the syntax (JSON.parse does, on what passes); on a malformed text its counts still bound
 * what JSON.parse builds before it stops at the first error.
 *
 * Given a piece size, it also notes where a large text can be cut for a parse in pieces (http/json/pieces.ts).
 */

export interface JsonShapeLimits {
  /** Objects and arrays. */
  containers: number;
  /** Strings (keys included), numbers, true, false and null. */
  values: number;
  /** Objects and arrays open at once. */
  depth: number;
  /**
   * Members of one object. JSON.parse builds an object of many keys as a hash table, key by key: 490,000 keys
   * took 300 ms, and a schema walking them as much again.
   */
  members: number;
  /**
   * Distinct keys. Every key is an internalized name and each new one a new shape for the objects that hold
   * it: 500,000 one-key objects over 10,000 distinct keys took JSON.parse 590 ms, over 100 keys 80 ms.
   */
  keys: number;
  /**
   * Distinct string values of at most SHORT_STRING bytes, which V8 internalizes as it parses: a million
   * distinct ones took 300 ms, a million equal ones 70.
   */
  shortStrings: number;
}

/**
 * An object or array of the text, by byte offsets in the whole text: `start` at its `{` or `[`, `end` after its
 * `}` or `]`, and `splits` the commas directly inside it where it is cut, each at least a piece after the
 * previous one (or after `start`).
 */
export interface JsonSpan {
  start: number;
  end: number;
  splits: number[];
}

export interface JsonShapeExcess {
  limit: keyof JsonShapeLimits;
  max: number;
}

/** The longest string value JSON.parse internalizes (V8's kMaxInternalizedStringValueLength). */
export const SHORT_STRING = 10;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Bytes that end a number or a literal (true, false, null): structure and whitespace. */
const DELIMITER = new Uint8Array(256);
for (const c of ',:[]{}" \t\r\n') DELIMITER[c.charCodeAt(0)] = 1;

export class JsonShapeScan {
  containers = 0;
  values = 0;
  private depth = 0;
  /** Per open container: its members so far if it is an object, -1 if it is an array. */
  private readonly open: number[] = [];
  /**
   * Per open container, by depth (written in place, not pushed: a body of small objects opens millions): the
   * offset of its `{` or `[`, of its last split (its start if none), and its splits (stale while it has none).
   */
  private readonly starts: number[] = [];
  private readonly from: number[] = [];
  private readonly cuts: number[][] = [];
  /** Offset in the whole text of the piece being fed. */
  private offset = 0;
  /**
   * The containers closed so far that are cut (they have splits) or are at least a piece long: a container a
   * piece long is parsed on its own, so that what its parent's piece holds stays about a piece long.
   */
  readonly spans: JsonSpan[] = [];
  /** Where the previous piece ended: inside a string (after a backslash, or not), or inside a number or literal. */
  private inString = false;
  private escaped = false;
  private inScalar = false;
  /** The string being read: its hash (FNV-1a over its bytes) and length so far. */
  private hash = 0;
  private length = 0;
  /** Hex digits of a `\u` escape still to come. */
  private hex = 0;
  /** A string has ended and the next structural byte says whether it was a key (`:`) or a value. */
  private lastString = false;
  private readonly keys = new Set<number>();
  private readonly shortStrings = new Set<number>();

  /**
   * `piece`: the least bytes from a container's start to its first split, and from one split to the next (not
   * the chunks fed, which may be cut anywhere); Infinity notes no spans.
   */
  constructor(
    private readonly limits: JsonShapeLimits,
    readonly piece = Infinity,
  ) {}

  /** The text so far leaves no string, object or array open. */
  get closed(): boolean {
    return this.open.length === 0 && !this.inString;
  }

  /** Counts the next piece of the text; the first bound the text so far goes over, or null. */
  feed(bytes: Uint8Array): JsonShapeExcess | null {
    const { limits } = this;
    const n = bytes.length;
    const offset = this.offset;
    this.offset += n;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        // In JSON a backslash escapes exactly the next byte (`\uXXXX` is four hex digits after it).
        // Its length is counted in characters as JSON.parse makes them: an escape is one, `\uXXXX` included.
        let escaped = this.escaped;
        let hex = this.hex;
        let hash = this.hash;
        let length = this.length;
        for (; i < n; i++) {
          const c = bytes[i];
          if (escaped) {
            escaped = false;
            if (c === 0x75) hex = 4;
          } else if (hex > 0) hex--;
          else if (c === BACKSLASH) {
            escaped = true;
            length++;
          } else if (c === QUOTE) {
            this.inString = false;
            this.lastString = true;
            i++;
            break;
          } else if ((c & 0xc0) !== 0x80) length++;
          hash = Math.imul(hash ^ c, 0x01000193);
        }
        this.escaped = escaped;
        this.hex = hex;
        this.hash = hash;
        this.length = length;
        continue;
      }
      if (this.inScalar) {
        while (i < n && DELIMITER[bytes[i]] === 0) i++;
        if (i < n) this.inScalar = false;
        continue;
      }
      const c = bytes[i++];
      if (this.lastString && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
        this.lastString = false;
        const excess = this.countString(c === 0x3a);
        if (excess) return excess;
      }
      switch (c) {
        case 0x7b: // {
        case 0x5b: // [
          if (++this.containers > limits.containers) return { limit: 'containers', max: limits.containers };
          if (++this.depth > limits.depth) return { limit: 'depth', max: limits.depth };
          this.starts[this.open.length] = offset + i - 1;
          this.from[this.open.length] = offset + i - 1;
          this.open.push(bytes[i - 1] === 0x7b ? 0 : -1);
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.depth--;
          // One too many is JSON.parse's error to find.
          if (this.open.length > 0) this.close(offset + i);
          break;
        case 0x3a: {
          // `:` outside a string: one member of the innermost object.
          const last = this.open.length - 1;
          if (last >= 0 && this.open[last] >= 0 && ++this.open[last] > limits.members) return { limit: 'members', max: limits.members };
          break;
        }
        case 0x2c: {
          // `,` outside a string: a split of the innermost container if it is a piece past the previous one.
          const last = this.open.length - 1;
          if (last >= 0 && offset + i - 1 - this.from[last] >= this.piece) {
            if (this.from[last] === this.starts[last]) this.cuts[last] = [offset + i - 1];
            else this.cuts[last].push(offset + i - 1);
            this.from[last] = offset + i - 1;
          }
          break;
        }
        case 0x20:
        case 0x09:
        case 0x0a:
        case 0x0d:
          break;
        case QUOTE:
          if (++this.values > limits.values) return { limit: 'values', max: limits.values };
          this.inString = true;
          this.hash = 0x811c9dc5;
          this.length = 0;
          this.hex = 0;
          break;
        default:
          // A number or a literal: one value, up to the next delimiter.
          if (++this.values > limits.values) return { limit: 'values', max: limits.values };
          this.inScalar = true;
      }
    }
    return null;
  }

  /** The innermost open container ends before `end`: kept in `spans` if it is cut or a piece long. */
  private close(end: number): void {
    this.open.pop();
    const level = this.open.length;
    const start = this.starts[level];
    const cut = this.from[level] !== start;
    if (cut || end - start >= this.piece) this.spans.push({ start, end, splits: cut ? this.cuts[level] : [] });
  }

  /** Counts the string that just ended as a key or, if it is short, as a value JSON.parse will internalize. */
  private countString(isKey: boolean): JsonShapeExcess | null {
    const { limits } = this;
    // Two strings of one hash count as one: the count is a bound on JSON.parse's work, and a collision only lowers it.
    const name = Math.imul(this.hash ^ this.length, 0x01000193);
    if (isKey) {
      this.keys.add(name);
      if (this.keys.size > limits.keys) return { limit: 'keys', max: limits.keys };
    } else if (this.length <= SHORT_STRING) {
      this.shortStrings.add(name);
      if (this.shortStrings.size > limits.shortStrings) return { limit: 'shortStrings', max: limits.shortStrings };
    }
    return null;
  }
}
