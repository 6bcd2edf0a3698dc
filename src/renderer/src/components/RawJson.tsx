import { useState } from 'react';

/** The exact JSON the API returns for this item (integers above 2^53 as written), with copy. */
export function RawJson({ json, title = 'Raw JSON' }: { json: string; title?: string }) {
  const [copied, setCopied] = useState(false);
  let pretty = json;
  // Pretty-print without JSON.parse, which would round 19-digit integers: indent by structure.
  try {
    pretty = indentJson(json);
  } catch {
    pretty = json;
  }
  return (
    <section className="raw-json" aria-label={title}>
      <header>
        <h3>{title}</h3>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(json).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </header>
      <pre tabIndex={0}>{pretty}</pre>
    </section>
  );
}

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
