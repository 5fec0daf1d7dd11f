/**
 * The flow as a picture: the Mermaid flowchart get_flow builds (format "mermaid"), rendered to SVG in the
 * browser by mermaid (a chunk of its own, loaded only here), with the bits a trail went through and the one
 * it is on marked by two more classes. A list of the same path stands beside it as the text alternative.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GraphBit } from '../api.js';

export interface PictureProps {
  mermaid: string;
  bits: GraphBit[];
  unreachableIds: string[];
  /** Bits the trail has been on, oldest first; the last is where it stands when `current` is set. */
  path?: string[];
  current?: string | null;
  label: string;
}

/**
 * Node ids of get_flow's flowchart are positional: n0… over the reachable bits, then the unreachable ones
 * (flows/mermaid.ts), so a bit's node is found by the same order.
 */
export function nodeIds(bits: GraphBit[], unreachableIds: string[]): Map<string, string> {
  return new Map([...bits.map((b) => b.bit_id), ...unreachableIds].map((id, i) => [id, `n${i}`]));
}

export function highlighted(p: PictureProps): string {
  const ids = nodeIds(p.bits, p.unreachableIds);
  const lines = [p.mermaid.trimEnd()];
  const visited = (p.path ?? []).filter((id) => id !== p.current).map((id) => ids.get(id)).filter(Boolean);
  lines.push('  classDef visited fill:#dbeafe,stroke:#1d4ed8,stroke-width:2px');
  lines.push('  classDef current fill:#fde68a,stroke:#92400e,stroke-width:3px');
  if (visited.length > 0) lines.push(`  class ${[...new Set(visited)].join(',')} visited`);
  const current = p.current ? ids.get(p.current) : undefined;
  if (current) lines.push(`  class ${current} current`);
  return lines.join('\n') + '\n';
}

let seq = 0;

type Mermaid = (typeof import('mermaid'))['default'];

/**
 * Mermaid applies `%%{init: …}%%` directives and front matter found in the text over the config given here,
 * so a directive that slipped into the text could set `themeCSS` (CSS with url(): a beacon fetched by every
 * viewer, issue 24 finding 7), a theme, or HTML labels. The server writes none (flows/mermaid.ts);
 * here every top-level key of mermaid's config is declared `secure`, which mermaid never lets a directive set,
 * so the picture is drawn with this config alone whatever the text says.
 */
function initialize(mermaid: Mermaid): void {
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme: 'neutral',
    flowchart: { htmlLabels: false },
    secure: Object.keys(mermaid.mermaidAPI.defaultConfig),
  });
}

export function FlowPicture(props: PictureProps) {
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  const text = highlighted(props);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const { default: mermaid } = await import('mermaid');
        initialize(mermaid);
        const { svg } = await mermaid.render(`flow-svg-${++seq}`, text);
        if (live && host.current) {
          host.current.innerHTML = svg;
          const el = host.current.querySelector('svg');
          el?.setAttribute('role', 'img');
          el?.setAttribute('aria-label', props.label);
          setDrawn(true);
        }
      } catch (e) {
        if (live) setProblem((e as Error).message);
      }
    })();
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <figure class="flow-picture">
      {/* Mermaid's SVG goes in by hand: this element has no children of Preact's to keep in step. */}
      <div ref={host} class="svg-host" data-testid="flow-svg" />
      {problem ? <p role="alert">The picture could not be drawn: {problem}</p> : !drawn && <p class="loading">Drawing the flow…</p>}
      <figcaption class="visually-hidden">{props.label}</figcaption>
    </figure>
  );
}
