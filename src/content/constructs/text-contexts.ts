/** The text contexts block constructs write their inline content in (markdown/escape.ts). */
import type { TextContext } from '../markdown/escape.js';

export const BLOCK_TEXT: TextContext = { inLink: false, inTable: false, singleLine: false };
export const SINGLE_LINE: TextContext = { inLink: false, inTable: false, singleLine: true };
export const CELL_TEXT: TextContext = { inLink: false, inTable: true, singleLine: true };
/** A label on an element or connection line: link text on one line. */
export const LABEL_TEXT: TextContext = { inLink: true, inTable: false, singleLine: true };
