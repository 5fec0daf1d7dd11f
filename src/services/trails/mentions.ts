/**
 * `@` mentions in a comment (issue 27, "Talking on a step"): `@` then a person's name or email. Names may have
 * spaces, so each `@` takes the longest name or email of a person that follows it, case-insensitively; two people
 * of the same name are both mentioned (their email tells them apart). Pure: the people come from the caller,
 * which looks up only those `mentionLeads` may name.
 */
import { LIMITS } from '../../limits/index.js';

export interface Mentionable {
  id: string;
  name: string;
  /** Lower-cased, as principals.email is stored. */
  email: string | null;
}

/** What may stand before a mention's `@`: not a letter, digit or email character, so `ann@example.com` in prose is no mention. */
const BEFORE_MENTION = /[\p{L}\p{N}._%+-]$/u;
/** A mention ends where a word would: not before a letter or digit, nor before `.`, `-`, `_`, `+` or `@` that join one (`@bob@x.com.au` is not `bob@x.com`). */
const AFTER_MENTION = /^(?:[\p{L}\p{N}]|[._+@-][\p{L}\p{N}])/u;
/** The letters and digits a name starts with, right after the `@`: what the lookup narrows names by. */
const LEAD = /^[\p{L}\p{N}]+/u;
/** An email right after the `@`, without the punctuation that ends a sentence. */
const EMAIL = /^[^\s@]+@[^\s@]+?(?=[.,;:!?)\]}'"]*(?:\s|$))/u;

/** The places of the `@`s that may start a mention, in order. */
function mentionStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    if (!BEFORE_MENTION.test(text.slice(Math.max(0, i - 1), i))) starts.push(i);
  }
  return starts;
}

/**
 * What to look people up by: the lower-cased letters and digits after each `@` (a name that follows it starts
 * with them) and each email written after one; at most LIMITS.mentionsPerComment distinct `@` words.
 */
export function mentionLeads(text: string): { leads: string[]; emails: string[] } {
  const leads = new Set<string>();
  const emails = new Set<string>();
  const words = new Set<string>();
  for (const at of mentionStarts(text)) {
    const rest = text.slice(at + 1);
    const word = rest.split(/\s/u, 1)[0]?.toLowerCase() ?? '';
    if (word === '') continue;
    if (!words.has(word) && words.size >= LIMITS.mentionsPerComment) break;
    words.add(word);
    const lead = LEAD.exec(rest)?.[0];
    if (lead) leads.add(lead.toLowerCase());
    const email = EMAIL.exec(rest)?.[0];
    if (email) emails.add(email.toLowerCase());
  }
  return { leads: [...leads], emails: [...emails] };
}

/** Whether `rest` starts with `written`, case-insensitively, ending where a word ends. */
function startsWithMention(rest: string, written: string): boolean {
  if (written === '' || rest.length < written.length) return false;
  return rest.slice(0, written.length).toLowerCase() === written.toLowerCase() && !AFTER_MENTION.test(rest.slice(written.length));
}

/** The ids of the people (those mentionLeads had looked up) the text mentions, in the order first mentioned, each once. */
export function findMentions(text: string, people: readonly Mentionable[]): string[] {
  const found = new Set<string>();
  for (const at of mentionStarts(text)) {
    const rest = text.slice(at + 1);
    let longest = 0;
    let ids: string[] = [];
    for (const person of people) {
      const length = Math.max(
        startsWithMention(rest, person.name) ? person.name.length : 0,
        person.email !== null && startsWithMention(rest, person.email) ? person.email.length : 0,
      );
      if (length === 0 || length < longest) continue;
      if (length > longest) ids = [];
      longest = length;
      ids.push(person.id);
    }
    for (const id of ids) found.add(id);
  }
  return [...found];
}
