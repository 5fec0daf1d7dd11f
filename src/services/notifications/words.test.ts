import { describe, expect, it } from 'vitest';
import { noticeDue, noticeSentence } from './words.js';

describe('a notification in words', () => {
  const titles = { step_title: 'Sign the contract', trail_title: 'Onboarding Ann', flow_title: 'Onboarding' };

  it('says each kind as a sentence, with the step, the trail and who did it', () => {
    expect(noticeSentence('assigned', titles, 'Bob Roy')).toBe('You have a step to do: Sign the contract in Onboarding Ann (from Bob Roy).');
    expect(noticeSentence('assigned', { ...titles, group_name: 'Legal' }, null)).toBe('Your group Legal has a step to do: Sign the contract in Onboarding Ann.');
    expect(noticeSentence('mentioned', { ...titles, excerpt: 'see clause 4' }, 'Bob Roy')).toBe('Bob Roy mentioned you on Sign the contract in Onboarding Ann: “see clause 4”');
    expect(noticeSentence('step_overdue', titles, null)).toBe('Overdue: Sign the contract in Onboarding Ann.');
    expect(noticeSentence('trail_overdue', titles, null)).toBe('Overdue: the trail Onboarding Ann.');
  });

  it('still reads as a sentence when the summary lacks titles: the flow stands for an untitled trail', () => {
    expect(noticeSentence('assigned', { flow_title: 'Onboarding' }, null)).toBe('You have a step to do: a step in Onboarding.');
    expect(noticeSentence('mentioned', {}, null)).toBe('Someone mentioned you on a step.');
    expect(noticeSentence('trail_overdue', {}, null)).toBe('Overdue: a trail of yours.');
  });

  it('names a due time only when it is one', () => {
    expect(noticeDue({ due: '2026-01-05T09:00:00.000Z' })).toBe('2026-01-05T09:00:00.000Z');
    expect(noticeDue({ due: 'tomorrow' })).toBeNull();
    expect(noticeDue({})).toBeNull();
  });
});
