// The window's folders: when each folder's extensions run (started on first use, stopped after a
// long quiet time), what changed before they ran, and which session id a window gives a folder.
export {
  FolderStarts,
  realClock,
  IN_USE_PRIORITY,
  ASKED_PRIORITY,
  type FolderClock,
  type FolderStartState,
  type FolderStartsOptions,
  type UseReason,
} from './folderStarts';
export { PendingChanges, MAX_PENDING_PATHS } from './pendingChanges';
export { claimSessionSlot, folderHash, type SessionSlot } from './sessionSlots';
