/**
 * A linear count of a JSON text's shape, fed the bytes as they arrive, so that JSON.parse only runs on a text
 * within bounds. JSON.parse's time and memory grow with the values and containers it builds, not with the bytes
 * (16 MB of `{},` is five million objects: over a second and 350 MB), so the shape is counted first, cheaply.
 *
 * It does not check the syntax (JSON.parse does, on what passes); on a malformed text its counts still bound
 * what JSON.parse builds before it stops at the first error.
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
}

export interface JsonShapeExcess {
  limit: keyof JsonShapeLimits;
  max: number;
}

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
  /** Where the previous piece ended: inside a string (after a backslash, or not), or inside a number or literal. */
  private inString = false;
  private escaped = false;
  private inScalar = false;

  constructor(private readonly limits: JsonShapeLimits) {}

  /** Counts the next piece of the text; the first bound the text so far goes over, or null. */
  feed(bytes: Uint8Array): JsonShapeExcess | null {
    const { limits } = this;
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        // In JSON a backslash escapes exactly the next byte (`\uXXXX` is four hex digits after it).
        let escaped = this.escaped;
        for (; i < n; i++) {
          const c = bytes[i];
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            this.inString = false;
            i++;
            break;
          }
        }
        this.escaped = escaped;
        continue;
      }
      if (this.inScalar) {
        while (i < n && DELIMITER[bytes[i]] === 0) i++;
        if (i < n) this.inScalar = false;
        continue;
      }
      switch (bytes[i++]) {
        case 0x7b: // {
        case 0x5b: // [
          if (++this.containers > limits.containers) return { limit: 'containers', max: limits.containers };
          if (++this.depth > limits.depth) return { limit: 'depth', max: limits.depth };
          this.open.push(bytes[i - 1] === 0x7b ? 0 : -1);
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.depth--;
          this.open.pop();
          break;
        case 0x3a: {
          // `:` outside a string: one member of the innermost object.
          const last = this.open.length - 1;
          if (last >= 0 && this.open[last] >= 0 && ++this.open[last] > limits.members) return { limit: 'members', max: limits.members };
          break;
        }
        case 0x2c: // ,
        case 0x20:
        case 0x09:
        case 0x0a:
        case 0x0d:
          break;
        case QUOTE:
          if (++this.values > limits.values) return { limit: 'values', max: limits.values };
          this.inString = true;
          break;
        default:
          // A number or a literal: one value, up to the next delimiter.
          if (++this.values > limits.values) return { limit: 'values', max: limits.values };
          this.inScalar = true;
      }
    }
    return null;
  }
}
