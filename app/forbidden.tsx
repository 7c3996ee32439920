import Link from "next/link";

/** Rendered with status 403 when a signed-in user opens a page their role does not allow (forbidden()). */
export default function Forbidden() {
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-semibold">Not allowed</h1>
      <p className="mt-2 text-muted">Your role does not give access to this page. Ask an admin if you need it.</p>
      <Link href="/" className="mt-4 inline-block text-sm underline">
        Back to the console
      </Link>
    </main>
  );
}
