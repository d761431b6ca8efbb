const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]*$/;

/** Collection, projection and field names end up in SQL and Mongo paths: only plain identifiers pass. */
export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Invalid identifier: ${JSON.stringify(name)}`);
  return name;
}
