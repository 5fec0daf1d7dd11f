/**
 * The Activity page says every change in a person's words (web/components/change-words.ts): each writing operation
 * the registry declares records its change under its own name, so each needs its words there, or the page falls
 * back to "made a change (claim step) to" and its filter lacks the operation.
 */
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../src/operations/registry.js';
import { OPERATION_WORDS } from '../web/components/change-words.js';

/** Writes that record no change (src/operations/events.test.ts OWN_STATE): a person's own read marks. */
const RECORDS_NO_CHANGE = new Set(['mark_notifications_read']);

describe('the Activity page\'s words', () => {
  it('name every writing operation that records a change', () => {
    const writes = REGISTRY.operations.filter((o) => o.flags.W && !RECORDS_NO_CHANGE.has(o.name)).map((o) => o.name);
    expect(writes.filter((name) => !(name in OPERATION_WORDS))).toEqual([]);
    // Each label names one operation: the filter's choices are told apart.
    const labels = Object.values(OPERATION_WORDS).map((w) => w.label);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
