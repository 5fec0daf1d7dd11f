/**
 * Process-wide configuration read once from the environment. The brand is the one value every
 * capability name and anchor scheme is derived from (CONTRACT.md, "Brand").
 */
import { readFileSync } from 'node:fs';

const BRAND_PATTERN = /^[a-z0-9-]+$/;

function readBrand(): string {
  const raw = process.env.WAYMARK_BRAND;
  if (raw === undefined || raw === '') return 'waymark';
  if (!BRAND_PATTERN.test(raw)) {
    throw new Error(`WAYMARK_BRAND must be lowercase letters, digits and '-' (got '${raw}')`);
  }
  return raw;
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export const brand = readBrand();
export const version = readVersion();

/** `waymark-node:` by default: the scheme of element, item, link and media anchors in bodies. */
export const nodeScheme = `${brand}-node`;

export const CAPABILITY_KINDS = ['author', 'read', 'run'] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

export function capabilityName(kind: CapabilityKind): string {
  return `${brand}.${kind}`;
}

export function allCapabilityNames(): string[] {
  return CAPABILITY_KINDS.map(capabilityName);
}
