import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
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
});
