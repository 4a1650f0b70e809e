// Host versions in the order hosts release them: each dotted part compared as a number (2.1.10
// after 2.1.9), a pre-release below its release (0.165.0-alpha.1 before 0.165.0), and
// pre-release parts compared as semver does (numbers as numbers, below words). Build metadata
// (`+build.5`) takes no part in the order, as semver says.

const IDENTIFIERS = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*";
const VERSION = new RegExp(`^([0-9]+(?:\\.[0-9]+)*)(?:-(${IDENTIFIERS}))?(?:\\+${IDENTIFIERS})?$`);

/** Whether a folder name reads as a host version (`unknown`, `latest` or a word do not). */
export function isHostVersion(name: string): boolean {
  return VERSION.test(name);
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** Two strings of digits by value, however long. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, "");
  const y = b.replace(/^0+(?=.)/, "");
  return x.length !== y.length ? sign(x.length - y.length) : x < y ? -1 : x > y ? 1 : 0;
}

function comparePreRelease(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    const xNumeric = /^[0-9]+$/.test(x);
    const yNumeric = /^[0-9]+$/.test(y);
    const order = xNumeric && yNumeric ? compareDigits(x, y) : xNumeric ? -1 : yNumeric ? 1 : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  return sign(a.length - b.length);
}

/** Negative when `a` was released before `b`; a string that is not a version sorts below every version. */
export function compareHostVersions(a: string, b: string): number {
  const x = VERSION.exec(a);
  const y = VERSION.exec(b);
  if (!x || !y) return x ? 1 : y ? -1 : a < b ? -1 : a > b ? 1 : 0;
  const xParts = (x[1] as string).split(".");
  const yParts = (y[1] as string).split(".");
  for (let i = 0; i < Math.max(xParts.length, yParts.length); i++) {
    const order = compareDigits(xParts[i] ?? "0", yParts[i] ?? "0");
    if (order !== 0) return order;
  }
  if (x[2] === undefined || y[2] === undefined) {
    if (x[2] !== y[2]) return x[2] === undefined ? 1 : -1;
  } else {
    const order = comparePreRelease(x[2].split("."), y[2].split("."));
    if (order !== 0) return order;
  }
  // Equal by value but written differently (2.1 and 2.1.0): a fixed order all the same.
  return a < b ? -1 : a > b ? 1 : 0;
}
