/**
 * Why an elicited step form was refused, in the person's words (issue 28): each field by the label the form showed
 * it with ("Region: choose one of Europe, Americas."), never by a JSON path or an element id. Both refusals are
 * read here: the SDK's own check of the answers against the form's schema (its message names `/<field id>`), and
 * submit_step_data's element rules (ANSWER_INVALID's details.issues, by element_id).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { WaymarkError } from '../../errors.js';
import { formatWords } from '../../services/flows/trail-context-schema.js';

/** A field as the form showed it: its property name and schema (with its title). */
export interface ShownField {
  id: string;
  schema: Record<string, unknown>;
}

/** Choices named in a sentence; a longer list is counted (a searchable field may hold thousands). */
const CHOICES_SHOWN = 12;

function listed(names: string[]): string {
  const shown = names.slice(0, CHOICES_SHOWN).join(', ');
  return names.length > CHOICES_SHOWN ? `${shown} (and ${names.length - CHOICES_SHOWN} more)` : shown;
}

const labelOf = (field: ShownField): string => (typeof field.schema.title === 'string' && field.schema.title.trim() !== '' ? field.schema.title : 'A field');

/** What a field takes, from its schema: the words a person reads to fix it. */
export function fieldRule(field: ShownField): string {
  const s = field.schema;
  const options = Array.isArray(s.oneOf) ? (s.oneOf as Array<{ const: string; title?: string }>).map((o) => o.title ?? o.const) : Array.isArray(s.enum) ? (s.enum as string[]) : null;
  if (options) return `choose one of ${listed(options)}`;
  const items = s.items as { enum?: unknown } | undefined;
  if (s.type === 'array' && Array.isArray(items?.enum)) return `choose one or more of ${listed(items.enum as string[])}`;
  if (s.type === 'boolean') return 'tick it or leave it unticked';
  // The words a trail context field's refusal uses for the same profile (formats with an example, lengths).
  const format = typeof s.format === 'string' ? formatWords(s.format) : undefined;
  if (format) return format;
  const rules: string[] = [];
  if (typeof s.minLength === 'number' && typeof s.maxLength === 'number') rules.push(`must be ${s.minLength} to ${s.maxLength} characters long`);
  else if (typeof s.minLength === 'number') rules.push(`must be at least ${s.minLength} characters long`);
  else if (typeof s.maxLength === 'number') rules.push(`must be at most ${s.maxLength} characters long`);
  // A description is the author's rule (validationMessage) or the shape a time takes.
  if (typeof s.description === 'string' && s.description.trim() !== '') rules.push(s.description.trim());
  return rules.join('; ') || 'not accepted';
}

/** "Label: what is wrong." */
function sentence(field: ShownField, problem: string): string {
  const text = `${labelOf(field)}: ${problem.trim()}`;
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * The refusal of `error` as sentences naming the fields, or null when it is no refusal of the answers (the
 * caller lets it through). A choice is told by its options' labels: the element's own message names option ids.
 */
export function refusalSentences(fields: ShownField[], error: unknown): string | null {
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams && /does not match requested schema/.test(error.message)) {
    // ajv names a field as `/<id>` (a wrong value) or `'<id>'` (a required one missing); ids are minted node ids.
    const named = fields.filter((f) => error.message.includes(`/${f.id}`) || error.message.includes(`'${f.id}'`));
    if (named.length === 0) return 'The answers did not fit the form.';
    return named.map((f) => sentence(f, error.message.includes(`'${f.id}'`) ? `required; ${fieldRule(f)}` : fieldRule(f))).join(' ');
  }
  if (error instanceof WaymarkError && error.code === 'ANSWER_INVALID') {
    const issues = ((error.details?.issues ?? []) as Array<{ element_id?: unknown; message?: unknown }>).filter((i) => typeof i.element_id === 'string');
    const byId = new Map(fields.map((f) => [f.id, f]));
    const out: string[] = [];
    const told = new Set<string>();
    for (const issue of issues) {
      const field = byId.get(issue.element_id as string);
      if (!field) continue;
      const choice = Array.isArray(field.schema.oneOf) || Array.isArray(field.schema.enum) || field.schema.type === 'array';
      const text = choice ? fieldRule(field) : String(issue.message ?? fieldRule(field));
      const said = sentence(field, text);
      if (told.has(said)) continue;
      told.add(said);
      out.push(said);
    }
    return out.length > 0 ? out.join(' ') : 'The answers did not fit the form.';
  }
  return null;
}
