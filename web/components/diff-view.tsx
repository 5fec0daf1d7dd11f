/**
 * What changed between two revisions, drawn for a person (diff_revisions' answer): the fields before and after, the
 * body line by line, the elements and connections added, removed or changed by label, and a flow's bits and
 * connections since its approved version. Added and removed are marked by <ins> and <del>, a sign in the margin
 * and words a screen reader reads ("Added:", "Removed:"), never by colour alone.
 */
import type { ComponentChildren } from 'preact';
import type { BitChanges, RevisionDiff } from '../api.js';
import { href } from '../router.js';

type Level = 3 | 4 | 5;

function Heading({ level, children }: { level: Level; children: ComponentChildren }) {
  const H = `h${level}` as 'h3';
  return <H>{children}</H>;
}

/** `human_required` → "Human required". */
const fieldName = (field: string) => (field.charAt(0).toUpperCase() + field.slice(1)).replace(/_/g, ' ');

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

export function Added({ children }: { children: ComponentChildren }) {
  return (
    <ins>
      <span class="visually-hidden">Added: </span>
      {children}
    </ins>
  );
}

export function Removed({ children }: { children: ComponentChildren }) {
  return (
    <del>
      <span class="visually-hidden">Removed: </span>
      {children}
    </del>
  );
}

/** `@@ -3,4 +3,5 @@` → where the hunk starts in the newer body. */
function hunkTitle(header: string): string {
  const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(header);
  if (!m) return header;
  const start = Number(m[2]);
  const count = m[3] === undefined ? 1 : Number(m[3]);
  return count <= 1 ? `Around line ${start}` : `Lines ${start} to ${start + count - 1}`;
}

function BodyLines({ body }: { body: NonNullable<BitChanges['body']> }) {
  const counts = body.added_lines === null ? 'The body changed.' : `${body.added_lines} ${body.added_lines === 1 ? 'line' : 'lines'} added, ${body.removed_lines} removed.`;
  if (!body.shown) return <p>{counts} The change is too large to show line by line.</p>;
  return (
    <>
      <p class="muted">{counts}</p>
      <div class="diff-lines">
        {body.unified.split('\n').map((line, i) =>
          line.startsWith('@@') ? (
            <p key={i} class="hunk">
              {hunkTitle(line)}
            </p>
          ) : line.startsWith('+') ? (
            <div key={i} class="line added">
              <span class="sign" aria-hidden="true">
                +
              </span>
              <Added>{line.slice(1) || ' '}</Added>
            </div>
          ) : line.startsWith('-') ? (
            <div key={i} class="line removed">
              <span class="sign" aria-hidden="true">
                −
              </span>
              <Removed>{line.slice(1) || ' '}</Removed>
            </div>
          ) : (
            <div key={i} class="line same">
              <span class="sign" aria-hidden="true">
                {' '}
              </span>
              <span>{line.slice(1) || ' '}</span>
            </div>
          ),
        )}
      </div>
    </>
  );
}

const named = (kind: string, label: string | null) => (label ? `${kind} “${label}”` : `${kind} (no label)`);

function BitLink({ id, titles }: { id: string; titles: ReadonlyMap<string, string> }) {
  return <a href={href(`/bits/${encodeURIComponent(id)}`)}>{titles.get(id) ?? 'another bit'}</a>;
}

/** True when the two revisions differ in nothing a diff shows. */
export function unchanged(c: BitChanges): boolean {
  const none = (g: { added: unknown[]; removed: unknown[]; changed: unknown[] }) => g.added.length + g.removed.length + g.changed.length === 0;
  return c.fields.length === 0 && c.body === null && none(c.elements) && none(c.connections);
}

