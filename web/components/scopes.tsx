/**
 * The account's scopes by name on the People page (issue 28): the choice of where a person works ("The whole
 * account" or one scope, never a UUID), and the short list of scopes with a form that makes one. A scope-limited
 * Admin is offered only their own scope: they place people there alone, and make no scopes.
 */
import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { refusalInWords } from './change-words.js';

export const WHOLE_ACCOUNT = 'The whole account';

/**
 * The scopes the person may see, for a page that names one where it would otherwise say only "a scope": an empty list
 * until they come, and if they cannot be read (the page then says "its scope", as it did before names).
 */
export function useScopes(): api.ScopeView[] {
  const [scopes, setScopes] = useState<api.ScopeView[]>([]);
  useEffect(() => {
    api.scopes().then(
      (answer) => setScopes(answer.scopes),
      () => setScopes([]),
    );
  }, []);
  return scopes;
}

/** Where a person works, in words: the whole account, or their scope's name. */
export function scopeInWords(scopeId: string | null, scopes: api.ScopeView[]): string {
  if (scopeId === null) return WHOLE_ACCOUNT;
  return scopes.find((s) => s.scope_id === scopeId)?.name ?? 'One scope of the account';
}

/** Where a person works, inside a sentence: "in the whole account", "in the scope Field team". */
export function whereInSentence(scopeId: string | null, scopes: api.ScopeView[]): string {
  return scopeId === null ? 'in the whole account' : `in the scope ${scopeInWords(scopeId, scopes)}`;
}

/** A select of "The whole account" (for an Admin of the whole account) and each scope by name; '' is the account. */
export function ScopeChoice(props: { id: string; label: string; value: string | null; scopes: api.ScopeView[]; wholeAccount: boolean; onChange(scopeId: string | null): void }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value ?? ''} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value || null)}>
        {props.wholeAccount && <option value="">{WHOLE_ACCOUNT}</option>}
        {props.scopes.map((s) => (
          <option key={s.scope_id} value={s.scope_id}>
            {s.name}
          </option>
        ))}
      </select>
    </>
  );
}

/** The scopes by name, and for an Admin of the whole account a form that makes one. */
export function ScopesSection(props: { scopes: api.ScopeView[]; mayCreate: boolean; onCreated(scope: api.ScopeView): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="scopes-title">
      <h2 id="scopes-title">Scopes</h2>
      <p>A person of a scope sees and changes only their scope's flows and trails, and what is shared with the whole account.</p>
      {props.scopes.length === 0 ? (
        <p class="muted">No scopes yet: everyone works in the whole account.</p>
      ) : (
        <ul aria-label="Scopes">
          {props.scopes.map((s) => (
            <li key={s.scope_id}>{s.name}</li>
          ))}
        </ul>
      )}
      {props.mayCreate && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            setBusy(true);
            api
              .createScope(name)
              .then(
                (scope) => {
                  setName('');
                  props.onCreated(scope);
                },
                (refused: unknown) => setError(refusalInWords(refused)),
              )
              .finally(() => setBusy(false));
          }}
        >
          <label for="scope-name">New scope</label>
          <input id="scope-name" required maxLength={128} value={name} aria-describedby={error ? 'scope-name-error' : undefined} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={busy || name.trim() === ''}>
            Make scope
          </button>
          {error && (
            <p role="alert" id="scope-name-error" class="field-error">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
