export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-2xl font-semibold">Bank console</h1>
      <p className="mt-2 text-slate-600">Find and fix money movements, read account applications, manage webhooks.</p>
    </main>
  );
}
