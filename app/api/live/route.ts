import { apiRoute } from "@/lib/api";
import { liveStreamRoute } from "@/lib/index/live-feed-stream";
import { liveFeed } from "@/lib/index/live-feed-runtime";

/** `/api/live`: the index's changes as Server-Sent Events (protocol in lib/index/live-feed-stream.ts). */
export const GET = apiRoute(liveStreamRoute(liveFeed));

export const dynamic = "force-dynamic";
