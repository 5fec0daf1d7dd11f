import type { Insertable } from 'kysely';
import type { BitReferenceLinkTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

export async function findLink(q: Q, bitId: string, referenceId: string) {
  return q.selectFrom('bit_reference_links').selectAll().where('bit_id', '=', bitId).where('reference_id', '=', referenceId).executeTakeFirst();
}

/** A bit's links in display order. */
export async function linksOfBit(q: Q, bitId: string) {
  return q.selectFrom('bit_reference_links').selectAll().where('bit_id', '=', bitId).orderBy('position').orderBy('id').execute();
}

export async function insertLink(q: Q, row: Insertable<BitReferenceLinkTable>): Promise<void> {
  await q.insertInto('bit_reference_links').values(row).execute();
}

export async function setDisplayLabel(q: Q, id: string, displayLabel: string | null): Promise<void> {
  await q.updateTable('bit_reference_links').set({ display_label: displayLabel }).where('id', '=', id).execute();
}

export async function deleteLink(q: Q, id: string): Promise<void> {
  await q.deleteFrom('bit_reference_links').where('id', '=', id).execute();
}

/**
 * Writes positions 0..n-1 in the order given, touching only the rows whose position changes. Every
 * change to a bit's list goes through here, so its positions stay dense.
 */
export async function writePositions(q: Q, ordered: ReadonlyArray<{ id: string; position: number }>): Promise<void> {
  for (const [index, link] of ordered.entries()) {
    if (link.position !== index) await q.updateTable('bit_reference_links').set({ position: index }).where('id', '=', link.id).execute();
  }
}

/** The ids of the bits (active or archived) that link a reference: what blocks archiving it. */
export async function bitIdsLinking(q: Q, referenceId: string): Promise<string[]> {
  const rows = await q.selectFrom('bit_reference_links').select('bit_id').where('reference_id', '=', referenceId).orderBy('bit_id').execute();
  return rows.map((r) => r.bit_id);
}

/**
 * A bit's reference links in position order, with the label to show: what get_bit returns as `references[]`
 * (references/shapes.ts, referenceLinkShape, says what each field is).
 */
export async function listLinksForBit(q: Q, bitId: string) {
  const rows = await q
    .selectFrom('bit_reference_links as l')
    .innerJoin('library_references as r', 'r.id', 'l.reference_id')
    .select(['l.id', 'l.reference_id', 'l.display_label', 'l.position', 'r.title'])
    .where('l.bit_id', '=', bitId)
    .orderBy('l.position')
    .orderBy('l.id')
    .execute();
  return rows.map((r) => ({
    bit_reference_id: r.id,
    reference_id: r.reference_id,
    display_label: r.display_label,
    label: r.display_label ?? r.title,
    position: r.position,
  }));
}
