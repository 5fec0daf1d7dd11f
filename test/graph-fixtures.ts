/**
 * Bits and connections for the flow and trail tests, made through the write path the server serves (add_bit,
 * connect_bits, update_bit, archive_bit), so no fixture holds a row the server would not have written. A body
 * is built from test/trail-fixtures.ts's pieces: markdown with `waymark-node:<key>` anchors and their
 * elements[] entries; the ids the server mints for those keys come back in `ids`, and tests use them.
 */
import type { ConnectionCondition } from '../src/content/slate.js';
import { nowIso } from '../src/services/clock.js';
import type { Harness } from './harness.js';
import { bodyOf, type BodyPiece } from './trail-fixtures.js';

export interface TestBitOptions {
  title?: string;
  scopeId?: string | null;
  /** Another account's bit is written by a principal of that account. */
  accountId?: string;
  archived?: boolean;
  categories?: string[];
  abstract?: string;
  description?: string;
  humanRequired?: boolean;
  /** The body's pieces, in order; default one paragraph. */
  blocks?: BodyPiece[];
}

export interface TestBit {
  bit_id: string;
  /** The ids the server minted, by the keys the pieces gave their elements and items. */
  ids: Record<string, string>;
}

/**
 * The newest change a fixture made. A bit is added only once the clock has passed it, so lists ordered by
 * the newest change first list fixtures in the reverse order of their making, never by a tie on the millisecond.
 */
let lastChange = '';
async function afterLastChange(): Promise<void> {
  while (nowIso() <= lastChange) await new Promise((resolve) => setTimeout(resolve, 1));
}
function changed(at: string): void {
  if (at > lastChange) lastChange = at;
}

/** Who writes the fixtures: a test harness (its owner, or a principal of another account), or any tool caller. */
export interface ToolCaller {
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
}
export type Author = Harness | ToolCaller;

async function clientFor(author: Author, accountId?: string): Promise<ToolCaller> {
  if (!('owner' in author)) {
    if (accountId !== undefined) throw new Error('a bit of another account needs a harness');
    return author;
  }
  return accountId && accountId !== author.accountId ? (await author.principal({ accountId })).client : author.owner.client;
}

export async function addTestBit(author: Author, options: TestBitOptions = {}): Promise<TestBit> {
  const client = await clientFor(author, options.accountId);
  const title = options.title ?? 'A bit';
  const body = bodyOf(options.blocks ?? [{ markdown: 'A step.' }]);
  await afterLastChange();
  const added = await client.ok<{ bit_id: string; last_modified_date_time_utc: string; minted_node_ids: Record<string, string> }>('add_bit', {
    bit_title: title,
    bit_body: body.markdown,
    ...(body.elements.length > 0 ? { elements: body.elements } : {}),
    ...(options.scopeId ? { scope_id: options.scopeId } : {}),
    ...(options.categories ? { bit_categories: options.categories } : {}),
    ...(options.abstract !== undefined ? { bit_abstract: options.abstract } : {}),
    ...(options.description !== undefined ? { bit_description: options.description } : {}),
    ...(options.humanRequired ? { human_required: true } : {}),
  });
  changed(added.last_modified_date_time_utc);
  if (options.archived) await archiveTestBit(author, added.bit_id, options.accountId);
  return { bit_id: added.bit_id, ids: added.minted_node_ids };
}

/** archive_bit: the bit is archived and its connections, in and out, are removed. */
export async function archiveTestBit(author: Author, bitId: string, accountId?: string): Promise<void> {
  const client = await clientFor(author, accountId);
  changed((await client.ok<{ last_modified_date_time_utc: string }>('archive_bit', { bit_id: bitId })).last_modified_date_time_utc);
}

function whenOf(when: ConnectionCondition): string {
  return 'checked' in when ? `${when.element_id}:${when.checked ? 'checked' : 'unchecked'}` : `${when.element_id}:${when.option_ids.join(',')}`;
}

/**
 * connect_bits, then, for a label, a `when` or a hidden preview, the source's connection line rewritten by
 * update_bit (a `when` can only be written on update: authoring-interface.md, Body syntax rule 4).
 */
export async function connectTestBits(
  author: Author,
  source: string,
  target: string,
  options: { label?: string | null; when?: ConnectionCondition; preview?: false } = {},
): Promise<string> {
  const client = await clientFor(author);
  const connected = await client.ok<{ connection_id: string; source_bit_last_modified_date_time_utc: string }>('connect_bits', { source_bit_id: source, target_bit_id: target });
  const connection_id = connected.connection_id;
  changed(connected.source_bit_last_modified_date_time_utc);
  if (options.label || options.when || options.preview === false) {
    const { bit_body } = await client.ok<{ bit_body: string }>('get_bit', { bit_id: source });
    const line = new RegExp(`\\[[^\\]]*\\]\\(bit-connection:${target}\\?node=${connection_id}\\)`);
    if (!line.test(bit_body)) throw new Error(`connection ${connection_id} is not a line of ${bit_body}`);
    const params = [`node=${connection_id}`, ...(options.when ? [`when=${whenOf(options.when)}`] : []), ...(options.preview === false ? ['preview=0'] : [])];
    const written = bit_body.replace(line, `[${options.label ?? '→'}](bit-connection:${target}?${params.join('&')})`);
    changed((await client.ok<{ last_modified_date_time_utc: string }>('update_bit', { bit_id: source, bit_body: written, content_format: 'markdown' })).last_modified_date_time_utc);
  }
  return connection_id;
}
