import type { AndNode, OperatorNode, OrNode, QueryNode } from './ast';
import { tokenize, type Token } from './lexer';
import { NAMED_OPERATORS, OPERATOR_LIST, SIGIL_OPERATORS } from './operators';
import { SearchSyntaxError } from './syntax-error';

// Recursive descent over the tokens. Precedence, tightest first: `-` (negation), implicit AND
// (or the keyword AND), then OR, as on the platform: `a b OR c` is `(a b) OR c`.
//   query := or EOF      or := and ('OR' and)*      and := unary (['AND'] unary)*
//   unary := '-' unary | primary      primary := '(' or ')' | word | "phrase" | operator

/** Nesting of parentheses and negations; keeps recursion and SQL expression depth bounded. */
export const MAX_DEPTH = 32;
/** Terms in one query; each becomes a bound parameter and a predicate. */
export const MAX_TERMS = 64;

// A word FTS5 (unicode61) can index has at least one letter, digit or private-use character.
const SEARCHABLE = /[\p{L}\p{N}\p{Co}]/u;

export function parseQuery(query: string): QueryNode {
  return new Parser(query).parse();
}

class Parser {
  private readonly tokens: Token[];
  private pos = 0;
  private depth = 0;
  private terms = 0;

  constructor(private readonly query: string) {
    this.tokens = tokenize(query);
  }

  parse(): QueryNode {
    if (this.tokens.length === 0) throw this.error(0, this.query.length, 'the query is empty: expected a word, a "phrase" or an operator at {col}');
    const node = this.parseOr();
    const extra = this.peek();
    if (extra) throw this.error(extra.start, extra.end, "unmatched ')' at {col}: there is no '(' before it");
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private error(start: number, end: number, detail: string): SearchSyntaxError {
    return new SearchSyntaxError(this.query, start, end, detail);
  }

  private parseOr(): QueryNode {
    const children = [this.parseAnd()];
    for (let t = this.peek(); t?.type === 'or'; t = this.peek()) {
      this.pos++;
      const next = this.peek();
      if (!next || next.type === 'rparen' || next.type === 'or') {
        throw this.error(t.start, t.end, "'OR' at {col} needs a term after it");
      }
      children.push(this.parseAnd());
    }
    return children.length === 1 ? children[0]! : group('or', children);
  }

  private parseAnd(): QueryNode {
    const children: QueryNode[] = [];
    for (let t = this.peek(); t && t.type !== 'rparen' && t.type !== 'or'; t = this.peek()) {
      if (t.type === 'and') {
        this.pos++;
        const next = this.peek();
        if (children.length === 0) throw this.error(t.start, t.end, "'AND' at {col} needs a term before it");
        if (!next || next.type === 'rparen' || next.type === 'or' || next.type === 'and') {
          throw this.error(t.start, t.end, "'AND' at {col} needs a term after it");
        }
        continue;
      }
      children.push(this.parseUnary());
    }
    if (children.length === 0) {
      const t = this.peek();
      if (t?.type === 'or') throw this.error(t.start, t.end, "'OR' at {col} needs a term before it");
      if (t?.type === 'rparen') throw this.error(t.start, t.end, "expected a term before ')' at {col}");
      throw this.error(this.query.length, this.query.length, 'expected a term at {col}');
    }
    return children.length === 1 ? children[0]! : group('and', children);
  }

  private parseUnary(): QueryNode {
    const t = this.peek()!;
    if (t.type !== 'minus') return this.parsePrimary();
    this.pos++;
    const next = this.peek();
    if (!next || next.type === 'or' || next.type === 'and' || next.type === 'rparen') {
      throw this.error(t.start, t.end, "'-' at {col} must be followed directly by the term it excludes");
    }
    this.enter(t);
    const child = this.parseUnary();
    this.depth--;
    return { kind: 'not', child, start: t.start, end: child.end };
  }

  private enter(t: Token): void {
    if (++this.depth > MAX_DEPTH) throw this.error(t.start, t.end, `too deeply nested at {col}: at most ${MAX_DEPTH} levels of parentheses and negations`);
  }

  private countTerm(t: Token): void {
    if (++this.terms > MAX_TERMS) throw this.error(t.start, t.end, `too many terms: at most ${MAX_TERMS}; the one at {col} is one too many`);
  }

  private parsePrimary(): QueryNode {
    const t = this.tokens[this.pos++]!;
    switch (t.type) {
      case 'lparen': {
        this.enter(t);
        const next = this.peek();
        if (next?.type === 'rparen') throw this.error(t.start, next.end, 'empty parentheses at {col}: expected a term inside');
        if (!next) throw this.error(t.start, t.end, "missing ')' to close the '(' at {col}");
        const inner = this.parseOr();
        const close = this.peek();
        if (close?.type !== 'rparen') throw this.error(t.start, t.end, "missing ')' to close the '(' at {col}");
        this.pos++;
        this.depth--;
        return { ...inner, start: t.start, end: close.end };
      }
      case 'word':
        this.countTerm(t);
        if (!SEARCHABLE.test(t.text)) {
          throw this.error(t.start, t.end, `'${t.text}' at {col} has no letters or digits to search for`);
        }
        return { kind: 'word', text: t.text, start: t.start, end: t.end };
      case 'phrase':
        this.countTerm(t);
        if (!SEARCHABLE.test(t.text)) {
          throw this.error(t.start, t.end, 'the phrase at {col} has no letters or digits to search for');
        }
        return { kind: 'phrase', text: t.text, start: t.start, end: t.end };
      case 'hashtag':
      case 'cashtag':
      case 'mention': {
        this.countTerm(t);
        const spec = SIGIL_OPERATORS[t.type];
        const value = t.text === '' ? `expected ${spec.what} after '${spec.sigil}'` : spec.check(t.text);
        if (typeof value === 'string') {
          throw this.error(t.start, t.end, `'${spec.sigil}${t.text}' at {col}: expected ${value.replace(/^expected /, '')}`);
        }
        return { kind: 'operator', op: spec.op, value, start: t.start, end: t.end } satisfies OperatorNode;
      }
      case 'operator': {
        this.countTerm(t);
        const spec = NAMED_OPERATORS.get(t.name.toLowerCase());
        if (!spec) {
          throw this.error(t.start, t.start + t.name.length + 1, `unknown operator '${t.name}:' at {col}; expected one of ${OPERATOR_LIST} (or #tag, $cashtag, @name)`);
        }
        if (t.value === '') throw this.error(t.start, t.end, `'${t.name}:' at {col} needs a value: expected ${spec.check('') as string}`);
        const value = spec.check(t.value);
        if (typeof value === 'string') {
          throw new SearchSyntaxError(this.query, t.valueStart, t.end, `'${t.name}:' value '${t.value}' at {col}: expected ${value}`);
        }
        return { kind: 'operator', op: spec.op, value, start: t.start, end: t.end };
      }
      default:
        throw this.error(t.start, t.end, `unexpected '${this.query.slice(t.start, t.end)}' at {col}: expected a term`);
    }
  }
}

/** An AND or OR node, with nested groups of the same kind flattened into it. */
function group(kind: 'and' | 'or', children: QueryNode[]): AndNode | OrNode {
  const flat = children.flatMap((c) => (c.kind === kind ? c.children : [c]));
  return { kind, children: flat, start: children[0]!.start, end: children[children.length - 1]!.end } as AndNode | OrNode;
}
