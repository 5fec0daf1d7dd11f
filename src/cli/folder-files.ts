/**
 * A folder on disk for `waymark export` and `waymark import` (issue 30). Reading is bounded before anything is
 * read: files are counted while the folder is listed (the listing stops past LIMITS.folderFiles), each file's size
 * is checked on its open handle before its bytes are read, and no symbolic link is followed (one is a problem of
 * the folder, named; a file is opened with O_NOFOLLOW, so a link put in its place after listing is not read
 * either). Hidden entries (`.git`) are skipped. Writing replaces the files of the folders export owns (bits/,
 * flows/, references/) and the manifest, and leaves everything else (a README, .git) alone.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LIMITS } from '../limits/index.js';
import { folderTooLarge } from '../services/folder/bounds.js';
import { FOLDERS, MANIFEST_FILE } from '../services/folder/layout.js';
import { importInvalid, type FolderProblem } from '../services/folder/problems.js';
import type { FolderFile } from '../services/folder/shapes.js';

/** Folders nested deeper than this are not a folder export wrote. */
const MAX_DEPTH = 4;

async function list(root: string): Promise<{ paths: string[]; problems: FolderProblem[] }> {
  const paths: string[] = [];
  const problems: FolderProblem[] = [];
  const visit = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink()) problems.push({ file: path, line: null, code: 'VALIDATION_ERROR', message: 'a symbolic link: links are not followed (nothing outside the folder is read); put the file itself here' });
      else if (entry.isDirectory()) {
        if (depth >= MAX_DEPTH) problems.push({ file: path, line: null, code: 'VALIDATION_ERROR', message: `folders nested more than ${MAX_DEPTH} deep are not read` });
        else await visit(path, depth + 1);
      } else if (entry.isFile()) {
        paths.push(path);
        if (paths.length > LIMITS.folderFiles) throw folderTooLarge('folderFiles');
      } else problems.push({ file: path, line: null, code: 'VALIDATION_ERROR', message: 'not a regular file' });
    }
  };
  await visit('', 0);
  return { paths, problems };
}

/** The folder's files, every bound checked before the bytes it bounds are read. */
export async function readFolderFiles(dir: string): Promise<FolderFile[]> {
  // The folder named is followed if it is a link (that is what was asked for); nothing inside it is.
  const top = await stat(dir).catch(() => undefined);
  if (!top?.isDirectory()) throw new Error(`${dir} is not a folder`);
  const { paths, problems } = await list(dir);
  const files: FolderFile[] = [];
  let total = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const path of paths) {
    const handle = await open(join(dir, path), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const { size } = await handle.stat();
      if (size > LIMITS.folderFileBytes) throw folderTooLarge('folderFileBytes', path);
      total += size;
      if (total > LIMITS.folderBytes) throw folderTooLarge('folderBytes');
      // One byte more than the size read: a file grown since its size was read is refused, not read on.
      const buffer = Buffer.alloc(size + 1);
      const { bytesRead } = await handle.read(buffer, 0, size + 1, 0);
      if (bytesRead > size) throw folderTooLarge('folderFileBytes', path);
      try {
        files.push({ path, content: decoder.decode(buffer.subarray(0, bytesRead)) });
      } catch {
        problems.push({ file: path, line: null, code: 'VALIDATION_ERROR', message: 'not UTF-8 text' });
      }
    } finally {
      await handle.close();
    }
  }
  if (problems.length > 0) throw importInvalid(problems);
  return files;
}

/** Writes a file without following a link in its place. */
async function writeFile(path: string, content: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Writes the export into `dir`; files of export's folders that it no longer holds are removed. Answers how many were removed. */
export async function writeFolderFiles(dir: string, files: readonly FolderFile[]): Promise<number> {
  await mkdir(dir, { recursive: true });
  const written = new Set(files.map((f) => f.path));
  let removed = 0;
  for (const folder of Object.values(FOLDERS)) {
    const at = join(dir, folder);
    const stat = await lstat(at).catch(() => undefined);
    if (stat?.isSymbolicLink() || (stat && !stat.isDirectory())) throw new Error(`${at} is not a folder (a link is not followed)`);
    if (!stat) {
      await mkdir(at);
      continue;
    }
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isFile() && !entry.name.startsWith('.') && !written.has(path)) {
        await unlink(join(dir, path));
        removed++;
      }
    }
  }
  for (const file of files) {
    if (file.path !== MANIFEST_FILE && !Object.values(FOLDERS).includes(file.path.split('/')[0]!)) throw new Error(`export wrote an unexpected path ${file.path}`);
    await writeFile(join(dir, file.path), file.content);
  }
  return removed;
}
