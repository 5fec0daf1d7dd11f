/**
 * A form generated from a flow's trail_context_schema. The schema is of the profile the server accepts
 * (flows/trail-context-schema.ts: flat primitive properties, the shapes MCP elicitation takes), so each
 * property is one control: text (with its format), a choice, a number, a yes/no, or a multi-choice.
 * The rules under each field are the schema's own keywords; the server's ajv check stays the judge.
 */
type Prop = Record<string, unknown>;

export interface Choice {
  value: string;
  title: string;
}

export function choicesOf(node: Prop | undefined): Choice[] | null {
  if (!node) return null;
  if (Array.isArray(node.enum)) return (node.enum as string[]).map((v) => ({ value: v, title: v }));
  const options = (node.oneOf ?? node.anyOf) as Array<{ const: string; title?: string }> | undefined;
  return Array.isArray(options) ? options.map((o) => ({ value: o.const, title: o.title ?? o.const })) : null;
}

/** What the schema asks of a property, in words. */
export function contextRules(prop: Prop, required: boolean): string[] {
  const rules: string[] = [];
  if (required) rules.push('Required');
  if (typeof prop.minLength === 'number' && typeof prop.maxLength === 'number') rules.push(`${prop.minLength} to ${prop.maxLength} characters`);
  else if (typeof prop.minLength === 'number') rules.push(`At least ${prop.minLength} characters`);
  else if (typeof prop.maxLength === 'number') rules.push(`At most ${prop.maxLength} characters`);
  if (typeof prop.minimum === 'number') rules.push(`At least ${prop.minimum}`);
  if (typeof prop.maximum === 'number') rules.push(`At most ${prop.maximum}`);
  if (prop.type === 'integer') rules.push('A whole number');
  if (typeof prop.minItems === 'number') rules.push(`Choose at least ${prop.minItems}`);
  if (typeof prop.maxItems === 'number') rules.push(`Choose at most ${prop.maxItems}`);
  if (prop.format === 'email') rules.push('An email address');
  if (prop.format === 'uri') rules.push('A full address (https://…)');
  return rules;
}

/** A server issue about a field as a sentence that names it: "Release name is required." */
export function fieldSentence(label: string, message: string): string {
  const text = `${label} ${message}`.trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function initialContext(schema: Prop): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries((schema.properties ?? {}) as Record<string, Prop>)) if ('default' in p) out[name] = p.default;
  return out;
}

function inputType(prop: Prop): string {
  if (prop.type === 'number' || prop.type === 'integer') return 'number';
  switch (prop.format) {
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    default:
      return 'text';
  }
}

/** A date-time input gives local time without offset; the schema's date-time needs one: send it in UTC. */
function fromInput(prop: Prop, raw: string): unknown {
  if (raw === '') return undefined;
  if (prop.type === 'number' || prop.type === 'integer') return Number(raw);
  if (prop.format === 'date-time') {
    const d = new Date(raw);
    return Number.isNaN(d.getTime()) ? raw : d.toISOString();
  }
  return raw;
}

function toInput(prop: Prop, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (prop.format === 'date-time' && typeof value === 'string') {
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return value;
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  return String(value);
}

export function ContextFields(props: { schema: Prop; values: Record<string, unknown>; errors: Record<string, string[]>; onChange(name: string, value: unknown): void }) {
  const properties = (props.schema.properties ?? {}) as Record<string, Prop>;
  const required = new Set((props.schema.required ?? []) as string[]);
  return (
    <>
      {Object.entries(properties).map(([name, prop]) => {
        const id = `ctx-${name}`;
        const label = typeof prop.title === 'string' ? prop.title : name;
        const isRequired = required.has(name);
        const rules = contextRules(prop, isRequired);
        const errors = props.errors[name] ?? [];
        const notes = (
          <div id={`${id}-notes`} class="notes">
            {typeof prop.description === 'string' && <p class="description">{prop.description}</p>}
            {/* A field the server refused says why, once, as a sentence about it; its rules come back once it is right. */}
            {rules.length > 0 && errors.length === 0 && <p class="rules">{rules.map((r) => `${r}.`).join(' ')}</p>}
            {errors.map((e, i) => (
              <p key={i} class="field-error">
                <span class="icon" aria-hidden="true">✖ </span>
                {fieldSentence(label, e)}
              </p>
            ))}
          </div>
        );
        const mark = isRequired && (
          <span class="req" aria-hidden="true">
            {' '}*
          </span>
        );
        const aria = { 'aria-describedby': `${id}-notes`, 'aria-invalid': errors.length > 0 ? true : undefined };
        const value = props.values[name];
        if (prop.type === 'boolean') {
          return (
            <div class="field option" key={name}>
              <input type="checkbox" id={id} checked={value === true} onChange={(e) => props.onChange(name, (e.currentTarget as HTMLInputElement).checked)} {...aria} />
              <label for={id}>
                {label}
                {mark}
              </label>
              {notes}
            </div>
          );
        }
        if (prop.type === 'array') {
          const chosen = Array.isArray(value) ? (value as string[]) : [];
          return (
            <fieldset class="field group" key={name} {...aria}>
              <legend>
                {label}
                {mark}
              </legend>
              {(choicesOf(prop.items as Prop) ?? []).map((c) => (
                <div class="option" key={c.value}>
                  <input
                    type="checkbox"
                    id={`${id}-${c.value}`}
                    checked={chosen.includes(c.value)}
                    onChange={(e) => props.onChange(name, (e.currentTarget as HTMLInputElement).checked ? [...chosen, c.value] : chosen.filter((v) => v !== c.value))}
                  />
                  <label for={`${id}-${c.value}`}>{c.title}</label>
                </div>
              ))}
              {notes}
            </fieldset>
          );
        }
        const choices = choicesOf(prop);
        return (
          <div class="field" key={name}>
            <label for={id}>
              {label}
              {mark}
            </label>
            {choices ? (
              <select id={id} value={typeof value === 'string' ? value : ''} aria-required={isRequired ? 'true' : undefined} onChange={(e) => props.onChange(name, (e.currentTarget as HTMLSelectElement).value || undefined)} {...aria}>
                <option value="">Choose…</option>
                {choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.title}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                type={inputType(prop)}
                step={prop.type === 'integer' ? 1 : prop.type === 'number' ? 'any' : undefined}
                value={toInput(prop, value)}
                aria-required={isRequired ? 'true' : undefined}
                onInput={(e) => props.onChange(name, fromInput(prop, (e.currentTarget as HTMLInputElement).value))}
                {...aria}
              />
            )}
            {notes}
          </div>
        );
      })}
    </>
  );
}
