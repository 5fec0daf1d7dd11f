/**
 * Scaling: how the cost of get_bit, update_bit (writing back the markdown get_bit returned) and
 * search_references grows
 *
 * - with the body's size: 2 KB, 64 KB, 1 MB and 8 MB of stored JSON, cut from the construct-rich
 *   generator of bench/convert.ts (for search_references: references whose text is that size, 4 of each
 *   size, each size found by a word of its own);
 * - with the store's size: 1k, 10k and 100k bits and as many references (10k at most with --quick),
 *   inserted in batches through the store, not by tool calls (--quick also stops the bodies at 1 MB); get_bit and update_bit of one 2 KB bit,
 *   search_references of a word in exactly 20 references and of a word in 1% of them;
 *
 * on the embedded store and on PostgreSQL (a fresh database, dropped afterwards). Every figure is the
 * median of repeated calls through the real MCP server and SDK client (in-memory transport, token checked on
 * every call), and is shown as a ratio to the smallest size's cost in the same run.
 *
 *   npx tsx bench/scaling.ts [--quick]         writes bench/results/scaling.json
 *   BENCH_SCALING_ENGINES=sqlite,postgres     the engines; WAYMARK_BENCH_DATABASE_URL an admin URL
 *                                             (default postgres://postgres@127.0.0.1:5432/test)
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import { bodyByteLength, type SlateBody } from '../src/content/index.js';
import { LIMITS } from '../src/limits/index.js';
import { searchTexts } from '../src/content/search-text.js';
import { deriveAbstract } from '../src/services/references/content.js';
import { insertReferences } from '../src/store/repositories/references.repo.js';
import type { BitTable, ReferenceTable } from '../src/store/schema.js';
import type { Store } from '../src/store/store.js';
import { connectClient, type ToolClient } from '../test/harness.js';
import { initOwner, kb, openBenchStore, seedBodyDependencies, sizedBody, slateInput, type EngineName, type Owner } from './bodies.js';
import { isEntry, median, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

const BATCH = 500;
const BODY_SIZES: Array<[string, number, string]> = [
  ['2 KB', 2048, 'quartz'],
  ['64 KB', 64 * 1024, 'walrus'],
  ['1 MB', 1 << 20, 'nebula'],
  ['8 MB', LIMITS.bodyBytes - 64 * 1024, 'tundra'],
];
const REFS_PER_SIZE = 4;
/** In exactly this many references whatever the store's size, so the result's size does not grow with it. */
const FIXED_WORD = { word: 'zeppelin', hits: 20 };
/** In 1% of the references: the result grows with the store. */
const PERCENT_WORD = 'invoice';

