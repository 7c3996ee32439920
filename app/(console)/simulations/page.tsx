import { SimulationsPage } from "@/components/simulations/simulations-page";

export const metadata = { title: "Simulations · Bank console" };

export default SimulationsPage;
