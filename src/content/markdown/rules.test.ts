/**
 * The body syntax rules (authoring-interface.md, "Body syntax" and update_bit; CONTRACT.md, "Body forms"),
 * one test each, against the real converter.
 */
import { describe, expect, it } from 'vitest';
import { bodyToMarkdown, markdownToBody, type ElementEntry, type SlateBody } from '../index.js';
import { LIMITS } from '../../limits/index.js';
import { expectError } from '../test-support/errors.js';
import { id, idMaker } from '../test-support/ids.js';

const TARGET = '22222222-2222-4222-8222-222222222222';
const OTHER = '33333333-3333-4333-8333-333333333333';

function convert(markdown: string, elements?: ElementEntry[], previous?: SlateBody) {
  return markdownToBody(markdown, { elements, previous, newId: idMaker() });
}

/** A stored body with one of each kept kind, ids 1… */
function stored(): SlateBody {
  return convert(
    `[text-area: Notes](waymark-node:ta)

[dropdown: Site](waymark-node:dd)
- [North](waymark-node:n)
- [South](waymark-node:s)

See [docs](https://example.com/docs "Docs") and ![logo](https://example.com/l.png) or [open](https://example.com/x "waymark-node:li").
`,
    [
      { key: 'ta', type: 'text-area', props: { maxLength: 10 } },
      { key: 'dd', type: 'dropdown', items: [{ key: 'n', value: 'N' }, { key: 's' }] },
      { key: 'li', type: 'link-inline' },
    ],
  ).body;
}
// ids: ta 1, dd 2, n 3, s 4, link 5, image 6, link-inline 7

