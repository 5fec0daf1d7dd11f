/**
 * `elements[]` entries of add_bit and update_bit (authoring-interface.md, update_bit rule 6 and "Interactive
 * elements"): their shape and the checks that need no body.
 */
import type { z } from 'zod';
import { validationError, type ValidationIssue } from '../errors.js';
import { assertKnownProps, ELEMENTS, ELEMENT_TYPES, isElementType, typesAnsweredByItems, type ElementType } from './elements/index.js';
import { ELEMENT_KEY_PATTERN, LIMITS } from '../limits/index.js';
import { quote } from '../quote.js';

export interface ElementEntry {
  key?: string;
  id?: string;
  type: string;
  props?: Record<string, unknown>;
  items?: ItemEntry[];
  /**
   * A check-list's id as a trail shows it on each CheckListItem. Without `id` it names the check-list to edit;
   * with `id` (an item id of that list) the entry edits that one item, its fields given in `props`.
   */
  parent_element_id?: string;
}

export interface ItemEntry {
  key?: string;
  id?: string;
  [field: string]: unknown;
}

/** An entry after validation: its type is known. */
export interface CheckedEntry extends ElementEntry {
  type: ElementType;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The fields of an item entry besides its identity. */
export function itemFields(item: ItemEntry): Record<string, unknown> {
  const { key: _key, id: _id, ...fields } = item;
  return fields;
}

/**
 * Checks entries that need no body: known type, exactly one of `id` / `key`, key syntax, keys used once
 * across entries and items, ids named once, props allowed for the type, items only for types that have
 * them, and at most 200 entries and items together (CONTRACT.md, "Readings").
 */
export function validateElementEntries(entries: unknown): CheckedEntry[] {
  if (entries === undefined) return [];
  if (!Array.isArray(entries)) throw validationError([{ path: 'elements', message: 'must be an array' }]);
  const issues: ValidationIssue[] = [];
  const keys = new Set<string>();
  const ids = new Set<string>();
  let count = 0;

  const checkKey = (key: unknown, path: string) => {
    if (typeof key !== 'string' || !ELEMENT_KEY_PATTERN.test(key)) {
      issues.push({ path, message: `a key is 1 to ${LIMITS.elementKeyLength} letters, digits, '_' or '-'` });
    } else if (keys.has(key)) {
      issues.push({ path, message: `key '${quote(key)}' is used more than once; each key is used once in a call` });
    } else keys.add(key);
  };
  const checkId = (id: unknown, path: string) => {
    if (typeof id !== 'string' || id === '') issues.push({ path, message: 'must be a non-empty string' });
  };

  entries.forEach((entry, i) => {
    const at = `elements[${i}]`;
    count++;
    if (!isRecord(entry)) {
      issues.push({ path: at, message: 'must be an object' });
      return;
    }
    if (!isElementType(entry.type)) {
      issues.push({ path: `${at}.type`, message: `must be one of ${ELEMENT_TYPES.join(', ')}` });
      return;
    }
    const type = entry.type;
    const hasKey = entry.key !== undefined;
    const hasId = entry.id !== undefined || entry.parent_element_id !== undefined;
    if (hasKey === hasId) {
      issues.push({ path: at, message: 'give exactly one of id (an existing element) or key (a new one)' });
    }
    if (hasKey) checkKey(entry.key, `${at}.key`);
    if (entry.id !== undefined) checkId(entry.id, `${at}.id`);
    if (entry.parent_element_id !== undefined) {
      checkId(entry.parent_element_id, `${at}.parent_element_id`);
      if (ELEMENTS[type].answered !== 'items') {
        issues.push({ path: `${at}.parent_element_id`, message: `only an item answered on its own (of a ${typesAnsweredByItems().join(' or ')}) has a parent_element_id` });
      }
    }
    const target = entry.id ?? entry.parent_element_id;
    if (typeof target === 'string' && entry.parent_element_id === undefined) {
      if (ids.has(target)) issues.push({ path: `${at}.id`, message: `element ${quote(target)} is named by more than one entry` });
      ids.add(target);
    }
    if (entry.props !== undefined) {
      if (!isRecord(entry.props)) issues.push({ path: `${at}.props`, message: 'must be an object' });
      // An entry that edits one check-list item carries the item's fields in props.
      else if (!(entry.id !== undefined && entry.parent_element_id !== undefined)) {
        assertKnownProps(type, Object.fromEntries(Object.entries(entry.props).filter(([, v]) => v !== undefined)));
      }
    }
    if (entry.items !== undefined) {
      if (!ELEMENTS[type].items) {
        issues.push({ path: `${at}.items`, message: `${type} has no items` });
        return;
      }
      if (!Array.isArray(entry.items)) {
        issues.push({ path: `${at}.items`, message: 'must be an array' });
        return;
      }
      entry.items.forEach((item: unknown, j: number) => {
        const ip = `${at}.items[${j}]`;
        count++;
        if (!isRecord(item)) {
          issues.push({ path: ip, message: 'must be an object' });
          return;
        }
        if ((item.key === undefined) === (item.id === undefined)) {
          issues.push({ path: ip, message: 'give exactly one of id (an existing item) or key (a new one)' });
        }
        if (item.key !== undefined) checkKey(item.key, `${ip}.key`);
        if (item.id !== undefined) checkId(item.id, `${ip}.id`);
        const shape: Record<string, z.ZodType> = ELEMENTS[type].items!.fields.shape;
        const allowed = Object.keys(shape);
        for (const [field, value] of Object.entries(itemFields(item))) {
          if (!allowed.includes(field)) {
            issues.push({ path: `${ip}.${field}`, message: `unknown item field; ${type} items have ${allowed.join(', ')}` });
            continue;
          }
          // The type is the entry's own rule, checked before any item line is consulted: a line's [x] or text
          // must not hide a `checked: 'yes'` (null removes the field in an edit, so it passes here).
          if (value === undefined || value === null) continue;
          const wrongType = shape[field].safeParse(value).error?.issues.find((issue) => issue.code === 'invalid_type');
          if (wrongType) issues.push({ path: `${ip}.${field}`, message: `must be a ${wrongType.expected}` });
        }
      });
    }
  });
  if (count > LIMITS.entriesAndItemsPerCall) {
    issues.unshift({
      path: 'elements',
      message: `at most ${LIMITS.entriesAndItemsPerCall} entries and items in one call (got ${count})`,
    });
  }
  if (issues.length > 0) throw validationError(issues);
  return entries as CheckedEntry[];
}
