/** The interface document's limits (section Limits) on the fields of bits, flows and references beside their bodies. */
export const FIELD_LIMITS = {
  title: 256,
  bitAbstract: 2048,
  bitDescription: 1024,
  flowDescription: 1024,
  referenceAbstract: 2048,
  categories: 50,
  categoryLength: 128,
  displayLabel: 128,
  /** A reference abstract derived from its text: whole sentences up to this many characters. */
  derivedAbstractChars: 500,
  /** A group's name (issue 27): short enough to read in a step's "Done by". */
  groupName: 100,
  groupDescription: 1024,
  /** RFC 5321's longest path: a person's email. */
  emailLength: 254,
} as const;
