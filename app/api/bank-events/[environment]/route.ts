import { receiveBankEvent } from "@/lib/index/runtime";

/**
 * The bank's webhooks land here (docs/bank-index.md): Basic auth, not a staff session. Under `npm start` the console's
 * own server answers them before Next.js (lib/index/direct-receiver.ts); this route serves `next dev`.
 */
export async function POST(request: Request, context: { params: Promise<{ environment: string }> }): Promise<Response> {
  const { environment } = await context.params;
  return receiveBankEvent(request, environment);
}
