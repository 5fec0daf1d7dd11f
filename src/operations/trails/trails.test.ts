import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, archiveTestBit, connectTestBits, type TestBitOptions } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { checkList, datePicker, dropdown, iframe, linkBlock, linkInlineParagraph, p, radio, searchable, textArea, video } from '../../../test/trail-fixtures.js';
import type { AnswerWarnings, TrailView } from '../../services/trails/shapes.js';

type Trail = TrailView & { warnings?: AnswerWarnings };

/** The ids the server minted for the fixtures' element and item keys, and back; a key it did not mint stays as written. */
const minted: Record<string, string> = {};
const node = (key: string) => minted[key] ?? key;
const keyOf = (id: string) => Object.keys(minted).find((key) => minted[key] === id) ?? id;
const keysOf = (ids: unknown) => (ids as string[]).map(keyOf);

const answer = (key: string, element_type: string, inner: unknown) => ({ element_id: node(key), element_type, value: { value: inner } });

describe.each(ENGINES)('trails on %s', (engine) => {
  let h: Harness;
  /** The writing tools answer what changed; the history is get_trail's. */
  const historyOf = async (trailId: string) => (await h.owner.client.ok<Trail>('get_trail', { trail_id: trailId })).history;
  let person: Principal;
  const bit: Record<string, string> = {};
  const conn: Record<string, string> = {};
  let flowId: string;
  const CONTEXT_SCHEMA = {
    type: 'object',
    properties: { customer: { type: 'string', minLength: 1 }, due: { type: 'string', format: 'date' }, seats: { type: 'integer' } },
    required: ['customer'],
  };

  /** A bit through add_bit; the ids minted for its keys join `minted`. */
  const addBit = async (options: TestBitOptions) => {
    const added = await addTestBit(h, options);
    Object.assign(minted, added.ids);
    return added.bit_id;
  };

  beforeAll(async () => {
    h = await startHarness(engine);
    person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['run'] });
    bit.start = await addBit({
      title: 'Intake',
      blocks: [
        p('Collect the basics.'),
        textArea('notes', { required: true, minLength: 3, validationPattern: '[a-z ]+', validationMessage: 'lowercase letters only' }),
        textArea('remark', { maxLength: 5, validationMode: 'warning' }),
        dropdown('route', ['o1', 'o2', 'o3'], { required: true }),
        checkList('tasks', [{ id: 'i1', required: true }, { id: 'i2' }]),
        datePicker('due', { picker_type: 'date' }),
        datePicker('at', { picker_type: 'datetime-local', seconds_precision: true }),
        datePicker('clock', { picker_type: 'time' }),
      ],
    });
    bit.a = await addBit({
      title: 'Path A',
      blocks: [
        radio('size', ['r1', 'r2']),
        searchable('city', ['Paris', { label: 'Oslo', value: 'osl' }]),
        searchable('cities', ['Paris', 'Rome'], { multiSelectResults: true }),
        linkBlock('lb', 'https://example.com/card'),
        linkInlineParagraph('li', 'https://example.com/guide'),
        video('vid', 'https://video.example.com/v'),
        iframe('frame', 'https://embed.example.com/'),
      ],
    });
    bit.b = await addBit({ title: 'Path B (people)', humanRequired: true, blocks: [checkList('sign', [{ id: 'sig', required: true }])] });
    bit.c = await addBit({ title: 'Done' });
    conn.sa = await connectTestBits(h, bit.start, bit.a, { label: 'Go A', when: { element_id: node('route'), option_ids: [node('o1'), node('o3')] } });
    conn.sb = await connectTestBits(h, bit.start, bit.b, { label: 'Go B', when: { element_id: node('route'), option_ids: [node('o2'), node('o3')] } });
    conn.ac = await connectTestBits(h, bit.a, bit.c);
    conn.ac2 = await connectTestBits(h, bit.a, bit.c, { label: 'only if r2', when: { element_id: node('size'), option_ids: [node('r2')] } });
    conn.bc = await connectTestBits(h, bit.b, bit.c, { when: { element_id: node('sig'), checked: true } });
    flowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Onboarding', start_bit_id: bit.start, trail_context_schema: CONTEXT_SCHEMA })).flow_id;
  });
  afterAll(async () => h.close());

  const start = (args: Record<string, unknown> = {}) => h.owner.client.ok<Trail>('start_trail', { flow_id: flowId, trail_context: { customer: 'ACME' }, ...args });
  const fill = (trailId: string, route: string) =>
    h.owner.client.ok<Trail>('submit_step_data', { trail_id: trailId, data: [answer('notes', 'TextArea', 'all good'), answer('route', 'Dropdown', node(route)), answer('i1', 'CheckListItem', true)] });

  it('start_trail: starts at the start bit with the step payload', async () => {
    const trail = await start({ trail_title: 'ACME onboarding', trail_context: { customer: 'ACME', due: '2025-01-31', seats: 3 } });
    expect(trail).toMatchObject({ flow_id: flowId, trail_title: 'ACME onboarding', status: 'running', trail_context: { customer: 'ACME', due: '2025-01-31', seats: 3 }, started_by: h.owner.principalId });
    const step = trail.current_step!;
    expect(step).toMatchObject({ bit_id: bit.start, bit_title: 'Intake', complexity: 'medium', human_required: false, answers: [], waiting_for_person: false, transfer_reason: null });
    expect(step.elements.map((e) => [keyOf(e.element_id), e.type, e.element_type, e.required])).toEqual([
      ['notes', 'text-area', 'TextArea', true],
      ['remark', 'text-area', 'TextArea', false],
      ['route', 'dropdown', 'Dropdown', true],
      ['tasks', 'check-list', 'CheckListItem', true],
      ['due', 'date-picker', 'DatePicker', false],
      ['at', 'date-picker', 'DatePicker', false],
      ['clock', 'date-picker', 'DatePicker', false],
    ]);
    expect(step.elements[2].items!.map((i) => keyOf(i.id))).toEqual(['o1', 'o2', 'o3']);
    expect(step.elements[0].config).toEqual({ label: 'Notes', required: true, minLength: 3, validationPattern: '[a-z ]+', validationMessage: 'lowercase letters only' });
    expect(step.elements[4].config).toEqual({ label: 'When', picker_type: 'date' });
    expect(step.elements.every((e) => !('props' in e))).toBe(true);
    expect(keysOf(step.required_missing)).toEqual(['notes', 'route', 'i1']);
    // Both connections depend on the dropdown: none is available before it is answered.
    expect(step.connections_available).toEqual([]);
    expect((await historyOf(trail.trail_id))).toHaveLength(1);
  });

  it('start_trail refuses an unknown flow, an inactive flow and a context that fails the schema', async () => {
    expect((await h.owner.client.fail('start_trail', { flow_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('FLOW_NOT_FOUND');
    const error = await h.owner.client.fail('start_trail', { flow_id: flowId, trail_context: { due: '2025-02-30', seats: 'many', extra: true } });
    expect(error).toMatchObject({ code: 'TRAIL_CONTEXT_INVALID', status: 422 });
    expect((error.details?.issues as Array<{ path: string }>).map((i) => i.path)).toEqual(['trail_context.customer', 'trail_context.due', 'trail_context.seats']);
    expect((await h.owner.client.fail('start_trail', { flow_id: flowId })).code).toBe('TRAIL_CONTEXT_INVALID');
    const other = await addBit({ title: 'Lone' });
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Off', start_bit_id: other });
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });
    expect(await h.owner.client.fail('start_trail', { flow_id })).toMatchObject({ code: 'FLOW_INACTIVE', status: 422 });
    // Without a schema any object is a context.
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    expect((await h.owner.client.ok<Trail>('start_trail', { flow_id, trail_context: { anything: [1, 2] } })).trail_context).toEqual({ anything: [1, 2] });
  });

  it('submit_step_data checks every answer before storing any: ANSWER_INVALID lists every problem', async () => {
    const trail = await start();
    const error = await h.owner.client.fail('submit_step_data', {
      trail_id: trail.trail_id,
      data: [
        answer('notes', 'TextArea', 'OK'),
        answer('route', 'Dropdown', 'o9'),
        answer('i1', 'CheckListItem', 'yes'),
        answer('due', 'DatePicker', '2023-02-29'),
        answer('at', 'DatePicker', '2025-01-01T10:00'),
        answer('clock', 'DatePicker', '24:00'),
        answer('remark', 'Dropdown', 'x'),
        answer('tasks', 'CheckListItem', true),
        answer('o1', 'Dropdown', node('o1')),
        answer('remark', 'TextArea', 'fine'),
      ],
    });
    expect(error).toMatchObject({ code: 'ANSWER_INVALID', status: 422 });
    const issues = error.details?.issues as Array<{ path: string; element_id: string; message: string }>;
    expect(issues.map((i) => [i.path, keyOf(i.element_id)])).toEqual([
      ['data[0].value.value', 'notes'],
      ['data[1].value.value', 'route'],
      ['data[2].value.value', 'i1'],
      ['data[3].value.value', 'due'],
      ['data[4].value.value', 'at'],
      ['data[5].value.value', 'clock'],
      ['data[6].element_type', 'remark'],
      ['data[7].element_id', 'tasks'],
      ['data[8].element_id', 'o1'],
    ]);
    // 'OK' is too short; the pattern (it would fail too) is not run on an answer a length rule refused. The author's
    // validationMessage speaks for the length rule too, with the length in brackets (issue 28).
    expect(issues[0].message).toBe('lowercase letters only (at least 3 characters, got 2)');
    const after = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect(after.current_step!.answers).toEqual([]);
    expect(after.last_modified_date_time_utc).toBe(trail.last_modified_date_time_utc);
  });

  it('submit_step_data refuses ids the step does not hold (ELEMENT_NOT_FOUND) and malformed calls (VALIDATION_ERROR)', async () => {
    const trail = await start();
    const missing = await h.owner.client.fail('submit_step_data', { trail_id: trail.trail_id, data: [answer('nope', 'TextArea', 'x'), answer('notes', 'TextArea', 'abc')] });
    expect(missing).toMatchObject({ code: 'ELEMENT_NOT_FOUND', status: 404 });
    expect(missing.details?.element_ids).toEqual(['nope']);
    expect(keysOf(missing.details?.answerable_element_ids)).toEqual(['notes', 'remark', 'route', 'i1', 'i2', 'due', 'at', 'clock']);
    for (const data of [[], [{ element_id: node('notes'), element_type: 'TextArea', value: 'bare' }], [{ element_id: node('notes'), element_type: 'TextArea', value: {} }]]) {
      expect((await h.owner.client.fail('submit_step_data', { trail_id: trail.trail_id, data })).code).toBe('VALIDATION_ERROR');
    }
    expect((await h.owner.client.fail('submit_step_data', { trail_id: '00000000-0000-4000-8000-000000000000', data: [answer('notes', 'TextArea', 'abc')] })).code).toBe('TRAIL_NOT_FOUND');
  });

  it('records answers with who and when; a later answer replaces an earlier one and history keeps both; warnings mode accepts', async () => {
    const trail = await start();
    const first = await h.owner.client.ok<Trail>('submit_step_data', {
      trail_id: trail.trail_id,
      data: [answer('notes', 'TextArea', 'first'), answer('remark', 'TextArea', 'too long'), answer('due', 'DatePicker', '2024-02-29'), answer('at', 'DatePicker', '2025-01-01T10:00:59'), answer('clock', 'DatePicker', '23:59')],
    });
    expect(first.warnings).toEqual([{ element_id: node('remark'), warnings: ['must be at most 5 characters (got 8)'] }]);
    expect(first.current_step!.answers.find((a) => a.element_id === node('remark'))).toMatchObject({ value: 'too long', warnings: ['must be at most 5 characters (got 8)'] });
    const second = await h.owner.client.ok<Trail>('submit_step_data', { trail_id: trail.trail_id, data: [answer('notes', 'TextArea', 'second')] });
    const notes = second.current_step!.answers.filter((a) => a.element_id === node('notes'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ element_type: 'TextArea', value: 'second', answered_by: h.owner.principalId });
    expect(notes[0].answered_date_time_utc).toMatch(/Z$/);
    expect((await historyOf(second.trail_id))[0].answers.filter((a) => a.element_id === node('notes')).map((a) => a.value)).toEqual(['first', 'second']);
    expect(second.last_modified_date_time_utc > first.last_modified_date_time_utc).toBe(true);
  });

  it('submit_step_data takes element_type as optional (CONTRACT.md): omitted, the element\'s own type is recorded; given, it must match', async () => {
    const trail = await start();
    const untyped = await h.owner.client.ok<Trail>('submit_step_data', { trail_id: trail.trail_id, data: [{ element_id: node('notes'), value: { value: 'no type given' } }, { element_id: node('due'), value: { value: '2024-02-29' } }] });
    expect(untyped.current_step!.answers.filter((a) => [node('notes'), node('due')].includes(a.element_id)).map((a) => [keyOf(a.element_id), a.element_type, a.value]).sort()).toEqual([
      ['due', 'DatePicker', '2024-02-29'],
      ['notes', 'TextArea', 'no type given'],
    ]);
    const wrong = await h.owner.client.fail('submit_step_data', { trail_id: trail.trail_id, data: [{ element_id: node('notes'), element_type: 'DatePicker', value: { value: 'x' } }] });
    expect(wrong.code).toBe('ANSWER_INVALID');
    expect(wrong.details?.issues).toEqual([expect.objectContaining({ path: 'data[0].element_type', message: `element ${node('notes')} is a TextArea` })]);
  });

  it('advance_trail refuses while required elements are unanswered, and a required item must be checked', async () => {
    const trail = await start();
    const none = await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id });
    expect(none).toMatchObject({ code: 'REQUIRED_ANSWERS_MISSING', status: 422 });
    expect(keysOf(none.details?.element_ids)).toEqual(['notes', 'route', 'i1']);
    await h.owner.client.ok('submit_step_data', { trail_id: trail.trail_id, data: [answer('notes', 'TextArea', 'done'), answer('route', 'Dropdown', node('o1')), answer('i1', 'CheckListItem', false)] });
    expect(keysOf((await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id })).details?.element_ids)).toEqual(['i1']);
    await h.owner.client.ok('submit_step_data', { trail_id: trail.trail_id, data: [answer('notes', 'TextArea', '   ')] });
    expect(keysOf((await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id })).details?.element_ids)).toEqual(['notes', 'i1']);
  });

  it('routes by the answers: the only available connection is followed; several ask for a choice; a wrong one is refused', async () => {
    const trail = await start();
    const filled = await fill(trail.trail_id, 'o3');
    expect(filled.current_step!.connections_available.map((c) => [c.connection_id, c.target_bit_title, c.label])).toEqual([
      [conn.sa, 'Path A', 'Go A'],
      [conn.sb, 'Path B (people)', 'Go B'],
    ]);
    expect(filled.current_step!.required_missing).toEqual([]);
    const choose = await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id });
    expect(choose.code).toBe('VALIDATION_ERROR');
    expect((choose.details?.available_connections as Array<{ connection_id: string }>).map((c) => c.connection_id)).toEqual([conn.sa, conn.sb]);
    expect(choose.message).toContain(conn.sa);
    await h.owner.client.ok('submit_step_data', { trail_id: trail.trail_id, data: [answer('route', 'Dropdown', node('o1'))] });
    const wrong = await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id, connection_id: conn.sb });
    expect(wrong.code).toBe('VALIDATION_ERROR');
    expect((wrong.details?.issues as Array<{ message: string }>)[0].message).toContain('not available now');
    expect((await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id, connection_id: conn.ac })).code).toBe('VALIDATION_ERROR');
    const moved = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(moved.current_step!.bit_id).toBe(bit.a);
    expect((await historyOf(moved.trail_id))[0]).toMatchObject({ bit_id: bit.start, left_by: h.owner.principalId, left_by_connection_id: conn.sa });
    expect((await historyOf(moved.trail_id))[0].left_date_time_utc).not.toBeNull();
  });

  it('answers every element type of path A and completes when no connection is left', async () => {
    const trail = await start();
    await fill(trail.trail_id, 'o1');
    const atA = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id, connection_id: conn.sa });
    expect(atA.current_step!.elements.map((e) => [keyOf(e.element_id), e.element_type])).toEqual([
      ['size', 'RadioButton'],
      ['city', 'SearchableField'],
      ['cities', 'SearchableField'],
      ['lb', 'LinkBlock'],
      ['li', 'LinkInline'],
      ['vid', 'Video'],
      ['frame', null],
    ]);
    // A link answer's url is the element's config.url (authoring-interface.md, answer values: `<config.url>`).
    expect(atA.current_step!.elements.find((e) => e.element_id === node('lb'))!.config).toEqual({ url: 'https://example.com/card' });
    expect(atA.current_step!.elements.find((e) => e.element_id === node('li'))!.config).toEqual({ url: 'https://example.com/guide' });
    const bad = await h.owner.client.fail('submit_step_data', {
      trail_id: trail.trail_id,
      data: [
        answer('size', 'RadioButton', 'r9'),
        answer('city', 'SearchableField', 'Oslo'),
        answer('cities', 'SearchableField', 'Paris'),
        answer('lb', 'LinkBlock', { clicked: true, url: 'https://elsewhere.example.com' }),
        answer('li', 'LinkInline', { clicked: 'yes', url: 'https://example.com/guide' }),
        answer('vid', 'Video', { played: 1 }),
        answer('frame', 'Iframe', {}),
      ],
    });
    expect((bad.details?.issues as Array<{ element_id: string }>).map((i) => keyOf(i.element_id))).toEqual(['size', 'city', 'cities', 'lb', 'li', 'vid', 'frame']);
    const ok = await h.owner.client.ok<Trail>('submit_step_data', {
      trail_id: trail.trail_id,
      data: [
        answer('size', 'RadioButton', node('r1')),
        answer('city', 'SearchableField', 'osl'),
        answer('cities', 'SearchableField', ['Paris', 'Rome']),
        answer('lb', 'LinkBlock', { clicked: true, url: 'https://example.com/card' }),
        answer('li', 'LinkInline', { clicked: false, url: 'https://example.com/guide' }),
        answer('vid', 'Video', { played: true }),
      ],
    });
    // r1: the conditional connection to C (r2 only) is not available, the plain one is.
    expect(ok.current_step!.connections_available.map((c) => c.connection_id)).toEqual([conn.ac]);
    const atC = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(atC.current_step!.bit_id).toBe(bit.c);
    expect(atC.current_step!.connections_available).toEqual([]);
    const done = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(done.status).toBe('completed');
    expect(done.current_step).toBeNull();
    expect((await historyOf(done.trail_id)).map((s) => s.bit_id)).toEqual([bit.start, bit.a, bit.c]);
    expect((await historyOf(done.trail_id))[2].left_by_connection_id).toBeNull();
    for (const [tool, args] of [
      ['submit_step_data', { data: [answer('x', 'TextArea', 'y')] }],
      ['advance_trail', {}],
      ['transfer_step', { reason: 'late' }],
    ] as const) {
      expect(await h.owner.client.fail(tool, { trail_id: trail.trail_id, ...args })).toMatchObject({ code: 'TRAIL_NOT_RUNNING', status: 409 });
    }
  });

  it('a human_required step: agents are refused with HUMAN_REQUIRED, transfer_step hands it to a person who answers and advances', async () => {
    const trail = await start();
    await fill(trail.trail_id, 'o2');
    const atB = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(atB.current_step).toMatchObject({ bit_id: bit.b, human_required: true });
    // The body as get_bit prints it: anchors with ids, the (required) mark of the item.
    expect(atB.current_step!.bit_body).toBe(
      `[check-list: Tasks](waymark-node:${node('sign')})\n- [ ] [Task sig](waymark-node:${node('sig')}) *(required)*\n\n[→](bit-connection:${bit.c}?node=${conn.bc}&when=${node('sig')}:checked)\n`,
    );
    for (const [tool, args] of [
      ['submit_step_data', { data: [answer('sig', 'CheckListItem', true)] }],
      ['advance_trail', {}],
    ] as const) {
      const error = await h.owner.client.fail(tool, { trail_id: trail.trail_id, ...args });
      expect(error).toMatchObject({ code: 'HUMAN_REQUIRED', status: 409 });
      expect(error.message).toContain('transfer_step');
    }
    expect((await h.owner.client.fail('transfer_step', { trail_id: trail.trail_id, reason: '  ' })).code).toBe('VALIDATION_ERROR');
    const waiting = await h.owner.client.ok<Trail>('transfer_step', { trail_id: trail.trail_id, reason: 'Needs a signature' });
    expect(waiting.status).toBe('waiting_for_person');
    expect(waiting.current_step).toMatchObject({ waiting_for_person: true, transfer_reason: 'Needs a signature' });
    expect((await historyOf(waiting.trail_id))[1]).toMatchObject({ transfers: [{ reason: 'Needs a signature', transferred_by: h.owner.principalId }], cancellation: null });
    // Once handed over, the refusal says it waits for a person, not to transfer it again.
    const handedOver = await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id });
    expect(handedOver).toMatchObject({ code: 'HUMAN_REQUIRED', details: { waiting_for_person: true } });
    expect(handedOver.message).toContain('waiting for them');
    expect(handedOver.message).toContain('no second transfer_step');

    const listed = await person.client.ok<{ trails: Array<{ trail_id: string }> }>('list_trails', { status: 'waiting_for_person' });
    expect(listed.trails.map((t) => t.trail_id)).toContain(trail.trail_id);
    expect(keysOf((await person.client.fail('advance_trail', { trail_id: trail.trail_id })).details?.element_ids)).toEqual(['sig']);
    const signed = await person.client.ok<Trail>('submit_step_data', { trail_id: trail.trail_id, data: [answer('sig', 'CheckListItem', true)] });
    expect(signed.current_step!.answers[0]).toMatchObject({ element_id: node('sig'), answered_by: person.principalId });
    expect(signed.status).toBe('waiting_for_person');
    const atC = await person.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(atC).toMatchObject({ status: 'running', current_step: { bit_id: bit.c, waiting_for_person: false } });
    expect((await historyOf(atC.trail_id))[1]).toMatchObject({ left_by: person.principalId, left_by_connection_id: conn.bc });
    // The agent carries on once the person is done.
    expect((await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id })).status).toBe('completed');
  });

  it('an agent may hand over any step; once handed over it waits for a person', async () => {
    const trail = await start();
    await h.owner.client.ok('transfer_step', { trail_id: trail.trail_id, reason: 'Unsure about the customer' });
    expect((await h.owner.client.fail('submit_step_data', { trail_id: trail.trail_id, data: [answer('notes', 'TextArea', 'abc')] })).code).toBe('HUMAN_REQUIRED');
    const again = await h.owner.client.ok<Trail>('transfer_step', { trail_id: trail.trail_id, reason: 'Still unsure' });
    expect(again.current_step!.transfer_reason).toBe('Still unsure');
    // Every transfer stays in the history, oldest first; the second does not overwrite the first.
    const transfers = (await historyOf(again.trail_id))[0].transfers;
    expect(transfers.map((x) => [x.reason, x.transferred_by])).toEqual([
      ['Unsure about the customer', h.owner.principalId],
      ['Still unsure', h.owner.principalId],
    ]);
    expect(transfers[0].transferred_date_time_utc < transfers[1].transferred_date_time_utc).toBe(true);
    const other = await person.client.ok<Trail>('transfer_step', { trail_id: trail.trail_id, reason: 'Passing it on' });
    expect((await historyOf(other.trail_id))[0].transfers.map((x) => x.transferred_by)).toEqual([h.owner.principalId, h.owner.principalId, person.principalId]);
    expect((await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id })).history[0].transfers).toEqual((await historyOf(other.trail_id))[0].transfers);
    await person.client.ok('submit_step_data', { trail_id: trail.trail_id, data: [answer('notes', 'TextArea', 'checked by me'), answer('route', 'Dropdown', node('o2')), answer('i1', 'CheckListItem', true)] });
    expect((await person.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id })).current_step!.bit_id).toBe(bit.b);
  });

  it('the trail keeps the bit as it ran: later edits and archives do not change the step', async () => {
    const editable = await addBit({ title: 'Original', blocks: [textArea('t1')] });
    const next = await addBit({ title: 'Next' });
    const link = await connectTestBits(h, editable, next);
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Snapshots', start_bit_id: editable });
    const trail = await h.owner.client.ok<Trail>('start_trail', { flow_id });
    // The bit rewritten: another title, and a body without the element or the connection.
    await h.owner.client.ok('update_bit', { bit_id: editable, bit_title: 'Edited', bit_body: 'nothing left', content_format: 'markdown', remove_node_ids: [node('t1'), link] });
    const seen = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect(seen.current_step).toMatchObject({ bit_title: 'Original', bit_body: `[text-area: Notes](waymark-node:${node('t1')})\n\n[→](bit-connection:${next}?node=${link})\n`, elements: [{ element_id: node('t1') }] });
    await h.owner.client.ok('submit_step_data', { trail_id: trail.trail_id, data: [answer('t1', 'TextArea', 'still here')] });
    expect(seen.current_step!.connections_available.map((c) => c.connection_id)).toEqual([link]);
    // An archived target is not available any more: with no other way on, the trail completes.
    await archiveTestBit(h, next);
    expect((await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id })).current_step!.connections_available).toEqual([]);
    const done = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(done.status).toBe('completed');
    expect((await historyOf(done.trail_id))[0].bit_title).toBe('Original');
  });

  it('list_trails filters by flow, status and principal, and pages', async () => {
    const viewer = await h.principal({ permission: 'view', capabilities: ['run'] });
    const mine = await viewer.client.ok<Trail>('start_trail', { flow_id: flowId, trail_context: { customer: 'V' } });
    const list = async (args: Record<string, unknown>) => (await h.owner.client.ok<{ trails: Array<{ trail_id: string; status: string; current_bit_title: string | null }> }>('list_trails', args)).trails;
    expect((await list({ principal_id: viewer.principalId })).map((t) => t.trail_id)).toEqual([mine.trail_id]);
    expect((await list({ flow_id: flowId, status: 'running' }))[0]).toMatchObject({ trail_id: mine.trail_id, current_bit_title: 'Intake' });
    expect((await list({ status: 'completed' })).every((t) => t.status === 'completed')).toBe(true);
    expect((await list({ status: 'cancelled' }))).toEqual([]);
    // A person who answered and advanced a trail took part in it.
    expect((await list({ principal_id: person.principalId })).length).toBeGreaterThanOrEqual(2);
    // So did whoever handed a step over, also when a later transfer of the same step followed.
    const handedOver = await h.owner.client.ok<Trail>('start_trail', { flow_id: flowId, trail_context: { customer: 'T' } });
    const firstHand = await h.principal({ permission: 'view', capabilities: ['run'] });
    await firstHand.client.ok('transfer_step', { trail_id: handedOver.trail_id, reason: 'first' });
    await h.owner.client.ok('transfer_step', { trail_id: handedOver.trail_id, reason: 'second' });
    expect((await list({ principal_id: firstHand.principalId })).map((t) => t.trail_id)).toEqual([handedOver.trail_id]);
    const all = await list({});
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { trails: Array<{ trail_id: string }>; next_cursor: string | null } = await h.owner.client.ok('list_trails', { limit: 3, ...(cursor ? { cursor } : {}) });
      paged.push(...page.trails.map((t) => t.trail_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.map((t) => t.trail_id));
    expect((await h.owner.client.fail('list_trails', { status: 'paused' })).code).toBe('VALIDATION_ERROR');
    expect((await h.owner.client.fail('list_trails', { flow_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('FLOW_NOT_FOUND');
  });

  it('two advances at once from one step: one moves, the other is refused, no step is skipped (issue 24, finding 9)', async () => {
    const trail = await start();
    await fill(trail.trail_id, 'o1');
    const answers = await Promise.all([h.owner.client.call<Trail>('advance_trail', { trail_id: trail.trail_id }), h.owner.client.call<Trail>('advance_trail', { trail_id: trail.trail_id })]);
    const moved = answers.filter((a) => a.success);
    expect(moved).toHaveLength(1);
    expect(moved[0]?.data?.current_step?.bit_id).toBe(bit.a);
    expect(answers.find((a) => !a.success)?.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { current_step: { bit_id: bit.a } } });
    const final = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect((await historyOf(final.trail_id)).map((s) => s.bit_id)).toEqual([bit.start, bit.a]);
  });

  it('trails are the account\'s own and need the run capability', async () => {
    const trail = await start();
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('else') });
    expect((await stranger.client.fail('get_trail', { trail_id: trail.trail_id })).code).toBe('TRAIL_NOT_FOUND');
    expect((await stranger.client.fail('advance_trail', { trail_id: trail.trail_id })).code).toBe('TRAIL_NOT_FOUND');
    expect((await stranger.client.fail('start_trail', { flow_id: flowId })).code).toBe('FLOW_NOT_FOUND');
    expect((await stranger.client.ok<{ trails: unknown[] }>('list_trails', {})).trails).toEqual([]);
    const author = await h.principal({ capabilities: ['author', 'read'] });
    expect((await author.client.fail('get_trail', { trail_id: trail.trail_id })).details).toEqual({ required_capability: 'waymark.run' });
  });
});
