// The committed icons: every one the tray can ask for exists at both densities, macOS templates
// are black and alpha only, and the files are what the script draws today.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelShade, trayIconFile, trayStates } from '../../src-main/electron/tray-state.ts';
import { writeIcons } from '../../scripts/make-tray-icons.ts';
import { tempDir } from './support.ts';

const buildDir = resolve(import.meta.dirname, '../../build');

function decodePng(png: Buffer): { width: number; height: number; rgba: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([...body.subarray(8, 10)]).toEqual([8, 6]); // 8-bit RGBA
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) raw.copy(rgba, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  return { width, height, rgba };
}

const targets: { platform: NodeJS.Platform; dark: boolean }[] = [
  { platform: 'darwin', dark: false },
  { platform: 'linux', dark: false },
  { platform: 'win32', dark: false },
  { platform: 'win32', dark: true },
];
const files = trayStates.flatMap((state) =>
  targets.map(({ platform, dark }) => trayIconFile(state, platform, panelShade(platform, dark))),
);

describe('tray icons', () => {
  it.each([...new Set(files)])('%s exists at 16 px and @2x 32 px', async (file) => {
    const normal = decodePng(await readFile(join(buildDir, 'tray', file)));
    const double = decodePng(await readFile(join(buildDir, 'tray', file.replace('.png', '@2x.png'))));
    expect([normal.width, normal.height, double.width, double.height]).toEqual([16, 16, 32, 32]);
    expect(normal.rgba.some((byte, i) => i % 4 === 3 && byte > 0)).toBe(true);
    if (file.includes('Template')) {
      for (let i = 0; i < double.rgba.length; i += 4)
        if ((double.rgba[i + 3] ?? 0) > 0)
          expect([double.rgba[i], double.rgba[i + 1], double.rgba[i + 2]]).toEqual([0, 0, 0]);
    }
  });

  it('has a 512 px app icon', async () => {
    const icon = decodePng(await readFile(join(buildDir, 'icon.png')));
    expect([icon.width, icon.height]).toEqual([512, 512]);
  });
});

describe('generated files are current', () => {
  let out: { path: string; remove(): Promise<void> };
  beforeAll(async () => {
    out = await tempDir('icons-');
    writeIcons(out.path);
  });
  afterAll(() => out.remove());

  it.each([...files, 'okTemplate@2x.png', 'error-dark@2x.png'])(
    '%s matches scripts/make-tray-icons.ts',
    async (file) => {
      expect((await readFile(join(out.path, 'tray', file))).equals(await readFile(join(buildDir, 'tray', file)))).toBe(
        true,
      );
    },
  );
});
