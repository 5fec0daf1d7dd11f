/**
 * The step form's rules (web/step-form/rules.ts) against the server's: the elements come from a real body
 * through the server's own payload builder (stepElements), and every check is compared with what
 * submit_step_data's check (checkAnswers) answers for the same value.
 */
import { describe, expect, test } from 'vitest';
import { markdownToBody } from '../../src/content/index.js';
import { ELEMENTS, registerElement, type ElementType } from '../../src/content/elements/index.js';
import { checkAnswers, stepElements } from '../../src/services/trails/step.js';
import type { StepElement } from '../../web/step-form/payload.js';
import { answersToSend, checkField, errorsFromRefusal, fieldsOf, initialValues, rulesFor, sentences, type Field } from '../../web/step-form/rules.js';
import { ALL_ELEMENTS_ENTRIES, ALL_ELEMENTS_MARKDOWN } from './step-fixture.js';

const { body, minted } = markdownToBody(ALL_ELEMENTS_MARKDOWN, { elements: ALL_ELEMENTS_ENTRIES });
const elements: StepElement[] = stepElements(body);
const step = { elements, answers: [] };
const fields = fieldsOf(step);
const field = (key: string): Field => fields.find((f) => f.id === minted[key])!;

/** The server's verdict on one answer: its issue messages, or its warnings. */
function server(f: Field, value: unknown): { errors: string[]; warnings: string[] } {
  const r = checkAnswers(body, [{ element_id: f.id, element_type: f.stepType, value }]);
  return { errors: r.issues.map((i) => i.message), warnings: r.accepted.flatMap((a) => a.warnings) };
}

describe('fields', () => {
  test('one field per answerable unit: check-list items on their own, no iframe', () => {
    expect(fields.map((f) => [f.label, f.stepType, f.required])).toEqual([
      ['https://example.com/changes', 'LinkInline', false],
      ['Tests are green', 'CheckListItem', true],
      ['Notes written', 'CheckListItem', false],
      ['Risk', 'RadioButton', true],
      ['Region', 'Dropdown', false],
      ['Reviewers', 'SearchableField', false],
      ['Ship date', 'DatePicker', true],
      ['Summary', 'TextArea', true],
      ['Runbook', 'LinkBlock', false],
      ['Release demo', 'Video', false],
    ]);
  });
});

describe('rules shown before answering come from the config', () => {
  test('text-area: required, its length limits (a limit given as text too) and its pattern message', () => {
    expect(rulesFor(field('summary'))).toEqual(['Required', '10 to 200 characters', 'Start with a capital letter']);
  });
  test('date-picker: the answer shape of its picker_type', () => {
    expect(rulesFor(field('ship_date'))).toEqual(['Required', 'A date (YYYY-MM-DD)']);
    const time = { ...field('ship_date'), element: { ...field('ship_date').element, config: { picker_type: 'time', seconds_precision: true } }, required: false };
    expect(rulesFor(time)).toEqual(['A time (HH:mm:ss)']);
  });
  test('a required check-list item, a multi-select list, a choice', () => {
    expect(rulesFor(field('tests'))).toEqual(['Required: tick it before continuing']);
    expect(rulesFor(field('reviewers'))).toEqual(['Choose one or more from the list']);
    expect(rulesFor(field('risk'))).toEqual(['Required', 'Choose one option']);
  });
  test('a warning-mode text-area says its limits only warn', () => {
    const f = field('summary');
    const warn = { ...f, element: { ...f.element, config: { ...f.element.config, validationMode: 'warning' } } };
    expect(rulesFor(warn).at(-1)).toBe('These limits warn but do not block');
  });
});

