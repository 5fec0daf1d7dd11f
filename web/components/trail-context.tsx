/** The context a trail was started with (issue 27, "Also"), labelled by the flow schema's titles: on every step and on the trail page. */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function TrailContext({ context, labels }: { context: Record<string, unknown>; labels: Record<string, string> }) {
  const keys = Object.keys(context);
  if (keys.length === 0) return null;
  return (
    <section class="trail-context" aria-labelledby="context-title">
      <h2 id="context-title">Started with</h2>
      <dl>
        {keys.map((key) => (
          <div key={key}>
            <dt>{labels[key] ?? key}</dt>
            <dd>{shownValue(context[key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
