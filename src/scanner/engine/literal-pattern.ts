/**
 * One pattern that matches any of the given literals, each escaped: alternatives only, no
 * quantifier, so a test is linear in the text. Used as a cheap gate before a costlier pattern.
 */
export function literalPattern(literals: Iterable<string>, flags = ''): RegExp {
  return new RegExp([...literals].map((l) => l.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'), flags);
}
