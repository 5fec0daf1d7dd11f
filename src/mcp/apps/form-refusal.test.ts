/**
 * A refused elicited step form in the person's words (issue 28): each field by its label and what it takes,
 * never an id or a JSON path; the SDK's schema check and submit_step_data's ANSWER_INVALID alike.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import { WaymarkError } from '../../errors.js';
import { fieldRule, refusalSentences, type ShownField } from './form-refusal.js';

const FIELDS: ShownField[] = [
  { id: 'f-kind', schema: { type: 'string', title: 'Employment type', oneOf: [{ const: 'o-1', title: 'Full-time' }, { const: 'o-2', title: 'Part-time' }] } },
  { id: 'f-note', schema: { type: 'string', title: 'Note', minLength: 3, maxLength: 10 } },
  { id: 'f-start', schema: { type: 'string', title: 'Start date', format: 'date' } },
  { id: 'f-who', schema: { type: 'array', title: 'Reviewers', items: { type: 'string', enum: ['Ada', 'Grace'] } } },
  { id: 'f-ok', schema: { type: 'boolean', title: 'Checked' } },
];
const schemaRefusal = (text: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${text}`);

describe('refused elicited answers', () => {
  test('what each field takes, in words', () => {
    expect(FIELDS.map(fieldRule)).toEqual([
      'choose one of Full-time, Part-time',
      'must be 3 to 10 characters long',
      'must be a date, like 2026-12-01',
      'choose one or more of Ada, Grace',
      'tick it or leave it unticked',
    ]);
  });

  test('the SDK\'s schema check: each named field by its label, a missing one as required', () => {
    const text = refusalSentences(FIELDS, schemaRefusal("data/f-kind must be equal to constant, data/f-kind must match exactly one schema in oneOf, data must have required property 'f-start'"));
    expect(text).toBe('Employment type: choose one of Full-time, Part-time. Start date: required; must be a date, like 2026-12-01.');
    expect(refusalSentences(FIELDS, schemaRefusal('data must be object'))).toBe('The answers did not fit the form.');
  });

  test('submit_step_data\'s issues: the element\'s own words by label, a choice by its options\' labels', () => {
    const error = new WaymarkError('ANSWER_INVALID', 'Nothing was recorded; fix every answer: data[0].value.value (f-note): …', {
      issues: [
        { path: 'data[0].value.value', element_id: 'f-note', message: 'Start with a capital letter' },
        { path: 'data[1].value.value', element_id: 'f-kind', message: '"o-9" is not an option id; the options (id "label") are: o-1 "Full-time", o-2 "Part-time"' },
      ],
    });
    const text = refusalSentences(FIELDS, error);
    expect(text).toBe('Note: Start with a capital letter. Employment type: choose one of Full-time, Part-time.');
    expect(text).not.toMatch(/data\[|f-|o-\d/);
  });

  test('any other error is no refusal of the answers', () => {
    expect(refusalSentences(FIELDS, new Error('timed out'))).toBeNull();
    expect(refusalSentences(FIELDS, new WaymarkError('TRAIL_NOT_FOUND', 'gone'))).toBeNull();
  });
});
