import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// What every newcomer sees in the first minutes, in real Chromium against the built `skein serve`:
// no 404 on any load (the favicon is served), a title that names the view and what it shows, and
// no request to an image host unless the analyst turns remote images on in Settings.

interface Tour {
  large_conversation_root: { id_str: string; screen_name: string };
  article_post: { id_str: string; title: string };
  space: { id: string; title: string };
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;
/** A 1x1 PNG: what the stand-in image host answers. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe('a newcomer\'s first look (headless mode in Chromium)', () => {
  const app = demoApp('skein-e2e-newcomer-');
  let tour: Tour;

  beforeAll(async () => {
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    tour = JSON.parse(db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) as Tour;
    db.close();
  });

  /** A fresh profile (nothing in localStorage) whose every request and response is recorded. */
  async function freshPage(options: { colorScheme?: 'light' | 'dark'; width?: number } = {}) {
    const context = await app.browser.newContext({ viewport: { width: options.width ?? 1360, height: 880 }, colorScheme: options.colorScheme ?? 'light' });
    const page = await logIn(await context.newPage(), app.skein);
    const requests: string[] = [];
    const responses: { url: string; status: number }[] = [];
    // Image hosts are unreachable here; any request that leaves the machine is answered (and
    // recorded) rather than left to time out.
    await context.route((url) => !LOOPBACK.test(url.href), (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
    context.on('request', (r) => requests.push(r.url()));
    context.on('response', (r) => responses.push({ url: r.url(), status: r.status() }));
    page.on('pageerror', (e) => console.error('page error:', e.message));
    return { context, page, requests, responses };
  }

  const timelineUrl = () => `${app.skein.url}/#/timeline?user=${encodeURIComponent('@' + tour.large_conversation_root.screen_name)}`;

  async function openTimeline(page: Page) {
    await page.goto(timelineUrl());
    await page.locator('.user-card').waitFor();
    await page.getByTestId('timeline-status').waitFor();
  }

  it('loads every view without a single 404, and the favicon is there', async () => {
    const { context, page, responses } = await freshPage();
    await page.goto(app.skein.url);
    await page.getByRole('heading', { name: 'Demo tour' }).waitFor();
    for (const path of ['/timeline', '/search', '/jobs', '/exports', '/settings']) {
      await page.goto(`${app.skein.url}/#${path}`);
      await page.locator('.view').first().waitFor();
    }
    await openTimeline(page);
    await page.goto(`${app.skein.url}/#/post/${tour.large_conversation_root.id_str}`);
    await page.locator('.tweet-card').waitFor();

    // Chromium fetched the page's icon by itself...
    await expect.poll(() => responses.filter((r) => /\/(favicon\.ico|icon\.svg)$/.test(r.url)).map((r) => r.status)).toContain(200);
    // ...and every icon the page names is there, as is /favicon.ico that browsers ask for unbidden.
    const iconHrefs = await page.evaluate<string[]>('[...document.querySelectorAll(\'link[rel="icon"]\')].map((l) => l.href)');
    expect(iconHrefs.length).toBeGreaterThan(0);
    for (const url of [...iconHrefs, `${app.skein.url}/favicon.ico`]) {
      const res = await page.request.get(url);
      expect(res.status(), url).toBe(200);
      expect(res.headers()['content-type'], url).toMatch(/^image\//);
      expect((await res.body()).length, url).toBeGreaterThan(100);
    }
    expect(responses.filter((r) => r.status >= 400)).toEqual([]);
    await context.close();
  });

  it('names the view and what it shows in the title, and follows navigation', async () => {
    const { context, page } = await freshPage();
    // The post page's reply tree of a large conversation can keep the engine busy for seconds.
    const title = () => expect.poll(() => page.title(), { timeout: 20_000 });
    const name = tour.large_conversation_root.screen_name;
    await page.goto(app.skein.url);
    await title().toBe('Home — Skein');
    await openTimeline(page);
    await title().toBe(`@${name} · Timeline — Skein`);
    await page.goto(`${app.skein.url}/#/post/${tour.large_conversation_root.id_str}`);
    await title().toBe(`Post by @${name} — Skein`);
    await page.goto(`${app.skein.url}/#/article/${tour.article_post.id_str}`);
    await title().toMatch(/ · Article by @\w+ — Skein$/);
    expect(await page.title()).toContain(tour.article_post.title.slice(0, 20));
    await page.goto(`${app.skein.url}/#/space/${tour.space.id}`);
    await title().toMatch(/ · Space — Skein$/);
    await page.goto(`${app.skein.url}/#/search?q=${encodeURIComponent(`from:${name}`)}`);
    await title().toBe(`Search: from:${name} — Skein`);
    for (const [path, view] of [['/jobs', 'Jobs'], ['/exports', 'Exports'], ['/settings', 'Settings'], ['/timeline', 'Timeline'], ['/nowhere', 'No such page']]) {
      await page.goto(`${app.skein.url}/#${path}`);
      await title().toBe(`${view} — Skein`);
    }
    await context.close();
  });

  it('fetches no image from a remote host by default, and does once the setting is on', async () => {
    const { context, page, requests, responses } = await freshPage();
    await openTimeline(page);
    await page.goto(`${app.skein.url}/#/article/${tour.article_post.id_str}`);
    await page.locator('#article-title').waitFor();
    await page.goto(`${app.skein.url}/#/space/${tour.space.id}`);
    await page.getByRole('heading', { name: 'Creator' }).waitFor();
    await openTimeline(page);
    // Placeholders: initials in the avatar, and no <img> that points anywhere but here.
    expect(await page.locator('.user-card .avatar-initials').textContent()).toMatch(/^\S{1,2}$/);
    expect(await page.evaluate<string[]>('[...document.images].map((i) => i.src).filter((src) => !src.startsWith(location.origin))')).toEqual([]);
    expect(requests.filter((u) => !LOOPBACK.test(u))).toEqual([]);
    // And the page's policy refuses a remote image even if some code asked for one: the request
    // is stopped in the browser (Playwright still reports it as a request, never as a response).
    const blocked = await page.evaluate<string>(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
      const img = new Image();
      img.onload = () => resolve('loaded');
      img.src = 'https://images.example.com/probe.png';
    })`);
    expect(blocked).toBe('img-src');
    expect(responses.filter((r) => !LOOPBACK.test(r.url))).toEqual([]);

    // Turn it on in Settings: remembered across loads, and avatars come from their hosts.
    await page.goto(`${app.skein.url}/#/settings`);
    const setting = page.getByLabel('Load images from remote hosts');
    expect(await setting.isChecked()).toBe(false);
    // Turning it on reloads the page: the stricter policy cannot be lifted in place.
    await Promise.all([page.waitForEvent('load'), setting.click()]);
    await expect.poll(() => page.getByLabel('Load images from remote hosts').isChecked()).toBe(true);
    await openTimeline(page);
    const avatar = page.locator('.user-card img.avatar-img');
    await avatar.waitFor({ state: 'attached' });
    expect(await avatar.getAttribute('src')).toMatch(/^https:\/\//);
    await expect.poll(() => page.locator('.user-card img.avatar-img.loaded').count()).toBe(1);
    expect(responses.filter((r) => r.url.startsWith('https://images.example.com/')).length).toBeGreaterThan(0);

    // Off again: no <img> with a remote src, at once and without a reload.
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByLabel('Load images from remote hosts').uncheck();
    await openTimeline(page);
    expect(await page.locator('.user-card img').count()).toBe(0);
    await context.close();
  });

  it('looks right at 1440 and 1024 px, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1440, 1024]) {
        const { context, page } = await freshPage({ colorScheme, width });
        await openTimeline(page);
        await screenshot(page, `newcomer-timeline-${width}-${colorScheme}`);
        await page.goto(`${app.skein.url}/#/settings`);
        // Once the Data section above has its facts (it grows), bring the Images section to the middle.
        await page.getByTestId('data-dir').waitFor();
        await page.locator('#images-title').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await screenshot(page, `newcomer-settings-${width}-${colorScheme}`);
        // Only the content column scrolls: nothing (a segmented control's hidden radio, say) makes
        // the page itself taller than the window, which left a blank band under the sidebar.
        expect(await page.evaluate('document.documentElement.scrollHeight - window.innerHeight')).toBe(0);
        await context.close();
      }
    }
  });
});
