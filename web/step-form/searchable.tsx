/**
 * searchable-field as a combobox (WAI-ARIA combobox with a listbox popup): type to filter the element's
 * data, arrows to move, Enter to choose, Escape to close. With multiSelectResults the chosen values are
 * listed as removable buttons.
 */
import { useState } from 'preact/hooks';
import { dataValue } from '../../src/content/elements/searchable-field.js';
import { numberProp } from '../../src/content/elements/types.js';
import { controlId, describedBy, Notes, RequiredMark } from './notes.js';
import type { Field, FieldCheck } from './rules.js';

interface Option {
  value: string;
  label: string;
}

function optionsOf(config: Record<string, unknown>): Option[] | null {
  if (!Array.isArray(config.data)) return null;
  const out: Option[] = [];
  for (const entry of config.data) {
    const value = dataValue(entry);
    if (value === undefined) continue;
    const o = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const shown = [o.label, o.name, o.title, o.text].find((v) => typeof v === 'string' && v !== '');
    out.push({ value, label: typeof shown === 'string' ? shown : value });
  }
  return out;
}

/** The matches of a query: "exact" modes match the whole text, the others any part of it; case is ignored. */
export function matchOptions(options: Option[], query: string, config: Record<string, unknown>): Option[] {
  const q = query.trim().toLowerCase();
  const exact = config.searchMode === 'exact' || config.searchMode === 'exact match';
  const max = numberProp(config, 'maxResults') ?? 10;
  const hits = q === '' ? options : options.filter((o) => [o.label, o.value].some((t) => (exact ? t.toLowerCase() === q : t.toLowerCase().includes(q))));
  return hits.slice(0, max);
}

export function SearchableField(props: { field: Field; value: unknown; check: FieldCheck; rules: string[]; disabled: boolean; onChange(v: unknown): void }) {
  const { field, value, check, rules, disabled, onChange } = props;
  const config = field.element.config;
  const multi = config.multiSelectResults === true;
  const options = optionsOf(config);
  const chosen: string[] = multi ? (Array.isArray(value) ? (value as string[]) : []) : typeof value === 'string' ? [value] : [];
  const labelOf = (v: string) => options?.find((o) => o.value === v)?.label ?? v;
  const [query, setQuery] = useState(multi || chosen.length === 0 ? '' : labelOf(chosen[0]));
  const [open, setOpen] = useState(false);
  // No option is highlighted until the person arrows to one (issue 28: the first was, so ArrowDown picked the
  // second); Enter with none highlighted takes the first match, as a type-ahead does.
  const [active, setActive] = useState(-1);
  const id = controlId(field.id);
  const listId = `${id}-list`;
  const hits = options ? matchOptions(options, query, config).filter((o) => !multi || !chosen.includes(o.value)) : [];

  const choose = (o: Option) => {
    if (multi) {
      onChange([...chosen, o.value]);
      setQuery('');
    } else {
      onChange(o.value);
      setQuery(o.label);
    }
    setOpen(false);
  };
  const onInput = (text: string) => {
    setQuery(text);
    setOpen(true);
    setActive(-1);
    // Without data any text is the answer; with data only a chosen entry is.
    if (!options && !multi) onChange(text === '' ? undefined : text);
    else if (!multi && chosen.length > 0 && text !== labelOf(chosen[0])) onChange(undefined);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, Math.max(hits.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, -1));
    } else if (e.key === 'Enter') {
      const pick = hits[active >= 0 ? active : 0];
      if (open && pick) {
        e.preventDefault();
        choose(pick);
      } else if (!options && multi && query.trim() !== '') {
        e.preventDefault();
        onChange([...chosen, query.trim()]);
        setQuery('');
      }
    } else if (e.key === 'Escape') {
      setOpen(false);
    }
  };
  const expanded = open && options !== null;
  return (
    <div class="field searchable">
      <label for={id}>
        {field.label}
        <RequiredMark required={field.required} />
      </label>
      {multi && chosen.length > 0 && (
        <ul class="chips" aria-label={`Chosen for ${field.label}`}>
          {chosen.map((v) => (
            <li key={v}>
              <span>{labelOf(v)}</span>{' '}
              <button type="button" class="chip-remove" aria-label={`Remove ${labelOf(v)}`} disabled={disabled} onClick={() => onChange(chosen.filter((c) => c !== v))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded ? 'true' : 'false'}
        aria-controls={listId}
        aria-activedescendant={expanded && hits[active] ? `${listId}-${active}` : undefined}
        aria-required={field.required ? 'true' : undefined}
        placeholder={typeof config.placeholderText === 'string' ? config.placeholderText : undefined}
        value={query}
        disabled={disabled}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        {...describedBy(field.id, rules, check)}
      />
      <ul id={listId} role="listbox" aria-label={`${field.label} options`} class="listbox" hidden={!expanded}>
        {hits.map((o, i) => (
          <li
            key={o.value}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active ? 'true' : 'false'}
            class={i === active ? 'active' : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(o);
            }}
          >
            {o.label}
          </li>
        ))}
      </ul>
      {expanded && hits.length === 0 && query !== '' && (
        <p class="no-results" role="status">
          {typeof config.noResultsText === 'string' ? config.noResultsText : 'No results'}
        </p>
      )}
      <Notes id={field.id} rules={rules} check={check} />
    </div>
  );
}
