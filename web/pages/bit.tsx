/**
 * A bit, read-only: its body rendered as a step shows it, each element described rather than answerable; below it,
 * its history, where a revision's changes are shown and an old revision restored.
 */
import * as api from '../api.js';
import { HistoryPanel } from '../components/history-panel.js';
import { Show, useLoad } from '../components/loaded.js';
import { type Params } from '../router.js';
import { SlateView } from '../step-form/body.js';
import { bodyOf } from '../step-form/payload.js';
import type { ElementNode } from '../../src/content/slate.js';

function describe(node: ElementNode) {
  const label = typeof node.props.label === 'string' ? node.props.label : typeof node.props.url === 'string' ? node.props.url : '';
  return (
    <div class="element-summary">
      <span class="badge">{node.type}</span> {label}
      {node.props.required === true && <span class="muted"> (required)</span>}
      {node.items && node.items.length > 0 && (
        <ul>
          {node.items.map((i) => (
            <li key={i.id}>
              {String(i.text ?? i.name ?? i.id)}
              {i.required === true && <span class="muted"> (required)</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Who does the bit's step, in words (issue 27): a person's or group's name, the starter, or a trail_context field. */
function doneBy(bit: api.BitView): string | null {
  const [kind, ...rest] = (bit.assignee ?? '').split(':');
  const ref = rest.join(':');
  if (kind === 'starter') return 'whoever starts the trail';
  if (kind === 'person') return bit.assignee_name ?? 'a person who is no longer in the account';
  if (kind === 'group') return `${bit.assignee_name ?? 'a removed group'} (group)`;
  if (kind === 'context') return `the person named in the trail's "${ref}" field`;
  return null;
}

const UNITS: Array<[string, string]> = [
  ['W', 'week'],
  ['D', 'day'],
  ['H', 'hour'],
  ['M', 'minute'],
  ['S', 'second'],
];

/** P2D → "2 days", PT4H30M → "4 hours 30 minutes": the duration as the bit declares it. */
function durationInWords(iso: string): string {
  const [date, time = ''] = iso.replace(/^P/, '').split('T');
  const parts: string[] = [];
  for (const [text, units] of [
    [date, UNITS.slice(0, 2)],
    [time, UNITS.slice(2)],
  ] as const) {
    for (const [letter, word] of units) {
      const found = new RegExp(`([\\d.]+)${letter}`).exec(text);
      if (found) parts.push(`${found[1]} ${word}${found[1] === '1' ? '' : 's'}`);
    }
  }
  return parts.join(' ') || iso;
}

export function BitPage({ params }: { params: Params }) {
  const [loaded, reload] = useLoad(() => api.bit(params.bit_id), [params.bit_id]);
  return (
    <Show loaded={loaded} title="Bit">
      {(bit) => (
        <>
          <h1>{bit.bit_title}</h1>
          <p>
            <span class="badge">{bit.status}</span> <span class="badge">{bit.complexity}</span>
            {bit.human_required && <span class="badge">Needs a person</span>}
          </p>
          {doneBy(bit) && <p class="assignee">Done by: {doneBy(bit)}</p>}
          {bit.expected_duration && <p class="due">Due within {durationInWords(bit.expected_duration)}</p>}
          {bit.bit_abstract && <p class="abstract">{bit.bit_abstract}</p>}
          <SlateView
            body={bodyOf(Array.isArray(bit.bit_body) ? bit.bit_body : [])}
            hooks={{
              element: (node, placement) => (placement === 'inline' ? <span class="inline-link">{(node.children as Array<{ text?: string }>).map((c) => c.text ?? '').join('')}</span> : describe(node)),
              connection: (node) => (
                <p class="muted">
                  → {node.label ?? 'next'} (bit {node.target_bit_id})
                </p>
              ),
            }}
          />
          <HistoryPanel type="bit" id={bit.bit_id} noun="bit" changed={bit.last_modified_date_time_utc} titles={new Map(bit.connections.map((c) => [c.target_bit_id, c.target_bit_title ?? 'a bit you cannot see']))} onRestored={reload} />
        </>
      )}
    </Show>
  );
}
