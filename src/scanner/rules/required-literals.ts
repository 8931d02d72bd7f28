/**
 * Literals a regex cannot match without: lower-case strings of which every match holds at least
 * one, read from the pattern's source. A rule's triggers gate its lines; these gate each pattern,
 * so a pattern whose literals are absent from a view is never run on it (regex-rule.ts). The
 * reading is conservative: where the source is not plainly understood, the pattern gets none.
 */

/** Shorter literals are in most lines and would gate nothing. */
const MIN_LITERAL = 3;

interface Item {
  /** A literal character, or null for anything else (class, escape class, assertion, group). */
  char: string | null;
  /** For a plain group: its alternatives' required literals (null: none known). */
  group: string[] | null;
  /** Least number of repetitions (0: optional). */
  min: number;
}

/** Escapes that stand for one literal character. */
const LITERAL_ESCAPE = /^[\\/.^$|?*+()[\]{}\-'"`#:,;=!<>@%&~ ]$/;

/**
 * Parses the alternatives of `src` from `at` until an unmatched `)` or the end; returns the
 * required literals of the alternation and where it stopped, or null when not understood.
 */
function alternation(src: string, at: number): { literals: string[] | null; end: number; alternatives: Item[][] } | null {
  const alternatives: Item[][] = [[]];
  let i = at;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ')') break;
    if (c === '|') {
      alternatives.push([]);
      i++;
      continue;
    }
    let item: Item;
    if (c === '\\') {
      const e = src[i + 1];
      // Backreferences and property classes: not read here.
      if (e === undefined || e === 'k' || e === 'p' || e === 'P' || /[1-9]/.test(e)) return null;
      item = { char: LITERAL_ESCAPE.test(e) ? e : null, group: null, min: 1 };
      // \b, \s, \d, \x41, \u0041, \1 …: not a literal character (hex and unicode escapes skip their digits).
      if (e === 'x') i += 2;
      else if (e === 'u') i += src[i + 2] === '{' ? src.indexOf('}', i) - i - 1 : 4;
      else if (e === 'c') i += 1;
      i += 2;
    } else if (c === '[') {
      let j = i + 1;
      if (src[j] === '^') j++;
      if (src[j] === ']') j++;
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) return null;
      item = { char: null, group: null, min: 1 };
      i = j + 1;
    } else if (c === '(') {
      let j = i + 1;
      let plain = true;
      if (src[j] === '?') {
        if (src[j + 1] === ':') j += 2;
        else if (src[j + 1] === '<' && src[j + 2] !== '=' && src[j + 2] !== '!') j = src.indexOf('>', j) + 1;
        else plain = false; // lookaround: not part of the match
        if (!plain) j += src[j + 1] === '<' ? 3 : 2;
      }
      const inner = alternation(src, j);
      if (!inner || src[inner.end] !== ')') return null;
      item = { char: null, group: plain ? inner.literals : null, min: plain ? 1 : 0 };
      i = inner.end + 1;
    } else if (c === '.' || c === '^' || c === '$') {
      item = { char: null, group: null, min: 1 };
      i++;
    } else if ('?*+{'.includes(c)) {
      return null;
    } else {
      item = { char: c, group: null, min: 1 };
      i++;
    }
    // A quantifier sets the item's least count; a lazy or possessive mark after it changes nothing here.
    const q = src[i];
    if (q === '?' || q === '*') {
      item.min = 0;
      i++;
    } else if (q === '+') {
      // Repeated: the character is in the match, but what follows it need not be next to its first copy.
      i++;
      if (src[i] === '?') i++;
      alternatives[alternatives.length - 1]!.push(item, { char: null, group: null, min: 1 });
      continue;
    } else if (q === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(src.slice(i));
      if (!m) return null;
      item.min = Math.min(item.min, Number(m[1]));
      // Repeated: only one copy of it is known to be in the match, so it ends a literal run.
      if (m[0] !== '{1}') item.char = item.min > 0 && item.char !== null ? item.char : null;
      i += m[0].length;
      if (item.min > 0 && item.char !== null) alternatives[alternatives.length - 1]!.push(item, { char: null, group: null, min: 1 });
      else alternatives[alternatives.length - 1]!.push(item);
      if (src[i] === '?') i++;
      continue;
    }
    if (src[i] === '?') i++;
    alternatives[alternatives.length - 1]!.push(item);
  }
  const sets = alternatives.map(requiredOfSequence);
  return { literals: sets.some((s) => s === null) ? null : [...new Set(sets.flat() as string[])], end: i, alternatives };
}

/** The best-known required literals of one sequence: its longest literal run, else its first plain group's set. */
function requiredOfSequence(items: Item[]): string[] | null {
  let best = '';
  let run = '';
  let group: string[] | null = null;
  for (const it of items) {
    if (it.char !== null && it.min > 0) {
      run += it.char;
      if (run.length > best.length) best = run;
      continue;
    }
    run = '';
    if (it.min > 0 && it.group && !group) group = it.group;
  }
  if (best.length >= MIN_LITERAL) return [best];
  return group;
}

/** Lower-cased literals that gate lines, or null when one would not (short, or non-ASCII: lower-casing may not map it as the regex's case folding does). */
function gatingLiterals(literals: readonly string[] | null): readonly string[] | null {
  if (!literals || literals.length === 0) return null;
  const lower = literals.map((l) => l.toLowerCase());
  return lower.some((l) => l.length < MIN_LITERAL || !/^[\x20-\x7e]+$/.test(l)) ? null : lower;
}

/** The pattern's source read, or null when it is not understood or case folding differs from lower-casing. */
function parsed(pattern: RegExp): { literals: string[] | null; alternatives: Item[][] } | null {
  // Case-insensitive Unicode patterns fold letters such as ſ to s, which lower-casing the text does not.
  if (pattern.flags.includes('i') && (pattern.flags.includes('u') || pattern.flags.includes('v'))) return null;
  const read = alternation(pattern.source, 0);
  return read && read.end === pattern.source.length ? read : null;
}

/**
 * Every literal set a match of the pattern must hold one of, all at once (none when none are
 * known): first the set the whole pattern needs (its longest literal run, else its first required
 * group, per alternative), then, for a pattern of one top-level sequence, each other literal run and required plain group
 * of that sequence ("send … credentials … to" needs a verb and a secret's name). A line lacking
 * one set cannot hold a match.
 */
export function requiredLiteralSets(pattern: RegExp): (readonly string[])[] {
  const read = parsed(pattern);
  const first = gatingLiterals(read?.literals ?? null);
  if (!read || !first) return [];
  const sets: (readonly string[])[] = [first];
  if (read.alternatives.length !== 1) return sets;
  const seen = new Set([first.join('\n')]);
  const add = (literals: readonly string[] | null): void => {
    const gating = gatingLiterals(literals);
    if (!gating || seen.has(gating.join('\n'))) return;
    seen.add(gating.join('\n'));
    sets.push(gating);
  };
  let run = '';
  for (const it of read.alternatives[0]!) {
    if (it.char !== null && it.min > 0) {
      run += it.char;
      continue;
    }
    if (run.length >= MIN_LITERAL) add([run]);
    run = '';
    if (it.min > 0 && it.group) add(it.group);
  }
  if (run.length >= MIN_LITERAL) add([run]);
  return sets;
}
