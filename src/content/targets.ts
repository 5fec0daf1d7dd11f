/**
 * How a body names what it points at outside itself: the bits its connections go to and the references it cites.
 * get_bit and add_bit name them by id. A folder written by export (issue 30) names them by file, relative to the
 * bit's own file, so that the files read and diff well: a conversion given `TargetNames` reads a name where the
 * body syntax has an id, and answers the id the name stands for.
 */
export interface TargetNames {
  /** The id of the bit a name stands for, or undefined when there is no such bit file. */
  bit(name: string): string | undefined;
  /** The id of the reference a name stands for, or undefined when there is no such reference file. */
  reference(name: string): string | undefined;
}

/**
 * A target name as a folder writes one: a relative path of letters, digits, `.`, `_`, `-` and `/`, ending in
 * `.md` or `.json`. No space, `|`, `]`, `?` or `&`: it ends where a citation's label or a connection's
 * parameters begin.
 */
export const TARGET_NAME_PATTERN = /^[A-Za-z0-9._/-]{1,300}\.(?:md|json)$/;

/** The characters of a target name, for the citation rule that reads one character at a time. */
export const TARGET_NAME_CHAR = /[A-Za-z0-9._/-]/;

/** The longest target name read (a path of a few folders and a file name of LIMITS' length). */
export const TARGET_NAME_MAX = 300;

/** Set in a parse's env when targets are written as names: the citation rule reads a name then (citation-rule.ts). */
export const TARGET_NAMES = Symbol('target names');
