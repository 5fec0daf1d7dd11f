/**
 * People and access (issue 28), for an Admin: who is in the account with their permission, scope and maximum (the
 * most any sign-in, token or connected app of theirs may do); inviting a person by name and email, whose one-time
 * sign-in link goes by mail when the server sends mail or is shown here once to copy; changing a person's permission,
 * scope and maximum; and ending all of a person's sessions and access after a confirmation. Scopes are chosen by
 * their names, and an Admin of the whole account makes them here (components/scopes.tsx). No UUID, no command line.
 * After each action the focus goes to what it did.
 */
import { CopyOnce } from '../components/copy-once.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { refusalInWords } from '../components/change-words.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ScopeChoice, ScopesSection, scopeInWords, whereInSentence } from '../components/scopes.js';
import { may, useMe } from '../me.js';

type Person = api.PersonView;
type Permission = 'view' | 'edit' | 'admin';
type Kind = 'read' | 'run' | 'author';

/** The capabilities in a person's words, in the order the form offers them. */
const KINDS: Array<{ kind: Kind; words: string }> = [
  { kind: 'read', words: 'Read flows and trails' },
  { kind: 'run', words: 'Run trails' },
  { kind: 'author', words: 'Write flows' },
];

const PERMISSION_WORDS: Record<Permission, string> = {
  view: 'View: reads and runs what is shared',
  edit: 'Edit: also writes flows',
  admin: 'Admin: also manages people and groups',
};

/** A capability's name is `<brand>.<kind>`: the brand is the server's, read from the names it answers. */
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const kindOf = (capability: string) => capability.slice(capability.lastIndexOf('.') + 1) as Kind;

function maximumInWords(capabilities: string[] | null): string {
  if (!capabilities) return 'not shown';
  const held = new Set(capabilities.map(kindOf));
  const words = KINDS.filter((k) => held.has(k.kind)).map((k) => k.words.toLowerCase());
  return words.length === 0 ? 'nothing' : words.join(', ');
}

/** The capability names the server uses, from the signed-in Admin's own (they carry the brand). */
function namesFor(kinds: Set<Kind>, brandOf: string): string[] {
  return KINDS.filter((k) => kinds.has(k.kind)).map((k) => `${brandOf}.${k.kind}`);
}

function CapabilityChoice(props: { legend: string; idPrefix: string; chosen: Set<Kind>; onChange(next: Set<Kind>): void }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {KINDS.map((k) => (
        <div class="check" key={k.kind}>
          <input
            type="checkbox"
            id={`${props.idPrefix}-${k.kind}`}
            checked={props.chosen.has(k.kind)}
            onChange={(e) => {
              const next = new Set(props.chosen);
              if ((e.target as HTMLInputElement).checked) next.add(k.kind);
              else next.delete(k.kind);
              props.onChange(next);
            }}
          />
          <label for={`${props.idPrefix}-${k.kind}`}>{k.words}</label>
        </div>
      ))}
    </fieldset>
  );
}

function PermissionChoice(props: { id: string; label: string; value: Permission; onChange(p: Permission): void }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value as Permission)}>
        {(Object.keys(PERMISSION_WORDS) as Permission[]).map((p) => (
          <option key={p} value={p}>
            {PERMISSION_WORDS[p]}
          </option>
        ))}
      </select>
    </>
  );
}

/** The scopes a person may be placed in, and whether the whole account is one of the choices (an account-level Admin). */
interface Places {
  scopes: api.ScopeView[];
  wholeAccount: boolean;
}

