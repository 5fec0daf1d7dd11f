/**
 * A body read with TargetNames (issue 30): connection targets and citations written as a folder's file names are
 * read as the ids the names stand for; a name of no file is the not-found of its kind, on its line; without names
 * the same text is refused as it always was. adoptAnchors keeps an unknown link or image anchor as the new node's id.
 */
import { describe, expect, it } from 'vitest';
import { bodyToMarkdown, markdownToBody, type TargetNames } from '../index.js';
import { expectError } from '../test-support/errors.js';

const BIT = '11111111-1111-4111-8111-111111111111';
const REF = '22222222-2222-4222-8222-222222222222';
const LINK = '33333333-3333-4333-8333-333333333333';
const names: TargetNames = {
  bit: (name) => (name === 'next-step.md' ? BIT : undefined),
  reference: (name) => (name === '../references/policy.md' ? REF : undefined),
};

describe('targets written as names', () => {
  it('reads a connection line and a citation naming files as the ids they stand for', () => {
    const { body } = markdownToBody('See [[ref:../references/policy.md|the policy]].\n\n[Next](bit-connection:next-step.md?preview=0)\n', { names });
    expect(body.children).toEqual([
      { type: 'p', children: [{ text: 'See ' }, { type: 'citation', reference_id: REF, label: 'the policy', children: [{ text: '' }] }, { text: '.' }] },
      { type: 'bit-connection', id: null, target_bit_id: BIT, label: 'Next', params: { preview: false }, children: [{ text: '' }] },
    ]);
    expect(bodyToMarkdown(body)).toBe(`See [[ref:${REF}|the policy]].\n\n[Next](bit-connection:${BIT}?preview=0)\n`);
  });

  it('refuses a name of no file with the not-found of its kind, on its line', () => {
    expectError(() => markdownToBody('Intro.\n\n[Next](bit-connection:gone.md)\n', { names }), 'BIT_NOT_FOUND', { line: 3, name: 'gone.md' });
    expectError(() => markdownToBody('See [[ref:gone.md|x]].\n', { names }), 'REFERENCE_NOT_FOUND', { line: 1, name: 'gone.md' });
  });

  it('leaves the body syntax as it is without names: a file name is no bit id', () => {
    expectError(() => markdownToBody('[Next](bit-connection:next-step.md)\n'), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
    expectError(() => markdownToBody(`[Next](bit-connection:${BIT})\n`, { names }), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
  });
});

describe('adoptAnchors', () => {
  it('keeps an unknown link anchor as the new link\'s id, once', () => {
    const markdown = `[the site](https://example.com "waymark-node:${LINK}")\n`;
    expect(markdownToBody(markdown, { adoptAnchors: true }).body.children).toEqual([{ type: 'p', children: [{ type: 'a', id: LINK, url: 'https://example.com', children: [{ text: 'the site' }] }] }]);
    expectError(() => markdownToBody(markdown), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
    expectError(() => markdownToBody(`${markdown}\n${markdown}`, { adoptAnchors: true }), 'VALIDATION_ERROR');
  });
});
