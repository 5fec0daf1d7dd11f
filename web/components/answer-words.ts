/**
 * An answer in a person's words (issue 28): "chose Full-time in Employment type", "ticked Badge ordered in Before they
 * arrive", not "answered Dropdown: db9125af-…". The labels come from the snapshots the trail kept (trail_people's
 * `elements`), so an answer reads as the step asked it even after the bit changed.
 */
import type { AnswerView, TrailPeople } from '../api.js';

type ElementWords = TrailPeople['elements'][string];

/** A value with nothing to say it by: text as it is, a list joined, a flag in words. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'checked' : 'unchecked';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('played' in v) return v.played ? 'watched' : 'not watched';
    if ('clicked' in v) return v.clicked ? `opened ${String(v.url ?? '')}` : 'not opened';
  }
  return JSON.stringify(value);
}

/** What the person did, after their name: "chose Engineering in Team". */
export function answerWords(answer: AnswerView, element: ElementWords | undefined): string {
  const value = answer.value;
  if (!element) return `answered ${answer.element_type}: ${shownValue(value)}`;
  const label = element.label;
  const where = label ? ` in ${label}` : '';
  const option = (id: unknown) => element.options?.[String(id)] ?? String(id);
  if (element.type.endsWith('-item')) {
    const item = `“${label ?? 'an item'}”${element.list ? ` in ${element.list}` : ''}`;
    return value === true ? `ticked ${item}` : `unticked ${item}`;
  }
  if (element.options && typeof value === 'string') return `chose ${option(value)}${where}`;
  if (Array.isArray(value)) return value.length === 0 ? `cleared ${label ?? 'a choice'}` : `chose ${value.map(option).join(', ')}${where}`;
  if (element.type === 'date-picker') return `set ${label ?? 'a date'} to ${shownValue(value)}`;
  if (element.type === 'text-area') return `wrote “${shownValue(value)}”${where}`;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('played' in v) return v.played ? `watched ${label ?? 'the video'}` : `did not watch ${label ?? 'the video'}`;
    if ('clicked' in v) return v.clicked ? `opened ${label ?? String(v.url ?? 'the link')}` : `did not open ${label ?? 'the link'}`;
  }
  return `answered ${label ?? answer.element_type}: ${shownValue(value)}`;
}

/** A time as people say it ("3 minutes ago", "yesterday"), the exact one for the title attribute. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [['second', 60], ['minute', 60], ['hour', 24], ['day', 7], ['week', 4.35], ['month', 12], ['year', Infinity]];
  let amount = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}
