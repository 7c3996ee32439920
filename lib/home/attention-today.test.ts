import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListedResource } from "@/lib/contract/operations";
import * as schema from "@/lib/db/console-schema";
import { recordObservations, type ObservedState } from "@/lib/index/store";
import { assignCase } from "@/lib/reviews/store";
import { countFromIndex } from "@/lib/search/index-list";
import { parseIndexListQuery } from "@/lib/search/index-list-input";
import { queueFilterFrom } from "@/lib/reviews/filter";
import { countQueue } from "@/lib/reviews/queue";
import { resourceRoutes } from "@/lib/resources/routes";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { outcomesOfDays, stuckTransfers, usualHours, volumeByDay } from "./attention-today";
import { complianceFigures } from "./compliance";
import { daysEndingAt } from "./zone-days";

// Home's figures against brute-force counts of the index: every object read back and judged one by one in
// JavaScript, and each figure's link read by the index-served list, whose count must be the figure.

const environment = "production";
const zone = "America/New_York";
/** 10:00 in New York: today began at 05:00 UTC, yesterday at 05:00 UTC the day before. */
const now = new Date("2026-11-28T15:00:00Z");
const hour = 3_600_000;

const resourceOfRoute = (path: string) =>
  (Object.keys(resourceRoutes) as ListedResource[]).find((resource) => resourceRoutes[resource].route === path)!;

const kinds: ListedResource[] = ["ach", "network_transfer", "fednow"];
const statusesOf: Record<string, string[]> = {
  ach: ["pending", "processing", "sent", "returned", "canceled", "error"],
  network_transfer: ["pending", "sent", "canceled", "error"],
  fednow: ["pending", "processing", "sent", "done", "error"],
};

/** Objects spread over 16 days before `now`, every status, times near the day boundaries of New York and UTC. */
function observations(): ObservedState[] {
  const objects: ObservedState[] = [];
  let n = 0;
  for (const resource of kinds) {
    for (const status of statusesOf[resource]!) {
      for (const hoursAgo of [0.5, 9.9, 10.1, 20, 33.9, 34.1, 47, 60, 73, 100, 200, 380]) {
        n += 1;
        const updated = new Date(now.getTime() - hoursAgo * hour);
        const created = new Date(updated.getTime() - (n % 5) * 7 * hour);
        const id = `${resource === "fednow" ? "fednow" : resource === "ach" ? "ach" : "nt"}_home_${n}`;
        objects.push({
          resource,
          id,
          state: {
            id,
            status,
            amount: `${n * 3}.${String(n % 100).padStart(2, "0")}`,
            ...(resource === "fednow" && { currency: n % 7 === 0 ? "EUR" : "USD" }),
            created_at: created.toISOString(),
            updated_at: updated.toISOString(),
          },
        });
      }
    }
  }
  return objects;
}

