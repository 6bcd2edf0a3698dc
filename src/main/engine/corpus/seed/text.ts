import { ALNUM, type Rng } from './rng';

// Post text with Entities whose indices point at the right characters. Indices count Unicode code
// points, as the platform's do (an emoji such as 🚀 is one code point but two UTF-16 units), so
// `[...full_text].slice(start, end).join('')` is exactly the entity's text.

export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

export interface MentionRef {
  id_str: string;
  name: string;
  screen_name: string;
}

export class TextBuilder {
  private parts: string[] = [];
  private cp = 0;
  readonly entities = {
    hashtags: [] as { text: string; indices: [number, number] }[],
    symbols: [] as { text: string; indices: [number, number] }[],
    user_mentions: [] as (MentionRef & { indices: [number, number] })[],
    urls: [] as { display_url: string; expanded_url: string; url: string; indices: [number, number] }[],
  };

  constructor(private readonly rng: Rng) {}

  /** Plain text; a space is put between words. */
  word(s: string): this {
    return this.raw(this.parts.length ? ` ${s}` : s);
  }

  private raw(s: string): this {
    this.parts.push(s);
    this.cp += codePoints(s);
    return this;
  }

  private span(s: string): [number, number] {
    if (this.parts.length) this.raw(' ');
    const start = this.cp;
    this.raw(s);
    return [start, this.cp];
  }

  hashtag(tag: string): this {
    this.entities.hashtags.push({ text: tag, indices: this.span(`#${tag}`) });
    return this;
  }

  cashtag(ticker: string): this {
    this.entities.symbols.push({ text: ticker, indices: this.span(`$${ticker}`) });
    return this;
  }

  mention(user: MentionRef): this {
    this.entities.user_mentions.push({ ...user, indices: this.span(`@${user.screen_name}`) });
    return this;
  }

  /** A t.co-style link to a page on a reserved example domain. */
  link(expanded: string): this {
    const url = `https://t.co/${this.rng.chars(ALNUM, 10)}`;
    const bare = expanded.replace(/^https?:\/\//, '');
    const display = bare.length > 26 ? `${bare.slice(0, 25)}…` : bare;
    this.entities.urls.push({ display_url: display, expanded_url: expanded, url, indices: this.span(url) });
    return this;
  }

  text(): string {
    return this.parts.join('');
  }
}
