/**
 * The References Library (authoring-interface.md: Reference, Bit-level reference link, States and
 * transitions, create_reference … unlink_reference; CONTRACT.md: get_reference, search_references).
 */
import { randomUUID } from 'node:crypto';
import { WaymarkError, validationError } from '../../errors.js';
import { lockBit } from '../../store/repositories/bits.repo.js';
import * as links from '../../store/repositories/links.repo.js';
import * as repo from '../../store/repositories/references.repo.js';
import type { Db, Store, Tx } from '../../store/store.js';
import { LIMITS } from '../../limits/index.js';
import { AccountGate } from '../account-gate.js';
import { assertAccess, assertCanWriteIn, type Access, type Actor } from '../actor.js';
import { nextModified, nowIso } from '../clock.js';
import { resolveScope } from '../scopes.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import { blankToNull, checkTitle } from '../bits/text-fields.js';
import { searchTexts } from '../../content/search-text.js';
import { checkReferenceContent, deriveAbstract, referenceText, type SlateNode } from './content.js';
import { decodeCursor, encodeCursor, parseSearchQuery, searchFingerprint } from './query.js';
import type { LinkRemoved, LinkWritten, ReferenceSearchPage, ReferenceView, ReferenceWritten } from './shapes.js';

export interface CreateReferenceInput {
  reference_title: string;
  reference_content: unknown;
  reference_abstract?: string;
  reference_categories?: string[];
  /** Omitted or null: account level. */
  scope_id?: string | null;
}

export interface UpdateReferenceInput {
  reference_id: string;
  reference_title?: string;
  reference_abstract?: string | null;
  reference_categories?: string[];
  reference_content?: unknown;
  is_active?: boolean;
}

export interface SearchReferencesInput {
  query: string;
  /** Omitted: every visible scope; null: account level only; an id: that scope only. */
  scope_id?: string | null;
  categories?: string[];
  include_archived?: boolean;
  limit?: number;
  cursor?: string;
}

export interface LinkInput {
  bit_id: string;
  reference_id: string;
  display_label?: string | null;
  position?: number;
}

type Q = Db | Tx;
type ReferenceRow = NonNullable<Awaited<ReturnType<typeof repo.findReference>>>;

/**
 * What the link tools need (authoring-interface.md, link_reference: "Edit permission on the bit"), checked
 * here after both records are found: one the caller cannot see is not-found whatever the token (Authentication 2).
 */
export const LINK_ACCESS: Access = { capability: 'author', permission: 'edit' };

const notFound = (id: string) =>
  new WaymarkError('REFERENCE_NOT_FOUND', `No reference ${id} is visible to this token; find reference ids with search_references.`, { reference_id: id });
const bitNotFound = (id: string) => new WaymarkError('BIT_NOT_FOUND', `No bit ${id} is visible to this token; check the id (list_bits lists bits).`, { bit_id: id });

function positionIssue(position: number, max: number): WaymarkError {
  return validationError([{ path: 'position', message: `must be between 0 and ${max} (the bit has ${max === 0 ? 'no other links' : `positions 0..${max}`})` }]);
}

export class ReferencesService {
  /** At most this many searches of one account at once (LIMITS; account-gate.ts says why). */
  private readonly searches = new AccountGate('searches', LIMITS.concurrentSearchesPerAccount, LIMITS.queuedSearchesPerAccount);

  constructor(private readonly store: Store) {}

  async create(actor: Actor, input: CreateReferenceInput): Promise<ReferenceWritten> {
    const content = checkReferenceContent(input.reference_content);
    return this.store.transaction((tx) => this.createIn(tx, actor, { ...input, reference_content: content }));
  }

  /** create_reference in the caller's transaction, its content checked (checkReferenceContent); `id`: an import keeps its folder's. */
  async createIn(tx: Tx, actor: Actor, input: CreateReferenceInput & { reference_content: SlateNode[] }, id: string = randomUUID()): Promise<ReferenceWritten> {
    const content = input.reference_content;
    const text = referenceText(content);
    const now = nowIso();
    const scopeId = await resolveScope(tx, actor, input.scope_id);
    assertCanWriteIn(actor, scopeId);
    await repo.insertReference(tx, {
      id,
      account_id: actor.accountId,
      scope_id: scopeId,
      title: checkTitle(input.reference_title, 'reference_title'),
      abstract: input.reference_abstract === undefined ? deriveAbstract(text) : blankToNull(input.reference_abstract),
      content: this.store.dialect.json(content),
      ...searchTexts(text),
      categories: this.store.dialect.json(input.reference_categories ?? []),
      is_active: 1,
      author_principal_id: actor.principalId,
      created_at: now,
      updated_at: now,
    });
    await recordChange(tx, this.store.dialect, actor, { resourceType: 'reference', resourceId: id, scopeId });
    return { reference_id: id, last_modified_date_time_utc: now };
  }

