/**
 * `waymark webhook …` (issue 29): the operator manages an account's webhook subscriptions at the server's command
 * line, through the same service as the app and REST; what it changes is recorded as the operator's.
 */
import { operatorActor } from '../services/actor.js';
import { createServices, type Services } from '../services/index.js';
import { asOperation } from '../services/events/operation-context.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import type { CliIo } from './io.js';

async function withAccount<T>(io: CliIo, accountId: string, operation: string, work: (services: Services) => Promise<T>): Promise<T> {
  const store = openStore(storeOptionsFromEnv(io.env));
  try {
    await store.migrate();
    return await asOperation(operation, () => work(createServices(store)));
  } finally {
    await store.close();
  }
}

export async function webhook(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  const args = parseArgs(rest, { values: ['account', 'url', 'events', 'scope', 'overlap-hours'], flags: [] });
  const accountId = stringOption(args, 'account');
  if (!accountId) throw new UsageError('--account is required');
  const actor = operatorActor(accountId);
  const id = () => {
    if (args.positionals.length !== 1) throw new UsageError(`webhook ${sub}: expected the WEBHOOK_ID`);
    return args.positionals[0] as string;
  };
  const print = (value: unknown): void => void io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  switch (sub) {
    case 'list':
      return print(await withAccount(io, accountId, 'list_webhooks', (s) => s.webhooks.list(actor)));
    case 'create': {
      const url = stringOption(args, 'url');
      if (!url) throw new UsageError('--url is required');
      const events = (stringOption(args, 'events') ?? '*').split(',').map((e) => e.trim()).filter(Boolean);
      return print(await withAccount(io, accountId, 'create_webhook', (s) => s.webhooks.create(actor, { url, event_types: events, scope_id: stringOption(args, 'scope') ?? null })));
    }
    case 'remove':
      return print(await withAccount(io, accountId, 'delete_webhook', (s) => s.webhooks.remove(actor, { webhook_id: id() })));
    case 'rotate': {
      const hours = stringOption(args, 'overlap-hours');
      const overlap = hours === undefined ? undefined : Number(hours);
      if (overlap !== undefined && (!Number.isInteger(overlap) || overlap < 0)) throw new UsageError('--overlap-hours must be a whole number of hours');
      return print(await withAccount(io, accountId, 'rotate_webhook_secret', (s) => s.webhooks.rotate(actor, { webhook_id: id(), overlap_hours: overlap })));
    }
    case 'deliveries':
      return print(await withAccount(io, accountId, 'list_webhook_deliveries', (s) => s.webhooks.deliveries(actor, { webhook_id: id() })));
    default:
      throw new UsageError(`webhook: expected list, create, remove, rotate or deliveries`);
  }
}
