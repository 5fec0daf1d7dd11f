/**
 * What a folder of files (export and import, issue 30) may hold, checked before a file is read: by the command line
 * on each file's size as the file system reports it, and by the REST and MCP doors on the files sent inline.
 */
export const FOLDER_LIMITS = {
  /** Files of one folder: far above a scope's bits, flows and references, far below what would hold the server. */
  folderFiles: 5000,
  /** One file: a bit body of bodyBytes written as markdown, with its front matter. */
  folderFileBytes: 9 * 1024 * 1024,
  /** A whole folder. */
  folderBytes: 64 * 1024 * 1024,
  /** What export_folder answers inline (the MCP tool and REST): beyond it, the command line writes the folder. */
  exportInlineBytes: 4 * 1024 * 1024,
  /** A file's path in the folder, in characters. */
  folderPathChars: 400,
} as const;
