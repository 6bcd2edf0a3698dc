import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const tweetText = readFileSync(join(__dirname, '..', 'fixtures', 'corpus', 'tweet-detail.json'), 'utf8').trim();

/** A JSON Lines file of `n` service Tweets (the fixture under ids above 2^53), for imports that must take a while. */
export function tweetsFile(dir: string, n: number): string {
  const file = join(dir, 'posts.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(tweetText.replace(/1897000000000000123/g, String(1897000000000100000n + BigInt(i))));
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
