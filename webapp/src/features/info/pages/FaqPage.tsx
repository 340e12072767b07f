import { FaqAccordion } from "../components/FaqAccordion";

export default function FaqPage() {
  return <FaqAccordion />;
}
