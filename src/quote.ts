/**
 * Caller input as an error message quotes it: at most LIMITS.quotedInput characters, cut with an ellipsis.
 * An error that echoed its input whole (in its message and its details, each sent twice) turned a 20 MB id
 * into an 80 MB answer (issue 16); every message that repeats what the caller sent goes through here.
 */
import { LIMITS } from './limits/index.js';

export function quote(text: string, max: number = LIMITS.quotedInput): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never split a surrogate pair: half of one is not text either store or JSON encoder keeps.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
