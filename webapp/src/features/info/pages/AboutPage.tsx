import { InfoDocument } from "../components/InfoDocument";

export default function AboutPage() {
  return <InfoDocument type="about" />;
}
