import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = { name: 'vscode', message: 'src/host, src/protocol and the CLI must stay free of vscode.' };
const viaIndex = 'import a src/host folder through its index.ts (its public surface), not one of its files.';
/** An import of a file inside a src/host folder, written from outside src/host. */
const hostInside = '(^|/)host/[^/]+/';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      '.vscode-test/**',
      'test-results/**',
      'src/protocol/generated/**',
      '.demo/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['webview/**/*.ts'], languageOptions: { globals: { ...globals.browser } } },
  // The engine and the contract never depend on VS Code. Each folder of src/host is entered through
  // its index.ts, which is that folder's public surface; its other files are private to it (tests
  // may reach them). The top-level files of src/host (log, redact, emitter) are imported directly.
  {
    files: ['src/protocol/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['src/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noVscode], patterns: [{ regex: '^\\.\\./[^./][^/]*/|^\\./[^/]+/', message: viaIndex }] },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/cli.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode], patterns: [{ regex: hostInside, message: viaIndex }] }],
    },
  },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: hostInside, message: viaIndex }] }] },
  },
  {
    // The webview and its protocol sit on the contract floor: they may use src/protocol, never the engine.
    files: ['webview/**/*.ts', 'src/webviewProtocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/host(/|$)|^(\\.\\./)+host(/|$)',
              message:
                'webview/ and src/webviewProtocol/ must not import src/host: use src/protocol (e.g. src/protocol/surfaces.ts) or src/webviewProtocol.',
            },
          ],
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
