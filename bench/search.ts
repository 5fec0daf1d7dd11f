/**
 * search_references at scale: 100,000 generated references of about 1 KB, loaded in batches through the
 * references repository, then the latency of search_references over MCP (a real SDK client over the
 * in-memory transport, with token auth on every call, timed around callTool) against the same query run directly on the store,
 * in the same run, for a rare, a typical and a very common word, on SQLite and on PostgreSQL.
 * It also pages through every hit of the typical word with the cursor and checks each comes exactly once.
 *
 *   npx tsx bench/search.ts            (or through the bench runner: run())
 *   WAYMARK_BENCH_DATABASE_URL=postgres://…   an admin URL; default postgres://postgres@127.0.0.1:5432/test.
 *   BENCH_SEARCH_REFERENCES=100000, BENCH_SEARCH_ITERATIONS=60, BENCH_SEARCH_ENGINES=sqlite,postgres to change it.
 * A fresh database (or directory) is made for each engine and dropped afterwards.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { capabilityName } from '../src/config.js';
import { createServices } from '../src/services/index.js';
import { searchTexts } from '../src/content/search-text.js';
import { deriveAbstract, referenceText } from '../src/services/references/content.js';
import { parseSearchQuery } from '../src/services/references/query.js';
import type { ReferenceSearchQuery } from '../src/store/dialects/dialect.js';
import { insertReferences, searchReferences } from '../src/store/repositories/references.repo.js';
import type { ReferenceTable } from '../src/store/schema.js';
import { openStore, type Store } from '../src/store/store.js';
import { connectClient } from '../test/harness.js';
import { LIMITS } from '../src/limits/index.js';

const REFERENCES = Number(process.env.BENCH_SEARCH_REFERENCES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_SEARCH_ITERATIONS ?? 60);
const WARMUP = 5;
const BATCH = 500;
const BAR = 1.5;
const ADMIN_URL = process.env.WAYMARK_BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** The three query words, planted at known rates in text otherwise made of invented words. */
const WORDS = {
  rare: { word: 'zeppelin', every: 20_000 },
  typical: { word: 'invoice', every: 100 },
  common: { word: 'process', every: 1.1 },
} as const;

/** A small deterministic PRNG (mulberry32), so every run loads the same library. */
function prng(seed: number) {
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

/** 5,000 invented words, drawn with a Zipf-like skew as real text is. */
function vocabulary(random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < 5000) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

function generator(seed: number) {
  const random = prng(seed);
  const vocab = vocabulary(random);
  const word = () => vocab[Math.floor(vocab.length * random() ** 3)] as string;
  const sentence = (extra: string[]) => {
    const parts = Array.from({ length: 8 + Math.floor(random() * 8) }, word);
    for (const e of extra) parts.splice(Math.floor(random() * parts.length), 0, e);
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  return (index: number, accountId: string, authorId: string, now: string) => {
    const planted = Object.values(WORDS)
      .filter((w) => (w.every < 2 ? random() < 1 / w.every : index % w.every === 7))
      .map((w) => w.word);
    const paragraphs: Array<{ type: string; children: Array<{ text: string }> }> = [];
    let length = 0;
    while (length < 950) {
      const text = Array.from({ length: 3 }, (_, i) => sentence(paragraphs.length === 1 && i === 0 ? planted : [])).join(' ');
      paragraphs.push({ type: 'p', children: [{ text }] });
      length += text.length;
    }
    const text = referenceText(paragraphs);
    const row: ReferenceTable = {
      id: randomUUID(),
      account_id: accountId,
      scope_id: null,
      title: sentence([]).slice(0, 60),
      abstract: deriveAbstract(text),
      content: JSON.stringify(paragraphs),
      ...searchTexts(text),
      categories: JSON.stringify([`c${index % 20}`]),
      is_active: 1,
      author_principal_id: authorId,
      created_at: now,
      updated_at: now,
    };
    return row;
  };
}

interface Stats {
  median_ms: number;
  p95_ms: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { median_ms: round(at(0.5)), p95_ms: round(at(0.95)) };
}

interface Engine {
  name: 'sqlite' | 'postgres';
  store: Store;
  dispose(): Promise<void>;
}

async function openEngine(name: Engine['name']): Promise<Engine> {
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-bench-'));
    const store = openStore({ dataDir: dir });
    return { name, store, dispose: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
  }
  const database = `waymark_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  // The bench's own queries for every hit (10,000,000 rows with snippets) are not requests: no statement timeout.
  const store = openStore({ databaseUrl: url.href, statementTimeoutMs: 0 });
  return { name, store, dispose: async () => { await store.close(); await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`); } };
}

