/** Element definitions: props with their types and limits, and answers against an element's config. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../limits/index.js';
import { expectError } from '../test-support/errors.js';
import { describeElement, describeElements } from './describe.js';
import { ELEMENTS, allowedProps, elementTypeForStep, validateElementProps, validateItemFields } from './index.js';
import type { AnswerTarget, ElementType } from './types.js';

function target(type: ElementType, props: Record<string, unknown> = {}, items?: AnswerTarget['items']): AnswerTarget {
  return { id: 'e1', type, props, ...(items ? { items } : {}) };
}

function answer(type: ElementType, value: unknown, props: Record<string, unknown> = {}, items?: AnswerTarget['items']) {
  return ELEMENTS[type].checkAnswer(value, target(type, props, items));
}

describe('integer or text props', () => {
  it.each([12, '12', 1, '1', 50, '50'])('accepts searchable-field length %j', (length) => {
    expect(validateElementProps('searchable-field', { length })).toEqual({ length });
  });

  it.each(['12a', '1.5', 1.5, '012', ' 12', '', 0, '0', 51, '51', true])('refuses searchable-field length %j', (length) => {
    expectError(() => validateElementProps('searchable-field', { length }), 'VALIDATION_ERROR', {
      issues: [{ path: 'props.length', message: 'must be an integer from 1 to 50, or that number written as text' }],
    });
  });

  it('applies each text-area limit to the number', () => {
    expect(() => validateElementProps('text-area', { minLength: '0', maxLength: 5000, lines: '100', length: '5000' })).not.toThrow();
    expectError(() => validateElementProps('text-area', { lines: 101 }), 'VALIDATION_ERROR');
    expectError(() => validateElementProps('text-area', { maxLength: '0' }), 'VALIDATION_ERROR');
    expectError(() => validateElementProps('text-area', { minLength: -1 }), 'VALIDATION_ERROR');
  });

  it('refuses minLength over maxLength and a pattern that is no regular expression', () => {
    expectError(() => validateElementProps('text-area', { minLength: 10, maxLength: '5' }), 'VALIDATION_ERROR');
    expectError(() => validateElementProps('text-area', { validationPattern: '([a-z' }), 'VALIDATION_ERROR');
  });

  it.each([
    ['(?=a)a', /^is not supported: patterns run on RE2, which has no lookaround/],
    ['(a)\\1', /^is not supported/],
    ['\\u00e9', /^is not supported.*write \\xHH or the character itself/],
    ['(?i)abc', /^is not a valid regular expression \(JavaScript, u flag\)$/],
  ])('refuses the pattern %s, which one of the two engines cannot run', (validationPattern, message) => {
    expectError(() => validateElementProps('text-area', { validationPattern }), 'VALIDATION_ERROR', {
      issues: [{ path: 'props.validationPattern', message: expect.stringMatching(message) }],
    });
  });

  it('accepts a pattern both engines run, up to the pattern length limit', () => {
    for (const validationPattern of ['(a+)+', '\\xE9[0-9]{3}', '\\p{L}+', 'x'.repeat(LIMITS.validationPatternLength)]) {
      expect(validateElementProps('text-area', { validationPattern })).toEqual({ validationPattern });
    }
    expectError(() => validateElementProps('text-area', { validationPattern: 'x'.repeat(LIMITS.validationPatternLength + 1) }), 'VALIDATION_ERROR');
  });

  it('takes a number or the same number as text for iframe sizes', () => {
    expect(validateElementProps('iframe', { url: 'https://example.com', height: '300.5', width: 640 })).toMatchObject({ height: '300.5' });
    expectError(() => validateElementProps('iframe', { url: 'https://example.com', height: '300px' }), 'VALIDATION_ERROR');
  });
});

describe('props', () => {
  it('refuses an unknown prop with the allowed props of the type', () => {
    expectError(() => validateElementProps('dropdown', { options: [] }), 'UNKNOWN_ELEMENT_PROP', {
      type: 'dropdown',
      prop: 'options',
      allowed_props: ['label', 'required'],
    });
  });

  it.each([
    ['iframe', {}],
    ['link-inline', {}],
    ['video-external', { altText: 'x' }],
  ] as const)('requires url on %s', (type, props) => {
    expectError(() => validateElementProps(type, props), 'VALIDATION_ERROR');
  });

  it.each(['iframe', 'link-block', 'link-inline', 'video-external'] as const)('refuses an unsafe or relative url on %s', (type) => {
    expectError(() => validateElementProps(type, { url: 'data:text/html,<script>' }), 'VALIDATION_ERROR', { url: 'data:text/html,<script>' });
    expectError(() => validateElementProps(type, { url: '/embed' }), 'VALIDATION_ERROR', { url: '/embed' });
  });

  it('checks enums and types', () => {
    expectError(() => validateElementProps('date-picker', { picker_type: 'week' }), 'VALIDATION_ERROR');
    expectError(() => validateElementProps('text-area', { autoCorrect: 'yes' }), 'VALIDATION_ERROR');
    expect(validateElementProps('text-area', { autoCorrect: true, autoComplete: 'off', wrap: 'hard' })).toBeTruthy();
    expectError(() => validateElementProps('searchable-field', { searchMode: 'fuzzy' }), 'VALIDATION_ERROR');
    expectError(() => validateElementProps('searchable-field', { data: Array.from({ length: 5001 }, (_, i) => `v${i}`) }), 'VALIDATION_ERROR');
  });

  it('lists allowed props per type as the interface document does', () => {
    expect(allowedProps('link-block')).toEqual(['bitId', 'custom_description', 'custom_title', 'is_no_description', 'is_no_icon', 'is_no_image', 'is_no_link', 'url']);
    expect(allowedProps('video-external')).toEqual(['altText', 'aspectRatio', 'maxWidth', 'url', 'urlDisplayOption']);
  });

  it('validates item fields and fills boolean defaults', () => {
    expect(validateItemFields('check-list', { text: 'A' }, 'items[0]')).toEqual({ text: 'A', checked: false, required: false });
    expect(validateItemFields('dropdown', { name: 'North', value: 'N' }, 'items[0]')).toEqual({ name: 'North', value: 'N' });
    expectError(() => validateItemFields('radio-button', { text: 'A', required: true }, 'items[0]'), 'VALIDATION_ERROR');
    expectError(() => validateItemFields('text-area', { text: 'A' }, 'items[0]'), 'VALIDATION_ERROR');
  });
});

describe('step type names', () => {
  it('maps every type as the interface document does', () => {
    expect(Object.fromEntries(Object.values(ELEMENTS).map((d) => [d.type, d.stepType]))).toEqual({
      'check-list': 'CheckListItem',
      'date-picker': 'DatePicker',
      dropdown: 'Dropdown',
      iframe: null,
      'link-block': 'LinkBlock',
      'link-inline': 'LinkInline',
      'radio-button': 'RadioButton',
      'searchable-field': 'SearchableField',
      'text-area': 'TextArea',
      'video-external': 'Video',
    });
    expect(elementTypeForStep('Video')).toBe('video-external');
  });
});

describe('answers', () => {
  it('TextArea: lengths and pattern, enforced or as warnings', () => {
    expect(answer('text-area', 'hello', { minLength: 2, maxLength: '10' })).toEqual({ ok: true, value: 'hello', warnings: [] });
    expect(answer('text-area', 'h', { minLength: 2 })).toEqual({ ok: false, issues: [{ path: 'value', message: 'must be at least 2 characters (got 1)' }] });
    expect(answer('text-area', 'abc', { validationPattern: '[0-9]+', validationMessage: 'digits only' })).toEqual({
      ok: false,
      issues: [{ path: 'value', message: 'digits only' }],
    });
    // The author's message speaks for the length rules too, the rule after it.
    expect(answer('text-area', '12', { minLength: 4, validationPattern: '[0-9]+', validationMessage: 'Four digits, like 2026.' })).toEqual({
      ok: false,
      issues: [{ path: 'value', message: 'Four digits, like 2026. (at least 4 characters, got 2)' }],
    });
    expect(answer('text-area', 'abc', { validationPattern: '[0-9]+', validationMode: 'warning' })).toEqual({
      ok: true,
      value: 'abc',
      warnings: ['must match the pattern [0-9]+'],
    });
    // The pattern matches the whole answer, as an HTML pattern attribute does.
    expect(answer('text-area', '12a', { validationPattern: '[0-9]+' }).ok).toBe(false);
    expect(answer('text-area', 3).ok).toBe(false);
  });

  it('TextArea: the pattern runs on RE2, in time linear in the answer', () => {
    // JavaScript's backtracking engine would not finish this answer in a lifetime (issue 16); RE2 answers at once.
    expect(answer('text-area', `${'a'.repeat(5000 - 1)}b`, { validationPattern: '(a+)+' })).toEqual({
      ok: false,
      issues: [{ path: 'value', message: 'must match the pattern (a+)+' }],
    });
    expect(answer('text-area', 'aaa', { validationPattern: '(a+)+' }).ok).toBe(true);
    // Whole answer, alternation included, as the HTML attribute's ^(?:…)$.
    expect(answer('text-area', 'ab', { validationPattern: 'a|b' }).ok).toBe(false);
    expect(answer('text-area', 'b', { validationPattern: 'a|b' }).ok).toBe(true);
    expect(answer('text-area', 'élan 😀', { validationPattern: '\\p{L}+ .' }).ok).toBe(true);
  });

  it('TextArea: a length rule that fails skips the pattern', () => {
    expect(answer('text-area', 'abcdef', { maxLength: 3, validationPattern: '[0-9]+' })).toEqual({
      ok: false,
      issues: [{ path: 'value', message: 'must be at most 3 characters (got 6)' }],
    });
  });

  it('TextArea: an answer over the text limit is refused in either mode, before anything else', () => {
    const long = 'é'.repeat(LIMITS.textAnswerLength + 1);
    for (const validationMode of ['enforced', 'warning']) {
      expect(answer('text-area', long, { validationMode, validationPattern: '(a+)+' })).toEqual({
        ok: false,
        issues: [{ path: 'value', message: `must be at most ${LIMITS.textAnswerLength} characters (got ${LIMITS.textAnswerLength + 1})` }],
      });
    }
    // Characters, not UTF-16 units: an astral character is one.
    expect(answer('text-area', '😀'.repeat(LIMITS.textAnswerLength)).ok).toBe(true);
  });

  it('TextArea: a stored pattern RE2 cannot run makes the answer invalid, not a crash', () => {
    // Accepted before RE2 checked patterns at write time: a lookahead.
    expect(answer('text-area', 'abc', { validationPattern: '(?=a)[a-z]+' })).toEqual({
      ok: false,
      issues: [{ path: 'value', message: expect.stringMatching(/^cannot be checked: the element's validationPattern is not supported: patterns run on RE2.*an author must change the pattern$/) }],
    });
  });

  it.each([
    [{}, '2024-02-29', true],
    [{}, '2023-02-29', false],
    [{}, '2024-13-01', false],
    [{ picker_type: 'date' }, '2024-1-01', false],
    [{ picker_type: 'time' }, '23:59', true],
    [{ picker_type: 'time' }, '24:00', false],
    [{ picker_type: 'time' }, '12:00:00', false],
    [{ picker_type: 'time', seconds_precision: true }, '12:00:59', true],
    [{ picker_type: 'time', seconds_precision: true }, '12:00', false],
    [{ picker_type: 'datetime-local' }, '2024-04-30T08:15', true],
    [{ picker_type: 'datetime-local' }, '2024-04-31T08:15', false],
    [{ picker_type: 'datetime-local' }, '2024-04-30T08:15Z', false],
    [{ picker_type: 'datetime-local', seconds_precision: true }, '2024-04-30T08:15:07', true],
  ])('DatePicker %j: %s → %s', (props, value, ok) => {
    expect(answer('date-picker', value, props).ok).toBe(ok);
  });

  it('Dropdown and RadioButton: an option id', () => {
    const items = [{ id: 'o1', name: 'A' }, { id: 'o2', name: 'B' }];
    expect(answer('dropdown', 'o2', {}, items)).toEqual({ ok: true, value: 'o2', warnings: [] });
    expect(answer('dropdown', 'B', {}, items).ok).toBe(false);
    expect(answer('radio-button', 'o1', {}, items).ok).toBe(true);
  });

  it('SearchableField: a value from data, an array only with multiSelectResults', () => {
    const data = ['A-1', { value: 'B-2', label: 'Bolt' }];
    expect(answer('searchable-field', 'B-2', { data }).ok).toBe(true);
    expect(answer('searchable-field', 'Bolt', { data }).ok).toBe(false);
    expect(answer('searchable-field', ['A-1'], { data }).ok).toBe(false);
    expect(answer('searchable-field', ['A-1', 'B-2'], { data, multiSelectResults: true }).ok).toBe(true);
    expect(answer('searchable-field', 'A-1', { data, multiSelectResults: true }).ok).toBe(false);
  });

  it('LinkBlock, LinkInline: clicked with the element url', () => {
    expect(answer('link-inline', { clicked: true, url: 'https://example.com' }, { url: 'https://example.com' }).ok).toBe(true);
    expect(answer('link-block', { clicked: true, url: 'https://other.com' }, { url: 'https://example.com' }).ok).toBe(false);
    expect(answer('link-block', { clicked: 'yes', url: 'https://example.com' }, { url: 'https://example.com' }).ok).toBe(false);
  });

  it('Video, CheckListItem, iframe', () => {
    expect(answer('video-external', { played: true }, { url: 'https://example.com/v' }).ok).toBe(true);
    expect(answer('video-external', { played: true, at: 3 }, { url: 'https://example.com/v' }).ok).toBe(false);
    expect(answer('check-list', true).ok).toBe(true);
    expect(answer('check-list', 'true').ok).toBe(false);
    expect(answer('iframe', {}, { url: 'https://example.com' }).ok).toBe(false);
  });
});

describe('describe_platform view', () => {
  it('describes a type from its definition', () => {
    const d = describeElement('iframe');
    expect(d).toMatchObject({
      type: 'iframe',
      step_type: null,
      has_label: false,
      markdown: '[iframe](waymark-node:<key>)',
      allowed_props: ['height', 'url', 'urlDisplayOption', 'width'],
      required_props: ['url'],
      answer_schema: null,
    });
    expect(describeElement('check-list')).toMatchObject({
      markdown: '[check-list: <label>](waymark-node:<key>)',
      item_markdown: '- [ ] [<text>](waymark-node:<key>)',
      answer_schema: { type: 'boolean' },
    });
    expect(describeElement('link-inline').markdown).toBe('[<text>](<url> "waymark-node:<key>")');
    expect(describeElements()).toHaveLength(10);
  });
});
