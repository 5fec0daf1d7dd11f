/**
 * The elicitation fallback (issue 14): a client that renders no MCP App but answers form elicitation is
 * asked for a person's step as a form, when every element of the step maps onto the elicitation profile
 * (text, a choice, a date, a tick box). Accepted answers are recorded by the same service call as
 * submit_step_data (every element rule, access rule and the human_required rule apply); declining or
 * cancelling records nothing and the tool answers as it would have.
 */
import type { ElicitRequestFormParams, ElicitResult, PrimitiveSchemaDefinition } from '@modelcontextprotocol/server';
import { formQuestions, isElementType } from '../../content/index.js';
import type { Actor } from '../../services/actor.js';
import type { Services } from '../../services/index.js';
import type { StepView } from '../../services/trails/shapes.js';
import type { AskedSteps } from './asked-steps.js';
import { refusalSentences } from './form-refusal.js';

/** Rounds of asking again when the server refuses the answers (the message says why). */
const MAX_ROUNDS = 3;

/** The part of a trail step the form is built from (the trail tools' current_step). */
export type ElicitableStep = Pick<StepView, 'step_id' | 'bit_title' | 'human_required' | 'waiting_for_person' | 'elements' | 'answers' | 'required_missing'>;

interface FormField {
  /** The property name in the form: the element id, or a check-list item's id. */
  id: string;
  elementType: string;
  /** The field's schema as the form showed it (its title is the label a refusal names it by). */
  schema: Record<string, unknown>;
  /** A tick box unticked and never answered is not an answer (as the step form sends it). */
  kind: 'text' | 'choices' | 'tick';
}

export interface StepForm {
  fields: FormField[];
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
}

const label = (config: Record<string, unknown>, fallback: string) => (typeof config.label === 'string' && config.label.trim() !== '' ? config.label : fallback);

/** Each element as elicitation schemas, or null when one of them has no form in the profile. */
export function elicitationForm(step: ElicitableStep): StepForm | null {
  const fields: FormField[] = [];
  const properties: Record<string, PrimitiveSchemaDefinition> = {};
  const required: string[] = [];
  const saved = new Map(step.answers.map((a) => [a.element_id, a.value]));
  const add = (id: string, elementType: string, kind: FormField['kind'], schema: PrimitiveSchemaDefinition, isRequired: boolean) => {
    fields.push({ id, elementType, kind, schema: schema as Record<string, unknown> });
    const before = saved.get(id);
    // A saved answer is what the form shows first, where its shape fits the schema's default.
    const withDefault = before !== undefined && (typeof before === 'string' || typeof before === 'boolean' || Array.isArray(before)) ? { ...schema, default: before } : schema;
    properties[id] = withDefault as PrimitiveSchemaDefinition;
    if (isRequired) required.push(id);
  };
  for (const e of step.elements) {
    if (!isElementType(e.type)) return null;
    // From the element's definition: links and videos have no form (they record what a person did with them).
    const questions = formQuestions(e.type, { id: e.element_id, props: e.config, items: e.items, required: e.required }, label(e.config, e.type));
    if (questions === null) return null;
    for (const q of questions) add(q.id, e.element_type ?? e.type, q.kind, q.schema as PrimitiveSchemaDefinition, q.required);
  }
  if (fields.length === 0) return null;
  return { fields, requestedSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) } };
}

/** The answers of an accepted form, as submit_step_data takes them. */
export function answersOf(form: StepForm, content: Record<string, unknown>, step: ElicitableStep) {
  const answered = new Set(step.answers.map((a) => a.element_id));
  const out: Array<{ element_id: string; element_type: string; value: unknown }> = [];
  for (const f of form.fields) {
    const value = content[f.id];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    if (f.kind === 'tick' && value === false && !answered.has(f.id)) continue;
    out.push({ element_id: f.id, element_type: f.elementType, value });
  }
  return out;
}

export interface ElicitContext {
  actor: Actor;
  services: Services;
  trailId: string;
  step: ElicitableStep;
  /** What this client session has asked its person already (asked-steps.ts: once per step and its answers). */
  asked: AskedSteps;
  elicit(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

/**
 * Asks the person for the step's answers when the step is a person's, the token is one and this session has not
 * asked for the step as it stands (asked-steps.ts); true when answers were recorded (the caller reads the trail
 * again), false when nothing changed.
 */
export async function answerByElicitation(c: ElicitContext): Promise<boolean> {
  const { step } = c;
  if (c.actor.kind !== 'person' || !(step.human_required || step.waiting_for_person)) return false;
  const form = elicitationForm(step);
  if (!form || !c.asked.shouldAsk(c.actor, c.trailId, step)) return false;
  // Asked once whatever comes of it: a decline, a cancel or a failing client is not asked again until the step changes.
  c.asked.remember(c.actor, c.trailId, step);
  let problem = '';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let result: ElicitResult;
    try {
      result = await c.elicit({ mode: 'form', message: `${problem}Answer the step “${step.bit_title}”.`, requestedSchema: form.requestedSchema });
    } catch (error) {
      // The SDK checked the answers against the form's schema and refused them: asked again, saying which field.
      const refused = refusalSentences(form.fields, error);
      if (refused !== null) {
        problem = `Nothing was recorded. ${refused} `;
        continue;
      }
      // A client that fails or times out on the form has asked nothing of the trail: the tool answers as usual.
      return false;
    }
    if (result.action !== 'accept' || !result.content) return false;
    const data = answersOf(form, result.content, step);
    if (data.length === 0) return false;
    try {
      const read = await c.services.trails.submit(c.actor, { trail_id: c.trailId, data });
      // The answers this form recorded are no change to ask about again.
      if (read.trail.current_step) c.asked.remember(c.actor, c.trailId, read.trail.current_step);
      return true;
    } catch (error) {
      const refused = refusalSentences(form.fields, error);
      if (refused === null) throw error;
      problem = `Nothing was recorded. ${refused} `;
    }
  }
  return false;
}
