/**
 * Every not-found code carries the id it could not find in `details` (issue 13, "Errors in the agent's words"),
 * so that an agent can tell which of the ids it sent is the missing one without parsing the message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/engines.js';
import { addTestBit } from '../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { makeReference } from '../../test/reference-fixtures.js';
import { textArea } from '../../test/trail-fixtures.js';

const NONE = '00000000-0000-4000-8000-00000000dead';

describe.each(ENGINES)('not-found details on %s', (engine) => {
  let h: Harness;
  let bitId: string;
  let referenceId: string;
  let trailId: string;

  beforeAll(async () => {
    h = await startHarness(engine);
    bitId = (await addTestBit(h, { title: 'Here', blocks: [textArea('notes')] })).bit_id;
    referenceId = await makeReference(h.owner.client);
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'F', start_bit_id: bitId });
    trailId = (await h.owner.client.ok<{ trail_id: string }>('start_trail', { flow_id })).trail_id;
  });
  afterAll(async () => h.close());

  const cases: Array<[string, () => [string, Record<string, unknown>], string, () => Record<string, unknown>]> = [
    ['get_bit', () => ['get_bit', { bit_id: NONE }], 'BIT_NOT_FOUND', () => ({ bit_id: NONE })],
    ['connect_bits (target)', () => ['connect_bits', { source_bit_id: bitId, target_bit_id: NONE }], 'BIT_NOT_FOUND', () => ({ bit_id: NONE })],
    ['link_reference (bit)', () => ['link_reference', { bit_id: NONE, reference_id: referenceId }], 'BIT_NOT_FOUND', () => ({ bit_id: NONE })],
    ['get_flow', () => ['get_flow', { flow_id: NONE }], 'FLOW_NOT_FOUND', () => ({ flow_id: NONE })],
    ['start_trail', () => ['start_trail', { flow_id: NONE }], 'FLOW_NOT_FOUND', () => ({ flow_id: NONE })],
    ['list_trails', () => ['list_trails', { flow_id: NONE }], 'FLOW_NOT_FOUND', () => ({ flow_id: NONE })],
    ['get_reference', () => ['get_reference', { reference_id: NONE }], 'REFERENCE_NOT_FOUND', () => ({ reference_id: NONE })],
    ['add_bit (scope)', () => ['add_bit', { bit_title: 'X', bit_body: 'x', scope_id: NONE }], 'SCOPE_NOT_FOUND', () => ({ scope_id: NONE })],
    ['get_trail', () => ['get_trail', { trail_id: NONE }], 'TRAIL_NOT_FOUND', () => ({ trail_id: NONE })],
    ['update_bit (element)', () => ['update_bit', { bit_id: bitId, elements: [{ id: NONE, type: 'text-area', props: {} }] }], 'ELEMENT_NOT_FOUND', () => ({ element_id: NONE })],
    [
      'submit_step_data (element)',
      () => ['submit_step_data', { trail_id: trailId, data: [{ element_id: NONE, element_type: 'TextArea', value: { value: 'x' } }] }],
      'ELEMENT_NOT_FOUND',
      () => ({ element_id: NONE, element_ids: [NONE] }),
    ],
    ['remove_connection', () => ['remove_connection', { connection_id: NONE }], 'CONNECTION_NOT_FOUND', () => ({ connection_id: NONE })],
    ['unlink_reference', () => ['unlink_reference', { bit_id: bitId, reference_id: referenceId }], 'BIT_REFERENCE_LINK_NOT_FOUND', () => ({ bit_id: bitId, reference_id: referenceId })],
  ];

  it.each(cases)('%s', async (_name, call, code, details) => {
    const [tool, args] = call();
    const error = await h.owner.client.fail(tool, args);
    expect(error).toMatchObject({ code, status: 404 });
    expect(error.details).toMatchObject(details());
  });
});
