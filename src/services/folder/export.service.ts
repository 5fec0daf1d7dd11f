/**
 * Export (issue 30): a flow with the bits it reaches, or every bit, flow and reference of a scope or of the account
 * level, as the files of a folder. Deterministic: the same records give the same bytes (files in path order, keys
 * in a fixed order, no times or store-local values), so a folder kept in git changes only where the content did.
 */
import { collectCitations, collectConnections, type SlateBody } from '../../content/index.js';
import { WaymarkError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { findScope } from '../../store/repositories/auth.repo.js';
import { folderTooLarge } from './bounds.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import { bitsByIds, bitsOfScope, flowsOfScope, linksOfBits, referencesByIds, referencesOfScope } from '../../store/repositories/folder.repo.js';
import type { BitTable, FlowTable } from '../../store/schema.js';
import type { Db, Store, Tx } from '../../store/store.js';
import type { Actor } from '../actor.js';
import type { SlateNode } from '../references/content.js';
import { resolveScope } from '../scopes.js';
import type { TrailContextSchema } from '../flows/trail-context-schema.js';
import { writeBitFile, type BitRecord } from './bit-file.js';
import { portableAssignees, type Portable } from './assignees.js';
import { writeFlowFile } from './flow-file.js';
import { FORMAT_NAME, FORMAT_VERSION, MANIFEST_FILE, namePaths, relativeName } from './layout.js';
import type { Manifest } from './format.js';
import { referenceMarkdown, writeReferenceFile, type ReferenceRecord } from './reference-file.js';
import type { Exported, FolderFile } from './shapes.js';

export interface ExportInput {
  /** One flow and the bits it reaches. */
  flow_id?: string;
  /** Every record of this scope; omitted (with no flow_id): of the account level. With flow_id: the flow's scope. */
  scope_id?: string | null;
}

type ReferenceRow = Awaited<ReturnType<typeof referencesOfScope>>[number];

export function manifestText(contents: Manifest['contents']): string {
  const manifest: Manifest = { format: FORMAT_NAME, version: FORMAT_VERSION, contents };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export class ExportService {
  constructor(private readonly store: Store) {}

  private parse<T>(raw: unknown): T {
    return this.store.dialect.parseJson<T>(raw);
  }

  /** A bit row as its file holds it; `links`: its reference links in display order; `portable`: how it names its assignee. */
  bitRecord(row: BitTable, links: ReadonlyArray<{ reference_id: string; display_label: string | null }>, portable: Portable): BitRecord {
    return {
      assignee: portable(row.assignee),
      expected_duration: row.expected_duration,
      links: links.map((l) => ({ reference_id: l.reference_id, display_label: l.display_label })),
      id: row.id,
      title: row.title,
      abstract: row.abstract,
      description: row.description,
      categories: this.parse<string[]>(row.categories),
      complexity: row.complexity,
      human_required: row.human_required === 1,
      body: this.parse<SlateBody>(row.body),
    };
  }

  referenceRecord(row: ReferenceRow): ReferenceRecord {
    return { id: row.id, title: row.title, abstract: row.abstract, categories: this.parse<string[]>(row.categories), content: this.parse<SlateNode[]>(row.content) };
  }

  /** The reference links of these bits, by bit, in display order. */
  async linksOf(q: Db | Tx, bitIds: readonly string[]): Promise<Map<string, Array<{ reference_id: string; display_label: string | null }>>> {
    const out = new Map<string, Array<{ reference_id: string; display_label: string | null }>>();
    for (const link of await linksOfBits(q, bitIds)) out.set(link.bit_id, [...(out.get(link.bit_id) ?? []), link]);
    return out;
  }

  /** The active bits a flow reaches from its start bit along connections (an import prunes a flow folder among them). */
  async reached(q: Db | Tx, accountId: string, startId: string): Promise<BitTable[]> {
    const found = new Map<string, BitTable>();
    let next = [startId];
    while (next.length > 0) {
      const rows = (await bitsByIds(q, accountId, next)).filter((b) => b.status === 'active' && !found.has(b.id));
      for (const row of rows) found.set(row.id, row);
      next = [...new Set(rows.flatMap((row) => collectConnections(this.parse<SlateBody>(row.body)).map((c) => c.target_bit_id)))].filter((id) => !found.has(id));
    }
    return [...found.values()];
  }

  /** export for an answer: refused over LIMITS.exportInlineBytes, which the command line writes to disk instead. */
  async exportInline(actor: Actor, input: ExportInput): Promise<Exported> {
    const exported = await this.export(actor, input);
    let bytes = 0;
    for (const file of exported.files) bytes += Buffer.byteLength(file.content, 'utf8');
    if (bytes > LIMITS.exportInlineBytes) throw folderTooLarge('exportInlineBytes');
    return exported;
  }

  /** The account a flow or scope belongs to, for the command line's operator, who names no account. */
  async accountOf(input: { flow_id?: string; scope_id?: string }): Promise<string> {
    if (input.flow_id !== undefined) {
      const flow = await findFlow(this.store.db, input.flow_id);
      if (!flow) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${input.flow_id} in this store.`, { flow_id: input.flow_id });
      return flow.account_id;
    }
    const scope = input.scope_id === undefined ? undefined : await findScope(this.store.db, input.scope_id);
    if (!scope) throw new WaymarkError('SCOPE_NOT_FOUND', `No scope ${input.scope_id} in this store.`, { scope_id: input.scope_id });
    return scope.account_id;
  }

  async export(actor: Actor, input: ExportInput): Promise<Exported> {
    const q = this.store.db;
    const leftOut: string[] = [];
    let bits: BitTable[];
    let flows: FlowTable[];
    let references: ReferenceRow[] = [];
    let contents: Manifest['contents'];
    if (input.flow_id !== undefined) {
      // With a scope too, the flow is looked for in that scope only.
      const scopeId = input.scope_id === undefined ? undefined : await resolveScope(q, actor, input.scope_id);
      const found = await findFlow(q, input.flow_id, actor);
      const flow = scopeId === undefined || found?.scope_id === scopeId ? found : undefined;
      if (!flow) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${input.flow_id} is visible to this token: list_flows shows the flows you can export.`, { flow_id: input.flow_id });
      bits = await this.reached(q, actor.accountId, flow.start_bit_id);
      flows = [flow];
      contents = 'flow';
    } else {
      const scopeId = await resolveScope(q, actor, input.scope_id);
      bits = await bitsOfScope(q, actor.accountId, scopeId);
      flows = await flowsOfScope(q, actor.accountId, scopeId);
      references = await referencesOfScope(q, actor.accountId, scopeId);
      contents = 'all';
    }
    const links = await this.linksOf(q, bits.map((b) => b.id));
    const portable = await portableAssignees(q, actor.accountId);
    const records = bits.map((b) => this.bitRecord(b, links.get(b.id) ?? [], portable));
    // References the bits cite or link are part of what they say, whatever the scope's list holds (an archived one too).
    const listed = new Set(references.map((r) => r.id));
    const cited = [...new Set(records.flatMap((b) => [...collectCitations(b.body), ...b.links.map((l) => l.reference_id)]))].filter((id) => !listed.has(id)).sort();
    references = [...references, ...(await referencesByIds(q, actor.accountId, cited))];
    return this.files(records, references.map((r) => this.referenceRecord(r)), flows, contents, leftOut);
  }

  /** The folder's files for these records, in path order. */
  private files(bits: BitRecord[], references: ReferenceRecord[], flowRows: FlowTable[], contents: Manifest['contents'], leftOut: string[]): Exported {
    const markdown = new Map(references.map((r) => [r.id, referenceMarkdown(r)]));
    const bitPaths = namePaths('bit', bits.map((b) => ({ id: b.id, title: b.title, extension: '.md' })));
    const referencePaths = namePaths('reference', references.map((r) => ({ id: r.id, title: r.title, extension: markdown.get(r.id) === null ? '.json' : '.md' })));
    const flows = flowRows.filter((f) => {
      if (bitPaths.has(f.start_bit_id)) return true;
      leftOut.push(`flow ${f.id} (${f.title}): its start bit ${f.start_bit_id} is archived`);
      return false;
    });
    const flowPaths = namePaths('flow', flows.map((f) => ({ id: f.id, title: f.title, extension: '.yaml' })));
    const files: FolderFile[] = [{ path: MANIFEST_FILE, content: manifestText(contents) }];
    for (const bit of bits) {
      const path = bitPaths.get(bit.id)!;
      const names = {
        bit: (id: string) => (bitPaths.has(id) ? relativeName(path, bitPaths.get(id)!) : undefined),
        reference: (id: string) => (referencePaths.has(id) ? relativeName(path, referencePaths.get(id)!) : undefined),
      };
      files.push({ path, content: writeBitFile(bit, names) });
    }
    for (const reference of references) files.push({ path: referencePaths.get(reference.id)!, content: writeReferenceFile(reference, markdown.get(reference.id) ?? null) });
    for (const flow of flows) {
      const path = flowPaths.get(flow.id)!;
      files.push({
        path,
        content: writeFlowFile({
          id: flow.id,
          title: flow.title,
          description: flow.description,
          categories: this.parse<string[]>(flow.categories),
          priority: flow.priority,
          start_bit: relativeName(path, bitPaths.get(flow.start_bit_id)!),
          trail_context_schema: flow.trail_context_schema === null ? null : this.parse<TrailContextSchema>(flow.trail_context_schema),
        }),
      });
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, left_out: leftOut };
  }
}
