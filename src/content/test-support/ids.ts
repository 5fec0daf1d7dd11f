/** Predictable ids for tests: 00000000-0000-4000-8000-000000000001, …002, … */
export function idMaker(): () => string {
  let n = 0;
  return () => id(++n);
}

export function id(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}
