/**
 * The elicitation fallback (issue 14) through the real SDK client's elicitation handler, on every engine:
 * accept records the answers (the same checks as submit_step_data, a refusal asks again naming the field by its
 * label), decline and cancel leave the trail as it was; steps with links, agents' tokens and clients without
 * elicitation are not asked; a step is asked once per session until it changes (issue 28).
 */
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { connectClient, startHarness, type Harness, type ToolClient } from '../../../test/harness.js';
import { capabilityName } from '../../config.js';
import { ELICITATION_NOTE } from '../../operations/platform/client-features.js';

const BODY = `A person signs the release off.

[text-area: Summary](waymark-node:summary)

[dropdown: Region](waymark-node:region)
- [Europe](waymark-node:eu)
- [Americas](waymark-node:us)

[radio-button: Risk](waymark-node:risk)
- ( ) [Low](waymark-node:low)
- ( ) [High](waymark-node:high)

[date-picker: Ship date](waymark-node:ship_date)

[check-list: Preflight](waymark-node:preflight)
- [ ] [Tests are green](waymark-node:tests)

[searchable-field: Reviewers](waymark-node:reviewers)
`;

const ELEMENTS = [
  { key: 'summary', type: 'text-area', props: { label: 'Summary', validationPattern: '[A-Z].*', validationMessage: 'Start with a capital letter', required: true } },
  { key: 'region', type: 'dropdown', props: { label: 'Region' }, items: [{ key: 'eu', name: 'Europe' }, { key: 'us', name: 'Americas' }] },
  { key: 'risk', type: 'radio-button', props: { label: 'Risk', required: true }, items: [{ key: 'low', text: 'Low' }, { key: 'high', text: 'High' }] },
  { key: 'ship_date', type: 'date-picker', props: { label: 'Ship date', picker_type: 'date' } },
  { key: 'preflight', type: 'check-list', props: { label: 'Preflight' }, items: [{ key: 'tests', text: 'Tests are green', required: true }] },
  { key: 'reviewers', type: 'searchable-field', props: { label: 'Reviewers', multiSelectResults: true, data: ['Ada', 'Grace'] } },
];

interface Step {
  step_id: string;
  answers: Array<{ element_id: string; value: unknown; answered_by: string }>;
  required_missing: string[];
}
interface Trail {
  trail_id: string;
  current_step: Step;
}

