/**
 * Bits: add_bit, get_bit, update_bit, archive_bit (authoring-interface.md, "Bit", "Body syntax",
 * "add_bit", "update_bit", "archive_bit", "States and transitions"; CONTRACT.md, get_bit).
 */
import { randomUUID } from 'node:crypto';
import {
  applyElementEdits,
  collectCitations,
  removeConnections,
  type ElementEntry,
  type SlateBody,
} from '../../content/index.js';
import { WaymarkError } from '../../errors.js';
import { bitBody, findBit, findBits, insertBit, lockBitForWrite, lockBitHeadForWrite, updateBit } from '../../store/repositories/bits.repo.js';
import { activeFlowsStartingAt } from '../../store/repositories/flows.repo.js';
import { listLinksForBit } from '../../store/repositories/links.repo.js';
import type { BitTable } from '../../store/schema.js';
import type { ReferenceLink } from '../references/shapes.js';
import type { Store, Tx } from '../../store/store.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import type { BodyInput, PreparedBody } from './body.js';
import { prepareBodyOffThread, readBodyOffThread } from '../convert/pool.js';
import { inTransaction } from '../fair-share.js';
import { bodyView, type BodyView } from '../convert/task.js';
import { blankToNull, checkTitle, checkTitleIfGiven } from './text-fields.js';
import { nextModified, nowIso } from '../clock.js';
import { clearIncoming, queueArchive, syncConnectionList, syncConnectionRows } from './connection-rows.js';
import type { ReferencesService } from '../references/references.service.js';
import { resolveScope } from '../scopes.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import type { BitView, BitWriteResult } from './shapes.js';
import { bitSummary } from './view.js';
import { assigneeName, checkedDuration, resolveAssignee } from './assignee-field.js';

type Complexity = BitTable['complexity'];

export interface AddBitInput extends BodyInput {
  bit_title: string;
  bit_abstract?: string;
  bit_description?: string;
  bit_categories?: string[];
  complexity?: Complexity;
  human_required?: boolean;
  /** Who does the bit's step (assignee.ts's forms); the stored form is resolved by assignee-field.ts. */
  assignee?: string | null;
  /** How long its step should take, ISO 8601. */
  expected_duration?: string | null;
  scope_id?: string;
}

export interface UpdateBitInput extends Partial<BodyInput> {
  bit_id: string;
  bit_title?: string;
  bit_abstract?: string;
  bit_description?: string;
  bit_categories?: string[];
  complexity?: Complexity;
  human_required?: boolean;
  /** null clears. */
  assignee?: string | null;
  expected_duration?: string | null;
  remove_node_ids?: string[];
}

export class BitsService {
  constructor(
    private readonly store: Store,
    private readonly references: ReferencesService,
  ) {}

  private parseBody(raw: unknown): SlateBody {
    return this.store.dialect.parseJson<SlateBody>(raw);
  }

  /** A new body prepared against the stored one, handed on as the store gave it (JSON text on SQLite: the worker parses it). */
  private prepareAgainst(stored: unknown, input: BodyInput, removeNodeIds: string[] | undefined): Promise<PreparedBody> {
    return prepareBodyOffThread(input, typeof stored === 'string' ? stored : this.parseBody(stored), removeNodeIds);
  }

  /** get_bit's view of a stored body in Slate: its nodes, elements and connection nodes. */
  private slateView(stored: unknown): BodyView<SlateBody['children']> {
    const body = this.parseBody(stored);
    return bodyView(body, body.children);
  }

  /** The bit, visible to the actor, locked for the transaction; else BIT_NOT_FOUND. */
  private async lockVisible(tx: Tx, actor: Actor, bitId: string) {
    const bit = await lockBitForWrite(tx, this.store.dialect, bitId, actor);
    if (!bit) throw notFound(bitId);
    return bit;
  }

