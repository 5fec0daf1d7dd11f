/**
 * The one markdown-it configuration bodies are read with: CommonMark plus GFM tables and strikethrough,
 * raw HTML off (it stays literal text, CONTRACT.md "Body forms"), no linkify (a bare url stays text, as
 * written), and the rules of our constructs (citations).
 */
import MarkdownItCtor, { type MarkdownIt, type StateBlock, type StateInline, type Token } from 'markdown-it';
import { nodeScheme } from '../../brand.js';
import { chargeBlockTokens, chargeInlineTokens, type OutputBudget } from '../budget.js';
import { LIMITS } from '../../limits/index.js';

/** Top-level blocks are handed on once this many of their tokens are waiting (a paragraph is three). */
const TAKE_AT = 256;

/** Where a parse's env holds its OutputBudget (and how many block tokens were charged), and where its tokens go. */
const BUDGET = Symbol('budget');
interface BudgetSlot {
  budget: OutputBudget | undefined;
  charged: number;
  /** Takes the tokens of whole top-level blocks as the parse goes (blockStream). */
  take: ((tokens: Token[]) => void) | undefined;
  /** How many tokens wait before they are handed to `take`. */
  takeAt: number;
}

/** Gives the parse that uses `env` an output budget, which its block tokens are charged to as they are made. */
export function budgetEnv(env: Record<string | symbol, unknown>, budget: OutputBudget): void {
  env[BUDGET] = { budget, charged: 0, take: undefined, takeAt: TAKE_AT } satisfies BudgetSlot;
}

/** Charges the tokens made since the last charge (the block rule below runs before each block, not after the last). */
export function chargeRemaining(env: Record<string | symbol, unknown>, tokens: readonly Token[]): void {
  const slot = env[BUDGET] as BudgetSlot | undefined;
  if (slot?.budget) slot.charged = chargeBlockTokens(slot.budget, tokens, slot.charged);
}

/**
 * The block tokens of `markdown`, handed to `take` a run of whole top-level blocks at a time as markdown-it
 * makes them, each run let go of by the parse once handed on: a body's block tokens are never all alive at
 * once (on an 8 MB body they were 46 MB, the largest part of update_bit's peak: bench/memory.ts). Handing a
 * block on before the next ones are parsed changes nothing for the block parse (no rule looks back past its
 * own block); for inline content it would, where a link reference definition further down is used above it,
 * so a body that can hold one (the text `]:` occurs) has its definitions read first by a parse of its own.
 * A run may end between any two top-level blocks (`takeAt` moves where: tests cut at every place); a
 * construct that reads the block after its own finds it because the walker carries a run's last block
 * over to the next (parse.ts).
 */
export function blockStream(md: MarkdownIt, markdown: string, env: Record<string | symbol, unknown>, take: (tokens: Token[]) => void, takeAt: number = TAKE_AT): void {
  if (markdown.includes(']:')) {
    const first: Record<string | symbol, unknown> = {};
    first[BUDGET] = { budget: undefined, charged: 0, take: () => undefined, takeAt } satisfies BudgetSlot;
    md.parse(markdown, first);
    if (first.references !== undefined) env.references = first.references;
  }
  const slot = (env[BUDGET] ??= { budget: undefined, charged: 0, take: undefined, takeAt }) as BudgetSlot;
  slot.take = take;
  slot.takeAt = takeAt;
  try {
    const rest = md.parse(markdown, env);
    chargeRemaining(env, rest);
    take(rest);
  } finally {
    slot.take = undefined;
  }
}

/**
 * Charges the block tokens made so far every 64 of them, as each is made: a body of a million one-line blocks
 * stops at the limit rather than after tokenizing all of them, and so does one block of a million rows (the
 * table rule makes every row of its table in one call, before any rule runs again: 7.9 MB of `|a|` rows took
 * 17 s and 970 MB before the budget saw them; issue 24, finding 10).
 */
function budgetedState(md: MarkdownIt): typeof StateBlock {
  return class BudgetedState extends md.block.State {
    override push(type: string, tag: string, nesting: Token['nesting']): Token {
      const token = super.push(type, tag, nesting);
      const slot = (this.env as Record<symbol, unknown>)[BUDGET] as BudgetSlot | undefined;
      if (slot?.budget && this.tokens.length - slot.charged >= 64) slot.charged = chargeBlockTokens(slot.budget, this.tokens, slot.charged);
      return token;
    }
  };
}

/**
 * A block rule that never matches: before a top-level block (level 0: every token made so far closes what
 * it opens) it hands the waiting ones on.
 */
function budgetRule(state: StateBlock): boolean {
  const slot = (state.env as Record<symbol, unknown>)[BUDGET] as BudgetSlot | undefined;
  if (!slot) return false;
  if (slot.take && state.level === 0 && state.tokens.length >= slot.takeAt) {
    if (slot.budget) chargeBlockTokens(slot.budget, state.tokens, slot.charged);
    slot.charged = 0;
    slot.take(state.tokens.splice(0));
  }
  return false;
}

const ANCHOR_PREFIX = `${nodeScheme}:`;
/** Inline tokens charged so far, kept on each token list (an image's alt is parsed into a list of its own). */
const CHARGED = Symbol('charged');
type Charged = Token[] & { [CHARGED]?: number };

