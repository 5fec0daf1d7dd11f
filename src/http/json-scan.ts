/**
 * A linear pre-scan of a JSON text's bytes, run before JSON.parse: JSON.parse's time and memory grow with the
 * number of values and containers it builds, not with the bytes (16 MB of `{},` is five million objects: over a
 * second and 350 MB), so the shape is counted first, cheaply, and a text over the bounds is refused unparsed.
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

/** The first bound the text goes over, or null when it stays within all of them. */
export function jsonShapeExcess(bytes: Buffer, limits: JsonShapeLimits): JsonShapeExcess | null {
  let containers = 0;
  let values = 0;
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    switch (bytes[i]) {
      case 0x7b: // {
      case 0x5b: // [
        if (++containers > limits.containers) return { limit: 'containers', max: limits.containers };
        if (++depth > limits.depth) return { limit: 'depth', max: limits.depth };
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth--;
        break;
      case 0x2c: // ,
      case 0x3a: // :
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        break;
      case QUOTE:
        if (++values > limits.values) return { limit: 'values', max: limits.values };
        i = stringEnd(bytes, i);
        break;
      default:
        // A number or a literal: one value, up to the next delimiter.
        if (++values > limits.values) return { limit: 'values', max: limits.values };
        while (i + 1 < n && DELIMITER[bytes[i + 1]] === 0) i++;
    }
  }
  return null;
}

/**
 * The index of the quote that closes the string opened at `open` (or the last index when none does). A quote
 * preceded by an odd run of backslashes is escaped: in JSON a backslash always escapes exactly the next byte
 * (`\uXXXX` is four hex digits after it), so the run's parity decides. Each backslash is looked at once, by
 * the run that ends at the quote after it, so the whole scan stays linear.
 */
function stringEnd(bytes: Buffer, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote === -1) return bytes.length - 1;
    let run = 0;
    while (quote - run - 1 > open && bytes[quote - run - 1] === BACKSLASH) run++;
    if (run % 2 === 0) return quote;
    from = quote + 1;
  }
}