  async add(actor: Actor, input: AddBitInput): Promise<BitWriteResult> {
    const title = checkTitle(input.bit_title, 'bit_title');
    checkedDuration(input.expected_duration ?? null);
    // The body converts before the transaction (a large one in the conversion worker), so that no lock is held
    // while it does; the scope is checked first, as inside, so that its errors come before the body's.
    assertCanWriteIn(actor, await resolveScope(this.store.db, actor, input.scope_id));
    const prepared = await prepareBodyOffThread(input, undefined);
    return this.store.transaction(async (tx) => {
      const scopeId = await resolveScope(tx, actor, input.scope_id);
      assertCanWriteIn(actor, scopeId);
      const row = await this.insertIn(tx, actor, randomUUID(), scopeId, { ...input, bit_title: title });
      const body = await this.storeBodyIn(tx, actor, row, prepared);
      await updateBit(tx, row.id, { body });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: row.id, scopeId });
      return { bit_id: row.id, last_modified_date_time_utc: row.updated_at, minted_node_ids: prepared.minted, removed_node_ids: [] };
    });
  }

  /**
   * A new bit's row, its body still empty, in the caller's transaction (which checked the scope): the row goes in
   * first so that connection rows can name it, its own and, in an import, other new bits'. No event: the caller
   * writes the body next and records the change once.
   */
  async insertIn(tx: Tx, actor: Actor, id: string, scopeId: string | null, fields: Omit<AddBitInput, keyof BodyInput | 'scope_id'>) {
    const now = nowIso();
    const assignee = await resolveAssignee(tx, actor, fields.assignee ?? null, scopeId);
    const row = {
      id,
      account_id: actor.accountId,
      scope_id: scopeId,
      title: checkTitle(fields.bit_title, 'bit_title'),
      abstract: blankToNull(fields.bit_abstract ?? null),
      description: blankToNull(fields.bit_description ?? null),
      categories: this.store.dialect.json(fields.bit_categories ?? []),
      complexity: fields.complexity ?? 'medium',
      human_required: fields.human_required ? 1 : 0,
      assignee,
      expected_duration: checkedDuration(fields.expected_duration ?? null),
      status: 'active' as const,
      created_by: actor.principalId,
      created_at: now,
      updated_at: now,
    };
    await insertBit(tx, { ...row, body: this.store.dialect.json({ children: [] }) });
    return row;
  }

  /**
   * A prepared body for a bit the caller holds (locked, or just inserted): the references it newly cites are
   * checked and its connection rows follow its connection nodes. Answers the body column's new value.
   */
  async storeBodyIn(tx: Tx, actor: Actor, bit: { id: string; account_id: string; scope_id: string | null }, prepared: PreparedBody) {
    // Only citations this write adds are checked: one the body already held stays when its reference
    // was archived since (archiving does not wait for citations), so writing back get_bit's body works.
    await this.references.assertCitable(tx, actor, prepared.addedCitations, bit.scope_id);
    await syncConnectionList(tx, this.store.dialect, actor, bit, prepared.connections, new Set(prepared.fresh));
    return this.store.dialect.writtenJson(prepared.json);
  }

  /** The columns update_bit's fields (besides the body) set; omitted fields stay unchanged. */
  fieldChanges(input: Omit<UpdateBitInput, keyof BodyInput | 'bit_id' | 'remove_node_ids'>): Parameters<typeof updateBit>[2] {
    const changes: Parameters<typeof updateBit>[2] = {};
    const title = checkTitleIfGiven(input.bit_title, 'bit_title');
    if (title !== undefined) changes.title = title;
    if (input.bit_abstract !== undefined) changes.abstract = blankToNull(input.bit_abstract);
    if (input.bit_description !== undefined) changes.description = blankToNull(input.bit_description);
    if (input.bit_categories !== undefined) changes.categories = this.store.dialect.json(input.bit_categories);
    if (input.complexity !== undefined) changes.complexity = input.complexity;
    if (input.human_required !== undefined) changes.human_required = input.human_required ? 1 : 0;
    if (input.expected_duration !== undefined) changes.expected_duration = checkedDuration(input.expected_duration);
    return changes;
  }

  /** The assignee column update_bit's (or an import's) assignee sets, resolved at the bit's scope; omitted stays. */
  async assigneeChange(tx: Tx, actor: Actor, assignee: string | null | undefined, scopeId: string | null): Promise<Parameters<typeof updateBit>[2]> {
    return assignee === undefined ? {} : { assignee: await resolveAssignee(tx, actor, assignee, scopeId) };
  }

  async update(actor: Actor, input: UpdateBitInput): Promise<BitWriteResult> {
    const title = checkTitleIfGiven(input.bit_title, 'bit_title');
    if (input.expected_duration !== undefined) checkedDuration(input.expected_duration);
    if (input.remove_node_ids !== undefined && input.bit_body === undefined) {
      throw new WaymarkError('VALIDATION_ERROR', 'remove_node_ids needs bit_body: it names nodes that the new body leaves out.', { issues: [{ path: 'remove_node_ids', message: 'needs bit_body' }] });
    }
    if (input.bit_body !== undefined && input.content_format === undefined && !Array.isArray(input.bit_body)) {
      throw new WaymarkError('VALIDATION_ERROR', 'bit_body needs content_format on update: "markdown" for the text get_bit returns, or "slate" for a node array.', {
        issues: [{ path: 'content_format', message: 'required with bit_body' }],
      });
    }
    // CONTRACT.md, VALIDATION_ERROR: `elements` with `content_format: slate`, with or without a body.
    if (input.content_format === 'slate' && input.elements !== undefined && input.elements.length > 0) {
      throw new WaymarkError('VALIDATION_ERROR', 'elements are not accepted with content_format "slate": the Slate nodes carry their props and items.', {
        issues: [{ path: 'elements', message: 'not with content_format slate' }],
      });
    }
    const bodyInput: BodyInput | undefined =
      input.bit_body === undefined ? undefined : { bit_body: input.bit_body, content_format: input.content_format, elements: input.elements };
    // The body converts before the transaction, against the stored body as read now (a large one in the
    // conversion worker), so that no lock is held while it does; it converts again inside in the rare case
    // that the bit changed in between. It comes back as JSON text with what the checks need beside it, so a
    // large body's nodes are never built on this thread (prepareBody).
    let early: { updatedAt: string; prepared: PreparedBody } | undefined;
    if (bodyInput !== undefined) {
      const seen = await findBit(this.store.db, input.bit_id, actor);
      if (seen) {
        checkWritable(actor, seen);
        early = { updatedAt: seen.updated_at, prepared: await this.prepareAgainst(seen.body, bodyInput, input.remove_node_ids) };
      }
    }
    return this.store.transaction(async (tx) => {
      // The row is locked without its body, which is read again only where it is needed: a body converted
      // above against the stored one as it still is needs none (on SQLite an 8 MB body read is 8 MB of text).
      const bit = await lockBitHeadForWrite(tx, this.store.dialect, input.bit_id, actor);
      if (!bit) throw notFound(input.bit_id);
      checkWritable(actor, bit);
      const changes: Parameters<typeof updateBit>[2] = { updated_at: nextModified(bit.updated_at) };
      let minted: Record<string, string> = {};
      let removed: string[] = [];
      if (bodyInput !== undefined) {
        const prepared = early?.updatedAt === bit.updated_at ? early.prepared : await inTransaction(async () => this.prepareAgainst(await bitBody(tx, bit.id), bodyInput, input.remove_node_ids));
        minted = prepared.minted;
        removed = prepared.removed;
        changes.body = await this.storeBodyIn(tx, actor, bit, prepared);
      } else if (input.elements !== undefined && input.elements.length > 0) {
        const previous = this.parseBody(await bitBody(tx, bit.id));
        const edited = applyElementEdits(previous, input.elements as ElementEntry[], { newId: randomUUID });
        minted = edited.minted;
        const cited = new Set(collectCitations(previous));
        await this.references.assertCitable(tx, actor, collectCitations(edited.body).filter((id) => !cited.has(id)), bit.scope_id);
        await syncConnectionRows(tx, this.store.dialect, actor, bit, edited.body);
        changes.body = this.store.dialect.json(edited.body);
      }
      Object.assign(changes, this.fieldChanges({ ...input, bit_title: title }), await this.assigneeChange(tx, actor, input.assignee, bit.scope_id));
      await updateBit(tx, bit.id, changes);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: bit.id, scopeId: bit.scope_id, summary: { fields: fieldsGiven(input, ['bit_id']) } });
      return { bit_id: bit.id, last_modified_date_time_utc: changes.updated_at as string, minted_node_ids: minted, removed_node_ids: removed };
    });
  }

  async get(actor: Actor, input: { bit_id: string; format?: 'markdown' | 'slate' }): Promise<BitView> {
    const bit = await findBit(this.store.db, input.bit_id, actor);
    if (!bit) throw notFound(input.bit_id);
    return this.viewOf(bit, await listLinksForBit(this.store.db, bit.id), input.format ?? 'markdown');
  }

  /** get_bit's view of a bit's row with its links: the live one, or a revision's (revisions/rows.ts). */
  async viewOf(bit: BitTable, links: ReferenceLink[], format: 'markdown' | 'slate'): Promise<BitView> {
    // As markdown, a large body stored as text is read on a conversion thread alone (readBodyOffThread).
    const read = format === 'markdown' ? await readBodyOffThread(typeof bit.body === 'string' ? bit.body : this.parseBody(bit.body)) : this.slateView(bit.body);
    const connectionNodes = read.connections;
    const targets = new Map((await findBits(this.store.db, [...new Set(connectionNodes.map((c) => c.target_bit_id))])).map((b) => [b.id, b]));
    const { created_date_time_utc, last_modified_date_time_utc, ...head } = bitSummary(bit, (raw) => this.store.dialect.parseJson(raw));
    return {
      ...head,
      content_format: format,
      bit_body: read.body,
      elements: read.elements,
      connections: connectionNodes.map((c, i) => ({
        connection_id: c.id as string,
        target_bit_id: c.target_bit_id,
        target_bit_title: targets.get(c.target_bit_id)?.title ?? null,
        sort_order: i,
        label: c.label,
        params: c.params,
      })),
      references: links,
      assignee_name: await assigneeName(this.store.db, bit.account_id, bit.assignee),
      created_by: bit.created_by,
      created_date_time_utc,
      last_modified_date_time_utc,
    };
  }

  async archive(actor: Actor, input: { bit_id: string }) {
    return this.store.transaction((tx) => this.archiveIn(tx, actor, input));
  }

  /** archive_bit in the caller's transaction. */
  async archiveIn(tx: Tx, actor: Actor, input: { bit_id: string }) {
    await queueArchive(tx, this.store.dialect, actor.accountId);
    const bit = await this.lockVisible(tx, actor, input.bit_id);
    assertCanWriteIn(actor, bit.scope_id);
    if (bit.status === 'archived') return { bit_id: bit.id, last_modified_date_time_utc: bit.updated_at, was_already_archived: true };
    const flowIds = await activeFlowsStartingAt(tx, bit.id);
    if (flowIds.length > 0) {
      throw new WaymarkError('BIT_IS_ACTIVE_FLOW_START', `Bit ${bit.id} is the start bit of active flows ${flowIds.join(', ')}: deactivate them (update_flow is_active false) or repoint their start_bit_id first.`, {
        flow_ids: flowIds,
      });
    }
    // The cascade: every incoming connection leaves its source's body and rows, every outgoing one ours.
    await clearIncoming(tx, this.store.dialect, actor, bit.id);
    const body = this.parseBody(bit.body);
    removeConnections(body, () => true);
    await syncConnectionRows(tx, this.store.dialect, actor, bit, body);
    const updated = nextModified(bit.updated_at);
    await updateBit(tx, bit.id, { status: 'archived', body: this.store.dialect.json(body), updated_at: updated });
    await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: bit.id, scopeId: bit.scope_id, summary: { status: 'archived' } });
    return { bit_id: bit.id, last_modified_date_time_utc: updated, was_already_archived: false };
  }
}

/** update_bit's checks on the bit itself, read as the actor may see it: writable by the actor, active. */
export function checkWritable(actor: Actor, bit: { id: string; scope_id: string | null; status: string }): void {
  assertCanWriteIn(actor, bit.scope_id);
  if (bit.status !== 'active') throw new WaymarkError('BIT_ARCHIVED', `Bit ${bit.id} is archived; restore it (POST /api/v1/bits/${bit.id}/restore) before editing.`, { bit_id: bit.id });
}

export function notFound(bitId: string): WaymarkError {
  return new WaymarkError('BIT_NOT_FOUND', `No bit ${bitId} is visible to this token: check the id (list_bits lists the bits you can see).`, { bit_id: bitId });
}

