/** Input fields every kind of record shares, defined once (limits from content/limits.ts). */
import { z } from 'zod';
import { LIMITS } from '../../content/limits.js';

export const categories = z
  .array(z.string().max(LIMITS.categoryLength))
  .max(LIMITS.categories)
  .describe(`At most ${LIMITS.categories} categories of at most ${LIMITS.categoryLength} characters each; on update the list is replaced whole.`);

export const lastModifiedIgnored = z.string().optional().describe('Accepted and ignored: writes are last-write-wins.');

export const scopeId = z.string().min(1).describe('A scope of your account; omit for account level.');
