/** Text made literal inside a regular expression (valid in Unicode mode too: "-" is left as is). */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
