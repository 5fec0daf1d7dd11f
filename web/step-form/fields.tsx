/**
 * Each interactive element of a step as real, labelled form controls. The values are the answers'
 * inner values (CONTRACT.md, "Answer values"); the rules under each field come from rules.ts.
 */
import type { ComponentChild, ComponentChildren } from 'preact';
import { controlOf, type ElementControl } from '../../src/content/elements/index.js';
import { numberProp } from '../../src/content/elements/types.js';
import { frameSandbox, frameUrl, linkUrl, shownUrl, videoSource } from './embed.js';
import { controlId, describedBy, Notes, RequiredMark } from './notes.js';
import { rulesFor, type Field, type FieldCheck } from './rules.js';
import { SearchableField } from './searchable.js';
import type { StepElement } from './payload.js';

export interface FormState {
  values: Record<string, unknown>;
  checks: Record<string, FieldCheck>;
  disabled: boolean;
  fields: Map<string, Field>;
  set(id: string, value: unknown): void;
}

const NO_CHECK: FieldCheck = { errors: [], warnings: [] };
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function CheckList({ element, form }: { element: StepElement; form: FormState }) {
  const label = str(element.config.label) ?? 'Check-list';
  return (
    <fieldset class="field group checklist">
      <legend>{label}</legend>
      {(element.items ?? []).map((item) => {
        const field = form.fields.get(item.id);
        if (!field) return null;
        const check = form.checks[item.id] ?? NO_CHECK;
        const rules = rulesFor(field);
        return (
          <div class="option" key={item.id}>
            <input
              type="checkbox"
              id={controlId(item.id)}
              checked={form.values[item.id] === true}
              disabled={form.disabled}
              aria-required={field.required ? 'true' : undefined}
              onChange={(e) => form.set(item.id, (e.currentTarget as HTMLInputElement).checked)}
              {...describedBy(item.id, rules, check)}
            />
            <label for={controlId(item.id)}>
              {field.label}
              <RequiredMark required={field.required} />
            </label>
            <Notes id={item.id} rules={rules} check={check} />
          </div>
        );
      })}
    </fieldset>
  );
}

function Radio({ field, form }: { field: Field; form: FormState }) {
  const check = form.checks[field.id] ?? NO_CHECK;
  const rules = rulesFor(field);
  return (
    <fieldset class="field group radio" role="radiogroup" aria-required={field.required ? 'true' : undefined} {...describedBy(field.id, rules, check)}>
      <legend>
        {field.label}
        <RequiredMark required={field.required} />
      </legend>
      {(field.element.items ?? []).map((item, i) => (
        <div class="option" key={item.id}>
          <input
            type="radio"
            id={i === 0 ? controlId(field.id) : `${controlId(field.id)}-${item.id}`}
            name={field.id}
            value={item.id}
            checked={form.values[field.id] === item.id}
            disabled={form.disabled}
            onChange={() => form.set(field.id, item.id)}
          />
          <label for={i === 0 ? controlId(field.id) : `${controlId(field.id)}-${item.id}`}>{String(item.text ?? item.id)}</label>
        </div>
      ))}
      <Notes id={field.id} rules={rules} check={check} />
    </fieldset>
  );
}

/** What every single-control field gives its control: the id its label names, and its state for assistive tech. */
type ControlProps = Record<string, string | boolean | undefined> & { id: string };

/** A field of one control: its label with the required mark, the control, then its rules and checks. */
function OneControl({ field, form, control, after }: { field: Field; form: FormState; control: (props: ControlProps) => ComponentChildren; after?: ComponentChildren }) {
  const check = form.checks[field.id] ?? NO_CHECK;
  const rules = rulesFor(field);
  const props: ControlProps = {
    id: controlId(field.id),
    disabled: form.disabled,
    'aria-required': field.required ? 'true' : undefined,
    ...describedBy(field.id, rules, check),
  };
  return (
    <div class="field">
      <label for={props.id}>
        {field.label}
        <RequiredMark required={field.required} />
      </label>
      {control(props)}
      {after}
      <Notes id={field.id} rules={rules} check={check} />
    </div>
  );
}

