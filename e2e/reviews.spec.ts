import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { formatCalendarDate } from "@/lib/format";
import { baseURL } from "../playwright.config";
import { bankGet, contextAs } from "./support/bank";
import { reviewAuditLines, takeFromQueue } from "./support/reviews";
import { demoUser } from "./support/staff";

/**
 * Compliance review (docs/reviews.md), two reviewers in two browser contexts: the compliance demo user works a case and
 * proposes a decision, the admin (who also holds review:confirm) confirms it; the case record holds every step. And a
 * reveal: it asks a reason, the timeline shows it at once, and the page masks the data again after REVEAL_MINUTES.
 * The queue itself (filters, paging, counts, bulk assignment, screenshots) is in review-queue.spec.ts.
 */

const reviewer = demoUser("compliance").email;
const second = demoUser("admin").email;

interface PostedAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** Every server action `page` posts (Next.js names it in the `next-action` header), to replay word for word as another role. */
function recordServerActions(page: Page): PostedAction[] {
  const posted: PostedAction[] = [];
  page.on("request", async (request) => {
    if (request.method() !== "POST") return;
    const headers = await request.allHeaders();
    if (headers["next-action"]) posted.push({ url: request.url(), headers, body: request.postDataBuffer() });
  });
  return posted;
}

test("two reviewers: assign, checklist, propose a decline with a reason code, a second reviewer confirms, the case record holds every step", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const first = await contextAs(browser, "compliance");
  const other = await contextAs(browser, "admin");
  try {
    const a = await first.newPage();
    const b = await other.newPage();
    const postedByReviewers = [recordServerActions(a), recordServerActions(b)];
    const id = await takeFromQueue(a, reviewer);

    // The second reviewer cannot take or work a case someone else has.
    await b.goto(`/applications/person/${id}`);
    await expect(b.getByTestId("case-assignee")).toHaveText(reviewer);
    await expect(b.getByTestId("checklist").getByRole("button", { name: "Save" })).toHaveCount(0);

    await a.goto(`/applications/person/${id}`);
    const panel = a.getByTestId("case-panel");
    await expect(panel.getByTestId("case-state")).toHaveText("Open");
    const identity = panel.locator('[data-testid="checklist-item"][data-item="identity"]');
    await identity.getByLabel("Mark Identity (name matches documents)").selectOption("verified");
    await identity.getByRole("button", { name: "Save" }).click();
    await expect(identity.getByTestId("checklist-mark")).toContainText(`Verified · ${reviewer}`);
    const address = panel.locator('[data-testid="checklist-item"][data-item="address"]');
    await address.getByLabel("Mark Address").selectOption("discrepancy");
    await address.getByLabel("Note on Address").fill("utility bill shows another street");
    await address.getByRole("button", { name: "Save" }).click();
    await expect(address.getByTestId("checklist-mark")).toContainText("Discrepancy");
    // Confirmed in words, and the control shows what was saved (not the first of its options).
    await expect(address.getByRole("status")).toHaveText("Address marked as a discrepancy: utility bill shows another street");
    await expect(address.getByLabel("Mark Address")).toHaveValue("discrepancy");
    // Notes on an item are a history (append-only): each with its author and time, below the mark.
    await expect(address.getByTestId("checklist-notes")).toContainText(`${reviewer} · `);
    await expect(address.getByTestId("checklist-notes")).toContainText("utility bill shows another street");
    await panel.getByLabel("New note").fill("Called the applicant; no answer");
    await panel.getByRole("button", { name: "Add note" }).click();
    await expect(panel.getByTestId("case-notes")).toContainText("Called the applicant; no answer");

    // After a reload too; the timeline tells the step in words, not the audit trail's codes.
    await a.goto(`/applications/person/${id}`);
    await expect(address.getByLabel("Mark Address")).toHaveValue("discrepancy");
    await expect(address.getByTestId("checklist-mark")).toContainText("Discrepancy");
    await expect(identity.getByLabel("Mark Identity (name matches documents)")).toHaveValue("verified");
    const markedEntry = a
      .locator('[data-testid="timeline-audit"][data-action="review.checklist.mark"]')
      .filter({ hasText: "Address marked as a discrepancy: utility bill shows another street" });
    await expect(markedEntry).toHaveCount(1);
    await expect(a.getByTestId("timeline")).not.toContainText("review.checklist.mark");

    // The documents as a section the reviewer can copy from, saying where the files are; and where the decision goes.
    const application = await bankGet<{ first_name: string; last_name: string; document_ids: string[] }>(`/apply/person_application/${id}`);
    const documents = panel.getByTestId("case-documents");
    await expect(documents).toContainText("The bank's API gives document ids only; open them in the bank's document store.");
    await expect(documents.getByTestId("case-document")).toHaveCount(application.document_ids.length);
    for (const documentId of application.document_ids)
      await expect(documents.getByRole("button", { name: `Copy document id ${documentId}` })).toBeVisible();
    await expect(panel.getByTestId("decision-reach")).toContainText("is not sent to the bank");

    const propose = panel.getByTestId("propose-form");
    await propose.getByLabel("Decision").selectOption("decline");
    await propose.getByLabel("Reason code").selectOption("identity_not_verified");
    await propose.getByLabel("Note (required)").fill("Address discrepancy not explained");
    await propose.getByRole("button", { name: "Propose for second review" }).click();
    await expect(panel.getByTestId("awaiting-second-review")).toContainText("You proposed it");
    await expect(panel.getByTestId("case-state")).toHaveText("Awaiting second review");
    await expect(panel.getByRole("button", { name: "Confirm decision" })).toHaveCount(0);
    await panel.screenshot({ path: testInfo.outputPath("case-panel-awaiting-1440-light.png") });

    // The same reviewer under another session is still the proposer: no confirmation offered.
    const sameUser = await contextAs(browser, "compliance");
    const again = await sameUser.newPage();
    await again.goto(`/applications/person/${id}`);
    await expect(again.getByTestId("awaiting-second-review")).toContainText("You proposed it");
    await sameUser.close();

    // In the reviewer's own filter while it awaits the second review.
    await a.goto("/reviews?assignee=mine&state=awaiting_second_review");
    await expect(a.locator(`[data-testid="queue-row"][data-id="${id}"]`).getByTestId("queue-state")).toHaveText("Awaiting second review");

    await b.goto(`/applications/person/${id}`);
    const pending = b.getByTestId("awaiting-second-review");
    await expect(pending).toContainText(`${reviewer} proposes Decline · Identity could not be verified`);
    await b.getByTestId("case-panel").screenshot({ path: testInfo.outputPath("case-panel-second-reviewer-1440-light.png") });
    await pending.getByRole("button", { name: "Confirm decision" }).click();
    await expect(b.getByTestId("case-state")).toHaveText("Decided");
    await expect(b.getByTestId("case-decision")).toHaveText("Decline · Identity could not be verified");

    const download = b.waitForEvent("download");
    await b.getByTestId("record-html").click();
    const html = readFileSync((await (await download).path())!, "utf8");
    for (const text of [
      "Decline",
      "identity_not_verified: Identity could not be verified",
      "utility bill shows another street",
      "Called the applicant; no answer",
      "Address discrepancy not explained",
      reviewer,
      second,
      "Decision confirmed by a second reviewer: Decline · Identity could not be verified",
      "Address marked as a discrepancy: utility bill shows another street",
    ]) {
      expect(html, text).toContain(text);
    }
    // Opened, it is titled by the case and the applicant, and reads at the page's width.
    const opened = await other.newPage();
    await opened.setViewportSize({ width: 1440, height: 900 });
    await opened.setContent(html);
    await expect(opened).toHaveTitle(`Case record ${id} · ${application.first_name} ${application.last_name}`);
    expect(await opened.evaluate(() => document.body.getBoundingClientRect().width)).toBeGreaterThan(1300);
    await opened.screenshot({ path: testInfo.outputPath("case-record-1440-light.png"), fullPage: true });
    await opened.close();
    const json = await other.request.get(`/api/reviews/${id}/record?format=json`);
    expect(json.status()).toBe(200);
    const record = await json.json();
    expect(record.decisions).toEqual([
      expect.objectContaining({
        decision: "decline",
        reasonCode: "identity_not_verified",
        state: "confirmed",
        proposedByEmail: reviewer,
        resolvedByEmail: second,
      }),
    ]);
    expect(record.auditTrail.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining([
        "review.assign",
        "review.checklist.mark",
        "review.note.add",
        "review.decision.propose",
        "review.decision.confirm",
        "review.record.download",
      ]),
    );
    await a.goto("/reviews?state=decided");
    await expect(a.locator(`[data-testid="queue-row"][data-id="${id}"]`).getByTestId("queue-state")).toHaveText("Decided");

    // Whatever the UI shows, the server refuses every one of these actions to roles without review:decide: each one
    // the two reviewers posted (assign, checklist, note, propose, confirm), replayed as the viewer and operations, is
    // a 403 and leaves no audit record.
    const posted = postedByReviewers.flat();
    expect(posted.length).toBeGreaterThanOrEqual(6);
    for (const role of ["viewer", "operations"] as const) {
      const outsider = await contextAs(browser, role);
      const email = demoUser(role).email;
      try {
        const before = await reviewAuditLines(other, email);
        for (const action of posted) {
          const response = await outsider.request.post(action.url, {
            headers: {
              "next-action": action.headers["next-action"]!,
              "content-type": action.headers["content-type"]!,
              accept: "text/x-component",
              origin: baseURL,
            },
            data: action.body ?? undefined,
            maxRedirects: 0,
          });
          expect(response.status(), `${role} replaying ${action.headers["next-action"]}`).toBe(403);
        }
        expect(await reviewAuditLines(other, email)).toEqual(before);
      } finally {
        await outsider.close();
      }
    }
  } finally {
    await first.close();
    await other.close();
  }
});

