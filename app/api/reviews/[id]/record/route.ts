import { apiRoute, type RouteDefinition } from "@/lib/api";
import { audited } from "@/lib/audit";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { caseRecordRoute } from "@/lib/reviews/record-download";

/**
 * GET /api/reviews/{application id}/record?format=html|json : a case's complete record for examiners (docs/reviews.md),
 * as a self-contained printable HTML page or JSON; every download is audited (`review.record.download`).
 */
export const GET = apiRoute(
  caseRecordRoute(async () => ({
    db: (await consoleDb()).db,
    environment: await getActiveEnvironment(),
    audited,
    retentionYears: env.REVIEW_RECORD_RETENTION_YEARS,
  })) as RouteDefinition,
);
