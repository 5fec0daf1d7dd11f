import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { allCapabilityNames, brand, capabilityName, CAPABILITY_KINDS, version } from '../config.js';
import { WaymarkError } from '../errors.js';
import { startGate } from '../http/start-gate.js';
import { quotasFromEnv } from '../quotas.js';
import { createLogger } from '../logger.js';
import { PERMISSIONS, type Permission } from '../services/actor.js';
import { parseDuration } from '../services/auth/auth.service.js';
import { convertPoolOptionsFromEnv, createServices, startConvertPool, stopConvertPool, type Services } from '../services/index.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs, stringOption, UsageError, type ParsedArgs } from './args.js';
import { isClusterWorker, reportListening, runPrimary } from './cluster.js';
import type { Operation } from '../operations/operation.js';

/**
 * Where a command writes and what environment it reads: the process's own when `bin/waymark.js` runs it, or
 * buffers and a given environment when a test calls `main` in process (no child process to start).
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Operations served beside Waymark's own by `serve` and `stdio` (the tool-call bench's no-op tool). */
  extraOperations?: readonly Operation[];
}

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** Exit codes scripts can branch on. */
const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
/** How long a stopping server waits for the tool calls under way before it cuts them. */
const STOP_GRACE_MS = 5000;

const USAGE = `Usage: waymark <command>

  serve [--host 127.0.0.1] [--port 3000] [--workers N|auto]
                                           MCP over Streamable HTTP at /mcp, REST at /api/v1, the web app at /app,
                                           GET /healthz; --workers: server processes sharing the port (default 1)
  stdio                                    MCP over stdio, authenticated by WAYMARK_TOKEN
  init [--new-token] [--expires-in 30d]    create the store, an account and an Admin owner; print a token
  account create NAME                      print the new account id
  scope create --account ID NAME           print the new scope id
  token create --account ID --permission view|edit|admin --capabilities a,b,c
               [--scope ID] [--kind agent|person] [--principal ID] [--expires-in 30d]
                                           print a new token (and nothing else)
  token list --account ID                  the account's tokens: id, principal, kind, capabilities,
                                           created, expires, revoked (never a token or its hash)
  token revoke TOKEN_ID                    refuse that token from now on
  signin-link create --principal ID [--expires-in 15m] [--capabilities read,run]
                                           print a one-time sign-in URL of the web app for a person
  session revoke --principal ID            end every web app session of a principal; print how many
  migrate                                  bring the store's schema up to date

Capabilities: ${allCapabilityNames().join(', ')}
Store: WAYMARK_DATABASE_URL=postgres://… for PostgreSQL, else ./.waymark (WAYMARK_DATA_DIR moves it).`;

async function withServices<T>(io: CliIo, work: (services: Services) => Promise<T>): Promise<T> {
  const store = openStore(storeOptionsFromEnv(io.env));
  try {
    await store.migrate();
    return await work(createServices(store));
  } finally {
    await store.close();
  }
}

