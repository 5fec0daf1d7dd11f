/**
 * YAML as a folder writes and reads it (issue 30), with maintained libraries: `yaml` writes and parses, keeping where
 * each value stands so a problem names its line; `@11ty/gray-matter` (the maintained fork) finds the front matter of
 * a markdown file. Written YAML is deterministic: keys in the order given, no folding of long lines (a one-word edit
 * is a one-line diff), multi-line text as a literal block.
 */
import matter from '@11ty/gray-matter';
import { LineCounter, parseDocument, stringify, type Document } from 'yaml';
import type { FolderProblem } from './problems.js';

export function writeYaml(value: Record<string, unknown>): string {
  return stringify(value, { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}

/** A markdown file with its front matter between `---` lines. */
export function writeFrontMatterFile(frontMatter: Record<string, unknown>, body: string): string {
  return `---\n${writeYaml(frontMatter)}---\n${body}`;
}

/** A YAML document read from a file, with the line each value was written on. */
export class YamlText {
  private constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    /** The file line of the text's first line. */
    private readonly firstLine: number,
  ) {}

  /** Parses YAML text that starts on `firstLine` of `file`; its errors are problems of that file. */
  static parse(file: string, text: string, firstLine: number): { yaml: YamlText; value: unknown } | { problems: FolderProblem[] } {
    const lines = new LineCounter();
    // Aliases are bounded (a "billion laughs" of nested aliases), keys unique, no custom tags: nothing runs.
    const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true, customTags: [] });
    if (doc.errors.length > 0) {
      return {
        problems: doc.errors.map((e) => ({ file, line: (e.linePos?.[0].line ?? 1) + firstLine - 1, code: 'VALIDATION_ERROR' as const, message: `not YAML: ${e.message.split('\n')[0]}` })),
      };
    }
    const yaml = new YamlText(doc, lines, firstLine);
    try {
      return { yaml, value: doc.toJS({ maxAliasCount: 100 }) };
    } catch (error) {
      return { problems: [{ file, line: firstLine, code: 'VALIDATION_ERROR', message: `not YAML: ${error instanceof Error ? error.message : String(error)}` }] };
    }
  }

  /** The file line of the value at `path`, or of the nearest value above it that was written. */
  lineOf(path: ReadonlyArray<PropertyKey>): number {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = this.doc.getIn(path.slice(0, depth) as Array<string | number>, true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return this.lines.linePos(node.range[0]).line + this.firstLine - 1;
    }
    return this.firstLine;
  }
}

export interface FrontMatterFile {
  /** The front matter's YAML text, which starts on file line 1 (the rest of the opening `---` line). */
  yaml: string;
  body: string;
  /** The file line the body starts on. */
  bodyLine: number;
}

/** Any front matter language but YAML is refused: gray-matter would read JSON or TOML after `---json`. */
const NOT_YAML = {
  parse(): never {
    throw new Error('front matter is YAML: write it between --- lines with nothing after the first ---');
  },
};

/** Splits a markdown file into its front matter and body; a problem when it has none or it is not YAML. */
export function splitFrontMatter(file: string, text: string): FrontMatterFile | FolderProblem {
  const missing: FolderProblem = { file, line: 1, code: 'VALIDATION_ERROR', message: 'the file starts with its front matter: a line ---, YAML, a line ---' };
  if (!text.startsWith('---\n') && !text.startsWith('---\r\n')) return missing;
  let raw: string | undefined;
  try {
    // Options are given, so gray-matter keeps no cache of the file; the YAML is parsed by the caller, with lines.
    const parsed = matter(text, {
      language: 'yaml',
      engines: {
        yaml: { parse: (s: string) => ((raw = s), {}) },
        json: NOT_YAML,
        toml: NOT_YAML,
        coffee: NOT_YAML,
        javascript: NOT_YAML,
      },
    });
    if (raw === undefined && parsed.matter === undefined) return missing;
    const prefix = text.length - parsed.content.length;
    const bodyLine = countLines(text, prefix) + 1;
    if (!text.slice(0, prefix).replace(/\r?\n$/, '').endsWith('---')) {
      return { file, line: 1, code: 'VALIDATION_ERROR', message: 'the front matter has no closing --- line' };
    }
    return { yaml: raw ?? parsed.matter ?? '', body: parsed.content, bodyLine };
  } catch (error) {
    return { file, line: 1, code: 'VALIDATION_ERROR', message: error instanceof Error ? error.message : String(error) };
  }
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
