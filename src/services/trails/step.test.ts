import { describe, expect, it } from 'vitest';
import { availableConnections, latestAnswers } from './view.js';
import { storedSnapshot, type BitSnapshot } from './step.js';

const condition = { element_id: 'risk', option_ids: ['high'] };

/** A snapshot as a step entered before the connection's condition had one name stored it: `when`. */
function legacySnapshot(): BitSnapshot {
  return JSON.parse(
    JSON.stringify({
      bit_id: 'b1',
      title: 'Assess',
      abstract: null,
      description: null,
      categories: [],
      complexity: 'medium',
      human_required: false,
      body: { children: [] },
      references: [],
      connections: [
        { connection_id: 'c1', target_bit_id: 't1', sort_order: 0, label: 'Escalate', params: {}, when: condition },
        { connection_id: 'c2', target_bit_id: 't2', sort_order: 1, label: null, params: {}, when: null },
      ],
      last_modified_date_time_utc: '2024-01-01T00:00:00.000Z',
    }),
  ) as BitSnapshot;
}

describe('storedSnapshot', () => {
  it('reads a snapshot that kept the condition as `when` with it as `condition`, so its conditions still hold', () => {
    const snapshot = storedSnapshot(legacySnapshot());
    expect(snapshot.connections).toEqual([
      { connection_id: 'c1', target_bit_id: 't1', sort_order: 0, label: 'Escalate', params: {}, condition },
      { connection_id: 'c2', target_bit_id: 't2', sort_order: 1, label: null, params: {}, condition: null },
    ]);
    const live = new Map([
      ['t1', { title: 'Escalation', status: 'active' }],
      ['t2', { title: 'Done', status: 'active' }],
    ]);
    const answered = (value: string) => latestAnswers([{ element_id: 'risk', element_type: 'RadioButton', value, warnings: [], answered_by: 'p', answered_date_time_utc: '' }]);
    expect(availableConnections(snapshot, answered('low'), live).map((c) => c.connection_id)).toEqual(['c2']);
    expect(availableConnections(snapshot, answered('high'), live).map((c) => c.connection_id)).toEqual(['c1', 'c2']);
  });
});