  async update(actor: Actor, input: UpdateReferenceInput): Promise<ReferenceWritten> {
    const content = input.reference_content === undefined ? undefined : checkReferenceContent(input.reference_content);
    return this.store.transaction((tx) => this.updateIn(tx, actor, { ...input, reference_content: content }));
  }

  /** update_reference in the caller's transaction, its content (if any) checked. */
  async updateIn(tx: Tx, actor: Actor, input: UpdateReferenceInput & { reference_content?: SlateNode[] }): Promise<ReferenceWritten> {
    const content = input.reference_content;
    const row = await repo.lockReference(tx, this.store.dialect, input.reference_id, actor);
    if (!row) throw notFound(input.reference_id);
    assertCanWriteIn(actor, row.scope_id);
    if (input.is_active === true && row.is_active === 0) {
      throw new WaymarkError('REFERENCE_UNARCHIVE_UNSUPPORTED', `Reference ${row.id} is archived and cannot be un-archived; create a new reference with create_reference instead.`);
    }
    const changes: Parameters<typeof repo.updateReference>[2] = {};
    if (input.reference_title !== undefined) changes.title = checkTitle(input.reference_title, 'reference_title');
    if (input.reference_abstract !== undefined) changes.abstract = blankToNull(input.reference_abstract);
    if (input.reference_categories !== undefined) changes.categories = this.store.dialect.json(input.reference_categories);
    if (content !== undefined) {
      const text = referenceText(content);
      changes.content = this.store.dialect.json(content);
      Object.assign(changes, searchTexts(text));
      // An abstract the server derived follows the new content; one the caller wrote stays.
      if (input.reference_abstract === undefined && row.abstract === deriveAbstract(row.search_text)) changes.abstract = deriveAbstract(text);
    }
    if (input.is_active === false && row.is_active === 1) {
      // States and transitions: a reference that a bit links cannot be archived.
      const bitIds = await links.bitIdsLinking(tx, row.id);
      if (bitIds.length > 0) {
        throw new WaymarkError('REFERENCE_IN_USE', `Reference ${row.id} is linked by ${bitIds.length} bit(s); unlink it from each (unlink_reference) before archiving.`, { bit_ids: bitIds });
      }
      changes.is_active = 0;
    }
    // is_active:true on an active reference, or is_active:false on an archived one, changes nothing.
    if (Object.keys(changes).length === 0) return { reference_id: row.id, last_modified_date_time_utc: row.updated_at };
    changes.updated_at = nextModified(row.updated_at);
    await repo.updateReference(tx, row.id, changes);
    await recordChange(tx, this.store.dialect, actor, { resourceType: 'reference', resourceId: row.id, scopeId: row.scope_id, summary: { fields: fieldsGiven(input, ['reference_id']) } });
    return { reference_id: row.id, last_modified_date_time_utc: changes.updated_at };
  }

  async get(actor: Actor, referenceId: string): Promise<ReferenceView> {
    const row = await repo.findReference(this.store.db, referenceId, actor);
    if (!row) throw notFound(referenceId);
    return this.view(row);
  }

