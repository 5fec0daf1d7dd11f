/**
 * What an agent pays to read Waymark (issue "What an agent pays to use Waymark"), counted with the o200k
 * tokenizer (gpt-tokenizer) over exactly the JSON a client receives:
 *
 * - `tools/list`: every tool's name + description + inputSchema (what most hosts put in the prompt), its
 *   outputSchema, and the whole list as sent;
 * - a five-step trail run through the real SDK client: answers, a conditional branch, a transfer to a person,
 *   the person's answers and the run to completion; every response's text content is counted (what the
 *   model reads), with the share of it that is UUIDs.
 *
 * The baseline of each bar is the goal the issue sets, measured in the same run (a fixed budget, not a
 * timing), so the ratio reads "share of the budget used".
 *
 *   npx tsx bench/agent-cost.ts            writes bench/results/agent-cost.json
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { startHarness, type Harness } from '../test/harness.js';
import { round, runAsScript, isEntry, writeResult, type BenchResult } from './result.js';

/** The team's bar (the developers' guide): tools/list within 12k o200k tokens as tools are added (test/tool-budget.test.ts holds it too). */
const TOOLS_LIST_BUDGET = 12_000;
/** Our own tighter bar on the part a model reads as its prompt, kept at half the whole. */
const PROMPT_PART_BUDGET = 6_000;
const TRAIL_RUN_BUDGET = 5_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

export const tokens = (value: unknown): number => encode(typeof value === 'string' ? value : JSON.stringify(value)).length;

interface ToolCost {
  name: string;
  prompt: number;
  output: number;
  total: number;
}

async function toolsListCost(h: Harness): Promise<{ tools: ToolCost[]; whole: number }> {
  const listed = await h.owner.client.client.listTools();
  const tools = listed.tools.map((tool) => {
    const prompt = tokens({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    const output = tool.outputSchema ? tokens(tool.outputSchema) : 0;
    return { name: tool.name, prompt, output, total: tokens(tool) };
  });
  return { tools, whole: tokens(listed) };
}

interface Added {
  bit_id: string;
  minted_node_ids: Record<string, string>;
}

/** The responses of a five-step run: each call's text content, as the model reads it. */
export async function trailRunCost(h: Harness): Promise<{ calls: Array<{ tool: string; tokens: number; uuidTokens: number }> }> {
  const add = (args: Record<string, unknown>) => h.owner.client.ok<Added>('add_bit', args);
  const done = await add({ bit_title: 'Done', bit_body: 'All steps are complete.' });
  const review = await add({
    bit_title: 'Review',
    bit_body: ['Summarise the work.', '', '[text-area: Summary](waymark-node:summary)'].join('\n'),
    elements: [{ key: 'summary', type: 'text-area', props: { required: true } }],
  });
  const standard = await add({ bit_title: 'Standard path', bit_body: ['Order the usual kit.', '', '[check-list: Kit](waymark-node:kit)', '- [ ] [Ordered](waymark-node:ordered)'].join('\n'), elements: [{ key: 'kit', type: 'check-list', items: [{ key: 'ordered', required: true }] }] });
  const express = await add({
    bit_title: 'Express approval',
    human_required: true,
    bit_body: ['A manager approves express handling.', '', '[check-list: Approval](waymark-node:approval)', '- [ ] [Approved](waymark-node:approve)'].join('\n'),
    elements: [{ key: 'approval', type: 'check-list', items: [{ key: 'approve', required: true }] }],
  });
  const intake = await add({
    bit_title: 'Intake',
    bit_body: ['Collect the request.', '', '[text-area: Notes](waymark-node:notes)', '', '[dropdown: Route](waymark-node:route)', '- [Standard](waymark-node:std)', '- [Express](waymark-node:exp)'].join('\n'),
    elements: [
      { key: 'notes', type: 'text-area', props: { required: true } },
      { key: 'route', type: 'dropdown', props: { required: true }, items: [{ key: 'std', value: 'standard' }, { key: 'exp', value: 'express' }] },
    ],
  });
  const connect = (source: Added, target: Added) => h.owner.client.ok('connect_bits', { source_bit_id: source.bit_id, target_bit_id: target.bit_id });
  await connect(intake, standard);
  await connect(intake, express);
  await connect(standard, review);
  await connect(express, review);
  await connect(review, done);
  const conditional = async (source: Added, target: Added, when: string) => {
    const current = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id: source.bit_id });
    const pattern = new RegExp(`\\]\\(bit-connection:${target.bit_id}\\?node=([0-9a-f-]+)\\)`);
    const body = current.bit_body.replace(pattern, (_m, node: string) => `](bit-connection:${target.bit_id}?node=${node}&when=${when})`);
    await h.owner.client.ok('update_bit', { bit_id: source.bit_id, bit_body: body, content_format: 'markdown' });
  };
  await conditional(intake, standard, `${intake.minted_node_ids.route}:${intake.minted_node_ids.std}`);
  await conditional(intake, express, `${intake.minted_node_ids.route}:${intake.minted_node_ids.exp}`);
  const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Request handling', start_bit_id: intake.bit_id });
  const person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['run'] });

  const calls: Array<{ tool: string; tokens: number; uuidTokens: number }> = [];
  const measured = async <T,>(client: Harness['owner']['client'], tool: string, args: Record<string, unknown>): Promise<T> => {
    const result = await client.client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');
    const uuidTokens = (text.match(UUID) ?? []).reduce((sum, id) => sum + tokens(id), 0);
    calls.push({ tool, tokens: tokens(text), uuidTokens });
    const envelope = result.structuredContent as { success: boolean; data?: T; error?: unknown };
    if (!envelope.success) throw new Error(`${tool} failed: ${JSON.stringify(envelope.error)}`);
    return envelope.data as T;
  };
  const answer = (element_id: string | undefined, element_type: string, inner: unknown) => ({ element_id, element_type, value: { value: inner } });
  const id = (bit: Added, key: string) => bit.minted_node_ids[key];

  const started = await measured<{ trail_id: string }>(h.owner.client, 'start_trail', { flow_id: flow.flow_id, trail_title: 'Bob' });
  const t = started.trail_id;
  await measured(h.owner.client, 'submit_step_data', { trail_id: t, data: [answer(id(intake, 'notes'), 'TextArea', 'Urgent access'), answer(id(intake, 'route'), 'Dropdown', id(intake, 'exp'))] });
  await measured(h.owner.client, 'advance_trail', { trail_id: t });
  await measured(h.owner.client, 'transfer_step', { trail_id: t, reason: 'Express handling needs a manager' });
  await measured(person.client, 'submit_step_data', { trail_id: t, data: [answer(id(express, 'approve'), 'CheckListItem', true)] });
  await measured(person.client, 'advance_trail', { trail_id: t });
  await measured(h.owner.client, 'submit_step_data', { trail_id: t, data: [answer(id(review, 'summary'), 'TextArea', 'Express access granted.')] });
  await measured(h.owner.client, 'advance_trail', { trail_id: t });
  await measured(h.owner.client, 'advance_trail', { trail_id: t });
  return { calls };
}

