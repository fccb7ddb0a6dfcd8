// Draws the tray icons (build/tray) and the app icon (build/icon.png) from a few shapes, with no
// image library: shapes are signed distance functions, supersampled for anti-aliasing, and the
// PNGs are written with node:zlib. Run `node scripts/make-tray-icons.ts` after changing a shape
// and commit the PNGs (packaging and the tray read the files, never this script).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { trayStates, type TrayState } from '../src-main/electron/tray-state.ts';

type Rgba = readonly [number, number, number, number];
/** Coverage of a point in unit coordinates (0..1 across the icon): 1 inside, 0 outside. */
type Shape = (x: number, y: number) => boolean;

const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring =
  (cx: number, cy: number, r: number, width: number): Shape =>
  (x, y) => {
    const d = Math.hypot(x - cx, y - cy);
    return d <= r + width / 2 && d >= r - width / 2;
  };
/** A round-capped stroke through the points. */
const stroke =
  (points: readonly [number, number][], width: number): Shape =>
  (x, y) => {
    for (let i = 1; i < points.length; i++) {
      const [ax, ay] = points[i - 1] ?? [0, 0];
      const [bx, by] = points[i] ?? [0, 0];
      const t = Math.max(
        0,
        Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
      );
      if (Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) <= width / 2) return true;
    }
    return false;
  };
const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((s) => s(x, y));
const minus =
  (shape: Shape, hole: Shape): Shape =>
  (x, y) =>
    shape(x, y) && !hole(x, y);
const moved =
  (shape: Shape, dx: number, dy: number, scale: number): Shape =>
  (x, y) =>
    shape((x - dx) / scale, (y - dy) / scale);

/** The app mark: a ring around a heartbeat line. */
const mark = union(
  ring(0.5, 0.5, 0.4, 0.1),
  stroke(
    [
      [0.2, 0.52],
      [0.36, 0.52],
      [0.44, 0.3],
      [0.56, 0.72],
      [0.64, 0.52],
      [0.8, 0.52],
    ],
    0.09,
  ),
);

/** Where the status badge sits (bottom right), and the gap cut around it so it reads at 16 px. */
const badge = circle(0.74, 0.74, 0.23);
const badgeGap = circle(0.74, 0.74, 0.31);

/** The symbol inside the badge, per state: what tells the states apart without colour. */
const symbols: Record<TrayState, Shape | undefined> = {
  'not-enrolled': undefined,
  ok: undefined,
  warning: union(
    stroke(
      [
        [0.74, 0.62],
        [0.74, 0.75],
      ],
      0.07,
    ),
    circle(0.74, 0.85, 0.04),
  ),
  error: union(
    stroke(
      [
        [0.66, 0.66],
        [0.82, 0.82],
      ],
      0.07,
    ),
    stroke(
      [
        [0.82, 0.66],
        [0.66, 0.82],
      ],
      0.07,
    ),
  ),
  paused: union(
    stroke(
      [
        [0.69, 0.65],
        [0.69, 0.83],
      ],
      0.06,
    ),
    stroke(
      [
        [0.79, 0.65],
        [0.79, 0.83],
      ],
      0.06,
    ),
  ),
};

const colors = {
  ink: { light: [32, 33, 36, 255], dark: [241, 243, 244, 255] },
  ok: [46, 158, 68, 255],
  warning: [232, 163, 23, 255],
  error: [217, 48, 37, 255],
  paused: [138, 143, 152, 255],
  white: [255, 255, 255, 255],
  black: [0, 0, 0, 255],
} as const;

/** One layer: a shape painted in a colour; later layers paint over earlier ones. */
interface Layer {
  shape: Shape;
  color: Rgba;
  /** Erases what is below instead of painting (a template image's cut-out symbol). */
  erase?: boolean;
}

function trayLayers(state: TrayState, variant: 'light' | 'dark' | 'template'): Layer[] {
  const ink: Rgba = variant === 'template' ? colors.black : colors.ink[variant];
  const dimmed: Rgba = [ink[0], ink[1], ink[2], 110];
  if (state === 'not-enrolled') return [{ shape: mark, color: dimmed }];
  if (state === 'ok' && variant === 'template') return [{ shape: mark, color: ink }];
  const symbol = symbols[state];
  const badgeColor: Rgba = variant === 'template' ? colors.black : colors[state];
  const layers: Layer[] = [
    { shape: minus(mark, badgeGap), color: ink },
    { shape: badge, color: badgeColor },
  ];
  if (symbol !== undefined)
    layers.push(
      variant === 'template' ? { shape: symbol, color: ink, erase: true } : { shape: symbol, color: colors.white },
    );
  return layers;
}

function appIconLayers(): Layer[] {
  const square: Shape = (x, y) => {
    // A rounded square with a margin, as desktop icon guidelines expect.
    const r = 0.18;
    const dx = Math.max(Math.abs(x - 0.5) - (0.42 - r), 0);
    const dy = Math.max(Math.abs(y - 0.5) - (0.42 - r), 0);
    return dx * dx + dy * dy <= r * r;
  };
  return [
    { shape: square, color: [31, 111, 235, 255] },
    { shape: moved(mark, 0.2, 0.2, 0.6), color: colors.white },
  ];
}

function render(layers: Layer[], size: number): Buffer {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          let color: Rgba = [0, 0, 0, 0];
          for (const layer of layers) if (layer.shape(x, y)) color = layer.erase === true ? [0, 0, 0, 0] : layer.color;
          // Premultiplied sums, so edges blend toward transparency rather than toward black.
          r += color[0] * color[3];
          g += color[1] * color[3];
          b += color[2] * color[3];
          a += color[3];
        }
      }
      const at = (py * size + px) * 4;
      pixels[at] = a === 0 ? 0 : Math.round(r / a);
      pixels[at + 1] = a === 0 ? 0 : Math.round(g / a);
      pixels[at + 2] = a === 0 ? 0 : Math.round(b / a);
      pixels[at + 3] = Math.round(a / (samples * samples));
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGBA PNG. */
export function encodePng(pixels: Buffer, size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes every tray icon into <buildDir>/tray and the app icon into <buildDir>/icon.png. */
export function writeIcons(buildDir: string): void {
  const trayDir = join(buildDir, 'tray');
  mkdirSync(trayDir, { recursive: true });
  for (const state of trayStates) {
    for (const variant of ['light', 'dark', 'template'] as const) {
      const base = variant === 'template' ? `${state}Template` : `${state}-${variant}`;
      for (const [size, suffix] of [
        [16, ''],
        [32, '@2x'],
      ] as const) {
        writeFileSync(join(trayDir, `${base}${suffix}.png`), encodePng(render(trayLayers(state, variant), size), size));
      }
    }
  }
  writeFileSync(join(buildDir, 'icon.png'), encodePng(render(appIconLayers(), 512), 512));
}

// Imported (by the test that checks the committed PNGs are current), it only lends its functions.
if (import.meta.main) {
  const buildDir = resolve(import.meta.dirname, '..', 'build');
  writeIcons(buildDir);
  process.stdout.write(`tray icons written to ${join(buildDir, 'tray')}, app icon to ${join(buildDir, 'icon.png')}\n`);
}
