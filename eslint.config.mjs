import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', '.vscode-test/**', 'test-results/**', 'src/protocol/generated/**', '.demo/**'] },
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
  {
    // The engine and the contract never depend on VS Code.
    files: ['src/host/**/*.ts', 'src/protocol/**/*.ts', 'src/cli/**/*.ts', 'src/cli.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/host, src/protocol and the CLI must stay free of vscode.' }] }] },
  },
  {
    // The webview and its protocol sit on the contract floor: they may use src/protocol, never the engine.
    files: ['webview/**/*.ts', 'src/webviewProtocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)src/host(/|$)|^(\\.\\./)+host(/|$)', message: 'webview/ and src/webviewProtocol/ must not import src/host: use src/protocol (e.g. src/protocol/surfaces.ts) or src/webviewProtocol.' }] },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
