/**
 * End to end (issue 6, "Done when"): a flow of five bits authored through the tools, with every element
 * type and conditional connections; two trails down different branches, one handing a human_required
 * step to a person's token; both completed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import type { BitWriteResult } from '../../services/bits/shapes.js';
import type { TrailView } from '../../services/trails/shapes.js';
import { allTools } from '../registry.js';

type Added = BitWriteResult;
type Trail = TrailView;

const answer = (element_id: string, element_type: string, inner: unknown) => ({ element_id, element_type, value: { value: inner } });

// The authoring tools come from the bits engineer; until they are registered this file has nothing to drive.
const AUTHORING = ['add_bit', 'update_bit', 'connect_bits', 'get_bit'].every((name) => allTools().some((t) => t.name === name));

describe.runIf(AUTHORING).each(ENGINES)('a flow authored and run end to end on %s', (engine) => {
  let h: Harness;
  /** The writing tools answer what changed; the history is get_trail's. */
  const historyOf = async (trailId: string) => (await h.owner.client.ok<Trail>('get_trail', { trail_id: trailId })).history;
  let person: Principal;
  const bit: Record<string, Added> = {};
  let flowId: string;
  const id = (b: string, key: string) => bit[b].minted_node_ids[key];

  /** Adds `when=` to the connection line towards `target` in the source's body (Body syntax rule 4: update only). */
  async function makeConditional(source: string, target: string, when: string): Promise<void> {
    const current = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id: bit[source].bit_id });
    const pattern = new RegExp(`\\]\\(bit-connection:${bit[target].bit_id}\\?node=([0-9a-f-]+)\\)`);
    expect(current.bit_body).toMatch(pattern);
    const body = current.bit_body.replace(pattern, (_m, node: string) => `](bit-connection:${bit[target].bit_id}?node=${node}&when=${when})`);
    await h.owner.client.ok('update_bit', { bit_id: bit[source].bit_id, bit_body: body, content_format: 'markdown' });
  }

  beforeAll(async () => {
    h = await startHarness(engine);
    person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['run'] });
    const add = (args: Record<string, unknown>) => h.owner.client.ok<Added>('add_bit', args);

    bit.done = await add({ bit_title: 'Done', bit_body: 'All steps are complete.' });
    bit.review = await add({
      bit_title: 'Review',
      complexity: 'low',
      bit_body: ['Summarise the work.', '', '[text-area: Summary](waymark-node:summary)', '', '[date-picker: Reviewed at](waymark-node:reviewed)'].join('\n'),
      elements: [
        { key: 'summary', type: 'text-area', props: { maxLength: 40, validationMode: 'warning' } },
        { key: 'reviewed', type: 'date-picker', props: { picker_type: 'datetime-local', required: true } },
      ],
    });
    bit.standard = await add({
      bit_title: 'Standard path',
      bit_body: [
        'Read [the guide](https://example.com/guide "waymark-node:guide") first.',
        '',
        '[radio-button: Size](waymark-node:size)',
        '- ( ) [Small](waymark-node:small)',
        '- ( ) [Large](waymark-node:large)',
        '',
        '[searchable-field: City](waymark-node:city)',
        '',
        '[link-block](waymark-node:card)',
        '',
        '[video-external](waymark-node:vid)',
        '',
        '[iframe](waymark-node:frame)',
      ].join('\n'),
      elements: [
        { key: 'guide', type: 'link-inline', props: { url: 'https://example.com/guide' } },
        { key: 'size', type: 'radio-button', props: { required: true }, items: [{ key: 'small' }, { key: 'large' }] },
        { key: 'city', type: 'searchable-field', props: { data: ['Paris', { label: 'Oslo', value: 'osl' }] } },
        { key: 'card', type: 'link-block', props: { url: 'https://example.com/card' } },
        { key: 'vid', type: 'video-external', props: { url: 'https://video.example.com/v' } },
        { key: 'frame', type: 'iframe', props: { url: 'https://embed.example.com/' } },
      ],
    });
    bit.express = await add({
      bit_title: 'Express approval',
      human_required: true,
      complexity: 'high',
      bit_body: ['A manager approves express handling.', '', '[check-list: Approval](waymark-node:approval)', '- [ ] [Approved](waymark-node:approve)', '', '[date-picker: Time](waymark-node:time)'].join('\n'),
      elements: [
        { key: 'approval', type: 'check-list', items: [{ key: 'approve', required: true }] },
        { key: 'time', type: 'date-picker', props: { picker_type: 'time', seconds_precision: true } },
      ],
    });
    bit.intake = await add({
      bit_title: 'Intake',
      bit_body: [
        'Collect the request.',
        '',
        '[text-area: Notes](waymark-node:notes)',
        '',
        '[date-picker: Due](waymark-node:due)',
        '',
        '[dropdown: Route](waymark-node:route)',
        '- [Standard](waymark-node:std)',
        '- [Express](waymark-node:exp)',
        '',
        '[check-list: Checks](waymark-node:checks)',
        '- [ ] [Identity verified](waymark-node:verified)',
        '- [ ] [Copy filed](waymark-node:filed)',
      ].join('\n'),
      elements: [
        { key: 'notes', type: 'text-area', props: { required: true, minLength: 3 } },
        { key: 'due', type: 'date-picker', props: { picker_type: 'date', required: true } },
        { key: 'route', type: 'dropdown', props: { required: true }, items: [{ key: 'std', value: 'standard' }, { key: 'exp', value: 'express' }] },
        { key: 'checks', type: 'check-list', items: [{ key: 'verified', required: true }, { key: 'filed' }] },
      ],
    });

    const connect = (source: string, target: string) => h.owner.client.ok('connect_bits', { source_bit_id: bit[source].bit_id, target_bit_id: bit[target].bit_id });
    await connect('intake', 'standard');
    await connect('intake', 'express');
    await connect('standard', 'review');
    await connect('express', 'review');
    await connect('review', 'done');
    await makeConditional('intake', 'standard', `${id('intake', 'route')}:${id('intake', 'std')}`);
    await makeConditional('intake', 'express', `${id('intake', 'route')}:${id('intake', 'exp')}`);
    await makeConditional('express', 'review', `${id('express', 'approve')}:checked`);

    flowId = (
      await h.owner.client.ok<{ flow_id: string }>('create_flow', {
        flow_title: 'Request handling',
        start_bit_id: bit.intake.bit_id,
        trail_context_schema: { type: 'object', properties: { requester: { type: 'string', format: 'email' } }, required: ['requester'] },
      })
    ).flow_id;
  });
  afterAll(async () => h.close());

  it('get_flow shows the five bits with the conditions on the connections', async () => {
    const flow = await h.owner.client.ok<{ graph: { bits: Array<{ bit_id: string; connections: Array<{ condition: unknown }> }>; unreachable_bit_ids: string[]; mermaid: string } }>('get_flow', {
      flow_id: flowId,
      format: 'mermaid',
    });
    expect(flow.graph.bits.map((b) => b.bit_id)).toEqual([bit.intake, bit.standard, bit.express, bit.review, bit.done].map((b) => b.bit_id));
    expect(flow.graph.bits[0].connections.map((c) => c.condition)).toEqual([
      { element_id: id('intake', 'route'), option_ids: [id('intake', 'std')] },
      { element_id: id('intake', 'route'), option_ids: [id('intake', 'exp')] },
    ]);
    expect(flow.graph.bits[2].connections[0].condition).toEqual({ element_id: id('express', 'approve'), checked: true });
    expect(flow.graph.unreachable_bit_ids).toEqual([]);
    expect(flow.graph.mermaid).toContain('-.->');
  });

  it('trail one: an agent runs the standard branch to completion', async () => {
    const started = await h.owner.client.ok<Trail>('start_trail', { flow_id: flowId, trail_context: { requester: 'ann@example.com' }, trail_title: 'Ann' });
    const step = started.current_step!;
    const intake = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id: bit.intake.bit_id });
    expect(step.bit_body).toBe(intake.bit_body);
    expect(step.elements.map((e) => e.element_type)).toEqual(['TextArea', 'DatePicker', 'Dropdown', 'CheckListItem']);
    expect(step.required_missing).toEqual([id('intake', 'notes'), id('intake', 'due'), id('intake', 'route'), id('intake', 'verified')]);
    const t = started.trail_id;
    await h.owner.client.ok('submit_step_data', {
      trail_id: t,
      data: [
        answer(id('intake', 'notes'), 'TextArea', 'New laptop'),
        answer(id('intake', 'due'), 'DatePicker', '2025-03-01'),
        answer(id('intake', 'route'), 'Dropdown', id('intake', 'std')),
        answer(id('intake', 'verified'), 'CheckListItem', true),
      ],
    });
    const atStandard = await h.owner.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(atStandard.current_step!.bit_id).toBe(bit.standard.bit_id);
    expect(atStandard.current_step!.elements.map((e) => e.element_type)).toEqual(['LinkInline', 'RadioButton', 'SearchableField', 'LinkBlock', 'Video', null]);
    await h.owner.client.ok('submit_step_data', {
      trail_id: t,
      data: [
        answer(id('standard', 'guide'), 'LinkInline', { clicked: true, url: 'https://example.com/guide' }),
        answer(id('standard', 'size'), 'RadioButton', id('standard', 'large')),
        answer(id('standard', 'city'), 'SearchableField', 'osl'),
        answer(id('standard', 'card'), 'LinkBlock', { clicked: true, url: 'https://example.com/card' }),
        answer(id('standard', 'vid'), 'Video', { played: true }),
      ],
    });
    const atReview = await h.owner.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(atReview.current_step!.bit_title).toBe('Review');
    const warned = await h.owner.client.ok<Trail & { warnings: unknown[] }>('submit_step_data', {
      trail_id: t,
      data: [answer(id('review', 'summary'), 'TextArea', 'A laptop was ordered for Ann on the standard path.'), answer(id('review', 'reviewed'), 'DatePicker', '2025-03-02T09:30')],
    });
    expect(warned.warnings).toHaveLength(1);
    const atDone = await h.owner.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(atDone.current_step!.connections_available).toEqual([]);
    const finished = await h.owner.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(finished.status).toBe('completed');
    expect((await historyOf(finished.trail_id)).map((s) => s.bit_id)).toEqual([bit.intake, bit.standard, bit.review, bit.done].map((b) => b.bit_id));
  });

  it('trail two: the express branch is handed to a person, who approves; the agent completes it', async () => {
    const t = (await h.owner.client.ok<Trail>('start_trail', { flow_id: flowId, trail_context: { requester: 'bob@example.com' } })).trail_id;
    await h.owner.client.ok('submit_step_data', {
      trail_id: t,
      data: [
        answer(id('intake', 'notes'), 'TextArea', 'Urgent access'),
        answer(id('intake', 'due'), 'DatePicker', '2025-03-01'),
        answer(id('intake', 'route'), 'Dropdown', id('intake', 'exp')),
        answer(id('intake', 'verified'), 'CheckListItem', true),
        answer(id('intake', 'filed'), 'CheckListItem', false),
      ],
    });
    const atExpress = await h.owner.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(atExpress.current_step).toMatchObject({ bit_id: bit.express.bit_id, human_required: true, complexity: 'high' });
    // Approval not given yet: the conditional connection to Review is not available.
    expect(atExpress.current_step!.connections_available).toEqual([]);
    const refused = await h.owner.client.fail('submit_step_data', { trail_id: t, data: [answer(id('express', 'approve'), 'CheckListItem', true)] });
    expect(refused.code).toBe('HUMAN_REQUIRED');
    expect(refused.message).toContain('transfer_step');
    expect((await h.owner.client.ok<Trail>('transfer_step', { trail_id: t, reason: 'Express handling needs a manager' })).status).toBe('waiting_for_person');
    await person.client.ok('submit_step_data', { trail_id: t, data: [answer(id('express', 'approve'), 'CheckListItem', true), answer(id('express', 'time'), 'DatePicker', '09:15:00')] });
    const atReview = await person.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(atReview).toMatchObject({ status: 'running', current_step: { bit_title: 'Review' } });
    await h.owner.client.ok('submit_step_data', { trail_id: t, data: [answer(id('review', 'reviewed'), 'DatePicker', '2025-03-02T10:00')] });
    await h.owner.client.ok('advance_trail', { trail_id: t });
    const finished = await h.owner.client.ok<Trail>('advance_trail', { trail_id: t });
    expect(finished.status).toBe('completed');
    expect((await historyOf(finished.trail_id)).map((s) => s.bit_id)).toEqual([bit.intake, bit.express, bit.review, bit.done].map((b) => b.bit_id));
    const express = (await historyOf(finished.trail_id))[1];
    expect(express).toMatchObject({ transfers: [{ reason: 'Express handling needs a manager', transferred_by: h.owner.principalId }], left_by: person.principalId });
    expect(express.answers.every((a) => a.answered_by === person.principalId)).toBe(true);
    const completed = await h.owner.client.ok<{ trails: Array<{ trail_id: string }> }>('list_trails', { flow_id: flowId, status: 'completed' });
    expect(completed.trails).toHaveLength(2);
    expect((await h.owner.client.ok<{ trails: Array<{ trail_id: string }> }>('list_trails', { principal_id: person.principalId })).trails.map((x) => x.trail_id)).toEqual([t]);
  });
});
