/** Errors that point at a place in the caller's input: a markdown line, or an entry path. */
import { validationError, WaymarkError } from '../errors.js';
import { quote } from '../quote.js';

/** A line of the markdown being converted, 1-based, with its text for the error details. */
export interface SourceLine {
  line: number;
  text: string;
}

export type Place = SourceLine | string;

function pathOf(at: Place): string {
  return typeof at === 'string' ? at : `bit_body line ${at.line}`;
}

/** UNSUPPORTED_MARKDOWN_CONSTRUCT with `details.line` and `details.text` (CONTRACT.md, "Error codes"). */
export function unsupported(at: SourceLine, message: string): WaymarkError {
  return new WaymarkError('UNSUPPORTED_MARKDOWN_CONSTRUCT', `line ${at.line}: ${message}`, { line: at.line, text: quote(at.text) });
}

export function invalid(at: Place, message: string): WaymarkError {
  return validationError([{ path: pathOf(at), message }]);
}

/** A connection or citation naming a file that the folder does not have (a body read with TargetNames: ../targets.ts). */
export function targetNotFound(code: 'BIT_NOT_FOUND' | 'REFERENCE_NOT_FOUND', at: SourceLine, name: string): WaymarkError {
  const what = code === 'BIT_NOT_FOUND' ? 'bit' : 'reference';
  return new WaymarkError(code, `line ${at.line}: '${quote(name)}' names no ${what} file of the folder; name the file as it is called, relative to this one`, {
    line: at.line,
    text: quote(at.text),
    name: quote(name),
  });
}
