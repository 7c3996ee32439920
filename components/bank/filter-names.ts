import { fetchConsole } from "@/lib/bank/browser";
import type { NameTarget } from "@/lib/search/name-filter";
import type { NameChoice } from "@/lib/search/resolve-names";

/**
 * The ids a name typed into an id filter may mean, through the search (`GET /api/search/names`). Its own module, loaded
 * when a name is first applied, so a list's first load does not carry it.
 */
export async function resolveFilterName(target: NameTarget, text: string): Promise<NameChoice[]> {
  const answer = await fetchConsole<{ data: NameChoice[] }>(`/api/search/names?${new URLSearchParams({ for: target, q: text })}`);
  return answer.data;
}
