import { KeysetPager } from "@/components/ui/keyset-pager";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { ReviewQueue } from "@/components/reviews/review-queue";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { defaultPageSize, listStateFrom } from "@/lib/resources/list-state";
import { queueCursorFrom, queueCursorText, queueFilterFrom } from "@/lib/reviews/filter";
import { countQueue, readQueue } from "@/lib/reviews/queue";

export const metadata = { title: "Review queue" };

export default async function ReviewsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser("review:decide");
  const environment = await getActiveEnvironment();
  const query = await searchParams;
  const { filter, problems } = queueFilterFrom(query);
  const { cursor, problem } = queueCursorFrom(query.page_cursor);
  if (problem) problems.push(problem);
  const { db } = await consoleDb();
  const now = new Date();
  const [{ rows, next }, counts] = await Promise.all([
    readQueue(db, environment, user, filter, { after: cursor, size: defaultPageSize }, now),
    countQueue(db, environment, user, filter, env.REVIEW_SLA_HOURS, now),
  ]);
  const shownQuery = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  // The pager's links carry the filters and the pages walked through (lib/resources/list-state.ts); the size is fixed.
  const listed = listStateFrom(query);
  const filters = Object.fromEntries(Object.entries(listed.query).filter(([name]) => name !== "page_size" && name !== "page_cursor"));
  const pageState = cursor
    ? { query: { ...filters, page_cursor: queueCursorText(cursor) }, history: listed.history }
    : { query: filters, history: [] };
  return (
    <>
      <PageHeader
        title="Review queue"
        description={`Person and business applications in the ${environment} environment awaiting a compliance decision, oldest first (from the console's index of the bank). A decision takes effect once a second reviewer confirms it. SLA: ${env.REVIEW_SLA_HOURS} h.`}
      />
      {problems.length ? (
        <div className="mb-4">
          <Notice tone="error" testId="queue-filter-error">
            {problems.join("; ")}
          </Notice>
        </div>
      ) : null}
      <ReviewQueue
        rows={rows}
        empty={cursor ? "No more applications after this page." : "No application matches these filters."}
        user={user}
        slaHours={env.REVIEW_SLA_HOURS}
        counts={counts}
        query={shownQuery}
      />
      <KeysetPager path="/reviews" state={pageState} rows={rows.length} nextCursor={next ? queueCursorText(next) : null} />
    </>
  );
}
