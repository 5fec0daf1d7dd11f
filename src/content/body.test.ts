/**
 * The body as services use it: Slate input, element edits without a body, inventories and listings,
 * citations, text, answers.
 */
import { describe, expect, it } from 'vitest';
import {
  applyElementEdits,
  bodyText,
  bodyToMarkdown,
  checkStepAnswer,
  collectCitations,
  collectConnections,
  hasInteractiveElements,
  listElements,
  markdownToBody,
  nodeInventory,
  slateToBody,
  type SlateBody,
} from './index.js';
import { LIMITS } from '../limits/index.js';
import { expectError } from './test-support/errors.js';
import { id, idMaker } from './test-support/ids.js';

const REF = '11111111-1111-4111-8111-111111111111';
const TARGET = '22222222-2222-4222-8222-222222222222';

function sample(): SlateBody {
  return markdownToBody(
    `# Check *in*

Read [the guide](https://example.com/g) and cite [[ref:${REF}|Guide]]. ![map](https://example.com/m.png)

[check-list: Before](waymark-node:cl)
- [ ] [Gloves](waymark-node:g) *(required)*

[dropdown: Site](waymark-node:dd)
- [North](waymark-node:n)

[Next](bit-connection:${TARGET})
`,
    {
      newId: idMaker(),
      elements: [
        { key: 'cl', type: 'check-list', items: [{ key: 'g', required: true }] },
        { key: 'dd', type: 'dropdown', items: [{ key: 'n' }] },
      ],
    },
  ).body;
}
// ids: link 1, image 2, cl 3, g 4, dd 5, n 6

const KEPT = '5f0c8a62-3b1e-4c8e-9d51-0a7f2b9c4e13';

