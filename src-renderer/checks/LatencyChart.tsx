// Latency over a window with uPlot (small, fast, canvas): median and p95 per bucket against a
// time axis and a ms axis, failed runs marked in red. The chart is drawn for sighted users; the
// same facts are in words right under it (chartSummary), which is also all a host without a
// canvas shows.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { shortWhen } from '../format.ts';
import { axisTimes, chartData, chartSummary, type ChartBucket, type ChartData } from './chart-data.ts';

const canDraw = (): boolean => {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
};

const cssVar = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** The newest bucket with a latency: what the legend shows while the pointer is not over the chart. */
function newestIndex(data: ChartData): number | undefined {
  for (let i = data[1].length - 1; i >= 0; i--) if (data[1][i] !== null) return i;
  return data[0].length === 0 ? undefined : data[0].length - 1;
}

const ms = (_u: uPlot, value: number | null): string =>
  typeof value === 'number' ? `${Math.round(value)} ms` : 'no answer';

function options(width: number, fromMs: number, toMs: number, data: ChartData): uPlot.Options {
  const resting = newestIndex(data);
  const text = cssVar('--muted', '#5b6470');
  const grid = cssVar('--border', '#dfe3e8');
  const accent = cssVar('--accent', '#2456d6');
  const bad = cssVar('--bad', '#c22a32');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: 180,
    legend: { show: true, live: true },
    // uPlot shows "--" in the legend while the pointer is away: show the newest bucket instead.
    hooks: {
      setCursor: [
        (u) => {
          if (u.cursor.idx === null || u.cursor.idx === undefined) {
            if (resting !== undefined) u.setLegend({ idx: resting }, false);
          }
        },
      ],
      ready: [(u) => (resting === undefined ? undefined : u.setLegend({ idx: resting }, false))],
    },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: true, min: fromMs / 1000, max: toMs / 1000 },
      y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] },
    },
    // Room between ticks so the time labels never run into each other on a narrow window; the
    // labels in the window's own time format, a second line naming the day where one begins.
    axes: [
      {
        ...axis,
        space: 100,
        size: 48,
        values: (_u, ticks) =>
          axisTimes(
            ticks.map((t) => t * 1000),
            Date.now(),
          ),
      },
      { ...axis, label: 'ms', size: 50, space: 30, values: (_u, ticks) => ticks.map((t) => `${Math.round(t)}`) },
    ],
    series: [
      // The legend's time, as the rest of the window says times (uPlot's own: "2026-11-24 5:13pm").
      { label: 'time', value: (_u, value) => (typeof value === 'number' ? shortWhen(value * 1000, Date.now()) : '') },
      // Points on the median: a window with a single bucket still shows where it is.
      {
        label: 'median',
        stroke: accent,
        width: 1.5,
        spanGaps: false,
        points: { show: true, size: 4, fill: accent },
        value: ms,
      },
      { label: 'p95', stroke: accent, dash: [4, 4], width: 1, spanGaps: false, points: { show: false }, value: ms },
      {
        label: 'failed runs',
        value: (_u, value) => (typeof value === 'number' ? 'yes' : 'none'),
        stroke: bad,
        width: 0,
        paths: () => null,
        points: { show: true, size: 7, stroke: bad, fill: bad },
      },
    ],
  };
}

export interface LatencyChartProps {
  buckets: readonly ChartBucket[];
  fromMs: number;
  toMs: number;
  bucketMs: number;
  /** "the last 24 hours" */
  words: string;
}

export function LatencyChart({ buckets, fromMs, toMs, bucketMs, words }: LatencyChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const summary = chartSummary(buckets, words, bucketMs);
  // The canvas takes its colours from the theme when drawn: a theme change draws it again.
  const [dark, setDark] = useState(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = (): void => setDark(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);

  useEffect(() => {
    const element = box.current;
    if (element === null || !canDraw()) return undefined;
    const data = chartData(buckets);
    const plot = new uPlot(options(Math.max(200, element.clientWidth), fromMs, toMs, data), data, element);
    const observer =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => plot.setSize({ width: Math.max(200, element.clientWidth), height: 180 }))
        : undefined;
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [buckets, fromMs, toMs, dark]);

  return (
    <figure className="latency-chart">
      <div ref={box} className="latency-plot" aria-hidden="true" />
      <figcaption className="muted">{summary}</figcaption>
    </figure>
  );
}
