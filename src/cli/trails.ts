/**
 * `waymark trails archive --older-than 90d` (issue 31): one pass of the archiver by hand, over every account of the
 * store (services/trails/archive.service.ts says what archiving does); prints how many trails it archived.
 */
import { parseDuration } from '../services/auth/auth.service.js';
import { archiveFinishedTrails } from '../services/trails/archive.service.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import type { CliIo } from './io.js';

export async function trails(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'archive') throw new UsageError('trails: expected archive');
  const args = parseArgs(rest, { values: ['older-than'], flags: [] });
  const age = stringOption(args, 'older-than');
  if (!age) throw new UsageError('trails archive: --older-than is required (e.g. 90d)');
  const olderThanMs = parseDuration(age);
  const store = openStore(storeOptionsFromEnv(io.env));
  try {
    await store.migrate();
    const archived = await archiveFinishedTrails(store, olderThanMs);
    io.stdout.write(`Archived ${archived} completed or cancelled trail${archived === 1 ? '' : 's'} last changed more than ${age} ago.\n`);
  } finally {
    await store.close();
  }
}