describe.each(testDatabaseTargets)("Home's figures on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  type Row = { id: string; resource: string; state: Record<string, string>; created: Date; updated: Date };
  let rows: Row[] = [];

  /** What a link's list counts: its URL read as the index-served list reads it, counted as its header counts. */
  async function countOfLink(href: string): Promise<number> {
    const url = new URL(href, "http://console.test");
    const parsed = parseIndexListQuery(resourceOfRoute(url.pathname), Object.fromEntries(url.searchParams), now);
    if (!parsed.ok) throw new Error(parsed.error);
    return (await countFromIndex(database.db, environment, resourceOfRoute(url.pathname), parsed.page.filter)).count;
  }

  beforeAll(async () => {
    await recordObservations(database.db, environment, observations(), { source: "backfill" });
    const read = await database.db.execute<{ id: string; resource: string; state: Record<string, string> }>(
      sql`SELECT id, resource, state FROM ${schema.bankObjects} WHERE environment = ${environment} AND state IS NOT NULL`,
    );
    rows = read.rows.map((row) => ({ ...row, created: new Date(row.state.created_at!), updated: new Date(row.state.updated_at!) }));
    expect(rows).toHaveLength(observations().length);
  });

  const [yesterday, today] = daysEndingAt(now, zone, 2) as [ReturnType<typeof daysEndingAt>[0], ReturnType<typeof daysEndingAt>[0]];
  const within = (at: Date, day: { from: Date; before: Date }) => at >= day.from && at < day.before;

  it("counts today's and yesterday's returns and errors by the day each last changed in the staff member's zone", async () => {
    const figures = await outcomesOfDays(database.db, environment, today, yesterday);
    expect(figures.map((figure) => `${figure.resource}:${figure.status}`)).toEqual([
      "ach:returned",
      "ach:error",
      "network_transfer:error",
      "fednow:error",
    ]);
    for (const figure of figures) {
      const of = (day: typeof today) =>
        rows.filter((row) => row.resource === figure.resource && row.state.status === figure.status && within(row.updated, day)).length;
      expect(figure.today.count, `${figure.label} today`).toBe(of(today));
      expect(figure.yesterday.count, `${figure.label} yesterday`).toBe(of(yesterday));
      expect(figure.today.count).toBeGreaterThan(0);
      expect(await countOfLink(figure.today.href)).toBe(figure.today.count);
      expect(await countOfLink(figure.yesterday.href)).toBe(figure.yesterday.count);
    }
    expect(figures[0]!.today.href).toBe("/ach?status=returned&updated_in=2026-11-28T05%3A00%3A00Z%2F2026-11-29T05%3A00%3A00Z");
  });

  it("counts transfers unchanged for longer than their state's usual time", async () => {
    const figures = await stuckTransfers(database.db, environment, now);
    expect(figures).toHaveLength(usualHours.length);
    for (const figure of figures) {
      const expected = rows.filter(
        (row) =>
          row.resource === figure.resource && row.state.status === figure.status && now.getTime() - row.updated.getTime() > figure.hours * hour,
      ).length;
      expect(figure.count, `${figure.resource} ${figure.status}`).toBe(expected);
      expect(figure.count).toBeGreaterThan(0);
      expect(await countOfLink(figure.href)).toBe(figure.count);
    }
  });

  it("gives fourteen days of volume per kind, count and money, each day linked to exactly its transfers", async () => {
    const days = daysEndingAt(now, zone, 14);
    const volumes = await volumeByDay(database.db, environment, days);
    expect(volumes.map((volume) => volume.resource)).toEqual(kinds);
    for (const volume of volumes) {
      expect(volume.days.map((day) => day.day)).toEqual(days.map((day) => day.day));
      for (const [index, day] of volume.days.entries()) {
        const created = rows.filter((row) => row.resource === volume.resource && within(row.created, days[index]!));
        const cents: Record<string, number> = {};
        for (const row of created) {
          const currency = row.state.currency ?? "USD";
          cents[currency] = (cents[currency] ?? 0) + Math.round(Number(row.state.amount) * 100);
        }
        expect(day.count, `${volume.resource} ${day.day}`).toBe(created.length);
        expect(day.cents).toEqual(cents);
        expect(await countOfLink(day.href)).toBe(day.count);
      }
      expect(volume.days.reduce((sum, day) => sum + day.count, 0)).toBeGreaterThan(0);
    }
  });

  it("counts the review queue as the queue does: over the SLA, awaiting a second review, assigned to me", async () => {
    const me = { id: "user_home_reviewer", email: "reviewer@home.test" };
    const applications: ObservedState[] = [1, 30, 47, 49, 72, 200].map((hoursAgo, index) => ({
      resource: "person_application",
      id: `person_application_home_${index}`,
      state: {
        id: `person_application_home_${index}`,
        person_id: null,
        created_at: new Date(now.getTime() - hoursAgo * hour).toISOString(),
        updated_at: new Date(now.getTime() - hoursAgo * hour).toISOString(),
      },
    }));
    await recordObservations(database.db, environment, applications, { source: "backfill" });
    await assignCase(database.db, environment, "person_application_home_0", me);
    await assignCase(database.db, environment, "person_application_home_4", me);
    await database.db
      .insert(schema.reviewCases)
      .values({ environment, applicationId: "person_application_home_3", kind: "person_application", state: "awaiting_second_review" });

    const figures = await complianceFigures(database.db, environment, me, 48, now);
    expect(figures.overSla.count).toBe(3);
    expect(figures.awaitingSecondReview.count).toBe(1);
    expect(figures.assignedToMe.count).toBe(2);
    // Each link is the queue's own filter: read from its URL, the queue counts the figure.
    for (const [figure, count] of [
      [figures.overSla, (counts: Awaited<ReturnType<typeof countQueue>>) => counts.total],
      [figures.awaitingSecondReview, (counts: Awaited<ReturnType<typeof countQueue>>) => counts.total],
      [figures.assignedToMe, (counts: Awaited<ReturnType<typeof countQueue>>) => counts.total],
    ] as const) {
      const { filter, problems } = queueFilterFrom(Object.fromEntries(new URL(figure.href, "http://console.test").searchParams));
      expect(problems).toEqual([]);
      expect(count(await countQueue(database.db, environment, me, filter, 48, now))).toBe(figure.count);
    }
    expect(figures.overSla.href).toBe("/reviews?age=2d");
  });
});
