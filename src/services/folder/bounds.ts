/**
 * A folder's bounds (LIMITS: folderFiles, folderFileBytes, folderBytes, folderPathChars) and the paths it may hold,
 * stated once for the command line, which checks them on the file system before it reads a file, and for the REST
 * and MCP doors, whose files come inline.
 */
import { WaymarkError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import type { FolderProblem } from './problems.js';

type Bound = 'folderFiles' | 'folderFileBytes' | 'folderBytes' | 'exportInlineBytes';

const WHAT: Record<Bound, string> = { folderFiles: 'files', folderFileBytes: 'bytes in one file', folderBytes: 'bytes in all', exportInlineBytes: 'bytes answered inline (waymark export writes a folder of any size)' };

export function folderTooLarge(limit: Bound, file?: string): WaymarkError {
  const where = file === undefined ? 'The folder' : `${file}`;
  return new WaymarkError('FOLDER_TOO_LARGE', `${where} is over the bound of ${LIMITS[limit]} ${WHAT[limit]}; nothing was read or written. Export or import a scope or a flow at a time.`, {
    limit,
    max: LIMITS[limit],
    ...(file === undefined ? {} : { file }),
  });
}

/** The inline files' bounds, before any is read. */
export function assertFolderBounds(files: ReadonlyArray<{ path: string; content: string }>): void {
  if (files.length > LIMITS.folderFiles) throw folderTooLarge('folderFiles');
  let total = 0;
  for (const file of files) {
    // UTF-8 bytes: at least one per UTF-16 unit, at most three.
    const bytes = file.content.length * 3 <= LIMITS.folderFileBytes ? file.content.length : Buffer.byteLength(file.content, 'utf8');
    if (bytes > LIMITS.folderFileBytes) throw folderTooLarge('folderFileBytes', file.path.slice(0, LIMITS.folderPathChars));
    total += bytes;
    if (total > LIMITS.folderBytes) throw folderTooLarge('folderBytes');
  }
}

/**
 * A path as a folder holds one: relative, `/` between segments, no `.` or `..` segment, no backslash, no control
 * character, no segment a file system would refuse or take for another; null when it is one, else the problem.
 */
export function pathProblem(path: string): FolderProblem | null {
  const refuse = (message: string): FolderProblem => ({ file: path.slice(0, LIMITS.folderPathChars), line: null, code: 'VALIDATION_ERROR', message });
  if (path.length === 0 || path.length > LIMITS.folderPathChars) return refuse(`a path is 1 to ${LIMITS.folderPathChars} characters`);
  if ([...path].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f') || /[\\:*?"<>|]/.test(path)) return refuse('a path holds no control character, backslash or any of : * ? " < > |');
  if (path.startsWith('/')) return refuse('a path is relative to the folder');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return refuse('a path has no empty, . or .. segment: nothing outside the folder is read');
    if (segment.endsWith('.') || segment.endsWith(' ')) return refuse('a path segment does not end with a dot or a space (Windows drops them)');
  }
  return null;
}

/** Paths that are one file on a case-insensitive file system (macOS, Windows): each later one collides. */
export function caseCollisions(paths: readonly string[]): FolderProblem[] {
  const seen = new Map<string, string>();
  const problems: FolderProblem[] = [];
  for (const path of [...paths].sort()) {
    const key = path.normalize('NFC').toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) problems.push({ file: path, line: null, code: 'VALIDATION_ERROR', message: `collides with ${first}: the two are one file where case is not told apart` });
    else seen.set(key, path);
  }
  return problems;
}
