/** One line of the plot: a rate (0–1) per point, null where there is nothing to plot. */
export interface RateLine {
  label: string;
  values: (number | null)[];
  /** The class of the line's stroke and its legend swatch (rate-plot.css). */
  className: string;
}

interface RatePlotProps {
  /** The plot's name and its content in words (for screen readers: the SVG's title and description). */
  title: string;
  summary: string;
  lines: RateLine[];
  /** Labels under the x axis: first, middle, last point. */
  xLabels: [string, string, string];
  /** "0%", "50%", "100%" in the page's language. */
  yLabels: [string, string, string];
}

const WIDTH = 480;
const HEIGHT = 140;
const PAD = { left: 40, right: 8, top: 8, bottom: 24 };

/**
 * A small inline SVG of rates over time, no chart library: one polyline per line, broken where a point has no
 * value. It is an image with a title and a description in words; the page gives its figures as a table too.
 */
export function RatePlot({ title, summary, lines, xLabels, yLabels }: RatePlotProps) {
  const count = Math.max(1, ...lines.map((line) => line.values.length));
  const x = (i: number) => PAD.left + (count === 1 ? 0 : (i / (count - 1)) * (WIDTH - PAD.left - PAD.right));
  const y = (rate: number) => PAD.top + (1 - rate) * (HEIGHT - PAD.top - PAD.bottom);
  // Runs of consecutive points with a value: each becomes one polyline (a lone point, a dot).
  const runs = (values: (number | null)[]) => {
    const out: [number, number][][] = [];
    let current: [number, number][] = [];
    values.forEach((value, i) => {
      if (value === null) {
        if (current.length) out.push(current);
        current = [];
      } else current.push([x(i), y(value)]);
    });
    if (current.length) out.push(current);
    return out;
  };
  const id = title.replace(/[^\w-]/g, '-');
  return (
    <figure className="rate-plot">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="none">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[1, 0.5, 0].map((rate, i) => (
          <g key={rate}>
            <line className="rate-plot-grid" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(rate)} y2={y(rate)} />
            <text className="rate-plot-axis" x={PAD.left - 6} y={y(rate) + 4} textAnchor="end">
              {yLabels[2 - i]}
            </text>
          </g>
        ))}
        {lines.map((line) =>
          runs(line.values).map((run, i) =>
            run.length === 1 ? (
              <circle key={`${line.className}-${i}`} className={`rate-plot-dot ${line.className}`} cx={run[0]![0]} cy={run[0]![1]} r={3} />
            ) : (
              <polyline key={`${line.className}-${i}`} className={`rate-plot-line ${line.className}`} points={run.map(([px, py]) => `${px},${py}`).join(' ')} />
            ),
          ),
        )}
        {xLabels.map((label, i) => (
          <text key={label} className="rate-plot-axis" x={x(((count - 1) * i) / 2)} y={HEIGHT - 6} textAnchor={i === 0 ? 'start' : i === 1 ? 'middle' : 'end'}>
            {label}
          </text>
        ))}
      </svg>
      <figcaption>
        <ul className="rate-plot-legend">
          {lines.map((line) => (
            <li key={line.className}>
              <span className={`rate-plot-swatch ${line.className}`} aria-hidden="true" />
              {line.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
