/**
 * The registries are the only place a new element type or a new construct goes: a throwaway element with
 * items that a connection can depend on, added through registerElement alone, and a throwaway inline construct,
 * in a registry built from the built-in list and it, are read, written, checked and described like the
 * built-in ones.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodyToMarkdown, bodyText, checkStepAnswer, describeElements, describeSlateModel, formQuestions, markdownToBody, nodeInventory, slateToBody, type ElementType } from '../index.js';
import { registerElement } from '../elements/index.js';
import { optionAnswer } from '../elements/types.js';
import { idMaker } from '../test-support/ids.js';
import { expectError } from '../test-support/errors.js';
import { BUILT_IN_CONSTRUCTS, buildConstructRegistry, CONSTRUCTS, describeBodySyntax } from './index.js';
import { STRING, VOID_CHILDREN, voidChildren } from './input.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';
import type { VoidChildren } from '../slate.js';

const MOOD = 'mood-picker' as ElementType;
registerElement({
  type: MOOD,
  stepType: 'MoodPicker',
  summary: 'one mood from a list; bit connections can depend on the mood chosen',
  hasLabel: true,
  placement: 'block',
  answered: 'element',
  when: 'options',
  control: 'select',
  props: z.strictObject({ label: z.string().optional(), required: z.boolean().optional() }),
  urlProps: [],
  items: { marker: 'none', textField: 'name', fields: z.strictObject({ name: z.string().regex(/\S/, 'must not be blank') }), booleanDefaults: [] },
  answer: z.string(),
  answerRule: "the chosen mood's id",
  checkAnswer: optionAnswer('name'),
});

/** `{{Ctrl+C}}`: keys to press, an inline void. */
const keysShape = z.strictObject({ type: z.literal('keys'), keys: STRING, children: VOID_CHILDREN });

interface KeysNode extends ShapeFields<typeof keysShape> {
  children: VoidChildren;
}

const keysNode: NodeHandler<KeysNode, typeof keysShape> = {
  standsIn: ['inline', 'link'],
  shape: keysShape,
  input(fields, step) {
    step.out.push({ type: 'keys', keys: fields.keys, children: voidChildren(fields.children, step.path) } as unknown as never);
  },
  render: { inline: { kind: 'void', inline: (node) => `{{${node.keys}}}` } },
  text: { text: (node) => (node as unknown as KeysNode).keys },
};

const keys: Construct<'keys'> = {
  name: 'keys',
  nodes: {
    keys: keysNode as unknown as NodeHandler,
  },
  inlineTokens: {
    keys(b, tokens, k) {
      b.flushRaw();
      b.pushNode({ type: 'keys', keys: tokens[k].content, children: [b.leaf('')] } as unknown as never);
      return k;
    },
  },
  plugin: (md) =>
    md.inline.ruler.before('link', 'keys', (state, silent) => {
      if (!state.src.startsWith('{{', state.pos)) return false;
      const end = state.src.indexOf('}}', state.pos + 2);
      if (end < 0 || end >= state.posMax) return false;
      if (!silent) state.push('keys', '', 0).content = state.src.slice(state.pos + 2, end);
      state.pos = end + 2;
      return true;
    }),
  syntax: () => [{ construct: 'keys', form: '{{<keys>}}' }],
};
/** The built-in constructs and `keys`, before the paragraph's prose as describe_platform lists them. */
const WITH_KEYS = buildConstructRegistry([...BUILT_IN_CONSTRUCTS.slice(0, -1), keys as Construct, ...BUILT_IN_CONSTRUCTS.slice(-1)]);

const TARGET = '00000000-0000-4000-8000-0000000000aa';
const MARKDOWN = `Press {{Ctrl+C}} when done.

[mood-picker: How do you feel](waymark-node:mood)
- [Happy](waymark-node:happy)
- [Sad](waymark-node:sad)

[Cheer up](bit-connection:${TARGET}?when=mood:sad)
`;

