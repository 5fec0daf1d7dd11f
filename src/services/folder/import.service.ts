/**
 * Import (issue 30): a folder into a scope or the account level, in one transaction, after every file was checked
 * (read-folder.ts: nothing is written unless all of it is valid). A file is the record of its id: the same record
 * is updated (a new revision) where it changed, left alone where it did not, so importing a folder twice changes
 * nothing the second time; a record without a file is archived only with `prune`. A dry run answers the plan alone.
 *
 * Which record a file is: its folder id (the id in its front matter, else its path's) where the account has that
 * record in the same scope, else the id derived for this account and scope (ids.ts idIn) where that is one. A new
 * record keeps its folder id where no row anywhere holds it (a folder moved to another server keeps its ids, so
 * exporting it there gives the same files), else takes the derived one (a copy beside the original in one store).
 */
import { collectConnections, walk, type CitationNode, type ConnectionNode, type SlateBody } from '../../content/index.js';
import { bitBody, lockBitHeadForWrite, updateBit } from '../../store/repositories/bits.repo.js';
import { bitsByIds, bitsOfScope, flowsByIds, referencesByIds, referencesOfScope, takenIds } from '../../store/repositories/folder.repo.js';
import type { BitTable, FlowTable } from '../../store/schema.js';
import type { Store, Tx } from '../../store/store.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import type { BitsService } from '../bits/bits.service.js';
import { nextModified } from '../clock.js';
import { prepareBodyOffThread } from '../convert/pool.js';
import { recordChange } from '../events/record.js';
import { inTransaction } from '../fair-share.js';
import type { FlowsService } from '../flows/flows.service.js';
import type { TrailContextSchema } from '../flows/trail-context-schema.js';
import type { ReferencesService } from '../references/references.service.js';
import { resolveScope } from '../scopes.js';
import { writeBitFile, type BitLink, type BitRecord, type RecordNames } from './bit-file.js';
import { assertFolderBounds } from './bounds.js';
import { canonicalJson } from './canonical.js';
import type { ExportService } from './export.service.js';
import { idIn } from './ids.js';
import { relativeName } from './layout.js';
import { readFolder, type FolderRecord, type ReadFolder } from './read-folder.js';
import { portableAssignees, resolveFolderAssignees } from './assignees.js';
import { importInvalid } from './problems.js';
import type { ReadBit } from './bit-file.js';
import type { FolderFile, ImportPlan } from './shapes.js';

export interface ImportInput {
  files: FolderFile[];
  /** Omitted or null: the account level. */
  scope_id?: string | null;
  dry_run?: boolean;
  prune?: boolean;
}

type ReferenceRow = Awaited<ReturnType<typeof referencesByIds>>[number];

