/**
 * The memory of asked steps (issue 28) on its own: once per step and state of its answers, an answered step not
 * at all, and what one principal or account was asked decides nothing for another on the same session.
 */
import { describe, expect, test } from 'vitest';
import type { Actor } from '../../services/actor.js';
import { askedStepsOf, AskedSteps, type AskedStep } from './asked-steps.js';

const actor = (accountId: string, principalId: string) => ({ accountId, principalId, scopeId: null, kind: 'person', permission: 'edit', capabilities: [] }) as unknown as Actor;
const answer = (element_id: string, at: string) => ({ element_id, element_type: 'TextArea', value: 'x', warnings: [], answered_by: 'p', answered_date_time_utc: at });
const step = (over: Partial<AskedStep> = {}): AskedStep => ({ step_id: 's1', answers: [], required_missing: ['e1'], ...over });

describe('asked steps', () => {
  test('asked once per step until its answers change or another step is entered', () => {
    const asked = new AskedSteps();
    const robin = actor('a1', 'p1');
    expect(asked.shouldAsk(robin, 't1', step())).toBe(true);
    asked.remember(robin, 't1', step());
    expect(asked.shouldAsk(robin, 't1', step())).toBe(false);
    expect(asked.shouldAsk(robin, 't1', step({ answers: [answer('e2', '2026-01-01T00:00:00Z')] }))).toBe(true);
    expect(asked.shouldAsk(robin, 't1', step({ step_id: 's2' }))).toBe(true);
    expect(asked.shouldAsk(robin, 't2', step())).toBe(true);
  });

  test('a step answered and waiting for advance is not asked', () => {
    expect(new AskedSteps().shouldAsk(actor('a1', 'p1'), 't1', step({ answers: [answer('e1', '2026-01-01T00:00:00Z')], required_missing: [] }))).toBe(false);
  });

  test('another principal or account is asked on its own', () => {
    const asked = new AskedSteps();
    asked.remember(actor('a1', 'p1'), 't1', step());
    expect(asked.shouldAsk(actor('a1', 'p2'), 't1', step())).toBe(true);
    expect(asked.shouldAsk(actor('a2', 'p1'), 't1', step())).toBe(true);
  });

  test('one memory per session object', () => {
    const a = {};
    expect(askedStepsOf(a)).toBe(askedStepsOf(a));
    expect(askedStepsOf({})).not.toBe(askedStepsOf(a));
  });
});
