// Pretty-printing that never parses: JSON.parse would round 19-digit integers.
/** Re-indents JSON text token by token, leaving every literal (big integers included) as it is. */
export function indentJson(text: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  const pad = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      if (text[i + 1] === close) {
        out += ch + close;
        i++;
      } else {
        depth++;
        out += ch + pad();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += pad() + ch;
    } else if (ch === ',') out += ',' + pad();
    else if (ch === ':') out += ': ';
    else if (!/\s/.test(ch)) out += ch;
  }
  return out;
}
