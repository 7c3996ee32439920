import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Person applications · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="person_application" params={params} />;
}
