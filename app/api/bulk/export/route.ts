import { apiRoute } from "@/lib/api";
import { consoleSelectionExport } from "@/lib/bulk/console-bulk";

/** POST /api/bulk/export: the selected rows as CSV, audited like every export. */
export const POST = apiRoute(consoleSelectionExport);