function Dropdown({ field, form }: { field: Field; form: FormState }) {
  const value = str(form.values[field.id]) ?? '';
  return (
    <OneControl
      field={field}
      form={form}
      control={(props) => (
        <select {...props} value={value} onChange={(e) => form.set(field.id, (e.currentTarget as HTMLSelectElement).value || undefined)}>
          <option value="">Choose…</option>
          {(field.element.items ?? []).map((item) => (
            <option key={item.id} value={item.id}>
              {String(item.name ?? item.id)}
            </option>
          ))}
        </select>
      )}
    />
  );
}

function DatePicker({ field, form }: { field: Field; form: FormState }) {
  const config = field.element.config;
  const type = str(config.picker_type) ?? 'date';
  return (
    <OneControl
      field={field}
      form={form}
      control={(props) => (
        <input
          {...props}
          type={type}
          step={config.seconds_precision === true ? 1 : undefined}
          value={str(form.values[field.id]) ?? ''}
          onInput={(e) => form.set(field.id, (e.currentTarget as HTMLInputElement).value || undefined)}
        />
      )}
    />
  );
}

function TextArea({ field, form }: { field: Field; form: FormState }) {
  const config = field.element.config;
  const value = str(form.values[field.id]) ?? '';
  // Counted in code points, as the server counts (an emoji is one character).
  const count = [...value].length;
  const max = numberProp(config, 'maxLength');
  return (
    <OneControl
      field={field}
      form={form}
      control={(props) => (
        <textarea
          {...props}
          rows={numberProp(config, 'lines') ?? 4}
          placeholder={str(config.placeholder)}
          spellcheck={typeof config.spellCheck === 'boolean' ? config.spellCheck : undefined}
          autoComplete={str(config.autoComplete)}
          wrap={str(config.wrap)}
          value={value}
          onInput={(e) => form.set(field.id, (e.currentTarget as HTMLTextAreaElement).value)}
        />
      )}
      after={
        <p class="counter" aria-hidden="true">
          {count}
          {max !== undefined ? ` / ${max}` : ''} characters
        </p>
      }
    />
  );
}

function opened(form: FormState, id: string): boolean {
  const v = form.values[id] as { clicked?: boolean } | undefined;
  return v?.clicked === true;
}

function LinkBlock({ field, form }: { field: Field; form: FormState }) {
  const config = field.element.config;
  const url = linkUrl(config.url);
  const title = str(config.custom_title) ?? str(config.url) ?? 'Link';
  const description = config.is_no_description === true ? undefined : str(config.custom_description);
  const body = (
    <>
      <span class="card-title">{title}</span>
      {description && <span class="card-description">{description}</span>}
      {url && <span class="card-url">{new URL(url).hostname}</span>}
    </>
  );
  return (
    <div class="field link-card">
      {url && config.is_no_link !== true ? (
        <a class="card" href={url} target="_blank" rel="noopener noreferrer" id={controlId(field.id)} onClick={() => form.set(field.id, { clicked: true, url: str(config.url) ?? '' })}>
          {body}
          <span class="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : (
        <div class="card">{body}</div>
      )}
      {opened(form, field.id) && <p class="opened">Opened</p>}
    </div>
  );
}

export function LinkInline({ field, form, children }: { field: Field; form: FormState; children: ComponentChildren }) {
  const url = linkUrl(field.element.config.url);
  if (!url) return <span>{children}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" id={controlId(field.id)} class={opened(form, field.id) ? 'inline-link opened' : 'inline-link'} onClick={() => form.set(field.id, { clicked: true, url: str(field.element.config.url) ?? '' })}>
      {children}
      {opened(form, field.id) && <span class="visually-hidden"> (opened)</span>}
    </a>
  );
}

