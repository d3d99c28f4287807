// VS Code chat messages → the v1 ProviderRequest (src/vscode/lm/request.ts), with stand-ins for
// VS Code's part classes (the mapping tells parts apart with instanceof, as it does in VS Code).
import { strict as assert } from 'node:assert';
import { validateDef } from '../../../src/protocol';
import { estimateTokens, LmInputError, toProviderRequest, type RequestTarget } from '../../../src/vscode/lm/request';
import { ROLE, type LanguageModelChatRequestMessage, type LmClasses } from '../../../src/vscode/lm/vscodeLm';

class TextPart {
  constructor(readonly value: string) {}
}
class ThinkingPart {
  constructor(readonly value: string | string[]) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}
class DataPart {
  constructor(
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
}

const CLASSES: LmClasses = {
  text: TextPart,
  toolCall: ToolCallPart,
  toolResult: ToolResultPart,
  data: DataPart,
  thinking: ThinkingPart,
} as unknown as LmClasses;
const TARGET: RequestTarget = { ref: 'plugin/demo/p/m', vision: false, maxOutputTokens: 4096 };
const msg = (role: number, ...content: unknown[]): LanguageModelChatRequestMessage => ({
  role,
  content,
  name: undefined,
});

describe('vscode/lm: chat messages → ProviderRequest', () => {
  it('maps system, user and assistant text and always sends arrays and maxTokens', () => {
    const { request, dropped } = toProviderRequest(
      [
        msg(ROLE.System, new TextPart('be brief')),
        msg(ROLE.User, new TextPart('hello '), new TextPart('there')),
        msg(ROLE.Assistant, new TextPart('hi')),
      ],
      {},
      TARGET,
      CLASSES,
    );
    assert.deepEqual(request, {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
        { role: 'assistant', content: 'hi' },
      ],
      tools: [],
      maxTokens: 4096,
    });
    assert.equal(dropped, 0);
    assert.ok(validateDef('ProviderRequest', request).ok);
  });

  it('maps tool calls, tool results, reasoning and offered tools (parameters always an object)', () => {
    const { request } = toProviderRequest(
      [
        msg(ROLE.User, new TextPart('find otters')),
        msg(
          ROLE.Assistant,
          new ThinkingPart(['let me ', 'look']),
          new TextPart('Calling.'),
          new ToolCallPart('c1', 'lookup', { q: 'otters' }),
        ),
        msg(
          ROLE.User,
          new ToolResultPart('c1', [
            new TextPart('mustelids'),
            new DataPart(new TextEncoder().encode(' {"n":1}'), 'application/json'),
          ]),
        ),
      ],
      {
        tools: [
          {
            name: 'lookup',
            description: 'Looks up',
            inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          },
          { name: 'now', description: 'Time' },
        ],
        modelOptions: { maxTokens: 100, temperature: 0.2 },
      },
      TARGET,
      CLASSES,
    );
    assert.deepEqual(request.messages, [
      { role: 'user', content: 'find otters' },
      {
        role: 'assistant',
        content: 'Calling.',
        tool_calls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"otters"}' }],
        reasoning_content: 'let me look',
      },
      { role: 'tool', tool_call_id: 'c1', content: 'mustelids {"n":1}' },
    ]);
    assert.deepEqual(request.tools, [
      {
        name: 'lookup',
        description: 'Looks up',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
      },
      { name: 'now', description: 'Time', parameters: { type: 'object' } },
    ]);
    assert.equal(request.maxTokens, 100);
    assert.equal(request.temperature, 0.2);
    assert.ok(validateDef('ProviderRequest', request).ok);
  });

  it('sends images only to a vision model, as data URLs; refuses them otherwise naming the model', () => {
    const png = new DataPart(new Uint8Array([1, 2, 3]), 'image/png');
    const { request } = toProviderRequest(
      [msg(ROLE.User, new TextPart('look'), png)],
      {},
      { ...TARGET, vision: true },
      CLASSES,
    );
    assert.deepEqual(request.messages, [{ role: 'user', content: 'look', images: ['data:image/png;base64,AQID'] }]);
    assert.throws(
      () => toProviderRequest([msg(ROLE.User, png)], {}, TARGET, CLASSES),
      (e: Error) => e instanceof LmInputError && /plugin\/demo\/p\/m does not accept images/.test(e.message),
    );
  });

  it('counts parts the protocol cannot carry instead of failing, and ignores a bad maxTokens', () => {
    const { request, dropped } = toProviderRequest(
      [msg(ROLE.User, new TextPart('x'), new DataPart(new Uint8Array([0]), 'application/octet-stream'), { odd: true })],
      { modelOptions: { maxTokens: -5 } },
      TARGET,
      CLASSES,
    );
    assert.equal(dropped, 2);
    assert.equal(request.maxTokens, 4096);
  });

  it('rejects an unknown role with a clear error', () => {
    assert.throws(
      () => toProviderRequest([msg(9, new TextPart('x'))], {}, TARGET, CLASSES),
      /role 9 is not one of user, assistant, system/,
    );
  });

  it('estimates tokens as characters / 4 over the serialized message', () => {
    assert.equal(estimateTokens('abcdefgh'), 2);
    assert.equal(estimateTokens('abcdefghi'), 3);
    const m = msg(ROLE.User, new TextPart('hello world'));
    assert.equal(estimateTokens(m, CLASSES), Math.ceil(JSON.stringify(new TextPart('hello world')).length / 4));
  });
});
