/**
 * How far a pattern's matches reach, read from its source: the longest match and how far around it
 * the pattern looks (lookarounds, word boundaries). A pattern with both bounded can be run only in
 * windows around its required literals (regex-rule.ts, on long lines) and find what a run over the
 * whole line finds.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';

export interface MatchReach {
  /** Most UTF-16 code units one match spans. */
  maxLength: number;
  /** Most code units the pattern reads outside a match, on either side. */
  context: number;
}

const parser = new RegExpParser({ ecmaVersion: 2025 });
const REACH = new WeakMap<RegExp, MatchReach | null>();

/** Unbounded repetition, or what windows cannot reproduce (anchors, backreferences): no reach. */
class Unbounded extends Error {}

/**
 * The pattern's reach, or null when a match may be unbounded or the pattern depends on where the
 * text starts or ends (`^`, `$`) or on earlier captures (backreferences).
 */
export function matchReach(re: RegExp): MatchReach | null {
  let reach = REACH.get(re);
  if (reach === undefined) {
    reach = computed(re);
    REACH.set(re, reach);
  }
  return reach;
}

function computed(re: RegExp): MatchReach | null {
  let ast: AST.RegExpLiteral;
  try {
    ast = parser.parseLiteral(`/${re.source}/${re.flags}`);
  } catch {
    return null;
  }
  // In Unicode mode one character may be a surrogate pair.
  const unit = re.flags.includes('u') || re.flags.includes('v') ? 2 : 1;
  let context = 0;
  const lengthOf = (node: AST.Node): number => {
    switch (node.type) {
      case 'Character':
        return node.value > 0xffff ? 2 : 1;
      case 'CharacterClass':
      case 'CharacterSet':
      case 'ExpressionCharacterClass':
        return unit;
      case 'Quantifier': {
        if (node.max === Infinity) throw new Unbounded();
        return node.max * lengthOf(node.element);
      }
      case 'Alternative':
        return node.elements.reduce((n, e) => n + lengthOf(e), 0);
      case 'Group':
      case 'CapturingGroup':
      case 'Pattern':
        return Math.max(0, ...node.alternatives.map(lengthOf));
      case 'Assertion':
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') {
          context = Math.max(context, Math.max(0, ...node.alternatives.map(lengthOf)));
          return 0;
        }
        if (node.kind === 'word') {
          context = Math.max(context, unit);
          return 0;
        }
        throw new Unbounded();
      default:
        throw new Unbounded();
    }
  };
  try {
    const maxLength = lengthOf(ast.pattern);
    // A lookaround inside the match may read up to its own length beyond the match's edge.
    return { maxLength, context };
  } catch (err) {
    if (err instanceof Unbounded) return null;
    throw err;
  }
}