function PersonItem(props: { person: Person; brand: string; isMe: boolean; places: Places; onSaid(text: string, person?: Person): void }) {
  const { person, places } = props;
  const [name, setName] = useState(person.name);
  const [email, setEmail] = useState(person.email ?? '');
  const [permission, setPermission] = useState<Permission>((person.permission ?? 'view') as Permission);
  const [scopeId, setScopeId] = useState<string | null>(person.scope_id);
  const [chosen, setChosen] = useState<Set<Kind>>(new Set((person.max_capabilities ?? []).map(kindOf)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const headingId = `person-${person.principal_id}`;
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(refusalInWords(e));
    } finally {
      setBusy(false);
    }
  };
  const unchanged = name.trim() === person.name && email.trim() === (person.email ?? '') && permission === person.permission && scopeId === person.scope_id && [...chosen].sort().join() === (person.max_capabilities ?? []).map(kindOf).sort().join();
  return (
    <li class="group" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {person.name}
        {props.isMe ? ' (you)' : ''}
      </h2>
      <dl class="facts">
        <dt>Email</dt>
        <dd>{person.email ?? 'none'}</dd>
        <dt>Permission</dt>
        <dd>{person.permission ? PERMISSION_WORDS[person.permission as Permission] : 'not shown'}</dd>
        <dt>Where</dt>
        <dd>{scopeInWords(person.scope_id, places.scopes)}</dd>
        <dt>At most</dt>
        <dd>{maximumInWords(person.max_capabilities)}</dd>
      </dl>
      {error && (
        <p role="alert" class="error-summary">
          {error}
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            const saved = await api.updatePerson(person.principal_id, {
              permission,
              max_capabilities: namesFor(chosen, props.brand),
              ...(name.trim() === person.name ? {} : { name: name.trim() }),
              // An emptied field clears the address (nobody is told by mail then).
              ...(email.trim() === (person.email ?? '') ? {} : { email: email.trim() === '' ? null : email.trim() }),
              ...(scopeId === person.scope_id ? {} : { scope_id: scopeId }),
            });
            props.onSaid(`Saved ${saved.name}: ${PERMISSION_WORDS[(saved.permission ?? 'view') as Permission].split(':')[0]} ${whereInSentence(saved.scope_id, places.scopes)}, at most ${maximumInWords(saved.max_capabilities)}.`, saved);
          });
        }}
      >
        <div class="field">
          <label for={`${headingId}-name`}>Name of {person.name}</label>
          <input id={`${headingId}-name`} required maxLength={100} autoComplete="off" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for={`${headingId}-email`}>Email of {person.name}</label>
          <input id={`${headingId}-email`} type="email" maxLength={254} autoComplete="off" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        </div>
        <PermissionChoice id={`${headingId}-permission`} label={`Permission of ${person.name}`} value={permission} onChange={setPermission} />
        <ScopeChoice id={`${headingId}-scope`} label={`Where ${person.name} works`} value={scopeId} scopes={places.scopes} wholeAccount={places.wholeAccount} onChange={setScopeId} />
        <CapabilityChoice legend={`What ${person.name} may do at most`} idPrefix={`${headingId}-max`} chosen={chosen} onChange={setChosen} />
        <div class="actions">
          <button type="submit" disabled={busy || unchanged || chosen.size === 0 || name.trim() === ''}>
            Save {person.name}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
            End all sessions and access of {person.name}
          </button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          id={`${headingId}-end`}
          title={`End all sessions and access of ${person.name}?`}
          confirm="End all sessions and access"
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            void act(async () => {
              const ended = await api.endPersonAccess(person.principal_id);
              const parts = [
                [ended.sessions_ended, 'sign-in'],
                [ended.links_cancelled, 'unused sign-in link'],
                [ended.tokens_revoked, 'API key'],
                [ended.grants_revoked, 'connected app'],
              ] as const;
              const words = parts.filter(([n]) => n > 0).map(([n, one]) => plural(n, one));
              props.onSaid(words.length === 0 ? `${person.name} had no sign-ins, links, keys or connected apps to end.` : `Ended ${person.name}'s access: ${words.join(', ')}.`);
            }).finally(() => setConfirming(false))
          }
        >
          <p>They are signed out everywhere at once: every sign-in, unused sign-in link, API key and connected app of theirs stops working. They stay in the account, and you can invite them to sign in again.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/** The one-time link, when no mail carried it: shown here once, to copy. */
function LinkShown(props: { invitation: api.Invitation }) {
  const url = new URL('signin', window.location.href);
  url.searchParams.set('token', props.invitation.signin_token ?? '');
  return (
    <div>
      <CopyOnce id="invite-link" label={`Sign-in link for ${props.invitation.person.name}`} value={url.href} what="link" describedBy="invite-once" />
      <p id="invite-once" class="notice">
        <strong>Copy it now: you will not see it again.</strong> Give it to {props.invitation.person.name} yourself; it signs in once, until {new Date(props.invitation.expires_at).toLocaleString()}. This server sends no mail, so
        it was not emailed.
      </p>
    </div>
  );
}

