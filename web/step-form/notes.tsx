/** What stands under a field: its rules (before answering), then its errors and warnings (after). */
import { sentences, type FieldCheck } from './rules.js';

export const controlId = (id: string) => `f-${id}`;
export const notesId = (id: string) => `n-${id}`;

export function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <span class="req" aria-hidden="true">
      {' '}*
    </span>
  ) : null;
}

export function Notes({ id, rules, check }: { id: string; rules: string[]; check: FieldCheck }) {
  if (rules.length === 0 && check.errors.length === 0 && check.warnings.length === 0) return null;
  return (
    <div id={notesId(id)} class="notes">
      {rules.length > 0 && <p class="rules">{sentences(rules)}</p>}
      {check.errors.map((e, i) => (
        <p key={`e${i}`} class="field-error">
          <span class="icon" aria-hidden="true">✖ </span>
          {e}
        </p>
      ))}
      {check.warnings.map((w, i) => (
        <p key={`w${i}`} class="field-warning">
          <span class="icon" aria-hidden="true">⚠ </span>
          Warning: {w}
        </p>
      ))}
    </div>
  );
}

/** aria-describedby and aria-invalid for a control whose notes are under it. */
export function describedBy(id: string, rules: string[], check: FieldCheck): Record<string, string | boolean | undefined> {
  const any = rules.length + check.errors.length + check.warnings.length > 0;
  return { 'aria-describedby': any ? notesId(id) : undefined, 'aria-invalid': check.errors.length > 0 ? true : undefined };
}
