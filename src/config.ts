/**
 * Process-wide configuration read once from the environment. The brand is the one value every
 * capability name and anchor scheme is derived from (CONTRACT.md, "Brand").
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brand } from './brand.js';

export { brand, nodeScheme } from './brand.js';

/**
 * The package's folder and version, from the package.json above this file: src/ when run from the sources,
 * dist/server/ when built, so the folder is one or two levels up.
 */
function readPackage(): { root: URL; version: string } {
  for (const up of ['../', '../../']) {
    const root = new URL(up, import.meta.url);
    const url = new URL('package.json', root);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version: string };
    if (pkg.name === 'waymark') return { root, version: pkg.version };
  }
  throw new Error('waymark: package.json not found beside the sources');
}

const PACKAGE = readPackage();

/** The sample flow a new account can add (issue 28): a folder of the export format, shipped with the package. */
export function sampleFolder(): string {
  return fileURLToPath(new URL('examples/sample/', PACKAGE.root));
}

/** The brand as people read it on pages (`Waymark` by default); the lowercase word stays in names and schemes. */
export const productName = brand.charAt(0).toUpperCase() + brand.slice(1);

/** The web app's build, dist/web (WAYMARK_WEB_ROOT moves it): the /app files and the step form's MCP App. */
export function webRoot(): string {
  return process.env.WAYMARK_WEB_ROOT || fileURLToPath(new URL('dist/web/', PACKAGE.root));
}
export const version = PACKAGE.version;

export const CAPABILITY_KINDS = ['author', 'read', 'run'] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

export function capabilityName(kind: CapabilityKind): string {
  return `${brand}.${kind}`;
}

export function allCapabilityNames(): string[] {
  return CAPABILITY_KINDS.map(capabilityName);
}
