import { audited } from "@/lib/audit";
import { apiRoute } from "@/lib/api";
import { consoleBankClient } from "@/lib/bank/console-client";
import { getActiveEnvironment } from "@/lib/credentials";
import { env } from "@/lib/env/console";
import { consoleDb } from "@/lib/db/console";
import { bankExportResolver } from "@/lib/export/bank-export";

/**
 * `/api/export/<resource>`: a whole filtered bank list as CSV, streamed page by page from the bank (GET masked,
 * POST unmasked for `pii:reveal`), each export audited. See lib/export/bank-export.ts.
 */
const handler = apiRoute(
  bankExportResolver({
    activeEnvironment: getActiveEnvironment,
    bankClient: consoleBankClient,
    audited,
    indexDb: async () => (await consoleDb()).db,
    outageRetryAfterSeconds: env.BANK_BREAKER_HALF_OPEN_SECONDS,
  }),
);

export { handler as GET, handler as POST };
