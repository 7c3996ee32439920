import { currentReceiverCredentials, storeReceivedNotification } from "@/lib/index/runtime";
import { receiveNotification } from "@/lib/index/receiver";

/** The bank's webhooks land here (docs/bank-index.md): Basic auth, not a staff session. */
export async function POST(request: Request, context: { params: Promise<{ environment: string }> }): Promise<Response> {
  const { environment } = await context.params;
  return receiveNotification(request, environment, { credentialsOf: currentReceiverCredentials, store: storeReceivedNotification });
}