function chargeInline(env: Record<symbol, unknown>, tokens: Charged): void {
  const slot = env[BUDGET] as BudgetSlot | undefined;
  if (slot?.budget) tokens[CHARGED] = chargeInlineTokens(slot.budget, tokens, tokens[CHARGED] ?? 0, ANCHOR_PREFIX);
}

/** The inline counterpart of budgetRule: every 32 inline tokens, the tokens made so far are charged. */
function inlineBudgetRule(state: StateInline, silent: boolean): boolean {
  const tokens = state.tokens as Charged;
  if (!silent && tokens.length - (tokens[CHARGED] ?? 0) >= 32) chargeInline(state.env as Record<symbol, unknown>, tokens);
  return false;
}

/** Where the last `]` of the text an inline rule reads is, kept on the state with the end it was found for (a link's text is read with a lower end). */
type ClosingState = StateInline & { waymarkLastClose?: { posMax: number; at: number } };

function lastClose(state: ClosingState): number {
  const known = state.waymarkLastClose;
  if (known !== undefined && known.posMax === state.posMax) return known.at;
  const at = state.src.lastIndexOf(']', state.posMax - 1);
  state.waymarkLastClose = { posMax: state.posMax, at };
  return at;
}

/** The characters markdown-it's text rule stops at (rules_inline/text.mjs), less `!` and `[`. */
const STOPS = new Set([...'\n#$%&*+-:<=>@\\]^_`{}~']);

/**
 * `!` and `[` with no `]` after them can open nothing (a link, an image, a citation, an element line all need
 * one), so a run of them and of plain text is taken as text in one step. Without this rule markdown-it tries
 * the link and image rules at each of them, scanning the rest of the text, then adds it to the pending text
 * one character at a time: 1 MB of `![` took 3.8 s and a string of a million pieces (issue 16).
 */
function unclosedBracketsRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const first = state.src[start];
  if ((first !== '[' && first !== '!') || lastClose(state) >= start) return false;
  let end = start + 1;
  while (end < state.posMax && !STOPS.has(state.src[end] as string)) end++;
  if (!silent) state.pending += state.src.slice(start, end);
  state.pos = end;
  return true;
}

/**
 * A parser of the body dialect; `plugins` adds the rules of the constructs (a construct registry's). Without
 * them it still normalizes links and unescapes as the dialect does (what the constructs' own code asks of it).
 */
export function createParser(maxNesting: number = LIMITS.bodyDepth * 2 + 8, plugins?: (md: MarkdownIt) => void): MarkdownIt {
  const md = new MarkdownItCtor('commonmark', {
    html: false,
    linkify: false,
    // The pre-scan refuses bodies deeper than LIMITS.bodyDepth; this keeps markdown-it's own recursion bounded
    // for inline nesting (links in images in links) that the pre-scan does not count.
    maxNesting,
  });
  md.block.State = budgetedState(md);
  md.block.ruler.before('table', 'budget', budgetRule);
  md.inline.ruler.before('text', 'budget', inlineBudgetRule);
  md.inline.ruler.before('text', 'unclosed_brackets', unclosedBracketsRule);
  md.enable(['table', 'strikethrough']);
  // Escapes and entities stay separate `text_special` tokens, so the parser can tell `\[dropdown: x]`
  // (written as text on purpose) from `[dropdown: x]` (imitating an element). The walker joins text itself.
  md.core.ruler.disable('text_join');
  // markdown-it silently turns `[x](javascript:…)` into text; we refuse it with VALIDATION_ERROR instead, so every
  // destination reaches the walker, which checks it.
  md.validateLink = () => true;
  plugins?.(md);
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
export function inlineChildren(parsers: BodyParsers, token: Token, env: Record<string, unknown>): Token[] {
  if (!parsed.has(token)) {
    token.children = [];
    parsers.block.inline.parse(token.content, parsers.inline, env, token.children);
    // The text after the last rule ran (markdown-it pushes it at the end) is charged here.
    chargeInline(env as Record<symbol, unknown>, token.children);
    parsed.add(token);
  }
  return token.children ?? [];
}

/** The parsers of one construct registry: its block parser, and its parser of inline content. */
export interface BodyParsers {
  readonly block: MarkdownIt;
  /**
   * The same dialect for inline content, following inlines at most LIMITS.inlineNesting deep: markdown-it's
   * cost on unclosed brackets (`![![![…`) grows with its nesting limit, and no Slate inline nests that deep.
   */
  readonly inline: MarkdownIt;
}

const parsersOf = new WeakMap<object, BodyParsers>();

/** The parsers with a registry's construct rules, made on the registry's first parse and kept with it. */
export function bodyParsers(registry: { applyPlugins(md: MarkdownIt): void }): BodyParsers {
  let parsers = parsersOf.get(registry);
  if (parsers === undefined) {
    const plugins = (md: MarkdownIt) => registry.applyPlugins(md);
    parsers = { block: createParser(undefined, plugins), inline: createParser(LIMITS.inlineNesting, plugins) };
    parsersOf.set(registry, parsers);
  }
  return parsers;
}

let shared: MarkdownIt | undefined;

/** The dialect without the constructs' rules: what normalizes a link or unescapes text as bodies are read. */
export function parser(): MarkdownIt {
  shared ??= createParser();
  return shared;
}
