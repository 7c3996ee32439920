import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { ageOptions, defaultQueueFilter } from "@/lib/reviews/filter";
import { countQueue } from "@/lib/reviews/queue";
import type { Reviewer } from "@/lib/reviews/store";
import type { LinkedCount } from "./attention-today";

export interface ComplianceFigures {
  slaHours: number;
  overSla: LinkedCount;
  awaitingSecondReview: LinkedCount;
  assignedToMe: LinkedCount;
}

/**
 * The review queue's own counts (lib/reviews/queue.ts), each with the queue's filter that lists them. "Over the SLA"
 * links to the queue's age filter when one equals the SLA (48 h: `age=2d`); otherwise to the queue, whose header
 * counts the same applications as over.
 */
export async function complianceFigures(
  db: ConsoleDb,
  environment: Environment,
  viewer: Reviewer,
  slaHours: number,
  now: Date,
): Promise<ComplianceFigures> {
  const [undecided, awaiting, mine] = await Promise.all([
    countQueue(db, environment, viewer, defaultQueueFilter, slaHours, now),
    countQueue(db, environment, viewer, { ...defaultQueueFilter, state: "awaiting_second_review" }, slaHours, now),
    countQueue(db, environment, viewer, { ...defaultQueueFilter, assignee: "mine" }, slaHours, now),
  ]);
  const slaAge = ageOptions.find((option) => option.hours === slaHours && option.value);
  return {
    slaHours,
    overSla: { count: undecided.sla.over, href: slaAge ? `/reviews?age=${slaAge.value}` : "/reviews" },
    awaitingSecondReview: { count: awaiting.total, href: "/reviews?state=awaiting_second_review" },
    assignedToMe: { count: mine.total, href: "/reviews?assignee=mine" },
  };
}
