// The workbench renders spaces in editors and the output panel as U+00A0; compare on plain text.
export function normalise(text: string): string {
  return text.replace(/\u00a0/g, ' ').replace(/\r\n/g, '\n');
}
