/**
 * Kills during the first start of a new store: `waymark serve` migrates the empty store and creates the
 * account with its owner's token, and is killed at a random moment of that. The next start must come
 * up, and the store must hold either nothing or an account whose owner has a token.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createServices } from '../../src/services/index.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestStore, type Engine } from '../engines.js';
import { startServe, stopServe, SERVE_BIN } from './server.js';
import type { Random } from './worker.js';

export interface StartupReport {
  kills: number;
  /** Kills that found the store already touched (the file created, or a connection to the database open). */
  kills_during_store_setup: number;
  restarts_failed: number;
  accounts_without_owner_token: number;
  /** Tokens the restarted server printed that do not authenticate. */
  printed_tokens_refused: number;
  /**
   * Stores left with an owner token that no start printed: the killed start created it and died before
   * writing it out. Not a lost write (`waymark init --new-token` prints another), but counted.
   */
  owner_token_never_shown: number;
  problems: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface EmptyStore {
  env: Record<string, string>;
  /** Whether the server has begun to set the store up. */
  touched(): Promise<boolean>;
  open(): Store;
  close(): Promise<void>;
}

async function emptyStore(engine: Engine): Promise<EmptyStore> {
  if (engine === 'sqlite') {
    // The embedded store's file must not exist before the server creates it, so this test opens it only afterwards.
    const dir = mkdtempSync(join(tmpdir(), 'waymark-startup-'));
    const opened: Store[] = [];
    return {
      env: { WAYMARK_DATA_DIR: dir },
      touched: async () => existsSync(join(dir, 'waymark.db')),
      open: () => {
        const store = openStore({ dataDir: dir });
        opened.push(store);
        return store;
      },
      async close() {
        for (const s of opened) await s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const ts = await createTestStore(engine, { migrate: false });
  return {
    env: ts.env,
    touched: async () => {
      const r = await sql<{ n: string | number }>`select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(ts.store.db);
      return Number(r.rows[0]?.n ?? 0) > 0;
    },
    open: () => ts.store,
    close: () => ts.close(),
  };
}

export async function runStartupFaults(engine: Engine, kills: number, rnd: Random, log: (line: string) => void): Promise<StartupReport> {
  const report: StartupReport = { kills: 0, kills_during_store_setup: 0, restarts_failed: 0, accounts_without_owner_token: 0, printed_tokens_refused: 0, owner_token_never_shown: 0, problems: [] };
  for (let i = 0; i < kills; i++) {
    const store = await emptyStore(engine);
    try {
      const child = spawn(process.execPath, [SERVE_BIN, 'serve', '--port', '0'], { env: { ...process.env, ...store.env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'ignore'] });
      let killedOut = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        killedOut += chunk.toString();
      });
      const exited = once(child, 'exit');
      const deadline = Date.now() + 30_000;
      while (!(await store.touched()) && Date.now() < deadline && child.exitCode === null) await sleep(2);
      const touched = await store.touched();
      // The setup (migrations, account, token) takes tens to hundreds of milliseconds once begun, fewer on
      // an idle machine: the delay is skewed towards its start (cubed) so that every part of it is hit.
      await sleep(rnd.next() ** 3 * 300);
      child.kill('SIGKILL');
      await exited;
      report.kills++;
      if (touched) report.kills_during_store_setup++;
      let printed: string | null = null;
      try {
        const serve = await startServe(store.env);
        printed = await serve.ownerToken();
        await stopServe(serve);
      } catch (error) {
        report.restarts_failed++;
        report.problems.push(`${engine} startup kill ${i + 1}: the next start failed: ${(error as Error).message.slice(0, 400)}`);
        continue;
      }
      const db = store.open();
      const orphans = await db.db
        .selectFrom('accounts as a')
        .select('a.id')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('principals as p').innerJoin('tokens as t', 't.principal_id', 'p.id').select('t.id').whereRef('p.account_id', '=', 'a.id').where('p.permission', '=', 'admin'))),
        )
        .execute();
      report.accounts_without_owner_token += orphans.length;
      for (const o of orphans) report.problems.push(`${engine} startup kill ${i + 1}: account ${o.id} has no owner token, and no start will print one`);
      const shownBeforeKill = /First start:[^\n]*\n\S+\n/.test(killedOut);
      const accounts = await db.db.selectFrom('accounts').select('id').execute();
      if (accounts.length > 0 && !printed && !shownBeforeKill) report.owner_token_never_shown++;
      if (printed && !(await createServices(db).auth.authenticate(printed))) {
        report.printed_tokens_refused++;
        report.problems.push(`${engine} startup kill ${i + 1}: the printed owner token does not authenticate`);
      }
      const shown = printed ? 'the restart printed the owner token' : shownBeforeKill ? 'the killed start had printed the owner token' : 'no start printed an owner token';
      log(`${engine} startup kill ${i + 1}${touched ? ' during the store setup' : ''}: restarted; ${shown}`);
    } finally {
      await store.close();
    }
  }
  return report;
}
