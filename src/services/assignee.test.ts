import { describe, expect, it } from 'vitest';
import { assigneeText, durationMs, parseAssignee } from './assignee.js';

describe('assignee forms', () => {
  it('parses each form and writes it back', () => {
    expect(parseAssignee('starter')).toEqual({ kind: 'starter' });
    expect(parseAssignee('person: ann@example.com')).toEqual({ kind: 'person', ref: 'ann@example.com' });
    expect(parseAssignee('group:Finance team')).toEqual({ kind: 'group', ref: 'Finance team' });
    expect(parseAssignee('context:manager_email')).toEqual({ kind: 'context', field: 'manager_email' });
    expect(assigneeText({ kind: 'group', ref: 'g1' })).toBe('group:g1');
  });
  it('refuses anything else', () => {
    for (const text of ['', 'anyone', 'person:', 'team:x', ':x', 'Starter']) expect(parseAssignee(text), text).toBeNull();
  });
});

describe('ISO 8601 durations', () => {
  it('reads weeks, days, hours, minutes and seconds', () => {
    expect(durationMs('P2D')).toBe(2 * 86_400_000);
    expect(durationMs('PT4H30M')).toBe(4.5 * 3_600_000);
    expect(durationMs('P1W')).toBe(7 * 86_400_000);
    expect(durationMs('P1DT12H')).toBe(36 * 3_600_000);
    expect(durationMs('PT0.5S')).toBe(500);
  });
  it('refuses years, months, zero and non-durations', () => {
    for (const text of ['P1Y', 'P1M', 'PT0S', 'P', 'PT', '2 days', 'P-1D']) expect(durationMs(text), text).toBeNull();
  });
});
