import type { QueryNode } from './ast';

// FTS5 query text built from the tree. Every word and phrase becomes an FTS5 string ("...",
// inner quotes doubled): inside a string FTS5 sees no operators, column filters, prefixes or
// NEAR groups, so user text can only ever be tokens to match. The expression itself is then a
// bound parameter of MATCH, never spliced into SQL.

export function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The FTS5 expression for a subtree made only of words, phrases, AND, OR and negations inside an
 * AND that also has a positive part (FTS5's NOT is binary: `a NOT b`). Null when the subtree
 * holds an operator or a negation FTS5 cannot express (`-a` alone, `a OR -b`).
 */
export function ftsExpression(node: QueryNode): string | null {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return ftsString(node.text);
    case 'operator':
    case 'not':
      return null;
    case 'or': {
      const parts = node.children.map(ftsExpression);
      return parts.every((p): p is string => p !== null) ? `(${parts.join(' OR ')})` : null;
    }
    case 'and':
      return ftsConjunction(node.children);
  }
}

/** `(p1 AND p2) NOT n1 NOT n2` for the positive and negated text terms of one AND. */
export function ftsConjunction(terms: readonly QueryNode[]): string | null {
  const positive: string[] = [];
  const negative: string[] = [];
  for (const term of terms) {
    if (term.kind === 'not') {
      const inner = ftsExpression(term.child);
      if (inner === null) return null;
      negative.push(inner);
    } else {
      const expr = ftsExpression(term);
      if (expr === null) return null;
      positive.push(expr);
    }
  }
  if (positive.length === 0) return null;
  return `(${positive.join(' AND ')})${negative.map((n) => ` NOT ${n}`).join('')}`;
}

/** Whether a conjunct of the top-level AND can join the one full-text MATCH. */
export function isTextTerm(node: QueryNode): boolean {
  return node.kind === 'not' ? ftsExpression(node.child) !== null : ftsExpression(node) !== null;
}
