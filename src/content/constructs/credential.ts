/**
 * Credential declaration: `credential`, an inline void naming a secret by handle, with its purpose
 * (authoring-interface.md, Body syntax). Written as a link whose text and destination hold the same handle.
 */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { attr, plainText } from '../markdown/lines.js';
import { escapeTitle } from '../markdown/escape.js';
import { unsupported } from '../problems.js';
import type { InlineNode, VoidChildren } from '../slate.js';
import { STRING, VOID_CHILDREN, voidChildren } from './input.js';
import type { Construct, InlineBuild, NodeHandler, ShapeFields } from './types.js';

export const CREDENTIAL_SCHEME = 'credential:';
const CREDENTIAL_TEXT = /^credential:\s*(\S+)$/;
/** Our choice: a handle is what a secret store names (letters, digits, `_`, `.`, `-`), at most 128 chars. */
export const CREDENTIAL_HANDLE = /^[A-Za-z0-9_.-]{1,128}$/;

const credentialShape = z.strictObject({
  type: z.literal('credential'),
  handle: STRING.regex(CREDENTIAL_HANDLE, { error: 'a handle is 1 to 128 letters, digits, _ . -' }),
  purpose: STRING.default(''),
  children: VOID_CHILDREN,
});

export interface CredentialNode extends ShapeFields<typeof credentialShape> {
  children: VoidChildren;
}

/**
 * `[credential: <handle>](credential:<handle> "<purpose>")`: the handle in the text and in the destination
 * are one value. Answers the node and the link's close token index.
 */
export function credentialFromLink(b: InlineBuild, tokens: readonly Token[], open: number, to: number): { node: InlineNode; close: number } {
  let close = open + 1;
  while (close < to && tokens[close].type !== 'link_close') close++;
  const handle = (attr(tokens[open], 'href') ?? '').slice(CREDENTIAL_SCHEME.length);
  const text = CREDENTIAL_TEXT.exec(plainText(tokens, open + 1, close).trim());
  if (!CREDENTIAL_HANDLE.test(handle) || !text || text[1] !== handle) {
    throw unsupported(
      b.ctx.at(b.line),
      'a credential declaration is [credential: <handle>](credential:<handle> "<purpose>"), the same handle twice (letters, digits, _ . -)',
    );
  }
  return { node: { type: 'credential', handle, purpose: attr(tokens[open], 'title') ?? '', children: [b.leaf('')] }, close };
}

const credential: NodeHandler<CredentialNode, typeof credentialShape> = {
  standsIn: ['inline', 'link'],
  shape: credentialShape,
  input(fields, step) {
    step.out.push({ type: 'credential', handle: fields.handle, purpose: fields.purpose, children: voidChildren(fields.children, step.path) });
  },
  render: {
    inline: {
      kind: 'void',
      inline(node, _mask, ctx) {
        const title = node.purpose === '' ? '' : ` ${escapeTitle(node.purpose, ctx)}`;
        return `[credential: ${node.handle}](credential:${node.handle}${title})`;
      },
    },
  },
  // A credential names a secret: it is not prose.
  text: 'skip',
};

export const credentials: Construct<'credential'> = {
  name: 'credential',
  nodes: { credential: credential as NodeHandler },
  syntax: () => [{ construct: 'credential declaration', form: '[credential: <handle>](credential:<handle> "<purpose>")' }],
};
