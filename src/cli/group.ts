/**
 * `waymark group …` (issue 27): the operator manages an account's groups of people at the server's command line,
 * through the same service as the app and REST; a group is named by its id or its name, a person by id or email.
 * What it changes is recorded as the operator's.
 */
import { operatorActor } from '../services/actor.js';
import { findGroupByRef } from '../services/groups/groups.service.js';
import { createServices, type Services } from '../services/index.js';
import { asOperation } from '../services/events/operation-context.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import type { CliIo } from './io.js';
import type { Actor } from '../services/actor.js';

async function withAccount<T>(io: CliIo, operation: string, work: (services: Services) => Promise<T>): Promise<T> {
  const store = openStore(storeOptionsFromEnv(io.env));
  try {
    await store.migrate();
    return await asOperation(operation, () => work(createServices(store)));
  } finally {
    await store.close();
  }
}

/** The group's id, from its id or name. */
async function groupId(services: Services, actor: Actor, ref: string): Promise<string> {
  return (await findGroupByRef(services.store.db, actor, ref, 'GROUP')).id;
}

export async function group(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  const args = parseArgs(rest, { values: ['account', 'scope', 'description'], flags: [] });
  const accountId = stringOption(args, 'account');
  if (!accountId) throw new UsageError('--account is required');
  const actor = operatorActor(accountId);
  const positionals = (count: number, what: string): string[] => {
    if (args.positionals.length !== count || args.positionals.some((p) => p.trim() === '')) throw new UsageError(`group ${sub}: expected ${what}`);
    return args.positionals;
  };
  const print = (value: unknown): void => void io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  switch (sub) {
    case 'list':
      positionals(0, 'no positional arguments');
      return print(await withAccount(io, 'list_groups', (s) => s.groups.list(actor)));
    case 'show': {
      const [ref] = positionals(1, 'the GROUP (id or name)');
      return print(await withAccount(io, 'get_group', async (s) => s.groups.get(actor, { group_id: await groupId(s, actor, ref) })));
    }
    case 'create': {
      const [name] = positionals(1, 'the group NAME');
      return print(await withAccount(io, 'create_group', (s) => s.groups.create(actor, { name, description: stringOption(args, 'description') ?? null, scope_id: stringOption(args, 'scope') ?? null })));
    }
    case 'delete': {
      const [ref] = positionals(1, 'the GROUP (id or name)');
      return print(await withAccount(io, 'delete_group', async (s) => s.groups.remove(actor, { group_id: await groupId(s, actor, ref) })));
    }
    case 'add': {
      if (args.positionals.length < 2) throw new UsageError('group add: expected the GROUP (id or name) and one or more PEOPLE (principal id or email)');
      const [ref, ...people] = args.positionals;
      return print(await withAccount(io, 'add_group_members', async (s) => s.groups.addMembers(actor, { group_id: await groupId(s, actor, ref), people })));
    }
    case 'remove': {
      const [ref, person] = positionals(2, 'the GROUP (id or name) and the PERSON (principal id or email)');
      return print(await withAccount(io, 'remove_group_member', async (s) => s.groups.removeMember(actor, { group_id: await groupId(s, actor, ref), principal_id: person })));
    }
    default:
      throw new UsageError(`group: expected list, show, create, delete, add or remove`);
  }
}
