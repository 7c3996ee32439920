/** A route as the contract and the control API list it: a method and an OpenAPI path (`{name}` for a parameter). */
export interface RouteName {
  method: string;
  path: string;
}

/**
 * The methods each known path answers, for telling a wrong method (405 with `Allow`) from an unknown path (404).
 * Answers undefined for a path none of the routes names.
 */
export function methodsByPath(routes: RouteName[]): (path: string) => string[] | undefined {
  const byPattern = new Map<string, Set<string>>();
  for (const route of routes) {
    const pattern = `^${route.path.replace(/\{[a-z_]+\}/g, "[^/]+")}$`;
    byPattern.set(pattern, (byPattern.get(pattern) ?? new Set<string>()).add(route.method.toUpperCase()));
  }
  const matchers = [...byPattern].map(([pattern, methods]) => ({ regex: new RegExp(pattern), methods: [...methods] }));
  return (path) => matchers.find((matcher) => matcher.regex.test(path))?.methods;
}