describe('checks after answering are the server checks', () => {
  const cases: Array<[string, unknown]> = [
    ['summary', 'short'],
    ['summary', 'lowercase start but long enough'],
    ['summary', 'A fine summary of the release'],
    ['ship_date', '2023-02-29'],
    ['ship_date', '2024-02-29'],
    ['ship_date', '29/02/2024'],
    ['reviewers', ['Ada', 'Bob']],
    ['reviewers', ['Ada', 'linus']],
    ['reviewers', 'Ada'],
    ['risk', 'nope'],
    ['changes', { clicked: true, url: 'https://example.com/other' }],
    ['demo', { played: true }],
  ];
  test.each(cases)('%s = %j', (key, value) => {
    const f = field(key);
    expect(checkField(f, value)).toEqual(server(f, value));
  });
  test('the messages are the server words', () => {
    // A length rule that fails is the message; the pattern is not run on top of it (the server's order). The
    // author's validationMessage speaks for the length rule too, the rule after it.
    expect(checkField(field('summary'), 'short').errors).toEqual(['Start with a capital letter (at least 10 characters, got 5)']);
    expect(checkField(field('summary'), 'long enough but lowercase').errors).toEqual(['Start with a capital letter']);
    expect(checkField(field('reviewers'), ['Ada', 'Bob']).errors).toEqual(['Bob is not in the field\'s data; the values (value "label") are: Ada, Grace, linus "Linus"']);
  });
  test('nothing given is no error before advancing (saving part of a step is allowed)', () => {
    expect(checkField(field('summary'), undefined)).toEqual({ errors: [], warnings: [] });
    expect(checkField(field('summary'), '')).toEqual({ errors: [], warnings: [] });
  });
  test('a warning-mode text-area accepts with the server warnings', () => {
    const f = field('summary');
    const warn = { ...f, element: { ...f.element, config: { ...f.element.config, validationMode: 'warning' } } };
    expect(checkField(warn, 'short')).toEqual({ errors: [], warnings: ['Start with a capital letter (at least 10 characters, got 5)'] });
    expect(checkField(warn, 'long enough but lowercase')).toEqual({ errors: [], warnings: ['Start with a capital letter'] });
  });
});

describe('values and what a save sends', () => {
  test('first values: saved answers, else the config defaults (a checked item, a default radio choice)', () => {
    const radio = elements.map((e) => (e.type === 'radio-button' ? { ...e, items: e.items!.map((i, n) => ({ ...i, checked: n === 1 })) } : e));
    const saved = [{ element_id: minted.summary, element_type: 'TextArea', value: 'Saved text here', warnings: [], answered_by: 'p', answered_date_time_utc: 'x' }];
    expect(initialValues({ elements: radio, answers: saved })).toEqual({ [minted.notes_written]: true, [minted.risk]: minted.high, [minted.summary]: 'Saved text here' });
  });
  test('a save sends what changed or was given, never an untouched unchecked item', () => {
    const saved = [{ element_id: minted.summary, element_type: 'TextArea', value: 'Saved text here', warnings: [], answered_by: 'p', answered_date_time_utc: 'x' }];
    const values = { ...initialValues({ elements, answers: saved }), [minted.risk]: minted.low, [minted.tests]: false };
    expect(answersToSend({ elements, answers: saved }, values)).toEqual([
      { element_id: minted.notes_written, element_type: 'CheckListItem', value: true },
      { element_id: minted.risk, element_type: 'RadioButton', value: minted.low },
    ]);
    expect(answersToSend({ elements, answers: saved }, { ...values, [minted.summary]: 'Changed text here' })).toContainEqual({ element_id: minted.summary, element_type: 'TextArea', value: 'Changed text here' });
  });
});

describe('refusals land on the fields they name', () => {
  test('ANSWER_INVALID issues by element_id', () => {
    const r = errorsFromRefusal({ code: 'ANSWER_INVALID', message: 'Nothing was recorded', details: { issues: [{ path: 'data[0].value.value', message: 'must be at most 200 characters (got 201)', element_id: minted.summary }] } });
    expect(r).toEqual({ byField: { [minted.summary]: ['must be at most 200 characters (got 201)'] }, general: null });
  });
  test('REQUIRED_ANSWERS_MISSING by element id; anything else is said above the form', () => {
    expect(errorsFromRefusal({ code: 'REQUIRED_ANSWERS_MISSING', message: 'm', details: { element_ids: [minted.tests] } }).byField).toEqual({ [minted.tests]: ['Required: answer this before continuing'] });
    expect(errorsFromRefusal({ code: 'TRAIL_NOT_RUNNING', message: 'Trail x is completed' })).toEqual({ byField: {}, general: 'Trail x is completed' });
  });
});

describe('controls', () => {
  test("a registered element is given the notes and default of its definition's control, not of its type name", () => {
    registerElement({ ...ELEMENTS['date-picker'], type: 'shift-start' as ElementType, stepType: 'ShiftStart' });
    const element: StepElement = { element_id: 'e1', type: 'shift-start', element_type: 'ShiftStart', config: { picker_type: 'time', default_to_now: true }, required: true };
    const [shift] = fieldsOf({ elements: [element] });
    expect(rulesFor(shift)).toEqual(['Required', 'A time (HH:mm)']);
    expect(initialValues({ elements: [element], answers: [] }).e1).toMatch(/^\d\d:\d\d$/);
  });
});

describe('rules as sentences', () => {
  test('ends each rule with one full stop, an author\'s own included', () => {
    expect(sentences(['Required', 'Looks like CA-1234.'])).toBe('Required. Looks like CA-1234.');
    expect(sentences(['6 to 20 characters'])).toBe('6 to 20 characters.');
  });
});
