import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { bankGet, contextAs } from "./support/bank";

/**
 * The search over the console's index (docs/search.md) as staff use it: the header box (`/`, arrows, Enter), the
 * shareable `/search?q=` page, its input checks, and the audit record of a search over masked fields.
 */

interface SearchAnswer {
  total: number;
  groups: Array<{ resource: string; hits: Array<{ id: string; name: string | null }> }>;
}
const hitIds = (answer: SearchAnswer) => answer.groups.flatMap((group) => group.hits.map((hit) => hit.id));

/** The console's index is filled by its backfill at start: waits until the search finds `id` for `q`. */
async function indexed(request: APIRequestContext, q: string, id: string) {
  await expect
    .poll(async () => hitIds((await (await request.get(`/api/search?${new URLSearchParams({ q })}`)).json()) as SearchAnswer).includes(id), {
      timeout: 60_000,
    })
    .toBe(true);
}

test("the header search: `/` focuses it, results come grouped as you type, arrows choose and Enter opens", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const [counterparty] = (await bankGet("/counterparty?page_size=1")).data;
  const name = String(counterparty!.name);
  await indexed(context.request, name, counterparty!.id);

  await page.goto("/");
  await page.locator("body").press("/");
  const search = page.getByRole("searchbox", { name: "Search the bank" });
  await expect(search).toBeFocused();
  await search.fill(name);
  const results = page.getByTestId("header-search-results");
  await expect(results.locator(`[data-id="${counterparty!.id}"]`)).toHaveCount(1);
  await expect(results.getByTestId("search-hit").first()).toHaveAttribute("data-active", "true");
  const options = await results.getByTestId("search-hit").count();
  if (options > 1) {
    await search.press("ArrowDown");
    await expect(results.getByTestId("search-hit").nth(1)).toHaveAttribute("data-active", "true");
    await search.press("ArrowUp");
  }
  await expect(results.getByTestId("search-hit").first()).toHaveAttribute("data-active", "true");
  const top = await results.getByTestId("search-hit").first().getAttribute("data-id");
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/${top}$`));
  await context.close();
});

test("the search page keeps the query in the URL, finds an amount written with $ and commas, and Enter opens the top result", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const [ach] = (await bankGet("/ach?page_size=1")).data;
  const amount = String(ach!.amount);
  const [whole, cents] = amount.split(".") as [string, string];
  const written = `$${Number(whole).toLocaleString("en-US")}.${cents}`;
  await indexed(context.request, written, ach!.id);

  await page.goto(`/search?${new URLSearchParams({ q: written })}`);
  const input = page.getByRole("searchbox", { name: "Search the index of the bank" });
  await expect(input).toHaveValue(written);
  await expect(page.getByTestId("search-hit").filter({ hasText: ach!.id })).toHaveCount(1);
  await expect(page.getByTestId("search-summary")).toContainText("from the console's index");

  await input.fill(ach!.id);
  await expect(page).toHaveURL(`/search?q=${ach!.id}`);
  await expect(page.getByTestId("search-hit").first()).toHaveAttribute("data-id", ach!.id);
  await input.press("Enter");
  await expect(page).toHaveURL(`/ach/${ach!.id}`);
  await context.close();
});

test("GET /api/search: 400 naming what is wrong; a compliance reviewer's search is audited with its terms, a viewer's is not", async ({
  browser,
}) => {
  const reviewer = await contextAs(browser, "compliance");
  for (const [path, message] of [
    ["/api/search", "q: type something"],
    ["/api/search?q=%20%20", "q: type something"],
    [`/api/search?q=${"x".repeat(201)}`, "q: at most 200 characters"],
    ["/api/search?q=a&q=b", "q is given more than once"],
    ["/api/search?q=a&kind=ach", "kind"],
  ] as const) {
    const response = await reviewer.request.get(path);
    expect(response.status(), path).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code, path).toBe("invalid_input");
    expect(body.error.message, path).toContain(message);
  }

  const term = `audit-probe-${Date.now()}`;
  const searched = await reviewer.request.get(`/api/search?q=${term}`);
  expect(searched.status()).toBe(200);
  expect(await searched.json()).toMatchObject({ total: 0, groups: [], searched: ["public", "userdata", "personal"] });
  const requestId = searched.headers()["x-request-id"]!;
  const trail = await (await reviewer.request.get("/api/audit/export?action=search.masked_fields")).text();
  const line = trail.split("\r\n").find((candidate) => candidate.includes(requestId));
  expect(line).toContain(",compliance@demo.bank,");
  expect(line).toContain(term);

  const viewer = await contextAs(browser, "viewer");
  const viewerSearch = await viewer.request.get(`/api/search?q=${term}-viewer`);
  expect(await viewerSearch.json()).toMatchObject({ searched: ["public"] });
  const after = await (await reviewer.request.get("/api/audit/export?action=search.masked_fields")).text();
  expect(after).not.toContain(`${term}-viewer`);
  await reviewer.close();
  await viewer.close();
});

test("another site cannot run an audited search in someone's name: /api/search is a 403, /search?q= asks first", async ({ browser }) => {
  const reviewer = await contextAs(browser, "compliance");
  const term = `planted-${Date.now()}`;
  const refused = await reviewer.request.get(`/api/search?q=${term}`, { headers: { "sec-fetch-site": "cross-site" } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("cross_site");

  // A page of another site (localhost is another site than 127.0.0.1) links to the search page.
  const page = await reviewer.newPage();
  const attacker = baseURL.replace("127.0.0.1", "localhost");
  await page.route(`${attacker}/planted`, (route) =>
    route.fulfill({ contentType: "text/html", body: `<a href="${baseURL}/search?q=${term}">open</a>` }),
  );
  const searches: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/search")) searches.push(request.url());
  });
  await page.goto(`${attacker}/planted`);
  await page.getByRole("link", { name: "open" }).click();
  await expect(page.getByTestId("search-confirm")).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search the index of the bank" })).toHaveValue(term);
  expect(searches).toEqual([]);
  await page.getByRole("button", { name: "Run this search" }).click();
  await expect(page.getByTestId("search-summary")).toContainText("this search is recorded in the audit trail");
  expect(searches).toHaveLength(1);
  await reviewer.close();
});

test("Cmd/Ctrl-K finds a counterparty by name and opens it; → on a result offers its actions, copy id among them", async ({ browser }, testInfo) => {
  const context = await contextAs(browser, "operations");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  const [counterparty] = (await bankGet("/counterparty?page_size=1")).data;
  const name = String(counterparty!.name);
  await indexed(context.request, name, counterparty!.id);

  await page.goto("/");
  await page.keyboard.press("Control+k");
  const input = page.getByPlaceholder("Paste an id or type a section…");
  await input.fill(name);
  const hit = page.locator(`[data-testid="palette-hit"][data-id="${counterparty!.id}"]`);
  await expect(hit).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("palette-results.png") });
  await hit.hover();
  await input.press("ArrowRight");
  await expect(page.getByTestId("palette-action")).toHaveText(["Open", "Copy id"]);
  await page.getByTestId("palette-action").filter({ hasText: "Copy id" }).click();
  await expect(page.getByTestId("palette-status")).toHaveText(`Copied ${counterparty!.id}`);
  await input.press("ArrowLeft");
  await page.locator(`[data-testid="palette-hit"][data-id="${counterparty!.id}"]`).click();
  await expect(page).toHaveURL(`/counterparties/${counterparty!.id}`);
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  // axe at 1440 px in both themes and at 390 px in light only: the dark theme changes colours, the same at every width;
  // the phone's run checks the narrow layout's structure, the same in both themes.
  const axeWidths = colorScheme === "light" ? [1440, 390] : [1440];
  test(`the search page and header results at 1440 and 390 px (${colorScheme}): screenshots, no serious accessibility violation at ${axeWidths.join(" and ")} px`, async ({
    browser,
  }, testInfo) => {
    const context = await contextAs(browser, "compliance", { colorScheme });
    const page = await context.newPage();
    const [application] = (await bankGet("/apply/person_application?page_size=1")).data;
    const name = `${String(application!.first_name)} ${String(application!.last_name)}`;
    await indexed(context.request, name, application!.id);
    // Loaded once at desktop width and narrowed: the page's layout is CSS alone.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/search?${new URLSearchParams({ q: name })}`);
    await expect(page.getByTestId("search-hit").first()).toBeVisible();
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
      await expect(page.getByTestId("search-hit").first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`search-${width}-${colorScheme}.png`), fullPage: true });
      if (!axeWidths.includes(width)) continue;
      const axe = await new AxeBuilder({ page }).analyze();
      expect(
        axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
      ).toEqual([]);
    }
    // The header's results, typed at the phone's width and widened again.
    await page.getByRole("searchbox", { name: "Search the bank" }).fill(name);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
      await expect(page.getByTestId("header-search-results").getByTestId("search-hit").first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`search-header-${width}-${colorScheme}.png`) });
    }
    await context.close();
  });
}

