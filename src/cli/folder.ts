/**
 * `waymark export` and `waymark import` (issue 30): the folder on disk, the operator acting on one account. Thin:
 * they read or write the files, call the export or import service once, and print what it answers.
 */
import { operatorActor } from '../services/actor.js';
import type { ImportPlan } from '../services/folder/shapes.js';
import type { Services } from '../services/index.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { readFolderFiles, writeFolderFiles } from './folder-files.js';
import { EXIT, type CliIo } from './io.js';
import { withServices } from './commands.js';

export async function exportFolder(argv: string[], io: CliIo): Promise<void> {
  const args = parseArgs(argv, { values: ['flow', 'scope', 'account', 'out'], flags: [] });
  if (args.positionals.length > 0) throw new UsageError('export takes no positional arguments: the folder is --out DIR');
  const flow = stringOption(args, 'flow');
  const scope = stringOption(args, 'scope');
  const account = stringOption(args, 'account');
  const out = stringOption(args, 'out');
  if (!out) throw new UsageError('--out DIR is required');
  if ((flow ? 1 : 0) + (scope ? 1 : 0) + (account && !flow && !scope ? 1 : 0) !== 1) throw new UsageError('export one of: --flow ID, --scope ID or --account ID');
  await withServices(io, async (services) => {
    const accountId = account ?? (await services.folderExport.accountOf({ flow_id: flow, scope_id: scope }));
    const exported = await services.folderExport.export(operatorActor(accountId), flow ? { flow_id: flow } : { scope_id: scope ?? null });
    const removed = await writeFolderFiles(out, exported.files);
    for (const note of exported.left_out) io.stderr.write(`left out: ${note}\n`);
    io.stderr.write(`Wrote ${exported.files.length} files to ${out}${removed > 0 ? `, removed ${removed} no longer exported` : ''}.\n`);
  }, 'export');
}

function planText(plan: ImportPlan): string {
  const lines: string[] = [];
  const section = (name: string, p: { added: string[]; changed: string[]; archived?: string[]; unchanged: number }) => {
    lines.push(`${name}: ${p.added.length} added, ${p.changed.length} changed, ${p.archived ? `${p.archived.length} archived, ` : ''}${p.unchanged} unchanged`);
    for (const path of p.added) lines.push(`  + ${path}`);
    for (const path of p.changed) lines.push(`  ~ ${path}`);
    for (const path of p.archived ?? []) lines.push(`  - ${path}`);
  };
  section('bits', plan.bits);
  section('references', plan.references);
  section('flows', plan.flows);
  lines.push(`connections: ${plan.connections.added.length} added, ${plan.connections.removed.length} removed`);
  for (const c of plan.connections.added) lines.push(`  + ${c}`);
  for (const c of plan.connections.removed) lines.push(`  - ${c}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Exit codes for CI: 0 imported (or nothing to change; a dry run that found the folder valid), 1 the folder or the
 * store refused (nothing written), 2 usage; with --check (a dry run), 3 when the folder differs from Waymark.
 */
export async function importFolder(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { values: ['account', 'scope'], flags: ['dry-run', 'prune', 'check'] });
  if (args.positionals.length !== 1) throw new UsageError('import takes the folder: waymark import --account ID [--scope ID] [--dry-run] [--prune] DIR');
  const accountId = stringOption(args, 'account');
  if (!accountId) throw new UsageError('--account is required');
  const check = args.options.check === true;
  const files = await readFolderFiles(args.positionals[0]);
  const plan = await withServices(io, (services: Services) =>
    services.folderImport.import(operatorActor(accountId), { files, scope_id: stringOption(args, 'scope') ?? null, dry_run: check || args.options['dry-run'] === true, prune: args.options.prune === true }),
  'import');
  io.stdout.write(planText(plan));
  io.stderr.write(plan.dry_run ? `Dry run: nothing written.\n` : plan.changed ? `Imported.\n` : `Nothing to change.\n`);
  return check && plan.changed ? EXIT.changes : EXIT.ok;
}