test("a reveal asks a reason, shows in the timeline at once with the reason, and masks again after the time", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  try {
    const [application] = (await bankGet("/apply/person_application?page_size=3")).data.slice(2);
    const refused = await context.request.post(`/api/bank/apply/person_application/${application!.id}/reveal`, { headers: { origin: baseURL } });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).error.message).toContain("reason");

    const page = await context.newPage();
    await page.goto(`/applications/person/${application!.id}`);
    // The clock is faked once the page works (a fake clock before hydration holds React's scheduled work): the
    // reveal and its expiry, which it times, come after.
    await page.clock.install();
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
    await page.getByRole("button", { name: "Reveal masked fields (audited)" }).click();
    const submit = page.getByRole("button", { name: "Reveal selected for 10 min (audited)" });
    await expect(submit).toBeDisabled();
    const reason = `TICKET-${Date.now()}`;
    await page.getByLabel("Reason for the reveal (or ticket reference)").fill(reason);
    // A reveal names its fields: the reason alone is not enough to send it.
    await expect(submit).toBeDisabled();
    await page.getByRole("checkbox", { name: "Date of birth" }).check();
    await submit.click();
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText(`${formatCalendarDate(String(application!.date_of_birth))}revealed`);
    const entry = page.locator('[data-testid="timeline-audit"][data-action="person_application.reveal"]').filter({ hasText: reason });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText("fields shown: Date of birth");
    await page.clock.fastForward("10:01");
    await expect(page.getByTestId("revealed-banner")).toHaveCount(0);
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
  } finally {
    await context.close();
  }
});