function Video({ field, form }: { field: Field; form: FormState }) {
  const config = field.element.config;
  const source = videoSource(config.url);
  const alt = str(config.altText) ?? 'Video';
  const played = (form.values[field.id] as { played?: boolean } | undefined)?.played === true;
  const check = form.checks[field.id] ?? NO_CHECK;
  const url = str(config.url);
  const shown = source && url ? shownUrl(url, config.urlDisplayOption) : null;
  return (
    <div class="field video">
      {!source && <p class="blocked">This video's address is not allowed here.</p>}
      {source?.kind === 'file' && <video controls preload="metadata" src={source.src} aria-label={alt} onPlay={() => form.set(field.id, { played: true })} />}
      {source?.kind === 'frame' && (
        <div class="frame-wrap">
          <iframe src={source.src} title={alt} allow="fullscreen; picture-in-picture" sandbox="allow-scripts allow-same-origin allow-presentation" loading="lazy" />
        </div>
      )}
      {source?.kind === 'link' && (
        <p>
          <a href={source.href} target="_blank" rel="noopener noreferrer">
            Watch: {alt}
          </a>
        </p>
      )}
      {shown && <p class="url-shown">{shown}</p>}
      <div class="option">
        <input type="checkbox" id={controlId(field.id)} checked={played} disabled={form.disabled} onChange={(e) => form.set(field.id, (e.currentTarget as HTMLInputElement).checked ? { played: true } : { played: false })} />
        <label for={controlId(field.id)}>I watched “{alt}”</label>
      </div>
      <Notes id={field.id} rules={[]} check={check} />
    </div>
  );
}

export function IframeEmbed({ element }: { element: StepElement }) {
  const url = frameUrl(element.config.url);
  if (!url) return <p class="blocked">This embedded page's address is not allowed here.</p>;
  const height = numberProp(element.config, 'height');
  const shown = shownUrl(url, element.config.urlDisplayOption);
  return (
    <div class="iframe">
      <iframe src={url} title={`Embedded page from ${new URL(url).hostname}`} height={height} sandbox={frameSandbox(url, location.origin)} loading="lazy" />
      {shown && <p class="url-shown">{shown}</p>}
    </div>
  );
}

type Control = (props: { element: StepElement; field: Field | undefined; form: FormState }) => ComponentChild;

/** A control answering one field (the element's own); nothing when the step has no such field. */
function fieldControl(render: (field: Field, form: FormState) => ComponentChild): Control {
  return ({ field, form }) => (field ? render(field, form) : null);
}

/**
 * The control of each kind its element definition names (src/content/elements, `control`), one entry per kind
 * (a kind without one is a compile error). A link inside a sentence is rendered there by the body (LinkInline),
 * so its entry here is never reached.
 */
const CONTROLS: Record<ElementControl, Control> = {
  checklist: ({ element, form }) => <CheckList element={element} form={form} />,
  date: fieldControl((field, form) => <DatePicker field={field} form={form} />),
  select: fieldControl((field, form) => <Dropdown field={field} form={form} />),
  frame: ({ element }) => <IframeEmbed element={element} />,
  'link-card': fieldControl((field, form) => <LinkBlock field={field} form={form} />),
  link: () => null,
  radio: fieldControl((field, form) => <Radio field={field} form={form} />),
  search: fieldControl((field, form) => (
    <SearchableField field={field} value={form.values[field.id]} check={form.checks[field.id] ?? NO_CHECK} rules={rulesFor(field)} disabled={form.disabled} onChange={(v) => form.set(field.id, v)} />
  )),
  text: fieldControl((field, form) => <TextArea field={field} form={form} />),
  video: fieldControl((field, form) => <Video field={field} form={form} />),
};

/** The control of one block element of the step. */
export function ElementControl({ element, form }: { element: StepElement; form: FormState }) {
  const kind = controlOf(element.type);
  if (kind === undefined) return null;
  const Control = CONTROLS[kind];
  return <Control element={element} field={form.fields.get(element.element_id)} form={form} />;
}
