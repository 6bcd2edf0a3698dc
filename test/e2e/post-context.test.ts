import { beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// A post in its conversation (issue 15 "Threads and context"), in Chromium against headless mode
// and the demo corpus: the replies above it up to the root, its author's self-thread as one
// thread, the quoted post inside the quoting one, its quotes one click from the counter, and the
// sidebar showing the list the post was opened from.

interface Picks {
  deep: { id: string; depth: number };
  threadPost: { id: string; length: number };
  quoting: { id: string; quoted: string };
  quoted: { id: string; quotes: number };
}

describe('the post page shows the post in its conversation (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-context-');
  let page: Page;
  let picks: Picks;

  beforeAll(async () => {
    page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    // What to open, chosen from the corpus by SQL (the expectations are the corpus's own facts).
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    db.defaultSafeIntegers(true);
    const deep = db.prepare('SELECT id, reply_depth FROM posts ORDER BY reply_depth DESC, id LIMIT 1').raw().get() as [bigint, bigint];
    // The second post of a self-thread: its parent and one reply are the author's own.
    const second = db
      .prepare(
        `SELECT p.id FROM posts p JOIN posts parent ON parent.id = p.in_reply_to_status_id AND parent.user_id = p.user_id
         AND parent.in_reply_to_status_id IS NULL
         WHERE EXISTS (SELECT 1 FROM posts c WHERE c.in_reply_to_status_id = p.id AND c.user_id = p.user_id) ORDER BY p.id LIMIT 1`,
      )
      .pluck()
      .get() as bigint;
    let length = 2;
    for (let at = second; ; length++) {
      const next = db.prepare('SELECT id FROM posts WHERE in_reply_to_status_id = ? AND user_id = (SELECT user_id FROM posts WHERE id = ?) ORDER BY id LIMIT 1').pluck().get(at, at) as bigint | undefined;
      if (next === undefined) break;
      at = next;
    }
    const quoting = db.prepare('SELECT id, quoted_status_id FROM posts WHERE quoted_status_id IN (SELECT id FROM posts) ORDER BY id LIMIT 1').raw().get() as [bigint, bigint];
    const quoted = db.prepare('SELECT quoted_status_id, count(*) FROM posts WHERE quoted_status_id IN (SELECT id FROM posts) GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1').raw().get() as [bigint, bigint];
    db.close();
    picks = {
      deep: { id: String(deep[0]), depth: Number(deep[1]) },
      threadPost: { id: String(second), length },
      quoting: { id: String(quoting[0]), quoted: String(quoting[1]) },
      quoted: { id: String(quoted[0]), quotes: Number(quoted[1]) },
    };
  });

  const open = async (id: string) => {
    await page.goto(`${app.skein.url}/#/post/${id}`);
    await page.getByRole('article', { name: 'Post', exact: true }).waitFor();
  };

  it('lists every reply above a deep post, the root first, the middle folded until asked for', async () => {
    await open(picks.deep.id);
    const chain = page.getByRole('region', { name: 'In reply to' });
    await chain.waitFor();
    expect(picks.deep.depth).toBeGreaterThan(4);
    const shown = chain.getByRole('article');
    expect(await shown.count()).toBe(3); // the root and the two nearest
    await screenshot(page, 'post-context-deep-1440');
    await chain.getByRole('button', { name: /^Show \d+ more posts between$/ }).click();
    const all = await shown.count();
    // Every level above the post, less the author's own posts just above it (shown in the thread).
    const inThread = await page.getByRole('region', { name: 'Thread' }).count();
    if (inThread === 0) expect(all).toBe(picks.deep.depth);
    else expect(all).toBeLessThan(picks.deep.depth);
    // The root is a post with no parent: its own page has no "In reply to".
    const root = await shown.first().getByRole('link', { name: 'Open' }).getAttribute('href');
    await page.goto(`${app.skein.url}/${root}`);
    await page.getByRole('article', { name: 'Post', exact: true }).waitFor();
    await page.getByRole('region', { name: 'Replies' }).or(page.locator('#replies-title')).first().waitFor();
    expect(await page.getByRole('region', { name: 'In reply to' }).count()).toBe(0);
  });

  it("shows a self-thread as one thread with the post marked in it", async () => {
    await open(picks.threadPost.id);
    const thread = page.getByRole('region', { name: 'Thread' });
    await thread.waitFor();
    expect(await thread.getByRole('heading').textContent()).toMatch(new RegExp(`: ${picks.threadPost.length} posts, this is 2$`));
    expect(await thread.getByRole('article').count()).toBe(picks.threadPost.length);
    expect(await thread.locator('[aria-current="true"]').count()).toBe(1);
    expect(await page.getByRole('region', { name: 'In reply to' }).count()).toBe(0); // its parent is the thread's first post
    await screenshot(page, 'post-context-thread-1440');
  });

  it('embeds the quoted post, and leads from a quoted post to the posts quoting it', async () => {
    await open(picks.quoting.id);
    const embedded = page.getByRole('article', { name: 'Quoted post' });
    await embedded.waitFor();
    expect(await embedded.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(`#/post/${picks.quoting.quoted}`);

    await open(picks.quoted.id);
    const quotes = page.getByRole('link', { name: `${picks.quoted.quotes} posts in the corpus quote this one` });
    await quotes.waitFor();
    await quotes.click();
    const results = page.getByRole('table', { name: 'Search results' }).locator('.body-row');
    await results.first().waitFor();
    expect(await results.count()).toBe(picks.quoted.quotes);
    expect(decodeURIComponent(page.url())).toContain(`quoted_tweet_id:${picks.quoted.id}`);
    // Opened from Search, the post page keeps Search lit in the sidebar.
    await results.first().click();
    await page.getByRole('article', { name: 'Post', exact: true }).waitFor();
    expect(await page.locator('.sidebar').getByRole('link', { name: 'Search', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await page.locator('.sidebar').getByRole('link', { name: 'Home', exact: true }).getAttribute('aria-current')).toBeNull();
  });
});
