import { useState } from 'react';
import { indentJson } from './indent-json';

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
