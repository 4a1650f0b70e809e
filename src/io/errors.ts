/** A failure of the file system while writing (full disk, permission, a link in the way): reported, never a stack trace. */
export class OutputError extends Error {}
