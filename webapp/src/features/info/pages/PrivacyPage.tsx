import { InfoDocument } from "../components/InfoDocument";

export default function PrivacyPage() {
  return <InfoDocument type="privacy" />;
}
