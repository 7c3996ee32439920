import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { bankGet, bankSend, contextAs, everyConsolePage } from "./support/bank";
import { waitForHydration } from "./support/staff";

/**
 * The console's shell in everyday use (docs/console-pages.md, "Layout"): every page at phone, tablet and desktop width
 * in both themes without sideways scrolling of the page, with no serious or critical accessibility violation (axe) at
 * desktop width in both themes and phone width in light, and a full-page screenshot kept for a person to look at; the
 * keyboard (`/`, skip link, dialogs giving focus back, rows opened with Enter), browser titles naming the object, page
 * size remembered per list.
 * Sign-in itself is in sign-in.spec.ts.
 */

/** Widest first: each page is loaded once at desktop width and narrowed from there, its layout being CSS alone. */
const widths = [1440, 768, 390] as const;
const heights: Record<(typeof widths)[number], number> = { 1440: 900, 768: 1024, 390: 844 };
/**
 * axe at the desktop's layout in both themes and at the phone's in light only: the dark theme changes colours, which
 * the desktop's run checks (the same colours at every width); the phone's run checks the narrow layout's structure
 * (the sidebar behind Menu, stacked filters), which is the same in both themes. 768 px has the phone's layout.
 */
function axeAt(width: number, colorScheme: "light" | "dark"): boolean {
  return width === 1440 || (width === 390 && colorScheme === "light");
}

