import { listedResources, pageSizeMax } from "@/lib/contract";
import type { sandboxClient } from "./sandbox-client";

type Request = ReturnType<typeof sandboxClient>;
type Page = { data: Array<{ id: string }>; page_next?: string };

/** Every page of a list, following page_next; each answer as the API gave it (status and body). */
async function everyPage(request: Request, path: string): Promise<Array<{ status: number; body: unknown }>> {
  const pages: Array<{ status: number; body: unknown }> = [];
  let next: string | undefined = `${path}?page_size=${pageSizeMax}`;
  while (next) {
    const { status, body } = await request(next);
    pages.push({ status, body });
    next = status === 200 ? (body as Page).page_next : undefined;
  }
  return pages;
}

/**
 * The sandbox's answer to every list and every get of the API: each list's pages, each listed object's GET, and each
 * webhook's deliveries; keyed by path, so two states compare with one toEqual that names the first path that differs.
 * `gets: false` leaves out the GETs of single objects (a list already shows each object whole).
 */
export async function everyListAndGet(request: Request, { gets = true } = {}): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const { path } of Object.values(listedResources)) {
    const pages = await everyPage(request, path);
    answers[path] = pages;
    const ids = (gets ? pages : []).flatMap((page) => ((page.body as Page).data ?? []).map((object) => object.id));
    // A few at a time: hundreds of objects one by one made this the slowest part of a test.
    for (let start = 0; start < ids.length; start += 16) {
      await Promise.all(
        ids.slice(start, start + 16).map(async (id) => {
          const { status, body } = await request(`${path}/${id}`);
          answers[`${path}/${id}`] = { status, body };
          if (path === listedResources.webhook.path) answers[`${path}/${id}/deliveries`] = await everyPage(request, `${path}/${id}/deliveries`);
        }),
      );
    }
  }
  return answers;
}
