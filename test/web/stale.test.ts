import { describe, expect, it } from 'vitest';
import { agoInWords, isStaleRefusal, movedOnWords } from '../../web/step-form/stale.js';
import { movedOnFrom } from '../../web/step-form/hosts.js';

const now = Date.parse('2025-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('a stale step in words', () => {
  it('says how long ago', () => {
    expect([0, 59_000, 60_000, 150_000, 3_600_000, 7_300_000, 86_400_000, 3 * 86_400_000].map((ms) => agoInWords(ago(ms), now))).toEqual([
      'just now',
      'just now',
      '1 minute ago',
      '2 minutes ago',
      '1 hour ago',
      '2 hours ago',
      '1 day ago',
      '3 days ago',
    ]);
  });

  it('says who moved the trail on and where to, or that it ended', () => {
    expect(movedOnWords({ by: 'Bob Stone', at: ago(120_000), to: { step: 'Sign the contract' } }, now)).toBe('Bob Stone moved this trail on to “Sign the contract” 2 minutes ago.');
    expect(movedOnWords({ by: null, at: ago(1000), to: { ended: 'completed' } }, now)).toBe('Someone completed this trail just now.');
    expect(movedOnWords({ by: 'Ann', at: ago(3_600_000), to: { ended: 'cancelled' } }, now)).toBe('Ann cancelled this trail 1 hour ago.');
  });

  it('tells the refusals of a step left from the others', () => {
    expect(isStaleRefusal({ code: 'VALIDATION_ERROR', message: '', details: { current_step: { step_id: 's2' } } })).toBe(true);
    expect(isStaleRefusal({ code: 'VALIDATION_ERROR', message: '', details: { issues: [] } })).toBe(false);
    expect(isStaleRefusal({ code: 'TRAIL_NOT_RUNNING', message: '' })).toBe(true);
    expect(isStaleRefusal({ code: 'ANSWER_INVALID', message: '' })).toBe(false);
  });

  it('reads who left the step from the trail history, by name', () => {
    const step = (id: string, left: string | null, by: string | null, cancellation: { cancelled_by: string; cancelled_date_time_utc: string } | null = null) => ({
      step_id: id,
      seq: 1,
      bit_id: 'b',
      bit_title: 'T',
      bit_revision: null,
      entered_date_time_utc: ago(600_000),
      left_date_time_utc: left,
      left_by: by,
      left_by_connection_id: null,
      transfers: [],
      cancellation: cancellation ? { reason: null, ...cancellation } : null,
      answers: [],
    });
    const people = { people: [{ principal_id: 'p-bob', name: 'Bob Stone', kind: 'person' as const }] };
    const moved = { status: 'running' as const, current_step: { bit_title: 'Sign the contract' } as never, history: [step('s1', ago(60_000), 'p-bob'), step('s2', null, null)] };
    expect(movedOnFrom(moved, people, 's1')).toEqual({ by: 'Bob Stone', at: ago(60_000), to: { step: 'Sign the contract' } });
    expect(movedOnFrom(moved, people, 's2')).toBeNull();
    const cancelled = { status: 'cancelled' as const, current_step: null, history: [step('s1', ago(5000), 'p-x', { cancelled_by: 'p-bob', cancelled_date_time_utc: ago(5000) })] };
    expect(movedOnFrom(cancelled, people, 's1')).toEqual({ by: 'Bob Stone', at: ago(5000), to: { ended: 'cancelled' } });
  });
});
