/**
 * tools/list as a client with MCP Apps or form elicitation sees it: the trail tools that put a person in
 * front of a step declare the step form (`_meta.ui.resourceUri`, as ext-apps specifies), the elicitation
 * fallback is told in the descriptions it changes, and describe_platform's output names its client_features.
 * Every other client gets the base listing unchanged (the snapshots in test/__toolsnaps__).
 */
import type { Tool as ListedTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { outputJsonSchema } from '../json-schema.js';
import { clientFeaturesSchema, ELICITATION_NOTE, type ClientFeatures } from '../../operations/platform/client-features.js';
import type { Operation } from '../../operations/operation.js';
import { STEP_TOOL_META } from './step-app.js';

type Json = Record<string, unknown>;

/** describe_platform's output schema with `data.client_features` added. */
function withClientFeatures(outputSchema: ListedTool['outputSchema']): ListedTool['outputSchema'] {
  const schema = structuredClone(outputSchema) as Json;
  const data = (schema.properties as Json | undefined)?.data as Json | undefined;
  const properties = data?.properties as Json | undefined;
  if (!properties) throw new Error('describe_platform: no data.properties in its output schema');
  properties.client_features = outputJsonSchema(z.toJSONSchema(clientFeaturesSchema, { target: 'draft-2020-12', io: 'output' }));
  return schema as ListedTool['outputSchema'];
}

/** The declarations behind a listing, by tool name: what each declares it shows a person (stepForm). */
const declared = new WeakMap<ListedTool[], Map<string, Operation>>();

/** Remembers which declarations a base listing was built from (server.ts builds each once per process). */
export function declareListing(base: ListedTool[], tools: readonly Operation[]): ListedTool[] {
  declared.set(base, new Map(tools.map((tool) => [tool.name, tool])));
  return base;
}

function variant(base: ListedTool[], features: ClientFeatures): ListedTool[] {
  const byName = declared.get(base);
  return base.map((tool) => {
    const form = byName?.get(tool.name)?.stepForm;
    let out = tool;
    if (features.apps && form) out = { ...out, _meta: { ...out._meta, ...STEP_TOOL_META } };
    if (features.elicitation && form?.elicit) out = { ...out, description: `${out.description} ${ELICITATION_NOTE}` };
    if (tool.name === 'describe_platform') out = { ...out, outputSchema: withClientFeatures(out.outputSchema) };
    return out;
  });
}

const variants = new WeakMap<ListedTool[], Map<string, ListedTool[]>>();

/** The listing for this client, built once per process and set of features. */
export function listingFor(base: ListedTool[], features: ClientFeatures): ListedTool[] {
  if (!features.apps && !features.elicitation) return base;
  let byKey = variants.get(base);
  if (!byKey) variants.set(base, (byKey = new Map()));
  const key = `${features.apps}:${features.elicitation}`;
  let listed = byKey.get(key);
  if (!listed) byKey.set(key, (listed = variant(base, features)));
  return listed;
}
