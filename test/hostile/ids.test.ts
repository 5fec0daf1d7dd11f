/**
 * Hostile tenant, finding 8 of issue 16: ids without a length limit were echoed about four times (message and
 * details, each in structuredContent and the text content), so a 20 MB bit_id made an 80 MB answer. Ids are
 * bounded in the tool schemas now: a huge one is VALIDATION_ERROR with a small answer; one larger than a call may
 * carry never reaches a tool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits/index.js';
import { ENGINES } from '../engines.js';
import { callTool, HEALTH_BOUND_MS, LONG, MEMORY_FACTOR, ok, startHostileServer, underAttack, type HostileServer } from './harness.js';

const MB = 1024 * 1024;
/** The largest answer a refusal of one huge input may be: a message, an issue, the envelope twice. */
const SMALL_ANSWER = 4096;

describe.each(ENGINES)('huge ids on %s', { timeout: 180_000 }, (engine) => {
  let server: HostileServer;
  let bitId: string;
  let trailId: string;

  beforeAll(async () => {
    server = await startHostileServer(engine);
    bitId = String((await ok(server, 'add_bit', { bit_title: 'Target', bit_body: '[text-area: Notes](waymark-node:n)', elements: [{ key: 'n', type: 'text-area' }] })).bit_id);
    const flow = await ok(server, 'create_flow', { flow_title: 'F', start_bit_id: bitId });
    trailId = String((await ok(server, 'start_trail', { flow_id: flow.flow_id })).trail_id);
  });
  afterAll(async () => server?.close());

  it('a huge bit_id: VALIDATION_ERROR with a small answer (20 MB was an 80 MB one), /healthz within the bound', async () => {
    // Long form: the largest id that reaches the tool (/mcp refuses a larger body before parsing it, finding 3).
    const huge = 'b'.repeat(LONG ? LIMITS.mcpRequestBytes - 1024 : 2 * MB);
    const m = await underAttack(server, () => callTool(server, 'get_bit', { bit_id: huge }));
    expect(m.result.envelope?.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'bit_id', message: 'must be a UUID (8-4-4-4-12 hexadecimal digits), as the tools return ids' }] } });
    expect(m.result.bytes).toBeLessThan(SMALL_ANSWER);
    expect(m.addedRss).toBeLessThan(MEMORY_FACTOR * huge.length);
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('a 20 MB bit_id is refused before it is parsed, with a small answer', async () => {
    const answer = await callTool(server, 'get_bit', { bit_id: 'b'.repeat(20 * MB) });
    expect(answer.status).toBe(413);
    expect(answer.bytes).toBeLessThan(SMALL_ANSWER);
  });

  it('every other kind of id, key and cursor: VALIDATION_ERROR on its path, a small answer', async () => {
    const huge = 'k'.repeat(2 * MB);
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['submit_step_data', { trail_id: trailId, data: [{ element_id: huge, element_type: 'TextArea', value: { value: 'x' } }] }, 'data[0].element_id'],
      ['list_bits', { cursor: huge }, 'cursor'],
      ['search_references', { query: 'x', cursor: huge }, 'cursor'],
      ['update_bit', { bit_id: bitId, elements: [{ id: huge, type: 'text-area' }] }, 'elements[0].id'],
      ['update_bit', { bit_id: bitId, bit_body: 'x', remove_node_ids: [huge] }, 'remove_node_ids[0]'],
      ['add_bit', { bit_title: 't', bit_body: 'x', scope_id: huge }, 'scope_id'],
      ['list_trails', { principal_id: huge }, 'principal_id'],
      ['advance_trail', { trail_id: trailId, connection_id: huge }, 'connection_id'],
    ];
    for (const [tool, args, path] of calls) {
      const m = await underAttack(server, () => callTool(server, tool, args));
      expect(m.result.envelope?.error, tool).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path }] } });
      expect(m.result.bytes, tool).toBeLessThan(SMALL_ANSWER);
      expect(m.maxHealthMs, tool).toBeLessThan(HEALTH_BOUND_MS);
    }
  });

  it('a well-formed id that names nothing is still not-found', async () => {
    const answer = await callTool(server, 'get_bit', { bit_id: '00000000-0000-4000-8000-000000000000' });
    expect(answer.envelope?.error?.code).toBe('BIT_NOT_FOUND');
  });
});
