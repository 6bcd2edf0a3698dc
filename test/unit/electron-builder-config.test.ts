import Ajv from 'ajv';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/skein-process';

// Packaging downloads Electron, which these machines cannot; the configuration is still checked
// here against electron-builder's own schema so that a typo fails `npm test`, not a release.
const require = createRequire(join(repoRoot, 'package.json'));

function loadYamlConfig(): Record<string, unknown> {
  const { load } = require('js-yaml') as { load: (s: string) => unknown };
  return load(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
}

/** Width and height from a PNG's IHDR chunk (bytes 16-23). */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1'), file).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder configuration', () => {
  it('is valid against electron-builder\'s schema', () => {
    const schema = require('app-builder-lib/scheme.json') as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const config = loadYamlConfig();
    const ok = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('packages the built app and names the entry electron-vite builds', () => {
    const config = loadYamlConfig();
    expect(config.files).toContain('out/**');
    expect((config.extraMetadata as { main: string }).main).toBe('out/main/index.js');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { main: string; productName: string };
    expect(pkg.main).toBe('out/main/index.js');
    expect(pkg.productName).toBe(config.productName);
  });

  it("unpacks every file DuckDB's binding loads (its .node and the library beside it) from the asar", () => {
    const { minimatch } = require('minimatch') as { minimatch: (path: string, pattern: string, options?: object) => boolean };
    const patterns = loadYamlConfig().asarUnpack as string[];
    const platformPackage = `node_modules/@duckdb/node-bindings-${process.platform}-${process.arch}`;
    const files = readdirSync(join(repoRoot, platformPackage)).filter((f) => /\.(node|so|dylib|dll)$/.test(f));
    expect(files).toEqual(expect.arrayContaining(['duckdb.node', expect.stringMatching(/duckdb\.(so|dylib|dll)$/)]));
    for (const f of files) expect(patterns.some((p) => minimatch(`${platformPackage}/${f}`, p, { dot: true })), f).toBe(true);
    expect(patterns.some((p) => minimatch('node_modules/better-sqlite3/build/Release/better_sqlite3.node', p, { dot: true }))).toBe(true);
  });

  it('names the app icon in resources/, where the files are, at the sizes each platform needs', () => {
    const config = loadYamlConfig() as { directories: { buildResources: string }; icon: string; linux: { icon: string } };
    const resources = join(repoRoot, config.directories.buildResources);
    expect(config.directories.buildResources).toBe('resources');
    // macOS needs at least 512 px and Windows 256 px; electron-builder converts icon.png for both.
    expect(config.icon).toBe('icon.png');
    const icon = pngSize(join(resources, config.icon));
    expect(icon.width).toBeGreaterThanOrEqual(512);
    expect(icon.height).toBe(icon.width);
    // Linux: a folder of PNGs whose names say their size.
    const linuxSet = join(resources, config.linux.icon);
    const files = readdirSync(linuxSet);
    expect(files).toEqual(expect.arrayContaining(['256x256.png', '512x512.png']));
    for (const file of files) {
      const [, w, h] = /^(\d+)x(\d+)\.png$/.exec(file) ?? [];
      expect(pngSize(join(linuxSet, file)), file).toEqual({ width: Number(w), height: Number(h) });
    }
  });

  it('gives the page and the desktop window the same icon, from resources/', async () => {
    const html = readFileSync(join(repoRoot, 'src/renderer/index.html'), 'utf8');
    const hrefs = [...html.matchAll(/<link rel="icon" href="\/([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs).toEqual(expect.arrayContaining(['favicon.ico', 'icon.svg']));
    // The renderer build copies resources/ beside the page (electron.vite.config.ts publicDir).
    for (const href of hrefs) expect(existsSync(join(repoRoot, 'resources', href)), href).toBe(true);
    const ico = readFileSync(join(repoRoot, 'resources', 'favicon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const { default: viteConfig } = (await import('../../electron.vite.config')) as { default: { renderer: { publicDir: string } } };
    expect(viteConfig.renderer.publicDir).toBe(join(repoRoot, 'resources'));
    // The window (src/main/desktop/window.ts, which needs Electron to load) takes icons/256x256.png
    // from the copy beside the page.
    expect(readFileSync(join(repoRoot, 'src/main/desktop/window.ts'), 'utf8')).toContain("'../renderer/icons/256x256.png'");
  });
});
