/**
 * What is wrong with a folder, file by file and line by line (issue 30): each problem carries the error code the
 * tool would answer for the same input, so a folder is held to the tools' rules and an agent can branch on them.
 * The import collects every file's problems before it writes anything, and refuses with all of them at once.
 */
import { errorBody, WaymarkError, type ErrorCode } from '../../errors.js';

export interface FolderProblem {
  /** The file's path in the folder; `.` for the folder itself. */
  file: string;
  /** 1-based, in the file as written; null where no one line is to blame (a missing file, a file too large). */
  line: number | null;
  code: ErrorCode;
  message: string;
}

/** Problems are listed by file, then line, so two runs over the same folder list them alike. */
export function sortProblems(problems: readonly FolderProblem[]): FolderProblem[] {
  return [...problems].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
}

/** At most this many problems are listed: a folder of broken files says what is wrong with the first of them. */
const LISTED = 100;

export function importInvalid(problems: readonly FolderProblem[]): WaymarkError {
  const sorted = sortProblems(problems);
  const first = sorted[0];
  const where = first ? `${first.file}${first.line === null ? '' : `:${first.line}`}: ${first.message}` : '';
  return new WaymarkError('IMPORT_INVALID', `The folder has ${sorted.length} problem(s); nothing was written. First: ${where}`, {
    problems: sorted.slice(0, LISTED),
    count: sorted.length,
  });
}

/**
 * A tool's refusal of one file's content, as that file's problem: its code and message, and its line (the
 * converter's `details.line`, or a line found in its issue paths) moved by where the body starts in the file.
 */
export function problemOf(file: string, error: unknown, lineOf: (error: WaymarkError) => number | null): FolderProblem {
  if (!(error instanceof WaymarkError)) {
    const body = errorBody(error);
    return { file, line: null, code: body.code, message: body.message };
  }
  return { file, line: lineOf(error), code: error.code, message: error.message };
}
