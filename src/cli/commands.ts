/**
 * The short commands (init, account, scope, token, signin-link, session, audit, migrate): each opens the store, does
 * its one thing and closes it. Loaded by main.ts only for these, so `waymark stdio` and `serve` never load them.
 */
import { webAppUrl } from '../app-address.js';
import { CAPABILITY_KINDS, capabilityName } from '../config.js';
import { operatorActor, PERMISSIONS, type Permission } from '../services/actor.js';
import { publicUrl } from './server-address.js';
import { parseDuration } from '../services/auth/auth.service.js';
import { createServices, type Services } from '../services/index.js';
import { asOperation } from '../services/events/operation-context.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs, stringOption, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './io.js';

/** `operation`: the name the events of the command's change record (the command's own, e.g. `token_create`). */
export async function withServices<T>(io: CliIo, work: (services: Services) => Promise<T>, operation = 'cli'): Promise<T> {
  const store = openStore(storeOptionsFromEnv(io.env));
  try {
    await store.migrate();
    const services = createServices(store);
    return await asOperation(operation, () => work(services));
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

export async function init(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: ['expires-in'], flags: ['new-token', 'sample'] });
  if (args.positionals.length > 0) throw new UsageError(`init takes no positional arguments`);
  const expires = stringOption(args, 'expires-in');
  // Checked before the store is touched: a bad duration must not leave a store with an owner and no token.
  const expiresInMs = expires ? parseDuration(expires) : undefined;
  await withServices(io, async (services) => {
    const result = await services.auth.init({ newToken: args.options['new-token'] === true, expiresInMs });
    if (result.token) io.stdout.write(`${result.token.token}\n`);
    if (result.created) io.stderr.write(`Created account ${result.accountId} with an Admin owner.\n`);
    else if (!result.token && args.options.sample !== true) io.stderr.write(`The store is already set up (account ${result.accountId}); pass --new-token for another token.\n`);
    if (args.options.sample === true) {
      const sample = await services.sample.add(operatorActor(result.accountId));
      io.stderr.write(sample.plan.changed ? `Added the sample flow ${sample.flow_id}, approved and active: start a trail on it in the app.\n` : `The sample flow ${sample.flow_id} is already there.\n`);
    }
  }, 'init');
}

export async function account(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(`account: expected 'create'`);
  const args = parseArgs(rest, { values: [], flags: [] });
  const name = onePositional(args, 'account NAME');
  await withServices(io, async (services) => io.stdout.write(`${await services.auth.createAccount(name)}\n`), 'account_create');
}

export async function scope(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(`scope: expected 'create'`);
  const args = parseArgs(rest, { values: ['account'], flags: [] });
  const accountId = requireOption(args, 'account');
  const name = onePositional(args, 'scope NAME');
  await withServices(
    io,
    async (services) => {
      // The app's create_scope rule (a name unique in the account, case aside) holds at the command line too.
      if ((await services.auth.accountName(accountId)) === null) throw new Error(`No account ${accountId}`);
      io.stdout.write(`${(await services.scopes.create(operatorActor(accountId), { name })).scope_id}\n`);
    },
    'scope_create',
  );
}

export async function token(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'list') return tokenList(rest, io);
  if (sub === 'revoke') return tokenRevoke(rest, io);
  if (sub !== 'create') throw new UsageError(`token: expected 'create', 'list' or 'revoke'`);
  const args = parseArgs(rest, { values: ['account', 'permission', 'capabilities', 'scope', 'kind', 'principal', 'expires-in', 'name', 'email'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`token create takes no positional arguments`);
  const permission = requireOption(args, 'permission');
  if (!PERMISSIONS.includes(permission as Permission)) throw new UsageError(`--permission must be one of ${PERMISSIONS.join(', ')}`);
  const principal = stringOption(args, 'principal');
  // A new principal is an agent unless --kind says otherwise; a reused one keeps its kind.
  const kind = stringOption(args, 'kind') ?? (principal ? undefined : 'agent');
  if (kind !== undefined && kind !== 'agent' && kind !== 'person') throw new UsageError(`--kind must be agent or person`);
  const email = stringOption(args, 'email');
  if (email !== undefined && (principal !== undefined || kind !== 'person')) throw new UsageError(`--email is a new person's (with --kind person, without --principal); an Admin changes a person's email on the app's People page`);
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
      email,
      expiresInMs: expires ? parseDuration(expires) : undefined,
    });
    io.stdout.write(`${issued.token}\n`);
    // stdout holds only the token; the principal's id (for --principal) goes to stderr.
    io.stderr.write(`principal ${issued.principalId}\n`);
  }, 'token_create');
}

/** `author` alone is accepted as short for `waymark.author`. */
function capabilityList(text: string): string[] {
  return text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => ((CAPABILITY_KINDS as readonly string[]).includes(c) ? capabilityName(c as 'author') : c));
}


export async function signinLink(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new UsageError(`signin-link: expected 'create'`);
  const args = parseArgs(rest, { values: ['principal', 'expires-in', 'capabilities'], flags: ['owner'] });
  if (args.positionals.length > 0) throw new UsageError(`signin-link create takes no positional arguments`);
  const owner = args.options.owner === true;
  if (owner && stringOption(args, 'principal')) throw new UsageError(`signin-link create takes --principal ID or --owner, not both`);
  const principalId = owner ? undefined : requireOption(args, 'principal');
  const expires = stringOption(args, 'expires-in');
  const capabilities = stringOption(args, 'capabilities');
  const base = publicUrl(io, storeOptionsFromEnv(io.env));
  await withServices(io, async (services) => {
    const id = principalId ?? (await services.auth.ownerId());
    if (!id) throw new UsageError(`signin-link create --owner: the store has no owner yet (run waymark init or serve first)`);
    const link = await services.signin.createLink({ principalId: id, expiresInMs: expires ? parseDuration(expires) : undefined, capabilities: capabilities ? capabilityList(capabilities) : undefined });
    const url = new URL('signin', webAppUrl(base));
    url.searchParams.set('token', link.token);
    io.stdout.write(`${url.href}\n`);
    io.stderr.write(`valid once, until ${link.expiresAt}\n`);
  }, 'signin_link_create');
}

export async function session(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'revoke') throw new UsageError(`session: expected 'revoke'`);
  const args = parseArgs(rest, { values: ['principal'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`session revoke takes no positional arguments`);
  const principalId = requireOption(args, 'principal');
  await withServices(io, async (services) => io.stdout.write(`${await services.signin.revokeSessions(principalId)}\n`), 'session_revoke');
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
  }, 'token_revoke');
}

/**
 * `audit verify --account ID`: walks the account's event chain (issue 26). OK prints how many events and the head
 * (note it: removing the last events together is found only against a head noted earlier); a break prints every
 * problem, the first one first, and fails.
 */
export async function audit(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'verify') throw new UsageError(`audit: expected 'verify'`);
  const args = parseArgs(rest, { values: ['account'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`audit verify takes no positional arguments`);
  const accountId = requireOption(args, 'account');
  const report = await withServices(io, (services) => services.audit.verify(accountId));
  const head = report.head ? `, head event ${report.head.seq} ${report.head.hash}` : '';
  if (report.ok) {
    io.stdout.write(`OK: ${report.count} events${head}\n`);
    return;
  }
  io.stdout.write(report.problems.map((p) => `${p.message}\n`).join(''));
  const first = report.problems[0];
  throw new Error(`the event chain of account ${accountId} is broken: first at event ${first?.seq} (${report.problems.length} problem(s), ${report.count} events read${head})`);
}

export async function migrate(argv: string[], io: CliIo): Promise<void> {
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
