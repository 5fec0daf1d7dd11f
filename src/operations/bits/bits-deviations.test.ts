/**
 * Three deviations that independent verification found (issue 17), each against the real server on both
 * engines: item field types checked before the item's line, `elements[].props.url` on a link-inline whose
 * anchor is written back unchanged, and `<` escaped only where it could open raw HTML or an autolink.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';

interface Written {
  bit_id: string;
  minted_node_ids: Record<string, string>;
}
interface BitView {
  bit_body: string;
  elements: Array<{ id: string; type: string; props: Record<string, unknown>; items?: Array<{ id: string } & Record<string, unknown>> }>;
}

describe.each(ENGINES)('interface deviations on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  const get = (id: string) => h.owner.client.ok<BitView>('get_bit', { bit_id: id });

  describe('an item entry of the wrong type is VALIDATION_ERROR even when the item has a line', () => {
    it.each([
      ['check-list checked', '[check-list: List](waymark-node:cl)\n- [ ] [Item](waymark-node:a)\n', 'check-list', { text: 'Item', checked: 'yes' }, 'checked'],
      ['check-list required', '[check-list: List](waymark-node:cl)\n- [ ] [Item](waymark-node:a)\n', 'check-list', { text: 'Item', required: 'yes' }, 'required'],
      ['check-list text', '[check-list: List](waymark-node:cl)\n- [ ] [Item](waymark-node:a)\n', 'check-list', { text: 7 }, 'text'],
      ['radio-button checked', '[radio-button: Pick](waymark-node:cl)\n- ( ) [Item](waymark-node:a)\n', 'radio-button', { text: 'Item', checked: 1 }, 'checked'],
      ['dropdown value', '[dropdown: Pick](waymark-node:cl)\n- [Item](waymark-node:a)\n', 'dropdown', { name: 'Item', value: 3 }, 'value'],
    ])('add_bit: %s', async (_name, body, type, fields, field) => {
      const error = await h.owner.client.fail('add_bit', { bit_title: 'typed items', bit_body: body, elements: [{ key: 'cl', type, items: [{ key: 'a', ...fields }] }] });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details?.issues).toContainEqual({ path: `elements[0].items[0].${field}`, message: expect.stringMatching(/^must be a (boolean|string)$/) });
    });

    it('update_bit with a body refuses it the same way and changes nothing', async () => {
      const written = await h.owner.client.ok<Written>('add_bit', {
        bit_title: 'typed items',
        bit_body: '[check-list: List](waymark-node:cl)\n- [ ] [Item](waymark-node:a)\n',
        elements: [{ key: 'cl', type: 'check-list', items: [{ key: 'a', text: 'Item' }] }],
      });
      const before = await get(written.bit_id);
      const list = before.elements[0];
      const error = await h.owner.client.fail('update_bit', {
        bit_id: written.bit_id,
        bit_body: before.bit_body,
        content_format: 'markdown',
        elements: [{ id: list.id, type: 'check-list', items: [{ id: list.items![0].id, checked: 'yes' }] }],
      });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details?.issues).toContainEqual({ path: 'elements[0].items[0].checked', message: 'must be a boolean' });
      expect(await get(written.bit_id)).toEqual(before);
    });

    it('null still removes an optional field in an edit, and a boolean that agrees with the line is accepted', async () => {
      const written = await h.owner.client.ok<Written>('add_bit', {
        bit_title: 'typed items',
        bit_body: '[dropdown: Pick](waymark-node:dd)\n- [North](waymark-node:n)\n',
        elements: [{ key: 'dd', type: 'dropdown', items: [{ key: 'n', value: 'N' }] }],
      });
      const before = await get(written.bit_id);
      const dd = before.elements[0];
      await h.owner.client.ok('update_bit', { bit_id: written.bit_id, elements: [{ id: dd.id, type: 'dropdown', items: [{ id: dd.items![0].id, value: null }] }] });
      expect((await get(written.bit_id)).elements[0].items![0]).toEqual({ id: dd.items![0].id, name: 'North' });
      await h.owner.client.ok('add_bit', {
        bit_title: 'agrees',
        bit_body: '[check-list: List](waymark-node:cl)\n- [x] [Item](waymark-node:a)\n',
        elements: [{ key: 'cl', type: 'check-list', items: [{ key: 'a', checked: true }] }],
      });
    });
  });

  describe('elements[].props.url sets a link-inline url when the body is written back as get_bit printed it', () => {
    async function linkInline(): Promise<{ bitId: string; linkId: string; body: string }> {
      const written = await h.owner.client.ok<Written>('add_bit', {
        bit_title: 'link-inline',
        bit_body: 'Open [the form](https://example.com/old "waymark-node:li") now.',
        elements: [{ key: 'li', type: 'link-inline' }],
      });
      return { bitId: written.bit_id, linkId: written.minted_node_ids.li, body: (await get(written.bit_id)).bit_body };
    }

    it('applies props.url when the body keeps the stored destination', async () => {
      const { bitId, linkId, body } = await linkInline();
      await h.owner.client.ok('update_bit', {
        bit_id: bitId,
        bit_body: body,
        content_format: 'markdown',
        elements: [{ id: linkId, type: 'link-inline', props: { url: 'https://example.com/new' } }],
      });
      const after = await get(bitId);
      expect(after.bit_body).toBe(body.replace('https://example.com/old', 'https://example.com/new'));
      expect(after.elements).toMatchObject([{ id: linkId, type: 'link-inline', props: { url: 'https://example.com/new' } }]);
    });

    it('a destination changed in the body and a different props.url stay a conflict; the same url in both is accepted', async () => {
      const { bitId, linkId, body } = await linkInline();
      const error = await h.owner.client.fail('update_bit', {
        bit_id: bitId,
        bit_body: body.replace('https://example.com/old', 'https://example.com/body'),
        content_format: 'markdown',
        elements: [{ id: linkId, type: 'link-inline', props: { url: 'https://example.com/props' } }],
      });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.message).toContain('give it in one place');
      expect((await get(bitId)).bit_body).toBe(body);
      await h.owner.client.ok('update_bit', {
        bit_id: bitId,
        bit_body: body.replace('https://example.com/old', 'https://example.com/both'),
        content_format: 'markdown',
        elements: [{ id: linkId, type: 'link-inline', props: { url: 'https://example.com/both' } }],
      });
      expect((await get(bitId)).elements[0].props.url).toBe('https://example.com/both');
    });

    it('props.url is checked like any url: javascript: is refused', async () => {
      const { bitId, linkId, body } = await linkInline();
      const error = await h.owner.client.fail('update_bit', {
        bit_id: bitId,
        bit_body: body,
        content_format: 'markdown',
        elements: [{ id: linkId, type: 'link-inline', props: { url: 'javascript:alert(1)' } }],
      });
      expect(error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('`<` is escaped only where it could open raw HTML or an autolink', () => {
    it.each([
      ['1<2', '1<2'],
      ['a < b', 'a < b'],
      ['x<=y and 3<4', 'x<=y and 3<4'],
      ['<div>', '\\<div>'],
      ['see </p>', 'see \\</p>'],
      ['<!-- no -->', '\\<!-- no -->'],
      ['<?php', '\\<?php'],
      ['mail <1.x@example.com> now', 'mail \\<1.x@example.com> now'],
      ['go <https://example.com>', 'go \\<https://example.com>'],
    ])('%s', async (text, printed) => {
      const written = await h.owner.client.ok<Written>('add_bit', { bit_title: 'escape', bit_body: text.replace(/</g, '\\<') });
      const body = (await get(written.bit_id)).bit_body;
      expect(body).toBe(`${printed}\n`);
      // The fixpoint: writing it back changes nothing.
      await h.owner.client.ok('update_bit', { bit_id: written.bit_id, bit_body: body, content_format: 'markdown' });
      expect((await get(written.bit_id)).bit_body).toBe(body);
    });
  });
});