/** A bit's or reference's changes (or a flow's own fields). `titles`: bit titles by id, for connections' targets. */
export function ChangesView({ changes, level, titles = new Map() }: { changes: BitChanges; level: Level; titles?: ReadonlyMap<string, string> }) {
  const { fields, body, elements, connections } = changes;
  return (
    <div class="diff">
      {fields.length > 0 && (
        <>
          <Heading level={level}>Fields</Heading>
          <div class="table-wrap">
            <table class="diff-fields">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {fields.map((f) => (
                  <tr key={f.field}>
                    <th scope="row">{fieldName(f.field)}</th>
                    <td>
                      <Removed>{shown(f.before)}</Removed>
                    </td>
                    <td>
                      <Added>{shown(f.after)}</Added>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {body && (
        <>
          <Heading level={level}>Body</Heading>
          <BodyLines body={body} />
        </>
      )}
      {elements.added.length + elements.removed.length + elements.changed.length > 0 && (
        <>
          <Heading level={level}>Elements</Heading>
          <ul class="diff-items">
            {elements.added.map((e) => (
              <li key={`a${e.element_id}`} class="added">
                <Added>{named(e.element_type, e.label)}</Added>
              </li>
            ))}
            {elements.removed.map((e) => (
              <li key={`r${e.element_id}`} class="removed">
                <Removed>{named(e.element_type, e.label)}</Removed>
              </li>
            ))}
            {elements.changed.map((e) => (
              <li key={`c${e.element_id}`} class="changed">
                Changed: {named(e.element_type, e.label)} ({(e.changed ?? []).join(', ')})
              </li>
            ))}
          </ul>
        </>
      )}
      {connections.added.length + connections.removed.length + connections.changed.length > 0 && (
        <>
          <Heading level={level}>Connections</Heading>
          <ul class="diff-items">
            {connections.added.map((c) => (
              <li key={`a${c.connection_id}`} class="added">
                <Added>
                  {named('Connection', c.label)} to <BitLink id={c.target_bit_id} titles={titles} />
                </Added>
              </li>
            ))}
            {connections.removed.map((c) => (
              <li key={`r${c.connection_id}`} class="removed">
                <Removed>
                  {named('Connection', c.label)} to <BitLink id={c.target_bit_id} titles={titles} />
                </Removed>
              </li>
            ))}
            {connections.changed.map((c) => (
              <li key={`c${c.connection_id}`} class="changed">
                Changed: {named('Connection', c.label)} to <BitLink id={c.target_bit_id} titles={titles} /> ({(c.changed ?? []).map(fieldName).join(', ')})
              </li>
            ))}
          </ul>
        </>
      )}
      {unchanged(changes) && <p>Nothing differs between these two revisions.</p>}
    </div>
  );
}

const CHANGE: Record<'added' | 'removed' | 'changed', string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

/** A flow's diff since its approved version: its own fields, then each bit added, removed or changed, then the connections. */
export function FlowChangesView({ diff, titles, empty }: { diff: RevisionDiff; titles: ReadonlyMap<string, string>; empty: string }) {
  const graph = diff.graph;
  const all = new Map(titles);
  for (const b of graph?.bits ?? []) all.set(b.bit_id, b.bit_title);
  const connectionCount = (graph?.connections.added.length ?? 0) + (graph?.connections.removed.length ?? 0);
  return (
    <div class="diff flow-diff">
      {diff.fields.length > 0 && <ChangesView changes={{ ...diff, body: null, elements: { added: [], removed: [], changed: [] }, connections: { added: [], removed: [], changed: [] } }} level={3} />}
      {graph && graph.bits.length > 0 && (
        <>
          <h3>Bits</h3>
          <ul class="flow-bits">
            {graph.bits.map((b) => (
              <li key={b.bit_id} class={`flow-bit ${b.change}`}>
                <h4>
                  <span class={`badge change-${b.change}`}>{CHANGE[b.change]}</span> <a href={href(`/bits/${encodeURIComponent(b.bit_id)}`)}>{b.bit_title}</a>
                  {b.change === 'changed' && b.from_revision !== null && b.to_revision !== null && (
                    <span class="muted">
                      {' '}
                      (revision {b.from_revision} to {b.to_revision})
                    </span>
                  )}
                </h4>
                {b.diff && <ChangesView changes={b.diff} level={5} titles={all} />}
              </li>
            ))}
          </ul>
        </>
      )}
      {graph && connectionCount > 0 && (
        <>
          <h3>Connections</h3>
          <ul class="diff-items">
            {graph.connections.added.map((c) => (
              <li key={`a${c.connection_id}`} class="added">
                <Added>
                  From <BitLink id={c.source_bit_id} titles={all} /> to <BitLink id={c.target_bit_id} titles={all} />
                  {c.label ? ` (“${c.label}”)` : ''}
                </Added>
              </li>
            ))}
            {graph.connections.removed.map((c) => (
              <li key={`r${c.connection_id}`} class="removed">
                <Removed>
                  From <BitLink id={c.source_bit_id} titles={all} /> to <BitLink id={c.target_bit_id} titles={all} />
                  {c.label ? ` (“${c.label}”)` : ''}
                </Removed>
              </li>
            ))}
          </ul>
        </>
      )}
      {diff.fields.length === 0 && (graph?.bits.length ?? 0) === 0 && connectionCount === 0 && <p>{empty}</p>}
    </div>
  );
}
