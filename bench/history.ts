/**
 * History (issue 26): what keeping every accepted change as a revision costs, on the embedded store and on
 * PostgreSQL, through `waymark serve` and the SDK client over Streamable HTTP.
 *
 * - Storage grows with the change, not the body: one bit of about 1 MB of markdown prose (sentences drawn from
 *   a word list by a seeded PRNG, in paragraphs under an occasional heading), then 100 update_bit calls that each
 *   rewrite one sentence of one paragraph (the whole body sent back, as an agent does). What the history's
 *   tables (`revisions`, `events`, with their indexes) grow by over the 100 edits, against a bar of 2 MB
 *   (2 × 2^20 bytes); beside it what the whole store grows by (SQLite: the file and its WAL after a
 *   checkpoint; PostgreSQL: pg_database_size after a plain VACUUM) and what 100 full copies would have cost.
 * - Reading any revision stays within 3× get_bit of the current one: get_revision (markdown) of revisions 1,
 *   50, 99 and the latest against get_bit of the bit now, through the same client, interleaved in rounds (the
 *   order rotated each round); the figure is the median over rounds of each call's time over get_bit's in the
 *   same round. diff_revisions of two adjacent revisions the same way, without a bar.
 *
 * Every revision read is first checked against the markdown sent for it (sha-256), so the figures are of
 * correct answers.
 *
 *   npx tsx bench/history.ts [--quick]        writes bench/results/history.json
 *   BENCH_HISTORY_ENGINES=sqlite,postgres    the engines; WAYMARK_BENCH_DATABASE_URL an admin URL
 *                                             (default postgres://postgres@127.0.0.1:5432/test)
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Store } from '../src/store/store.js';
import { initOwner, kb, openBenchStore, type BenchStore, type EngineName } from './bodies.js';
import { startListening, stopChild } from './processes.js';
import { isEntry, median, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

const BIN = fileURLToPath(new URL('../bin/waymark.js', import.meta.url));
const BODY_CHARS = 1 << 20;
const EDITS = 100;
const STORAGE_BAR = 2 * (1 << 20);
const READ_BAR = 3;
const HISTORY_TABLES = ['revisions', 'events'];

/** A small deterministic PRNG (mulberry32), so every run writes the same body and the same edits. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = `the of and to a in is it that for on was with as be by this are or at from have an not they which one you were
all we can her has there been if more when will would who so no out up into do than its only other new some could time these
two may then first any my now such like our over man me even most made after also did many before must through back years
where much your way well down should because each just those people how too little state good very make world still own see
men work long get here between both life being under never day same another know while last might us great old year off come
since against go came right used take three states himself few house use during without again place around however home small
found thought went say part once general high upon school every does got united left number course war until always away
something fact though water less public put think almost hand enough far took head yet government system better set told
nothing night end why called did eyes find going look asked later knew point next program city business give group toward
young days let room president side social present given several order national possible rather second face per among form
important often things looked early white case john become large big need four within felt along children saw best church
ever least power development light thing seemed family interest want members mind country area others done turned although
open problem began service certain kind different thus door himself means whole sense action line experience field week process
step valve pressure gauge reading log checklist operator shift supervisor inspection maintenance record batch sample label
storage cabinet ticket request approval review audit signature form entry report incident safety hazard guard lockout tag
calibrate measure adjust replace clean verify confirm escalate notify schedule assign complete document archive retain
customer supplier invoice payment refund order shipment delivery warehouse pallet scanner barcode inventory count variance
policy procedure standard exception deviation correction prevention training competence handover backup restore network
server account password access badge visitor contractor permit ladder scaffold harness glove goggle helmet vehicle forklift
temperature humidity threshold alarm sensor pump motor belt bearing filter hose nozzle tank drum spill kit extinguisher`
  .split(/\s+/)
  .filter(Boolean);

/** Prose of the word list drawn with a Zipf-like skew: sentences of 8–22 words, an occasional comma. */
function proseWriter(seed: number) {
  const random = prng(seed);
  const word = () => WORDS[Math.floor(WORDS.length * random() ** 2.2)] as string;
  const sentence = (): string => {
    const n = 8 + Math.floor(random() * 15);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(i > 2 && i < n - 2 && random() < 0.08 ? `${word()},` : word());
    const text = words.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = (): string => Array.from({ length: 3 + Math.floor(random() * 5) }, sentence).join(' ');
  const heading = (n: number): string => `## Section ${n}: ${sentence().slice(0, -1).split(' ').slice(0, 5).join(' ')}`;
  return { random, sentence, paragraph, heading };
}

/** About `chars` characters of markdown blocks: paragraphs, and a heading before every 20th or so. */
function writeBlocks(writer: ReturnType<typeof proseWriter>, chars: number): string[] {
  const blocks: string[] = [];
  let length = 0;
  let section = 0;
  while (length < chars) {
    const block = blocks.length % 21 === 0 ? writer.heading(++section) : writer.paragraph();
    blocks.push(block);
    length += block.length + 2;
  }
  return blocks;
}

const sha = (text: string) => createHash('sha256').update(text.trimEnd()).digest('hex');

interface Tools {
  call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

async function connect(url: string, token: string): Promise<Tools> {
  const client = new Client({ name: 'bench-history', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return {
    async call<T>(name: string, args: Record<string, unknown>): Promise<T> {
      const result = await client.callTool({ name, arguments: args });
      const envelope = result.structuredContent as { success?: boolean; data?: T; error?: unknown } | undefined;
      if (!envelope?.success) throw new Error(`${name} failed: ${JSON.stringify(envelope?.error ?? result).slice(0, 500)}`);
      return envelope.data as T;
    },
    close: () => client.close(),
  };
}

interface Storage {
  /** The history's tables with their indexes (and TOAST on PostgreSQL), bytes. */
  history: number;
  /** The revisions' stored data alone (sum of length(data)): the codec's output, the same on both engines. */
  revisionData: number;
  revisionRows: number;
  /** The whole store, bytes. */
  whole: number;
  /** Every table with its indexes, bytes. */
  tables: Map<string, number>;
  /** SQLite: the file's free pages, bytes (space freed and kept for reuse); PostgreSQL: not measured (0). */
  free: number;
}

async function measureStorage(bs: BenchStore): Promise<Storage> {
  const db = bs.store.db;
  const data = await sql<{ bytes: number | string | null; n: number | string }>`select sum(length(data)) as bytes, count(*) as n from revisions`.execute(db);
  const revisionData = Number(data.rows[0]?.bytes ?? 0);
  const revisionRows = Number(data.rows[0]?.n ?? 0);
  const tables = new Map<string, number>();
  let whole: number;
  let free = 0;
  if (bs.engine === 'postgres') {
    // A plain VACUUM (no rewrite): dead row versions of the bit's rewrites are freed for reuse; the files keep their size.
    await sql`vacuum`.execute(db);
    const rows = await sql<{ name: string; bytes: string }>`
      select c.relname as name, pg_total_relation_size(c.oid)::text as bytes from pg_class c
      join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname = current_schema()`.execute(db);
    for (const r of rows.rows) tables.set(r.name, Number(r.bytes));
    const size = await sql<{ bytes: string }>`select pg_database_size(current_database())::text as bytes`.execute(db);
    whole = Number(size.rows[0]?.bytes);
  } else {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    // dbstat: the pages each b-tree (table or index) holds, overflow pages included; free pages are no one's.
    const rows = await sql<{ name: string; bytes: number }>`
      select m.tbl_name as name, sum(s.pgsize) as bytes from dbstat s join sqlite_master m on m.name = s.name group by m.tbl_name`.execute(db);
    for (const r of rows.rows) tables.set(r.name, Number(r.bytes));
    const file = join(bs.env.WAYMARK_DATA_DIR as string, 'waymark.db');
    whole = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    const pages = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
    const pageSize = await sql<{ page_size: number }>`pragma page_size`.execute(db);
    free = Number(pages.rows[0]?.freelist_count ?? 0) * Number(pageSize.rows[0]?.page_size ?? 0);
  }
  const history = HISTORY_TABLES.reduce((sum, t) => sum + (tables.get(t) ?? 0), 0);
  return { history, revisionData, revisionRows, whole, tables, free };
}

async function revisionRows(store: Store, bitId: string): Promise<Map<number, { kind: string; bytes: number; chainBytes: number }>> {
  const rows = await sql<{ revision: number; kind: string; bytes: number; chain_bytes: number }>`
    select revision, kind, length(data) as bytes, chain_bytes from revisions where resource_id = ${bitId} order by revision`.execute(store.db);
  return new Map(rows.rows.map((r) => [Number(r.revision), { kind: r.kind, bytes: Number(r.bytes), chainBytes: Number(r.chain_bytes) }]));
}

interface Target {
  label: string;
  call: () => Promise<unknown>;
  revision?: number;
}

async function benchEngine(engine: EngineName, quick: boolean): Promise<{ rows: BenchResult['rows']; bars: BenchResult['bars']; notes: string[]; details: Record<string, unknown> }> {
  const bs = await openBenchStore(engine);
  let child: ChildProcess | undefined;
  let tools: Tools | undefined;
  try {
    const owner = await initOwner(bs.store);
    const server = await startListening([BIN, 'serve', '--port', '0'], bs.env);
    child = server.child;
    tools = await connect(server.url, owner.token);
    const t = tools;

    // ---- the body, and the 100 edits
    const writer = proseWriter(26);
    const blocks = writeBlocks(writer, BODY_CHARS);
    const markdown = () => blocks.join('\n\n');
    const first = markdown();
    const bodyBytes = Buffer.byteLength(first);
    const { bit_id: bitId } = await t.call<{ bit_id: string }>('add_bit', { bit_title: 'A 1 MB procedure', bit_body: first, content_format: 'markdown' });
    const sent = new Map<number, string>([[1, sha(first)]]);
    const got = await t.call<{ bit_body: string }>('get_bit', { bit_id: bitId });
    if (sha(got.bit_body) !== sent.get(1)) throw new Error(`${engine}: get_bit does not answer the markdown add_bit was given`);
    const before = await measureStorage(bs);
    const firstRevision = (await revisionRows(bs.store, bitId)).get(1);
    if (!firstRevision) throw new Error(`${engine}: add_bit kept no revision 1`);

    const updateMs: number[] = [];
    const paragraphs = blocks.map((b, i) => (b.startsWith('#') ? -1 : i)).filter((i) => i >= 0);
    for (let e = 0; e < EDITS; e++) {
      const at = paragraphs[Math.floor(writer.random() * paragraphs.length)] as number;
      // One sentence of the paragraph rewritten: a one-paragraph edit, the rest of the body sent back as it was.
      const sentences = (blocks[at] as string).split(/(?<=\.) /);
      sentences[Math.floor(writer.random() * sentences.length)] = writer.sentence();
      blocks[at] = sentences.join(' ');
      const text = markdown();
      const started = performance.now();
      await t.call('update_bit', { bit_id: bitId, bit_body: text, content_format: 'markdown' });
      updateMs.push(performance.now() - started);
      sent.set(e + 2, sha(text));
    }
    const latest = EDITS + 1;
    const after = await measureStorage(bs);
    const stored = await revisionRows(bs.store, bitId);
    if (stored.size !== latest) throw new Error(`${engine}: ${stored.size} revisions kept for ${latest} changes`);
    const fulls = [...stored.values()].filter((r) => r.kind === 'full').length;
    console.log(`[history ${engine}] ${EDITS} edits of a ${kb(bodyBytes)} body: update_bit median ${round(median(updateMs))} ms; history +${after.history - before.history} bytes`);

    // ---- reads
    const reads = [1, 50, 99, latest];
    for (const revision of reads) {
      const view = await t.call<{ bit: { bit_body: string } }>('get_revision', { resource_type: 'bit', resource_id: bitId, revision, format: 'markdown' });
      if (sha(view.bit.bit_body) !== sent.get(revision)) throw new Error(`${engine}: get_revision ${revision} does not answer the markdown sent for it`);
    }
    const diffFrom = 50;
    const diff = await t.call<{ from_revision: number; to_revision: number }>('diff_revisions', { resource_type: 'bit', resource_id: bitId, from: diffFrom, to: diffFrom + 1 });
    if (diff.from_revision !== diffFrom || diff.to_revision !== diffFrom + 1) throw new Error(`${engine}: diff_revisions answered ${diff.from_revision}→${diff.to_revision}`);
    const targets: Target[] = [
      { label: 'get_bit (current)', call: () => t.call('get_bit', { bit_id: bitId }) },
      ...reads.map((revision) => ({
        label: `get_revision ${revision}${revision === latest ? ' (latest)' : ''}`,
        revision,
        call: () => t.call('get_revision', { resource_type: 'bit', resource_id: bitId, revision, format: 'markdown' }),
      })),
      { label: `diff_revisions ${diffFrom}→${diffFrom + 1}`, call: () => t.call('diff_revisions', { resource_type: 'bit', resource_id: bitId, from: diffFrom, to: diffFrom + 1 }) },
    ];
    const rounds = quick ? 5 : 11;
    const samples = new Map<string, number[]>(targets.map((x) => [x.label, []]));
    for (let r = -2; r < rounds; r++) {
      // Two rounds unmeasured (the JIT, the store's caches), then the order rotated each round.
      for (let k = 0; k < targets.length; k++) {
        const target = targets[((r + 2) * 2 + k) % targets.length] as Target;
        const started = performance.now();
        await target.call();
        if (r >= 0) (samples.get(target.label) as number[]).push(performance.now() - started);
      }
    }
    const base = samples.get('get_bit (current)') as number[];
    const chainOf = (revision: number) => {
      let n = 0;
      for (let k = revision; k >= 0; k--) {
        const row = stored.get(k);
        if (!row) break;
        n++;
        if (row.kind === 'full') break;
      }
      return n;
    };

    const growth = after.history - before.history;
    const wholeGrowth = after.whole - before.whole;
    const fullCopies = EDITS * firstRevision.bytes;
    const rows: BenchResult['rows'] = [
      {
        engine,
        measure: 'history growth, 100 edits',
        bytes: growth,
        'vs 2 MB bar': round(growth / STORAGE_BAR),
        'vs body': round(growth / bodyBytes),
        detail: `revisions + events with indexes; ${after.revisionRows - before.revisionRows} revisions of ${after.revisionData - before.revisionData} data bytes, ${fulls} full of ${latest}`,
      },
      {
        engine,
        measure: 'whole store growth, 100 edits',
        bytes: wholeGrowth,
        'vs 2 MB bar': round(wholeGrowth / STORAGE_BAR),
        'vs body': round(wholeGrowth / bodyBytes),
        detail: engine === 'postgres' ? 'pg_database_size after a plain VACUUM' : `file + WAL after a TRUNCATE checkpoint; of which free pages +${after.free - before.free}`,
      },
      {
        engine,
        measure: 'history before the edits',
        bytes: before.history,
        'vs body': round(before.history / bodyBytes),
        detail: `init's events, add_bit's event and revision 1 (stored full: ${firstRevision.bytes} bytes deflated)`,
      },
      {
        engine,
        measure: '100 full copies, deflated',
        bytes: fullCopies,
        'vs 2 MB bar': round(fullCopies / STORAGE_BAR),
        'vs body': round(fullCopies / bodyBytes),
        detail: '100 × revision 1 as stored (a full revision per edit)',
      },
      {
        engine,
        measure: '100 full copies, raw',
        bytes: EDITS * bodyBytes,
        'vs 2 MB bar': round((EDITS * bodyBytes) / STORAGE_BAR),
        'vs body': EDITS,
        detail: '100 × the markdown body, uncompressed',
      },
    ];
    const bars: BenchResult['bars'] = [{ name: `${engine}: history growth over ${EDITS} one-paragraph edits of a ${kb(bodyBytes)} body vs 2 MB`, value: round(growth / STORAGE_BAR), bar: '≤ 1', pass: growth <= STORAGE_BAR }];
    const readRows: Array<Record<string, string | number>> = [];
    for (const target of targets) {
      const s = samples.get(target.label) as number[];
      const ratio = median(s.map((ms, i) => ms / (base[i] as number)));
      readRows.push({
        engine,
        measure: target.label,
        'median ms': round(median(s)),
        '× get_bit': round(ratio),
        detail: target.revision !== undefined ? `reads ${chainOf(target.revision)} stored row(s): a full and the deltas after it` : target.label.startsWith('diff') ? 'two revisions read, both printed, a line diff' : 'the bit row now',
      });
      if (target.revision !== undefined) bars.push({ name: `${engine}: get_revision ${target.revision}${target.revision === latest ? ' (latest)' : ''} vs get_bit of the current bit`, value: round(ratio), bar: `≤ ${READ_BAR}×`, pass: ratio <= READ_BAR });
    }
    rows.push(...readRows);
    const topGrowth = [...after.tables.entries()]
      .map(([name, bytes]) => [name, bytes - (before.tables.get(name) ?? 0)] as const)
      .filter(([, d]) => d !== 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, d]) => `${name} ${d > 0 ? '+' : ''}${d}`)
      .join(', ');
    const notes = [
      ...(engine === 'postgres'
        ? ['postgres: the whole store grows mostly in `bits`: each update_bit leaves the previous row version of the bit, its TOASTed body with it, dead; a plain VACUUM frees that space for reuse by later writes but does not give it back to the file system. That is the live table\'s MVCC, not the history.']
        : ['sqlite: the file grows mostly by free pages: each update_bit writes the new body before the old one\'s pages are freed, and freed pages stay in the file for reuse.']),
      `${engine}: body ${bodyBytes} bytes of markdown in ${blocks.length} blocks; update_bit median ${round(median(updateMs))} ms over the ${EDITS} edits; tables that grew most over the edits (bytes with indexes): ${topGrowth}.`,
    ];
    console.log(`[history ${engine}] reads: ${readRows.map((r) => `${r.measure} ${r['median ms']} ms (${r['× get_bit']}×)`).join('; ')}`);
    const details = {
      body_markdown_bytes: bodyBytes,
      blocks: blocks.length,
      edits: EDITS,
      update_bit_ms: { median: round(median(updateMs)), samples: updateMs.map(round) },
      storage: {
        before: { ...before, tables: Object.fromEntries(before.tables) },
        after: { ...after, tables: Object.fromEntries(after.tables) },
      },
      revisions: Object.fromEntries(stored),
      reads: Object.fromEntries([...samples].map(([label, s]) => [label, s.map(round)])),
    };
    return { rows, bars, notes, details };
  } finally {
    await tools?.close().catch(() => undefined);
    if (child) await stopChild(child);
    await bs.dispose();
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const quick = options.quick === true;
  const engines = (process.env.BENCH_HISTORY_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as EngineName[];
  const rows: BenchResult['rows'] = [];
  const bars: BenchResult['bars'] = [];
  const notes: string[] = [
    `One bit of about 1 MB of markdown prose, then ${EDITS} update_bit calls each rewriting one sentence of one paragraph (the whole body sent), through waymark serve and the SDK client over Streamable HTTP. History: the revisions and events tables with their indexes (PostgreSQL: pg_total_relation_size, TOAST included, after a plain VACUUM; SQLite: dbstat pages). The 2 MB bar is 2 × 2^20 bytes.`,
    `Reads: get_revision (markdown) against get_bit of the current bit, ${quick ? 5 : 11} interleaved rounds after 2 unmeasured, the order rotated each round; "× get_bit" is the median over rounds of the call's time over get_bit's in the same round. Every revision read was checked against the markdown sent for it.`,
  ];
  const details: Record<string, unknown> = {};
  for (const engine of engines) {
    const result = await benchEngine(engine, quick);
    rows.push(...result.rows);
    bars.push(...result.bars);
    notes.push(...result.notes);
    details[engine] = result.details;
  }
  const result: BenchResult = { name: 'history', rows, bars, notes };
  // The samples and every revision's row go to bench/results/history.json only, not into the report.
  writeResult({ ...result, details } as BenchResult);
  return result;
}

if (isEntry(import.meta.url)) runAsScript(run);