async function benchEngine(name: Engine['name']): Promise<Record<string, unknown>> {
  const engine = await openEngine(name);
  try {
    const { store } = engine;
    await store.migrate();
    const services = createServices(store);
    const accountId = await services.auth.createAccount('bench');
    const issued = await services.auth.createToken({ accountId, permission: 'admin', capabilities: [capabilityName('read'), capabilityName('author')] });
    const client = await connectClient(services, issued.token);

    const make = generator(42);
    const now = new Date().toISOString();
    const loadStarted = performance.now();
    let bytes = 0;
    for (let start = 0; start < REFERENCES; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, REFERENCES - start) }, (_, i) => make(start + i, accountId, issued.principalId, now));
      for (const r of rows) bytes += r.search_text.length;
      await store.transaction((tx) => insertReferences(tx, rows));
    }
    if (name === 'postgres') await sql`ANALYZE library_references`.execute(store.db);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    console.log(`[${name}] loaded ${REFERENCES} references (${Math.round(bytes / REFERENCES)} chars of text each) in ${loadSeconds.toFixed(1)} s`);

    const directQuery = (word: string, limit: number, after?: ReferenceSearchQuery['after']): ReferenceSearchQuery => ({
      seen: { accountId, scopeId: null },
      terms: parseSearchQuery(word),
      includeArchived: false,
      limit,
      ...(after ? { after } : {}),
    });

    // The fixed cost of one MCP call (JSON-RPC, token lookup, envelope, output schema checks on both
    // sides), measured on a call that does almost nothing: get_reference of an id that does not exist.
    const floor: number[] = [];
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const t = performance.now();
      await client.client.callTool({ name: 'get_reference', arguments: { reference_id: 'none' } });
      if (i >= WARMUP) floor.push(performance.now() - t);
    }
    const mcpFloor = stats(floor);
    console.log(`[${name}] MCP floor (get_reference, not found): median ${mcpFloor.median_ms} ms p95 ${mcpFloor.p95_ms} ms`);

    const words: Record<string, unknown> = {};
    for (const [kind, { word }] of Object.entries(WORDS)) {
      const all = await searchReferences(store.db, store.dialect, directQuery(word, 10_000_000));
      // The service asks for one row more than the page, to know whether there is a next page.
      const same = directQuery(word, LIMITS.defaultSearchLimit + 1);
      const mcp: number[] = [];
      const direct: number[] = [];
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        // Interleaved, so that both sides see the same cache and machine state.
        let t = performance.now();
        const result = await client.client.callTool({ name: 'search_references', arguments: { query: word } });
        const mcpMs = performance.now() - t;
        if (result.isError) throw new Error(`search_references failed: ${JSON.stringify(result.structuredContent)}`);
        t = performance.now();
        await searchReferences(store.db, store.dialect, same);
        const directMs = performance.now() - t;
        if (i >= WARMUP) {
          mcp.push(mcpMs);
          direct.push(directMs);
        }
      }
      const m = stats(mcp);
      const d = stats(direct);
      const ratio = Math.round((m.median_ms / d.median_ms) * 100) / 100;
      words[kind] = { word, hits: all.length, mcp: m, direct: d, median_ratio: ratio, within_bar: ratio <= BAR };
      console.log(
        `[${name}] ${kind.padEnd(7)} '${word}' ${String(all.length).padStart(6)} hits  MCP median ${m.median_ms} ms p95 ${m.p95_ms} ms | direct median ${d.median_ms} ms p95 ${d.p95_ms} ms | ratio ${ratio} (bar ${BAR})`,
      );
    }

    // Paging: every hit of the typical word, 100 a page, through MCP, exactly once.
    const word = WORDS.typical.word;
    const expected = (await searchReferences(store.db, store.dialect, directQuery(word, 10_000_000))).map((h) => h.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { results: Array<{ reference_id: string }>; next_cursor: string | null } = await client.ok('search_references', { query: word, limit: 100, ...(cursor ? { cursor } : {}) });
      seen.push(...page.results.map((r) => r.reference_id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    const unique = new Set(seen);
    const paging = {
      word,
      pages,
      hits: expected.length,
      returned: seen.length,
      duplicates: seen.length - unique.size,
      missing: expected.filter((id) => !unique.has(id)).length,
      same_order_as_one_query: JSON.stringify(seen) === JSON.stringify(expected),
    };
    const pagingOk = paging.duplicates === 0 && paging.missing === 0 && paging.returned === paging.hits;
    console.log(`[${name}] paging '${word}': ${pages} pages, ${seen.length}/${expected.length} hits, ${paging.duplicates} duplicates, ${paging.missing} missing → ${pagingOk ? 'every hit exactly once' : 'FAILED'}`);
    await client.close();
    return { engine: name, references: REFERENCES, text_chars_per_reference: Math.round(bytes / REFERENCES), load_seconds: Math.round(loadSeconds * 10) / 10, iterations: ITERATIONS, mcp_floor: mcpFloor, words, paging: { ...paging, ok: pagingOk } };
  } finally {
    await engine.dispose();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const engines = (process.env.BENCH_SEARCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine['name'][];
  const results: Record<string, unknown> = { bench: 'search_references', bar: `MCP median ≤ ${BAR}× direct median`, when: new Date().toISOString() };
  for (const name of engines) results[name] = await benchEngine(name);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/search.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log('written bench/results/search.json');
  return results;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  run().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
