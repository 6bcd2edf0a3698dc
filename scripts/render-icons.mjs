// Renders resources/icon.svg into the PNGs and the favicon that are committed beside it, so neither
// the build nor the tests need an SVG renderer. Run it by hand after changing the SVG; it needs
// rsvg-convert and optipng (Debian: apt-get install librsvg2-bin optipng).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const resources = join(root, 'resources');
const svg = join(resources, 'icon.svg');

function render(size, file) {
  execFileSync('rsvg-convert', ['-w', String(size), '-h', String(size), svg, '-o', file]);
  // Lossless, and kept 32-bit RGBA: Windows reads only that inside an .ico, and electron-builder
  // converts icon.png into .icns and .ico.
  execFileSync('optipng', ['-quiet', '-o5', '-nc', '-nb', '-np', '-strip', 'all', file]);
}

// Linux takes a set of sizes (file names say the size); macOS and Windows convert icon.png.
mkdirSync(join(resources, 'icons'), { recursive: true });
for (const size of [16, 32, 48, 64, 128, 256, 512]) render(size, join(resources, 'icons', `${size}x${size}.png`));
render(512, join(resources, 'icon.png'));

// favicon.ico: PNG images inside an ICO directory (every browser since IE 11 reads them).
const sizes = [16, 32, 48];
const images = sizes.map((s) => readFileSync(join(resources, 'icons', `${s}x${s}.png`)));
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2); // 1 = icon
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((size, i) => {
  const entry = 6 + 16 * i;
  header.writeUInt8(size, entry); // width (0 would mean 256)
  header.writeUInt8(size, entry + 1); // height
  header.writeUInt16LE(1, entry + 4); // colour planes
  header.writeUInt16LE(32, entry + 6); // bits per pixel
  header.writeUInt32LE(images[i].length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += images[i].length;
});
writeFileSync(join(resources, 'favicon.ico'), Buffer.concat([header, ...images]));
