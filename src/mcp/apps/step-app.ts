/**
 * The step form as an MCP App (issue 14): the `ui://waymark/step` resource (the web app's step form, built
 * by scripts/build-step-app.ts into one HTML document with everything inline), and which trail tools show
 * it. A tool result of those tools carries the step payload (the one the web app's step form is fed) in
 * its `_meta` for the app; the text and structuredContent, what a model reads, stay as they are.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { registerAppResource, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { webRoot } from '../../config.js';
import { STEP_APP_URI } from '../../operations/platform/step-meta.js';


/** Where the build puts the document, inside the web app's build (WAYMARK_WEB_ROOT moves both). */
export const STEP_APP_FILE = 'mcp-step-app.html';

/** A tool's `_meta` as ext-apps' registerAppTool normalises it: the current key and the legacy one. */
export const STEP_TOOL_META = { ui: { resourceUri: STEP_APP_URI }, [RESOURCE_URI_META_KEY]: STEP_APP_URI } as const;

let cached: { path: string; mtimeMs: number; html: string } | null = null;

/** The built document, read once per build. */
export function stepAppHtml(): string {
  const path = join(webRoot(), STEP_APP_FILE);
  if (!existsSync(path)) throw new Error(`The step form app is not built (${path}): run npm run build:web, or set WAYMARK_WEB_ROOT.`);
  const mtimeMs = statSync(path).mtimeMs;
  if (cached?.path !== path || cached.mtimeMs !== mtimeMs) cached = { path, mtimeMs, html: readFileSync(path, 'utf8') };
  return cached.html;
}

/**
 * Registered on every server: capabilities are fixed before the client says what it supports, and a
 * resource nobody asks for costs nothing. The document fetches nothing (no CSP domains to declare): it talks
 * only to the host, by postMessage.
 */
export function registerStepApp(server: McpServer): void {
  registerAppResource(
    server,
    'Waymark step form',
    STEP_APP_URI,
    { description: 'The form a person answers a trail step with: the same component as the Waymark web app.' },
    async () => ({
      contents: [{ uri: STEP_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: stepAppHtml(), _meta: { ui: { prefersBorder: true } } }],
    }),
  );
}
