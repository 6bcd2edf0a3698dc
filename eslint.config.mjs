import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'tools/**', 'test-results/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly', process: 'readonly', Buffer: 'readonly', __dirname: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        setImmediate: 'readonly', URL: 'readonly', URLSearchParams: 'readonly', TextEncoder: 'readonly',
        TextDecoder: 'readonly', AbortController: 'readonly', fetch: 'readonly', structuredClone: 'readonly',
        queueMicrotask: 'readonly', performance: 'readonly', require: 'readonly', module: 'writable',
        window: 'readonly', document: 'readonly', navigator: 'readonly', localStorage: 'readonly',
        EventSource: 'readonly', HTMLElement: 'readonly', Response: 'readonly', Request: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Plain CommonJS entry points that run before anything is built.
    files: ['bin/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The engine runs under plain Node (headless mode, CLI, tests): Electron stays out of it.
    files: ['src/main/engine/**/*.ts', 'src/main/http/**/*.ts', 'src/main/cli/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Only src/main/desktop and src/preload may import electron.' }],
        patterns: [{ group: ['**/desktop/**', '**/renderer/**'], message: 'Keep the engine apart from the shell and the UI.' }],
      }],
    },
  },
  {
    // The renderer never touches Node or the engine: it speaks the contract in src/shared.
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The renderer talks to main through the contract only.' }],
        patterns: [{ group: ['node:*', '**/main/**', '**/preload/**'], message: 'The renderer never touches Node or the engine.' }],
      }],
    },
  },
);
