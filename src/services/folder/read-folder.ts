/**
 * A folder read whole before anything is written (issue 30): every file checked with the tools' rules, each
 * problem named by file and line, all of them reported at once. Nothing here touches the store: a folder is valid
 * or not on its own; only which records its files are, and so what changes, needs the store (import.service.ts).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { TargetNames } from '../../content/index.js';
import { manifestShape, type Manifest } from './format.js';
import { readBitFile, readBitHeader, type ReadBit } from './bit-file.js';
import { caseCollisions, pathProblem } from './bounds.js';
import { readFlowFile, type ReadFlow } from './flow-file.js';
import { idOfPath } from './ids.js';
import { EXTENSIONS, FOLDERS, MANIFEST_FILE, resolveName, type FileKind } from './layout.js';
import { importInvalid, type FolderProblem } from './problems.js';
import { readReferenceFile, type ReadReference } from './reference-file.js';
import type { FolderFile } from './shapes.js';
import { YamlText } from './yaml-text.js';

/** A record of the folder: its file, the id the folder gives it (its own, else its path's), and what it says. */
export interface FolderRecord<T> {
  path: string;
  folderId: string;
  read: T;
}

export interface ReadFolder {
  contents: Manifest['contents'];
  bits: FolderRecord<ReadBit>[];
  references: FolderRecord<ReadReference>[];
  flows: Array<FolderRecord<ReadFlow> & { startFolderId: string }>;
}

/** What kind of record a path holds, or why it holds none the import can read; undefined for a file it skips. */
function kindOfPath(path: string): FileKind | FolderProblem | undefined {
  const [top, ...rest] = path.split('/');
  const kind = (Object.keys(FOLDERS) as FileKind[]).find((k) => FOLDERS[k] === top);
  if (kind === undefined) return undefined;
  if (rest.length !== 1) return { file: path, line: null, code: 'VALIDATION_ERROR', message: `${top}/ holds its files directly, not in folders of its own` };
  if (!EXTENSIONS[kind].some((ext) => path.endsWith(ext))) {
    return { file: path, line: null, code: 'VALIDATION_ERROR', message: `${top}/ holds ${EXTENSIONS[kind].join(' or ')} files` };
  }
  return kind;
}

function readManifest(file: FolderFile | undefined, problems: FolderProblem[]): Manifest['contents'] {
  if (!file) {
    problems.push({ file: MANIFEST_FILE, line: null, code: 'VALIDATION_ERROR', message: `the folder has no ${MANIFEST_FILE}: export writes it; it names the format's version` });
    return 'all';
  }
  const parsed = YamlText.parse(MANIFEST_FILE, file.content, 1);
  if ('problems' in parsed) {
    problems.push(...parsed.problems);
    return 'all';
  }
  const checked = manifestShape.safeParse(parsed.value);
  if (!checked.success) {
    for (const issue of checked.error.issues) problems.push({ file: MANIFEST_FILE, line: parsed.yaml.lineOf(issue.path), code: 'VALIDATION_ERROR', message: `${issue.path.join('.') || 'manifest'}: ${issue.message}` });
    return 'all';
  }
  return checked.data.contents;
}

/** Files of one kind whose folder ids repeat: each later one collides with the first. */
function idCollisions<T>(records: ReadonlyArray<FolderRecord<T>>, lineOfId: (path: string) => number | null): FolderProblem[] {
  const seen = new Map<string, string>();
  const problems: FolderProblem[] = [];
  for (const record of records) {
    const first = seen.get(record.folderId);
    if (first !== undefined) problems.push({ file: record.path, line: lineOfId(record.path), code: 'VALIDATION_ERROR', message: `id ${record.folderId} is ${first}'s too: each record has one file` });
    else seen.set(record.folderId, record.path);
  }
  return problems;
}

/**
 * Reads and checks every file; IMPORT_INVALID with all the problems found, else the folder's records. The event
 * loop gets a turn between files: a folder of thousands of bodies is converted here, on the thread that serves calls.
 */
