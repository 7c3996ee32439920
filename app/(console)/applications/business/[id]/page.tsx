import { detailMetadata, ResourceDetailPage } from "@/components/bank/resource-pages";

export const generateMetadata = detailMetadata("business_application");

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="business_application" params={params} />;
}
