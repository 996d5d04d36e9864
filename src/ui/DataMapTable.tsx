import { DATA_MAP, type Retention } from '../schemas/data-map';
import type { Messages } from '../i18n';
import { format } from '../i18n/format';

interface DataMapTableProps {
  words: Messages['dataRights'];
  /** The user center's scrolling, stacking table (forms.css); the legal pages style a plain one (legal.css). */
  className?: string;
}

const keptLabel = (retention: Retention, words: Messages['dataRights']) =>
  retention.until === 'days' ? format(words.kept.days, { n: String(retention.days) }) : words.kept[retention.until];

/**
 * The one table of what the portal holds about a person (src/schemas/data-map.ts), as "Your data" in the user
 * center and the privacy policy show it. Static: every cell names its column itself (data-label), so it needs no
 * script, which the legal pages have none of.
 */
export function DataMapTable({ words, className = 'table-wrap' }: DataMapTableProps) {
  const columns = [words.categoryColumn, words.whatColumn, words.purposeColumn, words.keptColumn];
  return (
    <div className={className} role="region" tabIndex={0} aria-label={words.table}>
      <table className="data-map">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {DATA_MAP.map((row) => {
            const category = words.categories[row.category];
            return (
              <tr key={row.category} data-category={row.category}>
                <td data-label={columns[0]}>
                  <strong>{category.name}</strong>
                </td>
                <td data-label={columns[1]}>{category.what}</td>
                <td data-label={columns[2]}>{category.purpose}</td>
                <td data-label={columns[3]}>{keptLabel(row.retention, words)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
