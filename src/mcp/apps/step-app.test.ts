/**
 * The step form as an MCP App, server side (issue 14), through the real SDK client: a client that announces
 * MCP Apps sees the trail tools declare `ui://waymark/step`, reads the one self-contained document, and gets
 * the step payload in those tools' result `_meta`; the text and structuredContent are what any client gets.
 * A client without MCP Apps sees none of it (its tools/list is the snapshot in test/__toolsnaps__).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildStepApp } from '../../../scripts/build-step-app.js';
import { zodEnglishOnly } from '../../../scripts/build-web.js';
import { ENGINES } from '../../../test/engines.js';
import { connectClient, startHarness, type Harness, type ToolClient } from '../../../test/harness.js';
import { capabilityName } from '../../config.js';
import { STEP_APP_URI, STEP_PAYLOAD_META_KEY } from '../../operations/platform/step-meta.js';
import { STEP_TOOL_META } from './step-app.js';

/** The trail tools that put a person in front of a step (their declarations' stepForm). */
const STEP_TOOLS: ReadonlySet<string> = new Set(['start_trail', 'get_trail', 'advance_trail', 'transfer_step']);

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const WEB_ROOT = mkdtempSync(join(tmpdir(), 'waymark-step-app-'));

beforeAll(async () => {
  await buildStepApp(WEB_ROOT, [zodEnglishOnly]);
  process.env.WAYMARK_WEB_ROOT = WEB_ROOT;
}, 120_000);
afterAll(() => rmSync(WEB_ROOT, { recursive: true, force: true }));

for (const engine of ENGINES) {
  describe(`the step form app, server side (${engine})`, () => {
    let h: Harness;
    let apps: ToolClient;
    let plain: ToolClient;
    let flowId: string;
    let personToken: string;

    beforeAll(async () => {
      h = await startHarness(engine);
      const bit = await h.owner.client.ok<{ bit_id: string }>('add_bit', {
        bit_title: 'Write it down',
        bit_body: '[text-area: Note](waymark-node:note)\n',
        elements: [{ key: 'note', type: 'text-area', props: { label: 'Note' } }],
      });
      const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Notes', start_bit_id: bit.bit_id });
      await h.owner.client.ok('review_flow', { flow_id: flow.flow_id, review_status: 'approved' });
      await h.owner.client.ok('update_flow', { flow_id: flow.flow_id, is_active: true });
      flowId = flow.flow_id;
      const person = await h.services.auth.createToken({ accountId: h.accountId, permission: 'edit', capabilities: [capabilityName('run'), capabilityName('read')], kind: 'person', name: 'Robin' });
      personToken = person.token;
      // Apps win over elicitation: a client with both gets the app.
      apps = await connectClient(h.services, person.token, { capabilities: { ...APPS, elicitation: { form: {} } } });
      plain = await connectClient(h.services, person.token);
    }, 120_000);
    afterAll(async () => {
      await apps?.close();
      await plain?.close();
      await h?.close();
    });

    test('tools/list: the four trail tools declare the resource, nothing else changes but describe_platform\'s client_features', async () => {
      const mine = (await apps.client.listTools()).tools;
      const theirs = (await plain.client.listTools()).tools;
      expect(mine.filter((t) => t._meta !== undefined).map((t) => t.name).sort()).toEqual([...STEP_TOOLS].sort());
      for (const tool of mine) {
        const other = theirs.find((t) => t.name === tool.name);
        if (STEP_TOOLS.has(tool.name)) expect(tool).toEqual({ ...other, _meta: STEP_TOOL_META });
        else if (tool.name === 'describe_platform') {
          const data = (tool.outputSchema?.properties as Record<string, { properties: Record<string, unknown> }>).data;
          expect(Object.keys(data.properties).at(-1)).toBe('client_features');
        } else expect(tool).toEqual(other);
      }
      expect(theirs.some((t) => t._meta !== undefined)).toBe(false);
    });

    test('the resource: one document of the mcp-app profile, everything inline', async () => {
      const { resources } = await plain.client.listResources();
      expect(resources).toEqual([expect.objectContaining({ uri: STEP_APP_URI, mimeType: RESOURCE_MIME_TYPE, name: 'Waymark step form' })]);
      const read = await apps.client.readResource({ uri: STEP_APP_URI });
      expect(read.contents).toHaveLength(1);
      const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta: unknown };
      expect(content.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(content._meta).toEqual({ ui: { prefersBorder: true } });
      expect(content.text.startsWith('<!doctype html>')).toBe(true);
      // Nothing to fetch: no script, stylesheet or module loaded from a url.
      expect(content.text).not.toMatch(/<script[^>]*\bsrc=|<link\b|\bimport\s*\(\s*["']http/);
    });

    test('the trail tools\' results carry the step payload for the app; what the model reads is unchanged', async () => {
      const started = (await apps.client.callTool({ name: 'start_trail', arguments: { flow_id: flowId } })) as CallToolResult;
      const trailId = (started.structuredContent as { data: { trail_id: string } }).data.trail_id;
      // The payload the web app's step form is fed (GET /api/v1/trails/:id/step), for the same person.
      const actor = (await h.services.auth.authenticate(personToken))!;
      const expected = await h.services.stepForm.payload(actor, { trail_id: trailId });
      expect(started._meta?.[STEP_PAYLOAD_META_KEY]).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(expected.step?.bit_title).toBe('Write it down');
      expect(expected.may).toEqual({ answer: true, advance: true, transfer: true, cancel: true, claim: true, release: false, assign: false });
      const mine = (await apps.client.callTool({ name: 'get_trail', arguments: { trail_id: trailId } })) as CallToolResult;
      const theirs = (await plain.client.callTool({ name: 'get_trail', arguments: { trail_id: trailId } })) as CallToolResult;
      expect(mine.structuredContent).toEqual(theirs.structuredContent);
      expect(mine.content).toEqual(theirs.content);
      expect(theirs._meta).toBeUndefined();
      expect(mine._meta?.[STEP_PAYLOAD_META_KEY]).toEqual(started._meta?.[STEP_PAYLOAD_META_KEY]);
      const note = expected.step!.elements[0].element_id;
      const submitted = (await apps.client.callTool({ name: 'submit_step_data', arguments: { trail_id: trailId, data: [{ element_id: note, element_type: 'TextArea', value: { value: 'done' } }] } })) as CallToolResult;
      expect(submitted._meta).toBeUndefined();
      const handed = (await apps.client.callTool({ name: 'transfer_step', arguments: { trail_id: trailId, reason: 'A person decides' } })) as CallToolResult;
      expect((handed._meta?.[STEP_PAYLOAD_META_KEY] as { step: { transfer_reason: string } }).step.transfer_reason).toBe('A person decides');
      const advanced = (await apps.client.callTool({ name: 'advance_trail', arguments: { trail_id: trailId } })) as CallToolResult;
      expect(advanced._meta?.[STEP_PAYLOAD_META_KEY]).toMatchObject({ step: null, trail: { status: 'completed' } });
    });

    test('describe_platform says this client gets the step form app', async () => {
      expect((await apps.ok<{ client_features?: unknown }>('describe_platform')).client_features).toEqual({ step_form: 'app', resource_uri: STEP_APP_URI, how: expect.stringContaining('step form app') });
      expect((await plain.ok<{ client_features?: unknown }>('describe_platform')).client_features).toBeUndefined();
    });
  });
}
