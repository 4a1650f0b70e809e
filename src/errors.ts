// The errors every layer may raise and the command line reports as exit 2 with one line: a usage
// error (a flag, an argument, an input that is not what the command takes), and a failure of the
// file system while writing (a full disk, a permission, a link in the way). Never a stack trace.

export class UsageError extends Error {}

export class OutputError extends Error {}
