/**
 * Ids a folder's records and nodes take without being told one (issue 30), derived rather than random, so that
 * importing the same folder twice gives the same ids and so changes nothing the second time. Name-based UUIDs
 * (RFC 9562, version 5: SHA-1 of a namespace and a name).
 */
import { createHash } from 'node:crypto';

/** Waymark's namespace for the ids it derives (a fixed random UUID). */
const NAMESPACE = '8a0f2c4e-5b6d-4e1f-9a3b-7c8d9e0f1a2b';

function bytesOf(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

export function derivedId(namespace: string, name: string): string {
  const hash = createHash('sha1').update(bytesOf(namespace)).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of a file that names none: its path's (a bit written by hand is the same bit however often it is imported). */
export function idOfPath(path: string): string {
  return derivedId(NAMESPACE, `path:${path}`);
}

/**
 * The id a folder's record takes where its own is another record's already (another account's, or another scope's
 * of this account): one for each account and scope it is imported into, the same on every import.
 */
export function idIn(accountId: string, scopeId: string | null, folderId: string): string {
  return derivedId(NAMESPACE, `in:${accountId}:${scopeId ?? ''}:${folderId}`);
}

/** New node ids of one file, in the order the conversion asks for them: the same file gives the same ids. */
export function nodeIds(folderId: string): () => string {
  let n = 0;
  return () => derivedId(folderId, `node:${n++}`);
}
