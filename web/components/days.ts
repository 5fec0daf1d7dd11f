/** Days a person picks in a date field, as the instants the server filters on. */

/** A day picked in a date field (YYYY-MM-DD), as the instant it starts where the person is; undefined when not a day. */
export function startOfDay(day: string, plusDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** A span of time in a person's words, to the two largest units: "45 s", "1 min 30 s", "3 h 24 min", "2 d 4 h". */
export function spanInWords(ms: number): string {
  const units: Array<[string, number]> = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1000],
  ];
  if (ms < 1000) return ms <= 0 ? '0 s' : 'under 1 s';
  const parts: string[] = [];
  let rest = Math.round(ms / 1000) * 1000;
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 || parts.length > 0) parts.push(`${n} ${name}`);
    rest -= n * size;
    if (parts.length === 2) break;
  }
  return parts.filter((p) => !p.startsWith('0 ')).join(' ');
}