for (const engine of ENGINES) {
  describe(`step answers by elicitation (${engine})`, () => {
    let h: Harness;
    let flowId: string;
    let linkFlowId: string;
    let ids: Record<string, string>;
    let personToken: string;
    let personId: string;
    /** What the person's client answers to the next elicitation requests, in order; each request is kept. */
    let replies: Array<(params: ElicitRequestFormParams) => ElicitResult> = [];
    const asked: ElicitRequestFormParams[] = [];
    let person: ToolClient;

    const flowOf = async (bitTitle: string, body: string, elements: unknown[]) => {
      const bit = await h.owner.client.ok<{ bit_id: string; minted_node_ids: Record<string, string> }>('add_bit', { bit_title: bitTitle, human_required: true, bit_body: body, elements });
      const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: `${bitTitle} flow`, start_bit_id: bit.bit_id });
      await h.owner.client.ok('review_flow', { flow_id: flow.flow_id, review_status: 'approved' });
      await h.owner.client.ok('update_flow', { flow_id: flow.flow_id, is_active: true });
      return { flowId: flow.flow_id, ids: bit.minted_node_ids };
    };

    beforeAll(async () => {
      h = await startHarness(engine);
      ({ flowId, ids } = await flowOf('Sign-off', BODY, ELEMENTS));
      ({ flowId: linkFlowId } = await flowOf('Read first', 'Read the guide and note it.\n\n[link-block](waymark-node:guide)\n\n[text-area: Note](waymark-node:note)\n', [
        { key: 'guide', type: 'link-block', props: { url: 'https://example.com/guide' } },
        { key: 'note', type: 'text-area', props: { label: 'Note' } },
      ]));
      const issued = await h.services.auth.createToken({ accountId: h.accountId, permission: 'edit', capabilities: ['author', 'read', 'run'].map((c) => capabilityName(c as 'run')), kind: 'person', name: 'Robin' });
      personToken = issued.token;
      personId = issued.principalId;
      person = await connectClient(h.services, personToken, {
        capabilities: { elicitation: { form: {} } },
        setup(client) {
          client.setRequestHandler('elicitation/create', async (request) => {
            const params = request.params as ElicitRequestFormParams;
            asked.push(params);
            const reply = replies.shift();
            if (!reply) throw new Error('an elicitation nobody expected');
            return reply(params);
          });
        },
      });
    }, 120_000);
    afterAll(async () => {
      await person?.close();
      await h?.close();
    });

    test('the trail tools tell this client about it, and describe_platform says so', async () => {
      const { tools } = await person.client.listTools();
      for (const name of ['start_trail', 'get_trail', 'advance_trail']) expect(tools.find((t) => t.name === name)?.description).toContain(ELICITATION_NOTE);
      expect(tools.find((t) => t.name === 'transfer_step')?.description).not.toContain(ELICITATION_NOTE);
      expect(tools.some((t) => t._meta?.ui !== undefined)).toBe(false);
      const platform = await person.ok<{ client_features?: unknown }>('describe_platform');
      expect(platform.client_features).toEqual({ step_form: 'elicitation', how: ELICITATION_NOTE });
      expect((await h.owner.client.ok<{ client_features?: unknown }>('describe_platform')).client_features).toBeUndefined();
    });

    test('accept: the answers are recorded with the same checks, a refusal asks again saying why', async () => {
      asked.length = 0;
      const content = { [ids.summary]: 'looks fine', [ids.region]: ids.us, [ids.risk]: ids.low, [ids.ship_date]: '2026-12-01', [ids.tests]: true, [ids.reviewers]: ['Ada'] };
      replies = [() => ({ action: 'accept', content }), () => ({ action: 'accept', content: { ...content, [ids.summary]: 'Looks fine' } })];
      const trail = await person.ok<Trail>('start_trail', { flow_id: flowId });
      expect(asked).toHaveLength(2);
      expect(asked[0].message).toBe('Answer the step “Sign-off”.');
      expect(asked[0].requestedSchema).toEqual({
        type: 'object',
        properties: {
          [ids.summary]: { type: 'string', title: 'Summary', description: 'Start with a capital letter' },
          [ids.region]: { type: 'string', title: 'Region', oneOf: [{ const: ids.eu, title: 'Europe' }, { const: ids.us, title: 'Americas' }] },
          [ids.risk]: { type: 'string', title: 'Risk', oneOf: [{ const: ids.low, title: 'Low' }, { const: ids.high, title: 'High' }] },
          [ids.ship_date]: { type: 'string', title: 'Ship date', format: 'date' },
          [ids.tests]: { type: 'boolean', title: 'Tests are green' },
          [ids.reviewers]: { type: 'array', title: 'Reviewers', items: { type: 'string', enum: ['Ada', 'Grace'] } },
        },
        required: [ids.summary, ids.risk, ids.tests],
      });
      // The refusal names the field by its label, not data[0].value.value and the element id (issue 28).
      expect(asked[1].message).toBe('Nothing was recorded. Summary: Start with a capital letter. Answer the step “Sign-off”.');
      // The tool answered the trail as it stands after the answers, recorded as the person's.
      const answers = Object.fromEntries(trail.current_step.answers.map((a) => [a.element_id, a.value]));
      expect(answers).toEqual({ [ids.summary]: 'Looks fine', [ids.region]: ids.us, [ids.risk]: ids.low, [ids.ship_date]: '2026-12-01', [ids.tests]: true, [ids.reviewers]: ['Ada'] });
      expect(trail.current_step.answers.every((a) => a.answered_by === personId)).toBe(true);
      expect(trail.current_step.required_missing).toEqual([]);
      const stored = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
      expect(stored.current_step.answers).toEqual(trail.current_step.answers);
    });

    for (const action of ['decline', 'cancel', 'a failing client'] as const) {
      test(`${action}: nothing is recorded and the tool answers as it would have`, async () => {
        replies = [];
        const plain = await connectClient(h.services, personToken);
        const started = await plain.ok<Trail>('start_trail', { flow_id: flowId });
        await plain.close();
        asked.length = 0;
        replies = [
          () => {
            if (action === 'a failing client') throw new Error('the form could not be shown');
            return { action };
          },
        ];
        const seen = await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
        expect(asked).toHaveLength(1);
        expect(seen).toEqual(await h.owner.client.ok<Trail>('get_trail', { trail_id: started.trail_id }));
        expect(seen.current_step.answers).toEqual([]);
        expect(seen.current_step.step_id).toBe(started.current_step.step_id);
      });
    }

    /** A trail of the sign-off flow started without a form (a client without elicitation). */
    const startQuietly = async () => {
      const plain = await connectClient(h.services, personToken);
      try {
        return await plain.ok<Trail>('start_trail', { flow_id: flowId });
      } finally {
        await plain.close();
      }
    };
    const valid = () => ({ [ids.summary]: 'Looks fine', [ids.region]: ids.us, [ids.risk]: ids.low, [ids.tests]: true });

    test('the form\'s own schema check refused: asked again naming each field by its label, never its id', async () => {
      const started = await startQuietly();
      asked.length = 0;
      const { [ids.risk]: _risk, ...withoutRisk } = valid();
      replies = [() => ({ action: 'accept', content: { ...withoutRisk, [ids.region]: 'nowhere' } }), () => ({ action: 'accept', content: valid() })];
      const seen = await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
      expect(asked).toHaveLength(2);
      expect(asked[1].message).toBe('Nothing was recorded. Region: choose one of Europe, Americas. Risk: required; choose one of Low, High. Answer the step “Sign-off”.');
      for (const id of Object.values(ids)) expect(asked[1].message).not.toContain(id);
      expect(Object.fromEntries(seen.current_step.answers.map((a) => [a.element_id, a.value]))).toEqual({ [ids.summary]: 'Looks fine', [ids.region]: ids.us, [ids.risk]: ids.low, [ids.tests]: true });
    });

    test('asked once: get_trail after the person answered asks nothing, nor after answers given elsewhere', async () => {
      const started = await startQuietly();
      asked.length = 0;
      replies = [() => ({ action: 'accept', content: valid() })];
      const first = await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
      expect(first.current_step.required_missing).toEqual([]);
      const second = await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
      expect(await person.ok<Trail>('get_trail', { trail_id: started.trail_id })).toEqual(second);
      expect(asked).toHaveLength(1);
      expect(second.current_step.answers).toEqual(first.current_step.answers);
      // A step answered through another door waits for advance_trail: the form is not shown for it.
      const other = await startQuietly();
      const plain = await connectClient(h.services, personToken);
      await plain.ok('submit_step_data', { trail_id: other.trail_id, data: Object.entries(valid()).map(([element_id, value]) => ({ element_id, value: { value } })) });
      await plain.close();
      await person.ok<Trail>('get_trail', { trail_id: other.trail_id });
      expect(asked).toHaveLength(1);
    });

    for (const action of ['decline', 'cancel'] as const) {
      test(`after a ${action}, not asked again until the step changes`, async () => {
        const started = await startQuietly();
        asked.length = 0;
        replies = [() => ({ action })];
        await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
        await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
        await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
        expect(asked).toHaveLength(1);
        // Another hand answers part of the step (required answers still missing): the step changed, asked again.
        const plain = await connectClient(h.services, personToken);
        await plain.ok('submit_step_data', { trail_id: started.trail_id, data: [{ element_id: ids.summary, value: { value: 'Partly done' } }] });
        await plain.close();
        replies = [() => ({ action: 'accept', content: valid() })];
        const seen = await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
        expect(asked).toHaveLength(2);
        expect(asked[1].requestedSchema.properties[ids.summary]).toMatchObject({ default: 'Partly done' });
        expect(seen.current_step.required_missing).toEqual([]);
        await person.ok<Trail>('get_trail', { trail_id: started.trail_id });
        expect(asked).toHaveLength(2);
      });
    }

    test('not asked: a step with a link, an agent\'s token, a client without elicitation', async () => {
      asked.length = 0;
      replies = [];
      const linked = await person.ok<Trail>('start_trail', { flow_id: linkFlowId });
      expect(linked.current_step.answers).toEqual([]);
      const agent = await connectClient(h.services, h.owner.token, { capabilities: { elicitation: { form: {} } }, setup: (c) => c.setRequestHandler('elicitation/create', () => Promise.reject(new Error('asked'))) });
      const started = await agent.ok<Trail>('start_trail', { flow_id: flowId });
      expect(started.current_step.answers).toEqual([]);
      expect((await agent.client.listTools()).tools.find((t) => t.name === 'get_trail')?.description).toContain(ELICITATION_NOTE);
      await agent.close();
      expect(asked).toEqual([]);
    });
  });
}