/** A small deterministic PRNG (mulberry32), so every run loads the same store. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'da', 'fe', 'gu', 'ho', 'ji', 'pa', 're', 'zo', 'bel', 'cor', 'dun', 'mar'];

/** Prose of invented words drawn with a Zipf-like skew, in paragraphs of about 400 characters. */
function proseWriter(seed: number) {
  const random = prng(seed);
  const vocab = new Set<string>();
  while (vocab.size < 5000) {
    let w = '';
    for (let i = 0, n = 2 + Math.floor(random() * 3); i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    vocab.add(w);
  }
  const words = [...vocab];
  const sentence = () => {
    const text = Array.from({ length: 8 + Math.floor(random() * 8) }, () => words[Math.floor(words.length * random() ** 3)]).join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  /** Paragraphs totalling about `chars` characters, with each planted word in the first one. */
  return (chars: number, planted: string[]): string[] => {
    const paragraphs: string[] = [];
    let length = 0;
    while (length < chars) {
      let p = Array.from({ length: 4 }, sentence).join(' ');
      if (paragraphs.length === 0 && planted.length > 0) p = `${p} ${planted.join(' ')} ${sentence()}`;
      paragraphs.push(p);
      length += p.length + 1;
    }
    return paragraphs;
  };
}

function referenceRow(store: Store, owner: Owner, paragraphs: string[], title: string, now: string): Insertable<ReferenceTable> {
  const text = paragraphs.join('\n');
  return {
    id: randomUUID(),
    account_id: owner.accountId,
    scope_id: null,
    title,
    abstract: deriveAbstract(text),
    content: store.dialect.json(paragraphs.map((p) => ({ type: 'p', children: [{ text: p }] }))),
    ...searchTexts(text),
    categories: store.dialect.json([]),
    is_active: 1,
    author_principal_id: owner.actor.principalId,
    created_at: now,
    updated_at: now,
  };
}

/** Calls fn until the budget is spent (at least min, at most max times) after `warm` unmeasured calls; the median in ms. */
async function medianMs(fn: () => Promise<unknown>, opts: { budgetMs: number; min: number; max: number; warm: number }): Promise<number> {
  for (let i = 0; i < opts.warm; i++) await fn();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < opts.min || (samples.length < opts.max && performance.now() - started < opts.budgetMs)) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

interface Probe {
  client: ToolClient;
  bitId: string;
  markdown: string;
}

async function probeBit(client: ToolClient, owner: Owner, store: Store, body: SlateBody, title: string): Promise<Probe> {
  await seedBodyDependencies(store, owner, body);
  const added = await client.ok<{ bit_id: string }>('add_bit', { bit_title: title, bit_body: slateInput(body), content_format: 'slate' });
  const got = await client.ok<{ bit_body: string }>('get_bit', { bit_id: added.bit_id });
  return { client, bitId: added.bit_id, markdown: got.bit_body };
}

const getBit = (p: Probe) => () => p.client.ok('get_bit', { bit_id: p.bitId });
const updateBit = (p: Probe) => () => p.client.ok('update_bit', { bit_id: p.bitId, bit_body: p.markdown, content_format: 'markdown' });
const search = (client: ToolClient, query: string) => () => client.ok('search_references', { query });

async function benchEngine(engine: EngineName, quick: boolean): Promise<{ rows: BenchResult['rows']; notes: string[] }> {
  const bs = await openBenchStore(engine);
  const rows: BenchResult['rows'] = [];
  const notes: string[] = [];
  try {
    const { store } = bs;
    const owner = await initOwner(store);
    const client = await connectClient(owner.services, owner.token);
    const now = new Date().toISOString();
    const analyze = async () => {
      if (engine === 'postgres') await sql`ANALYZE`.execute(store.db);
    };

    // ---- the body's size
    const write = proseWriter(7);
    const perSize: Array<{ label: string; bytes: number; markdownBytes: number; get: number; update: number; search: number }> = [];
    for (const [label, target, word] of quick ? BODY_SIZES.slice(0, 3) : BODY_SIZES) {
      const body = sizedBody(target, 2);
      const probe = await probeBit(client, owner, store, body, `A ${label} step`);
      const refs = Array.from({ length: REFS_PER_SIZE }, (_, i) => referenceRow(store, owner, write(target, [word]), `${label} reference ${i}`, now));
      await store.transaction((tx) => insertReferences(tx, refs));
      await analyze();
      const big = target > 256 * 1024;
      const budget = { budgetMs: quick ? 500 : 1500, min: big ? (quick ? 2 : 3) : 5, max: 100, warm: big ? 1 : 3 };
      const get = await medianMs(getBit(probe), budget);
      const update = await medianMs(updateBit(probe), budget);
      const found = await medianMs(search(client, word), budget);
      perSize.push({ label, bytes: bodyByteLength(body), markdownBytes: Buffer.byteLength(probe.markdown), get, update, search: found });
      console.log(`[scaling ${engine}] body ${label}: get_bit ${round(get)} ms, update_bit ${round(update)} ms, search_references ${round(found)} ms`);
    }
    const b0 = perSize[0] as (typeof perSize)[number];
    for (const s of perSize) {
      rows.push({
        engine,
        series: 'body size',
        size: s.label,
        detail: `${kb(s.bytes)} JSON, ${kb(s.markdownBytes)} md`,
        'get_bit ms': round(s.get),
        'get_bit ×': round(s.get / b0.get),
        'update_bit ms': round(s.update),
        'update_bit ×': round(s.update / b0.update),
        'search ms': round(s.search),
        'search ×': round(s.search / b0.search),
        'size ×': round(s.bytes / b0.bytes),
      });
    }

    // ---- the store's size
    const filler = sizedBody(2048, 0);
    const fillerJson = store.dialect.json(filler);
    const probe = await probeBit(client, owner, store, sizedBody(2048, 2), 'The probe step');
    const small = proseWriter(11);
    const targets = quick ? [1000, 10_000] : [1000, 10_000, 100_000];
    const perStore: Array<{ n: number; loadS: number; get: number; update: number; fixed: number; percent: number }> = [];
    let have = 0;
    for (const n of targets) {
      const loadStarted = performance.now();
      for (let start = have; start < n; start += BATCH) {
        const count = Math.min(BATCH, n - start);
        const bits: Array<Insertable<BitTable>> = Array.from({ length: count }, (_, i) => ({
          id: randomUUID(),
          account_id: owner.accountId,
          scope_id: null,
          title: `Filler step ${start + i}`,
          abstract: null,
          description: null,
          body: fillerJson,
          categories: store.dialect.json([`c${(start + i) % 20}`]),
          complexity: 'medium',
          human_required: 0,
          status: 'active',
          created_by: owner.actor.principalId,
          created_at: now,
          updated_at: now,
        }));
        const refs = Array.from({ length: count }, (_, i) => {
          const k = start + i;
          const planted = [...(k < FIXED_WORD.hits ? [FIXED_WORD.word] : []), ...(k % 100 === 50 ? [PERCENT_WORD] : [])];
          return referenceRow(store, owner, small(300, planted), `Filler reference ${k}`, now);
        });
        await store.transaction(async (tx) => {
          await tx.insertInto('bits').values(bits).execute();
          await insertReferences(tx, refs);
        });
      }
      have = n;
      await analyze();
      const loadS = (performance.now() - loadStarted) / 1000;
      const budget = { budgetMs: quick ? 500 : 1500, min: 5, max: 200, warm: 3 };
      const get = await medianMs(getBit(probe), budget);
      const update = await medianMs(updateBit(probe), budget);
      const fixed = await medianMs(search(client, FIXED_WORD.word), budget);
      const percent = await medianMs(search(client, PERCENT_WORD), budget);
      perStore.push({ n, loadS, get, update, fixed, percent });
      console.log(`[scaling ${engine}] store ${n}: loaded in ${round(loadS)} s; get_bit ${round(get)} ms, update_bit ${round(update)} ms, search ${round(fixed)} / ${round(percent)} ms`);
    }
    const s0 = perStore[0] as (typeof perStore)[number];
    for (const s of perStore) {
      rows.push({
        engine,
        series: 'store size',
        size: `${s.n / 1000}k bits`,
        detail: `+${s.n / 1000}k references`,
        'get_bit ms': round(s.get),
        'get_bit ×': round(s.get / s0.get),
        'update_bit ms': round(s.update),
        'update_bit ×': round(s.update / s0.update),
        'search ms': round(s.fixed),
        'search ×': round(s.fixed / s0.fixed),
        'search 1% ms': round(s.percent),
        'search 1% ×': round(s.percent / s0.percent),
        'size ×': round(s.n / s0.n),
      });
    }
    notes.push(
      `${engine}: the store-size series loaded ${have} bits of ${kb(bodyByteLength(filler))} and ${have} references of about 300 characters in batches of ${BATCH} (last step ${round((perStore[perStore.length - 1] as (typeof perStore)[number]).loadS)} s).`,
    );
    await client.close();
    return { rows, notes };
  } finally {
    await bs.dispose();
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const quick = options.quick === true;
  const engines = (process.env.BENCH_SCALING_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as EngineName[];
  const rows: BenchResult['rows'] = [];
  const notes: string[] = [
    'Each figure is the median of repeated calls through the MCP server and SDK client (in-memory transport); "×" is the ratio to the smallest size in the same run. "size ×" is how much the size itself grew.',
    `Body-size series: get_bit and update_bit of one bit per size (2 connections, every construct); search_references of a word found in the ${REFS_PER_SIZE} references whose text is that size (the snippet is cut from the whole text). Store-size series: a 2 KB probe bit; search of a word in exactly ${FIXED_WORD.hits} references ("search") and of one in 1% of them ("search 1%").`,
  ];
  if (quick) notes.push('Quick run: bodies up to 1 MB and stores up to 10k bits; the full run goes to 8 MB and 100k.');
  for (const engine of engines) {
    const result = await benchEngine(engine, quick);
    rows.push(...result.rows);
    notes.push(...result.notes);
  }
  const result: BenchResult = { name: 'scaling', rows, bars: [], notes };
  writeResult(result);
  return result;
}

if (isEntry(import.meta.url)) runAsScript(run);
