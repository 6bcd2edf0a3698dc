import type { ReactNode } from 'react';
import type { ArticleBlock } from '../../../../shared/contract';

/**
 * An article's content_state as reading text: header-one -> heading, runs of unordered-list-item
 * -> one list, anything else -> a paragraph. inlineStyleRanges (Bold, Italic) are applied per
 * character (offsets in code points), so overlapping ranges nest correctly.
 */
export function ContentState({ blocks }: { blocks: ArticleBlock[] }) {
  const out: ReactNode[] = [];
  let list: ReactNode[] = [];
  const flush = () => {
    if (list.length) out.push(<ul key={`ul-${out.length}`}>{list}</ul>);
    list = [];
  };
  blocks.forEach((block, i) => {
    const key = block.key || String(i);
    const content = <StyledText block={block} />;
    if (block.type === 'unordered-list-item') {
      list.push(<li key={key}>{content}</li>);
      return;
    }
    flush();
    if (block.type === 'header-one') out.push(<h2 key={key}>{content}</h2>);
    else if (block.type === 'header-two') out.push(<h3 key={key}>{content}</h3>);
    else if (block.type === 'ordered-list-item') out.push(<ol key={key}><li>{content}</li></ol>);
    else if (block.type === 'blockquote') out.push(<blockquote key={key}>{content}</blockquote>);
    else out.push(<p key={key}>{content}</p>);
  });
  flush();
  return <div className="article-body">{out}</div>;
}

function StyledText({ block }: { block: ArticleBlock }) {
  const chars = Array.from(block.text ?? '');
  const styles: Set<string>[] = chars.map(() => new Set());
  for (const r of block.inlineStyleRanges ?? []) {
    if (typeof r.offset !== 'number' || typeof r.length !== 'number') continue;
    for (let i = Math.max(0, r.offset); i < Math.min(chars.length, r.offset + r.length); i++) styles[i]!.add(r.style);
  }
  const runs: { text: string; styles: Set<string> }[] = [];
  chars.forEach((ch, i) => {
    const last = runs[runs.length - 1];
    const s = styles[i]!;
    if (last && same(last.styles, s)) last.text += ch;
    else runs.push({ text: ch, styles: s });
  });
  return (
    <>
      {runs.map((run, i) => {
        let node: ReactNode = run.text;
        if (run.styles.has('Italic') || run.styles.has('ITALIC')) node = <em>{node}</em>;
        if (run.styles.has('Bold') || run.styles.has('BOLD')) node = <strong>{node}</strong>;
        return <span key={i}>{node}</span>;
      })}
    </>
  );
}

const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