export async function readFolder(files: readonly FolderFile[]): Promise<ReadFolder> {
  const problems: FolderProblem[] = [];
  // A checkout with Windows line endings (git's autocrlf) is the same folder: its lines are read as written.
  const sorted = files.map((f) => ({ path: f.path, content: f.content.replace(/\r\n/g, '\n') })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const byKind: Record<FileKind, FolderFile[]> = { bit: [], reference: [], flow: [] };
  let manifest: FolderFile | undefined;
  for (const file of sorted) {
    const bad = pathProblem(file.path);
    if (bad) {
      problems.push(bad);
      continue;
    }
    if (file.path === MANIFEST_FILE) {
      manifest = file;
      continue;
    }
    const kind = kindOfPath(file.path);
    if (kind === undefined) continue;
    if (typeof kind === 'object') problems.push(kind);
    else byKind[kind].push(file);
  }
  problems.push(...caseCollisions(sorted.map((f) => f.path)));
  const contents = readManifest(manifest, problems);

  // References first: they name nothing, and bits cite them.
  const references: FolderRecord<ReadReference>[] = [];
  for (const file of byKind.reference) {
    await yieldToEventLoop();
    const read = readReferenceFile(file.path, file.content, idOfPath(file.path));
    if ('problems' in read) problems.push(...read.problems);
    else references.push({ path: file.path, folderId: read.id ?? idOfPath(file.path), read });
  }
  // Every bit's id before any body, since bodies name each other.
  const bitIds = new Map<string, string>();
  const idLines = new Map<string, number | null>();
  for (const file of byKind.bit) {
    const header = readBitHeader(file.path, file.content);
    // A file whose front matter is refused is still a file: names of it in other files are not problems too.
    if ('problems' in header) {
      bitIds.set(file.path, idOfPath(file.path));
      continue;
    }
    bitIds.set(file.path, header.front.id ?? idOfPath(file.path));
    idLines.set(file.path, header.front.id === undefined ? null : header.yaml.lineOf(['id']));
  }
  const referenceIds = new Map(references.map((r) => [r.path, r.folderId]));
  const bits: FolderRecord<ReadBit>[] = [];
  for (const file of byKind.bit) {
    const folderId = bitIds.get(file.path) ?? idOfPath(file.path);
    const names: TargetNames = {
      bit: (name) => lookUp(bitIds, file.path, name),
      reference: (name) => lookUp(referenceIds, file.path, name),
    };
    await yieldToEventLoop();
    const read = readBitFile(file.path, file.content, folderId, names);
    if ('problems' in read) problems.push(...read.problems);
    else bits.push({ path: file.path, folderId, read });
  }
  const flows: ReadFolder['flows'] = [];
  for (const file of byKind.flow) {
    const read = readFlowFile(file.path, file.content);
    if ('problems' in read) {
      problems.push(...read.problems);
      continue;
    }
    const startFolderId = lookUp(bitIds, file.path, read.start_bit);
    if (startFolderId === undefined) {
      problems.push({ file: file.path, line: read.startLine, code: 'FLOW_START_BIT_INVALID', message: `start_bit '${read.start_bit}' names no bit file of the folder; name it relative to this file (../bits/<name>.md)` });
      continue;
    }
    flows.push({ path: file.path, folderId: read.id ?? idOfPath(file.path), read, startFolderId });
  }
  problems.push(...idCollisions(bits, (path) => idLines.get(path) ?? null), ...idCollisions(references, () => 2), ...idCollisions(flows, () => 1));
  if (problems.length > 0) throw importInvalid(problems);
  return { contents, bits, references, flows };
}

/** The folder id of the file a name written in `from` stands for. */
function lookUp(ids: ReadonlyMap<string, string>, from: string, name: string): string | undefined {
  const path = resolveName(from, name);
  return path === undefined ? undefined : ids.get(path);
}
