/**
 * How a revision is stored (migration 014): a resource's state is its fields and its top-level body nodes (a bit's
 * body children, a reference's content; a flow has none). A revision is stored whole (`full`) or as a `delta`
 * against the revision before it: runs of the previous nodes it copies and the nodes it adds, so a one-paragraph
 * edit of a 1 MB body stores about that paragraph. Both are JSON, deflated.
 *
 * A reader of revision n reads the last full revision at or before n and the deltas after it; `chain_bytes`
 * counts those stored bytes, and a new revision is stored whole once its chain would pass the state's own size,
 * so reading any revision reads at most about twice its state.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';

export interface RevisionState {
  fields: Record<string, unknown>;
  nodes: unknown[];
}

/** A copy of `count` previous nodes from `start`, or nodes added. */
type Op = [start: number, count: number] | { add: unknown[] };

interface FullData {
  v: 1;
  fields: Record<string, unknown>;
  nodes: unknown[];
}
interface DeltaData {
  v: 1;
  fields: Record<string, unknown>;
  ops: Op[];
}

export interface StoredRevision {
  kind: 'full' | 'delta';
  data: Uint8Array;
  chain_bytes: number;
}

// Compression runs on libuv's thread pool, off the event loop: a revision of an 8 MB body is megabytes to deflate.
const deflated = promisify(deflate);
const inflated = promisify(inflate);
const pack = async (value: unknown): Promise<Buffer> => deflated(Buffer.from(JSON.stringify(value)));
const unpack = async <T>(data: Uint8Array): Promise<T> => JSON.parse((await inflated(data)).toString('utf8')) as T;

/** Nodes written out as JSON a batch at a time, the event loop let go between batches: a large body has thousands. */
const BATCH = 256;
async function textsOf(nodes: readonly unknown[]): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (i > 0 && i % BATCH === 0) await yieldToEventLoop();
    texts.push(JSON.stringify(nodes[i]));
  }
  return texts;
}

/**
 * The ops that build `next` from `previous`: each node found among the previous ones (by its JSON) is copied,
 * extending the run before it where it can; the rest are added.
 */
function delta(previous: readonly string[], next: readonly string[], nodes: readonly unknown[]): Op[] {
  const firstAt = new Map<string, number>();
  previous.forEach((text, i) => {
    if (!firstAt.has(text)) firstAt.set(text, i);
  });
  const ops: Op[] = [];
  next.forEach((text, i) => {
    const last = ops.at(-1);
    if (Array.isArray(last) && previous[last[0] + last[1]] === text) {
      last[1]++;
      return;
    }
    const at = firstAt.get(text);
    if (at !== undefined) ops.push([at, 1]);
    else if (last && !Array.isArray(last)) last.add.push(nodes[i]);
    else ops.push({ add: [nodes[i]] });
  });
  return ops;
}

/**
 * How to store `next` after `previous` (the state of the revision before, and how it is stored): a delta, unless
 * it has none before it or the chain a reader would read passes the state's own size.
 */
export async function encodeRevision(next: RevisionState, previous: { state: RevisionState; chain_bytes: number } | null): Promise<StoredRevision> {
  const texts = await textsOf(next.nodes);
  if (previous) {
    const data = await pack({ v: 1, fields: next.fields, ops: delta(await textsOf(previous.state.nodes), texts, next.nodes) } satisfies DeltaData);
    const size = texts.reduce((sum, t) => sum + t.length, 0);
    if (previous.chain_bytes + data.length <= Math.max(size / 2, 4096)) return { kind: 'delta', data, chain_bytes: previous.chain_bytes + data.length };
  }
  const data = await pack({ v: 1, fields: next.fields, nodes: next.nodes } satisfies FullData);
  return { kind: 'full', data, chain_bytes: data.length };
}

/** The state of the last of `chain`: a full revision and the deltas after it, in order. */
export async function decodeChain(chain: ReadonlyArray<{ kind: string; data: Uint8Array }>): Promise<RevisionState> {
  let state: RevisionState | null = null;
  for (const row of chain) {
    if (row.kind === 'full') {
      const full = await unpack<FullData>(row.data);
      state = { fields: full.fields, nodes: full.nodes };
      continue;
    }
    if (!state) throw new Error('a revision delta without the full revision before it');
    const d = await unpack<DeltaData>(row.data);
    const nodes: unknown[] = [];
    for (const op of d.ops) {
      if (Array.isArray(op)) for (let i = op[0]; i < op[0] + op[1]; i++) nodes.push(state.nodes[i]);
      else for (const node of op.add) nodes.push(node);
    }
    state = { fields: d.fields, nodes };
  }
  if (!state) throw new Error('an empty revision chain');
  return state;
}
