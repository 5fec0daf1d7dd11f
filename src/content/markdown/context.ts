/** What the block walker and the inline builder share while converting one markdown body. */
import type { Token } from 'markdown-it';
import { nodeScheme } from '../../brand.js';
import type { BodyIndex } from '../body-index.js';
import type { SourceLine } from '../problems.js';
import type { ElementResolver } from '../resolve.js';
import type { ConnectionNode } from '../slate.js';
import { OutputBudget } from '../budget.js';
import type { ConstructRegistry } from '../constructs/registry.js';
import { blockStream, bodyParsers, budgetEnv, inlineChildren } from './md.js';
import { TARGET_NAMES, type TargetNames } from '../targets.js';

export interface PendingConnection {
  node: ConnectionNode;
  when: { ref: string; values: string[] } | null;
  at: SourceLine;
}

/** A source line whose text is looked up only when an error reports it. */
class LazyLine implements SourceLine {
  constructor(
    readonly line: number,
    private readonly lines: () => string[],
  ) {}

  get text(): string {
    return this.lines()[this.line - 1] ?? '';
  }
}

export class ParseContext {
  /** `waymark-node:` with the configured brand (CONTRACT.md, "Brand"). */
  readonly anchorPrefix = `${nodeScheme}:`;
  readonly connections: PendingConnection[] = [];
  private lines: string[] | undefined;

  /** markdown-it's env of the block parse: the link reference definitions that inline parsing resolves. */
  readonly env: Record<string | symbol, unknown> = {};

  /** What the body being built may still take: block tokens are charged as they are made, inlines as they are built. */
  readonly budget = new OutputBudget();

  constructor(
    private readonly markdown: string,
    readonly resolver: ElementResolver,
    readonly previous: BodyIndex,
    /** The constructs the body is read with. */
    readonly constructs: ConstructRegistry,
    /** Where the block tokens are cut into runs (blockStream's default unless a test moves it). */
    private readonly runTokens?: number,
    /** Connection targets and citations are names of a folder's files (../targets.ts), read through these. */
    readonly names?: TargetNames,
  ) {
    budgetEnv(this.env, this.budget);
    if (names) this.env[TARGET_NAMES] = true;
  }

  /**
   * The block tokens of the body, handed to `take` a run of whole top-level blocks at a time as they are
   * parsed (blockStream); their inline content is parsed by `inline` as it is reached.
   */
  blockTokens(take: (tokens: Token[]) => void): void {
    blockStream(bodyParsers(this.constructs).block, this.markdown, this.env, take, this.runTokens);
  }

  /** The inline children of an `inline` block token, parsed on first use. */
  inline(token: Token): Token[] {
    return inlineChildren(bodyParsers(this.constructs), token, this.env);
  }

  /** A 1-based line with its text, for error details (the source is split only when an error needs it). */
  at(line: number): SourceLine {
    return new LazyLine(line, this.sourceLines);
  }

  private readonly sourceLines = (): string[] => {
    this.lines ??= this.markdown.split('\n');
    return this.lines;
  };
}
