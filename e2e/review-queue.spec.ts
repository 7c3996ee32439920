import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { bankGet, bankSend, contextAs } from "./support/bank";
import { runQueueBulk } from "./support/reviews";
import { demoUser } from "./support/staff";

/**
 * The review queue (docs/reviews.md) as the compliance demo user: a bad filter named, paging, what each filter counts
 * and the SLA, bulk assignment from selected rows, and the queue and a case panel at both widths in both themes. A
 * case's own work (two reviewers, a reveal) is in reviews.spec.ts.
 */

const reviewer = demoUser("compliance").email;

test("the queue tells a bad filter and the viewer cannot open it", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  const viewer = await contextAs(browser, "viewer");
  try {
    const page = await context.newPage();
    await page.goto("/reviews?age=3h&kind=card");
    await expect(page.getByTestId("queue-filter-error")).toHaveText(
      "kind: expected person_application, business_application or any; age: expected one of 1d, 2d, 7d, 30d",
    );
    expect((await viewer.request.get("/reviews", { maxRedirects: 0 })).status()).toBe(403);
    const record = await context.request.get("/api/reviews/apsn_nope/record?format=pdf");
    expect(record.status()).toBe(400);
    expect((await record.json()).error.message).toContain("format");
  } finally {
    await context.close();
    await viewer.close();
  }
});

test("the queue pages by 50, oldest first, and a bad page cursor shows the first page with a notice", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    // Every application, decided or not: the demo set has more than a page of them.
    await page.goto("/reviews?state=any");
    const rows = page.getByTestId("queue-row");
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId("row-range")).toHaveText("Rows 1–50");
    const firstPage = await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")));
    await page.getByRole("link", { name: "Next →" }).click();
    await expect(page.getByTestId("row-range")).toHaveText(/^Rows 51–/);
    await expect(page).toHaveURL(/state=any/);
    const secondPage = await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")));
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
    await page.getByRole("link", { name: "← Previous" }).click();
    await expect(page.getByTestId("row-range")).toHaveText("Rows 1–50");
    expect(await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")))).toEqual(firstPage);

    await page.goto("/reviews?state=any&page_cursor=yesterday");
    await expect(page.getByTestId("queue-filter-error")).toHaveText("page_cursor: not a page of this queue (showing its first page)");
    expect(await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")))).toEqual(firstPage);
  } finally {
    await context.close();
  }
});

test("the queue counts what each filter keeps, and an application created now is within the SLA", async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    const count = async () => Number(await page.getByTestId("queue-count").getAttribute("data-count"));

    // Every application, every page walked: the count is the rows of all its pages.
    await page.goto("/reviews?state=any");
    const total = await count();
    let walked = await page.getByTestId("queue-row").count();
    while (await page.getByRole("link", { name: "Next →" }).count()) {
      await page.getByRole("link", { name: "Next →" }).click();
      await expect(page.getByTestId("row-range")).toHaveText(new RegExp(`^Rows ${walked + 1}–`));
      walked += await page.getByTestId("queue-row").count();
    }
    expect(walked).toBe(total);
    // The summary says the colours of all of them: over, due soon and within sum to the count.
    await page.goto("/reviews?state=any");
    await expect(page.getByTestId("queue-summary")).toContainText(`${total.toLocaleString("en-US")} applications match these filters`);
    const summary = (await page.getByTestId("queue-summary").textContent())!;
    const [over, due, within] = [/([\d,]+) over the SLA/, /([\d,]+) due soon/, /([\d,]+) within it/].map((pattern) =>
      Number(pattern.exec(summary)![1]!.replaceAll(",", "")),
    );
    expect(over! + due! + within!).toBe(total);

    // A person application created at the bank now: once the console's index has it, assigned, it is within the SLA.
    const created = await bankSend<{ id: string }>("POST", "/sandbox/apply/person_application", {});
    expect(created.status).toBe(201);
    const { id } = created.body;
    await expect
      .poll(async () => (await (await context.request.get(`/applications/person/${id}`)).text()).includes('data-testid="case-state"'), {
        // A bank notification brings it at once; otherwise the periodic sweep (INDEX_SWEEP_INTERVAL_MS, 60 s).
        timeout: 90_000,
      })
      .toBe(true);
    await page.goto(`/applications/person/${id}`);
    await page.getByTestId("case-panel").getByRole("button", { name: "Assign to me" }).click();
    await expect(page.getByTestId("case-assignee")).toHaveText(reviewer);
    await page.goto("/reviews?assignee=mine");
    await expect(page.locator(`[data-testid="queue-row"][data-id="${id}"] [data-sla]`)).toHaveAttribute("data-sla", "ok");
    // One page of the reviewer's own: the count is the rows shown.
    expect(await count()).toBe(await page.getByTestId("queue-row").count());
  } finally {
    await context.close();
  }
});