describe('markdown alone never creates an element (rule 1)', () => {
  it('refuses an element line whose anchor names no entry and no stored element', () => {
    expectError(() => convert('Intro\n\n[text-area: Notes](waymark-node:notes)\n'), 'UNSUPPORTED_MARKDOWN_CONSTRUCT', {
      line: 3,
      text: '[text-area: Notes](waymark-node:notes)',
    });
  });

  it('refuses an item line whose anchor names no item', () => {
    expectError(
      () => convert('[check-list: A](waymark-node:cl)\n- [ ] [One](waymark-node:one)\n', [{ key: 'cl', type: 'check-list' }]),
      'UNSUPPORTED_MARKDOWN_CONSTRUCT',
      { line: 2 },
    );
  });

  it('refuses an unknown element type on an element line', () => {
    expectError(() => convert('[slider: x](waymark-node:k)\n', [{ key: 'k', type: 'text-area' }]), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
  });

  it.each([
    ['bracketed element text', 'Pick one [dropdown: Foo] here.'],
    ['a bare element type in brackets', '[iframe]'],
    ['an element line with another scheme', '[text-area: Notes](https://example.com)'],
    ['a link whose text is an element type', 'see [iframe](https://example.com)'],
    ['element text split by emphasis', '[**dropdown**: Foo]'],
    ['a malformed citation', 'See [[ref:not-an-id|Handbook]].'],
    ['an anchor inside a sentence', 'Fill [text-area: x](waymark-node:k) in.'],
    ['an anchor in a heading', '# [text-area: x](waymark-node:k)'],
    ['an element line with more on it', '[text-area: x](waymark-node:k) and more'],
    ['a connection inside a sentence', `Go [next](bit-connection:${TARGET}) now.`],
  ])('refuses prose imitating an element: %s', (_name, markdown) => {
    expectError(() => convert(`${markdown}\n`, [{ key: 'k', type: 'text-area' }]), 'UNSUPPORTED_MARKDOWN_CONSTRUCT', { line: 1 });
  });

  it.each([
    ['escaped brackets', '\\[dropdown: Foo]'],
    ['a capitalised word', '[Dropdown menus](https://example.com) are common.'],
    ['code', '`[dropdown: Foo]`'],
    ['a type name inside a longer link text', '[how to use a text-area](https://example.com)'],
  ])('keeps prose that does not imitate an element: %s', (_name, markdown) => {
    expect(() => convert(`${markdown}\n`)).not.toThrow();
  });
});

describe('keys (rule 2)', () => {
  it('refuses a malformed key', () => {
    expectError(() => convert('x\n', [{ key: 'bad key!', type: 'text-area' }]), 'VALIDATION_ERROR', {
      issues: [{ path: 'elements[0].key', message: expect.stringContaining('1 to 32') }],
    });
  });

  it('refuses a key used by two entries or items', () => {
    expectError(
      () => convert('x\n', [{ key: 'a', type: 'text-area' }, { key: 'b', type: 'dropdown', items: [{ key: 'a', name: 'A' }] }]),
      'VALIDATION_ERROR',
    );
  });

  it('refuses a key written twice in the body', () => {
    expectError(() => convert('[text-area](waymark-node:a)\n\n[text-area](waymark-node:a)\n', [{ key: 'a', type: 'text-area' }]), 'VALIDATION_ERROR');
  });

  it('refuses more than 200 entries and items together', () => {
    const items = Array.from({ length: LIMITS.entriesAndItemsPerCall }, (_, i) => ({ key: `i${i}`, name: `N${i}` }));
    expectError(() => convert('x\n', [{ key: 'd', type: 'dropdown', items }]), 'VALIDATION_ERROR', {
      issues: [{ path: 'elements', message: expect.stringContaining('at most 200') }],
    });
  });

  it('maps keys of elements and items to minted ids', () => {
    const { minted } = convert('[dropdown: Site](waymark-node:d)\n- [A](waymark-node:a)\n', [{ key: 'd', type: 'dropdown', items: [{ key: 'a' }] }]);
    expect(minted).toEqual({ d: id(1), a: id(2) });
  });

  it('appends a key entry the body does not place, as applyElementEdits does', () => {
    const { body } = convert('Intro\n', [{ key: 't', type: 'text-area', props: { label: 'Notes' } }]);
    expect(bodyToMarkdown(body)).toBe(`Intro\n\n[text-area: Notes](waymark-node:${id(1)})\n`);
  });
});

describe('labels and item texts: one value in one of two places', () => {
  it('takes the label from the line or from props', () => {
    const a = convert('[text-area: Notes](waymark-node:a)\n', [{ key: 'a', type: 'text-area' }]).body;
    const b = convert('[text-area](waymark-node:a)\n', [{ key: 'a', type: 'text-area', props: { label: 'Notes' } }]).body;
    expect(a).toEqual(b);
  });

  it('accepts both when they are equal, refuses them when they differ', () => {
    expect(() => convert('[text-area: Notes](waymark-node:a)\n', [{ key: 'a', type: 'text-area', props: { label: 'Notes' } }])).not.toThrow();
    expectError(() => convert('[text-area: Notes](waymark-node:a)\n', [{ key: 'a', type: 'text-area', props: { label: 'Other' } }]), 'VALIDATION_ERROR');
  });

  it('refuses a label on a type without one', () => {
    expectError(() => convert('[iframe: Map](waymark-node:f)\n', [{ key: 'f', type: 'iframe', props: { url: 'https://example.com' } }]), 'VALIDATION_ERROR');
  });

  it('refuses an item text that differs from the entry (dropdown name)', () => {
    expectError(
      () => convert('[dropdown](waymark-node:d)\n- [North](waymark-node:n)\n', [{ key: 'd', type: 'dropdown', items: [{ key: 'n', name: 'South' }] }]),
      'VALIDATION_ERROR',
    );
  });

  it('refuses an item written with the marker of another type', () => {
    expectError(
      () => convert('[dropdown](waymark-node:d)\n- [ ] [North](waymark-node:n)\n', [{ key: 'd', type: 'dropdown', items: [{ key: 'n' }] }]),
      'UNSUPPORTED_MARKDOWN_CONSTRUCT',
      { line: 2 },
    );
  });

  it('refuses a line type that differs from the entry type', () => {
    expectError(() => convert('[date-picker](waymark-node:a)\n', [{ key: 'a', type: 'text-area' }]), 'VALIDATION_ERROR');
  });
});

describe('(required) marks and checked states', () => {
  it('accepts and ignores (required) marks: required-ness comes from props and items', () => {
    const { body } = convert('[check-list](waymark-node:c) (required)\n- [ ] [A](waymark-node:a) *(required)*\n', [
      { key: 'c', type: 'check-list', items: [{ key: 'a' }] },
    ]);
    expect(body.children[0]).toMatchObject({ props: {}, items: [{ text: 'A', checked: false, required: false }] });
  });

  it('reads - [x] as checked and - (x) as the default choice', () => {
    const { body } = convert('[radio-button](waymark-node:r)\n- ( ) [A](waymark-node:a)\n- (x) [B](waymark-node:b)\n', [
      { key: 'r', type: 'radio-button', items: [{ key: 'a' }, { key: 'b' }] },
    ]);
    expect(body.children[0]).toMatchObject({ items: [{ checked: false }, { checked: true }] });
  });

  it('refuses two default choices', () => {
    expectError(
      () => convert('[radio-button](waymark-node:r)\n- (x) [A](waymark-node:a)\n- (x) [B](waymark-node:b)\n', [
        { key: 'r', type: 'radio-button', items: [{ key: 'a' }, { key: 'b' }] },
      ]),
      'VALIDATION_ERROR',
    );
  });

  it('refuses a checked state that contradicts the entry', () => {
    expectError(
      () => convert('[check-list](waymark-node:c)\n- [ ] [A](waymark-node:a)\n', [{ key: 'c', type: 'check-list', items: [{ key: 'a', checked: true }] }]),
      'VALIDATION_ERROR',
    );
  });
});

describe('element props', () => {
  it('refuses an unknown prop with the allowed props', () => {
    expectError(() => convert('[text-area](waymark-node:a)\n', [{ key: 'a', type: 'text-area', props: { colour: 'red' } }]), 'UNKNOWN_ELEMENT_PROP', {
      type: 'text-area',
      prop: 'colour',
      allowed_props: expect.arrayContaining(['label', 'maxLength', 'validationPattern']),
    });
  });

  it('refuses a missing required prop', () => {
    expectError(() => convert('[iframe](waymark-node:f)\n', [{ key: 'f', type: 'iframe' }]), 'VALIDATION_ERROR', {
      issues: [{ path: 'elements[0].props.url', message: 'required: a string' }],
    });
  });

  it('refuses an unsafe url prop', () => {
    expectError(() => convert('[iframe](waymark-node:f)\n', [{ key: 'f', type: 'iframe', props: { url: 'javascript:alert(1)' } }]), 'VALIDATION_ERROR', {
      url: 'javascript:alert(1)',
    });
  });
});

describe('urls', () => {
  it.each(['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'ftp://example.com'])(
    'refuses a link to %s',
    (url) => {
      expectError(() => convert(`[x](<${url}>)\n`), 'VALIDATION_ERROR');
    },
  );

  it('refuses an image with an unsafe source, even written with an entity', () => {
    expectError(() => convert('![x](&#106;avascript:alert(1))\n'), 'VALIDATION_ERROR');
  });

  it.each(['https://example.com', 'http://example.com', 'mailto:a@example.com', '/relative/path', '#section', '?q=1', ''])('keeps a link to "%s"', (url) => {
    expect(() => convert(`[x](<${url}>)\n`)).not.toThrow();
  });
});

describe('size and depth, checked before parsing', () => {
  it('refuses a body over the size limit', () => {
    expectError(() => convert('a'.repeat(LIMITS.bodyBytes + 1)), 'BODY_TOO_LARGE');
  });

  it('refuses quotes nested deeper than the limit, without recursion', () => {
    expectError(() => convert(`${'>'.repeat(LIMITS.bodyDepth + 1)} deep\n`), 'VALIDATION_ERROR', { max_depth: LIMITS.bodyDepth, line: 1 });
    expectError(() => convert(`${'> '.repeat(100_000)}deep\n`), 'VALIDATION_ERROR');
  });

  it('refuses lists nested deeper than the limit by indentation', () => {
    const lines = Array.from({ length: LIMITS.bodyDepth + 2 }, (_, i) => `${'  '.repeat(i)}- level ${i}`);
    expectError(() => convert(`${lines.join('\n')}\n`), 'VALIDATION_ERROR');
  });

  it('accepts nesting up to the limit', () => {
    expect(() => convert(`${'> '.repeat(20)}fine\n`)).not.toThrow();
  });

  // issue 16, finding 6: lines that each become a node are refused by what they must become, before markdown-it
  // builds a token for each (a 1 MB body of `#\n` cost 142 MB).
  it.each([
    ['a heading per line', '#\n', 2],
    ['a bullet item per line', '- a\n', 4],
  ])('refuses %s whose nodes alone are over the limit, and reports it before parsing', (_label, line, bytes) => {
    const count = Math.ceil((LIMITS.bodyBytes / (bytes === 2 ? 40 : 60)) * 1.01);
    expectError(() => convert(line.repeat(count)), 'BODY_TOO_LARGE', { max_bytes: LIMITS.bodyBytes });
  });

  it('reads lines in a fence (at the top or in a list) as code lines, never as headings, and counts them as such', () => {
    const many = '#\n'.repeat(100_000);
    const fenced = convert(`\`\`\`\n${many}\`\`\`\n`).body.children;
    expect(fenced).toHaveLength(1);
    expect(fenced[0]).toMatchObject({ type: 'code_block' });
    expect(convert(`- \`\`\`\n${many.replace(/^/gm, '  ')}`).body.children).toHaveLength(1);
    // 200,000 code lines are over the limit once stored, and refused before they are built.
    expectError(() => convert(`~~~~\n${'\n'.repeat(200_000)}~~~~\n`), 'BODY_TOO_LARGE', { max_bytes: LIMITS.bodyBytes });
  });

  it('converts headings and items whose nodes stay under the limit', () => {
    expect(convert('# a\n- b\n'.repeat(20_000)).body.children.length).toBe(40_000);
  });
});

describe('kept anchors (update_bit rules 2 and 3)', () => {
  it('keeps every node of a body written back as printed', () => {
    const previous = stored();
    const { body, minted } = convert(bodyToMarkdown(previous), undefined, previous);
    expect(body).toEqual(previous);
    expect(minted).toEqual({});
  });

  it('applies a changed link destination and a changed link-inline url on kept anchors', () => {
    const previous = stored();
    const markdown = bodyToMarkdown(previous).replace('https://example.com/docs', 'https://example.com/new').replace('https://example.com/x', 'https://example.com/y');
    const { body } = convert(markdown, undefined, previous);
    const p = body.children[2] as unknown as { children: Array<Record<string, unknown>> };
    expect(p.children[1]).toMatchObject({ type: 'a', id: id(5), url: 'https://example.com/new', title: 'Docs' });
    expect(p.children[5]).toMatchObject({ type: 'link-inline', id: id(7), props: { url: 'https://example.com/y' } });
  });

  it('edits a kept element with an id entry, keeping what the entry does not name', () => {
    const previous = stored();
    const { body } = convert(bodyToMarkdown(previous), [{ id: id(1), type: 'text-area', props: { required: true } }], previous);
    expect(body.children[0]).toMatchObject({ id: id(1), props: { label: 'Notes', maxLength: 10, required: true } });
  });

  it('adds an item to a kept element by key', () => {
    const previous = stored();
    const markdown = bodyToMarkdown(previous).replace(`- [South](waymark-node:${id(4)})`, `- [South](waymark-node:${id(4)})\n- [East](waymark-node:e)`);
    const { body, minted } = convert(markdown, [{ id: id(2), type: 'dropdown', items: [{ key: 'e', value: 'E' }] }], previous);
    expect(minted).toEqual({ e: id(1) });
    expect((body.children[1] as { items: unknown[] }).items).toEqual([
      { id: id(3), name: 'North', value: 'N' },
      { id: id(4), name: 'South' },
      { id: id(1), name: 'East', value: 'E' },
    ]);
  });

  it('gives a new link or image an id of its own, not in minted', () => {
    const { body, minted } = convert('[a](https://example.com) ![b](https://example.com/b.png)\n');
    expect(minted).toEqual({});
    expect(body.children[0]).toMatchObject({ children: [{ type: 'a', id: id(1) }, { text: ' ' }, { type: 'img', id: id(2) }] });
  });

  it('keeps a link inside link text as text of the outer link (links do not nest)', () => {
    const { body } = convert('[<https://example.com>](/x)\n');
    expect(body.children[0]).toEqual({ type: 'p', children: [{ type: 'a', id: id(1), url: '/x', children: [{ text: 'https://example.com' }] }] });
  });

  it('refuses an anchor that names no node of the bit', () => {
    expectError(() => convert(`[a](https://example.com "waymark-node:${id(99)}")\n`, undefined, stored()), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
  });

  it('refuses an anchor written twice', () => {
    const previous = stored();
    const twice = `${bodyToMarkdown(previous)}\n[text-area: Notes](waymark-node:${id(1)})\n`;
    expectError(() => convert(twice, undefined, previous), 'VALIDATION_ERROR');
  });

  it('refuses an id entry for an element the bit does not hold', () => {
    expectError(() => convert('x\n', [{ id: id(42), type: 'text-area' }], stored()), 'ELEMENT_NOT_FOUND');
  });

  it('leaves out nodes that the markdown leaves out (services report the loss)', () => {
    const { body } = convert('Only prose now.\n', undefined, stored());
    expect(body.children).toEqual([{ type: 'p', children: [{ text: 'Only prose now.' }] }]);
  });
});

describe('connections (rules 4 and 5)', () => {
  const withConnection = (): SlateBody => {
    const body = convert(`[Next](bit-connection:${TARGET})\n`).body;
    (body.children[0] as { id: string }).id = id(50);
    return body;
  };

  it('keeps a connection by its node= and prints parameters in their order', () => {
    const previous = convert('[dropdown](waymark-node:d)\n- [A](waymark-node:a)\n', [{ key: 'd', type: 'dropdown', items: [{ key: 'a' }] }]).body;
    previous.children.push(withConnection().children[0]);
    const line = `[Next](bit-connection:${TARGET}?readingTime=0&when=${id(1)}:${id(2)}&preview=0&node=${id(50)}&categories=0&description=0)`;
    const markdown = `${bodyToMarkdown(previous).split('\n\n')[0]}\n\n${line}\n`;
    const { body } = convert(markdown, undefined, previous);
    expect(body.children[1]).toEqual({
      type: 'bit-connection',
      id: id(50),
      target_bit_id: TARGET,
      label: 'Next',
      params: { when: { element_id: id(1), option_ids: [id(2)] }, preview: false, readingTime: false, categories: false, description: false },
      children: [{ text: '' }],
    });
    expect(bodyToMarkdown(body).split('\n\n')[1]).toBe(
      `[Next](bit-connection:${TARGET}?node=${id(50)}&when=${id(1)}:${id(2)}&preview=0&description=0&categories=0&readingTime=0)\n`,
    );
  });

  it('lets a line without node= claim the unclaimed stored connection to that target', () => {
    const { body } = convert(`[→](bit-connection:${TARGET})\n\n[Other](bit-connection:${OTHER})\n`, undefined, withConnection());
    expect(body.children).toMatchObject([
      { id: id(50), label: null },
      { id: null, target_bit_id: OTHER },
    ]);
  });

  it('reads when= on a check-list item and with keys of the same call', () => {
    const { body } = convert(`[check-list](waymark-node:c)\n- [ ] [A](waymark-node:a)\n\n[Go](bit-connection:${TARGET}?when=a:checked)\n`, [
      { key: 'c', type: 'check-list', items: [{ key: 'a' }] },
    ]);
    expect(body.children[1]).toMatchObject({ params: { when: { element_id: id(2), checked: true } } });
  });

  it('refuses when= naming something that is not an option', () => {
    expectError(() => convert(`[Go](bit-connection:${TARGET}?when=${id(9)}:${id(8)})\n`), 'VALIDATION_ERROR');
  });

  it('refuses node= naming no stored connection', () => {
    expectError(() => convert(`[Go](bit-connection:${TARGET}?node=${id(77)})\n`), 'CONNECTION_NOT_FOUND');
  });

  it('refuses an unknown parameter and a target that is not an id', () => {
    expectError(() => convert(`[Go](bit-connection:${TARGET}?colour=red)\n`), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
    expectError(() => convert('[Go](bit-connection:nope)\n'), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
  });

  it('refuses a 21st connection', () => {
    const lines = Array.from({ length: LIMITS.outgoingConnections + 1 }, () => `[→](bit-connection:${TARGET})`).join('\n\n');
    expectError(() => convert(`${lines}\n`), 'CONNECTION_LIMIT_EXCEEDED');
  });
});

describe('credentials and citations', () => {
  it('refuses a credential whose handles differ', () => {
    expectError(() => convert('[credential: a](credential:b "x")\n'), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
  });

  it('reads a citation label with escaped brackets', () => {
    const { body } = convert('[[ref:11111111-1111-4111-8111-111111111111|a \\]\\] b]]\n');
    expect(body.children[0]).toMatchObject({ children: [{ type: 'citation', label: 'a ]] b' }] });
    expect(bodyToMarkdown(body)).toBe('[[ref:11111111-1111-4111-8111-111111111111|a \\]\\] b]]\n');
  });
});

describe('a long body, converted a run of top-level blocks at a time', () => {
  /** The nodes without their ids (minted in order, so a repeated block gets new ones). */
  const shape = (nodes: unknown) => JSON.parse(JSON.stringify(nodes, (key, value: unknown) => (key === 'id' ? undefined : value))) as unknown;
  const blocks = `# Title *one*

A paragraph with [a link](https://example.com/a) and **bold**
lazily continued.

- item one
- item two
  > quoted in an item

> a quote
continued lazily

| a | b |
|---|---|
| 1 | 2 |

\`\`\`
code
\`\`\`

1. first

2. second
`;

  it('gives what converting each copy alone gives, across the runs', () => {
    const one = markdownToBody(blocks).body.children;
    const copies = 200;
    const all = markdownToBody(Array.from({ length: copies }, () => blocks).join('\n')).body.children;
    expect(all).toHaveLength(one.length * copies);
    expect(shape(all.slice(-one.length))).toEqual(shape(one));
    expect(shape(all.slice(0, one.length))).toEqual(shape(one));
  });

  it('resolves a link reference defined below its use, far down the body', () => {
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const { body } = markdownToBody(`See [the docs][d].\n\n${filler}\n\n[d]: https://example.com/docs "Docs"\n`);
    expect(body.children[0]).toMatchObject({ type: 'p', children: [{ text: 'See ' }, { type: 'a', url: 'https://example.com/docs', children: [{ text: 'the docs' }] }, { text: '.' }] });
  });
});
