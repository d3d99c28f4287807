import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, newNonce, surfacesHtml } from '../../../src/vscode/surfaces/html';

describe('surfaces webview HTML', () => {
  const input = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: newNonce(),
    scriptUri: 'https://r/dist/webview.js',
    styleUris: ['https://r/dist/codicon.css', 'https://r/media/webview.css'],
    title: 'T',
  };

  it('locks the page down with a nonce-only CSP', () => {
    const csp = contentSecurityPolicy(input.cspSource, input.nonce);
    assert.match(csp, /^default-src 'none'; /);
    assert.match(csp, new RegExp(`script-src 'nonce-${input.nonce}'`));
    assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
    assert.doesNotMatch(csp, /unsafe-(inline|eval)/);
    const html = surfacesHtml(input);
    assert.ok(html.includes(`<script nonce="${input.nonce}" src="https://r/dist/webview.js"></script>`));
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.equal((html.match(/<link rel="stylesheet"/g) ?? []).length, 2);
  });

  it('uses a fresh nonce per render and refuses a weak one', () => {
    assert.notEqual(newNonce(), newNonce());
    assert.throws(() => surfacesHtml({ ...input, nonce: 'abc' }), /nonce/);
  });
});
