/**
 * The one markdown-it configuration bodies are read with: CommonMark plus GFM tables and strikethrough,
 * raw HTML off (it stays literal text, CONTRACT.md "Body forms"), no linkify (a bare url stays text, as
 * written), and our citation rule.
 */
import MarkdownItCtor, { type MarkdownIt, type Token } from 'markdown-it';
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
  // markdown-it silently turns `[x](javascript:…)` into text; we refuse it with VALIDATION_ERROR instead, so every
  // destination reaches the walker, which checks it.
  md.validateLink = () => true;
  md.inline.ruler.before('link', 'citation', citationRule);
  // Block structure only: each `inline` token keeps its source text and gets its children from
  // inlineChildren when the walker reaches it. The inline tokens of a whole 8 MB body, alive at once, were
  // the largest part of update_bit's peak memory (bench/memory.ts); the walker lets each go once read.
  md.core.ruler.disable('inline');
  return md;
}

let walked: Token | undefined;

/** One placeholder token that stands in for every token the walker has let go. */
export function walkedToken(): Token {
  const md = parser();
  walked ??= new (new md.core.State('', md, {}).Token)('walked', '', 0);
  return walked;
}

/** Inline tokens whose children have been parsed (an empty list is also a parsed one). */
const parsed = new WeakSet<Token>();

/**
 * The inline tokens of one `inline` block token, parsed on first use with the document's env (its link
 * reference definitions). The rules core runs after 'inline' are no-ops in our configuration (no
 * linkify, no typographer; text_join is off), so this gives what a full parse gives.
 */
export function inlineChildren(md: MarkdownIt, token: Token, env: Record<string, unknown>): Token[] {
  if (!parsed.has(token)) {
    token.children = [];
    md.inline.parse(token.content, md, env, token.children);
    parsed.add(token);
  }
  return token.children ?? [];
}

let shared: MarkdownIt | undefined;

export function parser(): MarkdownIt {
  shared ??= createParser();
  return shared;
}
