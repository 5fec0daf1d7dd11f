/**
 * The world the browser tests walk through, written through the MCP tools of a real `waymark serve`: a
 * release flow whose first step holds all ten element types and branches on the Risk answer, a step with
 * two ways on, a flow context schema, a reference; and a person who may sign in.
 */
import { ok, type HostileServer } from '../hostile/harness.js';
import { allCapabilityNames } from '../../src/config.js';
import { ALL_ELEMENTS_ENTRIES, ALL_ELEMENTS_MARKDOWN } from '../web/step-fixture.js';

export interface World {
  personId: string;
  personToken: string;
  flowId: string;
  startBitId: string;
  firstTrailId: string;
  minted: Record<string, string>;
  titles: { start: string; risk: string; ship: string; rollback: string };
}

const id = (data: Record<string, unknown>, key: string) => String(data[key]);

export async function buildWorld(server: HostileServer): Promise<World> {
  const titles = { start: 'Release check', risk: 'Risk review', ship: 'Ship it', rollback: 'Prepare a rollback' };
  const ship = id(
    await ok(server, 'add_bit', {
      bit_title: titles.ship,
      bit_body: 'Tag the release and publish it.\n\n[searchable-field: Channel](waymark-node:channel)\n\n[text-area: Tag](waymark-node:tag)\n',
      elements: [
        { key: 'channel', type: 'searchable-field', props: { label: 'Channel', data: ['stable', 'beta', 'nightly'], noResultsText: 'No such channel' } },
        { key: 'tag', type: 'text-area', props: { label: 'Tag', maxLength: 40 } },
      ],
    }),
    'bit_id',
  );
  const rollback = id(await ok(server, 'add_bit', { bit_title: titles.rollback, bit_body: 'Write down how to undo the release.\n' }), 'bit_id');
  const risk = id(
    await ok(server, 'add_bit', {
      bit_title: titles.risk,
      human_required: true,
      bit_body: `A person looks at the risk.\n\n[Ship](bit-connection:${ship})\n\n[Roll back first](bit-connection:${rollback})\n`,
    }),
    'bit_id',
  );
  const added = await ok(server, 'add_bit', {
    bit_title: titles.start,
    bit_abstract: 'Everything to check before a release.',
    bit_body: `${ALL_ELEMENTS_MARKDOWN}\n[High risk](bit-connection:${risk})\n\n[Low risk](bit-connection:${ship})\n`,
    elements: ALL_ELEMENTS_ENTRIES,
  });
  const start = id(added, 'bit_id');
  const minted = added.minted_node_ids as Record<string, string>;
  // `when=` is written on a kept connection line (authoring-interface.md, Body syntax rule 4).
  const markdown = String((await ok(server, 'get_bit', { bit_id: start })).bit_body);
  const conditioned = markdown
    .replace(new RegExp(`(bit-connection:${risk}\\?node=[^)&]+)`), `$1&when=${minted.risk}:${minted.high}`)
    .replace(new RegExp(`(bit-connection:${ship}\\?node=[^)&]+)`), `$1&when=${minted.risk}:${minted.low}`);
  if (conditioned === markdown) throw new Error('the connection lines were not found in get_bit');
  await ok(server, 'update_bit', { bit_id: start, bit_body: conditioned, content_format: 'markdown' });
  const flowId = id(
    await ok(server, 'create_flow', {
      flow_title: 'Release',
      flow_description: 'From the last checks to the published release.',
      start_bit_id: start,
      trail_context_schema: {
        type: 'object',
        properties: {
          release: { type: 'string', title: 'Release name', minLength: 3, maxLength: 40 },
          channel: { type: 'string', title: 'Channel', oneOf: [{ const: 'stable', title: 'Stable' }, { const: 'beta', title: 'Beta' }] },
          hotfix: { type: 'boolean', title: 'Hotfix' },
        },
        required: ['release'],
      },
    }),
    'flow_id',
  );
  await ok(server, 'review_flow', { flow_id: flowId, review_status: 'approved' });
  await ok(server, 'update_flow', { flow_id: flowId, is_active: true });
  await ok(server, 'create_reference', { reference_title: 'Rollback guide', reference_content: [{ type: 'p', children: [{ text: 'How to roll back a release safely: revert the tag, then redeploy the previous build.' }] }], content_format: 'slate' });

  const person = await server.services.auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Robin Person' });
  const firstTrailId = id(await ok(server, 'start_trail', { flow_id: flowId, trail_title: 'Release 1.0', trail_context: { release: '1.0' } }, person.token), 'trail_id');
  return { personId: person.principalId, personToken: person.token, flowId, startBitId: start, firstTrailId, minted, titles };
}

/** A one-time sign-in link for the person, as `waymark signin-link create` prints it. */
export async function signinLink(server: HostileServer, principalId: string): Promise<string> {
  const link = await server.services.signin.createLink({ principalId });
  return new URL(`/app/signin?token=${encodeURIComponent(link.token)}`, server.base).href;
}