test("queue rows are selected by checkbox or by keyboard, and the bulk bar assigns them to a reviewer and unassigns them", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    const row = (id: string) => page.locator(`[data-testid="queue-row"][data-id="${id}"]`);
    const bar = page.getByRole("region", { name: "Selected rows" });
    // The newest two unassigned business applications: the other tests take the oldest person applications.
    await page.goto("/reviews?assignee=unassigned&kind=business_application");
    await expect(page.getByTestId("queue-row").nth(1)).toBeVisible();
    const ids = await page.getByTestId("queue-row").evaluateAll((found) => found.slice(-2).map((element) => element.getAttribute("data-id")!));
    await page.getByRole("checkbox", { name: `Select ${ids[0]}` }).check();
    // Space on a focused row selects it as well.
    await row(ids[1]!).focus();
    await page.keyboard.press("Space");
    await expect(bar).toContainText("2 selected");
    await runQueueBulk(page, "Assign to a reviewer", reviewer);
    await expect(page.getByTestId("bulk-counts")).toContainText("Done: 2");

    // Both are the reviewer's now; unassigned again in one go, the queue is as it was.
    await page.goto("/reviews?assignee=mine&kind=business_application");
    for (const id of ids) {
      await expect(row(id)).toContainText(reviewer);
      await page.getByRole("checkbox", { name: `Select ${id}` }).check();
    }
    await runQueueBulk(page, "Unassign");
    await page.goto("/reviews?assignee=unassigned&kind=business_application");
    for (const id of ids) await expect(row(id)).toHaveCount(1);
  } finally {
    await context.close();
  }
});

test("a bulk assignment and unassignment show in the queue without a reload", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    const row = (id: string) => page.locator(`[data-testid="queue-row"][data-id="${id}"]`);
    // Every assignee, so the rows stay in the queue whoever holds them: the two oldest unassigned business applications.
    await page.goto("/reviews?kind=business_application");
    const unassigned = page.getByTestId("queue-row").filter({ has: page.getByRole("button", { name: "Assign to me" }) });
    await expect(unassigned.nth(1)).toBeVisible();
    const ids = await unassigned.evaluateAll((found) => found.slice(0, 2).map((element) => element.getAttribute("data-id")!));
    for (const id of ids) {
      await expect(row(id)).toContainText("Unassigned");
      await page.getByRole("checkbox", { name: `Select ${id}` }).check();
    }
    // Gone if the document were loaded again: the queue must change in place (router.refresh once the job is done).
    await page.evaluate(() => Object.assign(window, { queueNotReloaded: true }));
    // What the page asks, in order: the job's progress reads (and whether each found it done), and the queue rendered
    // again on the server (an RSC request). Starting a job refreshes the queue too, which a job of two rows may or may
    // not have finished by; only a render after a progress read found the job done is sure to show its outcome.
    const asked: { read: "progress" | "queue"; done?: Promise<boolean> }[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      const headers = request.headers();
      if (pathname.startsWith("/api/bulk/")) {
        const done = request.response().then(async (response) => ((await response?.json()) as { status?: string } | null)?.status === "done");
        asked.push({ read: "progress", done: done.catch(() => false) });
      } else if (pathname === "/reviews" && headers.rsc === "1" && !headers["next-router-prefetch"]) asked.push({ read: "queue" });
    });
    const queueRenderedAfterDone = async () => {
      const done = await Promise.all(asked.map((entry) => entry.done ?? false));
      const first = done.indexOf(true);
      return first >= 0 && asked.slice(first + 1).some((entry) => entry.read === "queue");
    };

    await runQueueBulk(page, "Assign to a reviewer", reviewer);
    await expect.poll(queueRenderedAfterDone).toBe(true);
    for (const id of ids) {
      await expect(row(id)).toContainText(reviewer);
      await expect(row(id).getByRole("button", { name: "Unassign", exact: true })).toBeVisible();
    }
    for (const id of ids) await page.getByRole("checkbox", { name: `Select ${id}` }).check();
    asked.length = 0;
    await runQueueBulk(page, "Unassign");
    await expect.poll(queueRenderedAfterDone).toBe(true);
    for (const id of ids) {
      await expect(row(id)).toContainText("Unassigned");
      await expect(row(id)).not.toContainText(reviewer);
      await expect(row(id).getByRole("button", { name: "Assign to me" })).toBeVisible();
    }
    expect(await page.evaluate(() => (window as { queueNotReloaded?: boolean }).queueNotReloaded)).toBe(true);
  } finally {
    await context.close();
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the queue and a case panel at 390 and 1440 px (${colorScheme}): screenshots, and no serious accessibility violation`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const context = await contextAs(browser, "compliance", { colorScheme });
    const page = await context.newPage();
    try {
      const [business] = (await bankGet("/apply/business_application?page_size=1")).data;
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/reviews");
        await expect(page.getByTestId("queue-row").first()).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`reviews-${width}-${colorScheme}.png`), fullPage: true });
        // A row's action is on the screen at this width, not past the table's horizontal scroll.
        await page.goto("/reviews?assignee=unassigned");
        const assign = page.getByTestId("queue-row").first().getByRole("button", { name: "Assign to me" });
        await expect(assign).toBeVisible();
        const box = (await assign.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await page.goto(`/applications/business/${business!.id}`);
        await expect(page.getByTestId("case-panel")).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`case-panel-${width}-${colorScheme}.png`), fullPage: true });
      }
      for (const path of ["/reviews", `/applications/business/${business!.id}`]) {
        await page.goto(path);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(
          violations
            .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
            .map((violation) => `${path}: ${violation.id}`),
        ).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
}
