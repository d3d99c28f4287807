// The editor's documents as Reasonix's file tools see them (`fs/*`, issue 44): a read returns what
// VS Code shows, unsaved changes included (an open document's text, else the file on disk); a write
// is a WorkspaceEdit (undoable, in the editor's history, labelled Reasonix), then saved so the disk
// and the agent's next command agree. Which paths are allowed is the host's policy
// (src/host/acp/files.ts: inside the session's folder only).
import * as vscode from 'vscode';
import type { DocumentAccess } from '../../host/acp';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

export const editorDocuments: DocumentAccess = {
  async read(file) {
    const uri = vscode.Uri.file(file);
    const doc = openDocument(uri);
    if (doc) return doc.getText();
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
    try {
      return utf8.decode(bytes);
    } catch {
      throw new Error('it is not UTF-8 text');
    }
  },

  async write(file, content) {
    const uri = vscode.Uri.file(file);
    const edit = new vscode.WorkspaceEdit();
    const meta: vscode.WorkspaceEditEntryMetadata = {
      label: vscode.l10n.t('Reasonix'),
      needsConfirmation: false,
    };
    if (await exists(uri)) {
      const doc = await vscode.workspace.openTextDocument(uri);
      const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      edit.replace(uri, all, content, meta);
    } else {
      edit.createFile(uri, { ignoreIfExists: true }, meta);
      edit.insert(uri, new vscode.Position(0, 0), content, meta);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the edit');
    const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
    if (doc.isDirty && !(await doc.save())) throw new Error('VS Code could not save it');
  },
};
