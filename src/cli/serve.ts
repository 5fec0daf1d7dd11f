/**
 * `waymark serve`: MCP over Streamable HTTP, REST, the web app and OAuth on one port. Loaded by main.ts only
 * for this command, so `waymark stdio` and the short commands never load what it imports.
 */
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { webAppUrl } from '../app-address.js';
import { allCapabilityNames, brand, mailConfigFromEnv, schedulerConfigFromEnv, smtpHost, version, type MailConfig } from '../config.js';
import { startGate } from '../http/start-gate.js';
import { quotasFromEnv } from '../quotas.js';
import { createLogger } from '../logger.js';
import { convertPoolOptionsFromEnv, createServices, startConvertPool, stopConvertPool, type Services } from '../services/index.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs, stringOption, UsageError, type ParsedArgs } from './args.js';
import { isClusterWorker, reportListening, runPrimary } from './cluster.js';
import { EXIT, type CliIo } from './io.js';
import { keepServerAddress } from './server-address.js';

/** How long a stopping server waits for the tool calls under way before it cuts them. */
const STOP_GRACE_MS = 5000;

/** `--workers N` (or `auto`, one per core): how many server processes share the port. */
function workerCount(args: ParsedArgs, io: CliIo): number {
  const text = stringOption(args, 'workers') ?? io.env.WAYMARK_WORKERS ?? '1';
  const count = text === 'auto' ? availableParallelism() : Number(text);
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new UsageError(`--workers must be a whole number from 1 to 64, or auto (got ${text})`);
  return count;
}

/** How long the owner's first sign-in link lasts: a day, for an operator who starts the server and opens it later. */
const OWNER_LINK_MS = 24 * 60 * 60 * 1000;

type FirstStart = Awaited<ReturnType<Services['auth']['init']>> & { ownerLink: { token: string; expiresAt: string } | null };

/**
 * The store's first start makes the account and its owner; the owner is a person, so the banner also gives them a
 * one-time sign-in link to the web app (issue 28: nobody should need a command to reach the app and its People
 * page, from which they invite everyone else). Later starts print neither.
 */
async function firstStart(services: Services): Promise<FirstStart> {
  const first = await services.auth.init();
  if (!first.created || !first.token) return { ...first, ownerLink: null };
  const link = await services.signin.createLink({ principalId: first.token.principalId, expiresInMs: OWNER_LINK_MS, capabilities: allCapabilityNames() });
  return { ...first, ownerLink: { token: link.token, expiresAt: link.expiresAt } };
}

