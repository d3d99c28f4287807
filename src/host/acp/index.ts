// Reasonix sessions over the Agent Client Protocol (issue 44): the window's `reasonix acp` client,
// its sessions per folder, and what they show through the UI hub. Plain Node.
export {
  ReasonixAcpClient,
  MAX_LINE_BYTES,
  type AcpClientOptions,
  type ClientState,
  type OpenSessionOptions,
} from './client';
export { insideFolder, MAX_READ_CHARS, SessionFiles, sliceLines, type DocumentAccess } from './files';
export { AcpError, type AcpFailureKind, type AcpStage } from './errors';
export { CLIENT_META, EXTENSION_SURFACE_UPDATE, readExtensionSurface, type ExtensionSurface } from './extensionSurface';
export { readExtensionPrompt, type ExtensionPrompt, type PermissionAsker, type ToolPermission } from './prompts';
export {
  FORM_NOT_ANSWERABLE,
  PROMPT_NOT_ANSWERABLE,
  ReasonixSession,
  SESSION_KEY_PREFIX,
  SESSION_PLUGIN,
  formAsCard,
  type SessionChoices,
  type SessionPluginRow,
  type SessionStatus,
} from './session';
export { planMarkdown, TurnRenderer, type TurnPart } from './turn';
