/** text-area: free text with optional length limits and a pattern. */
import { RE2JS } from 're2js';
import { z } from 'zod';
import type { ValidationIssue } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { accepted, integerOrText, numberProp, refused, type ElementDefinition } from './types.js';

const onOff = z.enum(['on', 'off']);

/**
 * validationPattern is matched like an HTML `pattern` attribute: against the whole answer. The server runs
 * it with RE2 (re2js), in time linear in the answer: JavaScript's backtracking engine let `(a+)+` against
 * 'a'×30 + 'b' hold the event loop for seconds, doubling with each character (issue 16). A pattern must also
 * compile as JavaScript with the `u` flag, so that the app (a browser's `pattern`) can use the same text:
 * it is accepted only where both engines accept it. They still differ in corners a pattern rarely relies on:
 * in RE2 `\s` is ASCII whitespace and `.` refuses only `\n`.
 */
export type CompiledPattern = { ok: true; matches(text: string): boolean } | { ok: false; reason: string };

/** Compiled patterns by text: answers to one step repeat the same few (bounded, oldest dropped first). */
const compiled = new Map<string, CompiledPattern>();
const COMPILED_KEPT = 64;

export function compilePattern(pattern: string): CompiledPattern {
  const known = compiled.get(pattern);
  if (known) return known;
  const result = compileBoth(pattern);
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, result);
  return result;
}

function compileBoth(pattern: string): CompiledPattern {
  if (pattern.length > LIMITS.validationPatternLength) return { ok: false, reason: `is longer than ${LIMITS.validationPatternLength} characters` };
  try {
    new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return { ok: false, reason: 'is not a valid regular expression (JavaScript, u flag)' };
  }
  try {
    // matches() anchors at both ends, as the HTML attribute's `^(?:…)$` does.
    const re = RE2JS.compile(`(?:${pattern})`);
    return { ok: true, matches: (text) => re.matches(text) };
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return {
      ok: false,
      reason: `is not supported: patterns run on RE2, which has no lookaround, backreferences or \\u escapes (write \\xHH or the character itself)${detail}`,
    };
  }
}

/** Characters (code points) of a string, counted without building an array of them. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

export const textArea: ElementDefinition = {
  type: 'text-area',
  stepType: 'TextArea',
  summary: 'free text with optional length limits and a pattern',
  hasLabel: true,
  placement: 'block',
  answered: 'element',
  control: 'text',
  props: z.strictObject({
    autoComplete: onOff.optional(),
    autoCorrect: z.union([onOff, z.boolean()], { error: "must be 'on', 'off' or a boolean" }).optional(),
    label: z.string().optional(),
    length: integerOrText(1, 5000).optional(),
    lines: integerOrText(1, 100).optional(),
    maxLength: integerOrText(1, 5000).optional(),
    minLength: integerOrText(0, 5000).optional(),
    placeholder: z.string().optional(),
    required: z.boolean().optional(),
    spellCheck: z.boolean().optional(),
    validationMessage: z.string().optional(),
    validationMode: z.enum(['enforced', 'warning']).optional(),
    validationPattern: z.string().max(LIMITS.validationPatternLength).optional(),
    wrap: z.enum(['soft', 'hard']).optional(),
  }),
  urlProps: [],
  crossCheck(props) {
    const issues: ValidationIssue[] = [];
    const min = numberProp(props, 'minLength');
    const max = numberProp(props, 'maxLength');
    if (min !== undefined && max !== undefined && min > max) {
      issues.push({ path: 'minLength', message: `minLength (${min}) is greater than maxLength (${max})` });
    }
    if (typeof props.validationPattern === 'string') {
      const pattern = compilePattern(props.validationPattern);
      if (!pattern.ok) issues.push({ path: 'validationPattern', message: pattern.reason });
    }
    return issues;
  },
  answer: z.string(),
  answerRule: `at most ${LIMITS.textAnswerLength} characters; minLength, maxLength and validationPattern (whole answer, run by RE2: no lookaround or backreferences) apply; validationMode warning accepts with warnings[], enforced (the default) refuses`,
  checkAnswer(value, element) {
    if (typeof value !== 'string') return refused('must be a string');
    const length = codePoints(value);
    // A hard bound whatever the mode: the pattern's cost grows with the answer.
    if (length > LIMITS.textAnswerLength) return refused(`must be at most ${LIMITS.textAnswerLength} characters (got ${length})`);
    const props = element.props;
    const problems: string[] = [];
    const min = numberProp(props, 'minLength');
    const max = numberProp(props, 'maxLength');
    // The author's validationMessage speaks for every rule of the answer they set (issue 28: a length refusal showed
    // the server's words instead), with the rule itself after it for whoever must fix the answer.
    const custom = typeof props.validationMessage === 'string' && props.validationMessage.trim() !== '' ? props.validationMessage.trim() : undefined;
    const said = (rule: string) => (custom ? `${custom} (${rule}, got ${length})` : `must be ${rule} (got ${length})`);
    if (min !== undefined && length < min) problems.push(said(`at least ${min} characters`));
    if (max !== undefined && length > max) problems.push(said(`at most ${max} characters`));
    // The pattern runs only on an answer of a length the element accepts: nothing is gained by running it on one
    // that is refused already.
    if (typeof props.validationPattern === 'string' && problems.length === 0) {
      const pattern = compilePattern(props.validationPattern);
      if (!pattern.ok) {
        // A pattern stored before RE2 checked them: the answer cannot be checked, so it is not taken as valid.
        problems.push(`cannot be checked: the element's validationPattern ${pattern.reason}; an author must change the pattern`);
      } else if (!pattern.matches(value)) {
        problems.push(custom ?? `must match the pattern ${props.validationPattern}`);
      }
    }
    if (problems.length === 0) return accepted(value);
    if (props.validationMode === 'warning') return accepted(value, problems);
    return { ok: false, issues: problems.map((message) => ({ path: 'value', message })) };
  },
  formQuestion(props, title) {
    const min = numberProp(props, 'minLength');
    const max = numberProp(props, 'maxLength');
    const rule = typeof props.validationMessage === 'string' && props.validationMessage !== '' ? props.validationMessage : undefined;
    return { kind: 'text', schema: { type: 'string', title, ...(min !== undefined ? { minLength: min } : {}), ...(max !== undefined ? { maxLength: max } : {}), ...(rule ? { description: rule } : {}) } };
  },
};
