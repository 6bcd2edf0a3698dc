import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';

// The import report (issue 15): two files picked at once, one good and one with problems, give a
// row per file with its own counts and every reason in full (wrapping, not cut), and the
// "Importing…" notice is replaced by the import's result when it ends.

const user = { id_str: '9007199254741001', name: 'Report Person', screen_name: 'report_p', created_at: 'Wed Oct 10 20:19:24 +0000 2018' };
const post = (id: string, text: string) => JSON.stringify({ id_str: id, full_text: text, created_at: 'Thu Oct 11 20:19:24 +0000 2018', user });

describe('the import report (headless mode)', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-importreport-'));
  const files = mkdtempSync(join(tmpdir(), 'skein-e2e-importfiles-'));

  beforeAll(async () => {
    skein = await startSkein(dataDir);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  it('lists each file with its counts and every reason, and ends the "Importing…" notice', async () => {
    const good = join(files, 'good-posts.jsonl');
    const bad = join(files, 'posts-with-problems.jsonl');
    writeFileSync(good, `${post('9007199254741101', 'first good post')}\n${post('9007199254741102', 'second good post')}\n`);
    const longKey = 'a_field_with_a_long_name_that_must_wrap_rather_than_be_cut_at_the_column_edge';
    writeFileSync(bad, [post('9007199254741201', 'the one good post in the bad file'), '{"id_str": "12", "full_text": broken', JSON.stringify({ [longKey]: 1, another_unknown_key: 2 }), '"just a string"'].join('\n') + '\n');

    const page = await logIn(await browser.newPage({ viewport: { width: 1440, height: 900 } }), skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${skein.url}/#/settings`);
    await page.getByLabel('Files to import').setInputFiles([good, bad]);
    const report = page.locator('.import-report');
    await report.locator('[aria-label="Imported files"]').waitFor({ timeout: 30_000 });
    // The summary adds up the file rows below: 1 skipped and 2 refused, not "3 skipped".
    expect(await report.locator('.import-head').textContent()).toContain('3 added · 0 updated · 1 skipped · 2 refused · done');

    const rows = report.locator('[data-testid="import-file"]');
    expect(await rows.count()).toBe(2);
    const cells = async (i: number) => (await rows.nth(i).locator('th, td').allTextContents()).map((t) => t.trim());
    // File, found, records, added, updated, skipped, refused.
    expect(await cells(0)).toEqual(['good-posts.jsonl', 'Twitter API v1.1 (JSON Lines)', '2', '2', '0', '0', '0']);
    expect(await cells(1)).toEqual(['posts-with-problems.jsonl', 'Twitter API v1.1 (JSON Lines)', '4', '1', '0', '1', '2']);

    const reasons = report.getByRole('list', { name: 'Why records of posts-with-problems.jsonl were left out' });
    expect((await reasons.locator('li').allTextContents()).sort()).toEqual(['1 malformed JSON', '1 not a record (not a JSON object)', '1 unknown record shape'].sort());
    const problems = report.getByRole('list', { name: 'Problems in posts-with-problems.jsonl' }).locator('li');
    expect(await problems.count()).toBe(2);
    expect(await problems.nth(0).textContent()).toMatch(/^line 2: malformed JSON: /);
    const unknown = problems.nth(1);
    expect(await unknown.textContent()).toContain(`line 3: not a post, article or space this importer knows (keys: ${longKey}, another_unknown_key)`);
    expect(await report.getByRole('list', { name: 'Why records of good-posts.jsonl were left out' }).count()).toBe(0);

    // The notice: "Importing…" is gone, its place taken by the result.
    const notices = page.locator('.toast');
    await expect.poll(() => notices.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^Imported 2 files: 3 added, 0 updated, 1 skipped, 2 refused \(see Settings > Data for why\)\./)]));
    expect((await notices.allTextContents()).some((t) => t.includes('Importing'))).toBe(false);

    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'import-report-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await report.scrollIntoViewIfNeeded();
    // Wrapped, not cut: the whole reason is inside its box, on more than one line at 1024 px.
    const box = await unknown.boundingBox();
    const oneLine = (await problems.nth(0).boundingBox())!.height;
    expect(box!.height).toBeGreaterThan(oneLine * 1.5);
    expect(await unknown.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'import-report-1024');
    await page.close();
  });

  it('refuses a Latin-1 file with the app\'s way out, and reads it as Latin-1 once that is chosen', async () => {
    // "Café 10€" in Windows-1252: é is 0xE9 and € 0x80, neither valid UTF-8.
    const latin1 = join(files, 'latin1-posts.jsonl');
    const line = post('9007199254741301', 'Café 10€');
    writeFileSync(latin1, Buffer.concat([Buffer.from(line.slice(0, line.indexOf('Café')), 'latin1'), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x31, 0x30, 0x80]), Buffer.from(`${line.slice(line.indexOf('€') + 1)}\n`, 'latin1')]));

    const page = await logIn(await browser.newPage({ viewport: { width: 1440, height: 900 } }), skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${skein.url}/#/settings`);
    const refuse = page.getByRole('radio', { name: 'Refuse them' });
    expect(await refuse.isChecked()).toBe(true);

    await page.getByLabel('Files to import').setInputFiles([latin1]);
    const row = () => page.locator('.import-report').first().locator('[data-testid="import-file"]');
    await row().waitFor({ timeout: 30_000 });
    const refused = (await row().locator('th, td').allTextContents()).join(' ');
    // The app's words, not the CLI's --encoding flag.
    expect(refused).toContain('not imported: not valid UTF-8 at byte');
    expect(refused).toContain('choose "Read them as Latin-1" in Settings > Data and import it again');
    expect(refused).not.toContain('--encoding');

    await page.locator('.import-encoding label', { hasText: 'Read them as Latin-1' }).click();
    await page.reload();
    // Kept on this computer.
    expect(await page.getByRole('radio', { name: 'Read them as Latin-1' }).isChecked()).toBe(true);
    await page.locator('.import-encoding').scrollIntoViewIfNeeded();
    await screenshot(page, 'import-latin1-setting-1440');
    await page.getByLabel('Files to import').setInputFiles([latin1]);
    await expect.poll(async () => (await row().locator('th, td').allTextContents()).map((t) => t.trim()), { timeout: 30_000 })
      .toEqual(['latin1-posts.jsonl', 'Twitter API v1.1 (JSON Lines, read as Latin-1)', '1', '1', '0', '0', '0']);
    // Windows-1252, as the setting says: 0x80 is the euro sign.
    await page.goto(`${skein.url}/#/post/9007199254741301`);
    await page.getByText('Café 10€').first().waitFor({ timeout: 15_000 });
    await page.close();
  });
});
