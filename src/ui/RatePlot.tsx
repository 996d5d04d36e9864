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
const HEIGHT = 120;
const PAD = 6;

/**
 * A small inline SVG of rates over time, no chart library: one polyline per line, broken where a point has no
 * value. The SVG stretches to its box (its strokes keep their width), so its axis labels are HTML beside it,
 * never stretched text. It is an image with a title and a description in words; the page gives its figures as a
 * table too.
 */
export function RatePlot({ title, summary, lines, xLabels, yLabels }: RatePlotProps) {
  const count = Math.max(1, ...lines.map((line) => line.values.length));
  const x = (i: number) => (count === 1 ? WIDTH / 2 : (i / (count - 1)) * WIDTH);
  const y = (rate: number) => PAD + (1 - rate) * (HEIGHT - 2 * PAD);
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
      <div className="rate-plot-frame">
        <div className="rate-plot-y" aria-hidden="true">
          {[...yLabels].reverse().map((label) => (
            <span key={label}>{label}</span>
          ))}
        </div>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="none">
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{summary}</desc>
          {[1, 0.5, 0].map((rate) => (
            <line key={rate} className="rate-plot-grid" x1={0} x2={WIDTH} y1={y(rate)} y2={y(rate)} />
          ))}
          {lines.map((line) =>
            runs(line.values).map((run, i) =>
              run.length === 1 ? (
                // A lone point: a short stroke (a circle would stretch with the box).
                <line key={`${line.className}-${i}`} className={`rate-plot-line rate-plot-point ${line.className}`} x1={run[0]![0] - 3} x2={run[0]![0] + 3} y1={run[0]![1]} y2={run[0]![1]} />
              ) : (
                <polyline key={`${line.className}-${i}`} className={`rate-plot-line ${line.className}`} points={run.map(([px, py]) => `${px},${py}`).join(' ')} />
              ),
            ),
          )}
        </svg>
        <div className="rate-plot-x" aria-hidden="true">
          {xLabels.map((label) => (
            <span key={label}>{label}</span>
          ))}
        </div>
      </div>
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
