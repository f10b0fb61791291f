/**
 * Machine names label sources and are a partition of a lake (`machine=NAME/` folders that Spark,
 * Trino, ClickHouse and DuckDB all read as a column): kept to characters that need no escaping
 * in a path or a URL, so every engine reads back the same name.
 */
const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The reason a name cannot be a machine label, or null when it can. */
export function machineNameProblem(name: string): string | null {
  if (MACHINE_NAME.test(name)) return null;
  return `"${name}" cannot name a machine: use 1–63 letters, digits, '.', '_' or '-', starting with a letter or digit`;
}

/** A host name made into a machine label (a name with other characters has them replaced by '-'). */
export function machineFromHostname(hostname: string): string {
  const cleaned = hostname.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 63);
  return cleaned.length > 0 ? cleaned : 'localhost';
}
