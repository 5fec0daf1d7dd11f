/** What the block walker and the inline builder share while converting one markdown body. */
import { nodeScheme } from '../../config.js';
import type { BodyIndex } from '../body-index.js';
import type { SourceLine } from '../problems.js';
import type { ElementResolver } from '../resolve.js';
import type { ConnectionNode } from '../slate.js';

export interface PendingConnection {
  node: ConnectionNode;
  when: { ref: string; values: string[] } | null;
  at: SourceLine;
}

export class ParseContext {
  /** `waymark-node:` with the configured brand (CONTRACT.md, "Brand"). */
  readonly anchorPrefix = `${nodeScheme}:`;
  readonly connections: PendingConnection[] = [];
  private lines: string[] | undefined;

  constructor(
    private readonly markdown: string,
    readonly resolver: ElementResolver,
    readonly previous: BodyIndex,
  ) {}

  /** A 1-based line with its text, for error details (the source is split only when an error needs it). */
  at(line: number): SourceLine {
    const self = this;
    return {
      line,
      get text() {
        self.lines ??= self.markdown.split('\n');
        return self.lines[line - 1] ?? '';
      },
    };
  }
}
