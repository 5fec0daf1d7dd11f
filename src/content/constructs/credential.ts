/**
 * Credential declaration: `credential`, an inline void naming a secret by handle, with its purpose
 * (authoring-interface.md, Body syntax). Written as a link whose text and destination hold the same handle.
 */
import type { Token } from 'markdown-it';
import { attr, plainText } from '../markdown/lines.js';
import { escapeTitle } from '../markdown/escape.js';
import { invalid, unsupported } from '../problems.js';
import type { CredentialNode, InlineNode } from '../slate.js';
import { onlyKeys, str, voidChildren } from './input.js';
import type { Construct, InlineBuild, NodeHandler } from './types.js';

export const CREDENTIAL_SCHEME = 'credential:';
const CREDENTIAL_TEXT = /^credential:\s*(\S+)$/;
/** Our choice: a handle is what a secret store names (letters, digits, `_`, `.`, `-`), at most 128 chars. */
export const CREDENTIAL_HANDLE = /^[A-Za-z0-9_.-]{1,128}$/;

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

const credential: NodeHandler<CredentialNode> = {
  standsIn: ['inline', 'link'],
  input(value, step) {
    onlyKeys(value, ['type', 'children', 'handle', 'purpose'], step.path);
    const handle = str(value, 'handle', step.path);
    if (!CREDENTIAL_HANDLE.test(handle)) throw invalid(`${step.path}.handle`, 'a handle is 1 to 128 letters, digits, _ . -');
    step.out.push({ type: 'credential', handle, purpose: str(value, 'purpose', step.path, true) ?? '', children: voidChildren(value, step.path) });
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
