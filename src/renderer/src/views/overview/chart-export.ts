import type { Overview } from '../../../../shared/contract';

// The posts-over-time chart saved as files: PNG (the chart's own canvas on the page background),
// SVG (drawn here from the numbers: axes, the three lines, a legend) and the CSV of its numbers.

export interface ChartSeries {
  label: string;
  color: string;
  values: number[];
}

export function seriesCsv(o: Overview): string {
  const lines = ['bucket_start_utc,posts,replies,quotes'];
  o.series.start_ms.forEach((start, i) => lines.push(`${new Date(start).toISOString()},${o.series.posts[i]},${o.series.replies[i]},${o.series.quotes[i]}`));
  return `${lines.join('\r\n')}\r\n`;
}

export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The canvas on an opaque background (a transparent PNG is unreadable on the other theme). */
export function canvasPng(canvas: HTMLCanvasElement, background: string): Promise<Blob | null> {
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height;
  const ctx = out.getContext('2d')!;
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A line chart of the series as an SVG document, 900 x 360, with the axes labelled in their units. */
export function seriesSvg(start_ms: number[], series: ChartSeries[], colors: { text: string; muted: string; grid: string; background: string }, xLabel: string, yLabel: string, fmtX: (ms: number) => string): string {
  const W = 900;
  const H = 360;
  const L = 64;
  const R = 16;
  const T = 32;
  const B = 56;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const n = start_ms.length;
  const x = (i: number) => L + (n <= 1 ? 0 : (i / (n - 1)) * (W - L - R));
  const y = (v: number) => T + (1 - v / max) * (H - T - B);
  const parts: string[] = [`<rect width="${W}" height="${H}" fill="${esc(colors.background)}"/>`];
  for (let k = 0; k <= 4; k++) {
    const v = Math.round((max * k) / 4);
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="${esc(colors.grid)}"/>`);
    parts.push(`<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end" fill="${esc(colors.muted)}">${v}</text>`);
  }
  const ticks = Math.min(6, n);
  for (let k = 0; k < ticks; k++) {
    const i = ticks === 1 ? 0 : Math.round((k * (n - 1)) / (ticks - 1));
    parts.push(`<text x="${x(i)}" y="${H - B + 18}" text-anchor="middle" fill="${esc(colors.muted)}">${esc(fmtX(start_ms[i]!))}</text>`);
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle" fill="${esc(colors.text)}">${esc(xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle" fill="${esc(colors.text)}">${esc(yLabel)}</text>`);
  series.forEach((s, k) => {
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${esc(s.color)}" stroke-width="2" points="${points}"/>`);
    parts.push(`<rect x="${L + k * 110}" y="10" width="12" height="12" fill="${esc(s.color)}"/><text x="${L + k * 110 + 18}" y="21" fill="${esc(colors.text)}">${esc(s.label)}</text>`);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">${parts.join('')}</svg>\n`;
}

/**
 * An SVG document drawn onto a canvas at twice its size, on an opaque background, as PNG. It is
 * loaded as a data: URL: the page's Content-Security-Policy allows images from data:, not blob:.
 */
export async function svgPng(svg: string, width: number, height: number, background: string): Promise<Blob | null> {
  const img = new Image();
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('The picture could not be drawn as PNG.'));
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
  const scale = 2;
  const out = document.createElement('canvas');
  out.width = Math.round(width * scale);
  out.height = Math.round(height * scale);
  const ctx = out.getContext('2d')!;
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(img, 0, 0, out.width, out.height);
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string | number): string {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
