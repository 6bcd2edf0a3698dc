// Copying a row's id or the row as JSON (issue 15). The Clipboard API needs a secure context,
// which http://127.0.0.1 and the desktop window are; the textarea path is for a browser that
// refuses it anyway (an old one, or a permission turned off), so a copy never fails silently.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
    }
  }
}

/** A row as the JSON a script would see: ids are already strings in the app's rows. */
export function rowJson(row: unknown): string {
  return JSON.stringify(row, null, 2);
}
