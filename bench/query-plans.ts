/**
 * The statements one service call runs, captured as Kysely compiles them and explained on the store's own engine:
 * PostgreSQL's EXPLAIN (ANALYZE, BUFFERS), SQLite's EXPLAIN QUERY PLAN with the statement's own time. bench/scale.ts
 * writes those of its slowest reads to bench/results/scale-plans.md.
 */
import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs } from 'kysely';
import { createServices, type Services } from '../src/services/index.js';
import type { Store } from '../src/store/store.js';
import { median } from './result.js';

export interface StatementPlan {
  sql: string;
  parameters: readonly unknown[];
  /** The statement's own median time over a few runs, in ms. */
  ms: number;
  plan: string;
}

/** Runs `call` against services whose store records every statement, and explains each SELECT it ran. */
export async function plansOf(store: Store, call: (services: Services) => Promise<unknown>): Promise<StatementPlan[]> {
  // Every query built is transformed (a union's parts too); only those executed have a result.
  const built: PluginTransformQueryArgs[] = [];
  const executed = new Set<string>();
  const recorder: KyselyPlugin = {
    transformQuery: (args) => {
      built.push(args);
      return args.node;
    },
    transformResult: async (args) => {
      executed.add(args.queryId.queryId);
      return args.result;
    },
  };
  await call(createServices({ ...store, db: store.db.withPlugin(recorder) }));
  const plans: StatementPlan[] = [];
  for (const args of built.filter((b) => executed.has(b.queryId.queryId))) {
    const compiled = store.db.getExecutor().compileQuery(args.node, args.queryId);
    if (!/^\s*(select|with)\b/i.test(compiled.sql)) continue;
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await store.db.executeQuery(compiled);
      samples.push(performance.now() - t);
    }
    plans.push({ sql: compiled.sql, parameters: compiled.parameters, ms: median(samples), plan: await explain(store, compiled) });
  }
  return plans;
}

async function explain(store: Store, compiled: CompiledQuery): Promise<string> {
  if (store.dialect.engine === 'postgres') {
    const result = await store.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }
  const result = await store.db.executeQuery<{ id: number; parent: number; detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
  const depth = new Map<number, number>([[0, -1]]);
  return result.rows
    .map((row) => {
      const d = (depth.get(row.parent) ?? -1) + 1;
      depth.set(row.id, d);
      return `${'  '.repeat(d)}${row.detail}`;
    })
    .join('\n');
}