  async search(actor: Actor, input: SearchReferencesInput): Promise<ReferenceSearchPage> {
    const limit = input.limit ?? LIMITS.defaultSearchLimit;
    const terms = parseSearchQuery(input.query);
    const categories = input.categories && input.categories.length > 0 ? [...new Set(input.categories)].sort() : undefined;
    const includeArchived = input.include_archived ?? false;
    const fingerprint = searchFingerprint([terms, input.scope_id, categories, includeArchived]);
    const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, fingerprint);
    if (input.scope_id) await resolveScope(this.store.db, actor, input.scope_id);
    if (terms.length === 0) return { results: [], next_cursor: null };
    const hits = await this.searches.run(actor.accountId, () =>
      repo.searchReferences(this.store.db, this.store.dialect, {
        seen: actor,
        terms,
        scopeId: input.scope_id,
        categories,
        includeArchived,
        after,
        limit: limit + 1,
      }),
    );
    const page = hits.slice(0, limit);
    const last = page[page.length - 1];
    return {
      results: page.map((hit) => ({
        reference_id: hit.id,
        reference_title: hit.title,
        reference_abstract: hit.abstract,
        reference_categories: this.store.dialect.parseJson<string[]>(hit.categories),
        scope_id: hit.scope_id,
        is_active: hit.is_active === 1,
        snippet: hit.snippet,
        score: hit.score,
      })),
      next_cursor: hits.length > limit && last ? encodeCursor({ score: last.score, id: last.id }, fingerprint) : null,
    };
  }

  async link(actor: Actor, input: LinkInput): Promise<LinkWritten> {
    return this.store.transaction(async (tx) => {
      const { bit, reference } = await this.linkTargets(tx, actor, input, { requireActiveBit: true });
      if (reference.is_active === 0) {
        throw new WaymarkError('REFERENCE_ARCHIVED', `Reference ${reference.id} is archived; link an active reference (search_references finds them).`, { reference_id: reference.id });
      }
      if (reference.scope_id !== bit.scope_id) throw scopeMismatch(reference.id, reference.scope_id, bit.scope_id);
      if (await links.findLink(tx, bit.id, reference.id)) throw duplicate(bit.id, reference.id);
      const list = await links.linksOfBit(tx, bit.id);
      const position = input.position ?? list.length;
      if (position > list.length) throw positionIssue(position, list.length);
      const id = randomUUID();
      const row = { id, account_id: actor.accountId, bit_id: bit.id, reference_id: reference.id, display_label: blankToNull(input.display_label ?? null), position: list.length, created_at: nowIso() };
      try {
        await links.insertLink(tx, row);
      } catch (error) {
        if (this.store.dialect.isUniqueViolation(error)) throw duplicate(bit.id, reference.id);
        throw error;
      }
      const ordered = [...list];
      ordered.splice(position, 0, row);
      await links.writePositions(tx, ordered);
      // A link is part of its bit (get_bit lists them): the bit is what changed.
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: bit.id, scopeId: bit.scope_id, summary: { reference_id: reference.id, position } });
      return { bit_id: bit.id, bit_reference_id: id, reference_id: reference.id, position };
    });
  }

  async updateLink(actor: Actor, input: LinkInput): Promise<LinkWritten> {
    return this.store.transaction(async (tx) => {
      const { bit, reference } = await this.linkTargets(tx, actor, input, { requireActiveBit: true });
      const list = await links.linksOfBit(tx, bit.id);
      const index = list.findIndex((l) => l.reference_id === reference.id);
      const link = list[index];
      if (!link) throw linkNotFound(bit.id, reference.id);
      if (input.position !== undefined && input.position > list.length - 1) throw positionIssue(input.position, list.length - 1);
      // Set, not toggled: the same call twice leaves the same state (I).
      const label = blankToNull(input.display_label);
      const relabelled = label !== undefined && label !== link.display_label;
      if (relabelled) await links.setDisplayLabel(tx, link.id, label);
      const position = input.position ?? index;
      if (position !== index) {
        const ordered = list.filter((l) => l.id !== link.id);
        ordered.splice(position, 0, link);
        await links.writePositions(tx, ordered);
      }
      // The same call again changes nothing, and records nothing.
      if (relabelled || position !== index) {
        await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: bit.id, scopeId: bit.scope_id, summary: { reference_id: reference.id, position } });
      }
      return { bit_id: bit.id, bit_reference_id: link.id, reference_id: reference.id, position };
    });
  }

  /** Not idempotent (authoring-interface.md, unlink_reference): a second call answers not-found. */
  async unlink(actor: Actor, input: { bit_id: string; reference_id: string }): Promise<LinkRemoved> {
    return this.store.transaction(async (tx) => {
      // An archived bit may still be unlinked: that is how a reference it links becomes archivable.
      const { bit, reference } = await this.linkTargets(tx, actor, input, { requireActiveBit: false });
      const list = await links.linksOfBit(tx, bit.id);
      const link = list.find((l) => l.reference_id === reference.id);
      if (!link) throw linkNotFound(bit.id, reference.id);
      await links.deleteLink(tx, link.id);
      await links.writePositions(tx, list.filter((l) => l.id !== link.id));
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'bit', resourceId: bit.id, scopeId: bit.scope_id, summary: { reference_id: reference.id, unlinked: true } });
      return { bit_id: bit.id, reference_id: reference.id };
    });
  }

  /**
   * A bit's whole list of links set at once, in the caller's transaction, which holds the bit and records its
   * change (an import: one event per bit). Each reference is checked as link_reference checks it; links it keeps
   * keep their ids.
   */
  async setLinksIn(tx: Tx, actor: Actor, bit: { id: string; scope_id: string | null }, wanted: ReadonlyArray<{ reference_id: string; display_label: string | null }>): Promise<void> {
    const rows = new Map((await repo.findReferenceStates(tx, wanted.map((w) => w.reference_id), actor)).map((r) => [r.id, r]));
    for (const { reference_id } of wanted) {
      const row = rows.get(reference_id);
      if (!row) throw notFound(reference_id);
      if (row.is_active === 0) throw new WaymarkError('REFERENCE_ARCHIVED', `Reference ${reference_id} is archived; link an active reference.`, { reference_id });
      if (row.scope_id !== bit.scope_id) throw scopeMismatch(reference_id, row.scope_id, bit.scope_id);
    }
    const list = await links.linksOfBit(tx, bit.id);
    const keep = new Set(wanted.map((w) => w.reference_id));
    for (const link of list) if (!keep.has(link.reference_id)) await links.deleteLink(tx, link.id);
    const ordered: Array<{ id: string; position: number }> = [];
    for (const want of wanted) {
      const found = list.find((l) => l.reference_id === want.reference_id);
      if (found) {
        if (found.display_label !== want.display_label) await links.setDisplayLabel(tx, found.id, want.display_label);
        ordered.push(found);
        continue;
      }
      // Inserted after the kept ones' positions, then every position written in the wanted order.
      const row = { id: randomUUID(), account_id: actor.accountId, bit_id: bit.id, reference_id: want.reference_id, display_label: want.display_label, position: list.length + ordered.length, created_at: nowIso() };
      await links.insertLink(tx, row);
      ordered.push(row);
    }
    await links.writePositions(tx, ordered);
  }

  /**
   * For the bits service, inside its write transaction: every cited reference must exist in the caller's
   * account and be visible to it (else REFERENCE_NOT_FOUND), be active (REFERENCE_ARCHIVED) and share
   * the bit's scope (SCOPE_MISMATCH). The first failing id, in the order given, is reported.
   */
  async assertCitable(tx: Q, actor: Actor, referenceIds: string[], bitScopeId: string | null): Promise<void> {
    const ids = [...new Set(referenceIds)];
    const rows = new Map((await repo.findReferenceStates(tx, ids, actor)).map((r) => [r.id, r]));
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) throw notFound(id);
      if (row.is_active === 0) {
        throw new WaymarkError('REFERENCE_ARCHIVED', `The body cites reference ${id}, which is archived; cite an active reference (search_references finds them) or remove the citation.`, { reference_id: id });
      }
      if (row.scope_id !== bitScopeId) throw scopeMismatch(id, row.scope_id, bitScopeId);
    }
  }

  /**
   * The bit (locked, so its list of links changes one call at a time) and the reference of a link call.
   * Either one invisible is not-found; a visible bit the caller may not write is FORBIDDEN (CONTRACT.md).
   */
  private async linkTargets(tx: Tx, actor: Actor, input: { bit_id: string; reference_id: string }, options: { requireActiveBit: boolean }) {
    const bit = await lockBit(tx, this.store.dialect, input.bit_id, actor);
    if (!bit) throw bitNotFound(input.bit_id);
    // Locked against a concurrent archive (update_reference), which checks for links under the same lock.
    const reference = await repo.lockReference(tx, this.store.dialect, input.reference_id, actor);
    if (!reference) throw notFound(input.reference_id);
    assertAccess(actor, LINK_ACCESS);
    assertCanWriteIn(actor, bit.scope_id);
    if (options.requireActiveBit && bit.status !== 'active') {
      throw new WaymarkError('BIT_ARCHIVED', `Bit ${bit.id} is archived; its references cannot be linked or changed (unlink_reference still works). Restore the bit first.`, { bit_id: bit.id });
    }
    return { bit, reference };
  }

  /** get_reference's view of a reference's row: the live one, or a revision's (revisions/rows.ts). */
  view(row: Omit<ReferenceRow, 'search_text'>): ReferenceView {
    return {
      reference_id: row.id,
      reference_title: row.title,
      reference_abstract: row.abstract,
      reference_content: this.store.dialect.parseJson<SlateNode[]>(row.content),
      content_format: 'slate' as const,
      reference_categories: this.store.dialect.parseJson<string[]>(row.categories),
      scope_id: row.scope_id,
      is_active: row.is_active === 1,
      author_principal_id: row.author_principal_id,
      created_date_time_utc: row.created_at,
      last_modified_date_time_utc: row.updated_at,
    };
  }
}

function scopeMismatch(referenceId: string, referenceScope: string | null, bitScope: string | null): WaymarkError {
  const where = (s: string | null) => (s === null ? 'the account level' : `scope ${s}`);
  return new WaymarkError('SCOPE_MISMATCH', `Reference ${referenceId} is in ${where(referenceScope)} but the bit is in ${where(bitScope)}; a bit can only use references of its own scope.`, {
    reference_scope_id: referenceScope,
    bit_scope_id: bitScope,
  });
}

function duplicate(bitId: string, referenceId: string): WaymarkError {
  return new WaymarkError('DUPLICATE_REFERENCE_LINK', `Bit ${bitId} already links reference ${referenceId}; change its label or position with update_bit_reference_link.`, {
    bit_id: bitId,
    reference_id: referenceId,
  });
}

function linkNotFound(bitId: string, referenceId: string): WaymarkError {
  return new WaymarkError('BIT_REFERENCE_LINK_NOT_FOUND', `Bit ${bitId} does not link reference ${referenceId}; link it with link_reference.`, {
    bit_id: bitId,
    reference_id: referenceId,
  });
}