interface Match<R> {
  /** The store id the file's record has, or takes. */
  id: string;
  /** The record as stored; undefined for a new one. */
  row: R | undefined;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A copy of the body with its connection targets and citations moved from folder ids to store ids. */
function remapped(body: SlateBody, bits: ReadonlyMap<string, string>, references: ReadonlyMap<string, string>): SlateBody {
  const copy = structuredClone(body);
  walk(copy.children, (node) => {
    const type = (node as { type?: string }).type;
    if (type === 'bit-connection') {
      const c = node as ConnectionNode;
      c.target_bit_id = bits.get(c.target_bit_id) ?? c.target_bit_id;
      return false;
    }
    if (type === 'citation') {
      const c = node as CitationNode;
      c.reference_id = references.get(c.reference_id) ?? c.reference_id;
    }
    return true;
  });
  return copy;
}

/** Which record each folder id is, in the account and scope (the rule at the top of this file). */
async function matchIds<R extends { id: string; scope_id: string | null }>(
  folderIds: readonly string[],
  accountId: string,
  scopeId: string | null,
  read: (ids: readonly string[]) => Promise<R[]>,
  taken: (ids: readonly string[]) => Promise<Set<string>>,
  usable: (row: R) => boolean = () => true,
): Promise<Map<string, Match<R>>> {
  const derived = new Map(folderIds.map((id) => [id, idIn(accountId, scopeId, id)]));
  const rows = new Map((await read([...folderIds, ...derived.values()])).map((r) => [r.id, r]));
  const fits = (row: R | undefined) => row !== undefined && row.scope_id === scopeId && usable(row);
  const unmatched = folderIds.filter((id) => !fits(rows.get(id)) && !fits(rows.get(derived.get(id)!)));
  const held = await taken(unmatched);
  const out = new Map<string, Match<R>>();
  for (const id of folderIds) {
    const own = rows.get(id);
    const other = rows.get(derived.get(id)!);
    if (fits(own)) out.set(id, { id, row: own });
    else if (fits(other)) out.set(id, { id: derived.get(id)!, row: other });
    else out.set(id, { id: held.has(id) ? derived.get(id)! : id, row: undefined });
  }
  return out;
}

/** Connections as `source → target` lines, the ones of `before` not in `after` (a multiset difference). */
function missing(before: readonly string[], after: readonly string[]): string[] {
  const left = [...after];
  return before.filter((c) => {
    const i = left.indexOf(c);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

interface BitStep {
  record: FolderRecord<ReadBit>;
  id: string;
  row: BitTable | undefined;
  body: SlateBody;
  links: BitLink[];
  change: 'added' | 'changed' | 'unchanged';
}

export class ImportService {
  constructor(
    private readonly store: Store,
    private readonly bits: BitsService,
    private readonly flows: FlowsService,
    private readonly references: ReferencesService,
    private readonly exporter: ExportService,
  ) {}

  async import(actor: Actor, input: ImportInput): Promise<ImportPlan> {
    assertFolderBounds(input.files);
    // Where it goes is checked first, as a tool checks its scope before its body.
    assertCanWriteIn(actor, await resolveScope(this.store.db, actor, input.scope_id));
    const folder = await readFolder(input.files);
    return this.store.transaction(async (tx) => {
      const scopeId = await resolveScope(tx, actor, input.scope_id);
      assertCanWriteIn(actor, scopeId);
      return this.plan(tx, actor, scopeId, folder, input);
    });
  }

  private async plan(tx: Tx, actor: Actor, scopeId: string | null, folder: ReadFolder, input: ImportInput): Promise<ImportPlan> {
    const accountId = actor.accountId;
    const parse = <T>(raw: unknown) => this.store.dialect.parseJson<T>(raw);
    const refMatch = await matchIds<ReferenceRow>(
      folder.references.map((r) => r.folderId),
      accountId,
      scopeId,
      (ids) => referencesByIds(tx, accountId, ids),
      (ids) => takenIds(tx, 'library_references', ids),
      // An archived reference cannot be made active again (REFERENCE_UNARCHIVE_UNSUPPORTED): its file is a new one.
      (row) => row.is_active === 1,
    );
    const bitMatch = await matchIds<BitTable>(folder.bits.map((b) => b.folderId), accountId, scopeId, (ids) => bitsByIds(tx, accountId, ids), (ids) => takenIds(tx, 'bits', ids));
    const flowMatch = await matchIds<FlowTable>(folder.flows.map((f) => f.folderId), accountId, scopeId, (ids) => flowsByIds(tx, accountId, ids), (ids) => takenIds(tx, 'flows', ids));
    const storedLinks = await this.exporter.linksOf(tx, [...bitMatch.values()].flatMap((m) => (m.row ? [m.row.id] : [])));
    // Who the files' bits name as their assignees, resolved before anything is compared or written.
    const portable = await portableAssignees(tx, accountId);
    const assigneeProblems = await resolveFolderAssignees(tx, actor, scopeId, folder.bits, portable);
    if (assigneeProblems.length > 0) throw importInvalid(assigneeProblems);
    const bitIds = new Map([...bitMatch].map(([folderId, m]) => [folderId, m.id]));
    const referenceIds = new Map([...refMatch].map(([folderId, m]) => [folderId, m.id]));
    const bitPaths = new Map(folder.bits.map((b) => [bitMatch.get(b.folderId)!.id, b.path]));
    const referencePaths = new Map(folder.references.map((r) => [refMatch.get(r.folderId)!.id, r.path]));
    const namesFrom = (path: string): RecordNames => ({
      bit: (id) => (bitPaths.has(id) ? relativeName(path, bitPaths.get(id)!) : undefined),
      reference: (id) => (referencePaths.has(id) ? relativeName(path, referencePaths.get(id)!) : undefined),
    });
    const plan: ImportPlan = {
      dry_run: input.dry_run === true,
      bits: { added: [], changed: [], archived: [], unchanged: 0 },
      references: { added: [], changed: [], archived: [], unchanged: 0 },
      flows: { added: [], changed: [], unchanged: 0 },
      connections: { added: [], removed: [] },
      changed: false,
    };
    const connectionLines = (path: string, body: SlateBody) => collectConnections(body).map((c) => `${path} → ${bitPaths.get(c.target_bit_id) ?? c.target_bit_id}`);

    // References: compared as get_reference holds them.
    const referenceSteps = folder.references.map((record) => {
      const { id, row } = refMatch.get(record.folderId)!;
      const fields = (r: { title: string; abstract: string | null; categories: string[]; content: unknown }) => canonicalJson([r.title, r.abstract, r.categories, r.content]);
      const change = !row ? 'added' : fields(record.read) === fields(this.exporter.referenceRecord(row)) ? 'unchanged' : 'changed';
      return { record, id, change } as const;
    });
    // Bits: compared as their files, both written the way export writes them.
    const bitSteps: BitStep[] = folder.bits.map((record) => {
      const { id, row } = bitMatch.get(record.folderId)!;
      const body = remapped(record.read.body, bitIds, referenceIds);
      const names = namesFrom(record.path);
      const links = record.read.links.map((l) => ({ ...l, reference_id: referenceIds.get(l.reference_id) ?? l.reference_id }));
      const imported: BitRecord = { ...record.read, id, body, links };
      let change: BitStep['change'] = 'added';
      if (row) change = row.status === 'active' && writeBitFile(this.exporter.bitRecord(row, storedLinks.get(row.id) ?? [], portable), names) === writeBitFile(imported, names) ? 'unchanged' : 'changed';
      if (change !== 'unchanged') {
        const before = row ? connectionLines(record.path, parse<SlateBody>(row.body)) : [];
        const after = connectionLines(record.path, body);
        plan.connections.added.push(...missing(after, before));
        plan.connections.removed.push(...missing(before, after));
      }
      return { record, id, row, body, links, change };
    });
    const flowSteps = folder.flows.map((record) => {
      const { id, row } = flowMatch.get(record.folderId)!;
      const startId = bitIds.get(record.startFolderId)!;
      const { title, description, categories, priority, trail_context_schema } = record.read;
      const wanted = canonicalJson([title, description, categories, priority, startId, trail_context_schema]);
      const stored = row && canonicalJson([row.title, row.description, parse(row.categories), row.priority, row.start_bit_id, row.trail_context_schema === null ? null : parse(row.trail_context_schema)]);
      return { record, id, row, startId, change: !row ? 'added' : wanted === stored ? 'unchanged' : 'changed' } as const;
    });

    // What has no file any more: archived only when asked.
    const keptBits = new Set(bitSteps.map((s) => s.id));
    let pruneBits: BitTable[] = [];
    let pruneReferences: ReferenceRow[] = [];
    if (input.prune) {
      if (folder.contents === 'all') {
        pruneBits = (await bitsOfScope(tx, accountId, scopeId)).filter((b) => !keptBits.has(b.id));
        const keptReferences = new Set(referenceSteps.map((s) => s.id));
        pruneReferences = (await referencesOfScope(tx, accountId, scopeId)).filter((r) => !keptReferences.has(r.id));
      } else {
        // A flow's folder holds the bits it reaches: what it reached before and no longer holds goes.
        const starts = flowSteps.flatMap((s) => (s.row ? [s.row.start_bit_id] : []));
        const reached = new Map<string, BitTable>();
        for (const start of starts) for (const bit of await this.exporter.reached(tx, accountId, start)) reached.set(bit.id, bit);
        pruneBits = [...reached.values()].filter((b) => !keptBits.has(b.id) && b.scope_id === scopeId);
      }
    }
    const archivedName = (b: { id: string; title: string }) => `${b.title} (${b.id})`;
    for (const bit of pruneBits) {
      plan.bits.archived.push(archivedName(bit));
      plan.connections.removed.push(...collectConnections(parse<SlateBody>(bit.body)).map((c) => `${archivedName(bit)} → ${bitPaths.get(c.target_bit_id) ?? c.target_bit_id}`));
    }
    plan.references.archived.push(...pruneReferences.map(archivedName));
    for (const [steps, out] of [
      [referenceSteps, plan.references],
      [bitSteps, plan.bits],
      [flowSteps, plan.flows],
    ] as const) {
      for (const step of steps as ReadonlyArray<{ record: { path: string }; change: string }>) {
        if (step.change === 'unchanged') out.unchanged++;
        else (step.change === 'added' ? out.added : out.changed).push(step.record.path);
      }
    }
    for (const list of [plan.bits.added, plan.bits.changed, plan.bits.archived, plan.references.added, plan.references.changed, plan.references.archived, plan.flows.added, plan.flows.changed, plan.connections.added, plan.connections.removed]) list.sort(byName);
    plan.changed = [plan.bits, plan.references, plan.flows].some((p) => p.added.length + p.changed.length > 0) || plan.bits.archived.length + plan.references.archived.length > 0;
    if (plan.dry_run || !plan.changed) return plan;

    // The writes, in the order their checks need: references before the bits that cite them, every new bit's row
    // before any body (bodies connect to each other), flows after their start bits, archives last.
    for (const step of referenceSteps) {
      const { title, abstract, categories, content } = step.record.read;
      // An empty abstract stores null (authoring-interface.md, Reference), as the file leaving it out means.
      if (step.change === 'added') await this.references.createIn(tx, actor, { reference_title: title, reference_abstract: abstract ?? '', reference_categories: categories, reference_content: content, scope_id: scopeId }, step.id);
      if (step.change === 'changed') await this.references.updateIn(tx, actor, { reference_id: step.id, reference_title: title, reference_abstract: abstract ?? '', reference_categories: categories, reference_content: content });
    }
    const fieldsOf = (read: ReadBit) => ({
      bit_title: read.title,
      bit_abstract: read.abstract ?? '',
      bit_description: read.description ?? '',
      bit_categories: read.categories,
      complexity: read.complexity,
      human_required: read.human_required,
      assignee: read.assignee,
      expected_duration: read.expected_duration,
    });
    for (const step of bitSteps) {
      if (step.change === 'added') await this.bits.insertIn(tx, actor, step.id, scopeId, fieldsOf(step.record.read));
      // A file of an archived bit brings it back (as POST /api/v1/bits/{bit_id}/restore would), before any body
      // that connects to it is written: a connection's target must be active.
      else if (step.row?.status === 'archived') await updateBit(tx, step.id, { status: 'active' });
    }
    for (const step of bitSteps) {
      if (step.change === 'unchanged') continue;
      const head = (await lockBitHeadForWrite(tx, this.store.dialect, step.id, actor))!;
      // The stored body as the store gives it (JSON text on SQLite: the conversion parses it): its connections are
      // what the new body's claim their ids from (Body syntax rule 5), and its nodes what a revision is diffed against.
      const previous = step.change === 'changed' ? ((await bitBody(tx, step.id)) as SlateBody | string) : undefined;
      const prepared = await inTransaction(() => prepareBodyOffThread({ bit_body: step.body.children, content_format: 'slate' }, previous));
      const changes: Parameters<typeof updateBit>[2] = {
        ...this.bits.fieldChanges(fieldsOf(step.record.read)),
        ...(step.change === 'changed' ? await this.bits.assigneeChange(tx, actor, step.record.read.assignee, scopeId) : {}),
        body: await this.bits.storeBodyIn(tx, actor, head, prepared),
      };
      if (step.change === 'changed') changes.updated_at = nextModified(head.updated_at);
      await updateBit(tx, step.id, changes);
      await this.references.setLinksIn(tx, actor, head, step.links);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: step.id, scopeId, summary: { imported: step.change, ...(step.row?.status === 'archived' ? { status: 'active' } : {}) } });
    }
    for (const step of flowSteps) {
      const { title, description, categories, priority, trail_context_schema } = step.record.read;
      const schema = trail_context_schema as TrailContextSchema | null;
      if (step.change === 'added') {
        await this.flows.createIn(tx, actor, { flow_title: title, flow_description: description, flow_categories: categories, priority, start_bit_id: step.startId, scope_id: scopeId, trail_context_schema: schema }, step.id);
      }
      if (step.change === 'changed') {
        await this.flows.updateIn(tx, actor, { flow_id: step.id, flow_title: title, flow_description: description, flow_categories: categories, priority, start_bit_id: step.startId, trail_context_schema: schema });
      }
    }
    for (const bit of pruneBits) await this.bits.archiveIn(tx, actor, { bit_id: bit.id });
    for (const reference of pruneReferences) await this.references.updateIn(tx, actor, { reference_id: reference.id, is_active: false });
    return plan;
  }
}
