/** The statements of a script of `;`-terminated SQL (the operator command's output), for D1's batch. */
export const splitStatements = (sql: string) =>
  sql
    .split(/;\s*\n|;\s*$/)
    .map((statement) => statement.trim())
    .filter(Boolean);