export async function serve(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: ['host', 'port', 'workers'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError(`serve takes no arguments`);
  const host = stringOption(args, 'host') ?? io.env.WAYMARK_HOST ?? '127.0.0.1';
  const portText = stringOption(args, 'port') ?? io.env.WAYMARK_PORT ?? '3000';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (got ${portText})`);
  const workers = workerCount(args, io);
  let mail: MailConfig | null;
  let scheduler: ReturnType<typeof schedulerConfigFromEnv>;
  try {
    quotasFromEnv(io.env);
    mail = mailConfigFromEnv(io.env);
    scheduler = schedulerConfigFromEnv(io.env);
    (await import('../services/trails/archive.service.js')).archiverOptionsFromEnv(io.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const storeOptions = storeOptionsFromEnv(io.env);
  const store = openStore({ ...storeOptions, offThreadReads: true });
  const location = store.location;
  const httpOptions = async (actualPort: number) => {
    const { trustProxyOption } = await import('../http/app.js');
    const { liveOptionsFromEnv } = await import('../http/live/live-hub.js');
    return { host, port: actualPort, publicUrl: io.env.WAYMARK_PUBLIC_URL || undefined, trustProxy: trustProxyOption(io.env.WAYMARK_TRUST_PROXY), live: liveOptionsFromEnv(io.env) };
  };
  // Everything a start prints, in one write once it is all known: a reader that waits for the listening line
  // (a person, a script, the tests) finds the notices beside it, not a moment later.
  const announce = async (actualPort: number, first: FirstStart, extra = '') => {
    const { publicBase } = await import('../http/app.js');
    const { oauthStartNotice } = await import('../http/oauth/server.js');
    const base = publicBase(await httpOptions(actualPort));
    keepServerAddress(storeOptions, base);
    const oauthNotice = oauthStartNotice(base);
    const lines = [
      `Waymark listening on http://${shownHost}:${actualPort}/mcp (store: ${location})${extra}`,
      `The web app: ${webAppUrl(base).href} (to invite a person, an Admin opens its People page: ${webAppUrl(base).href}#/people)`,
      mail ? `Mail: on, through ${smtpHost(mail)} from ${mail.from}` : 'Mail: off (set WAYMARK_SMTP_URL to tell people by email too)',
    ];
    if (oauthNotice) lines.push(oauthNotice);
    if (first.token) lines.push(`First start: created account ${first.accountId} and an owner token with every capability:`, first.token.token);
    if (first.ownerLink) {
      const url = new URL('signin', webAppUrl(base));
      url.searchParams.set('token', first.ownerLink.token);
      lines.push(`Sign in to the web app as its owner (this link works once, until ${first.ownerLink.expiresAt}): ${url.href}`);
    }
    io.stdout.write(`${lines.join('\n')}\n`);
  };
  if (workers > 1 && !isClusterWorker()) {
    // The primary prepares the store once, then only supervises.
    await store.migrate();
    const first = await firstStart(createServices(store));
    await store.close();
    await runPrimary(workers, (actualPort) => void announce(actualPort, first, `, ${workers} workers`));
    return;
  }
  const logger = createLogger();
  await store.migrate();
  const services = createServices(store);
  const first = await firstStart(services);
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
  const { closeLiveStreams, createHttpApp, publicBase } = await import('../http/app.js');
  const registry = io.extraOperations ? (await import('../operations/registry.js')).createRegistry(io.extraOperations) : undefined;
  const app = createHttpApp(services, logger, { ...(await httpOptions(actualPort)), registry });
  gate.open(app);
  if (isClusterWorker()) reportListening(actualPort);
  else await announce(actualPort, first);
  // Every serving process delivers webhooks; the endpoints' leases keep each with one deliverer at a time.
  const { WebhookDeliverer, delivererOptionsFromEnv } = await import('../services/webhooks/deliverer.js');
  const deliverer = new WebhookDeliverer(store, services.webhooks, delivererOptionsFromEnv(io.env), logger);
  deliverer.start();
  // Every serving process reminds of overdue work (each reminder's own flag is its claim: scheduler.ts) and, with an
  // SMTP server, sends the mail recorded for people (each message under a lease: mailer.ts).
  const { OverdueScheduler } = await import('../services/notifications/scheduler.js');
  const overdue = new OverdueScheduler(store, scheduler, logger);
  overdue.start();
  const mailer = mail ? new (await import('../services/notifications/mailer.js')).Mailer(store, { ...mail, publicBase: publicBase(await httpOptions(actualPort)) }, logger) : undefined;
  mailer?.start();
  // Every serving process archives finished trails by age when the operator asked for it; passes at once are safe.
  const { TrailArchiver, archiverOptionsFromEnv } = await import('../services/trails/archive.service.js');
  const archiver = new TrailArchiver(store, archiverOptionsFromEnv(io.env), logger);
  archiver.start();
  // A stop lets the tool calls under way finish: closing the store beneath them answered INTERNAL_ERROR,
  // and a write that committed went unanswered (found by the fault test's SIGTERM stops under load).
  let calls = 0;
  server.on('request', (req, res) => {
    if (req.method !== 'POST') return;
    calls++;
    res.once('close', () => calls--);
  });
  const stop = () => {
    // The app's live-update streams end first: they are requests that never finish by themselves.
    void closeLiveStreams(app);
    server.close();
    const deadline = Date.now() + STOP_GRACE_MS;
    const drain = setInterval(() => {
      server.closeIdleConnections();
      if (calls > 0 && Date.now() < deadline) return;
      clearInterval(drain);
      // Long-lived streams (a client's GET) end here.
      server.closeAllConnections();
      void Promise.all([deliverer.stop(), overdue.stop(), mailer?.stop(), archiver.stop()])
        .then(() => Promise.all([store.close(), stopConvertPool()]))
        .then(() => process.exit(EXIT.ok));
    }, 20);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
