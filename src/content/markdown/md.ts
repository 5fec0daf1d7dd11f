/**
 * The one markdown-it configuration bodies are read with: CommonMark plus GFM tables and strikethrough,
 * raw HTML off (it stays literal text, CONTRACT.md "Body forms"), no linkify (a bare url stays text, as
 * written), and our citation rule.
 */
import MarkdownItCtor, { type MarkdownIt } from 'markdown-it';
import { LIMITS } from '../limits.js';
import { citationRule } from './citation.js';

export function createParser(): MarkdownIt {
  const md = new MarkdownItCtor('commonmark', {
    html: false,
    linkify: false,
    // The pre-scan refuses bodies deeper than LIMITS.bodyDepth; this keeps markdown-it's own recursion bounded
    // for inline nesting (links in images in links) that the pre-scan does not count.
    maxNesting: LIMITS.bodyDepth * 2 + 8,
  });
  md.enable(['table', 'strikethrough']);
  // Escapes and entities stay separate `text_special` tokens, so the parser can tell `\[dropdown: x]`
  // (written as text on purpose) from `[dropdown: x]` (imitating an element). The walker joins text itself.
  md.core.ruler.disable('text_join');
  // markdown-it silently turns `[x](javascript:…)` into text; we refuse it with UNSAFE_URL instead, so every
  // destination reaches the walker, which checks it.
  md.validateLink = () => true;
  md.inline.ruler.before('link', 'citation', citationRule);
  return md;
}

let shared: MarkdownIt | undefined;

export function parser(): MarkdownIt {
  shared ??= createParser();
  return shared;
}
