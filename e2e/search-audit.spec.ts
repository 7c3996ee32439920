import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { bankGet, contextAs } from "./support/bank";

/**
 * The compliance reviewer's trail without keystroke noise, and reveals one field at a time (docs/search.md,
 * docs/reviews.md, docs/audit-trail.md): typing a name letter by letter in the header search leaves one audit record;
 * the audit log hides search records with one filter and says actions in words; revealing the SSN alone leaves the
 * date of birth masked. Screenshots at 390 and 1440 px, light and dark, and axe on what was added.
 */

const prefixes = ["S", "Sm", "Smi", "Smit", "Smith"] as const;

/** How many `search.masked_fields` records of the compliance user hold each query (the trail's CSV export). */
async function searchRecordCounts(context: BrowserContext): Promise<Record<string, number>> {
  const csv = await (await context.request.get("/api/audit/export?action=search.masked_fields&actor=compliance@")).text();
  // The `before` column is `{"query":"…"}`, its quotes doubled by CSV.
  const queries = csv.split("\r\n").flatMap((line) => [...line.matchAll(/\{""query"":""([^"]*)""\}/g)].map((match) => match[1]!));
  return Object.fromEntries(prefixes.map((prefix) => [prefix, queries.filter((query) => query === prefix).length]));
}

test("typing a name letter by letter in the header search as compliance leaves one audit record, for the name", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    await page.goto("/reviews");
    const before = await searchRecordCounts(context);
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/search")) sent.push(new URL(request.url()).search);
    });
    const recorded = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === "/api/search" && url.searchParams.get("q") === "Smith" && !url.searchParams.has("preview");
    });
    const box = page.getByRole("searchbox", { name: "Search the bank" });
    await box.click();
    await box.pressSequentially("Smith", { delay: 150 });
    expect((await recorded).status()).toBe(200);
    await expect(page.getByTestId("header-search-results")).toBeVisible();
    // While typing, only previews (public fields, never recorded) were asked for.
    expect(sent.filter((search) => !search.includes("preview=1"))).toEqual(["?q=Smith"]);

    const after = await searchRecordCounts(context);
    expect(Object.fromEntries(prefixes.map((prefix) => [prefix, after[prefix]! - before[prefix]!]))).toEqual({
      S: 0,
      Sm: 0,
      Smi: 0,
      Smit: 0,
      Smith: 1,
    });

    // The audit log: the record in words; one filter hides every search record.
    await page.goto("/audit?action=search.masked_fields&actor=compliance%40");
    const rows = page.getByTestId("audit-table").locator("tbody tr[data-action='search.masked_fields']");
    await expect(rows.first().getByTestId("audit-action-words")).toHaveText("Search over masked fields");
    await page.goto("/audit?actor=compliance%40&searches=hidden");
    await expect(page.getByTestId("audit-table")).toBeVisible();
    await expect(page.locator("tbody tr[data-action='search.masked_fields'], tbody tr[data-action$='.masked_filter']")).toHaveCount(0);
    await expect(page.getByTestId("filter-chip").filter({ hasText: "Search records" })).toBeVisible();
  } finally {
    await context.close();
  }
});

async function openRevealForm(page: Page, id: string) {
  await page.goto(`/applications/person/${id}`);
  await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
  await page.getByRole("button", { name: "Reveal masked fields (audited)" }).click();
  await page.getByLabel("Reason for the reveal (or ticket reference)").fill(`search-audit e2e ${Date.now()}`);
}

test("revealing the SSN alone leaves the date of birth masked; the record names the field", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  try {
    const applications = (await bankGet("/apply/person_application?page_size=20")).data;
    const application = applications.find((candidate) => candidate.identification_number_type === "ssn" && candidate.identification_number)!;
    expect(application, "a demo person application with an SSN").toBeDefined();
    const page = await context.newPage();
    await openRevealForm(page, String(application.id));
    await page.getByRole("checkbox", { name: "SSN" }).check();
    await page.getByRole("button", { name: /^Reveal selected for \d+ min \(audited\)$/ }).click();
    await expect(page.locator('[data-field="identification_number"]')).toHaveText(`${application.identification_number}revealed`);
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
    await expect(page.getByTestId("revealed-fields")).toContainText("SSN, masked again in");
    expect(await page.content()).not.toContain(String(application.date_of_birth));

    await page.goto(`/audit?action=person_application.reveal&target=${application.id}`);
    const row = page.getByTestId("audit-table").locator("tbody tr").first();
    await expect(row.getByTestId("audit-action-words")).toHaveText("Person application: masked fields revealed");
    await expect(row).toContainText("identification_number");
  } finally {
    await context.close();
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  // axe on the reveal form at 1440 px in both themes and at 390 px in light only: the dark theme changes colours, the
  // same at every width; the phone's run checks the narrow layout's structure, the same in both themes.
  const axeWidths = colorScheme === "light" ? [1440, 390] : [1440];
  test(`the reveal form and the audit log at 1440 and 390 px (${colorScheme}): screenshots, and no serious accessibility violation`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const context = await contextAs(browser, "compliance", { colorScheme });
    const page = await context.newPage();
    try {
      const [application] = (await bankGet("/apply/person_application?page_size=1")).data;
      // Each page loaded once at desktop width and narrowed: the layout is CSS alone.
      await page.setViewportSize({ width: 1440, height: 900 });
      await openRevealForm(page, String(application!.id));
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
        await expect(page.getByTestId("reveal-form")).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`reveal-form-${width}-${colorScheme}.png`), fullPage: true });
        if (!axeWidths.includes(width)) continue;
        const { violations } = await new AxeBuilder({ page }).include("[data-testid='reveal-form']").analyze();
        expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((v) => v.id)).toEqual([]);
      }
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto("/audit?searches=hidden");
      await expect(page.getByTestId("audit-table")).toBeVisible();
      // The whole audit log at 1440 px, as before.
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((v) => v.id)).toEqual([]);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
        await expect(page.getByTestId("audit-table")).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`audit-${width}-${colorScheme}.png`), fullPage: true });
      }
    } finally {
      await context.close();
    }
  });
}