describe('slateToBody', () => {
  it('accepts a node array or {children}, mints missing ids, keeps given ones', () => {
    const nodes = [{ type: 'p', children: [{ text: 'Hi ' }, { type: 'a', url: 'https://example.com', children: [{ text: 'there' }] }] }, { type: 'text-area', id: KEPT, props: { label: 'Notes' } }];
    const body = slateToBody(nodes, { newId: idMaker() });
    expect(body).toEqual({
      children: [
        { type: 'p', children: [{ text: 'Hi ' }, { type: 'a', id: id(1), url: 'https://example.com', children: [{ text: 'there' }] }] },
        { type: 'text-area', id: KEPT, props: { label: 'Notes' }, children: [{ text: '' }] },
      ],
    });
    expect(slateToBody({ children: nodes }, { newId: idMaker() })).toEqual(body);
  });

  it('refuses an id that is not a UUID (its anchor could not be written back in markdown)', () => {
    for (const id of ['notes', 'x y "z', '', 7]) {
      expectError(() => slateToBody([{ type: 'text-area', id, props: {} }]), 'VALIDATION_ERROR');
      expectError(() => slateToBody([{ type: 'p', children: [{ type: 'a', id, url: 'https://x.y', children: [{ text: 'l' }] }] }]), 'VALIDATION_ERROR');
    }
  });

  it('validates element props and urls like markdown does', () => {
    expectError(() => slateToBody([{ type: 'text-area', props: { colour: 'red' } }]), 'UNKNOWN_ELEMENT_PROP');
    expectError(() => slateToBody([{ type: 'p', children: [{ type: 'a', url: 'javascript:x', children: [{ text: 'x' }] }] }]), 'VALIDATION_ERROR');
    expectError(() => slateToBody([{ type: 'iframe', props: {} }]), 'VALIDATION_ERROR');
  });

  it('refuses unknown node types, misplaced nodes, unknown fields and duplicate ids', () => {
    expectError(() => slateToBody([{ type: 'marquee', children: [] }]), 'VALIDATION_ERROR', { issues: [{ path: 'bit_body[0].type' }] });
    expectError(() => slateToBody([{ text: 'loose text' }]), 'VALIDATION_ERROR');
    expectError(() => slateToBody([{ type: 'p', children: [{ type: 'p', children: [] }] }]), 'VALIDATION_ERROR');
    expectError(() => slateToBody([{ type: 'p', children: [{ text: 'x', underline: true }] }]), 'VALIDATION_ERROR');
    expectError(() => slateToBody([{ type: 'text-area', id: 'a' }, { type: 'text-area', id: 'a' }]), 'VALIDATION_ERROR');
  });

  it("reports a construct's shape problem at the field it is in, the first field the node may not have before any other", () => {
    const T = '00000000-0000-4000-8000-0000000000aa';
    const p = (...children: unknown[]) => ({ type: 'p', children });
    const cases: Array<[unknown, string, string]> = [
      [[{ type: 'p' }], 'bit_body[0]', 'a node is a text leaf {"text": …} or an element {"type": …, "children": [...]}'],
      [[{ type: 'p', x: 1, children: 3 }], 'bit_body[0]', "unknown field 'x' on a p node (allowed: type, children)"],
      [[p({ text: 'a', bold: 1 })], 'bit_body[0].children[0].bold', 'a mark is true or absent'],
      [[{ type: 'ol', start: 1.5, children: [] }], 'bit_body[0].start', 'must be an integer from 0 to 999999999'],
      [[{ type: 'ul', children: [] }], 'bit_body[0].children', 'a list holds at least one li'],
      [[{ type: 'hr', children: [{ text: 'x' }] }], 'bit_body[0].children', 'a void node holds exactly one empty text: [{"text": ""}]'],
      [[{ type: 'hr', children: [{ text: '', bold: 2 }] }], 'bit_body[0].children[0].bold', 'a mark is true or absent'],
      [[{ type: 'table', align: ['left', 'up'], children: [] }], 'bit_body[0].align', "must be an array of 'left', 'center', 'right' or null"],
      [[p({ type: 'img', url: 'https://x.y/i.png', alt: 3 })], 'bit_body[0].children[0].alt', 'must be a string'],
      [[p({ type: 'a', url: 'https://x.y', id: 'nope', children: [] })], 'bit_body[0].children[0].id', 'an id is a UUID as get_bit returned it; leave it out on a new node and one is made'],
      [[{ type: 'bit-connection', target_bit_id: T, params: { foo: 1 } }], 'bit_body[0].params.foo', 'unknown parameter; allowed: when, preview, description, categories, readingTime'],
      [[{ type: 'bit-connection', target_bit_id: T, params: { when: { element_id: 'e' } } }], 'bit_body[0].params.when', 'is {element_id, option_ids: [..]} or {element_id, checked: boolean}'],
      [[{ type: 'dropdown', items: [3] }], 'bit_body[0].items[0]', 'must be an object'],
    ];
    for (const [nodes, path, message] of cases) expectError(() => slateToBody(nodes), 'VALIDATION_ERROR', { issues: [{ path, message }] });
  });

  it('refuses a body nested deeper than the limit, without recursion', () => {
    let node: Record<string, unknown> = { type: 'p', children: [{ text: 'deep' }] };
    for (let i = 0; i < 100_000; i++) node = { type: 'blockquote', children: [node] };
    expectError(() => slateToBody([node]), 'VALIDATION_ERROR', { max_depth: LIMITS.bodyDepth });
  });

  it('normalises a list to loose when one item holds a paragraph', () => {
    const body = slateToBody([{ type: 'ul', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'a' }] }] }, { type: 'li', children: [{ type: 'p', children: [{ text: 'b' }] }] }] }]);
    expect(bodyToMarkdown(body)).toBe('- a\n\n- b\n');
    expect((body.children[0] as { children: Array<{ children: Array<{ type: string }> }> }).children[0].children[0].type).toBe('p');
  });

  it('lets a connection without id claim the stored one to the same target', () => {
    const previous = sample();
    (previous.children.at(-1) as { id: string }).id = id(50);
    const body = slateToBody([{ type: 'bit-connection', target_bit_id: TARGET, label: null, params: {} }], { previous });
    expect(body.children[0]).toMatchObject({ id: id(50) });
  });
});

