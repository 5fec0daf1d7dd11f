/**
 * How a trail's context is labelled for a person (issue 27, "Also"): by the title the flow's trail_context_schema
 * gives each field, or the field's own name when it gives none. Pure: the step payload and the web app's trail page
 * both use it.
 */
export function contextLabels(schema: unknown, context: Record<string, unknown>): Record<string, string> {
  const properties = (schema as { properties?: Record<string, { title?: unknown } | undefined> } | null)?.properties ?? {};
  return Object.fromEntries(
    Object.keys(context).map((key) => {
      const title = Object.hasOwn(properties, key) ? properties[key]?.title : undefined;
      return [key, typeof title === 'string' && title.trim() !== '' ? title : key];
    }),
  );
}
