import { InfoDocument } from "../components/InfoDocument";

export default function TermsPage() {
  return <InfoDocument type="terms" />;
}