export function PeoplePage() {
  const me = useMe();
  const canChange = may(me, 'author', 'admin');
  const brand = me?.capabilities[0]?.split('.')[0] ?? 'waymark';
  const [people, setPeople] = useState<Person[] | null>(null);
  const [scopes, setScopes] = useState<api.ScopeView[]>([]);
  const [scopeId, setScopeId] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [invited, setInvited] = useState<api.Invitation | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<Permission>('view');
  const [chosen, setChosen] = useState<Set<Kind>>(new Set(['read', 'run']));
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const result = useRef<HTMLDivElement>(null);

  const reload = () =>
    api.directory().then(
      (d) => {
        setPeople(d.people.filter((p) => p.kind === 'person'));
        setFailed(null);
      },
      (e: unknown) => setFailed(refusalInWords(e)),
    );
  useEffect(() => void reload(), []);
  useEffect(() => {
    api.scopes().then(
      (answer) => setScopes(answer.scopes),
      (e: unknown) => setFailed(refusalInWords(e)),
    );
  }, []);
  // A scope-limited Admin places people only in their own scope: it is their one choice, chosen already.
  useEffect(() => setScopeId(me?.scope_id ?? null), [me?.scope_id]);
  const places: Places = { scopes, wholeAccount: !me?.scope_id };
  const focusResult = () => requestAnimationFrame(() => result.current?.focus());
  const say = (text: string, saved?: Person) => {
    setSaid(text);
    setInvited(null);
    if (saved) setPeople((before) => (before ?? []).map((p) => (p.principal_id === saved.principal_id ? saved : p)));
    focusResult();
  };

  if (!canChange) {
    return (
      <>
        <h1>People</h1>
        <p>Only an Admin manages people. Ask your admin to invite someone or to change what a person may do.</p>
      </>
    );
  }
  return (
    <>
      <h1>People</h1>
      <p>Who may sign in to this account, what each may do, and at most what any of their sign-ins, API keys and connected apps may do.</p>
      <div ref={result} tabIndex={-1} class="page-result-region" aria-live="polite">
        {said && <p class="notice page-result">{said}</p>}
        {invited && invited.signin_token && <LinkShown invitation={invited} />}
      </div>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      <section aria-labelledby="invite-title">
        <h2 id="invite-title">Invite a person</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setFormError(null);
            setBusy(true);
            api
              .invitePerson({ name, email, permission, max_capabilities: namesFor(chosen, brand), scope_id: scopeId })
              .then(
                (answer) => {
                  setPeople((before) => [...(before ?? []), answer.person].sort((a, b) => a.name.localeCompare(b.name)));
                  setSaid(answer.mailed ? `Invited ${answer.person.name}: a sign-in link is on its way to ${answer.person.email}.` : `Invited ${answer.person.name}. Copy their sign-in link below and give it to them.`);
                  setInvited(answer);
                  setName('');
                  setEmail('');
                  focusResult();
                },
                (error: unknown) => setFormError(refusalInWords(error)),
              )
              .finally(() => setBusy(false));
          }}
        >
          <div class="field">
            <label for="invite-name">Name</label>
            <input id="invite-name" required maxLength={100} autoComplete="off" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </div>
          <div class="field">
            <label for="invite-email">Email</label>
            <input id="invite-email" type="email" required maxLength={254} autoComplete="off" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
          </div>
          <PermissionChoice id="invite-permission" label="Permission" value={permission} onChange={setPermission} />
          <ScopeChoice id="invite-scope" label="Where they work" value={scopeId} scopes={scopes} wholeAccount={places.wholeAccount} onChange={setScopeId} />
          <CapabilityChoice legend="What they may do at most" idPrefix="invite-max" chosen={chosen} onChange={setChosen} />
          {formError && (
            <p role="alert" class="error-summary">
              {formError}
            </p>
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy || name.trim() === '' || email.trim() === '' || chosen.size === 0}>
              Invite
            </button>
          </div>
        </form>
      </section>
      <ScopesSection
        scopes={scopes}
        mayCreate={places.wholeAccount}
        onCreated={(scope) => {
          setScopes((before) => [...before, scope].sort((a, b) => a.name.localeCompare(b.name)));
          say(`Made the scope ${scope.name}: you can now invite people into it or move people there.`);
        }}
      />
      {!people && !failed && <p class="loading">Loading…</p>}
      {people && (
        <section aria-labelledby="people-title">
          <h2 id="people-title">Everyone</h2>
          <ul class="groups" aria-label="People">
            {people.map((p) => (
              <PersonItem key={`${p.principal_id}-${p.name}-${p.email ?? ''}-${p.permission}-${p.scope_id ?? ''}-${(p.max_capabilities ?? []).join()}`} person={p} brand={brand} isMe={p.principal_id === me?.principal_id} places={places} onSaid={say} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
