import { useLayoutEffect, useRef, type ReactNode } from 'react';

interface ScrollTableProps {
  /** The region's name: apart from its section's heading, since two landmarks with one name cannot be told apart. */
  label: string;
  className: string;
  columns: string[];
  children: ReactNode;
}

/**
 * A table that never widens the page: on a wide screen it scrolls inside its panel (keyboard users too: the
 * wrapper is a named region that takes focus); on a phone forms.css stacks each row as a card, every value
 * under its column's name, so no column hides past the edge.
 */
export function ScrollTable({ label, className, columns, children }: ScrollTableProps) {
  const table = useRef<HTMLTableElement>(null);
  // The callers render the cells; the column names reach them here, for the stacked layout's labels.
  useLayoutEffect(() => {
    for (const row of table.current?.tBodies[0]?.rows ?? []) {
      Array.from(row.cells).forEach((cell, i) => cell.setAttribute('data-label', columns[i] ?? ''));
    }
  });
  return (
    <div className="table-wrap" role="region" tabIndex={0} aria-label={label}>
      <table className={className} ref={table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
