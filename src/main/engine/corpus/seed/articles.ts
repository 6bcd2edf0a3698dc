import type { Rng } from './rng';
import { ARTICLE_BULLETS, ARTICLE_PARAGRAPHS } from './words';

// content_state of a long-form article (spec 2.4): header-one, unstyled and unordered-list-item
// blocks, Bold and Italic inline ranges. Article text is ASCII, so offsets in code points and in
// UTF-16 units agree.

interface Block {
  key: string;
  data: unknown[];
  entityRanges: unknown[];
  inlineStyleRanges: { length: number; offset: number; style: string }[];
  text: string;
  type: string;
}

function styled(rng: Rng, text: string): Block['inlineStyleRanges'] {
  const ranges: Block['inlineStyleRanges'] = [];
  const words = [...text.matchAll(/[A-Za-z]{4,}/g)];
  if (words.length >= 2) {
    const bold = words[rng.int(words.length)]!;
    ranges.push({ length: bold[0].length, offset: bold.index, style: 'Bold' });
    const italic = words[rng.int(words.length)]!;
    if (italic.index !== bold.index) ranges.push({ length: italic[0].length, offset: italic.index, style: 'Italic' });
  }
  return ranges.sort((a, b) => a.offset - b.offset);
}

export function articleContent(rng: Rng, title: string): { blocks: Block[]; preview: string } {
  const keys = new Set<string>();
  const key = () => {
    let k: string;
    do k = rng.chars('abcdefghijklmnopqrstuvwxyz0123456789', 5);
    while (keys.has(k));
    keys.add(k);
    return k;
  };
  const block = (type: string, text: string, ranges: Block['inlineStyleRanges'] = []): Block => ({
    key: key(), data: [], entityRanges: [], inlineStyleRanges: ranges, text, type,
  });
  const paragraphs = rng.shuffle(ARTICLE_PARAGRAPHS);
  const first = paragraphs[0]!;
  const blocks: Block[] = [
    block('unstyled', first, styled(rng, first)),
    block('header-one', `Part one: ${title.toLowerCase()}`),
    block('unstyled', paragraphs[1]!, styled(rng, paragraphs[1]!)),
  ];
  const bullets = rng.shuffle(ARTICLE_BULLETS).slice(0, 3);
  for (const b of bullets) blocks.push(block('unordered-list-item', b, rng.chance(0.5) ? [{ length: b.indexOf(' '), offset: 0, style: 'Bold' }] : []));
  blocks.push(block('header-one', 'What comes next'));
  blocks.push(block('unstyled', paragraphs[2]!, styled(rng, paragraphs[2]!)));
  return { blocks, preview: first.slice(0, 140) };
}