test("a filter the bank lacks serves the list from the index and says so; removing its chip gives the bank's answer again", async ({ browser }) => {
  // It walks the bank's whole ACH list for the brute-force answer, until the index agrees with it (up to a minute).
  test.setTimeout(180_000);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const rowIds = () => page.getByTestId("bank-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));
  // The sandbox moves transfers through their lifecycle while the suite runs, and the index follows the bank's
  // webhooks within moments: so the brute-force answer is read again until the index and the bank agree.
  const bankAnswer = async () => {
    let answer = await bankGet("/ach?page_size=1000");
    const all = [...answer.data];
    while (answer.page_next) {
      const next = new URL(answer.page_next);
      answer = await bankGet(`${next.pathname}${next.search}`);
      all.push(...answer.data);
    }
    return all;
  };
  const indexAnswer = async () =>
    (await (await context.request.get("/api/index-list/ach?statuses=returned,error&page_size=25")).json()) as {
      data: Array<{ id: string }>;
      index: { complete: boolean };
    };
  let all: Awaited<ReturnType<typeof bankAnswer>> = [];
  let expected: string[] = [];
  await expect
    .poll(
      async () => {
        all = await bankAnswer();
        expected = all.filter((ach) => ach.status === "returned" || ach.status === "error").map((ach) => ach.id);
        const index = await indexAnswer();
        return index.index.complete && JSON.stringify(index.data.map((ach) => ach.id)) === JSON.stringify(expected.slice(0, 25));
      },
      { timeout: 60_000 },
    )
    .toBe(true);

  await page.goto("/ach?page_size=25");
  // The index's filters wait behind "More filters" (the bar keeps one row of choices and dates).
  await expect(page.getByTestId("bank-row")).toHaveCount(25);
  await page.getByRole("button", { name: "More filters" }).click();
  const indexFilters = page.getByRole("form", { name: "Filters from the console's index" });
  await indexFilters.locator("summary", { hasText: "Statuses" }).click();
  await indexFilters.getByRole("checkbox", { name: "returned", exact: true }).check();
  await expect(page).toHaveURL(/statuses=returned/);
  // The popover stays open while the list follows each box ticked.
  await expect(indexFilters.getByRole("checkbox", { name: "returned", exact: true })).toBeChecked();
  await indexFilters.getByRole("checkbox", { name: "error", exact: true }).check();
  await expect(page).toHaveURL(/statuses=returned%2Cerror/);
  await expect(page.getByTestId("index-source")).toContainText("From the console's index, updated");
  // The lifecycle may move a transfer between the brute-force read and the page: both are read again until they agree.
  const shownMatchesBank = async (select: (all: Awaited<ReturnType<typeof bankAnswer>>) => string[]) => {
    const shown = await rowIds();
    if (JSON.stringify(shown) === JSON.stringify(select(all))) return true;
    all = await bankAnswer();
    await page.reload();
    await expect(page.getByTestId("bank-row").first()).toBeVisible();
    return JSON.stringify(await rowIds()) === JSON.stringify(select(all));
  };
  const returnedOrError = (list: typeof all) =>
    list
      .filter((ach) => ach.status === "returned" || ach.status === "error")
      .map((ach) => ach.id)
      .slice(0, 25);
  expect(expected.length).toBeGreaterThan(0);
  await expect.poll(() => shownMatchesBank(returnedOrError), { timeout: 60_000 }).toBe(true);

  await page.getByRole("button", { name: "Remove filter: status returned or error" }).click();
  await expect(page).toHaveURL("/ach?page_size=25");
  await expect(page.getByTestId("index-source")).toHaveCount(0);
  await expect.poll(() => shownMatchesBank((list) => list.slice(0, 25).map((ach) => ach.id)), { timeout: 60_000 }).toBe(true);
  await context.close();
});

test("a list's first HTML shows each counterparty's name beside its id, so no column widens after the page has painted", async ({ browser }) => {
  // Without JavaScript the page is the server's HTML alone: a name there was not fetched by the browser afterwards.
  const context = await contextAs(browser, "viewer", { javaScriptEnabled: false });
  const page = await context.newPage();
  const firstNamed = async () => {
    await page.goto("/ach");
    const cell = page
      .getByTestId("bank-row")
      .locator("td", { has: page.getByTestId("name-beside") })
      .first();
    if ((await cell.count()) === 0) return null;
    return { id: await cell.locator("a[data-id]").getAttribute("data-id"), name: await cell.getByTestId("name-beside").textContent() };
  };
  // The index knows the counterparties once its backfill at start has reached them.
  let shown: Awaited<ReturnType<typeof firstNamed>> = null;
  await expect.poll(async () => (shown = await firstNamed()), { timeout: 60_000 }).not.toBeNull();
  const counterparty = await bankGet<{ id: string; name: string }>(`/counterparty/${shown!.id}`);
  expect(shown!.name).toBe(counterparty.name);
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`Home's exact counts and an index-served list at 1440 and 390 px (${colorScheme}): screenshots`, async ({ browser }, testInfo) => {
    const context = await contextAs(browser, "viewer", { colorScheme });
    const page = await context.newPage();
    // Each page loaded once at desktop width and narrowed: the layout is CSS alone.
    const pages = [
      {
        path: "/",
        name: "home",
        shown: () => expect(page.getByTestId("attention-as-of")).toContainText("Exact counts from the console's index of the bank, as of"),
      },
      {
        path: "/ach?statuses=returned,error&amount_min=100&created=custom&created_from=2020-01-01&page_size=25",
        name: "ach-index",
        shown: async () => {
          await expect(page.getByTestId("index-source")).toBeVisible();
          await expect(page.getByTestId("filter-chip")).toHaveCount(3);
        },
      },
    ];
    for (const { path, name, shown } of pages) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(path);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
        await shown();
        await page.screenshot({ path: testInfo.outputPath(`${name}-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
    await context.close();
  });
}
