import "server-only";
import { audited, recordAuditEvent } from "@/lib/audit";
import { consoleBankClient } from "@/lib/bank/console-client";
import { getActiveEnvironment } from "@/lib/credentials";
import { bankProxyResolver } from "./bank-proxy";

/** The proxy wired to the console's real environment, bank client and audit trail; used by the route and by pages. */
export const consoleBankProxy = bankProxyResolver({ activeEnvironment: getActiveEnvironment, bankClient: consoleBankClient, audited, recordAuditEvent });