/** Elements reaching past the right edge of the window, outside any box that scrolls on its own (their names, for the message). */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const culprits: string[] = [];
    const scrollsItself = (element: Element) => {
      for (let node: Element | null = element.parentElement; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (["auto", "scroll", "hidden", "clip"].includes(style.overflowX)) return true;
      }
      return false;
    };
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= innerWidth + 0.5 || scrollsItself(element)) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${element.getAttribute("data-testid") ? `[data-testid=${element.getAttribute("data-testid")}]` : ""}.${String(element.className).slice(0, 60)}`;
      culprits.push(`${name} (right ${Math.round(box.right)})`);
      if (culprits.length >= 5) break;
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, culprits };
  });
}

for (const colorScheme of ["light", "dark"] as const) {
  const axeWidths = widths.filter((width) => axeAt(width, colorScheme));
  test(`every page at ${widths.join(", ")} px (${colorScheme}): nothing wider than the window, screenshots, axe clean at ${axeWidths.join(" and ")} px`, async ({
    browser,
  }, testInfo) => {
    // Every page at three widths, with an axe run at two: about 5 min on a machine at load 10.
    test.setTimeout(1_200_000);
    const context = await contextAs(browser, "admin", { colorScheme });
    const page = await context.newPage();
    const problems: string[] = [];
    for (const path of await everyConsolePage()) {
      await page.setViewportSize({ width: widths[0], height: heights[widths[0]] });
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(new RegExp(colorScheme));
      await expect(page.locator("main#content")).toBeVisible();
      for (const width of widths) {
        await page.setViewportSize({ width, height: heights[width] });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
        // The sidebar stands beside the page from 1024 px; below, it is behind the Menu button.
        await expect(page.getByTestId("menu-button")).toBeVisible({ visible: width < 1024 });
        await expect(page.getByRole("searchbox", { name: "Search the bank" })).toBeInViewport();
        const measured = await overflow(page);
        if (measured.scrollWidth > measured.innerWidth) {
          problems.push(
            `${path} at ${width} px: page ${measured.scrollWidth} px wide in a ${measured.innerWidth} px window; ${measured.culprits.join(", ")}`,
          );
        }
        await page.screenshot({
          path: testInfo.outputPath(`${width}-${colorScheme}${path === "/" ? "-home" : path.replace(/[^a-z0-9]+/gi, "-")}.png`),
          fullPage: true,
        });
        if (axeAt(width, colorScheme)) {
          const { violations } = await new AxeBuilder({ page }).analyze();
          for (const violation of violations.filter((candidate) => candidate.impact === "serious" || candidate.impact === "critical")) {
            problems.push(
              `${path} at ${width} px: axe ${violation.id} (${violation.impact}) ${violation.nodes
                .map((node) => node.target.join(" "))
                .slice(0, 3)
                .join(" | ")}`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("a list scrolls inside its own box with its header and id column in view, 50 rows by default", async ({ browser }, testInfo) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/ach");
  const rows = page.getByTestId("bank-row");
  await expect(rows).toHaveCount(50);
  const box = page.getByTestId("table-scroll");
  await box.evaluate((element) => {
    element.scrollTop = 600;
    element.scrollLeft = 400;
  });
  const idCell = rows.nth(20).locator("td").first();
  await expect(idCell).toBeInViewport();
  // The header row stays at the top of the box and the id column at its left, while the box has scrolled both ways.
  // All three are measured in one frame: a bar arriving above the list (live changes, the count) moves them together.
  const offsets = await box.evaluate((element) => {
    const boxRect = element.getBoundingClientRect();
    const headerRect = element.querySelector("thead th")!.getBoundingClientRect();
    const idRect = element.querySelectorAll('[data-testid="bank-row"]')[20]!.querySelector("td")!.getBoundingClientRect();
    return { header: Math.abs(headerRect.top - boxRect.top), idColumn: Math.abs(idRect.left - boxRect.left) };
  });
  expect(offsets.header).toBeLessThanOrEqual(2);
  expect(offsets.idColumn).toBeLessThanOrEqual(2);
  await page.screenshot({ path: testInfo.outputPath("ach-390-scrolled.png") });

  // Paging starts at the top of the table again, and the page keeps its width.
  await page.getByRole("button", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page_cursor=/);
  await expect(page.getByTestId("row-range")).toHaveText("Rows 51–100");
  await expect.poll(() => box.evaluate((element) => element.scrollTop)).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await context.close();
});

test("at 1440 px the ACH list shows every default column without scrolling, under one row of filters", async ({ browser }, testInfo) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/ach");
  await expect(page.getByTestId("bank-row")).toHaveCount(50);
  const box = page.getByTestId("table-scroll");
  // The last column's header and cells end inside the box: nothing to scroll to.
  const past = await box.evaluate((element) => {
    const right = element.getBoundingClientRect().right;
    const last = [...element.querySelectorAll("tr > :last-child")].map((cell) => cell.getBoundingClientRect().right);
    return { cells: Math.max(...last) - right, scroll: element.scrollWidth - element.clientWidth };
  });
  expect(past.cells).toBeLessThanOrEqual(0);
  expect(past.scroll).toBeLessThanOrEqual(0);
  const form = page.getByRole("form", { name: "Filters", exact: true });
  // What a reader sees: the skip link after the filters is off screen until focused (sr-only), so it is not counted.
  const tops = await form
    .locator(":scope > *:visible:not(.sr-only)")
    .evaluateAll((items) => new Set(items.map((item) => Math.round(item.getBoundingClientRect().bottom))).size);
  expect(tops).toBe(1);
  await page.screenshot({ path: testInfo.outputPath("ach-1440.png") });
  // The id filters are one click away, and say how many are in use.
  await page.goto("/ach?account_id=acct_none");
  await expect(page.getByTestId("more-filters")).toHaveText("Fewer filters");
  await expect(form.getByLabel("Account")).toHaveValue("acct_none");
  await page.getByTestId("more-filters").click();
  await expect(form.getByLabel("Account")).toBeHidden();
  await expect(page.getByTestId("more-filters")).toHaveText("More filters (1)");
  await context.close();
});

test("the page size chosen on a list is its default next time; a page_size in the URL wins", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/counterparties");
  await expect(page.getByTestId("bank-row")).toHaveCount(50);
  await page.getByLabel("Rows per page").selectOption("25");
  await expect(page).toHaveURL(/page_size=25/);
  // The new page comes from the bank through the proxy: on a busy machine that can take more than the default 5 s.
  await expect(page.getByTestId("bank-row")).toHaveCount(25, { timeout: 15_000 });
  await page.goto("/counterparties");
  await expect(page.getByLabel("Rows per page")).toHaveValue("25");
  await expect(page.getByTestId("bank-row")).toHaveCount(25);
  // The rows are in the first HTML too: the server read the remembered size.
  const html = await (await context.request.get("/counterparties")).text();
  expect(html.match(/data-testid="bank-row"/g)?.length).toBe(25);
  await page.goto("/counterparties?page_size=100");
  await expect(page.getByLabel("Rows per page")).toHaveValue("100");
  // Another list keeps its own default.
  await page.goto("/ach");
  await expect(page.getByTestId("bank-row")).toHaveCount(50);
  await context.close();
});

test("keyboard: the skip link, `/` then typing finds, Enter opens a row, and focus returns to a dialog's opener", async ({ browser }) => {
  const context = await contextAs(browser, "admin");
  const page = await context.newPage();
  await page.goto("/ach?page_size=25");
  // Keys and clicks are handled by the page's scripts: each page is waited for until hydrated.
  await waitForHydration(page);

  // The first Tab reaches the skip link; following it puts focus on the page's content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();

  // A row opens with Enter.
  const firstRow = page.getByTestId("bank-row").first();
  const rowId = await firstRow.getAttribute("data-id");
  await firstRow.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/ach/${rowId}$`));

  // `/` focuses the header search; typing an id and Enter finds it.
  const [transfer] = (await bankGet("/ach?page_size=1&status=returned")).data;
  await page.goto("/");
  await waitForHydration(page);
  await page.locator("body").press("/");
  const search = page.getByRole("searchbox", { name: "Search the bank" });
  await expect(search).toBeFocused();
  await page.keyboard.type(transfer!.id);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/ach/${transfer!.id}$`));
  await expect(page.getByTestId("resource-detail")).toHaveAttribute("data-id", transfer!.id);

  // The confirm dialog: Tab stays inside it, Escape closes it, focus is back on the button that opened it.
  // A webhook of its own: the newest at the bank may be one of the console's own subscriptions, which offer no actions.
  const { body: webhook } = await bankSend<{ id: string }>("POST", "/webhook", { url: `https://hooks.example/${randomUUID()}`, event: "ach.update" });
  await page.goto(`/webhooks/${webhook.id}`);
  await waitForHydration(page);
  const opener = page.getByRole("button", { name: "Delete webhook" });
  await opener.click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toBeVisible();
  for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((element) => element.contains(document.activeElement)), `focus inside the dialog after ${key}`).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await opener.click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(opener).toBeFocused();
  await context.close();
});

