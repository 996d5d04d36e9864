import type { ReactNode } from 'react';

interface ScrollTableProps {
  /** The region's name: apart from its section's heading, since two landmarks with one name cannot be told apart. */
  label: string;
  className: string;
  columns: string[];
  children: ReactNode;
}

/**
 * A table that scrolls inside its panel instead of widening the page on a phone. Keyboard users can scroll it
 * too: the wrapper is a named region that takes focus.
 */
export function ScrollTable({ label, className, columns, children }: ScrollTableProps) {
  return (
    <div className="table-wrap" role="region" tabIndex={0} aria-label={label}>
      <table className={className}>
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
