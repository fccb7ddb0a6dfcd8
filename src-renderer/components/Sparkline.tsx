// Recent latencies as a small line: enough to see a trend or a spike at a glance. The numbers
// are in the label, for screen readers and for hover.
export function Sparkline({
  values,
  width = 96,
  height = 24,
}: {
  values: readonly number[];
  width?: number;
  height?: number;
}) {
  const points = values.filter((v) => v > 0);
  if (points.length < 2) return <span className="sparkline-empty" aria-hidden="true" />;
  const max = Math.max(...points);
  const min = Math.min(...points);
  const span = max - min;
  const step = (width - 4) / (points.length - 1);
  // A steady latency is a flat line through the middle, not one pressed to the bottom.
  const y = (v: number): number => (span === 0 ? height / 2 : height - 3 - ((v - min) / span) * (height - 6));
  const path = points.map((v, i) => `${i === 0 ? 'M' : 'L'}${(2 + i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = points.at(-1) ?? 0;
  const label = `Latency of the last ${points.length} runs: ${min} to ${max} ms, latest ${last} ms`;
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      <path
        d={path}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
        strokeLinecap="round"
        vectorEffect="non-scaling-stroke"
      />
      <circle cx={(2 + (points.length - 1) * step).toFixed(1)} cy={y(last).toFixed(1)} r="2" fill="currentColor" />
    </svg>
  );
}