test("on a phone the sidebar opens from the Menu button, keeps Tab inside, and gives focus back when closed", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
  const menu = page.getByTestId("menu-button");
  await menu.click();
  const drawer = page.getByTestId("menu-drawer");
  await expect(drawer.getByRole("navigation", { name: "Sections" })).toBeVisible();
  for (let press = 0; press < 3; press += 1) {
    await page.keyboard.press("Tab");
    expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();

  // A section chosen in the drawer opens; the drawer closes and the section is marked current once it is shown.
  await menu.click();
  await drawer.getByRole("link", { name: "ACH transfers" }).click();
  await expect(page).toHaveURL(/\/ach$/);
  await expect(drawer).toBeHidden();
  await menu.click();
  await expect(drawer.getByRole("link", { name: "ACH transfers" })).toHaveAttribute("aria-current", "page");
  await context.close();
});

test("a detail page's browser title names the object; a list's names the list", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const [transfer] = (await bankGet("/ach?page_size=1")).data;
  const amount = Number(transfer!.amount).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await page.goto(`/ach/${transfer!.id}`);
  await expect(page).toHaveTitle(`ACH transfer ${transfer!.id} · $${amount} · Bank console`);
  await page.goto("/ach");
  await expect(page).toHaveTitle("ACH transfers · Bank console");
  // Moving between pages in the browser updates the title too.
  await page.getByTestId("bank-row").first().locator("a").first().click();
  await expect(page).toHaveTitle(/^ACH transfer ach_\S+ · \$[\d,]+\.\d\d · Bank console$/);
  const favicon = await context.request.get("/icon.svg");
  expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
  await context.close();
});

test("a route change shows the progress bar until the new page is shown", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/");
  const bar = page.getByTestId("route-progress");
  await expect(bar).toHaveAttribute("data-state", "idle");
  await waitForHydration(page);
  // Hold the next page's server answer, so the bar is seen while it is on its way.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === "/counterparties",
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Counterparties" }).click();
  await expect(bar).toHaveAttribute("data-state", "loading");
  // The sidebar still marks the section that is shown, not the one on its way.
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  release();
  await expect(page).toHaveURL(/\/counterparties$/);
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Counterparties" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(bar).toHaveAttribute("data-state", "idle");
  await context.close();
});
