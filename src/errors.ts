// The errors every layer may raise and the command line reports as exit 2 with one line: a usage
// error (a flag, an argument, an input that is not what the command takes), and a failure of the
// file system while writing (a full disk, a permission, a link in the way). Never a stack trace.

export class UsageError extends Error {}

export class OutputError extends Error {}

/** A capture folder that cannot be read at all (missing, not a folder, a link). */
export class CaptureDirError extends Error {}

/** A rules, config, sitting or kit file that cannot be read or breaks its schema. */
export class RulesError extends Error {}

/** git refused what it was asked. */
export class GitError extends Error {}

/** CLEARANCE.md in a shape the tool does not know, with the line. */
export class RecordError extends Error {}

/** The errors a command reports as exit 2 with one line. */
export const REPORTED = [UsageError, OutputError, CaptureDirError, RulesError, GitError, RecordError];
