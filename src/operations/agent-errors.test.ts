/**
 * Errors in the agent's words (issue 13): what a refusal names so that an agent can fix its call without a
 * second look-up: options and elements by label as well as id, the expected shape of a malformed input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/engines.js';
import { addTestBit } from '../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { checkList, dropdown, radio, searchable, textArea } from '../../test/trail-fixtures.js';

describe.each(ENGINES)('errors in the agent\'s words on %s', (engine) => {
  let h: Harness;
  let ids: Record<string, string>;
  let flowId: string;
  const answer = (key: string, element_type: string, inner: unknown) => ({ element_id: ids[key], element_type, value: { value: inner } });

  beforeAll(async () => {
    h = await startHarness(engine);
    const added = await addTestBit(h, {
      title: 'Choices',
      blocks: [
        textArea('notes', { label: 'Your notes', required: true }),
        dropdown('route', ['o1', 'o2'], { label: 'Route', required: true }),
        radio('size', ['r1', 'r2']),
        searchable('city', ['Paris', { label: 'Oslo', value: 'osl' }]),
        checkList('tasks', [{ id: 'i1', required: true }, { id: 'i2' }]),
      ],
    });
    ids = added.ids;
    flowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Choices', start_bit_id: added.bit_id })).flow_id;
  });
  afterAll(async () => h.close());

  const startTrail = async () => (await h.owner.client.ok<{ trail_id: string }>('start_trail', { flow_id: flowId })).trail_id;

  it('ANSWER_INVALID on a choice names the valid options by id and label', async () => {
    const trail_id = await startTrail();
    const error = await h.owner.client.fail('submit_step_data', {
      trail_id,
      data: [answer('route', 'Dropdown', 'Option o1'), answer('size', 'RadioButton', 3), answer('city', 'SearchableField', 'Oslo')],
    });
    expect(error.code).toBe('ANSWER_INVALID');
    const messages = (error.details?.issues as Array<{ message: string }>).map((i) => i.message);
    expect(messages).toEqual([
      `Option o1 is not an option id; the options (id "label") are: ${ids.o1} "Option o1", ${ids.o2} "Option o2"`,
      `must be the chosen option's id (a string); the options (id "label") are: ${ids.r1} "Radio r1", ${ids.r2} "Radio r2"`,
      'Oslo is not in the field\'s data; the values (value "label") are: Paris, osl "Oslo"',
    ]);
    expect(error.message).toContain(`${ids.o1} "Option o1"`);
  });

  it('REQUIRED_ANSWERS_MISSING names the elements by id and label', async () => {
    const trail_id = await startTrail();
    const error = await h.owner.client.fail('advance_trail', { trail_id });
    expect(error.code).toBe('REQUIRED_ANSWERS_MISSING');
    expect(error.message).toBe(
      `Step "Choices" has required elements without an answer (a required check-list item must be checked): ${ids.notes} "Your notes", ${ids.route} "Route", ${ids.i1} "Task i1". Answer them with submit_step_data, then advance.`,
    );
    expect(error.details).toEqual({
      element_ids: [ids.notes, ids.route, ids.i1],
      elements: [
        { element_id: ids.notes, label: 'Your notes' },
        { element_id: ids.route, label: 'Route' },
        { element_id: ids.i1, label: 'Task i1' },
      ],
    });
  });

  it('a when= error names the valid options, or what this body can name', async () => {
    const target = (await addTestBit(h, { title: 'Next' })).bit_id;
    const write = (when: string) =>
      h.owner.client.fail('add_bit', {
        bit_title: 'Routes',
        bit_body: `[dropdown: Route](waymark-node:dd)\n- [Fast](waymark-node:f)\n- [Slow](waymark-node:s)\n\n[check-list: Checks](waymark-node:cl)\n- [ ] [Signed](waymark-node:sig)\n\n[Go](bit-connection:${target}?when=${when})\n`,
        elements: [
          { key: 'dd', type: 'dropdown', items: [{ key: 'f' }, { key: 's' }] },
          { key: 'cl', type: 'check-list', items: [{ key: 'sig' }] },
        ],
      });
    const option = await write('dd:x');
    expect(option.code).toBe('VALIDATION_ERROR');
    expect(option.message).toBe('bit_body line 8: when=: x is not an option of dropdown dd; its options (ref "label") are: f "Fast", s "Slow"');
    const element = await write('nope:x');
    expect(element.message).toBe(
      'bit_body line 8: when= names nope, which is not an option of a dropdown or radio-button of this body, or a check-list item of this body; this body\'s are (ref "label"): dd "Route", sig "Signed"',
    );
  });

  it('a malformed call is told the shape expected, not zod\'s "Invalid input"', async () => {
    const trail_id = await startTrail();
    const issuesOf = async (tool: string, args: Record<string, unknown>) => {
      const error = await h.owner.client.fail(tool, args);
      expect(error.code).toBe('VALIDATION_ERROR');
      return error.details?.issues;
    };
    expect(await issuesOf('submit_step_data', { trail_id, data: [{ element_id: ids.notes, element_type: 'TextArea', value: 'bare' }] })).toEqual([
      { path: 'data[0].value', message: 'expected an object { value: … }, got a string; wrap it as { "value": … }' },
    ]);
    expect(await issuesOf('submit_step_data', { trail_id, data: [{ element_type: 'TextArea', value: { value: 'x' } }] })).toEqual([{ path: 'data[0].element_id', message: 'required: a string' }]);
    expect(await issuesOf('submit_step_data', { trail_id, data: 'x' })).toEqual([
      { path: 'data', message: 'expected an array [{ element_id: string, element_type?: string, value: { value: … } }, …], got a string' },
    ]);
    expect(await issuesOf('submit_step_data', { trail_id, data: [] })).toEqual([{ path: 'data', message: 'must hold at least 1 item' }]);
    expect(await issuesOf('review_flow', { flow_id: flowId, review_status: 'ok' })).toEqual([{ path: 'review_status', message: 'must be one of: pending, approved, changes_requested' }]);
    expect(await issuesOf('list_bits', { limit: 'ten' })).toEqual([{ path: 'limit', message: 'expected an integer, got a string' }]);
    expect(await issuesOf('get_trail', { trail_id, extra: 1 })).toEqual([{ path: '', message: 'unknown field "extra"; the fields are: trail_id' }]);
    // Element props are checked against their type's schema the same way.
    expect(await issuesOf('add_bit', { bit_title: 'T', bit_body: '[text-area: Notes](waymark-node:n)', elements: [{ key: 'n', type: 'text-area', props: { required: 'yes' } }] })).toEqual([
      { path: 'elements[0].props.required', message: 'expected a boolean, got a string' },
    ]);
  });

  it('describe_platform teaches the Slate nodes, derived from the constructs; its example is content a reference takes', async () => {
    const { slate } = await h.owner.client.ok<{ slate: { text: string; nodes: Record<string, string>; holds: Record<string, string>; example: unknown[] } }>('describe_platform');
    expect(slate.text).toBe('{ text: string, bold?: true, italic?: true, strikethrough?: true, code?: true }');
    expect(slate.nodes).toMatchObject({
      'p, lic, h1, h2, h3, h4, h5, h6': 'children: [inline]',
      ul: 'children: [list]',
      li: 'checked?: boolean, children: [li]',
      a: 'url: string, title?: string, id?: string, children: [link]',
      img: 'url: string, title?: string, id?: string, alt?: string, children: [{ text: "" }]',
    });
    expect(slate.holds).toMatchObject({ list: 'li', link: 'text, img, citation, credential', cell: 'p' });
    expect(slate.holds.li.startsWith('p, lic, h1')).toBe(true);
    expect(slate.holds.block).toContain('bit-connection (bit_body only)');
    const { reference_id } = await h.owner.client.ok<{ reference_id: string }>('create_reference', { reference_title: 'Example', reference_content: slate.example });
    const reference = await h.owner.client.ok<{ reference_content: unknown }>('get_reference', { reference_id });
    // Key order is the engine's (PostgreSQL jsonb sorts keys); the nodes are the example's, ids aside.
    expect(JSON.parse(JSON.stringify(reference.reference_content, (key, value: unknown) => (key === 'id' ? undefined : value)))).toEqual(slate.example);
  });

  it('a Slate error names the place in the field the agent sent', async () => {
    const error = await h.owner.client.fail('create_reference', {
      reference_title: 'Bad',
      reference_content: [{ type: 'p', children: [{ text: 'ok' }] }, { type: 'ul', children: [{ type: 'li', children: [{ text: 'bare' }] }] }],
    });
    expect(error.details?.issues).toEqual([{ path: 'reference_content[1].children[0].children[0]', message: 'text belongs inside a paragraph, heading, cell or link' }]);
    const link = await h.owner.client.fail('create_reference', { reference_title: 'Bad', reference_content: [{ type: 'p', children: [{ type: 'a', children: [{ text: 'x' }] }] }] });
    expect(link.details?.issues).toEqual([{ path: 'reference_content[0].children[0].url', message: 'required; must be a string' }]);
  });
});
