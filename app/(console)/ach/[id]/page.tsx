import { detailMetadata, ResourceDetailPage } from "@/components/bank/resource-pages";

export const generateMetadata = detailMetadata("ach");

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="ach" params={params} />;
}
