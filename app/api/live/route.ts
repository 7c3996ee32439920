import { apiRoute } from "@/lib/api";
import { liveStreamRoute } from "@/lib/index/live-feed-stream";
import { liveFeed, liveSessions } from "@/lib/index/live-feed-runtime";

/** `/api/live`: the index's changes as Server-Sent Events (protocol in lib/index/live-feed-stream.ts). */
export const GET = apiRoute(liveStreamRoute(liveFeed, liveSessions));

export const dynamic = "force-dynamic";
