/**
 * A console process for lib/index/restart.test.ts: serves the receiver on a free port and runs the inbox worker, whose
 * bank never answers, so every notification is acknowledged (200) and claimed but never processed. It prints
 * `listening <url>` and then `claimed <n>` as rows are taken; the test kills it with SIGKILL at that point.
 * Arguments: <database url> <receiver username> <receiver secret>.
 */
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { claimDueNotifications, storeNotification } from "@/lib/index/inbox";
import { serveReceiver } from "@/tests/support/receiver-server";

const [url, username, secret] = process.argv.slice(2) as [string, string, string];
const database = connectDatabase(url, schema, { max: 2 });
const receiver = await serveReceiver({
  credentialsOf: async () => ({ username, secret, keyId: "rcv_test" }),
  store: (environment, notification) => storeNotification(database.db, environment, notification),
});
console.log(`listening ${receiver.url("sandbox")}`);
// The worker's first step, with a bank that never answers: claim with a short lease, then hang.
setInterval(async () => {
  const claimed = await claimDueNotifications(database.db, 100, 1000);
  if (claimed.length > 0) console.log(`claimed ${claimed.length}`);
}, 50);
