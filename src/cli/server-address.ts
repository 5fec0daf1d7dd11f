/**
 * Where people reach the running server, as the command line's links need it (issue 28): `waymark signin-link create`
 * printed port 3000 whatever port `serve` ran on, so the one-time link was wasted. WAYMARK_PUBLIC_URL decides when
 * set; else a serving process on the embedded store leaves the address it announced beside the store, and the short
 * commands (run on the same machine, against the same data directory) read it. A PostgreSQL deployment serves behind
 * a configured public address.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { StoreOptions } from '../store/store.js';
import type { CliIo } from './io.js';

/** Beside the embedded store's file (store.ts: <data dir>/waymark.db); none for PostgreSQL. */
function fileOf(options: StoreOptions): string | null {
  if (options.databaseUrl) return null;
  return join(dirname(resolve(options.dataDir ?? '.waymark', 'waymark.db')), 'server-address');
}

/**
 * Left by a serving process on the embedded store as it announces itself, and kept after it stops: the next start
 * most likely listens there again, and rewrites it if not.
 */
export function keepServerAddress(options: StoreOptions, base: URL): void {
  const file = fileOf(options);
  if (!file) return;
  try {
    writeFileSync(file, `${base.href}\n`);
  } catch {
    // A read-only data directory: the links fall back to the configured or default address.
  }
}

/** The address the command line's links use: WAYMARK_PUBLIC_URL, else the serving process's, else serve's default. */
export function publicUrl(io: Pick<CliIo, 'env'>, options: StoreOptions): URL {
  const configured = io.env.WAYMARK_PUBLIC_URL;
  if (configured) return new URL(configured);
  const file = fileOf(options);
  if (file) {
    try {
      return new URL(readFileSync(file, 'utf8').trim());
    } catch {
      // No server running here: the default below.
    }
  }
  const host = io.env.WAYMARK_HOST ?? '127.0.0.1';
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${io.env.WAYMARK_PORT ?? '3000'}`);
}