describe('registries', () => {
  const elements = [{ key: 'mood', type: MOOD, items: [{ key: 'happy' }, { key: 'sad' }] }];

  it('reads, writes and reads back a registered element with items and a when source, and a registered construct', () => {
    const { body, minted } = markdownToBody(MARKDOWN, { elements, newId: idMaker(), constructs: WITH_KEYS });
    expect(body.children[0]).toEqual({ type: 'p', children: [{ text: 'Press ' }, { type: 'keys', keys: 'Ctrl+C', children: [{ text: '' }] }, { text: ' when done.' }] });
    expect(body.children[1]).toMatchObject({ type: MOOD, id: minted.mood, props: { label: 'How do you feel' }, items: [{ id: minted.happy, name: 'Happy' }, { id: minted.sad, name: 'Sad' }] });
    expect(body.children[2]).toMatchObject({ type: 'bit-connection', params: { when: { element_id: minted.mood, option_ids: [minted.sad] } } });

    const canonical = bodyToMarkdown(body, WITH_KEYS);
    expect(canonical).toBe(
      `Press {{Ctrl+C}} when done.\n\n[mood-picker: How do you feel](waymark-node:${minted.mood})\n- [Happy](waymark-node:${minted.happy})\n- [Sad](waymark-node:${minted.sad})\n\n` +
        `[Cheer up](bit-connection:${TARGET}?when=${minted.mood}:${minted.sad})\n`,
    );
    const again = markdownToBody(canonical, { previous: body, newId: idMaker(), constructs: WITH_KEYS });
    expect(again.body).toEqual(body);
    expect(bodyToMarkdown(again.body, WITH_KEYS)).toBe(canonical);
    // The same body as Slate is the same body.
    expect(slateToBody(body.children, { previous: body, constructs: WITH_KEYS })).toEqual(body);
  });

  it('leaves the built-in registry as it was: without `keys`, its markdown is text and its node is refused', () => {
    const { body } = markdownToBody(MARKDOWN, { elements, newId: idMaker(), constructs: WITH_KEYS });
    expect(CONSTRUCTS.handlerOf('keys')).toBeUndefined();
    expect(markdownToBody('Press {{Ctrl+C}}.\n').body.children).toEqual([{ type: 'p', children: [{ text: 'Press {{Ctrl+C}}.' }] }]);
    expect(() => bodyToMarkdown(body)).toThrow(/keys node cannot be written inline/);
    expectError(() => slateToBody(body.children, { previous: body }), 'VALIDATION_ERROR');
    expect(describeBodySyntax()).not.toContainEqual({ construct: 'keys', form: '{{<keys>}}' });
  });

  it('answers, inventories, texts and describes them from the registries', () => {
    const { body, minted } = markdownToBody(MARKDOWN, { elements, newId: idMaker(), constructs: WITH_KEYS });
    expect(checkStepAnswer(body, { element_id: minted.mood, element_type: 'MoodPicker', value: minted.sad })).toMatchObject({ ok: true, value: minted.sad });
    expect(checkStepAnswer(body, { element_id: minted.sad, element_type: 'MoodPicker', value: true })).toMatchObject({ ok: false });
    expect(nodeInventory(body, WITH_KEYS).get(minted.sad)).toEqual({ id: minted.sad, type: `${MOOD}-item`, label: 'Sad' });
    expect(bodyText(body, WITH_KEYS)).toBe('Press Ctrl+C when done.');
    expect(describeElements().map((e) => e.type)).toContain(MOOD);
    // The elicitation form asks for one of its options, as it does for a dropdown.
    const items = [{ id: minted.happy, name: 'Happy' }, { id: minted.sad, name: 'Sad' }];
    expect(formQuestions(MOOD, { id: minted.mood, props: {}, items, required: true }, 'How do you feel')).toEqual([
      { id: minted.mood, kind: 'choices', required: true, schema: { type: 'string', title: 'How do you feel', oneOf: [{ const: minted.happy, title: 'Happy' }, { const: minted.sad, title: 'Sad' }] } },
    ]);
    expect(WITH_KEYS.describeBodySyntax()).toEqual(expect.arrayContaining([{ construct: 'keys', form: '{{<keys>}}' }, { construct: `${MOOD} item`, form: '- [<name>](waymark-node:<key-or-id>)' }]));
    expect(WITH_KEYS.describeBodySyntax()).toEqual([...describeBodySyntax().slice(0, -1), { construct: 'keys', form: '{{<keys>}}' }, describeBodySyntax().at(-1)]);
    expect(describeSlateModel(WITH_KEYS).nodes.keys).toBe('keys: string, children: [{ text: "" }]');
  });

  it('holds a registered element to the same rules: a when on an unknown option, prose imitating it', () => {
    expectError(() => markdownToBody(MARKDOWN.replace('when=mood:sad', 'when=mood:angry'), { elements, newId: idMaker() }), 'VALIDATION_ERROR');
    expectError(() => markdownToBody('Say [mood-picker: x] here.\n'), 'UNSUPPORTED_MARKDOWN_CONSTRUCT');
  });

  it('refuses to write a node no construct owns instead of dropping it', () => {
    const stray = { type: 'no-such-node', children: [{ text: 'x' }] } as unknown as never;
    expect(() => bodyToMarkdown({ children: [stray] })).toThrow(/no-such-node node cannot be written as a block/);
    expect(() => bodyToMarkdown({ children: [{ type: 'p', children: [{ text: 'a ' }, stray] }] })).toThrow(/no-such-node node cannot be written inline/);
  });
});
