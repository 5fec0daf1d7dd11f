/**
 * A corpus for the folder tests (issue 30), written through the tools: references (two that read as markdown, one
 * written as JSON), bits of every element type, connections plain, labelled, with a condition on a
 * dropdown's and a radio's options and on a check-list item, with a hidden preview, citations, reference links,
 * and a flow with a trail_context_schema.
 */
import type { Harness } from './harness.js';
import { addTestBit, connectTestBits } from './graph-fixtures.js';
import { checkList, datePicker, dropdown, iframe, linkBlock, linkInlineParagraph, p, radio, searchable, textArea, video } from './trail-fixtures.js';

export interface Corpus {
  flowId: string;
  start: string;
  bits: Record<string, string>;
  references: Record<string, string>;
}

export async function writeCorpus(h: Harness, scopeId: string | null = null): Promise<Corpus> {
  const client = h.owner.client;
  const scope = scopeId ? { scope_id: scopeId } : {};
  const policy = (
    await client.ok<{ reference_id: string }>('create_reference', {
      reference_title: 'Security policy',
      reference_abstract: 'What we protect.',
      reference_categories: ['security'],
      reference_content: [
        { type: 'h2', children: [{ text: 'Rules' }] },
        { type: 'p', children: [{ text: 'Lock your ' }, { text: 'screen', bold: true }, { text: '.' }] },
      ],
      ...scope,
    })
  ).reference_id;
  const glossary = (await client.ok<{ reference_id: string }>('create_reference', { reference_title: 'Glossary', reference_content: [{ type: 'p', children: [{ text: 'Terms.' }] }], ...scope })).reference_id;
  // Bold that ends in a space does not come back the same from markdown: this one is written as JSON.
  const card = (
    await client.ok<{ reference_id: string }>('create_reference', { reference_title: 'Desk card', reference_content: [{ type: 'p', children: [{ text: 'Bold ', bold: true }, { text: 'then plain.' }] }], ...scope })
  ).reference_id;
  const blocks = (extra: ReturnType<typeof p>[]) => [p('Intro text.'), ...extra];
  const start = await addTestBit(h, {
    title: 'Welcome aboard',
    scopeId,
    abstract: 'The first day.',
    description: 'Start here.',
    categories: ['onboarding', 'day-1'],
    blocks: blocks([dropdown('team', ['eng', 'ops']), radio('site', ['home', 'office']), checkList('tasks', [{ id: 'laptop', required: true }, { id: 'badge', checked: true }]), { markdown: `Read [[ref:${policy}|the policy]] first.` }]),
  });
  const forms = await addTestBit(h, {
    title: 'Fill the forms',
    scopeId,
    humanRequired: true,
    blocks: blocks([textArea('notes', { required: true, maxLength: 500 }), datePicker('day', { picker_type: 'date' }), searchable('city', ['Paris', 'Oslo'], { maxResults: 5 }), linkInlineParagraph('guide', 'https://example.com/guide')]),
  });
  const media = await addTestBit(h, {
    title: 'Watch and read',
    scopeId,
    blocks: blocks([linkBlock('card', 'https://example.com/card'), video('clip', 'https://example.com/v.mp4'), iframe('frame', 'https://example.com/embed'), { markdown: 'See [the site](https://example.com/site) and [[ref:' + glossary + '|terms]].' }]),
  });
  const ops = await addTestBit(h, { title: 'Ops setup', scopeId, blocks: [p('A step.'), p(`Keep [[ref:${card}|the card]] at hand.`)] });
  const done = await addTestBit(h, { title: 'Done', scopeId });
  // A second bit titled like another: both file names take a piece of their id.
  const doneToo = await addTestBit(h, { title: 'Done!', scopeId });
  await connectTestBits(h, start.bit_id, forms.bit_id, { label: 'Engineers', when: { element_id: start.ids.team, option_ids: [start.ids.eng] } });
  await connectTestBits(h, start.bit_id, ops.bit_id, { label: 'From the office', when: { element_id: start.ids.site, option_ids: [start.ids.office] } });
  await connectTestBits(h, start.bit_id, media.bit_id, { when: { element_id: start.ids.laptop, checked: true }, preview: false });
  await connectTestBits(h, forms.bit_id, done.bit_id);
  await connectTestBits(h, media.bit_id, done.bit_id, { label: 'Finish' });
  await connectTestBits(h, ops.bit_id, doneToo.bit_id);
  // Reference links: one with a label of its own, one showing the reference's title; in this display order.
  await client.ok('link_reference', { bit_id: forms.bit_id, reference_id: policy, display_label: 'Before you type' });
  await client.ok('link_reference', { bit_id: forms.bit_id, reference_id: glossary });
  const flowId = (
    await client.ok<{ flow_id: string }>('create_flow', {
      flow_title: 'Onboarding',
      start_bit_id: start.bit_id,
      flow_description: 'A new colleague\'s first week.',
      flow_categories: ['people'],
      priority: 'high',
      trail_context_schema: { type: 'object', properties: { employee: { type: 'string' }, start_date: { type: 'string', format: 'date' } }, required: ['employee'] },
      ...scope,
    })
  ).flow_id;
  return { flowId, start: start.bit_id, bits: { start: start.bit_id, forms: forms.bit_id, media: media.bit_id, ops: ops.bit_id, done: done.bit_id, doneToo: doneToo.bit_id }, references: { policy, glossary, card } };
}
