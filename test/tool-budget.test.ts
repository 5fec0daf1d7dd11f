/**
 * What the tool list costs an agent (the developers' guide): `tools/list`, as a client receives it, within 12,000
 * o200k tokens however many tools are added; each tool's name, description and input schema within 300 (each new
 * tool's test also holds its own). `npx tsx bench/agent-cost.ts` prints the figures per tool.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const LIST_BUDGET = 12_000;
/** The tools older than the 300-token rule, held at about what they cost when it came (add_bit and update_bit teach the body syntax; issue 27 added who does a bit's step and how long it takes). */
const OLDER_THAN_THE_RULE: Record<string, number> = { add_bit: 650, update_bit: 530, create_flow: 320, submit_step_data: 320 };

describe('the cost of tools/list', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(async () => h.close());

  it(`stays within ${LIST_BUDGET} tokens in all, and each tool's prompt within 300`, async () => {
    const listed = await h.owner.client.client.listTools();
    expect(encode(JSON.stringify(listed)).length).toBeLessThanOrEqual(LIST_BUDGET);
    for (const tool of listed.tools) {
      const prompt = encode(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })).length;
      expect(prompt, tool.name).toBeLessThanOrEqual(OLDER_THAN_THE_RULE[tool.name] ?? 300);
    }
  });
});
