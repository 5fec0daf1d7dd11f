/**
 * The destination of a connection line, `bit-connection:<target_bit_id>?node=<id>&when=…&preview=0…`
 * (authoring-interface.md, Body syntax rules 4–5; CONTRACT.md "Body forms" for the order of parameters).
 */
import { UUID_PATTERN } from '../ids.js';
import { TARGET_NAME_PATTERN } from '../targets.js';
import { CONNECTION_FLAGS, type ConnectionCondition, type ConnectionNode, type ConnectionParams } from '../slate.js';
import { quote } from '../../quote.js';

export const CONNECTION_SCHEME = 'bit-connection';

export interface ParsedConnectionUrl {
  target: string;
  node: string | null;
  params: ConnectionParams;
  /** `when` as written, resolved against the body's elements once it is complete. */
  when: { ref: string; values: string[] } | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const FLAG_SET: ReadonlySet<string> = new Set(CONNECTION_FLAGS);

/** markdown-it percent-encodes destinations; a malformed escape is kept as written. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `named`: the target is a file name of a folder (../targets.ts), resolved by the caller, not a bit id. */
export function parseConnectionUrl(url: string, named = false): Parsed<ParsedConnectionUrl> {
  const rest = url.slice(CONNECTION_SCHEME.length + 1);
  const q = rest.indexOf('?');
  const target = q < 0 ? rest : rest.slice(0, q);
  if (named ? !TARGET_NAME_PATTERN.test(target) : !UUID_PATTERN.test(target)) {
    return { ok: false, message: `the target '${quote(target)}' is not ${named ? 'a bit file name' : 'a bit id'}` };
  }
  const out: ParsedConnectionUrl = { target, node: null, params: {}, when: null };
  if (q < 0) return { ok: true, value: out };
  const seen = new Set<string>();
  for (const pair of rest.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : safeDecode(pair.slice(eq + 1));
    if (seen.has(name)) return { ok: false, message: `the parameter ${quote(name)} is given twice` };
    seen.add(name);
    if (name === 'node') {
      if (value === '') return { ok: false, message: 'node= needs the connection id' };
      out.node = value;
    } else if (name === 'when') {
      const colon = value.lastIndexOf(':');
      const values = colon < 0 ? [] : value.slice(colon + 1).split(',').filter((v) => v !== '');
      if (colon <= 0 || values.length === 0) {
        return { ok: false, message: 'when= is <element_id>:<option_id>[,<option_id>] or <check_list_item_id>:checked|unchecked' };
      }
      out.when = { ref: value.slice(0, colon), values };
    } else if (FLAG_SET.has(name)) {
      if (value !== '0' && value !== '1') return { ok: false, message: `${name}= is 0 (hide) or 1 (show)` };
      if (value === '0') out.params[name as (typeof CONNECTION_FLAGS)[number]] = false;
    } else {
      return { ok: false, message: `unknown parameter '${quote(name)}'; a connection line takes node, when, ${CONNECTION_FLAGS.join(', ')}` };
    }
  }
  return { ok: true, value: out };
}

function formatWhen(when: ConnectionCondition): string {
  if ('checked' in when) return `${when.element_id}:${when.checked ? 'checked' : 'unchecked'}`;
  return `${when.element_id}:${when.option_ids.join(',')}`;
}

/** The canonical destination: parameters in the order node, when, preview, description, categories, readingTime. */
export function formatConnectionUrl(node: ConnectionNode): string {
  const params: string[] = [];
  if (node.id !== null) params.push(`node=${node.id}`);
  if (node.params.when) params.push(`when=${formatWhen(node.params.when)}`);
  for (const flag of CONNECTION_FLAGS) if (node.params[flag] === false) params.push(`${flag}=0`);
  return `${CONNECTION_SCHEME}:${node.target_bit_id}${params.length > 0 ? `?${params.join('&')}` : ''}`;
}
