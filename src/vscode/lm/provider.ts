// Every model a running Reasonix extension declares, offered to VS Code as a language model
// (vendor `reasonix`) through `vscode.lm.registerLanguageModelChatProvider` — where users pick
// models and where other extensions find them with `vscode.lm.selectChatModels`. Feature-detected:
// on VS Code builds and forks without the API nothing is registered and nothing else changes.
import * as vscode from 'vscode';
import type { Logger } from '../../host/log';
import { redact } from '../../host/redact';
import type { FolderSession } from '../sessions';
import type { ModelDirectory, ModelEntry } from './directory';
import { lazyModule } from '../lazyModule';
import type { MappedRequest } from './request';
import type { PartSink, ServeStats, ServeTarget } from './respond';
import {
  detectLmApi,
  type LanguageModelChatInformation,
  type LanguageModelChatProvider,
  type LanguageModelChatRequestMessage,
  type LmApi,
  type LmClasses,
  type ProvideLanguageModelChatResponseOptions,
} from './vscodeLm';
import { LM_PROVIDER_SINCE } from '../vscodeVersion';

export const VENDOR = 'reasonix';

/** The request path (mapping, serving, coalescing), required on the first request or token count. */
const requests = lazyModule<typeof import('../../lmRequests')>('lm-requests.js', 'lmRequests');
/** `maxInputTokens` when a catalog entry declares no `contextWindow`. */
export const DEFAULT_CONTEXT_WINDOW = 16_384;
/** `maxOutputTokens`, and `maxTokens` of a request whose caller set none. */
export const DEFAULT_MAX_OUTPUT = 4_096;

/** `plugin/<id>/<provider>/<model>` → the provider segment. */
export function familyOf(ref: string, pluginId: string): string {
  return ref.split('/')[2] || pluginId;
}

/** What a model may answer with: the default, or less when its context window is smaller. */
function maxOutputTokens(contextWindow: number): number {
  return Math.min(DEFAULT_MAX_OUTPUT, contextWindow);
}

export function infoOf(e: ModelEntry): LanguageModelChatInformation {
  const d = e.descriptor;
  const context =
    typeof d.contextWindow === 'number' && d.contextWindow > 0 ? Math.floor(d.contextWindow) : DEFAULT_CONTEXT_WINDOW;
  const where = e.folderNames.length > 1 ? ` in ${e.folderNames.join(', ')}` : '';
  const streaming = e.responseInterceptors.length
    ? ` Responses arrive in one piece, not streamed: ${e.responseInterceptors.map((p) => `"${p}"`).join(', ')} ${e.responseInterceptors.length > 1 ? 'intercept' : 'intercepts'} provider.response.`
    : '';
  return {
    id: e.ref,
    name: redact(d.displayName || d.model || e.ref),
    family: familyOf(e.ref, e.pluginId),
    version: e.version,
    maxInputTokens: context,
    maxOutputTokens: maxOutputTokens(context),
    capabilities: { toolCalling: d.tools === true, imageInput: d.vision === true },
    detail: `Reasonix · ${e.pluginId}`,
    tooltip: redact(`${e.ref}, served by the Reasonix extension "${e.pluginId}" v${e.version}${where}.${streaming}`),
  };
}

/** Parts reported to VS Code as they come, none once the request is cancelled. */
function progressSink(progress: vscode.Progress<unknown>, cls: LmClasses, signal: AbortSignal): PartSink {
  return {
    text: (value) => !signal.aborted && progress.report(new cls.text(value)),
    toolCall: (id, name, input) => !signal.aborted && progress.report(new cls.toolCall(id, name, input)),
    thinking: (value, signature) => {
      if (signal.aborted || !cls.thinking) return; // this VS Code has no thinking part: dropped
      progress.report(new cls.thinking(value, undefined, signature ? { signature } : undefined));
    },
  };
}

/** How a served request went, for the log: outcome, chunks, time, tokens, dropped parts. */
function servedText(stats: ServeStats, ms: number, dropped: number): string {
  const usage = stats.usage
    ? `, ${stats.usage.promptTokens} prompt + ${stats.usage.completionTokens} completion tokens`
    : '';
  const droppedText = dropped ? `, ${dropped} unsupported part(s) dropped` : '';
  return `${stats.outcome}, ${stats.chunks} chunk(s)${stats.assembled ? ' (assembled for provider.response)' : ''} in ${ms} ms${usage}${droppedText}`;
}

