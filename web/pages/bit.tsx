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
