/**
 * How an element and its items are written in a markdown body (authoring-interface.md, "Body syntax";
 * CONTRACT.md, "Body forms"), as templates for describe_platform and error messages.
 */
import { nodeScheme } from '../../brand.js';
import type { ElementDefinition } from './types.js';

export function anchorOf(ref: string): string {
  return `${nodeScheme}:${ref}`;
}

export function elementLineForm(def: ElementDefinition, ref = '<key>'): string {
  if (def.placement === 'inline') return `[<text>](<url> "${anchorOf(ref)}")`;
  return def.hasLabel ? `[${def.type}: <label>](${anchorOf(ref)})` : `[${def.type}](${anchorOf(ref)})`;
}

export function itemMarkerForm(def: ElementDefinition): string {
  switch (def.items?.marker) {
    case 'checkbox':
      return '[ ] ';
    case 'radio':
      return '( ) ';
    default:
      return '';
  }
}

export function itemLineForm(def: ElementDefinition, ref = '<key>'): string | null {
  if (!def.items) return null;
  return `- ${itemMarkerForm(def)}[<${def.items.textField}>](${anchorOf(ref)})`;
}
