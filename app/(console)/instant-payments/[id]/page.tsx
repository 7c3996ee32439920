import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Instant payments · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="fednow" params={params} />;
}
