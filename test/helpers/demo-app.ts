import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser';
import { type SkeinProcess, startSkein } from './skein-process';

export interface DemoApp {
  readonly dataDir: string;
  skein: SkeinProcess;
  browser: Browser;
}

/**
 * A real `skein serve` on a fresh data dir (the demo corpus, unless `args` says otherwise) and a
 * Chromium (`env` goes to the server), for the describe block that calls this: started before its tests, stopped and the data
 * dir removed after them.
 */
export function demoApp(prefix: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): DemoApp {
  const app = { dataDir: mkdtempSync(join(tmpdir(), prefix)) } as DemoApp;
  beforeAll(async () => {
    app.skein = await startSkein(app.dataDir, args, env);
    app.browser = await launchChromium();
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.skein?.stop();
    rmSync(app.dataDir, { recursive: true, force: true });
  });
  return app;
}
