import { holds, parseRecord, RecordError } from "../clearance/parse.js";
import { finding, type Finding } from "../findings.js";

// The one implementation of "accepted": every fixture is listed with its digest in an accepted
// batch whose digest holds (a later listing of a path supersedes an earlier one), every listed
// fixture is present, and no raw capture is committed. Used by clear verify and by the gate.

export interface TreeToVerify {
  /** Every file under the fixtures folder, repository-relative, with its SHA-256. */
  fixtures: { path: string; sha256: string }[];
  links: string[];
  record: string | null;
  recordPath: string;
  /** Files under the captures inbox other than its README and .gitignore. */
  inbox: string[];
  fixturesDir: string;
}

export function verifyPass(tree: TreeToVerify): Finding[] {
  const findings: Finding[] = [];
  findings.push(...tree.inbox.map((file) => finding("raw-capture-committed", { file })));
  findings.push(...tree.links.map((file) => finding("symlink", { file })));
  const listed = new Map<string, string>();
  if (tree.record !== null) {
    try {
      for (const b of parseRecord(tree.record).batches) {
        if (b.accepted && !holds(b)) findings.push(finding("batch-edited", { file: tree.recordPath, line: b.line }, { id: b.id }));
        if (!holds(b)) continue;
        if (b.kit.named && b.kit.transports === 0) findings.push(finding("kit-not-quoted", { file: tree.recordPath, line: b.line }, { id: b.id }));
        for (const f of b.fixtures) listed.set(f.path, f.sha256);
      }
    } catch (err) {
      if (!(err instanceof RecordError)) throw err;
      findings.push(finding("record-unreadable", { file: tree.recordPath }, { detail: err.message }));
    }
  }
  const present = new Set(tree.fixtures.map((f) => f.path));
  for (const f of tree.fixtures) {
    if (f.path === `${tree.fixturesDir}/README.md`) continue;
    const want = listed.get(f.path);
    if (want === undefined) findings.push(finding("fixture-not-accepted", { file: f.path }));
    else if (want !== f.sha256) findings.push(finding("fixture-changed", { file: f.path }));
  }
  for (const p of [...listed.keys()].sort()) if (!present.has(p)) findings.push(finding("fixture-missing", { file: p }));
  return findings;
}
