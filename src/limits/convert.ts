/** The conversion worker pool (services/convert): what goes to it, and what one conversion there may take. */
export const CONVERT_LIMITS = {
  /** Bodies up to this many characters convert on the main thread; larger ones in the conversion worker. */
  inlineConvertChars: 128 * 1024,
  /** A tool's answer whose envelope JSON is longer than this is written and encoded on a conversion thread (over HTTP). */
  offThreadAnswerChars: 1024 * 1024,
  /** The conversion worker's limits: one conversion's time, and its heap (old generation). */
  convertTimeoutMs: 15_000,
  convertMemoryMb: 192,
} as const;
