import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Cards · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="card" params={params} />;
}
