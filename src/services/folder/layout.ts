/**
 * Where a folder keeps what (issue 30): one markdown file per bit under bits/, one per reference under references/
 * (its JSON where its content does not come back the same from markdown), one YAML file per flow under flows/, and
 * the manifest at the top. File names come from titles: stable (the same title gives the same name), unique (titles
 * that make the same name each take a piece of their id), and safe on every file system (lowercase ASCII letters,
 * digits and `-`; no name Windows reserves; short).
 */
import { posix } from 'node:path';

export const MANIFEST_FILE = 'waymark.json';
export const FORMAT_NAME = 'waymark-folder';
export const FORMAT_VERSION = 1;

export type FileKind = 'bit' | 'reference' | 'flow';

export const FOLDERS: Record<FileKind, string> = { bit: 'bits', reference: 'references', flow: 'flows' };

/** The extensions each folder holds. */
export const EXTENSIONS: Record<FileKind, readonly string[]> = { bit: ['.md'], reference: ['.md', '.json'], flow: ['.yaml'] };

/** Longest name made from a title, before the extension and any id piece. */
const STEM_CHARS = 60;

/** Device names Windows refuses as a file name with any extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** A title as a file name's stem: accents dropped, anything but letters and digits a single `-`. */
export function stemOf(title: string): string {
  const ascii = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  let stem = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (stem.length > STEM_CHARS) stem = stem.slice(0, STEM_CHARS).replace(/-+$/, '');
  if (stem === '') stem = 'untitled';
  return RESERVED.test(stem) ? `${stem}-` : stem;
}

export interface Named {
  id: string;
  title: string;
  /** The extension its file takes (a reference: `.md` or `.json`). */
  extension: string;
}

/**
 * The paths of one kind's records in the folder, by id. Records whose titles make the same stem all take the first
 * eight characters of their id, so a name never depends on which of them came first.
 */
export function namePaths(kind: FileKind, records: readonly Named[]): Map<string, string> {
  const byStem = new Map<string, Named[]>();
  for (const record of records) {
    const stem = stemOf(record.title);
    byStem.set(stem, [...(byStem.get(stem) ?? []), record]);
  }
  const paths = new Map<string, string>();
  for (const [stem, group] of byStem) {
    for (const record of group) {
      const name = group.length === 1 ? stem : `${stem}-${record.id.slice(0, 8).toLowerCase()}`;
      paths.set(record.id, `${FOLDERS[kind]}/${name}${record.extension}`);
    }
  }
  return paths;
}

/** How the file at `from` names the file at `to`: relative to its own folder (`welcome.md`, `../references/policy.md`). */
export function relativeName(from: string, to: string): string {
  return posix.relative(posix.dirname(from), to);
}

/** The folder path a name written in the file at `from` stands for, or undefined when it leaves the folder. */
export function resolveName(from: string, name: string): string | undefined {
  if (name.startsWith('/')) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(from), name));
  return joined.startsWith('../') || joined === '..' ? undefined : joined;
}
