/**
 * Groups of people and their emails (issue 27), for an Admin: a step can be offered to a group, and a person is told
 * by mail at their email. The Admin makes, renames and removes groups (after a confirmation), chooses each group's
 * members from the account's people, and sets or clears a person's email. Every refusal is said in words.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { refusalInWords } from '../components/change-words.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { may, useMe } from '../me.js';

type Person = api.PersonView;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function GroupItem(props: { group: api.GroupView; people: Person[]; canChange: boolean; onChanged(group: api.GroupWithMembers): void; onRemoved(group: api.GroupView): void }) {
  const { group } = props;
  const [open, setOpen] = useState<api.GroupWithMembers | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(group.name);
  const [chosen, setChosen] = useState('');
  const act = async <T,>(work: () => Promise<T>, then: (value: T) => void) => {
    setBusy(true);
    setError(null);
    try {
      then(await work());
    } catch (e) {
      setError(refusalInWords(e));
    } finally {
      setBusy(false);
    }
  };
  const shown = (g: api.GroupWithMembers) => {
    setOpen(g);
    props.onChanged(g);
  };
  const members = new Set(open?.members.map((m) => m.principal_id) ?? []);
  const candidates = props.people.filter((p) => p.kind === 'person' && !members.has(p.principal_id));
  const headingId = `group-${group.group_id}`;
  return (
    <li class="group" aria-labelledby={headingId}>
      <h2 id={headingId}>{group.name}</h2>
      <p class="muted">
        {plural(group.member_count, 'member')}
        {group.description ? ` · ${group.description}` : ''}
      </p>
      {error && (
        <p role="alert" class="error-summary">
          {error}
        </p>
      )}
      {!open ? (
        <button type="button" onClick={() => void act(() => api.group(group.group_id), setOpen)} disabled={busy}>
          Show the members of {group.name}
        </button>
      ) : (
        <>
          {open.members.length === 0 ? (
            <p>Nobody is in this group yet.</p>
          ) : (
            <ul aria-label={`Members of ${group.name}`}>
              {open.members.map((m) => (
                <li key={m.principal_id}>
                  {m.name}{' '}
                  {props.canChange && (
                    <button type="button" class="link" disabled={busy} onClick={() => void act(() => api.removeGroupMember(group.group_id, m.principal_id), shown)}>
                      Take {m.name} out of {group.name}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {props.canChange && (
            <form
              class="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (chosen) void act(() => api.addGroupMembers(group.group_id, [chosen]), (g) => (shown(g), setChosen('')));
              }}
            >
              <label for={`${headingId}-add`}>Add a person to {group.name}</label>
              <select id={`${headingId}-add`} value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
                <option value="">Choose a person…</option>
                {candidates.map((p) => (
                  <option key={p.principal_id} value={p.principal_id}>
                    {p.name}
                    {p.email ? ` (${p.email})` : ''}
                  </option>
                ))}
              </select>
              <button type="submit" disabled={busy || !chosen}>
                Add
              </button>
            </form>
          )}
        </>
      )}
      {props.canChange && (
        <div class="actions">
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(() => api.updateGroup(group.group_id, { name }), shown);
            }}
          >
            <label for={`${headingId}-name`}>New name for {group.name}</label>
            <input id={`${headingId}-name`} value={name} maxLength={100} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <button type="submit" disabled={busy || name.trim() === '' || name.trim() === group.name}>
              Rename
            </button>
          </form>
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
            Remove {group.name}
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          id={`${headingId}-remove`}
          title={`Remove the group ${group.name}?`}
          confirm="Remove the group"
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            void act(
              () => api.deleteGroup(group.group_id),
              () => (setConfirming(false), props.onRemoved(group)),
            ).finally(() => setConfirming(false))
          }
        >
          <p>Its {plural(group.member_count, 'member')} stay in the account; steps can no longer be offered to this group. A group that a bit names cannot be removed.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function PersonRow(props: { person: Person; onChanged(person: Person): void }) {
  const { person } = props;
  const [email, setEmail] = useState(person.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const saved = await api.updatePerson(person.principal_id, { email: value });
      setEmail(saved.email ?? '');
      props.onChanged(saved);
    } catch (e) {
      setError(refusalInWords(e));
    } finally {
      setBusy(false);
    }
  };
  const id = `person-${person.principal_id}`;
  return (
    <li>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save(email.trim() === '' ? null : email);
        }}
      >
        <label for={id}>Email of {person.name}</label>
        <input id={id} type="email" value={email} maxLength={254} aria-describedby={error ? `${id}-error` : undefined} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy || email.trim() === (person.email ?? '')}>
          Save
        </button>
      </form>
      {error && (
        <p role="alert" id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </li>
  );
}

export function GroupsPage() {
  const me = useMe();
  const canChange = may(me, 'author', 'admin');
  const [groups, setGroups] = useState<api.GroupView[] | null>(null);
  const [people, setPeople] = useState<Person[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const reload = () =>
    Promise.all([api.groups(), api.directory()]).then(
      ([g, d]) => {
        setGroups(g.groups);
        setPeople(d.people);
        setFailed(null);
      },
      (e: unknown) => setFailed(refusalInWords(e)),
    );
  useEffect(() => void reload(), []);

  const changed = (g: api.GroupWithMembers) => setGroups((before) => (before ?? []).map((x) => (x.group_id === g.group_id ? g : x)));
  const persons = people.filter((p) => p.kind === 'person');
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Groups
      </h1>
      <p>A step can be offered to a group: whoever of its members takes it does it. People are told by email at the address set below.</p>
      <div aria-live="polite">{said && <p class="notice page-result">{said}</p>}</div>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {!groups && !failed && <p class="loading">Loading…</p>}
      {groups && (
        <>
          <p class="counts">{groups.length === 0 ? 'No groups yet.' : `${plural(groups.length, 'group')}.`}</p>
          {groups.length > 0 && (
            <ul class="groups" aria-label="Groups">
              {groups.map((g) => (
                <GroupItem
                  key={g.group_id}
                  group={g}
                  people={people}
                  canChange={canChange}
                  onChanged={changed}
                  onRemoved={(gone) => {
                    setGroups((before) => (before ?? []).filter((x) => x.group_id !== gone.group_id));
                    setSaid(`Removed the group ${gone.name}.`);
                    requestAnimationFrame(() => heading.current?.focus());
                  }}
                />
              ))}
            </ul>
          )}
        </>
      )}
      {canChange && (
        <section aria-labelledby="new-group">
          <h2 id="new-group">New group</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setFormError(null);
              api.createGroup({ name, description: description.trim() === '' ? null : description }).then(
                (made) => {
                  setGroups((before) => [...(before ?? []), made].sort((a, b) => a.name.localeCompare(b.name)));
                  setSaid(`Made the group ${made.name}. Add its members below its name.`);
                  setName('');
                  setDescription('');
                },
                (error: unknown) => setFormError(refusalInWords(error)),
              );
            }}
          >
            <label for="group-name">Name</label>
            <input id="group-name" required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <label for="group-description">Description (optional)</label>
            <input id="group-description" maxLength={1024} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
            {formError && (
              <p role="alert" class="error-summary">
                {formError}
              </p>
            )}
            <div class="actions">
              <button type="submit" class="primary" disabled={name.trim() === ''}>
                Make the group
              </button>
            </div>
          </form>
        </section>
      )}
      {canChange && persons.length > 0 && (
        <section aria-labelledby="people-emails">
          <h2 id="people-emails">People's emails</h2>
          <p>Where each person is told about steps given to them. Leave it empty to clear it.</p>
          <ul class="people">
            {persons.map((p) => (
              <PersonRow key={p.principal_id} person={p} onChanged={(saved) => setPeople((before) => before.map((x) => (x.principal_id === saved.principal_id ? saved : x)))} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
