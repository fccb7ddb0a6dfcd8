// Where the window reopens: where the user left it, unless that spot is no longer on any display
// (a monitor unplugged, a resolution changed), in which case the size is kept and it is centred.
import { z } from 'zod';
import { shellDefaults } from './shell-defaults.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const savedBoundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(200).max(20_000),
  maximized: z.boolean().default(false),
});
export type SavedBounds = z.infer<typeof savedBoundsSchema>;

/** Position and size for a new window; no x/y means "let the system centre it". */
export type WindowPlacement = { width: number; height: number; x?: number; y?: number; maximized: boolean };

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

export function placeWindow(
  saved: SavedBounds | undefined,
  workAreas: readonly Rect[],
  minVisible = shellDefaults.minVisiblePx,
): WindowPlacement {
  if (saved === undefined) return { ...shellDefaults.windowSize, maximized: false };
  // Never larger than the largest display, or the title bar could end up out of reach.
  const maxWidth = Math.max(...workAreas.map((a) => a.width), 200);
  const maxHeight = Math.max(...workAreas.map((a) => a.height), 200);
  const size = { width: Math.min(saved.width, maxWidth), height: Math.min(saved.height, maxHeight) };
  const visible = workAreas.some((area) => {
    const o = overlap({ ...saved, ...size }, area);
    return o.width >= minVisible && o.height >= minVisible;
  });
  return visible
    ? { ...size, x: saved.x, y: saved.y, maximized: saved.maximized }
    : { ...size, maximized: saved.maximized };
}
