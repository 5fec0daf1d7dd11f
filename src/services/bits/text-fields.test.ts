import { describe, expect, it } from 'vitest';
import { blankToNull, checkTitle, checkTitleIfGiven } from './text-fields.js';

describe('the title and free-text rule of bits, flows and references', () => {
  it('stores a title trimmed and refuses a blank one, naming the field', () => {
    expect(checkTitle('  Expenses \n', 'flow_title')).toBe('Expenses');
    for (const blank of ['', '   ', '\t\n']) {
      expect(() => checkTitle(blank, 'bit_title')).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'bit_title', message: 'must not be blank' }] } }),
      );
    }
    expect(checkTitleIfGiven(undefined, 'reference_title')).toBeUndefined();
    expect(checkTitleIfGiven(' T ', 'reference_title')).toBe('T');
  });

  it('stores a blank abstract, description or label as null and keeps any other text as written', () => {
    expect(blankToNull('')).toBeNull();
    expect(blankToNull('  \n')).toBeNull();
    expect(blankToNull(null)).toBeNull();
    expect(blankToNull(undefined)).toBeUndefined();
    expect(blankToNull('  indented text ')).toBe('  indented text ');
  });
});