export async function run(): Promise<BenchResult> {
  const h = await startHarness('sqlite');
  try {
    const list = await toolsListCost(h);
    const run = await trailRunCost(h);
    const prompt = list.tools.reduce((s, t) => s + t.prompt, 0);
    const output = list.tools.reduce((s, t) => s + t.output, 0);
    const runTokens = run.calls.reduce((s, c) => s + c.tokens, 0);
    const runUuid = run.calls.reduce((s, c) => s + c.uuidTokens, 0);
    const rows: BenchResult['rows'] = [
      ...list.tools.map((t) => ({ part: `tools/list: ${t.name}`, 'name+description+inputSchema': t.prompt, outputSchema: t.output, tokens: t.total })),
      { part: 'tools/list (all, as sent)', 'name+description+inputSchema': prompt, outputSchema: output, tokens: list.whole },
      ...run.calls.map((c, i) => ({ part: `trail run ${i + 1}: ${c.tool}`, tokens: c.tokens, 'of which UUIDs': c.uuidTokens })),
      { part: 'trail run (all responses)', tokens: runTokens, 'of which UUIDs': runUuid },
    ];
    return {
      name: 'agent-cost',
      rows,
      bars: [
        { name: 'tools/list tokens vs a 12k budget', value: round(list.whole / TOOLS_LIST_BUDGET), bar: '≤ 1×', pass: list.whole <= TOOLS_LIST_BUDGET },
        { name: 'name + description + inputSchema tokens vs a 6k budget', value: round(prompt / PROMPT_PART_BUDGET), bar: '≤ 1×', pass: prompt <= PROMPT_PART_BUDGET },
        { name: 'five-step trail run, response tokens vs a 5k budget', value: round(runTokens / TRAIL_RUN_BUDGET), bar: '≤ 1×', pass: runTokens <= TRAIL_RUN_BUDGET },
      ],
      notes: ['o200k_base tokens (gpt-tokenizer) of the JSON a client receives; the trail run counts each response\'s text content: start, answers, a conditional branch, a transfer to a person, the person\'s answer, completion.'],
    };
  } finally {
    await h.close();
  }
}

if (isEntry(import.meta.url)) {
  runAsScript(async () => {
    const result = await run();
    writeResult(result);
    return result;
  });
}
