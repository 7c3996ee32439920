import { headers } from "next/headers";
import { inSentence } from "@/lib/format";
import Link from "next/link";
import { requestPathHeader } from "@/lib/auth/request-path";
import { resourceForId } from "@/lib/resources";

/** A 404 inside the console: for a detail page, says which object is missing rather than only "not found". */
export default async function NotFound() {
  const path = (await headers()).get(requestPathHeader) ?? "";
  const last = decodeURIComponent(path.split("?")[0]!.split("/").filter(Boolean).at(-1) ?? "");
  const definition = resourceForId(last);
  return (
    <div data-testid="not-found" className="rounded-md border border-line bg-surface p-6">
      <h1 className="text-xl font-semibold">{definition ? `${definition.singular} not found` : "Page not found"}</h1>
      <p className="mt-2 text-sm text-muted">
        {definition ? (
          <>
            No {inSentence(definition.singular)} with id <span className="font-mono text-fg">{last}</span> exists in this environment.
          </>
        ) : (
          <>Nothing exists at this address.</>
        )}
      </p>
      <p className="mt-3 text-sm">
        <Link className="link" href={definition ? definition.route : "/"}>
          {definition ? `All ${inSentence(definition.title)}` : "Home"}
        </Link>
      </p>
    </div>
  );
}
