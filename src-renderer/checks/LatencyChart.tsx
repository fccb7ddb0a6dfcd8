// Latency over a window with uPlot (small, fast, canvas): median and p95 per bucket against a
// time axis and a ms axis, failed runs marked in red. The chart is drawn for sighted users; the
// same facts are in words right under it (chartSummary), which is also all a host without a
// canvas shows.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartData, chartSummary, type ChartBucket } from './chart-data.ts';

const canDraw = (): boolean => {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
};

const cssVar = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

function options(width: number, fromMs: number, toMs: number): uPlot.Options {
  const text = cssVar('--muted', '#5b6470');
  const grid = cssVar('--border', '#dfe3e8');
  const accent = cssVar('--accent', '#2456d6');
  const bad = cssVar('--bad', '#c22a32');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: 180,
    legend: { show: true, live: true },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: true, min: fromMs / 1000, max: toMs / 1000 },
      y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] },
    },
    axes: [axis, { ...axis, label: 'ms', size: 50, values: (_u, ticks) => ticks.map((t) => `${Math.round(t)}`) }],
    series: [
      {},
      // Points on the median: a window with a single bucket still shows where it is.
      { label: 'median', stroke: accent, width: 1.5, spanGaps: false, points: { show: true, size: 4, fill: accent } },
      { label: 'p95', stroke: accent, dash: [4, 4], width: 1, spanGaps: false, points: { show: false } },
      {
        label: 'failed',
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
    const plot = new uPlot(options(Math.max(200, element.clientWidth), fromMs, toMs), chartData(buckets), element);
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