class ReasonixChatProvider implements LanguageModelChatProvider {
  readonly onDidChangeLanguageModelChatInformation: vscode.Event<void>;

  constructor(
    private readonly api: LmApi,
    private readonly directory: ModelDirectory,
    private readonly log: Logger,
  ) {
    this.onDidChangeLanguageModelChatInformation = directory.onDidChange;
  }

  async provideLanguageModelChatInformation(): Promise<LanguageModelChatInformation[]> {
    return (await this.directory.list()).map(infoOf);
  }

  async provideLanguageModelChatResponse(
    model: LanguageModelChatInformation,
    messages: readonly LanguageModelChatRequestMessage[],
    options: ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const t0 = Date.now();
    const { session, entry } = await this.route(model);
    const target: ServeTarget = { ref: entry.ref, pluginId: entry.pluginId, model: entry.descriptor.model };
    const mapped = this.mapRequest(target, entry, messages, options, model);
    const { CoalescingSink, LmResponseError, serveRequest, whoServes } = requests();
    const abort = new AbortController();
    const sink = new CoalescingSink(progressSink(progress, this.api.classes, abort.signal));
    const cancel = () => {
      sink.discard(); // nothing more after the cancel, not even text already received
      abort.abort();
    };
    const sub = token.onCancellationRequested(cancel);
    if (token.isCancellationRequested) cancel();
    const label = `[${session.folder.name}] [${entry.pluginId}] lm request ${entry.ref}`;
    try {
      const stats = await serveRequest(session.engine, target, mapped.request, sink, {
        interceptResponse: entry.responseInterceptors.length > 0,
        signal: abort.signal,
      });
      sink.flush();
      this.log.debug(`${label}: ${servedText(stats, Date.now() - t0, mapped.dropped)}`);
    } catch (err) {
      sink.flush(); // what arrived before the failure is shown, then the error
      const message =
        err instanceof LmResponseError ? err.message : redact(`${whoServes(target)} failed: ${(err as Error).message}`);
      this.log.debug(
        `${label}: failed after ${Date.now() - t0} ms (${err instanceof LmResponseError ? err.reason : 'error'})`,
      );
      throw new Error(message);
    } finally {
      sub.dispose();
    }
  }

  /** The folder session and catalog entry serving the model, or an error saying it is not running. */
  private async route(model: LanguageModelChatInformation): Promise<{ session: FolderSession; entry: ModelEntry }> {
    const routed = await this.directory.route(model.id);
    if (!routed)
      throw new Error(
        `Reasonix model ${model.id} is not available: its extension is not running. Start it in the Reasonix view, or pick another model.`,
      );
    return routed;
  }

  /** VS Code's messages and options as a provider request; input the model cannot take names it. */
  private mapRequest(
    target: ServeTarget,
    entry: ModelEntry,
    messages: readonly LanguageModelChatRequestMessage[],
    options: ProvideLanguageModelChatResponseOptions,
    model: LanguageModelChatInformation,
  ): MappedRequest {
    const { LmInputError, toProviderRequest, whoServes } = requests();
    try {
      return toProviderRequest(
        messages,
        options,
        {
          ref: entry.ref,
          vision: entry.descriptor.vision === true,
          maxOutputTokens: maxOutputTokens(model.maxInputTokens),
        },
        this.api.classes,
      );
    } catch (err) {
      if (err instanceof LmInputError) throw new Error(redact(`${whoServes(target)}: ${err.message}`));
      throw err;
    }
  }

  async provideTokenCount(
    _model: LanguageModelChatInformation,
    text: string | LanguageModelChatRequestMessage,
  ): Promise<number> {
    return requests().estimateTokens(text, this.api.classes);
  }
}

/**
 * Registers the `reasonix` vendor when this VS Code has the API. Returns undefined (and logs why)
 * on builds without it, where the rest of the product works as before.
 */
export function registerLanguageModels(directory: ModelDirectory, log: Logger): vscode.Disposable | undefined {
  const api = detectLmApi(vscode);
  if (!api) {
    log.info(
      `VS Code ${vscode.version} has no language model provider API (needs ${LM_PROVIDER_SINCE} or later): Reasonix models are not offered to VS Code`,
    );
    return undefined;
  }
  return api.register(VENDOR, new ReasonixChatProvider(api, directory, log));
}
