/**
 * Bodies and stores for the tool-call, scaling and memory benches: bodies of a chosen size cut from the
 * construct-rich generator of bench/convert.ts, the rows they depend on (connection targets, cited
 * references) inserted straight through the repositories, and a fresh store on either engine.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { bodyByteLength, collectCitations, collectConnections, type SlateBody } from '../src/content/index.js';
import type { Actor } from '../src/services/actor.js';
import { createServices, type Services } from '../src/services/index.js';
import { findBits, insertBit } from '../src/store/repositories/bits.repo.js';
import { findReferenceStates, insertReferences } from '../src/store/repositories/references.repo.js';
import { openStore, type Store } from '../src/store/store.js';
import { generateBody } from './convert.js';

export type EngineName = 'sqlite' | 'postgres';

export const ADMIN_URL = process.env.WAYMARK_BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchStore {
  engine: EngineName;
  store: Store;
  /** What a child process (`waymark serve`, `waymark stdio`) needs in its environment to open the same store. */
  env: Record<string, string>;
  dispose(): Promise<void>;
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated store: a temp directory for the embedded store, a new database on PostgreSQL (dropped by dispose). */
export async function openBenchStore(engine: EngineName): Promise<BenchStore> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-bench-'));
    const store = openStore({ dataDir: dir });
    await store.migrate();
    return {
      engine,
      store,
      env: { WAYMARK_DATA_DIR: dir },
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = `waymark_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const store = openStore({ databaseUrl: url.href });
  await store.migrate();
  return {
    engine,
    store,
    env: { WAYMARK_DATABASE_URL: url.href },
    async dispose() {
      await store.close();
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

export interface Owner {
  services: Services;
  accountId: string;
  token: string;
  actor: Actor;
}

/** `waymark init` on the store: an account and an Admin owner token with every capability. */
export async function initOwner(store: Store): Promise<Owner> {
  const services = createServices(store);
  const first = await services.auth.init({ newToken: true });
  const token = first.token?.token;
  if (!token) throw new Error('init gave no token');
  const authenticated = await services.auth.authenticate(token);
  if (!authenticated) throw new Error('the new token does not authenticate');
  const { expiresAt: _expiresAt, ...actor } = authenticated;
  return { services, accountId: first.accountId, token, actor };
}

/**
 * A stored body of at most `targetBytes` of JSON: `connections` connection lines, then the blocks of
 * bench/convert.ts's generator (headings, marks, links, media, citations, credentials, lists, task items,
 * quotes, tables, code, every element type) up to the size. Cut at block boundaries, so every prefix is a
 * valid body.
 */
export function sizedBody(targetBytes: number, connections = 2): SlateBody {
  const full = generateBody(targetBytes + 16 * 1024);
  const children: SlateBody['children'] = full.children.filter((n) => n.type === 'bit-connection').slice(0, connections);
  let bytes = bodyByteLength({ children });
  for (const node of full.children) {
    if (node.type === 'bit-connection') continue;
    const size = Buffer.byteLength(JSON.stringify(node)) + 1;
    if (bytes + size > targetBytes) {
      // Small bodies: a later, smaller block may still fit; large ones are close enough already.
      if (targetBytes - bytes < 4096) continue;
      break;
    }
    children.push(node);
    bytes += size;
  }
  return { children };
}

/**
 * The body as add_bit input in Slate: every id removed, so each bit made from it mints its own (node ids,
 * and above all connection ids, which are the connection rows' keys, must not repeat across bits).
 */
export function slateInput(body: SlateBody): unknown[] {
  return JSON.parse(JSON.stringify(body.children, (key, value: unknown) => (key === 'id' ? undefined : value))) as unknown[];
}

/** Inserts, through the repositories, the bits the body connects to and the references it cites, when missing. */
export async function seedBodyDependencies(store: Store, owner: Owner, body: SlateBody): Promise<void> {
  const now = new Date().toISOString();
  const targets = [...new Set(collectConnections(body).map((c) => c.target_bit_id))];
  const haveBits = new Set((await findBits(store.db, targets)).map((b) => b.id));
  const citations = collectCitations(body);
  const haveRefs = new Set((await findReferenceStates(store.db, citations, { accountId: owner.accountId, scopeId: null })).map((r) => r.id));
  await store.transaction(async (tx) => {
    for (const id of targets) {
      if (haveBits.has(id)) continue;
      await insertBit(tx, {
        id,
        account_id: owner.accountId,
        scope_id: null,
        title: `Target ${id.slice(-4)}`,
        abstract: null,
        description: null,
        body: store.dialect.json({ children: [{ type: 'p', id: randomUUID(), children: [{ text: 'The next step.' }] }] }),
        categories: store.dialect.json([]),
        complexity: 'low',
        human_required: 0,
        status: 'active',
        created_by: owner.actor.principalId,
        created_at: now,
        updated_at: now,
      });
    }
    const missing = citations.filter((id) => !haveRefs.has(id));
    for (let i = 0; i < missing.length; i += 500) {
      await insertReferences(
        tx,
        missing.slice(i, i + 500).map((id) => ({
          id,
          account_id: owner.accountId,
          scope_id: null,
          title: `Handbook ${id.slice(-6)}`,
          abstract: 'A section of the handbook.',
          content: store.dialect.json([{ type: 'p', children: [{ text: 'A section of the handbook.' }] }]),
          search_text: 'A section of the handbook.',
          snippet_text: 'A section of the handbook.',
          categories: store.dialect.json([]),
          is_active: 1,
          author_principal_id: owner.actor.principalId,
          created_at: now,
          updated_at: now,
        })),
      );
    }
  });
}

export function kb(bytes: number): string {
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
