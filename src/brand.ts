/**
 * The brand, the one value every capability name and anchor scheme is derived from (CONTRACT.md, "Brand"),
 * read once from WAYMARK_BRAND. It is apart from config.ts so that the body language (src/content), whose
 * node types the web step form imports, needs no Node module: the web program type-checks it without Node.
 */
const BRAND_PATTERN = /^[a-z0-9-]+$/;

function readBrand(): string {
  // In a browser there is no environment: the default brand.
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env;
  const raw = env?.WAYMARK_BRAND;
  if (raw === undefined || raw === '') return 'waymark';
  if (!BRAND_PATTERN.test(raw)) {
    throw new Error(`WAYMARK_BRAND must be lowercase letters, digits and '-' (got '${raw}')`);
  }
  return raw;
}

export const brand = readBrand();

/** `waymark-node:` by default: the scheme of element, item, link and media anchors in bodies. */
export const nodeScheme = `${brand}-node`;