function requireOption(args: ParsedArgs, name: string): string {
  const value = stringOption(args, name);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function onePositional(args: ParsedArgs, what: string): string {
  if (args.positionals.length !== 1) throw new UsageError(`expected exactly one ${what}`);
  if (args.positionals[0].trim() === '') throw new UsageError(`${what} must not be blank`);
  return args.positionals[0];
}

/** `--workers N` (or `auto`, one per core): how many server processes share the port. */
function workerCount(args: ParsedArgs, io: CliIo): number {
  const text = stringOption(args, 'workers') ?? io.env.WAYMARK_WORKERS ?? '1';
  const count = text === 'auto' ? availableParallelism() : Number(text);
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new UsageError(`--workers must be a whole number from 1 to 64, or auto (got ${text})`);
  return count;
}

async function serve(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: ['host', 'port', 'workers'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`serve takes no arguments`);
  const host = stringOption(args, 'host') ?? io.env.WAYMARK_HOST ?? '127.0.0.1';
  const portText = stringOption(args, 'port') ?? io.env.WAYMARK_PORT ?? '3000';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (got ${portText})`);
  const workers = workerCount(args, io);
  try {
    quotasFromEnv(io.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const store = openStore({ ...storeOptionsFromEnv(io.env), offThreadReads: true });
  const location = store.location;
  const httpOptions = async (actualPort: number) => {
    const { trustProxyOption } = await import('../http/app.js');
    return { host, port: actualPort, publicUrl: io.env.WAYMARK_PUBLIC_URL || undefined, trustProxy: trustProxyOption(io.env.WAYMARK_TRUST_PROXY) };
  };
  // Everything a start prints, in one write once it is all known: a reader that waits for the listening line
  // (a person, a script, the tests) finds the notices beside it, not a moment later.
  const announce = async (actualPort: number, first: Awaited<ReturnType<Services['auth']['init']>>, extra = '') => {
    const { publicBase } = await import('../http/app.js');
    const { oauthStartNotice } = await import('../http/oauth/server.js');
    const oauthNotice = oauthStartNotice(publicBase(await httpOptions(actualPort)));
    const lines = [`Waymark listening on http://${shownHost}:${actualPort}/mcp (store: ${location})${extra}`];
    if (oauthNotice) lines.push(oauthNotice);
    if (first.token) lines.push(`First start: created account ${first.accountId} and an owner token with every capability:`, first.token.token);
    io.stdout.write(`${lines.join('\n')}\n`);
  };
  if (workers > 1 && !isClusterWorker()) {
    // The primary prepares the store once, then only supervises.
    await store.migrate();
    const first = await createServices(store).auth.init();
    await store.close();
    await runPrimary(workers, (actualPort) => void announce(actualPort, first, `, ${workers} workers`));
    return;
  }
  const logger = createLogger();
  await store.migrate();
  const services = createServices(store);
  const first = await services.auth.init();
  // Large bodies convert in worker threads, off the event loop every account shares.
  startConvertPool(convertPoolOptionsFromEnv(io.env));
  // Listen first, so that with --port 0 the URLs the app advertises carry the port the system chose; what comes
  // in before the app is built waits for it (start-gate.ts).
  const gate = startGate({ brand, version });
  const server = createServer(gate.listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  // Loaded here, not at the top: `waymark stdio` and the short commands never pay for Express.
  const { createHttpApp } = await import('../http/app.js');
  const registry = io.extraOperations ? (await import('../operations/registry.js')).createRegistry(io.extraOperations) : undefined;
  gate.open(createHttpApp(services, logger, { ...(await httpOptions(actualPort)), registry }));
  if (isClusterWorker()) reportListening(actualPort);
  else await announce(actualPort, first);
  // A stop lets the tool calls under way finish: closing the store beneath them answered INTERNAL_ERROR,
  // and a write that committed went unanswered (found by the fault test's SIGTERM stops under load).
  let calls = 0;
  server.on('request', (req, res) => {
    if (req.method !== 'POST') return;
    calls++;
    res.once('close', () => calls--);
  });
  const stop = () => {
    server.close();
    const deadline = Date.now() + STOP_GRACE_MS;
    const drain = setInterval(() => {
      server.closeIdleConnections();
      if (calls > 0 && Date.now() < deadline) return;
      clearInterval(drain);
      // Long-lived streams (a client's GET) end here.
      server.closeAllConnections();
      void Promise.all([store.close(), stopConvertPool()]).then(() => process.exit(EXIT.ok));
    }, 20);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function stdio(argv: string[], io: CliIo): Promise<void> {
  parseArgs(argv, { values: [], flags: [] });
  const logger = createLogger({ stderr: true });
  const store = openStore({ ...storeOptionsFromEnv(io.env), offThreadReads: true });
  await store.migrate();
  startConvertPool(convertPoolOptionsFromEnv(io.env));
  try {
    const { runStdio } = await import('../mcp/stdio.js');
    const registry = io.extraOperations ? (await import('../operations/registry.js')).createRegistry(io.extraOperations) : undefined;
    await runStdio(createServices(store), logger, io.env.WAYMARK_TOKEN || undefined, registry);
  } finally {
    await Promise.all([store.close(), stopConvertPool()]);
  }
}

async function init(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: ['expires-in'], flags: ['new-token'] });
  if (args.positionals.length > 0) throw new UsageError(`init takes no positional arguments`);
  const expires = stringOption(args, 'expires-in');
  // Checked before the store is touched: a bad duration must not leave a store with an owner and no token.
  const expiresInMs = expires ? parseDuration(expires) : undefined;
  await withServices(io, async (services) => {
    const result = await services.auth.init({ newToken: args.options['new-token'] === true, expiresInMs });
    if (result.token) io.stdout.write(`${result.token.token}\n`);
    if (result.created) io.stderr.write(`Created account ${result.accountId} with an Admin owner.\n`);
    else if (!result.token) io.stderr.write(`The store is already set up (account ${result.accountId}); pass --new-token for another token.\n`);
  });
}

async function account(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(`account: expected 'create'`);
  const args = parseArgs(rest, { values: [], flags: [] });
  const name = onePositional(args, 'account NAME');
  await withServices(io, async (services) => io.stdout.write(`${await services.auth.createAccount(name)}\n`));
}

async function scope(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(`scope: expected 'create'`);
  const args = parseArgs(rest, { values: ['account'], flags: [] });
  const accountId = requireOption(args, 'account');
  const name = onePositional(args, 'scope NAME');
  await withServices(io, async (services) => io.stdout.write(`${await services.auth.createScope(accountId, name)}\n`));
}

async function token(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'list') return tokenList(rest, io);
  if (sub === 'revoke') return tokenRevoke(rest, io);
  if (sub !== 'create') throw new UsageError(`token: expected 'create', 'list' or 'revoke'`);
  const args = parseArgs(rest, { values: ['account', 'permission', 'capabilities', 'scope', 'kind', 'principal', 'expires-in', 'name'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`token create takes no positional arguments`);
  const permission = requireOption(args, 'permission');
  if (!PERMISSIONS.includes(permission as Permission)) throw new UsageError(`--permission must be one of ${PERMISSIONS.join(', ')}`);
  const principal = stringOption(args, 'principal');
  // A new principal is an agent unless --kind says otherwise; a reused one keeps its kind.
  const kind = stringOption(args, 'kind') ?? (principal ? undefined : 'agent');
  if (kind !== undefined && kind !== 'agent' && kind !== 'person') throw new UsageError(`--kind must be agent or person`);
  const capabilities = capabilityList(requireOption(args, 'capabilities'));
  const expires = stringOption(args, 'expires-in');
  await withServices(io, async (services) => {
    const issued = await services.auth.createToken({
      accountId: requireOption(args, 'account'),
      permission: permission as Permission,
      capabilities,
      scopeId: stringOption(args, 'scope') ?? (principal ? undefined : null),
      kind,
      principalId: principal,
      name: stringOption(args, 'name'),
      expiresInMs: expires ? parseDuration(expires) : undefined,
    });
    io.stdout.write(`${issued.token}\n`);
    // stdout holds only the token; the principal's id (for --principal) goes to stderr.
    io.stderr.write(`principal ${issued.principalId}\n`);
  });
}

/** `author` alone is accepted as short for `waymark.author`. */
function capabilityList(text: string): string[] {
  return text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => ((CAPABILITY_KINDS as readonly string[]).includes(c) ? capabilityName(c as 'author') : c));
}

/** Where people open the app: WAYMARK_PUBLIC_URL, else where `serve` listens by default. */
function publicUrl(io: CliIo): URL {
  const configured = io.env.WAYMARK_PUBLIC_URL;
  if (configured) return new URL(configured);
  const host = io.env.WAYMARK_HOST ?? '127.0.0.1';
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${io.env.WAYMARK_PORT ?? '3000'}`);
}

async function signinLink(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(`signin-link: expected 'create'`);
  const args = parseArgs(rest, { values: ['principal', 'expires-in', 'capabilities'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`signin-link create takes no positional arguments`);
  const principalId = requireOption(args, 'principal');
  const expires = stringOption(args, 'expires-in');
  const capabilities = stringOption(args, 'capabilities');
  const base = publicUrl(io);
  await withServices(io, async (services) => {
    const link = await services.signin.createLink({ principalId, expiresInMs: expires ? parseDuration(expires) : undefined, capabilities: capabilities ? capabilityList(capabilities) : undefined });
    const url = new URL('app/signin', base.href.endsWith('/') ? base : `${base.href}/`);
    url.searchParams.set('token', link.token);
    io.stdout.write(`${url.href}\n`);
    io.stderr.write(`valid once, until ${link.expiresAt}\n`);
  });
}

async function session(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'revoke') throw new UsageError(`session: expected 'revoke'`);
  const args = parseArgs(rest, { values: ['principal'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`session revoke takes no positional arguments`);
  const principalId = requireOption(args, 'principal');
  await withServices(io, async (services) => io.stdout.write(`${await services.signin.revokeSessions(principalId)}\n`));
}

/** The columns of `token list`, tab-separated under a header line; `-` for none. */
const TOKEN_COLUMNS = ['id', 'principal', 'kind', 'capabilities', 'created', 'expires', 'revoked'] as const;

async function tokenList(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: ['account'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`token list takes no positional arguments`);
  const accountId = requireOption(args, 'account');
  await withServices(io, async (services) => {
    const tokens = await services.auth.listTokens(accountId);
    const rows = tokens.map((t) => [t.id, t.principalId, t.kind, t.capabilities.join(','), t.createdAt, t.expiresAt ?? '-', t.revokedAt ?? '-']);
    io.stdout.write([TOKEN_COLUMNS, ...rows].map((row) => `${row.join('\t')}\n`).join(''));
  });
}

async function tokenRevoke(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: [], flags: [] });
  const tokenId = onePositional(args, 'TOKEN_ID');
  await withServices(io, async (services) => {
    const result = await services.auth.revokeToken(tokenId);
    io.stderr.write(result.already ? `Token ${tokenId} was already revoked at ${result.revokedAt}.\n` : `Revoked token ${tokenId}.\n`);
  });
}

async function migrate(argv: string[], io: CliIo): Promise<void> {
  parseArgs(argv, { values: [], flags: [] });
  const store = openStore(storeOptionsFromEnv(io.env));
  try {
    const result = await store.migrate();
    const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    io.stdout.write(applied.length > 0 ? `Applied: ${applied.join(', ')}\n` : `The schema is up to date.\n`);
  } finally {
    await store.close();
  }
}

const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<void>> = { serve, stdio, init, account, scope, token, 'signin-link': signinLink, session, migrate };

export async function main(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const run = command ? COMMANDS[command] : undefined;
  try {
    if (!command) throw new UsageError('a command is needed');
    if (!run) throw new UsageError(`unknown command '${command}'`);
    await run(rest, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`waymark: ${error.message}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    if (error instanceof WaymarkError) {
      io.stderr.write(`waymark: ${error.message}\n`);
      return EXIT.failure;
    }
    io.stderr.write(`waymark: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
}
