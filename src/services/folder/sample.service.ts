/**
 * The sample flow (issue 28): a new account's first screen need not be empty. The sample is a folder of the export
 * format shipped with the package (examples/sample: every element type, a branch on an answer, a step only a person
 * may do); adding it is an import of that folder (import_folder, so its rules, events and revisions apply, and
 * adding it twice changes nothing), then, by an Admin, approving and activating its flow so it can be run at once.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleFolder } from '../../config.js';
import { flowsByIds } from '../../store/repositories/folder.repo.js';
import type { Store } from '../../store/store.js';
import { permissionAtLeast, type Actor } from '../actor.js';
import type { FlowsService } from '../flows/flows.service.js';
import type { ImportPlan, FolderFile } from './shapes.js';
import type { ImportService } from './import.service.js';
import { idIn, idOfPath } from './ids.js';

/** The sample's flow file: the one flow of the folder. */
const FLOW_FILE = 'flows/welcome-a-new-colleague.yaml';

async function filesUnder(root: string, relative = ''): Promise<FolderFile[]> {
  const files: FolderFile[] = [];
  for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await filesUnder(root, path)));
    else if (entry.isFile()) files.push({ path, content: await readFile(join(root, path), 'utf8') });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface SampleFlow {
  /** The folder's files, as import_folder takes them. */
  files: FolderFile[];
  /** The sample's flow in the caller's account and scope, once added; null before. */
  flow_id: string | null;
}

export class SampleService {
  constructor(
    private readonly store: Store,
    private readonly importer: ImportService,
    private readonly flows: FlowsService,
  ) {}

  async get(actor: Actor): Promise<SampleFlow> {
    return { files: await filesUnder(sampleFolder()), flow_id: await this.flowId(actor) };
  }

  /** The flow's id as the import gives it (import.service.ts: the folder id, else the one derived for the account and scope). */
  private async flowId(actor: Actor): Promise<string | null> {
    const folderId = idOfPath(FLOW_FILE);
    const candidates = [folderId, idIn(actor.accountId, actor.scopeId, folderId)];
    const rows = await flowsByIds(this.store.db, actor.accountId, candidates);
    return rows.find((row) => row.scope_id === actor.scopeId)?.id ?? null;
  }

  /**
   * Adds the sample in the caller's scope (the command line's `init --sample`); an Admin's is approved and activated,
   * so a trail can start on it at once.
   */
  async add(actor: Actor): Promise<{ plan: ImportPlan; flow_id: string; active: boolean }> {
    const plan = await this.importer.import(actor, { files: await filesUnder(sampleFolder()), scope_id: actor.scopeId });
    const flowId = await this.flowId(actor);
    if (!flowId) throw new Error('the sample folder was imported but its flow is not there');
    if (!permissionAtLeast(actor.permission, 'admin')) return { plan, flow_id: flowId, active: false };
    const flow = await this.flows.get(actor, { flow_id: flowId });
    if (flow.review_status !== 'approved') await this.flows.review(actor, { flow_id: flowId, review_status: 'approved' });
    if (!flow.is_active) await this.flows.update(actor, { flow_id: flowId, is_active: true });
    return { plan, flow_id: flowId, active: true };
  }
}