describe('applyElementEdits (update_bit without bit_body)', () => {
  it('edits props and items of an element in place and appends key entries at the end', () => {
    const body = sample();
    const { body: edited, minted } = applyElementEdits(
      body,
      [
        { id: id(5), type: 'dropdown', props: { label: 'Where', required: true }, items: [{ id: id(6), name: 'Nord' }, { key: 's', name: 'South' }] },
        { key: 'notes', type: 'text-area', props: { label: 'Notes' } },
      ],
      { newId: idMaker() },
    );
    expect(minted).toEqual({ s: id(1), notes: id(2) });
    expect(edited.children[3]).toMatchObject({ id: id(5), props: { label: 'Where', required: true }, items: [{ id: id(6), name: 'Nord' }, { id: id(1), name: 'South' }] });
    expect(edited.children.at(-1)).toEqual({ type: 'text-area', id: id(2), props: { label: 'Notes' }, children: [{ text: '' }] });
    // The input is not changed.
    expect(body.children[3]).toMatchObject({ props: { label: 'Site' } });
  });

  it('edits one check-list item through its parent_element_id', () => {
    const { body } = applyElementEdits(sample(), [{ id: id(4), parent_element_id: id(3), type: 'check-list', props: { checked: true } }]);
    expect(body.children[2]).toMatchObject({ items: [{ id: id(4), text: 'Gloves', checked: true, required: true }] });
  });

  it('refuses an element the body does not hold, and a prop the type does not have', () => {
    expectError(() => applyElementEdits(sample(), [{ id: id(99), type: 'text-area' }]), 'ELEMENT_NOT_FOUND');
    expectError(() => applyElementEdits(sample(), [{ id: id(5), type: 'dropdown', props: { url: 'x' } }]), 'UNKNOWN_ELEMENT_PROP');
    expectError(() => applyElementEdits(sample(), [{ id: id(5), type: 'text-area' }]), 'VALIDATION_ERROR');
  });
});

describe('inspection', () => {
  it('inventories every element, item, link, media and connection by id (a new connection by its label)', () => {
    const inventory = nodeInventory(sample());
    expect([...inventory.values()]).toEqual([
      { id: id(1), type: 'a', label: 'the guide' },
      { id: id(2), type: 'img', label: 'map' },
      { id: id(3), type: 'check-list', label: 'Before' },
      { id: id(4), type: 'check-list-item', label: 'Gloves' },
      { id: id(5), type: 'dropdown', label: 'Site' },
      { id: id(6), type: 'dropdown-item', label: 'North' },
      { id: 'Next', type: 'bit-connection', label: 'Next' },
    ]);
  });

  it('lists elements with step types, items and required', () => {
    expect(listElements(sample())).toEqual([
      { id: id(3), type: 'check-list', step_type: 'CheckListItem', props: { label: 'Before' }, items: [{ id: id(4), text: 'Gloves', checked: false, required: true }], required: true },
      { id: id(5), type: 'dropdown', step_type: 'Dropdown', props: { label: 'Site' }, items: [{ id: id(6), name: 'North' }], required: false },
    ]);
  });

  it('collects citations, connections and plain text', () => {
    const body = sample();
    expect(collectCitations(body)).toEqual([REF]);
    expect(collectConnections(body)).toMatchObject([{ target_bit_id: TARGET, label: 'Next' }]);
    expect(bodyText(body)).toBe('Check in\nRead the guide and cite Guide.');
  });

  it('tells whether nodes hold an interactive element', () => {
    expect(hasInteractiveElements(sample().children)).toBe(true);
    expect(hasInteractiveElements([{ type: 'p', children: [{ text: 'x' }] }])).toBe(false);
    expect(hasInteractiveElements([{ type: 'p', children: [{ type: 'link-inline', props: { url: 'https://x' }, children: [] }] }])).toBe(true);
    expect(hasInteractiveElements('not nodes')).toBe(false);
  });
});

describe('checkStepAnswer', () => {
  it('checks the step type and the value against the element', () => {
    const body = sample();
    expect(checkStepAnswer(body, { element_id: id(4), element_type: 'CheckListItem', value: true })).toEqual({ ok: true, element_id: id(4), element_type: 'CheckListItem', value: true, warnings: [] });
    expect(checkStepAnswer(body, { element_id: id(4), value: false })).toEqual({ ok: true, element_id: id(4), element_type: 'CheckListItem', value: false, warnings: [] });
    expect(checkStepAnswer(body, { element_id: id(5), element_type: 'Dropdown', value: id(6) }).ok).toBe(true);
    expect(checkStepAnswer(body, { element_id: id(5), element_type: 'RadioButton', value: id(6) })).toMatchObject({ ok: false, issues: [{ path: 'element_type' }] });
    expect(checkStepAnswer(body, { element_id: id(3), element_type: 'CheckListItem', value: true }).ok).toBe(false);
    expect(checkStepAnswer(body, { element_id: id(99), element_type: 'TextArea', value: 'x' }).ok).toBe(false);
  });
});
