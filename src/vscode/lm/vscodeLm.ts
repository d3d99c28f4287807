// The Language Model Chat Provider API (stable since VS Code 1.104) declared locally, because the
// product keeps `engines.vscode` at ^1.96 and @types/vscode at 1.96, the oldest VS Code it is
// tested on (code-server 4.96.4, where the API is absent). Shapes follow the shipped
// VS Code 1.139 extension host: `vscode.lm.registerLanguageModelChatProvider(vendor, provider)`,
// the `LanguageModelChatInformation` members it forwards, the progress part classes it accepts
// (text, tool call, data, thinking), and the message classes it hands to the provider. Only what
// this extension uses is declared; everything is feature-detected at run time by `detectLmApi`.
import type * as vscode from 'vscode';

export interface LanguageModelChatCapabilities {
  readonly imageInput?: boolean;
  readonly toolCalling?: boolean | number;
}

export interface LanguageModelChatInformation {
  /** Unique per vendor; VS Code's model identifier is `<vendor>/<id>`. */
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: LanguageModelChatCapabilities;
}

export interface LanguageModelChatToolDecl {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}

export interface ProvideLanguageModelChatResponseOptions {
  readonly modelOptions?: { readonly [name: string]: unknown };
  readonly tools?: readonly LanguageModelChatToolDecl[];
  /** 1 = auto, 2 = required. */
  readonly toolMode?: number;
}

/** `vscode.LanguageModelChatMessageRole`: 1 user, 2 assistant, 3 system (System is newer than 1.96). */
export const ROLE = { User: 1, Assistant: 2, System: 3 } as const;

/** What VS Code passes as a message: a role, its parts (class instances, see LmClasses), a name. */
export interface LanguageModelChatRequestMessage {
  readonly role: number;
  readonly content: readonly unknown[];
  readonly name: string | undefined;
}

export interface LanguageModelChatProvider<T extends LanguageModelChatInformation = LanguageModelChatInformation> {
  readonly onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
  provideLanguageModelChatInformation(
    options: { readonly silent: boolean },
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<T[]>;
  provideLanguageModelChatResponse(
    model: T,
    messages: readonly LanguageModelChatRequestMessage[],
    options: ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Thenable<void>;
  provideTokenCount(
    model: T,
    text: string | LanguageModelChatRequestMessage,
    token: vscode.CancellationToken,
  ): Thenable<number>;
}

type Ctor<T> = new (...args: never[]) => T;

/** The part classes of the running VS Code; `thinking` and `data` are absent on older builds. */
export interface LmClasses {
  text: Ctor<{ value: string }> & (new (value: string) => { value: string });
  toolCall: Ctor<{ callId: string; name: string; input: object }> &
    (new (callId: string, name: string, input: object) => { callId: string; name: string; input: object });
  toolResult: Ctor<{ callId: string; content: readonly unknown[] }>;
  data?: Ctor<{ mimeType: string; data: Uint8Array }>;
  thinking?: Ctor<{ value: string | string[] }> &
    (new (
      value: string | string[],
      id?: string,
      metadata?: { readonly [key: string]: unknown },
    ) => { value: string | string[] });
}

export interface LmApi {
  register(vendor: string, provider: LanguageModelChatProvider): vscode.Disposable;
  classes: LmClasses;
}

/** The API when this VS Code has it (≥ 1.104 and forks that kept it), else undefined. */
export function detectLmApi(vs: typeof vscode): LmApi | undefined {
  const lm = vs.lm as unknown as
    | { registerLanguageModelChatProvider?: (vendor: string, provider: LanguageModelChatProvider) => vscode.Disposable }
    | undefined;
  const register = lm?.registerLanguageModelChatProvider;
  if (typeof register !== 'function') return undefined;
  const ns = vs as unknown as Record<string, unknown>;
  const cls = <T>(name: string): T | undefined => (typeof ns[name] === 'function' ? (ns[name] as T) : undefined);
  const text = cls<LmClasses['text']>('LanguageModelTextPart');
  const toolCall = cls<LmClasses['toolCall']>('LanguageModelToolCallPart');
  const toolResult = cls<LmClasses['toolResult']>('LanguageModelToolResultPart');
  if (!text || !toolCall || !toolResult) return undefined;
  return {
    register: (vendor, provider) => register.call(lm, vendor, provider),
    classes: {
      text,
      toolCall,
      toolResult,
      data: cls('LanguageModelDataPart'),
      thinking: cls('LanguageModelThinkingPart'),
    },
  };
}
