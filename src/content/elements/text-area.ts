/** text-area: free text with optional length limits and a pattern. */
import { z } from 'zod';
import type { ValidationIssue } from '../../errors.js';
import { accepted, integerOrText, numberProp, refused, type ElementDefinition } from './types.js';

const onOff = z.enum(['on', 'off']);

/**
 * validationPattern is matched like an HTML `pattern` attribute: against the whole answer, with the `u` flag,
 * so the app and the server agree.
 */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}

export const textArea: ElementDefinition = {
  type: 'text-area',
  stepType: 'TextArea',
  summary: 'free text with optional length limits and a pattern',
  hasLabel: true,
  placement: 'block',
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
    validationPattern: z.string().optional(),
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
      try {
        compilePattern(props.validationPattern);
      } catch {
        issues.push({ path: 'validationPattern', message: 'is not a valid regular expression (JavaScript, u flag)' });
      }
    }
    return issues;
  },
  answer: z.string(),
  answerRule:
    'minLength, maxLength and validationPattern (whole answer) apply; validationMode warning accepts with warnings[], enforced (the default) refuses',
  checkAnswer(value, element) {
    if (typeof value !== 'string') return refused('must be a string');
    const props = element.props;
    const problems: string[] = [];
    const length = [...value].length;
    const min = numberProp(props, 'minLength');
    const max = numberProp(props, 'maxLength');
    if (min !== undefined && length < min) problems.push(`must be at least ${min} characters (got ${length})`);
    if (max !== undefined && length > max) problems.push(`must be at most ${max} characters (got ${length})`);
    if (typeof props.validationPattern === 'string' && !compilePattern(props.validationPattern).test(value)) {
      const custom = typeof props.validationMessage === 'string' && props.validationMessage !== '';
      problems.push(custom ? String(props.validationMessage) : `must match the pattern ${props.validationPattern}`);
    }
    if (problems.length === 0) return accepted(value);
    if (props.validationMode === 'warning') return accepted(value, problems);
    return { ok: false, issues: problems.map((message) => ({ path: 'value', message })) };
  },
};
