/** Which webhook event type each accepted change is (issue 29), for the changes issue 27 added. */
import { describe, expect, it } from 'vitest';
import { typeOf } from './event-types.js';

const change = (resource_type: string, operation: string, summary: Record<string, unknown> = {}) => ({ resource_type, operation, summary }) as Parameters<typeof typeOf>[0];

describe('webhook event types of a team\'s changes', () => {
  it('says a step handed on, claimed, given back or reassigned, a comment, and a group\'s changes; not a person\'s own settings', () => {
    expect(typeOf(change('trail', 'transfer_step', { group_id: 'g1' }))).toBe('trail.step_handed_to_person');
    for (const operation of ['claim_step', 'release_step', 'assign_step']) expect(typeOf(change('trail', operation))).toBe('trail.step_assigned');
    expect(typeOf(change('trail', 'comment_on_step', { step_id: 's', comment_id: 'c' }))).toBe('trail.commented');
    for (const operation of ['create_group', 'update_group', 'delete_group', 'add_group_members', 'remove_group_member']) expect(typeOf(change('group', operation))).toBe('group.changed');
    expect(typeOf(change('principal', 'update_person'))).toBeNull();
    expect(typeOf(change('principal', 'set_notification_settings'))).toBeNull();
  });
});
