import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';
import type { JobRow, Overview, ReplyShape, TweetUser, UserTopPosts } from '../../src/shared/contract';

// The pictures of issue 16 in Chromium against headless mode and the demo corpus: the overview of
// a finished job's rows (from Jobs and Exports, also after its file is deleted; a job from before
// Skein recorded its rows says so), a user's page with their activity and top posts, and a post's
// page with its reply tree drawn (the demo's largest conversation: 1,630 replies over 16 levels).
// Every figure shown is checked against the engine's own answer; screenshots at 1440x900 and
// 1024x700, light and dark.

interface Tour {
  large_conversation_root: { id_str: string; screen_name: string; replies: number };
}

const SIZES = [[1440, 900], [1024, 700]] as const;
const SCHEMES = ['light', 'dark'] as const;
const num = (n: number) => n.toLocaleString('en-US');

describe('the pictures: a job\'s rows, a user\'s page, a post\'s reply tree (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-viz-');
  let tour: Tour;

  beforeAll(() => {
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    tour = JSON.parse(db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) as Tour;
    db.close();
  });

  /** An app call as the page makes it (POST /app/rpc/<name> with the session cookie). */
  const rpc = <T,>(page: Page, name: string, args: object) =>
    page.evaluate(
      async ([n, a]) => {
        const res = await fetch(`/app/rpc/${n}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skein-app': '1' }, body: JSON.stringify(a) });
        return (await res.json()) as { value?: unknown; message?: string };
      },
      [name, args] as const,
    ) as Promise<{ value?: T; message?: string }>;

  async function finishedJob(page: Page, args: object): Promise<JobRow> {
    const { value } = await rpc<{ job_id: number }>(page, 'jobs.create', args);
    const jobId = value!.job_id;
    await expect.poll(async () => (await rpc<JobRow>(page, 'jobs.get', { job_id: jobId })).value?.status, { timeout: 60_000 }).toBe('success');
    return (await rpc<JobRow>(page, 'jobs.get', { job_id: jobId })).value!;
  }

  const newPage = async (width: number, height: number, scheme: 'light' | 'dark' = 'light') => {
    const page = await logIn(await app.browser.newPage({ viewport: { width, height }, colorScheme: scheme, acceptDownloads: true }), app.skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    return page;
  };

  it("opens the overview of a finished job's rows from Jobs and Exports, also after its file is deleted; an older job says it has none", { timeout: 180_000 }, async () => {
    const page = await newPage(1440, 900);
    await page.goto(`${app.skein.url}/#/jobs`);
    const job = await finishedJob(page, { kind: 'search', query: '#opendata', max_count: 300, output_format: 'csv', name: 'Open data sample' });
    const old = await finishedJob(page, { kind: 'search', query: 'lang:en', max_count: 20, output_format: 'json' });
    // As a job from before migration 066: it never recorded its rows.
    const db = new Database(join(app.dataDir, 'skein.db'));
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE jobs SET records_posts = 0 WHERE id = ?').run(old.job_id);
    db.close();

    await page.goto(`${app.skein.url}/#/jobs`);
    await page.getByRole('link', { name: `Overview of the rows of job ${job.job_id}` }).click();
    await page.waitForURL(new RegExp(`#/overview\\?job=${job.job_id}$`));
    await page.getByTestId('posts-chart').locator('canvas').waitFor();
    const o = (await rpc<Overview>(page, 'overview.get', { job_id: job.job_id, utc_offset_minutes: -new Date().getTimezoneOffset() })).value!;
    expect(o.posts).toBe(job.progress);
    expect(o.posts).toBeGreaterThan(50);
    expect(await page.getByTestId('ov-posts').textContent()).toBe(num(o.posts));
    expect(await page.getByTestId('ov-authors').textContent()).toBe(num(o.unique_authors));
    expect(await page.getByTestId('ov-hashtags').getByRole('button').allTextContents()).toEqual(o.hashtags.map((h) => `#${h.value}`));
    expect(o.hashtags[0]!.value).toBe('opendata');
    expect(await page.getByTestId('job-drill-note').textContent()).toContain('#opendata');
    expect(await page.locator('.page-header').textContent()).toContain(`The ${num(job.progress)} rows job ${job.job_id} wrote: Open data sample`);

    // The older job: no link in Jobs, and its overview address says plainly why.
    await page.goto(`${app.skein.url}/#/jobs`);
    await page.getByTestId(`no-overview-${old.job_id}`).waitFor();
    expect(await page.getByRole('link', { name: `Overview of the rows of job ${old.job_id}` }).count()).toBe(0);
    await page.goto(`${app.skein.url}/#/overview?job=${old.job_id}`);
    expect(await page.getByTestId('job-overview-unavailable').textContent()).toContain(`Job ${old.job_id} ran before Skein recorded which posts a job writes`);
    await page.goto(`${app.skein.url}/#/exports?job=${old.job_id}`);
    expect(await page.getByTestId('export-overview').textContent()).toContain('No overview of these rows');

    // Exports: the link from the file's preview; deleting the file keeps the overview.
    await page.goto(`${app.skein.url}/#/exports?job=${job.job_id}`);
    expect((await rpc(page, 'exports.delete', { job_id: job.job_id })).value).toBeTruthy();
    await page.reload();
    await page.getByTestId('export-overview').getByRole('link', { name: 'Overview of these rows' }).click();
    await page.waitForURL(new RegExp(`#/overview\\?job=${job.job_id}$`));
    await page.getByTestId('posts-chart').locator('canvas').waitFor();
    expect(await page.getByTestId('ov-posts').textContent()).toBe(num(o.posts));
    // The sidebar keeps the section it was opened from lit; opened directly, Jobs.
    const lit = () => page.locator('.sidebar a[aria-current=page]').textContent();
    expect(await lit()).toContain('Exports');
    await page.goto('about:blank');
    await page.goto(`${app.skein.url}/#/overview?job=${job.job_id}`);
    await page.getByTestId('ov-posts').waitFor();
    expect(await lit()).toContain('Jobs');
    await page.close();

    for (const [width, height] of SIZES) {
      for (const scheme of SCHEMES) {
        const p = await newPage(width, height, scheme);
        await p.goto(`${app.skein.url}/#/overview?job=${job.job_id}`);
        await p.getByTestId('posts-chart').locator('canvas').waitFor();
        await screenshot(p, `viz-job-overview-${width}-${scheme}`);
        expect((await p.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width);
        await p.close();
      }
    }
  });

  it("shows a user's activity and top posts on their page, each counted by the engine, and opens a top post", { timeout: 120_000 }, async () => {
    const page = await newPage(1440, 900);
    const name = tour.large_conversation_root.screen_name;
    await page.goto(`${app.skein.url}/#/timeline?user=${name}`);
    await page.getByTestId('user-activity').locator('canvas').waitFor();
    const user = (await rpc<TweetUser>(page, 'users.lookup', { user: name })).value!;
    const o = (await rpc<Overview>(page, 'overview.get', { user_id: user.id_str, utc_offset_minutes: -new Date().getTimezoneOffset() })).value!;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    expect(await page.getByTestId('activity-figures').textContent()).toBe(`${num(o.posts)} posts in the corpus · ${pct(o.reply_share)} replies · ${pct(o.quote_share)} quotes`);
    // The chart of the engine's series, per its bucket (its y axis reads "Posts per <bucket>"), in
    // the zone the app's dates are shown in (the computer's by default).
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await page.getByTestId('user-activity').getByTestId('posts-chart').getAttribute('aria-label')).toBe(`Posts over time, per ${o.bucket} (${zone})`);

    const top = (await rpc<UserTopPosts>(page, 'user.topPosts', { user_id: user.id_str })).value!;
    expect(top.most_replied.length).toBe(5);
    const replied = page.getByTestId('top-replied').locator('li');
    expect(await replied.count()).toBe(5);
    const counts = await page.getByTestId('top-replied').locator('.top-post-count').allTextContents();
    expect(counts).toEqual(top.most_replied.map((t) => num(t.tweet.reply_count)));
    expect(await page.getByTestId('top-liked').locator('.top-post-count').allTextContents()).toEqual(top.most_liked.map((t) => num(t.tweet.favorite_count)));
    // The large conversation's root is its author's most replied-to post.
    expect(top.most_replied[0]!.tweet.id_str).toBe(tour.large_conversation_root.id_str);
    expect(await replied.first().textContent()).toContain(`(${num(top.most_replied[0]!.replies_in_corpus)} in the corpus)`);

    await page.getByTestId('top-liked').getByRole('button').first().click();
    await page.waitForURL(new RegExp(`#/post/${top.most_liked[0]!.tweet.id_str}$`));
    await page.goBack();
    await page.getByTestId('timeline-overview').click();
    await page.waitForURL(/#\/overview\?user=/);
    await page.getByTestId('posts-chart').locator('canvas').waitFor();
    await page.close();

    for (const [width, height] of SIZES) {
      for (const scheme of SCHEMES) {
        const p = await newPage(width, height, scheme);
        await p.goto(`${app.skein.url}/#/timeline?user=${name}`);
        await p.getByTestId('user-activity').locator('canvas').waitFor();
        await p.getByTestId('top-liked').locator('li').first().waitFor();
        await screenshot(p, `viz-user-page-${width}-${scheme}`);
        expect((await p.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width);
        await p.close();
      }
    }
  });

  it("draws the largest conversation's reply tree, every level, with hover, click and saving", { timeout: 180_000 }, async () => {
    const page = await newPage(1440, 900);
    const root = tour.large_conversation_root.id_str;
    await page.goto(`${app.skein.url}/#/post/${root}`);
    const tree = page.getByTestId('reply-tree');
    await tree.locator('svg').waitFor();
    const shape = (await rpc<ReplyShape>(page, 'post.replyShape', { id: root })).value!;
    expect(shape.total).toBe(1630);
    expect(shape.levels.length).toBe(16);
    expect(shape.nodes.length).toBe(1630); // all of them sent: the picture groups what is too narrow
    const summary = (await page.getByTestId('reply-tree-summary').textContent())!;
    expect(summary).toMatch(/^1,630 replies over 16 levels\. [\d,]+ are drawn one by one; the other [\d,]+, each narrower than 3 px at this width, are drawn in [\d,]+ grey groups/);
    // Drawn one by one plus grouped make every reply.
    const [drawn, grouped] = /([\d,]+) are drawn one by one; the other ([\d,]+)/.exec(summary)!.slice(1).map((s) => Number(s.replace(/,/g, '')));
    expect(drawn! + grouped!).toBe(1630);
    // One row per level, each with its count of replies.
    for (const l of shape.levels) expect(await tree.getByTestId(`tree-level-${l.depth}`).count()).toBe(1);
    expect(await tree.locator('.reply-tree-block').count()).toBeGreaterThan(drawn!);

    // Hover: the widest direct reply's block shows its author and text start.
    const widest = shape.nodes.find((n) => n.depth === 1)!;
    const block = tree.locator('.reply-tree-block').first();
    await block.hover();
    const tip = page.getByTestId('reply-tree-tip');
    await tip.waitFor();
    expect(await tip.textContent()).toContain(`@${widest.screen_name}`);
    expect(await tip.textContent()).toContain(widest.text.slice(0, 30));
    expect(await tip.textContent()).toContain(`${num(widest.size)} posts in its branch`);

    // Saving: CSV of every reply sent, SVG as drawn, PNG.
    const [csv] = await Promise.all([page.waitForEvent('download'), tree.getByRole('button', { name: 'Save CSV' }).click()]);
    const lines = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('id_str,parent_id_str,level,screen_name,direct_replies,branch_posts,created_at_utc');
    expect(lines.length).toBe(1 + 1 + 1630);
    const [svg] = await Promise.all([page.waitForEvent('download'), tree.getByRole('button', { name: 'Save SVG' }).click()]);
    const svgText = readFileSync((await svg.path())!, 'utf8');
    expect(svgText).toContain('<svg');
    expect(svgText).toContain('Level 16');
    const [png] = await Promise.all([page.waitForEvent('download'), tree.getByRole('button', { name: 'Save PNG' }).click()]);
    expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');

    // A level's label lists that level below; a block opens its post, whose tree is its branch.
    await tree.getByTestId('tree-level-5').click();
    expect(await page.getByRole('tab', { selected: true }).textContent()).toContain('Level 5');
    await block.click();
    await page.waitForURL(new RegExp(`#/post/${widest.id_str}$`));
    await page.getByTestId('reply-tree').locator('svg').waitFor();
    expect(await page.getByTestId('reply-tree-summary').textContent()).toMatch(new RegExp(`^${num(widest.size - 1)} replies over`));
    await page.close();

    for (const [width, height] of SIZES) {
      for (const scheme of SCHEMES) {
        const p = await newPage(width, height, scheme);
        await p.goto(`${app.skein.url}/#/post/${root}`);
        const t = p.getByTestId('reply-tree');
        await t.locator('svg').waitFor();
        await t.scrollIntoViewIfNeeded();
        await t.locator('.reply-tree-block').nth(3).hover();
        await p.getByTestId('reply-tree-tip').waitFor();
        await screenshot(p, `viz-post-tree-${width}-${scheme}`);
        const spill = (await p.evaluate(`(() => { const c = document.querySelector('[data-testid=reply-tree]').closest('.card'); return c.scrollWidth - c.clientWidth; })()`)) as number;
        expect(spill).toBeLessThanOrEqual(1);
        await p.close();
      }
    }
  });
});
