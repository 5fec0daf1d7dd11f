/**
 * The flow as a picture (issue 28): laid out here (flow-layout.ts) and drawn as SVG by Preact, so every title is text
 * Preact escapes and every box is a link to its bit. The bits a trail went through and the one it is on are marked;
 * the page's list of the same bits is the text alternative.
 */
import type { GraphBit } from '../api.js';
import { href } from '../router.js';
import { BOX, layoutFlow } from './flow-layout.js';

export interface PictureProps {
  bits: GraphBit[];
  /** Bits the trail has been on, oldest first; the last is where it stands when `current` is set. */
  path?: string[];
  current?: string | null;
  label: string;
}

export function FlowPicture(props: PictureProps) {
  const layout = layoutFlow(props.bits);
  const visited = new Set((props.path ?? []).filter((id) => id !== props.current));
  const state = (id: string) => (id === props.current ? 'current' : visited.has(id) ? 'visited' : '');
  return (
    <figure class="flow-picture" data-testid="flow-svg">
      <svg width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} role="group" aria-label={props.label}>
        <defs>
          <marker id="flow-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="flow-arrowhead" />
          </marker>
        </defs>
        {layout.edges.map((e) => (
          <g key={e.id} class="flow-edge">
            <path d={e.d} marker-end="url(#flow-arrow)" />
            {e.label && (
              <text x={e.labelAt.x} y={e.labelAt.y} text-anchor="middle" dominant-baseline="middle" class="flow-edge-label">
                {e.label}
              </text>
            )}
          </g>
        ))}
        {layout.bits.map((p) => {
          const classes = ['flow-box', state(p.bit.bit_id), p.bit.human_required ? 'person' : '', p.bit.status === 'archived' ? 'archived' : '', p.bit.depth === null ? 'unreachable' : ''].filter(Boolean).join(' ');
          const notes = [p.bit.human_required ? 'needs a person' : '', p.bit.status === 'archived' ? 'archived' : '', p.bit.depth === null ? 'not reachable from the start' : '', state(p.bit.bit_id) === 'current' ? 'the current step' : state(p.bit.bit_id) === 'visited' ? 'passed' : '']
            .filter(Boolean)
            .join(', ');
          return (
            <a key={p.bit.bit_id} href={href(`/bits/${encodeURIComponent(p.bit.bit_id)}`)} class={classes} aria-label={notes ? `${p.bit.bit_title} (${notes})` : p.bit.bit_title}>
              <rect x={p.x} y={p.y} width={BOX.width} height={p.height} rx="8" />
              <text x={p.x + BOX.width / 2} y={p.y + BOX.padding + BOX.lineHeight * 0.75} text-anchor="middle">
                {p.lines.map((line, i) => (
                  <tspan key={i} x={p.x + BOX.width / 2} dy={i === 0 ? 0 : BOX.lineHeight}>
                    {line}
                  </tspan>
                ))}
              </text>
            </a>
          );
        })}
      </svg>
      <figcaption class="visually-hidden">{props.label}</figcaption>
    </figure>
  );
}
